package policy

// Portuguese word classes, for Brazil and Portugal (accents folded: "você" is "voce").
const (
	ptShow = "mostra|mostre|mostrar|mostrem|mostras|manda|mande|mandar|envia|envie|enviar|me_da|me_de|" +
		"da_me|de_me|nos_da|nos_de|dar|passa|passe|passar|lista|liste|listar|ver|veja|exporta|" +
		"exporte|exportar|compartilha|compartilhe|compartilhar|partilha|partilhe|partilhar|diz|" +
		"diga|dizer|fala|fale|conta|conte|informa|informe|revela|revele|revelar|quero|queria|" +
		"preciso|acessar|aceder|abre|abra|baixa|baixe|imprime|imprima|ensina|ensine|quais|qual"
	ptPeople = "cliente*|usuario*|utilizador*|pessoa*|comprador*|consumidor*|visitante*|hospede*|" +
		"paciente*|fregues*"
	ptOthers = "outro|outros|outra|outras|demais|todos|todas|todos_os|todas_as|dos_outros|das_outras|" +
		"de_outros|de_outras|seus|teus|vossos"
	ptData = "leads|lead|pedidos|pedido|encomendas|encomenda|conversas|conversa|mensagens|mensagem|" +
		"relatorio*|reservas|reserva|agendamentos|agendamento|marcacoes|marcacao|contatos|" +
		"contactos|dados|emails|email*|telefones|telefone*|numeros|enderecos|endereco*|moradas|" +
		"morada|historico*|compras|compra|vendas|nomes|informacoes|informacao|info|lista|cadastro*|" +
		"registros|registos|pagamentos|perfis|contas"
	ptContact = "contato|contatos|contacto|contactos|email|emails|telefone|telefones|numero|numeros|" +
		"endereco|enderecos|morada|moradas|nome|nomes|dados|lista|cadastro*|base|historico*|" +
		"dados_pessoais|informacoes"
	ptBusy = "leads|pedidos|encomendas|vendas|conversas|mensagens|compras"
	ptBook = "reservas|agendamentos|marcacoes"
	ptWhen = "de_hoje|de_ontem|desta_semana|deste_mes|da_semana|do_dia|do_mes|recentes|novos|novas|" +
		"pendentes|em_aberto|de_todos|de_todas|dos_clientes|de_clientes"
	ptChange = "muda|mude|mudar|mudem|mudes|altera|altere|alterar|alterem|alteres|modifica|" +
		"modifique|modificar|modifiques|troca|troque|trocar|troques|atualiza|atualize|atualizar|" +
		"atualizes|actualiza|actualize|actualizar|actualizes|edita|edite|editar|edites|configura|" +
		"configure|configurar|configures|reconfigura|reconfigure|ajusta|ajuste|ajustar|ajustes|" +
		"reescreve|reescreva|reescrever|redefine|redefina|redefinir|define|defina|definir|deixa|" +
		"deixe|deixar|deixes|coloca|coloque|colocar|poe|ponha|faz|faca|fazer|facas|torna|torne|" +
		"tornar|personaliza|personalize|personalizar|renomeia|renomeie|renomear|reprograma|" +
		"reprograme|reprogramar|retreina|retreine|retreinar"
	ptIgnore = "ignore|ignora|ignorar|ignorem|ignores|desconsidere|desconsidera|desconsiderar|" +
		"esqueca|esquece|esquecer|esquecam|esquecas|descarte|descarta|descartar|despreze|despreza|" +
		"desprezar|anule|anula|anular|sobrescreva|sobrescreve|contorna|contorne|burla|burle|salta|" +
		"salte|pula|pule|passa_por_cima_de|passe_por_cima_de"
	ptRules = "instrucoes|instrucao|regras|ordens|diretrizes|orientacoes|comandos|restricoes|" +
		"limitacoes|programacao|prompt|filtros|politicas|indicacoes|diretivas|configuracoes"
	ptAdmin = "admin|administrador|administradora|dono|dona|proprietario|proprietaria|" +
		"desenvolvedor|desenvolvedora|programador|gerente|root|superusuario|sistema|hacker|dan|" +
		"chatgpt|outra_ia|outro_assistente|ia_sem|assistente_sem"
	ptRole = "dono|dona|donos|proprietario|proprietaria|administrador|administradora|admin|gerente|" +
		"gestor|gestora|responsavel|chefe|patrao|patroa|desenvolvedor|desenvolvedora|programador|" +
		"programadora|funcionario|funcionaria|criador|criadora|socio|socia|diretor|diretora|" +
		"supervisor|supervisora|ceo|fundador|fundadora|encarregado|encarregada|operador|operadora"
	ptEnd = "$|que|acima|de_novo|novamente|palavra_por_palavra|exatamente|exactamente|completa|" +
		"completas|completo|completos|na_integra|por_favor|agora|e|recebeu|recebeste|te_deram|" +
		"lhe_deram|tem|tens|aqui|sao|originais|iniciais|ocultas|secretas|internas"
	ptToldEnd = "$|antes|no_inicio|no_comeco|inicialmente|originalmente|para_fazer|para_dizer|" +
		"para_nao|pelo_dono|pelo_desenvolvedor|pelo_programador|em_segredo|antes_desta|" +
		"antes_dessa|antes_da"
)

// portuguese holds the Portuguese rules, for Brazil and Portugal.
var portuguese = lexicon{
	claims: claim("^ de|num|numa|em|para um|uma|uns|umas|meu|minha|outro|outra|outros|outras|varios|varias|dois|duas|pequeno|pequena|grande",
		"sou|eu_sou|aqui_e|aqui_fala|falo_como|fala_o|fala_a|como|enquanto|na_qualidade_de|sendo o|a|um|uma|o_seu|a_sua|seu|sua|teu|tua|o_teu|a_tua? "+ptRole,
		"a_loja|o_negocio|a_empresa|o_site|o_restaurante|a_padaria|a_pastelaria|o_bot|o_chatbot|este_bot|esse_bot|o_assistente|isto|isso|tudo_isto|tudo_isso e|eh meu|minha|meus|minhas",
		"eu_trabalho|trabalho aqui|na_loja|para_voces|para_vos|nesta_loja|nesta_empresa|na_empresa",
		"faco_parte_da_equipe|faco_parte_da_equipa|sou_da_equipe|sou_da_equipa|sou_do_staff",
		"eu_te|eu_que_te|fui_eu_que_te criei|programei|configurei|treinei|montei",
		"eu criei|programei|configurei voce|te|o_bot|este_bot|esse_bot|o_chatbot",
		"em_nome_do|em_nome_da dono|dona|proprietario|proprietaria|gerente|chefe|patrao|administrador|gerencia|direcao",
		"o|a|seu|teu|o_seu|o_teu dono|dona|chefe|patrao|gerente|proprietario aqui|falando|pediu|mandou|autorizou|quer",
		"minha loja|empresa|padaria|pastelaria|clinica|firma",
		"meu negocio|restaurante|site|bot|chatbot|assistente|agente|estabelecimento",
	),
	ownerOnly: append(strict(
		ptShow+" ~4 mensagens|notificacoes|caixa_de_entrada|painel|saldo|uso|interacoes|faturacao|cobranca|senha|palavra_passe|chave_da_api|credenciais|estatisticas|atividades|actividades|tarefas|agenda|calendario|clientes|visitantes|avaliacoes|comentarios|configuracoes|definicoes|registos|logs",
		"siga|segue|obedeca|obedece|cumpra|cumpre|execute|executa ~1 minhas|as_minhas|estas|essas ordens|instrucoes|comandos|orientacoes",
		"obedeca|obedece|obedecam me|a_mim",
		"faca|faz|facam o_que_eu|como_eu digo|mando|disser|mandar",
		"avisa|avise|informa|informe|diz|diga|manda|mande|responde|responda ~1 a|aos|para? todos|todas|os|todos_os|todas_as? clientes|visitantes|usuarios|utilizadores|seguidores",
	), own(
		ptShow+" ~4 pedidos|encomendas|reservas|agendamentos|marcacoes|faturas|facturas|pagamentos|vendas",
		"cancela|cancele|cancelar|reembolsa|reembolse|aprova|aprove|confirma|confirme|aceita|aceite|rejeita|rejeite|recusa|recuse ~3 pedido|pedidos|encomenda|encomendas|reserva|reservas|agendamento|agendamentos|marcacao|marcacoes|reembolso|reembolsos|pagamento|pagamentos",
	)...),
	override: append(own(
		ptIgnore+" ~2 todas|todos|suas|tuas|as_suas|as_tuas|quaisquer|vossas|teu|seu|o_teu|o_seu ~2 "+ptRules,
		ptIgnore+" ~3 "+ptRules+" ~1 anteriores|previas|acima|iniciais|originais|do_sistema|de_sistema|recebidas|que_recebeu|que_recebeste|que_te_deram|que_lhe_deram|ate_agora|ate_aqui",
		"nao_siga|nao_sigas|nao_obedeca|nao_obedecas|pare_de_seguir|para_de_seguir|deixe_de_seguir|deixa_de_seguir|deixa_de_obedecer|deixe_de_obedecer|nao_respeite|nao_respeites|nao_precisa_seguir|nao_precisas_de_seguir|nao_precisa_mais_seguir|nao_tem_que_seguir|nao_tens_de_seguir ~2 "+ptRules,
	), strict(
		ptIgnore+" ~2 tudo ~3 que_te_disseram|que_lhe_disseram|que_te_foi_dito|que_voce_sabe|que_sabes|acima|antes|anterior|ate_agora",
		"a_partir_de_agora|de_agora_em_diante|daqui_para_frente|daqui_pra_frente|daqui_em_diante|a_partir_daqui|doravante ~2 voce|tu|vc ~1 e|es|sera|seras|vai_ser|passa_a_ser|passas_a_ser|atua|atuara|age|agira|vai_agir|finge|fingira|responde|respondera|vai_responder|nao_tem|nao_tens|ignora|ignorara|esta|estas|deve|deves|tem_que|tens_de",
		"a_partir_de_agora|de_agora_em_diante|daqui_para_frente|daqui_pra_frente|daqui_em_diante|doravante ~1 responda|responde|aja|age|atue|atua|finja|finge|ignore|ignora|fale|fala|seja|se_comporte|comporte_se|esqueca|esquece",
		"voce|tu|vc agora|ja_nao e|es|sera|esta|estas livre|limitado|limitada|preso|presa|um_assistente|uma_ia|um_bot|o_dan|dan|meu_escravo",
		"finja|finge|fingir|finjas|faz_de_conta|faca_de_conta|simula|simule ~3 que|ser|voce|tu|es|e|como",
		"imagina|imagine que? voce|tu e|es|fosse|fosses|seja|sejas|nao_tem|nao_tens",
		"aja|age|atue|atua|comporte_se|comportese|se_comporte|responda|responde|fale|fala|funcione|opere|finja_ser|finge_ser como ~3 "+ptAdmin,
		"papel|personagem|persona de|do|da ~1 "+ptAdmin,
		"faca|faz|assuma|assume|interprete|interpreta o_papel|um_papel|o_personagem",
		"roleplay|role_play|jogo_de_papeis|jogo_de_interpretacao",
		"modo ~1 desenvolvedor|developer|dev|admin|administrador|deus|god|debug|depuracao|manutencao|irrestrito|sem_restricoes|sem_regras|sem_filtros|sem_censura|jailbreak|dan|root|sudo|livre|programador",
		"assistente|bot|chatbot|ia|agente|modelo|versao|personagem|persona|robo ~2 sem|livre_de ~1 regras|restricoes|filtros|limites|censura|limitacoes|diretrizes|etica|moral|instrucoes",
		"novas|nova|verdadeiras|reais|ultimas instrucoes|diretrizes|ordens|regras|programacao sao|e|estas|abaixo|a_seguir|seguintes",
		"sua|tua|a_sua|a_tua nova|verdadeira|unica|real funcao|tarefa|missao|identidade|personalidade|instrucao|diretriz|ordem|prioridade",
		"desativa|desative|desativar|desactiva|desactive|desliga|desligue|remove|remova|tira|tire|contorna|contorne|burla|burle ~1 seus|teus|os_seus|os_teus|todos_os|todas_as|quaisquer|as_suas|as_tuas|os|as ~1 filtros|restricoes|protecoes|censura|salvaguardas|travas|regras_de_seguranca|limites_de_seguranca",
	)...),
	prompt: append(strict(
		"prompt do|de sistema",
		"traduz|traduza|traduzir ~2 suas|tuas|as_suas|as_tuas ~1 instrucoes|prompt|regras|diretrizes|orientacoes",
		"prompt inicial|original|oculto|secreto|interno|escondido|base|principal",
		"instrucoes|instrucao|regras|diretrizes|orientacoes|programacao|configuracao|configuracoes|mensagem do_sistema|de_sistema|ocultas|oculta|secretas|secreta|internas|escondidas|confidenciais|iniciais|originais "+ptEnd,
		ptShow+"|repete|repita|escreve|escreva|copia|copie|cola|cole|resume|resuma|explica|explique ~4 suas|tuas|as_suas|as_tuas|seu|teu|o_seu|o_teu|vossas ~1 instrucoes|prompt|regras|diretrizes|orientacoes|programacao|configuracoes|configuracao|definicoes|comandos|parametros "+ptEnd,
		"comecando|comecar|iniciando|que_comeca|que_comecam|a_comecar com|por voce_e|tu_es|voce|you_are|system|es_um",
		"o_que ~2 te|lhe|foi ~1 disseram|mandaram|pediram|instruiram|programaram|falaram|dito|instruido|instruida|programado|programada|ordenado|ensinaram|deram "+ptToldEnd,
		"como voce|tu foi|foste|esta|estas|e|es programado|programada|configurado|configurada|instruido|instruida|treinado|treinada "+ptToldEnd,
		"quais|que instrucoes|regras|ordens|diretrizes|orientacoes voce|tu|te|lhe ~1 recebeu|recebeste|deram|foram_dadas|segue|segues|obedece|obedeces|tem_que_seguir|tens_de_seguir|tem_de_seguir",
		"tudo|texto|o_que_esta|o_que_foi_dito|o_que_foi_escrito|o_que_vem antes|acima desta|dessa|da|deste|desse conversa|mensagem|linha|chat",
	), own(
		"repete|repita|repetir|escreve|escreva|imprime|imprima|copia|copie|mostra|mostre|diz|diga|cola|cole|reproduz|reproduza ~4 texto|tudo|mensagem|mensagens|conteudo|instrucoes|linhas|frases|prompt ~2 acima|anterior|anteriores|de_cima|antes|do_inicio|do_comeco",
	)...),
	settings: append(strict(
		ptChange+" ~3 tom|tom_de_voz|personalidade|jeito_de_falar|jeito_de_responder|forma_de_falar|forma_de_responder|maneira_de_falar|maneira_de_responder|comportamento|saudacao|mensagem_de_boas_vindas|seu_nome|teu_nome|nome_do_bot|nome_do_assistente|nome_do_agente|suas_instrucoes|tuas_instrucoes|as_instrucoes_do_bot|o_prompt|seu_prompt|teu_prompt|prompt_do_sistema|suas_regras|tuas_regras|o_bot|este_bot|o_chatbot|o_robo|a_ia|suas_respostas|tuas_respostas|estilo_de_resposta|estilo_das_respostas",
		"seja|sejas|se_torne|torne_se|fique|fica|passe_a_ser|comece_a_ser|responda|responde|fala|fale|trate|trata ~2 grosseiro|grosseira|grosso|grossa|rude|mal_educado|mal_educada|malcriado|malcriada|agressivo|agressiva|ofensivo|ofensiva|sarcastico|sarcastica|arrogante|antipatico|antipatica ~2 com|a|para? os|todos_os|as|todas_as? clientes|todos|toda_a_gente|todo_mundo|as_pessoas|usuarios|utilizadores|visitantes",
		ptChange+"|reduz|reduza|reduzir|reduzas|aumenta|aumente|aumentar|aumentes|baixa|baixe|baixar|baixes|sobe|suba|subir|subas|corta|corte|cortar|duplica|duplique|dobra|dobre|desconta|desconte ~3 precos|preco_de|preco_do|preco_da|preco_dos|preco_das|tabela_de_precos|lista_de_precos|tabela_de_preco|todos_os_precos|valores_dos_produtos|precario|precario_da_loja",
		"cria|crie|criar|gera|gere|gerar|faz|faca|fazer|adiciona|adicione ~2 cupom|cupao|cupons|cupoes|codigo_de_desconto|codigos_de_desconto|codigo_promocional|voucher|vouchers|promocao",
		"deixa|deixe|torna|torne|faz|faca|coloca|coloque|poe|ponha ~2 tudo|todos_os_produtos|todos_os_itens|a_loja_toda|toda_a_loja ~1 gratis|gratuito|gratuitos|de_graca|a_zero|por_zero",
		"adiciona|adicione|adicionar|acrescenta|acrescente|acrescentar|inclui|inclua|incluir|cadastra|cadastre|cadastrar|cria|crie|criar|publica|publique|publicar|insere|insira|inserir|coloca|coloque|colocar|poe|ponha|bota|bote ~4 produto*|item|itens|prato|pratos|servico|servicos ~1 no|na|ao|a|em|nos|nas site|loja|catalogo|cardapio|menu|cerebro|brain|sistema|estoque|base_de_conhecimento|faq|montra|vitrine",
		"remove|remova|remover|retira|retire|retirar|apaga|apague|apagar|exclui|exclua|excluir|deleta|delete|deletar|tira|tire|tirar|esconde|esconda|despublica|despublique|desativa|desative ~4 produto*|item|itens|prato|pratos|servico|servicos|pagina*|post* ~1 do|da|de|dos|das site|loja|catalogo|cardapio|menu|cerebro|brain|sistema|estoque|base_de_conhecimento|faq|montra|vitrine",
		"cadastra|cadastre|cadastrar|recadastra|recadastre ~3 produto*|item|itens|preco*",
		"altera|altere|alterar|muda|mude|mudar|edita|edite|editar|atualiza|atualize|atualizar|actualiza|actualize|modifica|modifique ~3 descricao|descricoes|nome|nomes|foto|fotos|imagem|imagens|titulo|titulos|pagina|paginas|categoria|estoque|stock do|dos|de produto|produtos|item|itens",
		"atualiza|atualize|atualizar|actualiza|actualize|altera|altere|alterar|muda|mude|ajusta|ajuste o|os? estoque|stock|inventario",
		ptChange+"|estende|estenda|estender|prolonga|prolongue|prolongar|encurta|encurte|encurtar|antecipa|antecipe|adia|adie ~3 horario_de_funcionamento|horarios_de_funcionamento|horario_de_atendimento|horarios_de_atendimento|horario_de_abertura|horarios_de_abertura|horario_de_fecho|horario_de_fechamento|horario_da_loja|horario_do_restaurante|horario_do_estabelecimento|horario_de_expediente|seu_horario|vosso_horario|o_horario_de_voces|horario_comercial|horas_de_abertura",
		ptChange+"|desativa|desative|desativar|desactiva|desactive|ativa|ative|ativar|activa|active|desliga|desligue|desligar|liga|ligue|ligar ~3 configuracoes|configuracao|definicoes|ajustes|preferencias|parametros do|da|de bot|chatbot|robo|agente|assistente|ia|chat|loja|site|sistema|widget|negocio|empresa",
		ptChange+" ~2 suas|tuas|as_suas|as_tuas configuracoes|definicoes|ajustes|configuracao",
		ptChange+"|desativa|desative|ativa|ative|apaga|apague|remove|remova ~3 webhook|webhooks|chave_da_api|chave_de_api|chaves_da_api|integracoes|integracao",
		"desliga|desligue|desligar|desativa|desative|desativar|desactiva|desactive ~2 o|a|este|esse|esta? bot|chatbot|robo|agente|assistente|ia|chat|widget",
		"da|de|me_da|me_de|da_me|de_me|libera|libere|liberar|abre|abra|abrir|mostra|mostre|acessar|aceder|entra|entrar|concede|conceda|quero ~3 painel_de_controle|painel_de_controlo|painel_admin|painel_administrativo|painel_do_dono|painel_da_loja|area_administrativa|area_de_administracao|backoffice|back_office|acesso_de_admin|acesso_de_administrador|acesso_total|acesso_admin|acesso_de_dono|wp_admin|administracao",
	), own(
		ptChange+"|adiciona|adicione|adicionar|acrescenta|acrescente|remove|remova|remover|apaga|apague|apagar|exclui|exclua|excluir|deleta|delete|deletar|limpa|limpe|limpar|treina|treine|treinar|ensina|ensine|insere|insira|sobrescreve|sobrescreva|reseta|resete|zera|zere ~3 cerebro|brain|base_de_conhecimento|base_de_conhecimentos|conhecimento|conhecimentos|faq|faqs|perguntas_frequentes|banco_de_dados|base_de_dados|memoria|fontes|documentos",
	)...),
	others: own(
		ptShow+" ~5 "+ptData+" ~3 "+ptOthers+" ~1 "+ptPeople,
		ptShow+" ~5 "+ptOthers+" ~1 "+ptPeople+" ~3 "+ptData,
		ptShow+" ~5 "+ptContact+" de|do|da|dos|das ~1 "+ptPeople,
		ptShow+" ~4 "+ptBusy+"|"+ptBook+" ~1 "+ptWhen,
		ptShow+" ~3 todos_os|todas_as "+ptBusy+"|"+ptBook,
		ptShow+" ~4 leads|faturamento|faturacao|receita|estatisticas|metricas|relatorio_de_vendas|relatorios|analytics|transcricoes|historico_de_conversas|conversas",
		"quem_mais ~2 comprou|pediu|encomendou|reservou|marcou|perguntou|escreveu|falou|visitou|agendou|veio",
		"o_que|que ~1 os|as? outros|outras|demais "+ptPeople+" ~1 perguntaram|disseram|falaram|escreveram|pediram|compraram|encomendaram|reservaram",
		"o_que ~1 perguntaram|disseram|falaram|escreveram|pediram|compraram|encomendaram os|as outros|outras|demais "+ptPeople,
		"cancela|cancele|cancelar|reembolsa|reembolse|apaga|apague|apagar|exclui|exclua|excluir|aprova|aprove|confirma|confirme|rejeita|rejeite|altera|altere|alterar|muda|mude|mudar ~2 todos|todas|todos_os|todas_as ~1 pedidos|encomendas|reservas|agendamentos|marcacoes",
		"cancela|cancele|cancelar|reembolsa|reembolse|apaga|apague|apagar|exclui|exclua|excluir|altera|altere|alterar|muda|mude|mudar ~4 pedido|pedidos|encomenda|encomendas|reserva|reservas|agendamento|marcacao de|do|da ~1 outro|outra|outros|outras|outro_cliente|outra_pessoa",
		"quantos|quantas leads|vendas|pedidos|encomendas|reservas|clientes|visitantes|conversas|mensagens ~3 hoje|ontem|esta_semana|este_mes|ate_agora|tiveram|recebeu|recebeste|recebemos|tivemos|entraram|chegaram|fizeram",
	),
}
