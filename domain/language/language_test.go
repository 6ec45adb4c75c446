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

		// Portuguese (Brazil and Portugal)
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
