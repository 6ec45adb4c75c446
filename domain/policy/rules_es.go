package policy

// Spanish word classes (accents folded: "muéstrame" is "muestrame", "dueño" is "dueno").
const (
	esShow = "muestra|muestrame|muestranos|muestre|muestreme|mostrar|mostrarme|ensena|ensename|ensene|" +
		"enseneme|dame|danos|deme|dar|darme|manda|mandame|mande|mandeme|envia|enviame|envie|envieme|" +
		"enviar|pasa|pasame|pase|paseme|lista|listar|ver|exporta|exporte|exportar|comparte|" +
		"comparteme|compartir|dime|di|digame|decir|cuentame|cuenteme|informa|informame|revela|" +
		"revelame|revelar|quiero|quisiera|necesito|acceder|abre|abra|descarga|descargar|imprime|" +
		"imprimir|cuales|cual"
	esPeople = "cliente*|usuario*|persona*|comprador*|consumidor*|visitante*|huesped*|paciente*"
	esOthers = "otro|otros|otra|otras|demas|todos|todas|todos_los|todas_las|de_otros|de_otras|" +
		"los_otros|las_otras|tus|sus|vuestros"
	esData = "leads|lead|pedidos|pedido|ordenes|orden|conversaciones|conversacion|chats|mensajes|" +
		"mensaje|informe*|reporte*|reservas|reserva|reservaciones|citas|cita|contactos|datos|" +
		"correos|emails|email*|telefonos|telefono*|numeros|direcciones|direccion*|historial*|" +
		"compras|compra|ventas|nombres|informacion|info|lista|registros|pagos|perfiles|cuentas"
	esContact = "contacto|contactos|correo|correos|email|emails|telefono|telefonos|numero|numeros|" +
		"direccion|direcciones|nombre|nombres|datos|lista|base|historial|datos_personales|informacion"
	esBusy = "leads|pedidos|ordenes|ventas|conversaciones|mensajes|compras"
	esBook = "reservas|citas|reservaciones"
	esWhen = "de_hoy|de_ayer|de_esta_semana|de_este_mes|del_dia|del_mes|recientes|nuevos|nuevas|" +
		"pendientes|de_todos|de_todas|de_los_clientes|de_clientes"
	esChange = "cambia|cambie|cambiar|cambien|cambies|modifica|modifique|modificar|modifiques|" +
		"actualiza|actualice|actualizar|actualices|edita|edite|editar|edites|configura|configure|" +
		"configurar|configures|reconfigura|reconfigure|ajusta|ajuste|ajustar|ajustes|reescribe|" +
		"reescriba|reescribir|redefine|redefina|redefinir|define|defina|definir|pon|ponga|poner|" +
		"pongas|haz|haga|hacer|hagas|vuelve|vuelva|personaliza|personalice|personalizar|renombra|" +
		"renombre|renombrar|reprograma|reprograme|reprogramar"
	esIgnore = "ignora|ignore|ignorar|ignoren|ignores|olvida|olvide|olvidar|olvidate|olvidese|" +
		"olvides|descarta|descarte|omite|omita|omitir|desobedece|desobedezca|anula|anule|salta|" +
		"saltate|sobrescribe|reemplaza|pasa_por_alto|pase_por_alto|evita|evade|elude"
	esRules = "instrucciones|instruccion|reglas|ordenes|directrices|indicaciones|comandos|" +
		"restricciones|limitaciones|programacion|prompt|filtros|politicas|normas|directivas|" +
		"configuracion"
	esAdmin = "admin|administrador|administradora|dueno|duena|propietario|propietaria|" +
		"desarrollador|desarrolladora|programador|gerente|root|superusuario|sistema|hacker|dan|" +
		"chatgpt|otra_ia|otro_asistente|ia_sin|asistente_sin"
	esRole = "dueno|duena|duenos|propietario|propietaria|administrador|administradora|admin|gerente|" +
		"encargado|encargada|jefe|jefa|responsable|desarrollador|desarrolladora|programador|" +
		"programadora|empleado|empleada|creador|creadora|socio|socia|director|directora|" +
		"supervisor|supervisora|ceo|fundador|fundadora|operador|operadora"
	esEnd = "$|que|de_arriba|arriba|otra_vez|de_nuevo|palabra_por_palabra|exactamente|completas|" +
		"completo|completa|completos|textualmente|por_favor|ahora|y|recibiste|te_dieron|tienes|" +
		"aqui|son|originales|iniciales|ocultas|secretas|internas"
	esToldEnd = "$|antes|al_principio|al_inicio|inicialmente|originalmente|hacer|decir|que_no|" +
		"que_hagas|que_digas|por_el_dueno|por_el_desarrollador|por_el_programador|en_secreto|" +
		"antes_de_esta|antes_de_la"
)

// spanish holds the Spanish rules.
var spanish = lexicon{
	claims: claim("^ de|en|para un|una|unos|unas|mi|mis|otro|otra|otros|otras|varios|varias|dos|pequeno|pequena|gran|grande",
		"soy|yo_soy|aqui|habla|hablas_con|hablando_con|te_habla|le_habla|como|siendo|en_calidad_de el|la|un|una|tu|su? "+esRole,
		"la_tienda|el_negocio|la_empresa|el_sitio|la_web|el_restaurante|la_panaderia|el_bot|el_chatbot|este_bot|el_asistente|esto|todo_esto es mio|mia|mios|mias",
		"yo_trabajo|trabajo aqui|en_la_tienda|para_ustedes|para_vosotros|en_esta_tienda|en_esta_empresa|en_la_empresa",
		"soy_parte_del_equipo|formo_parte_del_equipo|soy_del_equipo|soy_del_staff",
		"yo_te|te|fui_yo_quien_te cree|programe|configure|entrene|monte",
		"en_nombre_del|en_nombre_de_la dueno|duena|propietario|propietaria|gerente|jefe|jefa|administrador|gerencia|direccion",
		"el|la|tu|su dueno|duena|jefe|jefa|gerente|propietario aqui|hablando|pidio|mando|autorizo|quiere",
		"mi tienda|empresa|negocio|restaurante|panaderia|sitio|web|bot|chatbot|asistente|agente|local|clinica",
	),
	ownerOnly: append(strict(
		esShow+" ~4 mensajes|notificaciones|bandeja_de_entrada|panel|saldo|uso|interacciones|facturacion|cobros|contrasena|clave_de_la_api|credenciales|estadisticas|actividades|actividad|tareas|agenda|calendario|clientes|visitantes|resenas|comentarios|configuracion|ajustes|registros|logs",
		"sigue|siga|obedece|obedezca|cumple|cumpla|ejecuta|ejecute ~1 mis|estas|esas ordenes|instrucciones|comandos|indicaciones",
		"obedeceme|obedezcame|obedece_me|haz_lo_que_te_digo|haga_lo_que_le_digo|haz_lo_que_yo_diga|haz_lo_que_digo",
		"avisa|avise|informa|informe|di|diga|dile|dales|manda|mande|responde|responda ~1 a? todos|todas|los|todos_los|todas_las? clientes|visitantes|usuarios|seguidores",
	), own(
		esShow+" ~4 pedidos|ordenes|reservas|citas|reservaciones|facturas|pagos|ventas",
		"cancela|cancele|cancelar|reembolsa|reembolse|aprueba|apruebe|confirma|confirme|acepta|acepte|rechaza|rechace ~3 pedido|pedidos|orden|ordenes|reserva|reservas|cita|citas|reembolso|reembolsos|pago|pagos",
	)...),
	override: append(own(
		esIgnore+" ~2 todas|todos|tus|sus|cualquier|todas_las|todos_los|las_tuyas|vuestras|tu|su ~2 "+esRules,
		esIgnore+" ~3 "+esRules+" ~1 anteriores|previas|de_arriba|iniciales|originales|del_sistema|de_sistema|que_te_dieron|que_recibiste|hasta_ahora",
		"no_sigas|no_siga|no_sigan|no_obedezcas|no_obedezca|deja_de_seguir|deje_de_seguir|no_respetes|no_respete|no_tienes_que_seguir|no_necesitas_seguir|no_hace_falta_seguir|no_tienes_por_que_seguir ~2 "+esRules,
	), strict(
		esIgnore+" ~2 todo ~3 lo_que_te_dijeron|lo_que_te_han_dicho|lo_que_sabes|lo_anterior|de_arriba|antes|hasta_ahora",
		"a_partir_de_ahora|de_ahora_en_adelante|desde_ahora|en_adelante|desde_este_momento|a_partir_de_este_momento ~2 tu|usted? eres|sera|seras|vas_a_ser|actuas|actuaras|actua|responde|responderas|vas_a_responder|no_tienes|ignora|ignoras|ignoraras|finge|fingiras|hablaras|habla|se|debes|tienes_que",
		"ahora|ya eres|seras|estas un|una|el|la|mi|libre|liberado|liberada|desbloqueado|desbloqueada",
		"finge|fingir|finja|fingi|haz_como_si|haga_como_si|haz_de_cuenta|haga_de_cuenta|simula|simule|simular ~3 que|ser|eres|como",
		"imagina|imagine que? eres|tu_eres|fueras|no_tienes|es",
		"actua|actue|comportate|comportese|responde|responda|habla|hable|funciona|opera ~1 como ~3 "+esAdmin,
		"papel|personaje|rol de|del ~1 "+esAdmin,
		"juego_de_rol|juego_de_roles|roleplay|role_play",
		"modo ~1 desarrollador|developer|dev|admin|administrador|dios|god|debug|depuracion|mantenimiento|sin_restricciones|sin_reglas|sin_filtros|sin_censura|jailbreak|dan|root|sudo|libre|irrestricto|programador",
		"asistente|bot|chatbot|ia|agente|modelo|version|personaje|robot ~2 sin|libre_de ~1 reglas|restricciones|filtros|limites|censura|limitaciones|directrices|etica|moral|instrucciones",
		"nuevas|nueva|verdaderas|reales|ultimas instrucciones|directrices|ordenes|reglas|programacion son|es|estas|abajo|a_continuacion|siguientes",
		"tu|su nueva|verdadera|unica|real funcion|tarea|mision|identidad|personalidad|instruccion|directriz|orden|prioridad",
		"desactiva|desactive|desactivar|apaga|apague|quita|quite|elimina|elimine|salta|evita|evade|elude ~1 tus|sus|todos_tus|todos_los|todas_las|cualquier|los|las ~1 filtros|restricciones|protecciones|censura|salvaguardas|reglas_de_seguridad|limites_de_seguridad",
	)...),
	prompt: append(strict(
		"prompt del|de sistema",
		"traduce|traduzca|traducir ~2 tus|sus|las_tuyas ~1 instrucciones|prompt|reglas|directrices|indicaciones",
		"prompt inicial|original|oculto|secreto|interno|base|principal",
		"instrucciones|instruccion|reglas|directrices|indicaciones|programacion|configuracion|mensaje del_sistema|de_sistema|ocultas|oculta|secretas|secreta|internas|confidenciales|iniciales|originales "+esEnd,
		esShow+"|repite|repita|escribe|escriba|copia|copie|pega|pegue|resume|resuma|explica|explique ~4 tus|sus|las_tuyas|tu|su|vuestras ~1 instrucciones|prompt|reglas|directrices|indicaciones|programacion|configuracion|ajustes|comandos|parametros "+esEnd,
		"empezando|comenzando|que_empieza|que_comienza|que_empiezan|que_comienzan con|por tu_eres|eres|you_are|system|usted_es",
		"que ~1 te|le ~1 dijeron|ordenaron|pidieron|indicaron|programaron|instruyeron|ensenaron|dieron|han_dicho|han_ordenado|han_programado|han_indicado "+esToldEnd,
		"como te|fuiste|estas|has_sido|le|fue ~1 programado|programada|configurado|configurada|instruido|instruida|entrenado|entrenada|programaron|configuraron|instruyeron "+esToldEnd,
		"que|cuales instrucciones|reglas|ordenes|directrices|indicaciones te_dieron|le_dieron|recibiste|recibio|sigues|sigue|tienes_que_seguir|debes_seguir|obedeces|te_han_dado",
		"todo|texto|lo_que_esta|lo_que_se_dijo|lo_que_se_escribio|lo_que_hay antes|arriba de_esta|de_este|de_la|del conversacion|mensaje|linea|chat",
	), own(
		"repite|repita|repetir|escribe|escriba|imprime|imprima|copia|copie|muestra|muestrame|dime|di|pega|pegue|reproduce ~4 texto|todo|mensaje|mensajes|contenido|instrucciones|lineas|frases|prompt ~2 de_arriba|arriba|anterior|anteriores|previo|previos|antes|del_principio|del_inicio",
	)...),
	settings: append(strict(
		esChange+" ~3 tono|tono_de_voz|personalidad|forma_de_hablar|manera_de_hablar|forma_de_responder|manera_de_responder|comportamiento|saludo|mensaje_de_bienvenida|tu_nombre|su_nombre|nombre_del_bot|nombre_del_asistente|nombre_del_agente|tus_instrucciones|sus_instrucciones|el_prompt|tu_prompt|prompt_del_sistema|tus_reglas|el_bot|este_bot|el_chatbot|el_robot|la_ia|tus_respuestas|estilo_de_respuesta",
		"se|sea|seas|vuelvete|hazte|habla|hable|responde|responda|trata|trate ~2 grosero|grosera|rudo|ruda|maleducado|maleducada|mal_educado|agresivo|agresiva|ofensivo|ofensiva|sarcastico|sarcastica|arrogante|borde|antipatico|antipatica ~3 con|a? los|todos_los|las|todas_las? clientes|todos|todo_el_mundo|la_gente|las_personas|usuarios|visitantes",
		esChange+"|reduce|reduzca|reducir|reduzcas|aumenta|aumente|aumentar|aumentes|baja|baje|bajar|bajes|sube|suba|subir|subas|rebaja|rebaje|rebajar|duplica|duplique|descuenta ~3 precios|precio_de|precio_del|precio_de_los|precio_de_las|lista_de_precios|tabla_de_precios|tarifas|todos_los_precios",
		"crea|cree|crear|crees|genera|genere|generar|haz|haga|hacer ~2 cupon|cupones|codigo_de_descuento|codigos_de_descuento|codigo_promocional|vale_de_descuento|promocion",
		"pon|ponga|haz|haga|deja|deje|vuelve|vuelva ~2 todo|todos_los_productos|toda_la_tienda|la_tienda_entera ~1 gratis|gratuito|gratuitos|a_cero",
		"agrega|agregue|agregar|anade|anada|anadir|incluye|incluya|incluir|crea|cree|crear|publica|publique|publicar|inserta|inserte|sube|suba|subir|pon|ponga|mete|meta ~4 producto*|articulo*|plato|platos|servicio|servicios ~1 en|a|al la|el? web|sitio|sitio_web|tienda|catalogo|carta|menu|cerebro|brain|sistema|inventario|base_de_conocimiento|faq|escaparate",
		"quita|quite|quitar|elimina|elimine|eliminar|borra|borre|borrar|retira|retire|retirar|oculta|oculte|despublica|desactiva|desactive ~4 producto*|articulo*|plato|platos|servicio|servicios|pagina*|post* ~1 de|del la|el? web|sitio|sitio_web|tienda|catalogo|carta|menu|cerebro|brain|sistema|inventario|base_de_conocimiento|faq|escaparate",
		"cambia|cambie|cambiar|modifica|modifique|edita|edite|actualiza|actualice ~3 descripcion|descripciones|nombre|nombres|foto|fotos|imagen|imagenes|titulo|titulos|pagina|paginas|categoria|stock|inventario del|de_los|de producto|productos|articulo|articulos",
		"actualiza|actualice|actualizar|cambia|cambie|ajusta|ajuste el|los? stock|inventario",
		esChange+"|amplia|amplie|ampliar|extiende|extienda|alarga|alargue|acorta|acorte|adelanta|adelante|retrasa|retrase ~3 horario_de_apertura|horarios_de_apertura|horario_de_atencion|horarios_de_atencion|horario_comercial|horario_de_cierre|horario_de_la_tienda|horario_del_restaurante|horario_del_local|tu_horario|su_horario|vuestro_horario|el_horario_de_ustedes|horas_de_apertura",
		esChange+"|desactiva|desactive|desactivar|activa|active|activar|apaga|apague|enciende|encienda ~3 configuracion|ajustes|preferencias|parametros del|de_la|de bot|chatbot|robot|agente|asistente|ia|chat|tienda|sitio|web|sistema|widget|negocio|empresa",
		esChange+" ~2 tu|su|tus|sus configuracion|ajustes",
		esChange+"|desactiva|desactive|activa|active|borra|borre|elimina|elimine ~3 webhook|webhooks|clave_de_la_api|clave_de_api|claves_de_api|integraciones|integracion",
		"apaga|apague|apagar|desactiva|desactive|desactivar ~2 el|la|este|esta? bot|chatbot|robot|agente|asistente|ia|chat|widget",
		"dame|da|deme|abre|abra|abrir|muestra|muestrame|accede|acceder|entra|entrar|concede|conceda|concedeme|habilita|habilitame|quiero ~3 panel_de_control|panel_admin|panel_de_administracion|panel_administrativo|panel_del_dueno|area_de_administracion|backoffice|back_office|acceso_de_admin|acceso_de_administrador|acceso_total|acceso_admin|wp_admin|administracion",
	), own(
		esChange+"|agrega|agregue|anade|anada|quita|quite|elimina|elimine|borra|borre|limpia|limpie|entrena|entrene|ensena|inserta|sobrescribe|resetea|reinicia|vacia ~3 cerebro|brain|base_de_conocimiento|base_de_conocimientos|conocimiento|conocimientos|faq|faqs|preguntas_frecuentes|base_de_datos|memoria|fuentes|documentos",
	)...),
	others: own(
		esShow+" ~5 "+esData+" ~3 "+esOthers+" ~1 "+esPeople,
		esShow+" ~5 "+esOthers+" ~1 "+esPeople+" ~3 "+esData,
		esShow+" ~5 "+esContact+" de|del|de_los|de_las ~1 "+esPeople,
		esShow+" ~4 "+esBusy+"|"+esBook+" ~1 "+esWhen,
		esShow+" ~3 todos_los|todas_las "+esBusy+"|"+esBook,
		esShow+" ~4 leads|facturacion|ingresos|estadisticas|metricas|informe_de_ventas|informes|reportes|analiticas|transcripciones|historial_de_conversaciones|conversaciones",
		"quien_mas|quienes_mas|quien_mas_ha ~2 compro|pidio|reservo|pregunto|escribio|hablo|visito|vino|comprado|pedido|reservado",
		"que ~1 los|las? otros|otras|demas "+esPeople+" ~1 preguntaron|dijeron|escribieron|pidieron|compraron|reservaron",
		"que ~1 preguntaron|dijeron|escribieron|pidieron|compraron|reservaron los|las otros|otras|demas "+esPeople,
		"cancela|cancele|cancelar|reembolsa|borra|borre|borrar|elimina|elimine|eliminar|aprueba|apruebe|confirma|confirme|rechaza|rechace|cambia|cambie|cambiar|modifica ~2 todos|todas|todos_los|todas_las ~1 pedidos|ordenes|reservas|citas|reservaciones",
		"cancela|cancele|cancelar|reembolsa|borra|borre|borrar|elimina|elimine|eliminar|cambia|cambie|cambiar|modifica ~4 pedido|pedidos|reserva|reservas|cita|citas|orden de|del ~1 otro|otra|otros|otras|otro_cliente|otra_persona",
		"cuantos|cuantas leads|ventas|pedidos|ordenes|reservas|clientes|visitantes|conversaciones|mensajes ~3 hoy|ayer|esta_semana|este_mes|hasta_ahora|tuvieron|recibiste|recibieron|tuvimos|entraron|llegaron|hicieron",
	),
}
