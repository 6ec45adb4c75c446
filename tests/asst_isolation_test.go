package tests

import (
	"net/http"
	"strings"
	"testing"
)

// TestOwnerChannelsCrossAccount: the ids of one account (an assistant approval and kept
// conversation, a customer's web conversation, a webhook) used by another account through /mcp
// and through its site plugin (/cms/sale's visitor_id) find nothing, as through REST: not found
// (approval_not_found for an approval), never the other account's data, and the owner's own
// approval still runs afterwards.
func TestOwnerChannelsCrossAccount(t *testing.T) {
	binaries(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	a := newOwner(t, s, api, nil, false)
	b := newOwner(t, s, api, nil, false)

	r, _ := ask(t, api, a.key, map[string]any{"message": "change the tone to formal", "mode": "do", "new_conversation": true}, http.StatusOK)
	if r.Status != "needs_approval" || r.Approval == nil || r.ConversationID == nil {
		t.Fatalf("A's settings change: %+v, want it waiting in a kept conversation", r)
	}
	apr, asc := r.Approval.ID, *r.ConversationID
	hook := callJSON(t, "POST", api.URL()+"/v1/webhooks", `{"url":"https://example.com/hook","events":["*"]}`, bearer(a.key)...)
	if hook.status != http.StatusCreated {
		t.Fatalf("POST /v1/webhooks: %s", hook)
	}
	const visitor = "5f0c9a8e-1b2c-4d3e-8f9a-0b1c2d3e4f5a"
	if w := callJSON(t, "POST", api.URL()+"/widget/api/"+a.widgetToken+"/chat", map[string]any{"message": "Hello", "visitor_id": visitor},
		"Origin", "https://shop.example"); w.status >= 300 {
		t.Fatalf("A's widget chat: %s", w)
	}
	webConv := ""
	for _, c := range listOf(call(t, "GET", api.URL()+"/v1/conversations", bearer(a.key)...).body, "data") {
		if c.str("channel") == "web" {
			webConv = c.str("id")
		}
	}
	if webConv == "" {
		t.Fatal("A has no web conversation")
	}

	cs := connectMCP(t, api, b.key)
	for _, tt := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"assistant", map[string]any{"approve": apr}, "approval_not_found"},
		{"assistant", map[string]any{"message": "what did I say?", "conversation_id": asc}, "not_found"},
		{"get_conversation", map[string]any{"conversation_id": asc}, "not_found"},
		{"get_conversation", map[string]any{"conversation_id": webConv}, "not_found"},
		{"test_webhook", map[string]any{"webhook_id": hook.body.str("id")}, "not_found"},
	} {
		e := toolError(t, cs, tt.tool, tt.args)
		if e.str("error.code") != tt.code || strings.Contains(e.String(), "formal") {
			t.Errorf("B's %s %v: %s, want %s", tt.tool, tt.args, e, tt.code)
		}
	}
	if e := toolError(t, cs, "report_conversion", map[string]any{"kind": "lead", "conversation_id": webConv}); e.str("error.code") != "not_found" {
		t.Errorf("B's conversion naming A's conversation: %s, want not_found", e)
	}

	// B's site plugin reports a sale with A's visitor: A's conversation is not tagged, and B's
	// conversion names no conversation of A.
	email, password := ownerLogin(t, s, b.id)
	token := pluginToken(t, api, email, password, "https://shop-b.example")
	sale := callJSON(t, "POST", api.URL()+"/cms/sale", map[string]any{"token": token, "visitor_id": visitor, "order_id": 9,
		"order_name": "#9", "total": "3.00", "currency": "EUR", "items": []any{map[string]any{"name": "Bread", "qty": 1}}})
	if sale.status != http.StatusCreated || sale.body.str("conversation_id") != "" {
		t.Errorf("B's sale with A's visitor: %s, want a conversion naming no conversation", sale)
	}
	if got := call(t, "GET", api.URL()+"/v1/conversations/"+webConv, bearer(a.key)...); strings.Contains(got.String(), `"sale"`) {
		t.Errorf("A's conversation after B's sale: %s, want it untagged", got)
	}

	if ok, _ := ask(t, api, a.key, map[string]any{"approve": apr}, http.StatusOK); ok.Status != "completed" {
		t.Errorf("A's approve after B tried: %+v", ok)
	}
}
