package tests

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestAssistantConversationsListed: the owner's kept assistant conversations are among the
// account's conversations (spec 4.7 rule 8), on both stacks: a stateless request is not; one
// kept with new_conversation is listed with channel assistant and read by id with the owner's
// and the assistant's messages, and grows as it is continued; another account gets 404; the list
// pages through customers' and assistant conversations alike, without duplicates or gaps.
func TestAssistantConversationsListed(t *testing.T) {
	for _, st := range stacks {
		t.Run(st.name, func(t *testing.T) {
			s := st.stack(t)
			api := s.startAPI(t)
			a, b := newOwner(t, s, api, nil, false), newOwner(t, s, api, nil, false)
			list := func(key, query string) []obj {
				t.Helper()
				r := call(t, "GET", api.URL()+"/v1/conversations?"+query, bearer(key)...)
				if r.status != http.StatusOK {
					t.Fatalf("GET /v1/conversations?%s: %s", query, r)
				}
				return listOf(r.body, "data")
			}
			ids := func(l []obj) []string {
				out := make([]string, 0, len(l))
				for _, c := range l {
					out = append(out, c.str("id"))
				}
				return out
			}
			chat := func(id string) {
				t.Helper()
				wantCompleted(t, callJSON(t, "POST", api.URL()+"/v1/chat", map[string]any{"message": "Are you open on Sundays?", "conversation_id": id},
					bearer(a.key)...), id)
			}

			chat("order-1")
			if r, _ := ask(t, api, a.key, map[string]any{"message": "what are my tasks today?"}, http.StatusOK); r.ConversationID != nil {
				t.Fatalf("a stateless request: conversation_id %q, want null", *r.ConversationID)
			}
			if got := ids(list(a.key, "limit=100")); strings.Join(got, ",") != "order-1" {
				t.Errorf("after a stateless request the list is %v, want only order-1", got)
			}
			if got := list(a.key, "channel=assistant"); len(got) != 0 {
				t.Errorf("channel=assistant after a stateless request: %v, want none", got)
			}

			kept, _ := ask(t, api, a.key, map[string]any{"message": "what are my tasks today?", "new_conversation": true}, http.StatusOK)
			if kept.ConversationID == nil || !strings.HasPrefix(*kept.ConversationID, "asc_") || kept.Reply == nil {
				t.Fatalf("new_conversation: %+v, want an asc_ conversation id and a reply", kept)
			}
			asc := *kept.ConversationID
			chat("order-2")

			all := list(a.key, "limit=100")
			if got := strings.Join(ids(all), ","); got != "order-2,"+asc+",order-1" {
				t.Fatalf("list = %s, want order-2, %s, order-1 (newest first)", got, asc)
			}
			wantFieldsOf(t, "the listed assistant conversation", all[1], map[string]any{"object": "conversation", "id": asc,
				"channel": "assistant", "customer_name": "", "contact_id": ""})
			if tags, ok := all[1].get("tags"); !ok || tags == nil || len(tags.([]any)) != 0 {
				t.Errorf("tags of the assistant conversation: %v, want []", tags)
			}
			if all[0].str("channel") != "api" || all[2].str("contact_id") != "api:order-1" {
				t.Errorf("the customers' conversations in the merged list: %s, %s", all[0], all[2])
			}
			if got := ids(list(a.key, "channel=assistant")); strings.Join(got, ",") != asc {
				t.Errorf("channel=assistant: %v, want only %s", got, asc)
			}
			if got := ids(list(a.key, "channel=api")); strings.Join(got, ",") != "order-2,order-1" {
				t.Errorf("channel=api: %v, want the customers' only", got)
			}
			bad := call(t, "GET", api.URL()+"/v1/conversations?channel=fax", bearer(a.key)...)
			wantError(t, bad, http.StatusBadRequest, "invalid_request")
			if !strings.Contains(bad.body.str("error.message"), "assistant") {
				t.Errorf("the bad channel's message does not list assistant: %s", bad)
			}

			th := getConversation(t, api, a.key, asc)
			wantFieldsOf(t, "the assistant conversation", th, map[string]any{"object": "conversation", "id": asc, "channel": "assistant",
				"customer_name": "", "contact_id": ""})
			msgs := listOf(th, "messages")
			if len(msgs) != 2 || msgs[0].str("role") != "owner" || msgs[0].str("content") != "what are my tasks today?" ||
				msgs[1].str("role") != "assistant" || msgs[1].str("content") != *kept.Reply || msgs[1].str("reply_to") != msgs[0].str("id") ||
				msgs[0].str("id") == "" || msgs[0].str("id") == msgs[1].str("id") {
				t.Fatalf("messages of %s: %v, want the owner's and the assistant's reply to it", asc, msgs)
			}
			if r, ok := msgs[0].get("reply_to"); !ok || r != nil {
				t.Errorf("the owner's message's reply_to = %v, want null", r)
			}
			for _, m := range msgs {
				if as, ok := m.get("actions"); !ok || as == nil || len(as.([]any)) != 0 || m.str("created_at") == "" {
					t.Errorf("message %s: actions %v, created_at %q; want [] and a time", m.str("id"), as, m.str("created_at"))
				}
			}

			next, _ := ask(t, api, a.key, map[string]any{"message": "add a note: order more flour", "mode": "do", "conversation_id": asc}, http.StatusOK)
			if next.ConversationID == nil || *next.ConversationID != asc {
				t.Fatalf("continued: %+v, want conversation %s", next, asc)
			}
			th = getConversation(t, api, a.key, asc)
			msgs = listOf(th, "messages")
			if len(msgs) != 4 || msgs[2].str("role") != "owner" || msgs[2].str("content") != "add a note: order more flour" ||
				msgs[3].str("role") != "assistant" || msgs[3].str("content") != str(next.Reply) || msgs[3].str("reply_to") != msgs[2].str("id") {
				t.Fatalf("messages after continuing: %v, want the new turns after the first two", msgs)
			}
			if th.str("updated_at") < th.str("created_at") {
				t.Errorf("updated_at %s before created_at %s", th.str("updated_at"), th.str("created_at"))
			}

			wantError(t, call(t, "GET", api.URL()+"/v1/conversations/"+asc, bearer(b.key)...), http.StatusNotFound, "not_found")
			if got := list(b.key, "limit=100"); len(got) != 0 {
				t.Errorf("another account lists %v", ids(got))
			}

			// limit=1 walks both kinds, each once, in the list's order.
			var walked []string
			q := "limit=1"
			for page := 0; ; page++ {
				r := call(t, "GET", api.URL()+"/v1/conversations?"+q, bearer(a.key)...)
				if r.status != http.StatusOK {
					t.Fatalf("page %d: %s", page, r)
				}
				data := listOf(r.body, "data")
				if len(data) != 1 {
					t.Fatalf("page %d holds %d conversations, want 1: %s", page, len(data), r)
				}
				walked = append(walked, data[0].str("id"))
				cur := r.body.str("next_cursor")
				if more, _ := r.body.get("has_more"); more != true {
					if cur != "" {
						t.Errorf("last page with a next_cursor: %s", r)
					}
					break
				}
				if page > 5 {
					t.Fatalf("paging does not end: %v", walked)
				}
				q = "limit=1&cursor=" + url.QueryEscape(cur)
			}
			if got := strings.Join(walked, ","); got != "order-2,"+asc+",order-1" {
				t.Errorf("limit=1 walked %s, want order-2, %s, order-1", got, asc)
			}
		})
	}
}
