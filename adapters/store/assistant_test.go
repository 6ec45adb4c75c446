package store_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/ports/portstest"
)

func TestAssistantStores(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			portstest.RunAssistantStores(t, func(t *testing.T) portstest.AssistantStores {
				db := newDB(t, d.url(t))
				return portstest.AssistantStores{Stores: stores(db), Records: store.NewRecords(db),
					Approvals: store.NewApprovals(db), History: store.NewAssistantHistory(db), Mailboxes: store.NewMailboxes(db)}
			})
		})
	}
}

// TestAssistantConversationsBackfill: the migration that adds assistant_conversations fills it
// from the turns kept before it, one row per conversation, created at its first turn and
// updated at its last, on both databases.
func TestAssistantConversationsBackfill(t *testing.T) {
	raw, err := os.ReadFile("migrations/20261128200000_assistant_conversations.tx.up.sql")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(raw), "--bun:split")
	backfill := strings.TrimSpace(parts[len(parts)-1])
	if !strings.HasPrefix(backfill, "INSERT INTO assistant_conversations") {
		t.Fatalf("the migration's last statement is not the backfill: %s", backfill)
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			ctx := t.Context()
			db := newDB(t, d.url(t))
			s := stores(db)
			at := func(m int) time.Time { return time.Date(2026, 11, 20, 9, m, 0, 0, time.UTC) }
			for _, id := range []string{"acct_a", "acct_b"} {
				if err := s.Accounts.Create(ctx, account.Account{ID: id, Name: id, Plan: "starter", Status: account.Active,
					OwnerEmail: id + "@example.com", WidgetToken: "wt_" + id, CreatedAt: at(0), UpdatedAt: at(0)}); err != nil {
					t.Fatal(err)
				}
			}
			h := store.NewAssistantHistory(db)
			add := func(acct, conv string, m int) {
				t.Helper()
				if err := h.Add(ctx, acct, assistant.Turn{ConversationID: conv, Role: assistant.RoleOwner, Content: "q", CreatedAt: at(m)},
					assistant.Turn{ConversationID: conv, Role: assistant.RoleAssistant, Content: "a", CreatedAt: at(m + 1)}); err != nil {
					t.Fatal(err)
				}
			}
			add("acct_a", "asc_1", 1)
			add("acct_a", "asc_1", 5)
			add("acct_a", "asc_2", 3)
			add("acct_b", "asc_1", 7)
			// as before the migration: turns without their conversations' rows
			if _, err := db.NewDelete().TableExpr("assistant_conversations").Where("1 = 1").Exec(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := h.Conversation(ctx, "acct_a", "asc_1"); domain.ErrorCode(err) != domain.CodeNotFound {
				t.Fatalf("before the backfill: %v, want not_found", err)
			}
			if _, err := db.ExecContext(ctx, backfill); err != nil {
				t.Fatalf("backfill: %v", err)
			}
			for _, tt := range []struct {
				acct, conv       string
				created, updated int
			}{{"acct_a", "asc_1", 1, 6}, {"acct_a", "asc_2", 3, 4}, {"acct_b", "asc_1", 7, 8}} {
				c, err := h.Conversation(ctx, tt.acct, tt.conv)
				if err != nil || c.Channel != conversation.ChannelAssistant || !c.CreatedAt.Equal(at(tt.created)) || !c.UpdatedAt.Equal(at(tt.updated)) {
					t.Errorf("%s %s after the backfill: %+v, %v; want created %v, updated %v", tt.acct, tt.conv, c, err, at(tt.created), at(tt.updated))
				}
			}
			page, err := s.Conversations.List(ctx, "acct_a", conversation.ListQuery{Limit: 10, Assistant: true})
			if err != nil || len(page.Conversations) != 2 || page.Conversations[0].ID != "asc_2" || page.Conversations[1].ID != "asc_1" {
				t.Errorf("list after the backfill: %+v, %v; want asc_2, asc_1", page, err)
			}
		})
	}
}
