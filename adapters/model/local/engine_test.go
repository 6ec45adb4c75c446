package local

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

var _ ports.Replier = (*Engine)(nil)

// lu is the bakery's agent profile: Portuguese first, with an email and a phone.
var lu = profile.Profile{
	BusinessName: "Padaria Lu",
	Languages:    []string{"pt", "en", "es"},
	Contact:      profile.Contact{Email: "lu@example.com", Phone: "+351 900 000 000"},
	Appearance:   profile.Appearance{Name: "Lu"},
}

// say returns the engine's reply to a turn, checking what every reply must be.
func say(t testing.TB, turn conversation.Turn) string {
	t.Helper()
	d, err := NewEngine().Reply(context.Background(), turn)
	if err != nil {
		t.Fatalf("Reply(%q): %v", turn.Message, err)
	}
	if d.Usage != (conversation.Usage{}) || d.Booking != nil {
		t.Errorf("Reply(%q): usage %+v, booking %v; want none", turn.Message, d.Usage, d.Booking)
	}
	if up := strings.ToUpper(d.Text); strings.Contains(up, "[CART") || strings.Contains(up, "[CHECKOUT") {
		t.Errorf("Reply(%q) = %q: acts", turn.Message, d.Text)
	}
	return d.Text
}

// bakeryPages and bakeryFAQ are the Brain of a bakery in Porto, in English, Portuguese and Spanish.
var bakeryPages = []knowledge.Page{
	{URL: "https://padarialu.example/hours", Title: "Opening hours and location", Content: `Padaria Lu is a family bakery in the centre of Porto, on Rua das Flores, two minutes from São Bento station.

Our shop is open Monday to Friday from 8:00 to 19:00 and on Saturday from 8:00 to 13:00. We are closed on Sundays and public holidays. During August we close for two weeks of holidays; the dates are announced on our Instagram page in July.

There is no parking in Rua das Flores itself, but the Trindade car park is a five-minute walk away.`},
	{URL: "https://padarialu.example/delivery", Title: "Delivery", Content: `We deliver cakes, bread and pastries in Porto, Gaia and Matosinhos. Delivery is free for orders above 30 euros; below that it costs 3 euros. Orders placed before 11:00 are delivered the same day, between 14:00 and 18:00.

We do not ship outside the Porto area, because our products are baked fresh every morning and do not travel well. Frozen products are not available.

If nobody is at home when we deliver, the driver calls the number given with the order and waits ten minutes.`},
	{URL: "https://padarialu.example/cakes", Title: "Custom cakes", Content: `We bake custom cakes for birthdays, weddings and christenings. Order at least three days in advance, or two weeks for wedding cakes with more than one tier.

Gluten-free and vegan sponges are available on request, at no extra cost. Prices start at 25 euros for a cake for eight people. A deposit of half the price confirms the order.

You can bring a photo of the cake you want and we will do our best to reproduce it. Writing on the cake is free.`},
	{URL: "https://padarialu.example/returns", Title: "Returns and refunds", Content: `Fresh products cannot be returned once delivered. If a cake arrives damaged, send us a photo within 24 hours and we refund the full price or bake a new one, as you prefer. Refunds reach your card within five working days.

Deposits for custom cakes are refunded in full when the order is cancelled at least 48 hours before the delivery date.`},
	{URL: "https://padarialu.example/pt/entregas", Title: "Entregas", Content: `Entregamos bolos, pão e pastelaria no Porto, em Gaia e em Matosinhos. A entrega é gratuita para encomendas acima de 30 euros; abaixo disso custa 3 euros.

Encomendas feitas antes das 11:00 são entregues no próprio dia, entre as 14:00 e as 18:00. Não fazemos envios para fora da área do Porto.`},
	{URL: "https://padarialu.example/pt/pagamentos", Title: "Pagamentos", Content: `Aceitamos cartões de débito e crédito, MB WAY e dinheiro. As faturas com número de contribuinte são enviadas por email no próprio dia.

Para bolos por encomenda pedimos um sinal de metade do preço, pago por MB WAY ou transferência bancária.`},
	{URL: "https://padarialu.example/es/alergias", Title: "Alergias e ingredientes", Content: `Todos nuestros productos pueden contener trazas de frutos secos y de sésamo. Tenemos panes sin gluten elaborados en un horno separado, los martes y los viernes.

Consulte la lista completa de ingredientes de cada producto en la tienda o pídala por correo electrónico. No usamos conservantes ni colorantes artificiales.`},
}

var bakeryFAQ = []knowledge.FAQ{
	{ID: "faq-hours", Question: "What are your opening hours?", Answer: "Monday to Friday 8:00–19:00, Saturday 8:00–13:00. Closed on Sundays."},
	{ID: "faq-parking", Question: "Is there parking near the shop?", Answer: "Yes: the Trindade car park is a five-minute walk away."},
	{ID: "faq-pay", Question: "Which payment methods do you accept?", Answer: "Cards, MB WAY and cash."},
	{ID: "faq-wifi", Question: "Do you have wifi?", Answer: "Yes, ask at the counter for the password."},
	{ID: "faq-pt-horario", Question: "Qual é o horário de funcionamento?", Answer: "De segunda a sexta das 8:00 às 19:00, sábado das 8:00 às 13:00."},
	{ID: "faq-pt-estacionamento", Question: "Há estacionamento perto da loja?", Answer: "Sim, o parque da Trindade fica a cinco minutos a pé."},
	{ID: "faq-es-madrid", Question: "¿Hacéis envíos a Madrid?", Answer: "No, solo entregamos en la zona de Oporto."},
	{ID: "faq-es-pago", Question: "¿Qué formas de pago aceptáis?", Answer: "Tarjetas, MB WAY y efectivo."},
}

// brain is a searchable Brain built the way the app builds it: pages split with the default
// sizes, chunks and FAQ questions embedded with the built-in embedder.
type brain struct {
	index    *knowledge.Index
	embedder *Embedder
}

func newBrain(t testing.TB) *brain {
	t.Helper()
	return newBrainWith(t)
}

// newBrainWith is newBrain with more FAQ items after the bakery's.
func newBrainWith(t testing.TB, more ...knowledge.FAQ) *brain {
	t.Helper()
	e := NewEmbedder()
	var chunks []knowledge.Chunk
	var texts []string
	for i, p := range bakeryPages {
		for _, c := range knowledge.Split(p, 0, 0) {
			c.ID = fmt.Sprintf("page%d-%d", i, c.Ordinal)
			chunks = append(chunks, c)
			texts = append(texts, c.Title+"\n"+c.Text)
		}
	}
	faqs := append(append([]knowledge.FAQ(nil), bakeryFAQ...), more...)
	for _, f := range faqs {
		texts = append(texts, f.Question)
	}
	vecs := embed(t, e, 0, texts...)
	docs := make([]knowledge.Doc, len(chunks))
	for i, c := range chunks {
		docs[i] = knowledge.Doc{Chunk: c, Vector: vecs[i]}
	}
	for i := range faqs {
		faqs[i].Vector = vecs[len(chunks)+i]
	}
	return &brain{index: knowledge.NewIndex(docs, faqs, NewStemmer(), sharedWords), embedder: e}
}

// search returns the Brain's hits for a message, as the app gives them to the engine.
func (b *brain) search(t testing.TB, message string) []knowledge.Hit {
	t.Helper()
	vs, err := b.embedder.Embed(context.Background(), []string{message}, 0)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	return b.index.Search(message, vs[0], knowledge.DefaultHits)
}

func TestReplySmallTalk(t *testing.T) {
	configured := map[string]string{
		"en":    "Welcome to Padaria Lu! Ask me about cakes, bread or delivery.",
		"pt":    "Bem-vindo à Padaria Lu! Pergunte-me sobre bolos, pão ou entregas.",
		"es-MX": "¡Bienvenido a Padaria Lu! Pregúntame por pasteles, pan o envíos.",
	}
	tests := []struct {
		name     string
		lang     string
		greeting map[string]string // the appearance's
		message  string
		want     string
	}{
		// Greetings: the configured one, by exact code, base language, another region, then the
		// profile's first language; else the default.
		{"en default", "en", nil, "Hi Lu!", "Hi! I'm the assistant of Padaria Lu. How can I help you?"},
		{"en default, two words", "en", nil, "Good morning :)", "Hi! I'm the assistant of Padaria Lu. How can I help you?"},
		{"pt default", "pt", nil, "Olá, bom dia!", "Olá! Sou o assistente de Padaria Lu. Em que posso ajudar?"},
		{"pt-BR default", "pt-BR", nil, "Oiii, tudo bem?", "Olá! Sou o assistente de Padaria Lu. Em que posso ajudar?"},
		{"es default", "es", nil, "¡Hola, buenas tardes!", "¡Hola! Soy el asistente de Padaria Lu. ¿En qué puedo ayudarte?"},
		{"unknown language: the profile's", "fr", nil, "hello", "Olá! Sou o assistente de Padaria Lu. Em que posso ajudar?"},
		{"en configured", "en", configured, "hellooo there", configured["en"]},
		{"pt-BR configured: base", "pt-BR", configured, "Oi, Padaria Lu!", configured["pt"]},
		{"es configured: other region", "es", configured, "Buenos días", configured["es-MX"]},
		{"es-ES configured: other region", "es-ES", configured, "hola", configured["es-MX"]},
		{"only pt configured: the profile's first", "en", map[string]string{"pt": "Olá!"}, "hey", "Olá!"},
		{"blank configured: default", "en", map[string]string{"en": "  "}, "hi", "Hi! I'm the assistant of Padaria Lu. How can I help you?"},

		{"en thanks", "en", nil, "Thank you so much!", "You're welcome! Anything else I can help with?"},
		{"en thanks for the help", "en", nil, "ok, thanks for your help", "You're welcome! Anything else I can help with?"},
		{"pt thanks", "pt", nil, "Muito obrigada!", "De nada! Posso ajudar em mais alguma coisa?"},
		{"pt-BR valeu", "pt-BR", nil, "valeu!!", "De nada! Posso ajudar em mais alguma coisa?"},
		{"es thanks", "es", nil, "Muchas gracias", "¡De nada! ¿Te puedo ayudar en algo más?"},
		{"es thanks for the help", "es", nil, "gracias por la ayuda", "¡De nada! ¿Te puedo ayudar en algo más?"},

		{"en bye", "en", nil, "Bye!", "Goodbye, and thanks for contacting Padaria Lu!"},
		{"en thanks and bye", "en", nil, "ok thanks, bye", "Goodbye, and thanks for contacting Padaria Lu!"},
		{"pt tchau", "pt", nil, "Tchau", "Até breve! Obrigado por falar com Padaria Lu."},
		{"pt até logo", "pt", nil, "Obrigado, até logo!", "Até breve! Obrigado por falar com Padaria Lu."},
		{"pt adeus", "pt-BR", nil, "adeus", "Até breve! Obrigado por falar com Padaria Lu."},
		{"es adiós", "es", nil, "¡Adiós!", "¡Hasta pronto! Gracias por escribir a Padaria Lu."},
		{"es hasta luego", "es", nil, "Gracias, hasta luego", "¡Hasta pronto! Gracias por escribir a Padaria Lu."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := lu
			p.Appearance.Greeting = tt.greeting
			if got := say(t, conversation.Turn{Profile: p, Lang: tt.lang, Message: tt.message}); got != tt.want {
				t.Errorf("reply to %q = %q, want %q", tt.message, got, tt.want)
			}
		})
	}
}

// TestReplySmallTalkFAQ: the business's own FAQ answer to a greeting, thanks or goodbye comes
// before the built-in phrase; small talk its FAQ does not answer gets the built-in one.
func TestReplySmallTalkFAQ(t *testing.T) {
	b := newBrainWith(t,
		knowledge.FAQ{ID: "faq-thanks", Question: "Thank you so much!", Answer: "Obrigada! Come back for a pastel de nata."},
		knowledge.FAQ{ID: "faq-bye", Question: "Goodbye, see you soon", Answer: "See you soon at Rua das Flores!"},
	)
	tests := []struct{ message, want string }{
		{"thank you so much", "Obrigada! Come back for a pastel de nata."},
		{"Goodbye, see you soon!", "See you soon at Rua das Flores!"},
		{"Hi Lu!", "Hi! I'm the assistant of Padaria Lu. How can I help you?"},
		{"What are your opening hours?", "Monday to Friday 8:00–19:00, Saturday 8:00–13:00. Closed on Sundays."},
	}
	for _, tt := range tests {
		t.Run(tt.message, func(t *testing.T) {
			turn := conversation.Turn{Profile: lu, Lang: "en", Message: tt.message, Hits: b.search(t, tt.message)}
			if got := say(t, turn); got != tt.want {
				t.Errorf("reply to %q = %q, want %q", tt.message, got, tt.want)
			}
		})
	}
	// Without the FAQ's small talk, the same thanks gets the built-in phrase.
	plain := newBrain(t)
	turn := conversation.Turn{Profile: lu, Lang: "en", Message: "thank you so much", Hits: plain.search(t, "thank you so much")}
	if got, want := say(t, turn), "You're welcome! Anything else I can help with?"; got != want {
		t.Errorf("reply to thanks without an FAQ item for it = %q, want %q", got, want)
	}
}

func TestSmallTalk(t *testing.T) {
	tests := []struct {
		message string
		want    talk
	}{
		{"hi", hello},
		{"Hello, Lu.", hello},
		{"HOLA!!!", hello},
		{"Bom dia, pessoal", hello},
		{"thanks a lot", thanks},
		{"obrigadooo", thanks},
		{"mil gracias", thanks},
		{"thank you, goodbye", bye},
		{"hasta la próxima", bye},
		{"hi, do you deliver to Gaia?", question},
		{"thanks, how much is delivery?", question},
		{"obrigado, e aceitam MB WAY?", question},
		{"gracias, ¿hacéis envíos?", question},
		{"Hi, I have a question", question},
		{"good", question}, // only a courtesy word
		{"ok", question},
		{"", question},
		{"👍", question},
		{"/start", hello}, // Telegram's Start button opens every chat with a bot
		{"/start ref-42", hello},
		{"/START@LuBakeryBot", hello},
		{"/start do you deliver to Gaia?", question},
		{"/stop", question},
		{strings.Repeat("thanks ", smallTalkWords+1), question},
	}
	for _, tt := range tests {
		if got := smallTalk(tt.message, lu); got != tt.want {
			t.Errorf("smallTalk(%q) = %d, want %d", tt.message, got, tt.want)
		}
	}
}

func TestReplyRetrieval(t *testing.T) {
	b := newBrain(t)
	tests := []struct {
		name      string
		lang      string
		message   string
		noContact bool
		want      string // the whole reply, when set
		page      string // else the page the passage must come from
		contains  string // and a part of it
	}{
		{"en strong FAQ", "en", "What are your opening hours?", false, bakeryFAQ[0].Answer, "", ""},
		{"en strong FAQ, other words", "en", "opening hours?", false, bakeryFAQ[0].Answer, "", ""},
		{"pt strong FAQ", "pt", "Qual é o horário de funcionamento?", false, bakeryFAQ[4].Answer, "", ""},
		{"es strong FAQ", "es", "¿Hacéis envíos a Madrid?", false, bakeryFAQ[6].Answer, "", ""},
		{"es close FAQ", "es", "¿Hacen envíos a Madrid?", false, bakeryFAQ[6].Answer, "", ""},
		{"en close FAQ, fewer words", "en", "When are you open?", false, bakeryFAQ[0].Answer, "", ""},
		// Another question that shares a word: the answer matcher is not sure of it, so the
		// engine says it does not know rather than answer with the opening hours.
		{"en another question sharing a word", "en", "Do you have any job openings?", false,
			"I'm sorry, I don't know the answer to that. You can reach Padaria Lu at lu@example.com or +351 900 000 000.", "", ""},
		{"en loose FAQ, other words", "en", "Do you accept credit cards?", false,
			"If you mean “Which payment methods do you accept?”: " + bakeryFAQ[2].Answer, "", ""},
		// Only the answer of an FAQ item holds the question's word (knowledge.Hit.Covers).
		{"en FAQ by its answer", "en", "do you take cash", false,
			"If you mean “Which payment methods do you accept?”: " + bakeryFAQ[2].Answer, "", ""},
		{"pt loose FAQ", "pt", "Há estacionamento?", false, "Se a pergunta é “Há estacionamento perto da loja?”: " + bakeryFAQ[5].Answer, "", ""},
		{"es loose FAQ", "es", "¿Aceptáis tarjeta?", false, "Si te refieres a «¿Qué formas de pago aceptáis?»: " + bakeryFAQ[7].Answer, "", ""},

		{"en page", "en", "Do you deliver to Matosinhos?", false, "", "https://padarialu.example/delivery", "Gaia and Matosinhos"},
		{"en page, refunds", "en", "How long do refunds take?", false, "", "https://padarialu.example/returns", "within five working days"},
		{"en page, sundays", "en", "Are you closed on Sundays?", false, "", "https://padarialu.example/hours", "closed on Sundays"},
		// An FAQ item that only shares a word ("shop" with "Is there parking near the shop?")
		// yields to the page passage that answers the question.
		{"en page over a loose FAQ item", "en", "Is the shop open on Sundays?", false, "", "https://padarialu.example/hours", "closed on Sundays"},
		{"en page, deposit", "en", "Is there a deposit for wedding cakes?", false, "", "https://padarialu.example/cakes", "A deposit of half the price"},
		{"en greeting and question", "en", "Hi, do you deliver bread?", false, "", "https://padarialu.example/delivery", "We deliver cakes, bread"},
		{"en thanks and question", "en", "Thanks! And what if nobody is home?", false, "", "https://padarialu.example/delivery", "the driver calls"},
		{"pt page", "pt", "Quanto custa a entrega?", false, "", "https://padarialu.example/pt/entregas", "custa 3 euros"},
		{"pt thanks and question", "pt", "Obrigado! Aceitam MB WAY?", false, "", "https://padarialu.example/pt/pagamentos", "MB WAY e dinheiro"},
		{"es page", "es", "¿Tenéis pan sin gluten?", false, "", "https://padarialu.example/es/alergias", "panes sin gluten"},
		{"es thanks and question", "es", "Gracias. ¿Los productos tienen frutos secos?", false, "", "https://padarialu.example/es/alergias", "trazas de frutos secos"},

		{"en unknown", "en", "Do you sell car insurance?", false,
			"I'm sorry, I don't know the answer to that. You can reach Padaria Lu at lu@example.com or +351 900 000 000.", "", ""},
		{"pt unknown", "pt", "Qual é a cotação do bitcoin?", false,
			"Desculpe, não sei a resposta a essa pergunta. Pode falar com Padaria Lu através de lu@example.com ou +351 900 000 000.", "", ""},
		{"es unknown", "es", "¿Quién ganó el partido de fútbol?", false,
			"Lo siento, no lo sé; no tengo esa información. Puedes contactar con Padaria Lu a través de lu@example.com o +351 900 000 000.", "", ""},
		{"en unknown, no contact", "en", "How do I renew my passport?", true,
			"I'm sorry, I don't know the answer to that. Leave your message here with your email or phone number and Padaria Lu will get back to you.", "", ""},
		{"pt unknown, no contact", "pt-BR", "Vocês vendem telemóveis?", true,
			"Desculpe, não sei a resposta a essa pergunta. Deixe aqui a sua mensagem com o seu email ou telefone e Padaria Lu responderá assim que possível.", "", ""},
		{"es unknown, no contact", "es", "¿Dónde puedo comprar un coche?", true,
			"Lo siento, no lo sé; no tengo esa información. Deja aquí tu mensaje con tu email o teléfono y Padaria Lu te responderá lo antes posible.", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := lu
			if tt.noContact {
				p.Contact = profile.Contact{}
			}
			got := say(t, conversation.Turn{Profile: p, Lang: tt.lang, Message: tt.message, Hits: b.search(t, tt.message)})
			if tt.want != "" {
				if got != tt.want {
					t.Errorf("reply to %q =\n%q\nwant\n%q", tt.message, got, tt.want)
				}
				return
			}
			text, ok := strings.CutSuffix(got, "\n\n[OPEN:"+tt.page+"]")
			if !ok {
				t.Fatalf("reply to %q = %q, want a passage and [OPEN:%s]", tt.message, got, tt.page)
			}
			if !strings.Contains(text, tt.contains) {
				t.Errorf("passage %q does not hold %q", text, tt.contains)
			}
			checkQuoted(t, text, pageContent(t, tt.page))
		})
	}
}

// checkQuoted fails unless every line of a passage is in the page, word for word.
func checkQuoted(t *testing.T, passage, content string) {
	t.Helper()
	content = strings.Join(strings.Fields(content), " ")
	for line := range strings.Lines(passage) {
		if !strings.Contains(content, strings.TrimSpace(line)) {
			t.Errorf("passage line %q is not in the page", line)
		}
	}
	if n := utf8.RuneCountInString(passage); n > maxPassage {
		t.Errorf("passage of %d characters, want at most %d", n, maxPassage)
	}
}

func pageContent(t *testing.T, url string) string {
	t.Helper()
	for _, p := range bakeryPages {
		if p.URL == url {
			return p.Content
		}
	}
	t.Fatalf("no page %s", url)
	return ""
}

// TestMinScore checks MinScore against real scores: questions the Brain answers in their own
// words must reach it, unrelated ones (some sharing an ordinary word with a page) must not.
func TestMinScore(t *testing.T) {
	b := newBrain(t)
	onTopic := []string{
		"Do you deliver to Matosinhos?", "How long do refunds take?", "Can I order a vegan birthday cake?",
		"Are you closed on Sundays?", "How much does delivery cost?", "Can I pay with MB WAY?",
		"what if nobody is home", "Can I cancel my cake order?", "My cake arrived damaged",
		"Do you have frozen products?", "When do you close for holidays in August?", "Is delivery free?",
		"Can you write on the cake?", "How much is a cake for 8 people?",
		"Fazem entregas em Gaia?", "Quanto custa a entrega?", "Qual o preço da entrega?", "Aceitam MB WAY?",
		"¿Tenéis pan sin gluten?", "¿Los productos tienen frutos secos?",
	}
	unrelated := []string{
		"What is the capital of France?", "Can you recommend a good movie?", "Do you repair bicycles?",
		"What's the weather tomorrow?", "How do I renew my passport?", "Do you sell car insurance?",
		"I need a plumber", "Can I bring my dog?", "Can I rent a car?", "Do you have a photo studio?",
		"How do I reset my password?", "What is your return policy for electronics?",
		"Do you do weddings photography?", "Is there a swimming pool?",
		"Qual é a cotação do bitcoin?", "Tenho uma dúvida sobre impostos", "Vocês vendem telemóveis?",
		"Quero marcar uma consulta no dentista", "¿Quién ganó el partido de fútbol?",
		"¿Dónde puedo comprar un coche?", "¿Cuál es la contraseña del correo?",
	}
	lowest, highest := 1.0, 0.0
	for _, q := range onTopic {
		h, _ := best(b.search(t, q), q, shipped)
		// An FAQ item alone holding the question's words ("Cards, MB WAY and cash") is taken for
		// that (knowledge.Hit.Sole), not for its score.
		if !h.Sole {
			lowest = min(lowest, h.Score)
			if h.Score < MinScore {
				t.Errorf("on topic %q scores %.3f, below MinScore %.2f", q, h.Score, MinScore)
			}
		}
		if got := say(t, conversation.Turn{Profile: lu, Lang: "en", Message: q, Hits: b.search(t, q)}); strings.Contains(got, "I don't know") {
			t.Errorf("on topic %q: %q", q, got)
		}
	}
	for _, q := range unrelated {
		h, _ := best(b.search(t, q), q, shipped)
		highest = max(highest, h.Score)
		if h.Score >= MinScore {
			t.Errorf("unrelated %q scores %.3f, at or above MinScore %.2f", q, h.Score, MinScore)
		}
		if got := say(t, conversation.Turn{Profile: lu, Lang: "en", Message: q, Hits: b.search(t, q)}); !strings.HasPrefix(got, "I'm sorry, I don't know") {
			t.Errorf("unrelated %q: %q", q, got)
		}
	}
	t.Logf("unrelated score at most %.3f, on topic at least %.3f, MinScore %.2f", highest, lowest, MinScore)
}

func TestDontKnow(t *testing.T) {
	const sorry = "I'm sorry, I don't know the answer to that. "
	tests := []struct {
		contact profile.Contact
		want    string
	}{
		{profile.Contact{Email: "lu@example.com"}, "You can reach Padaria Lu at lu@example.com."},
		{profile.Contact{Phone: "+351 900 000 000"}, "You can reach Padaria Lu at +351 900 000 000."},
		{profile.Contact{Email: "lu@example.com", Phone: "+351 900 000 000", Address: "Rua das Flores 12", Hours: "Mon–Fri 8:00–19:00."},
			"You can reach Padaria Lu at lu@example.com or +351 900 000 000. Opening hours: Mon–Fri 8:00–19:00."},
		{profile.Contact{Address: "Rua das Flores 12, Porto"}, "You can visit Padaria Lu at Rua das Flores 12, Porto."},
		{profile.Contact{Hours: "every day 9–18"},
			"Leave your message here with your email or phone number and Padaria Lu will get back to you. Opening hours: every day 9–18."},
		{profile.Contact{Email: "  "}, "Leave your message here with your email or phone number and Padaria Lu will get back to you."},
	}
	for _, tt := range tests {
		p := lu
		p.Contact = tt.contact
		if got := say(t, conversation.Turn{Profile: p, Lang: "en", Message: "Do you repair bicycles?"}); got != sorry+tt.want {
			t.Errorf("contact %+v: reply %q, want %q", tt.contact, got, sorry+tt.want)
		}
	}
}

func TestPassage(t *testing.T) {
	long := func(topic string) string {
		return "The " + topic + " is described here in a long sentence" + strings.Repeat(" with many more words", 5) + "."
	}
	tests := []struct {
		name, text, question, first, want string
	}{
		{"one sentence", "We open at 9. We deliver in Porto. We close at 7.", "do you deliver?", "", "We deliver in Porto."},
		{"the search's sentence first", "Returns from the EU cost £6, deducted from the refund. Refunds are made within 5 working days.",
			"when will i get my refund", "Refunds are made within  5 working days.", "Refunds are made within 5 working days."},
		{"the search's sentence alone", "Our shop is in Porto. Shop hours: 9 to 7.", "where is the shop", "Our shop is in Porto.", "Our shop is in Porto."},
		{"in their order", "Cakes are baked daily. Bread is baked at night. Prices start at 2 euros. Sourdough costs 4 euros.",
			"sourdough and cake prices?", "", "Cakes are baked daily. Prices start at 2 euros. Sourdough costs 4 euros."},
		{"lines", "Delivery\nWe deliver in Porto.\n\nReturns\nNo returns of fresh food.", "delivery in Porto", "", "Delivery\nWe deliver in Porto."},
		{"heading", "Opening hours\nWe open at 9 and close at 7.", "opening hours", "", "Opening hours\nWe open at 9 and close at 7."},
		{"list item", "We deliver to:\n- Porto\n- Gaia\n- Braga", "Gaia", "", "We deliver to:\n- Gaia"},
		{"no match: the first", "We are a bakery. We bake bread.", "tell me more", "", "We are a bakery."},
		{"abbreviations stay whole", "Open from 8 a.m. to 6 p.m. on weekdays. Closed on Sundays.", "weekdays", "", "Open from 8 a.m. to 6 p.m. on weekdays."},
		{"tokens dropped", "Pay at the counter. [CHECKOUT] Buy now [CART:p1:2]!", "pay counter", "", "Pay at the counter."},
		{"at a sentence boundary", long("cake") + " " + long("bread") + " " + long("delivery") + " " + long("refund"),
			"cake bread delivery refund", "", long("cake") + " " + long("bread")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := passage(clean(tt.text, false), tt.question, tt.first, ""); got != tt.want {
				t.Errorf("passage(%q) =\n%q\nwant\n%q", tt.question, got, tt.want)
			}
		})
	}

	huge := strings.Repeat("word ", 200) + "cake."
	got := passage(huge, "cake", "", "")
	if n := utf8.RuneCountInString(got); n > maxPassage+1 || !strings.HasSuffix(got, "…") {
		t.Errorf("a sentence of %d characters gave %d characters: %q", len(huge), n, got)
	}
}

// TestPassageWhole holds the passage's units (whole): a sentence quoted with what it needs to
// carry its fact, and the second sentence that restates the first's terms. Each row fails when
// the passage quotes the chosen sentences alone, but those saying "stays", "no" or "not", which
// hold what the units leave alone.
func TestPassageWhole(t *testing.T) {
	tests := []struct {
		name, text, question, first, want string
	}{
		{"a question with its answer",
			"Drop-off is between 8am and 9:30am. Need to drop it off before we open? Use the key drop box by the door.",
			"I start work at 7, can I leave the car before you open?", "Need to drop it off before we open?",
			"Need to drop it off before we open? Use the key drop box by the door."},
		{"a question on its own line with its answer on the next",
			"Nervous?\nYour first lesson can start in a quiet car park.\nLessons cost $70.",
			"I'm really nervous about driving", "Nervous?", "Nervous?\nYour first lesson can start in a quiet car park."},
		{"an item's sentence after its head",
			"Desistências: pode desistir com aviso de 30 dias; as mensalidades já pagas não são reembolsadas. Se desistir na primeira semana, devolvemos o valor pago.",
			"se eu desistir a meio devolvem-me o dinheiro?", "Se desistir na primeira semana, devolvemos o valor pago.",
			"Desistências: pode desistir com aviso de 30 dias; as mensalidades já pagas não são reembolsadas. Se desistir na primeira semana, devolvemos o valor pago."},
		{"a head with the rest of its item that holds the question's words",
			"Inscrição: 40 € por ano, paga uma só vez. Antigos alunos não pagam inscrição. O manual custa 30 €.\nPropinas: 95 € por mês.",
			"tenho de pagar a inscrição outra vez?", "Inscrição: 40 € por ano, paga uma só vez.",
			"Inscrição: 40 € por ano, paga uma só vez. Antigos alunos não pagam inscrição."},
		{"a list of labelled items stays one item",
			"Manicure: 15 €. Pedicure: 20 €. Unhas de gel: 30 €.", "quanto custa a manicure", "Manicure: 15 €.", "Manicure: 15 €."},
		{"no head without a label", "Open 9:30 to 5 on weekdays. We close at noon on Fridays.", "do you close early on fridays",
			"We close at noon on Fridays.", "We close at noon on Fridays."},
		{"a list's row with the line that leads in to it",
			"Our cars are new.\n\nRates per day, low season and high season:\nCompact (Fiat Mobi): $38 and $52.\nSUV 4x4 (Renault Duster): $78 and $110.\n\nThe high season is July.",
			"how much is the 4x4", "SUV 4x4 (Renault Duster): $78 and $110.",
			"Rates per day, low season and high season:\nSUV 4x4 (Renault Duster): $78 and $110."},
		{"another line naming the same thing (restated)",
			"Horario: de lunes a viernes de 9:30 a 20:30. Los domingos la clínica está cerrada.\nUrgencias: las 24 horas en el 659 310 020. La consulta de urgencia cuesta 130 € de noche y los domingos.",
			"abris los domingos", "La consulta de urgencia cuesta 130 € de noche y los domingos.",
			"Horario: de lunes a viernes de 9:30 a 20:30. Los domingos la clínica está cerrada.\nUrgencias: las 24 horas en el 659 310 020. La consulta de urgencia cuesta 130 € de noche y los domingos."},
		{"the one of fewest terms",
			"Flat tyre repair $15 plus the tube.\nA flat tyre on a cargo bike, an e-bike or a tandem with hub gears takes a day longer.\nA flat is mended while you wait.",
			"how much for a flat", "Flat tyre repair $15 plus the tube.",
			"Flat tyre repair $15 plus the tube.\nA flat is mended while you wait."},
		{"not a sentence of the same line",
			"Flat tyre repair $15 plus the tube. A flat on an e-bike is $25.\nWe are open on Sundays.",
			"how much to fix a flat", "Flat tyre repair $15 plus the tube.", "Flat tyre repair $15 plus the tube."},
		{"not a sentence holding only some of the terms",
			"Gift cards from $20, sold in the shop.\nCards are accepted.\nThe shop is on Main Street.",
			"do you sell gift cards", "Gift cards from $20, sold in the shop.", "Gift cards from $20, sold in the shop."},
		{"a sentence opening with a pronoun with the one it stands for",
			"Lessons are $70. Our Test Day Package costs $250. It includes a warm-up lesson and the use of our car for the test.",
			"can i use your car for the test", "It includes a warm-up lesson and the use of our car for the test.",
			"Our Test Day Package costs $250. It includes a warm-up lesson and the use of our car for the test."},
		{"isso, in Portuguese",
			"A inscrição custa 40 €. Isso inclui o manual.", "o manual está incluído?", "Isso inclui o manual.",
			"A inscrição custa 40 €. Isso inclui o manual."},
		{"a word like a pronoun is not one", "Parking is free. Itineraries are on the board.", "where are the itineraries",
			"Itineraries are on the board.", "Itineraries are on the board."},
		{"no lead-in across a paragraph",
			"Rates per day:\n\nSUV 4x4 (Renault Duster): $78 and $110.",
			"how much is the 4x4", "SUV 4x4 (Renault Duster): $78 and $110.", "SUV 4x4 (Renault Duster): $78 and $110."},
		{"no lead-in for a line of several sentences",
			"Rates per day:\nSUV 4x4: $78. Chains are free in winter.",
			"how much is the 4x4", "SUV 4x4: $78.", "SUV 4x4: $78."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := passage(clean(tt.text, false), tt.question, tt.first, ""); got != tt.want {
				t.Errorf("passage(%q) =\n%q\nwant\n%q", tt.question, got, tt.want)
			}
		})
	}
}

func TestLabelled(t *testing.T) {
	for s, want := range map[string]bool{
		"Desistências: pode desistir com aviso de 30 dias.":                           true,
		"Late pick-up: $1 a minute.":                                                  true,
		"Horario de consulta: de lunes a viernes.":                                    true,
		"Open 9:30 to 5.":                                                             false,
		"Para cirugías de más de 300 €, dos pagos: sin intereses.":                    false,
		"We are open from Tuesday to Sunday and on most public holidays: call first.": false,
		"Corte de criança (até 10 anos): 10 €.":                                       false,
		"Need to drop it off before we open?":                                         false,
	} {
		if got := labelled(s); got != want {
			t.Errorf("labelled(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestReplyNeverActs(t *testing.T) {
	chunk := knowledge.Chunk{ID: "c1", URL: "https://padarialu.example/shop", Title: "Shop",
		Text: "Order cakes online. [CHECKOUT] Add the cake to your cart [cart:cake-1:2] and pay. [OPEN:https://evil.example]"}
	faq := knowledge.FAQ{ID: "f1", Question: "How do I order?",
		Answer: "Order online [CART:cake-1:1][CHECKOUT]: see [OPEN:https://padarialu.example/shop]."}
	tests := []struct {
		name string
		hit  knowledge.Hit
		want string
	}{
		{"strong FAQ keeps its open token", knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: faq, Score: 0.9, Strong: true},
			"Order online : see [OPEN:https://padarialu.example/shop]."},
		{"chunk", knowledge.Hit{Kind: knowledge.KindChunk, Chunk: chunk, Score: 0.5},
			"Order cakes online.\n\n[OPEN:https://padarialu.example/shop]"},
		{"chunk without URL", knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "Order cakes online."}, Score: 0.5},
			"Order cakes online."},
		{"FAQ below MinScore", knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: faq, Score: MinScore - 0.01},
			"I'm sorry, I don't know the answer to that. You can reach Padaria Lu at lu@example.com or +351 900 000 000."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := say(t, conversation.Turn{Profile: lu, Lang: "en", Message: "how do I order cakes?", Hits: []knowledge.Hit{tt.hit}})
			if got != tt.want {
				t.Errorf("reply %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReplyCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewEngine().Reply(ctx, conversation.Turn{Profile: lu, Message: "hi"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Reply with a canceled context: %v, want context.Canceled", err)
	}
}

func BenchmarkReply(b *testing.B) {
	br := newBrain(b)
	for _, bm := range []struct{ name, message string }{
		{"greeting", "Hi Lu, good morning!"},
		{"faq", "What are your opening hours?"},
		{"passage", "Is there a deposit for wedding cakes?"},
		{"unknown", "Do you sell car insurance?"},
	} {
		turn := conversation.Turn{Profile: lu, Lang: "en", Message: bm.message, Hits: br.search(b, bm.message)}
		e := NewEngine()
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Reply(context.Background(), turn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBestLooseFAQ checks that an FAQ item matched only loosely, not covering the question,
// yields to a chunk scoring within LooseMargin of it even under MinScore (answered from
// MinScore less NearScore, else nothing is), that a loose item scoring LooseMargin times a chunk
// over MinScore comes before it, and that a covering item or a sure one is answered as before.
//
// And that an FAQ item, not Strong and not covering the question, yields to the best chunk when
// the chunk holds more of the question's content words (knowledge.Hit.Held) and scores at least
// MinScore less NearScore, whatever the two score: "do u mot motorbikes" gets "We do not test
// motorbikes." (both words), not "How much is an MOT?" (one); "if i cancel my room reservation do
// i get my money back" the rooms' refunds, not "How do I cancel my membership?"; "When are you
// open?" keeps the opening hours' item (no content word: TestReplyRetrieval).
func TestBestLooseFAQ(t *testing.T) {
	held := func(h knowledge.Hit, share float64) knowledge.Hit {
		h.Held = share
		h.Sole = h.Covers && h.Overlap > LooseOverlap // a covering item of which no chunk holds them all
		return h
	}
	faq := func(score, overlap float64, covers bool) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{Question: "How do I book you for my wedding?", Answer: "Book a consultation."},
			Score: score, Confidence: 0.2, Overlap: overlap, Covers: covers}
	}
	chunk := func(score float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "We can dry and frame your wedding bouquet."}, Score: score}
	}
	const q = "can you keep my wedding bouquet"
	for _, tt := range []struct {
		name string
		hits []knowledge.Hit
		want knowledge.Kind
		ok   bool
	}{
		{"loose item, chunk near it and near MinScore: the chunk", []knowledge.Hit{faq(0.17, 0.5, false), chunk(0.145)}, knowledge.KindChunk, true},
		{"loose item, chunk near it but far under MinScore: nothing", []knowledge.Hit{faq(0.12, 0.5, false), chunk(0.10)}, "", false},
		{"loose item, chunk far under it: the item", []knowledge.Hit{faq(0.25, 0.5, false), chunk(0.14)}, knowledge.KindFAQ, true},
		{"loose item alone: the item", []knowledge.Hit{faq(0.17, 0.5, false)}, knowledge.KindFAQ, true},
		{"covering item, chunk near it: the item", []knowledge.Hit{faq(0.17, 0.5, true), chunk(0.145)}, knowledge.KindFAQ, true},
		{"sure item, chunk near it: the item", []knowledge.Hit{faq(0.17, 1, false), chunk(0.145)}, knowledge.KindFAQ, true},
		{"chunk over MinScore near the item: the chunk", []knowledge.Hit{faq(0.20, 0.5, false), chunk(0.18)}, knowledge.KindChunk, true},
		{"chunk over MinScore far under the item: the item", []knowledge.Hit{faq(0.30, 0.5, false), chunk(0.18)}, knowledge.KindFAQ, true},

		{"sure overlap, chunk holding more, scoring more: the chunk", []knowledge.Hit{held(chunk(0.415), 1), held(faq(0.151, 0.67, false), 0.5)}, knowledge.KindChunk, true},
		{"sure overlap, chunk holding more, scoring less: the chunk", []knowledge.Hit{held(faq(0.276, 0.57, false), 0.5), held(chunk(0.225), 1)}, knowledge.KindChunk, true},
		{"sure overlap, chunk holding as much, scoring more: the item", []knowledge.Hit{held(chunk(0.415), 0.5), held(faq(0.151, 0.67, false), 0.5)}, knowledge.KindFAQ, true},
		{"sure overlap, no content word: the item", []knowledge.Hit{chunk(0.437), faq(0.260, 0.67, false)}, knowledge.KindFAQ, true},
		{"sure overlap, chunk holding more, far under MinScore: the item", []knowledge.Hit{held(chunk(0.10), 1), held(faq(0.15, 0.67, false), 0.5)}, knowledge.KindFAQ, true},
		{"loose, chunk holding more, near MinScore: the chunk", []knowledge.Hit{held(faq(0.217, 0.29, false), 0.2), held(chunk(0.142), 0.8)}, knowledge.KindChunk, true},
		{"loose, chunk holding more, over MinScore, far outscored: the chunk", []knowledge.Hit{held(faq(0.248, 0.29, false), 0.4), held(chunk(0.173), 0.6)}, knowledge.KindChunk, true},
		{"loose, chunk holding more, far under MinScore: the item", []knowledge.Hit{held(faq(0.217, 0.29, false), 0.2), held(chunk(0.09), 0.8)}, knowledge.KindFAQ, true},
		{"loose, chunk holding as many, far outscored: the item", []knowledge.Hit{held(faq(0.25, 0.29, false), 0.5), held(chunk(0.142), 0.5)}, knowledge.KindFAQ, true},
		{"covering item, chunk holding them all: the item", []knowledge.Hit{held(faq(0.217, 0.29, true), 1), held(chunk(0.142), 1)}, knowledge.KindFAQ, true},
		{"covering item alone in the Brain, chunk far over it: the item", []knowledge.Hit{held(chunk(0.415), 0.5), held(faq(0.151, 0.67, true), 1)}, knowledge.KindFAQ, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := best(tt.hits, q, shipped)
			if ok != tt.ok || h.Kind != tt.want {
				t.Errorf("best = %q, %v; want %q, %v", h.Kind, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestBestFirstChunk: the engine answers the first chunk of the hits over MinScore, not the one
// scoring most: the search puts first, of two chunks nearly tied, the one whose best sentence
// holds more of the question's words (knowledge's nearTie: "qto custa o banho de um shih tzu
// pequeno", the bath's prices at 0.192 before the hotel's at 0.195).
func TestBestFirstChunk(t *testing.T) {
	chunk := func(text string, score float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: text}, Score: score}
	}
	for _, tt := range []struct {
		name string
		hits []knowledge.Hit
		want string
	}{
		{"the first, scoring less", []knowledge.Hit{chunk("banho", 0.192), chunk("hotel", 0.195)}, "banho"},
		{"the first, scoring more", []knowledge.Hit{chunk("hotel", 0.195), chunk("banho", 0.192)}, "hotel"},
		{"the first over MinScore", []knowledge.Hit{chunk("under", 0.05), chunk("banho", 0.192), chunk("hotel", 0.195)}, "banho"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := best(tt.hits, "qto custa o banho de um shih tzu pequeno", shipped)
			if !ok || h.Chunk.Text != tt.want {
				t.Errorf("best = %q, %v; want %q", h.Chunk.Text, ok, tt.want)
			}
		})
	}
}

// TestBestDenser checks that of chunks of one page scoring within TieShare of each other and
// holding as many of the question's words, the one whose best sentence is the shortest answers
// (denser), and that a chunk of another page, one scoring less, holding fewer words or under
// MinScore does not.
func TestBestDenser(t *testing.T) {
	chunk := func(url, sentence string, score, held float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{URL: url, Text: sentence}, Sentence: sentence, Score: score, Held: held}
	}
	const (
		long  = "We sell sterile saline aftercare spray for $12; clean your piercing with it twice a day."
		short = "Earlobe: $40 for one, $70 for a pair."
	)
	for _, tt := range []struct {
		name string
		hits []knowledge.Hit
		want string
	}{
		{"the same page, a shorter sentence scoring as much", []knowledge.Hit{chunk("p", long, 0.182, 0.5), chunk("p", short, 0.181, 0.5)}, short},
		{"the shortest of three", []knowledge.Hit{chunk("p", long, 0.182, 0.5), chunk("p", "Earlobe: $40 for one.", 0.181, 0.5), chunk("p", short, 0.181, 0.5)}, "Earlobe: $40 for one."},
		{"the first when it is the shortest", []knowledge.Hit{chunk("p", short, 0.182, 0.5), chunk("p", long, 0.181, 0.5)}, short},
		{"not another page", []knowledge.Hit{chunk("p", long, 0.182, 0.5), chunk("q", short, 0.181, 0.5)}, long},
		{"not a page without an address", []knowledge.Hit{chunk("", long, 0.182, 0.5), chunk("", short, 0.181, 0.5)}, long},
		{"not scoring less", []knowledge.Hit{chunk("p", long, 0.182, 0.5), chunk("p", short, 0.17, 0.5)}, long},
		{"not holding fewer of the words", []knowledge.Hit{chunk("p", long, 0.182, 0.5), chunk("p", short, 0.181, 0.25)}, long},
		{"not under MinScore", []knowledge.Hit{chunk("p", long, MinScore, 0.5), chunk("p", short, MinScore*0.995, 0.5)}, long},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := best(tt.hits, "how much to get my ears pierced", shipped)
			if !ok || h.Sentence != tt.want {
				t.Errorf("best = %q, %v; want %q", h.Sentence, ok, tt.want)
			}
		})
	}
}

// TestSpaced checks that a line is trimmed and its white space made single spaces as
// strings.Fields and strings.Join make them, whether or not it is so already.
func TestSpaced(t *testing.T) {
	for _, l := range []string{"", " \n", "One two.\n", "One  two.", "\tOne two. ", "One\u00a0two three\r\n", "Um, dois e três.", "a \u2003b"} {
		if got, want := spaced(l), strings.Join(strings.Fields(l), " "); got != want {
			t.Errorf("spaced(%q) = %q, want %q", l, got, want)
		}
	}
}

// TestBestUnstated checks that a loose FAQ item that neither asks nor states the price or
// duration the question asks for (knowledge.Hit.Unstated) is not answered: the best chunk is,
// when it scores at least MinScore less NearScore, else nothing.
func TestBestUnstated(t *testing.T) {
	item := func(unstated bool, overlap float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "chains", Question: "¿Dan cadenas para la nieve?", Answer: "Sí, gratis en invierno."},
			Score: 0.179, Confidence: 0.222, Overlap: overlap, Held: 1, Covers: true, Unstated: unstated}
	}
	chunk := func(score float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "SUV 4x4: $78.000 por día."}, Score: score, Held: 0.5}
	}
	for _, tt := range []struct {
		name string
		hits []knowledge.Hit
		want string // the FAQ item's ID or the chunk's text; "" for none
	}{
		{"unstated, a chunk near enough", []knowledge.Hit{item(true, 0.22), chunk(0.157)}, "SUV 4x4: $78.000 por día."},
		{"unstated, no chunk near enough", []knowledge.Hit{item(true, 0.22), chunk(0.10)}, ""},
		{"stated", []knowledge.Hit{item(false, 0.22), chunk(0.157)}, "chains"},
		{"unstated but matched by more than a loose overlap", []knowledge.Hit{item(true, 0.6), chunk(0.157)}, "chains"},
		{"unstated, matched closely, a chunk scoring more and holding as much", []knowledge.Hit{
			{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "SUV 4x4: $78.000 por día."}, Score: 0.25, Held: 1}, item(true, 0.6)}, "SUV 4x4: $78.000 por día."},
		{"unstated, matched closely, a chunk scoring more but holding less", []knowledge.Hit{chunk(0.25), item(true, 0.6)}, "chains"},
		{"stated, matched closely, a chunk scoring more and holding as much", []knowledge.Hit{
			{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "SUV 4x4: $78.000 por día."}, Score: 0.25, Held: 1}, item(false, 0.6)}, "chains"},
		// The case round 49's wider rule (fewer) leaves to this one (off): a plain, confident item
		// would answer as the chunk holds no more of the question's words than it does.
		{"unstated, matched closely, plain and confident, a chunk scoring more and holding as much", []knowledge.Hit{
			{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "SUV 4x4: $78.000 por día."}, Score: 0.25, Held: 1},
			func() knowledge.Hit { h := item(true, 0.6); h.Plain = true; return h }()}, "SUV 4x4: $78.000 por día."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := best(tt.hits, "necesito una 4x4 para ir a la nieve, que precio tiene?", shipped)
			got := ""
			if ok {
				got = cmpOr(h.FAQ.ID, h.Chunk.Text)
			}
			if got != tt.want {
				t.Errorf("best = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestBestLooseHeld checks that a loose FAQ item yields to a chunk nearly as like the question
// (LooseMargin), under MinScore, only when the chunk holds at least as many of the question's
// content words (knowledge.Hit.Held): "can i just walk in and get a tattoo today" keeps "Do you
// take walk-ins?" rather than the piercings' walk-ins.
func TestBestLooseHeld(t *testing.T) {
	item := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "walkin", Question: "Do you take walk-ins?", Answer: "Tattoos are by appointment, piercings walk-in."},
		Score: 0.157, Confidence: 0.206, Overlap: 0.33, Held: 0.67}
	chunk := func(held float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "Piercings are walk-in."}, Score: 0.135, Held: held}
	}
	for _, tt := range []struct {
		name string
		held float64 // the chunk's
		want string
	}{
		{"the chunk holds less", 0.33, "walkin"},
		{"the chunk holds as much", 0.67, "Piercings are walk-in."},
		{"the chunk holds more", 1, "Piercings are walk-in."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantBest(t, []knowledge.Hit{item, chunk(tt.held)}, "can i just walk in and get a tattoo today", tt.want)
		})
	}
}

// TestReplyContact checks the answers to questions asking for the business's contact details:
// from the profile when the Brain's best answer does not tell them, the Brain's own otherwise.
func TestReplyContact(t *testing.T) {
	b := newBrain(t)
	p := lu
	p.Contact = profile.Contact{Email: "lu@example.com", Phone: "+351 900 000 000", Address: "Rua das Flores 12, Porto", Hours: "Mon–Sat 8:00–19:00."}
	tests := []struct {
		lang, message string
		want          string // the whole reply, when set
		page          string // else the page its passage must come from
	}{
		{"en", "What's your phone number?", "You can reach Padaria Lu at +351 900 000 000.", ""},
		{"en", "what is your email address", "You can reach Padaria Lu at lu@example.com.", ""},
		{"en", "How can I contact you?", "You can reach Padaria Lu at lu@example.com or +351 900 000 000.", ""},
		{"en", "phone?", "You can reach Padaria Lu at +351 900 000 000.", ""},
		{"en", "What is your address and phone number?",
			"You can reach Padaria Lu at +351 900 000 000. You can visit Padaria Lu at Rua das Flores 12, Porto.", ""},
		{"pt", "Qual é o vosso telefone?", "Pode falar com Padaria Lu através de +351 900 000 000.", ""},
		{"es", "¿Cuál es su correo electrónico?", "Puedes contactar con Padaria Lu a través de lu@example.com.", ""},
		// The Brain's best hits do not tell it (a chunk on the August holidays, an item on parking).
		{"en", "Where are you located?", "You can visit Padaria Lu at Rua das Flores 12, Porto.", ""},
		{"en", "where is the shop?", "You can visit Padaria Lu at Rua das Flores 12, Porto.", ""},
		// A page's passage whose open token is the only "open" in it does not tell the hours.
		{"en", "when do you open for custom cakes?", "Opening hours: Mon–Sat 8:00–19:00.", ""},
		// The Brain tells them: its answer stands.
		{"en", "What are your opening hours?", bakeryFAQ[0].Answer, ""},
		{"en", "Are you closed on Sundays?", "", "https://padarialu.example/hours"},
		// Not a question for a contact detail.
		{"en", "Do you fix phone screens?", "I'm sorry, I don't know the answer to that. You can reach Padaria Lu at lu@example.com or +351 900 000 000. Opening hours: Mon–Sat 8:00–19:00.", ""},
	}
	for _, tt := range tests {
		got := say(t, conversation.Turn{Profile: p, Lang: tt.lang, Message: tt.message, Hits: b.search(t, tt.message)})
		switch {
		case tt.want != "" && got != tt.want:
			t.Errorf("reply to %q =\n%q\nwant\n%q", tt.message, got, tt.want)
		case tt.page != "" && !strings.HasSuffix(got, "[OPEN:"+tt.page+"]"):
			t.Errorf("reply to %q = %q, want a passage of %s", tt.message, got, tt.page)
		}
	}
	// Without the detail in the profile, the reply is as before: no answer from the profile.
	q := "What's your phone number?"
	noPhone := p
	noPhone.Contact = profile.Contact{Email: "lu@example.com"}
	if got := say(t, conversation.Turn{Profile: noPhone, Lang: "en", Message: q, Hits: b.search(t, q)}); strings.HasPrefix(got, "You can reach") {
		t.Errorf("reply to %q without a phone = %q, want no answer from the profile", q, got)
	}
}

// TestBestAgreeHeld checks that of an FAQ item sure enough but sharing no term with the question
// and the best chunk under MinScore saying the same thing (knowledge.Agree), the chunk answers
// when it holds more of the question's content words, and the item otherwise.
func TestBestAgreeHeld(t *testing.T) {
	item := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "f0", Question: "Têm opções vegan?", Answer: "Sim, temos sempre um prato vegetariano que pode ser feito vegan; pergunte ao empregado."}, Score: 0.087, Confidence: 0.17, Measured: true}
	menu := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{URL: "menu", Text: "Temos sempre um prato vegetariano e opções sem glúten; avise-nos de alergias ao reservar."}, Sentence: "Temos sempre um prato vegetariano e opções sem glúten; avise-nos de alergias ao reservar.", Score: 0.141, Measured: true}
	for _, tt := range []struct {
		name                string
		itemHeld, chunkHeld float64
		want                knowledge.Kind
	}{
		{"the chunk holding more", 0, 0.5, knowledge.KindChunk},
		{"as many", 0.5, 0.5, knowledge.KindFAQ},
		{"the item holding more", 0.5, 0, knowledge.KindFAQ},
	} {
		t.Run(tt.name, func(t *testing.T) {
			i, c := item, menu
			i.Held, c.Held = tt.itemHeld, tt.chunkHeld
			h, ok := best([]knowledge.Hit{c, i}, "tenho doença celíaca, têm sem glúten?", shipped)
			if !ok || h.Kind != tt.want {
				t.Errorf("best = %s %v; want %s", h.Kind, ok, tt.want)
			}
		})
	}
}

// TestBestAsksOther checks that a loose FAQ item sharing with the question only the verb of the
// service asked (knowledge.AsksOther) is not answered, the best chunk near enough is, and that an
// item of the same shape sharing the thing asked is.
func TestBestAsksOther(t *testing.T) {
	locks := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "k4", Question: "Do you install smart locks?", Answer: "Yes, we install Schlage, Yale and August smart locks, from $180 fitted."},
		Score: 0.241, Confidence: 0.34, Overlap: 0.33, Held: 0.33, Measured: true}
	page := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{URL: "services"}, Sentence: "We rekey and replace locks.", Score: 0.128, Measured: true}
	for _, tt := range []struct {
		message string
		chunk   float64 // the chunk's score
		want    knowledge.Kind
	}{
		{"do you install security cameras", 0.128, ""},
		{"do you install security cameras", shipped.score - NearScore/2, knowledge.KindChunk},
		{"do you install smart locks on back doors", 0.128, knowledge.KindFAQ},
	} {
		c := page
		c.Score = tt.chunk
		h, ok := best([]knowledge.Hit{locks, c}, tt.message, shipped)
		if got := h.Kind; got != tt.want || ok != (tt.want != "") {
			t.Errorf("%q (chunk %.3f): best = %q %v; want %q", tt.message, tt.chunk, got, ok, tt.want)
		}
	}
}

// TestBestOther checks that an FAQ item naming another kind of the thing asked, which the
// Brain does not know (knowledge.Hit.Other: "dais clases de tango?" and "¿Dais clases online?"),
// is not answered however well it matches, nor a chunk under the least score, and that the same
// item not naming another kind is.
func TestBestOther(t *testing.T) {
	online := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "b4", Question: "¿Dais clases online?", Answer: "No, todas nuestras clases son presenciales en la escuela."},
		Score: 0.351, Confidence: 0.55, Overlap: 0.67, Held: 0.67, Measured: true}
	page := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{URL: "clases"}, Sentence: "Las clases de grupo duran una hora.", Score: 0.071, Held: 0.33, Measured: true}
	for _, tt := range []struct {
		message string
		other   bool
		want    knowledge.Kind
	}{
		{"dais clases de tango?", true, ""},
		{"hay clases de zumba?", true, ""},
		{"dais clases online?", false, knowledge.KindFAQ},
		{"hay clases por zoom?", false, knowledge.KindFAQ},
	} {
		i := online
		i.Other = tt.other
		h, ok := best([]knowledge.Hit{i, page}, tt.message, shipped)
		if got := h.Kind; got != tt.want || ok != (tt.want != "") {
			t.Errorf("%q (Other %v): best = %q %v; want %q", tt.message, tt.other, got, ok, tt.want)
		}
	}
}

// TestBestOtherChunk checks that a chunk whose sentence names the thing asked for sale only as
// included in a service (knowledge.Hit.Other: "vendéis equipo de buceo?" and "Cuesta 75 € con
// todo el equipo incluido.") is not answered, and neither is a looser item in its place, while
// the same chunk unmarked is.
func TestBestOtherChunk(t *testing.T) {
	page := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{URL: "bautismo"}, Sentence: "Cuesta 75 € con todo el equipo incluido.",
		Score: 0.145, Held: 1, Measured: true}
	item := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "d2", Question: "¿Tenéis seguro de buceo?", Answer: "Todas nuestras actividades incluyen seguro de buceo."},
		Score: 0.234, Confidence: 0.35, Overlap: 0.33, Held: 0.5, Measured: true}
	for _, other := range []bool{true, false} {
		p := page
		p.Other = other
		h, ok := best([]knowledge.Hit{p, item}, "vendéis equipo de buceo?", shipped)
		if want := !other; ok != want || ok && h.Kind != knowledge.KindChunk {
			t.Errorf("Other %v: best = %q %v; want the chunk %v", other, h.Kind, ok, want)
		}
	}
}

// TestReplyBare checks that the Brain's one answer to a question asking only a price or an age
// (knowledge.Hit.Bare) is the reply, however little it scores; without the mark the same hit is
// under MinScore and the reply is "I don't know".
func TestReplyBare(t *testing.T) {
	list := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Title: "Preços", Text: "Pão de forma: 3 €. Bolo de chocolate: 18 €."},
		Sentence: "Pão de forma: 3 €.", Score: 0.02}
	other := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: "Abrimos às 7h."}, Score: 0.03}
	bare := list
	bare.Bare = true
	for _, tt := range []struct {
		name string
		hits []knowledge.Hit
		want string // the reply's beginning
	}{
		{"the price list", []knowledge.Hit{bare, other}, "Pão de forma: 3 €."},
		{"no mark", []knowledge.Hit{list, other}, phrasebook["pt"].dontKnow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := reply(conversation.Turn{Profile: lu, Message: "quanto é?", Hits: tt.hits, Lang: "pt"}, shipped)
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("reply = %q, want it to begin %q", got, tt.want)
			}
		})
	}
}

// TestReplyPlace checks that a question asking where the business is by a word of its name only
// ("onde fica a padaria?") gets the profile's address, over an FAQ item sharing that word, and
// that an item asking the place itself keeps its answer.
func TestReplyPlace(t *testing.T) {
	p := lu
	p.Contact = profile.Contact{Phone: "+351 900 000 000", Address: "Rua das Flores 12, Porto"}
	other := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "f1", Question: "A padaria faz bolos de aniversário?", Answer: "Sim, por encomenda com 3 dias de antecedência."},
		Score: 0.25, Confidence: 0.5, Overlap: 0.5, Held: 1, Strong: true, Measured: true}
	where := other
	where.FAQ = knowledge.FAQ{ID: "f2", Question: "Onde fica a padaria?", Answer: "Na Rua das Flores, ao lado do mercado."}
	for _, tt := range []struct {
		message string
		hit     knowledge.Hit
		want    string
	}{
		{"onde fica a padaria?", other, "Pode visitar Padaria Lu em Rua das Flores 12, Porto."},
		{"where is padaria lu", other, "You can visit Padaria Lu at Rua das Flores 12, Porto."},
		{"onde fica a padaria?", where, "Na Rua das Flores, ao lado do mercado."},
		// More than the name after the lead: not the business's place.
		{"onde fica a padaria mais perto do mercado?", other, "Sim, por encomenda com 3 dias de antecedência."},
	} {
		lang := "pt"
		if strings.HasPrefix(tt.message, "where") {
			lang = "en"
		}
		if got := say(t, conversation.Turn{Profile: p, Lang: lang, Message: tt.message, Hits: []knowledge.Hit{tt.hit}}); got != tt.want {
			t.Errorf("reply to %q =\n%q\nwant\n%q", tt.message, got, tt.want)
		}
	}
}

// TestBestUnstatedClose checks that an FAQ item matched closely (more than loosely) that neither
// asks nor states the price asked (knowledge.Hit.Unstated) yields to a chunk sure enough holding
// as many of the question's words, and answers when the chunk holds fewer or it states the price.
func TestBestUnstatedClose(t *testing.T) {
	item := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "f4", Question: "Can I adopt a dog if I have cats?", Answer: "Yes, some of our dogs are cat-tested and live happily with cats."},
		Score: 0.145, Confidence: 0.17, Overlap: 0.67, Held: 1, Measured: true}
	fee := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{URL: "adopt", Text: "The adoption fee is €180 for an adult dog."}, Sentence: "The adoption fee is €180 for an adult dog.", Score: 0.307, Held: 1, Measured: true}
	for _, tt := range []struct {
		name      string
		unstated  bool
		chunkHeld float64
		want      knowledge.Kind
	}{
		{"unstated, the chunk holding as many", true, 1, knowledge.KindChunk},
		{"unstated, the chunk holding fewer", true, 0.5, knowledge.KindFAQ},
		{"stated", false, 1, knowledge.KindFAQ},
	} {
		t.Run(tt.name, func(t *testing.T) {
			i, c := item, fee
			i.Unstated, c.Held = tt.unstated, tt.chunkHeld
			h, ok := best([]knowledge.Hit{c, i}, "how much does it cost to adopt a dog", shipped)
			if !ok || h.Kind != tt.want {
				t.Errorf("best = %s %v; want %s", h.Kind, ok, tt.want)
			}
		})
	}
}

// TestBestPlainMargin checks that a plain item covering the question but matched loosely yields
// to a chunk holding as many of the question's words that scores PlainMargin times as much: "tienen
// llantas de aleacion?" gets the page's "…llantas de aleación nuevas y usadas", not "¿Reparan
// llantas dobladas?"; a chunk scoring less leaves it the answer.
func TestBestPlainMargin(t *testing.T) {
	item := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "bent", Question: "¿Reparan llantas dobladas?", Answer: "Sí, enderezamos llantas de chapa y de aleación golpeadas desde $15.000."},
		Score: 0.170, Confidence: 0.20, Overlap: 0.33, Held: 1, Covers: true, Plain: true}
	const sells = "También vendemos llantas de aleación nuevas y usadas."
	// The chunk's score: a little more than the item's, under PlainMargin times as much, that
	// many times, nearly twice as much.
	for score, want := range map[float64]string{0.20: "bent", 0.25: "bent", 0.26: sells, 0.304: sells} {
		chunk := knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{Text: sells}, Score: score, Held: 1}
		wantBest(t, []knowledge.Hit{item, chunk}, "tienen llantas de aleacion?", want)
	}
}

// wantBest checks that best answers a message with the hit want names: an FAQ item's id or a
// chunk's text.
func wantBest(t *testing.T, hits []knowledge.Hit, message, want string) {
	t.Helper()
	h, ok := best(hits, message, shipped)
	if got := cmpOr(h.FAQ.ID, h.Chunk.Text); !ok || got != want {
		t.Errorf("best = %q, %v; want %q", got, ok, want)
	}
}

// The reply's sentences end where knowledge.Sentences ends them: not at an abbreviation before a
// name or a number ("No. 3", "Dr. Silva"), so the passage quoted holds the price after it.
func TestSentencesAbbreviated(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"The Cask Tour lasts two hours, in our No. 3 warehouse, and costs £60. It runs at 11am.",
			[]string{"The Cask Tour lasts two hours, in our No. 3 warehouse, and costs £60.", "It runs at 11am."}},
		{"Vacinas: nossa veterinária, Dra. Camila, atende às quartas. V10 por R$ 110.",
			[]string{"Vacinas: nossa veterinária, Dra. Camila, atende às quartas.", "V10 por R$ 110."}},
		{"Can I park? No. The car park is for staff.", []string{"Can I park?", "No.", "The car park is for staff."}},
	} {
		var got []string
		for _, s := range sentences(c.text) {
			got = append(got, s.text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("sentences(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestReplyHoursDay checks that a question of the business's hours on a day, naming nothing of its
// own, is answered by the profile's hours naming the day rather than by an FAQ item matched only
// loosely that names the day for another thing (knowledge.HoursDay); with the day not in the
// hours, or a thing of its own named, the item stands as before.
func TestReplyHoursDay(t *testing.T) {
	p := lu
	p.Contact = profile.Contact{Phone: "(54) 99555-0162", Hours: "Qua a sex 16h às 23h, sáb e dom 12h às 23h; seg e ter fechado"}
	hit := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "f5", Question: "Posso alugar o espaço para uma festa?",
		Answer: "Sim, o taproom pode ser fechado para eventos às segundas e terças, para até 80 pessoas."},
		Held: 1, Covers: true, Sole: true, Measured: true}
	hours := "Horário: Qua a sex 16h às 23h, sáb e dom 12h às 23h; seg e ter fechado."
	related := "Se a pergunta é “Posso alugar o espaço para uma festa?”: Sim, o taproom pode ser fechado para eventos às segundas e terças, para até 80 pessoas."
	for _, tt := range []struct {
		message, hours, want string
	}{
		{"abre segunda?", p.Contact.Hours, hours},
		{"vcs abrem na terça?", p.Contact.Hours, hours},
		// The hours do not name the day asked.
		{"abre segunda?", "Qua a sex 16h às 23h", related},
	} {
		q := p
		q.Contact.Hours = tt.hours
		if got := say(t, conversation.Turn{Profile: q, Lang: "pt", Message: tt.message, Hits: []knowledge.Hit{hit}}); got != tt.want && !(tt.want == hours && strings.HasPrefix(got, "Horário:")) {
			t.Errorf("reply to %q (hours %q) =\n%q\nwant\n%q", tt.message, tt.hours, got, tt.want)
		}
	}
	// An item asking the hours itself is the owner's answer: it stands.
	own := hit
	own.FAQ = knowledge.FAQ{ID: "f1", Question: "Qual o horário de funcionamento?", Answer: "De quarta a domingo; às segundas e terças só com reserva."}
	if got := say(t, conversation.Turn{Profile: p, Lang: "pt", Message: "abre segunda?", Hits: []knowledge.Hit{own}}); !strings.Contains(got, own.FAQ.Answer) {
		t.Errorf("reply to %q with an item asking the hours = %q, want the item's answer", "abre segunda?", got)
	}
}

// TestReplyFactUnstated checks that a passage stating another fact of the thing than the
// duration or the age asked (knowledge.FactUnstated) is not the reply: the next hit stating it,
// else "I don't know"; and that one stating it, or asked no such fact, is.
func TestReplyFactUnstated(t *testing.T) {
	chunk := func(id, text string, score float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{ID: id, Text: text}, Sentence: text, Score: score, Held: 1, Measured: true}
	}
	cert := chunk("c1", "Certificados: no fim de cada nível, com 80 % de presenças, recebe um certificado.", 0.3)
	term := chunk("c2", "Cada nível dura um semestre de 15 semanas.", 0.25)
	boots := chunk("c3", "As aulas marcam-se por telefone, com dois dias de antecedência.", 0.3)
	idk := "Desculpe, não sei"
	for _, tt := range []struct {
		message string
		hits    []knowledge.Hit
		want    string
	}{
		{"quanto tempo demora cada nível", []knowledge.Hit{cert, term}, "Cada nível dura um semestre de 15 semanas."},
		{"quanto tempo demora cada nível", []knowledge.Hit{cert}, idk},
		{"com que idade podem começar as aulas?", []knowledge.Hit{boots}, idk},
		// Asked no duration nor age: the passage answers.
		{"como marco as aulas?", []knowledge.Hit{boots}, "As aulas marcam-se por telefone, com dois dias de antecedência."},
		{"quanto tempo demora cada nível", []knowledge.Hit{term, cert}, "Cada nível dura um semestre de 15 semanas."},
	} {
		if got := say(t, conversation.Turn{Profile: lu, Lang: "pt", Message: tt.message, Hits: tt.hits}); !strings.HasPrefix(got, tt.want) {
			t.Errorf("reply to %q =\n%q\nwant it to begin\n%q", tt.message, got, tt.want)
		}
	}
}

// TestReplyPriceOther checks that a passage stating another thing's price than the one asked,
// which another of the Brain's texts names (knowledge.PriceOther), is not answered: the next
// hit is, else "I don't know"; and that a question in another language than the Brain's is not
// read so (its words are not the passages').
func TestReplyPriceOther(t *testing.T) {
	dojo := profile.Profile{BusinessName: "Iron Dojo", Languages: []string{"en"}, Contact: profile.Contact{Email: "train@example.com"}}
	chunk := func(id, title, text string, score float64) knowledge.Hit {
		return knowledge.Hit{Kind: knowledge.KindChunk, Chunk: knowledge.Chunk{ID: id, Title: title, Text: text}, Sentence: text, Score: score, Held: 1, Measured: true}
	}
	member := chunk("c1", "Membership", "An unlimited adult membership costs $149 a month.", 0.3)
	grading := chunk("c2", "Gradings", "A belt test costs $40, paid on the day.", 0.25)
	far := chunk("c3", "Gradings", "Belt tests are held every three months.", 0.05)
	classes := chunk("c4", "Classes", "Karate classes run Monday to Friday at 7pm.", 0.04)
	trial := chunk("c5", "Trial", "Trial lessons are booked online.", 0.03)
	fruit := chunk("c6", "Fruit", "You pay by weight: strawberries $4.50 a pound.", 0.3)
	fresas := chunk("c7", "Words", "Fresas is Spanish for strawberries.", 0.05)
	idk := "I'm sorry, I don't know"
	for _, tt := range []struct {
		message, lang string
		hits          []knowledge.Hit
		want          string
	}{
		{"how much does a belt test cost", "en", []knowledge.Hit{member, grading, classes, trial}, "A belt test costs $40"},
		{"how much does a belt test cost", "en", []knowledge.Hit{member, far, classes, trial}, idk},
		// Asked no price: the passage answers.
		{"is there a membership for adults", "en", []knowledge.Hit{member, grading, classes, trial}, "An unlimited adult membership"},
		// Asked in another language than the Brain's.
		{"precio de las fresas?", "es", []knowledge.Hit{fruit, fresas, classes, trial}, "You pay by weight"},
	} {
		if got := say(t, conversation.Turn{Profile: dojo, Lang: tt.lang, Message: tt.message, Hits: tt.hits}); !strings.HasPrefix(got, tt.want) {
			t.Errorf("reply to %q =\n%q\nwant it to begin\n%q", tt.message, got, tt.want)
		}
	}
}
