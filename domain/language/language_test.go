package language

import "testing"

func TestDetect(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		// English
		{"hello", "en"},
		{"Hi!", "en"},
		{"thanks", "en"},
		{"Thank you so much", "en"},
		{"Good morning", "en"},
		{"What are your opening hours?", "en"},
		{"Do you ship to Porto?", "en"},
		{"How much does the chocolate cake cost?", "en"},
		{"I would like to book a table for two tonight.", "en"},
		{"Can I change the delivery address of my order?", "en"},
		{"Is there parking near the shop?", "en"},
		{"THE WEBSITE IS NOT LOADING", "en"},
		{"do u deliver on sundays", "en"},
		{"what do I do if my order is late?", "en"},

		// Portuguese (Brazil and Portugal)
		{"o carro do meu pai", "pt"},
		{"olá", "pt"},
		{"Oi", "pt"},
		{"bom dia", "pt"},
		{"Boa tarde!", "pt"},
		{"obrigada", "pt"},
		{"Obrigado pela ajuda", "pt"},
		{"Vocês fazem entregas?", "pt"},
		{"Quanto custa o bolo de chocolate?", "pt"},
		{"Sou dono de um restaurante, vocês fazem entregas?", "pt"},
		{"Qual é o horário de funcionamento?", "pt"},
		{"Gostaria de reservar uma mesa para dois hoje à noite", "pt"},
		{"Não recebi a minha encomenda", "pt"},
		{"nao recebi meu pedido ainda", "pt"},
		{"As opções de pagamento são cartão e pix?", "pt"},
		{"tudo bem?", "pt"},

		// Spanish
		{"hola", "es"},
		{"¡Hola!", "es"},
		{"gracias", "es"},
		{"buenos días", "es"},
		{"Buenas noches", "es"},
		{"¿Cuánto cuesta el pastel de chocolate?", "es"},
		{"Soy el dueño de una tienda, ¿tienen envíos a Madrid?", "es"},
		{"¿Cuál es el horario de atención?", "es"},
		{"Quisiera reservar una mesa para dos esta noche", "es"},
		{"No he recibido mi pedido todavía", "es"},
		{"Necesito ayuda con la información de envío", "es"},
		{"muchas gracias por todo", "es"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := Detect(tt.text, "fallback"); got != tt.want {
				t.Errorf("Detect(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestDetectAddresses: e-mail and web addresses are no evidence ("com" is also Portuguese for
// "with"), so an owner's "email ana@example.com subject Reminder text buy flour" is not taken for
// Portuguese, and an address alone gets the fallback.
func TestDetectAddresses(t *testing.T) {
	tests := []struct{ text, want string }{
		{"ana@example.com", "en"},
		{"ana@example.com.br", "en"},
		{"email o@example.com subject Reminder text buy flour", "en"},
		{"see https://loja.example.com/produtos", "en"},
		{"shop.example.com", "en"},
		{"www.example.com.", "en"},
		{"Olá, o meu e-mail é ana@example.com", "pt"},
		{"Hola, mi correo es ana@example.com", "es"},
		{"Can you send it to ana@example.com? Thanks", "en"},
		{"Quanto custa? Vi em https://loja.example.com", "pt"},
		{"Obrigado.Até amanhã", "pt"},   // a missing space after a full stop is a typo, not a host name
		{"I can't.Thanks anyway", "en"}, // likewise
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := Detect(tt.text, "en"); got != tt.want {
				t.Errorf("Detect(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestDetectFallback(t *testing.T) {
	for _, text := range []string{"", "   ", "ok", "OK!", "123", "42.50 €", "👍", "?!", "https://x.io", "Porto", "pix"} {
		t.Run(text, func(t *testing.T) {
			if got := Detect(text, "pt-BR"); got != "pt-BR" {
				t.Errorf("Detect(%q) = %q, want the fallback", text, got)
			}
		})
	}
}

func TestBase(t *testing.T) {
	tests := []struct{ code, want string }{
		{"pt-BR", "pt"},
		{"pt_PT", "pt"},
		{"es-419", "es"},
		{"EN", "en"},
		{"en-US", "en"},
		{" es ", "es"},
		{"pt", "pt"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Base(tt.code); got != tt.want {
			t.Errorf("Base(%q) = %q, want %q", tt.code, got, tt.want)
		}
	}
}

func TestSupported(t *testing.T) {
	want := []string{"en", "pt", "pt-BR", "es"}
	if len(Supported) != len(want) {
		t.Fatalf("Supported = %v, want %v", Supported, want)
	}
	for i := range want {
		if Supported[i] != want[i] {
			t.Fatalf("Supported = %v, want %v", Supported, want)
		}
	}
}

// TestDetectPortugueseDo: Portuguese "do" (of the) is no English "do": a Portuguese question
// holding it twice is not taken for English (a tie gives the business's language).
func TestDetectPortugueseDo(t *testing.T) {
	for _, tt := range []struct{ text, fallback, want string }{
		{"podemos reunir antes do casamento para falar do dia?", "pt", "pt"},
		{"qual o preço do corte do cabelo", "pt", "pt"},
		{"do you deliver?", "pt", "en"},
		{"what do I do now", "pt", "en"},
	} {
		if got := Detect(tt.text, tt.fallback); got != tt.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", tt.text, tt.fallback, got, tt.want)
		}
	}
}
