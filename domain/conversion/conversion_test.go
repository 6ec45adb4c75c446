package conversion

import (
	"math"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		c     Conversion
		field string
		cur   string
	}{
		{name: "sale with amount", c: Conversion{Kind: "sale", Amount: 12.5, HasAmount: true, Currency: "eur"}, cur: "EUR"},
		{name: "lead without amount", c: Conversion{Kind: "lead"}},
		{name: "zero amount", c: Conversion{Kind: "signup", HasAmount: true, Currency: "USD"}, cur: "USD"},
		{name: "unknown kind", c: Conversion{Kind: "refund"}, field: "kind"},
		{name: "empty kind", c: Conversion{}, field: "kind"},
		{name: "negative amount", c: Conversion{Kind: "sale", Amount: -1, HasAmount: true, Currency: "EUR"}, field: "amount"},
		{name: "infinite amount", c: Conversion{Kind: "sale", Amount: math.Inf(1), HasAmount: true, Currency: "EUR"}, field: "amount"},
		{name: "amount without currency", c: Conversion{Kind: "sale", Amount: 3, HasAmount: true}, field: "currency"},
		{name: "unknown currency", c: Conversion{Kind: "sale", Amount: 3, HasAmount: true, Currency: "EUX"}, field: "currency"},
		{name: "currency alone is checked too", c: Conversion{Kind: "lead", Currency: "XYZ"}, field: "currency"},
		{name: "long reference", c: Conversion{Kind: "lead", Reference: string(make([]byte, MaxReference+1))}, field: "reference"},
		{name: "conversation id", c: Conversion{Kind: "lead", ConversationID: "whatsapp:351912345678"}},
		{name: "long conversation id", c: Conversion{Kind: "lead", ConversationID: strings.Repeat("a", 201)}, field: "conversation_id"},
		{name: "conversation id with a space", c: Conversion{Kind: "lead", ConversationID: "a b"}, field: "conversation_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			err := c.Validate()
			if tt.field == "" {
				if err != nil || c.Currency != tt.cur {
					t.Fatalf("err %v currency %q", err, c.Currency)
				}
				return
			}
			e, ok := domain.AsError(err)
			if !ok || e.Field != tt.field || e.Code != domain.CodeInvalidRequest {
				t.Fatalf("err %v, want field %q", err, tt.field)
			}
		})
	}
}

func TestTotals(t *testing.T) {
	got := Totals([]Conversion{
		{Kind: "lead"}, {Kind: "sale", Amount: 10.10, Currency: "EUR"}, {Kind: "sale", Amount: 0.2, Currency: "EUR"},
		{Kind: "sale", Amount: 5, Currency: "BRL"}, {Kind: "lead"},
	})
	want := []Total{{Kind: "sale", Currency: "BRL", Count: 1, Amount: 5}, {Kind: "sale", Currency: "EUR", Count: 2, Amount: 10.3}, {Kind: "lead", Count: 2}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("total %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
