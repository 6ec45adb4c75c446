package knowledge

import "testing"

func TestCountryWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"We do not currently ship to the US, Canada or Australia.", "We do not currently ship to the USA, Canada or Australia."},
		{"Shipping to the U.S. takes a week", "Shipping to the USA takes a week"},
		{"made in the U.S.A.", "made in the USA"},
		{"enviamos a EE.UU. y Canadá", "enviamos a USA y Canadá"},
		{"enviamos a EEUU", "enviamos a USA"},
		{"Contact us for a quote", "Contact us for a quote"},
		{"CONTACT US", "CONTACT US"},
		{"ABOUT US: who we are", "ABOUT US: who we are"},
		{"pay by USB stick or in USD", "pay by USB stick or in USD"},
		{"do you ship to the usa", "do you ship to the usa"},
		{"US", "USA"},
	} {
		if got := countryWords(tc.in); got != tc.want {
			t.Errorf("countryWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
