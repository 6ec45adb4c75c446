package local

import "testing"

func TestStem(t *testing.T) {
	s := NewStemmer()
	tests := []struct {
		lang, a, b string
		same       bool
	}{
		{"pt", "opção", "opções", true},
		{"pt", "marcação", "marcações", true},
		{"pt", "limão", "limões", true},
		{"pt", "cão", "cães", true},
		{"pt", "mão", "mãos", true},
		{"es", "opción", "opciones", true},
		{"en", "booking", "bookings", true},
		{"en", "pick", "picked", true},
	}
	for _, tt := range tests {
		if got := s.Stem(tt.a, tt.lang) == s.Stem(tt.b, tt.lang); got != tt.same {
			t.Errorf("%s: Stem(%q) %q, Stem(%q) %q: same %v, want %v", tt.lang, tt.a, s.Stem(tt.a, tt.lang), tt.b, s.Stem(tt.b, tt.lang), got, tt.same)
		}
	}
	if got := singularAo("ões"); got != "ões" {
		t.Errorf("singularAo(\"ões\") = %q: a suffix alone is no plural", got)
	}
}
