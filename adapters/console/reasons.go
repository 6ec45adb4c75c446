package console

import (
	"fmt"

	"github.com/svcagent/svc/domain"
)

// reasons says, in the console's other languages, why the service refused a value of a form: the
// domain's message forms (domain.Error.Format, the English the API answers) of the checks the
// console's forms reach, each with its translation, whose verbs take the same values (an
// explicit index such as %[2]d leaves out the field's name, which the page shows next to the
// reason anyway). A form with no translation is shown as the API gives it. TestReasons checks
// that every check the forms reach has one in each language and that each takes its values.
var reasons = map[string]map[string]string{
	// In English, only the forms whose API words name a field by its path in the request (an FAQ
	// item's items[0].question): the page shows the reason next to its field, which the owner
	// knows by its label.
	"en": {
		"%s.question is required":                            "Write the question.%.0[1]s",
		"%s.question must be at most %d characters":          "The question is at most %[2]d characters.",
		"%s.question must hold a word (a letter or a digit)": "The question needs a word (a letter or a digit).%.0[1]s",
		"%s.answer is required":                              "Write the answer.%.0[1]s",
		"%s.answer must be at most %d characters":            "The answer is at most %[2]d characters.",
		// A page written on the Brain page (PUT /v1/knowledge/pages with one page).
		"%s.content is required":                            "Write the page's text.%.0[1]s",
		"%s.content must be at most %d characters (got %d)": "The text is at most %[2]d characters (it has %[3]d).",
		"%s.title must be at most %d characters":            "The title is at most %[2]d characters.",
		"%s.url must be an absolute http(s) URL":            "Give a full address (http:// or https://).%.0[1]s",
	},
	"pt": {
		// Any text of a form (pages.go) and the agent's profile and appearance (domain/profile).
		"%s must be valid UTF-8":                                              "O texto não é UTF-8 válido.%.0[1]s",
		"%s must not contain control characters":                              "O texto tem caracteres de controle.%.0[1]s",
		"%s must be at most %d characters":                                    "No máximo %[2]d caracteres.",
		"tone must be one line, such as \"friendly\" or \"warm and concise\"": "O tom é uma linha só, como \"simpático\" ou \"cordial e direto\".",
		"avatar_url must be an absolute http(s) URL of at most %d characters": "Dê um endereço completo (http:// ou https://) de no máximo %d caracteres.",
		"greeting may hold at most %d languages":                              "No máximo %d idiomas de saudação.",
		"at most %d suggestions per language":                                 "No máximo %d perguntas sugeridas por idioma.",
		"suggestions may hold at most %d languages":                           "No máximo %d idiomas de perguntas sugeridas.",
		"contact.email is not an e-mail address":                              "Não é um endereço de e-mail.",
		"languages needs at least one language code":                          "Dê pelo menos um código de idioma.",
		"at most %d languages":                                                "No máximo %d idiomas.",
		"%s is not a language code such as en, pt, pt-BR or es":               "%s não é um código de idioma como en, pt, pt-BR ou es.",
		"%s must not be empty":                                                "Não pode ficar vazio.%.0[1]s",
		"%s is not valid UTF-8":                                               "O texto não é UTF-8 válido.%.0[1]s",
		"%s must be at most %d characters (got %d)":                           "No máximo %[2]d caracteres (tem %[3]d).",
		"%s holds a control character":                                        "O texto tem um caractere de controle.%.0[1]s",
		"%s and %s name the same language":                                    "%s e %s são o mesmo idioma.",
		// Webhooks (domain/webhook, app/webhooks; pages.go for the events).
		"unknown event type":                                        "Tipo de evento desconhecido.",
		"url is required":                                           "Dê o endereço.",
		"url must be at most %d characters":                         "No máximo %d caracteres.",
		"url must be an absolute https URL":                         "Dê um endereço completo que comece com https://.",
		"url must not contain credentials":                          "O endereço não pode conter usuário nem senha.",
		"url must not contain a fragment":                           "O endereço não pode conter um fragmento (#…).",
		"url must use https":                                        "O endereço deve usar https.",
		"url must point to a public address":                        "O endereço deve apontar para um servidor público.",
		"events must list event types, or be [\"*\"]":               "Escolha os tipos de evento, ou todos.",
		"unknown event type %s":                                     "Tipo de evento desconhecido: %s.",
		"\"*\" must be the only entry of events":                    "\"Todos\" não se combina com outros tipos de evento.",
		"an account may have at most %d webhooks; delete one first": "Uma conta tem no máximo %d webhooks; apague um primeiro.",
		"url must point to a public host: %s":                       "O endereço deve apontar para um servidor público (%s).",
		// The chat's style and domains (domain/widget).
		"position must be %q or %q":                                "A posição é %q ou %q.",
		"theme must be %q or %q":                                   "O tema é %q ou %q.",
		"accent must be a colour in hex, #rgb or #rrggbb":          "Dê uma cor em hexadecimal, #rgb ou #rrggbb.",
		"lang must be one of %s":                                   "O idioma é um destes: %s.",
		"%s must be a uuid (the svc_visitor cookie)":               "Deve ser um uuid (o cookie svc_visitor).%.0[1]s",
		"%s must be a uuid in lower case (the svc_visitor cookie)": "Deve ser um uuid em minúsculas (o cookie svc_visitor).%.0[1]s",
		"at most %d domains":                                       "No máximo %d domínios.",
		"not a host name: give example.com or *.example.com":       "Não é um nome de domínio: dê exemplo.com ou *.exemplo.com.",
		// The Brain: FAQ items, pages, the crawl (domain/knowledge).
		"pages is required (an array of {url, title, content})":               "Dê as páginas.",
		"at most %d pages per call (got %d)":                                  "No máximo %d páginas de cada vez (são %d).",
		"%s.content is required":                                              "Dê o texto da página.%.0[1]s",
		"%s.content must be at most %d characters (got %d)":                   "O texto da página tem no máximo %[2]d caracteres (tem %[3]d).",
		"%s.title must be at most %d characters":                              "O título tem no máximo %[2]d caracteres.",
		"%s.url must be an absolute http(s) URL":                              "Dê um endereço completo (http:// ou https://).%.0[1]s",
		"%s.url is also the url of pages[%d]; each page's url must be unique": "O endereço já é o de outra página (pages[%[2]d]); cada página tem o seu.",
		"items is required (an array of {question, answer})":                  "Dê as perguntas e respostas.",
		"items must hold at least one item":                                   "Dê pelo menos uma pergunta e resposta.",
		"at most %d items per call (got %d)":                                  "No máximo %d perguntas de cada vez (são %d).",
		"%s.question is required":                                             "Escreva a pergunta.%.0[1]s",
		"%s.question must be at most %d characters":                           "A pergunta tem no máximo %[2]d caracteres.",
		"%s.question must hold a word (a letter or a digit)":                  "A pergunta precisa de uma palavra (uma letra ou um número).%.0[1]s",
		"%s.answer is required":                                               "Escreva a resposta.%.0[1]s",
		"%s.answer must be at most %d characters":                             "A resposta tem no máximo %[2]d caracteres.",
		"site_url must be an absolute http(s) URL":                            "Dê um endereço completo (http:// ou https://).",
		"business_summary must be at most %d characters":                      "O resumo tem no máximo %d caracteres.",
		"url must be an absolute http(s) URL":                                 "Dê um endereço completo (http:// ou https://).",
		"max_pages must be between 1 and %d":                                  "Entre 1 e %d páginas.",
		// The test question (domain/conversation).
		"%s is required: it has no visible character":                                "Escreva algo: não há nenhum caractere visível.%.0[1]s",
		"%s must be 1 to %d characters":                                              "De 1 a %[2]d caracteres.",
		"%s may hold only letters, digits and . _ : @ -":                             "Só letras, algarismos e . _ : @ -%.0[1]s",
		"%s may not begin with %s: such ids are the owner's assistant conversations": "Não pode começar por %.0[1]s%[2]s: é o início das conversas do assistente.",
		"customer_name must be at most %d characters":                                "O nome tem no máximo %d caracteres.",
		// Signing in and the password (domain/owner), names (domain/account).
		"email is not an e-mail address":               "Não é um endereço de e-mail.",
		"password must be valid UTF-8":                 "A senha não é UTF-8 válido.",
		"password must have at least %d characters":    "A senha tem pelo menos %d caracteres.",
		"password must be at most %d bytes":            "A senha tem no máximo %d bytes.",
		"password must not contain control characters": "A senha não pode ter caracteres de controle.",
		"status must be %q or %q":                      "O estado é %q ou %q.",
		"name is required":                             "Dê um nome.",
		"name must be at most %d characters":           "O nome tem no máximo %d caracteres.",
		"owner_email is not an e-mail address":         "Não é um endereço de e-mail.",
		// The conversions' period (adapters/apijson, app/conversions).
		"to must be after from":                                  "O fim deve vir depois do início.",
		"kind is required (sale, lead, signup or booking)":       "Escolha o tipo: venda, lead, cadastro ou reserva.",
		"%s must be a date (2026-11-01) or an RFC 3339 time":     "Dê uma data (2026-11-01) ou um horário RFC 3339.%.0[1]s",
		"%s must be between 1970-01-01 and 9999-12-31":           "Dê uma data entre 1970-01-01 e 9999-12-31.%.0[1]s",
		"give both from and to, or neither (the current period)": "Dê o início e o fim, ou nenhum dos dois (o período atual).",
	},
	"es": {
		"%s must be valid UTF-8":                                                     "El texto no es UTF-8 válido.%.0[1]s",
		"%s must not contain control characters":                                     "El texto tiene caracteres de control.%.0[1]s",
		"%s must be at most %d characters":                                           "Como máximo %[2]d caracteres.",
		"tone must be one line, such as \"friendly\" or \"warm and concise\"":        "El tono es una sola línea, como \"amable\" o \"cercano y breve\".",
		"avatar_url must be an absolute http(s) URL of at most %d characters":        "Indica una dirección completa (http:// o https://) de como máximo %d caracteres.",
		"greeting may hold at most %d languages":                                     "Como máximo %d idiomas de saludo.",
		"at most %d suggestions per language":                                        "Como máximo %d preguntas sugeridas por idioma.",
		"suggestions may hold at most %d languages":                                  "Como máximo %d idiomas de preguntas sugeridas.",
		"contact.email is not an e-mail address":                                     "No es una dirección de correo electrónico.",
		"languages needs at least one language code":                                 "Indica al menos un código de idioma.",
		"at most %d languages":                                                       "Como máximo %d idiomas.",
		"%s is not a language code such as en, pt, pt-BR or es":                      "%s no es un código de idioma como en, pt, pt-BR o es.",
		"%s must not be empty":                                                       "No puede quedar vacío.%.0[1]s",
		"%s is not valid UTF-8":                                                      "El texto no es UTF-8 válido.%.0[1]s",
		"%s must be at most %d characters (got %d)":                                  "Como máximo %[2]d caracteres (tiene %[3]d).",
		"%s holds a control character":                                               "El texto tiene un carácter de control.%.0[1]s",
		"%s and %s name the same language":                                           "%s y %s son el mismo idioma.",
		"unknown event type":                                                         "Tipo de evento desconocido.",
		"url is required":                                                            "Indica la dirección.",
		"url must be at most %d characters":                                          "Como máximo %d caracteres.",
		"url must be an absolute https URL":                                          "Indica una dirección completa que empiece por https://.",
		"url must not contain credentials":                                           "La dirección no puede contener usuario ni contraseña.",
		"url must not contain a fragment":                                            "La dirección no puede contener un fragmento (#…).",
		"url must use https":                                                         "La dirección debe usar https.",
		"url must point to a public address":                                         "La dirección debe apuntar a un servidor público.",
		"events must list event types, or be [\"*\"]":                                "Elige los tipos de evento, o todos.",
		"unknown event type %s":                                                      "Tipo de evento desconocido: %s.",
		"\"*\" must be the only entry of events":                                     "\"Todos\" no se combina con otros tipos de evento.",
		"an account may have at most %d webhooks; delete one first":                  "Una cuenta tiene como máximo %d webhooks; borra uno primero.",
		"url must point to a public host: %s":                                        "La dirección debe apuntar a un servidor público (%s).",
		"position must be %q or %q":                                                  "La posición es %q o %q.",
		"theme must be %q or %q":                                                     "El tema es %q o %q.",
		"accent must be a colour in hex, #rgb or #rrggbb":                            "Indica un color en hexadecimal, #rgb o #rrggbb.",
		"lang must be one of %s":                                                     "El idioma es uno de estos: %s.",
		"%s must be a uuid (the svc_visitor cookie)":                                 "Debe ser un uuid (la cookie svc_visitor).%.0[1]s",
		"%s must be a uuid in lower case (the svc_visitor cookie)":                   "Debe ser un uuid en minúsculas (la cookie svc_visitor).%.0[1]s",
		"at most %d domains":                                                         "Como máximo %d dominios.",
		"not a host name: give example.com or *.example.com":                         "No es un nombre de dominio: indica ejemplo.com o *.ejemplo.com.",
		"pages is required (an array of {url, title, content})":                      "Indica las páginas.",
		"at most %d pages per call (got %d)":                                         "Como máximo %d páginas cada vez (hay %d).",
		"%s.content is required":                                                     "Indica el texto de la página.%.0[1]s",
		"%s.content must be at most %d characters (got %d)":                          "El texto de la página tiene como máximo %[2]d caracteres (tiene %[3]d).",
		"%s.title must be at most %d characters":                                     "El título tiene como máximo %[2]d caracteres.",
		"%s.url must be an absolute http(s) URL":                                     "Indica una dirección completa (http:// o https://).%.0[1]s",
		"%s.url is also the url of pages[%d]; each page's url must be unique":        "La dirección ya es la de otra página (pages[%[2]d]); cada página tiene la suya.",
		"items is required (an array of {question, answer})":                         "Indica las preguntas y respuestas.",
		"items must hold at least one item":                                          "Indica al menos una pregunta y respuesta.",
		"at most %d items per call (got %d)":                                         "Como máximo %d preguntas cada vez (hay %d).",
		"%s.question is required":                                                    "Escribe la pregunta.%.0[1]s",
		"%s.question must be at most %d characters":                                  "La pregunta tiene como máximo %[2]d caracteres.",
		"%s.question must hold a word (a letter or a digit)":                         "La pregunta necesita una palabra (una letra o un número).%.0[1]s",
		"%s.answer is required":                                                      "Escribe la respuesta.%.0[1]s",
		"%s.answer must be at most %d characters":                                    "La respuesta tiene como máximo %[2]d caracteres.",
		"site_url must be an absolute http(s) URL":                                   "Indica una dirección completa (http:// o https://).",
		"business_summary must be at most %d characters":                             "El resumen tiene como máximo %d caracteres.",
		"url must be an absolute http(s) URL":                                        "Indica una dirección completa (http:// o https://).",
		"max_pages must be between 1 and %d":                                         "Entre 1 y %d páginas.",
		"%s is required: it has no visible character":                                "Escribe algo: no hay ningún carácter visible.%.0[1]s",
		"%s must be 1 to %d characters":                                              "De 1 a %[2]d caracteres.",
		"%s may hold only letters, digits and . _ : @ -":                             "Solo letras, dígitos y . _ : @ -%.0[1]s",
		"%s may not begin with %s: such ids are the owner's assistant conversations": "No puede empezar por %.0[1]s%[2]s: es el inicio de las conversaciones del asistente.",
		"customer_name must be at most %d characters":                                "El nombre tiene como máximo %d caracteres.",
		"email is not an e-mail address":                                             "No es una dirección de correo electrónico.",
		"password must be valid UTF-8":                                               "La contraseña no es UTF-8 válido.",
		"password must have at least %d characters":                                  "La contraseña tiene al menos %d caracteres.",
		"password must be at most %d bytes":                                          "La contraseña tiene como máximo %d bytes.",
		"password must not contain control characters":                               "La contraseña no puede tener caracteres de control.",
		"status must be %q or %q":                                                    "El estado es %q o %q.",
		"name is required":                                                           "Indica un nombre.",
		"name must be at most %d characters":                                         "El nombre tiene como máximo %d caracteres.",
		"owner_email is not an e-mail address":                                       "No es una dirección de correo electrónico.",
		"to must be after from":                                                      "El final debe ser posterior al inicio.",
		"kind is required (sale, lead, signup or booking)":                           "Elige el tipo: venta, lead, registro o reserva.",
		"%s must be a date (2026-11-01) or an RFC 3339 time":                         "Indica una fecha (2026-11-01) o una hora RFC 3339.%.0[1]s",
		"%s must be between 1970-01-01 and 9999-12-31":                               "Indica una fecha entre 1970-01-01 y 9999-12-31.%.0[1]s",
		"give both from and to, or neither (the current period)":                     "Indica el inicio y el final, o ninguno (el periodo actual).",
	},
}

// crawlReasons say, in the console's other languages, why a crawl read no page: the forms of the
// crawl_failed messages (domain.Error.Format, the English the API answers) of app/knowledge and
// the crawler (adapters/crawl), each with its translation taking the same values.
// TestCrawlReasons checks that every one the sources give has its words in each language.
var crawlReasons = map[string]map[string]string{
	"pt": {
		"the crawl of %s was cancelled before it ended; nothing was stored":     "A leitura de %s foi cancelada antes de terminar; nada foi guardado.",
		"no page of %s could be read":                                           "Nenhuma página de %s pôde ser lida.",
		"no page could be read":                                                 "Nenhuma página pôde ser lida.",
		"refused: the address is not public":                                    "Recusado: o endereço não é público.",
		"refused: the host is private (%s)":                                     "Recusado: o servidor é privado (%s).",
		"refused: the address is private (%s address %s)":                       "Recusado: o endereço é privado (endereço %s %s).",
		"the site could not be reached: timed out":                              "Não foi possível acessar o site: o tempo se esgotou.",
		"the site could not be reached: too many redirects":                     "Não foi possível acessar o site: redirecionamentos demais.",
		"the site could not be reached: the host name %s does not exist":        "Não foi possível acessar o site: o nome %s não existe.",
		"the site could not be reached: the host name %s could not be resolved": "Não foi possível acessar o site: o nome %s não pôde ser resolvido.",
		"the site could not be reached: the connection was refused":             "Não foi possível acessar o site: a conexão foi recusada.",
		"the site could not be reached: the host could not be reached":          "Não foi possível acessar o site: o servidor não respondeu.",
		"the site could not be reached: %s":                                     "Não foi possível acessar o site: %s",
		"robots.txt disallows %s":                                               "O robots.txt do site não permite ler %s.",
		"%s answered HTTP %d":                                                   "%s respondeu HTTP %d.",
		"%s redirects off the site to %s":                                       "%s redireciona para fora do site, para %s.",
		"%s redirects outside the start path to %s":                             "%s redireciona para fora do caminho inicial, para %s.",
		"%s redirects to %s, which robots.txt disallows":                        "%s redireciona para %s, que o robots.txt não permite ler.",
		"the site answered HTTP %d for %s":                                      "O site respondeu HTTP %d para %s.",
		"%s is not an HTML page (%s)":                                           "%s não é uma página HTML (%s).",
		"%s is not an HTML page":                                                "%s não é uma página HTML.",
		"%s could not be parsed as HTML":                                        "%s não pôde ser lido como HTML.",
		"no readable text: the site may render only in a browser":               "Nenhum texto legível: o site talvez só apareça num navegador.",
		"%s is larger than %d KiB":                                              "%s tem mais de %d KiB.",
	},
	"es": {
		"the crawl of %s was cancelled before it ended; nothing was stored":     "La lectura de %s se canceló antes de terminar; no se guardó nada.",
		"no page of %s could be read":                                           "No se pudo leer ninguna página de %s.",
		"no page could be read":                                                 "No se pudo leer ninguna página.",
		"refused: the address is not public":                                    "Rechazado: la dirección no es pública.",
		"refused: the host is private (%s)":                                     "Rechazado: el servidor es privado (%s).",
		"refused: the address is private (%s address %s)":                       "Rechazado: la dirección es privada (dirección %s %s).",
		"the site could not be reached: timed out":                              "No se pudo acceder al sitio: se agotó el tiempo.",
		"the site could not be reached: too many redirects":                     "No se pudo acceder al sitio: demasiadas redirecciones.",
		"the site could not be reached: the host name %s does not exist":        "No se pudo acceder al sitio: el nombre %s no existe.",
		"the site could not be reached: the host name %s could not be resolved": "No se pudo acceder al sitio: el nombre %s no se pudo resolver.",
		"the site could not be reached: the connection was refused":             "No se pudo acceder al sitio: se rechazó la conexión.",
		"the site could not be reached: the host could not be reached":          "No se pudo acceder al sitio: el servidor no respondió.",
		"the site could not be reached: %s":                                     "No se pudo acceder al sitio: %s",
		"robots.txt disallows %s":                                               "El robots.txt del sitio no permite leer %s.",
		"%s answered HTTP %d":                                                   "%s respondió HTTP %d.",
		"%s redirects off the site to %s":                                       "%s redirige fuera del sitio, a %s.",
		"%s redirects outside the start path to %s":                             "%s redirige fuera de la ruta inicial, a %s.",
		"%s redirects to %s, which robots.txt disallows":                        "%s redirige a %s, que el robots.txt no permite leer.",
		"the site answered HTTP %d for %s":                                      "El sitio respondió HTTP %d para %s.",
		"%s is not an HTML page (%s)":                                           "%s no es una página HTML (%s).",
		"%s is not an HTML page":                                                "%s no es una página HTML.",
		"%s could not be parsed as HTML":                                        "%s no se pudo leer como HTML.",
		"no readable text: the site may render only in a browser":               "Ningún texto legible: puede que el sitio solo se muestre en un navegador.",
		"%s is larger than %d KiB":                                              "%s tiene más de %d KiB.",
	},
}

// crawlReason is why a crawl read no page (a crawl_failed error), in the page's language when
// there are words for it there, else as the API gives it.
func (v view) crawlReason(e *domain.Error) string {
	if tr, ok := crawlReasons[v.Lang][e.Format]; ok && e.Format != "" {
		return printerOf(v.Lang).Sprintf(tr, e.Args...)
	}
	return e.Message
}

// reason is why the service refused the form's value, in the page's language when there are words for it there,
// else as the API gives it.
func (v view) reason(st *formState) string {
	if tr, ok := reasons[v.Lang][st.Format]; ok && st.Format != "" {
		return fmt.Sprintf(tr, st.Args...)
	}
	return st.Message
}
