package portstest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// exchangeOf is the exchange of a customer message n in conversation convID of acct on ch, with a
// charge of cost 1 in t0's period within limit.
func exchangeOf(acct, convID string, ch conversation.Channel, n int, at time.Time, limit int) ports.Exchange {
	msg, reply := fmt.Sprintf("msg_%s_%s_c%d", acct, convID, n), fmt.Sprintf("msg_%s_%s_r%d", acct, convID, n)
	job := conversation.NewJob(fmt.Sprintf("job_%s_%s_%d", acct, convID, n), acct, convID, msg, reply, ch, at, time.Minute)
	done, _ := job.Complete(reply, at)
	return ports.Exchange{
		Conversation: conversation.Conversation{AccountID: acct, ID: convID, Channel: ch, CustomerName: "Ana",
			ContactID: conversation.ContactID(ch, convID), CreatedAt: at, UpdatedAt: at},
		Message: conversation.Message{ID: msg, ConversationID: convID, Role: conversation.RoleCustomer, Content: fmt.Sprintf("question %d", n), CreatedAt: at},
		Reply: conversation.Message{ID: reply, ConversationID: convID, Role: conversation.RoleAgent, Content: fmt.Sprintf("answer %d", n),
			ReplyTo: msg, CreatedAt: at, Actions: []conversation.Action{{Type: "open", URL: "https://x.example/a"}}},
		Job:    done,
		Charge: ledger.Charge{ID: fmt.Sprintf("chg_%s_%s_%d", acct, convID, n), AccountID: acct, Action: ledger.ChatReply, Cost: 1, Ref: reply, At: at},
		Period: ledger.PeriodAt(at), Limit: limit,
		Events: []outbox.Message{{ID: fmt.Sprintf("evt_%s_%s_%d", acct, convID, n), AccountID: acct, Topic: outbox.TopicEvent,
			Payload: []byte(`{"n":1}`), CreatedAt: at}},
	}
}

// testConversationsExchange: Exchange stores the message, the reply, the job, the charge and the
// event together, or nothing (no period yet, over the limit, a conversation of another channel),
// also in the caller's transaction, and under concurrent exchanges in one conversation every one
// stored is whole and numbered after the ones before; events that only webhooks need are written
// done when the account has no active webhook.
func testConversationsExchange(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	nothing := func(x ports.Exchange) {
		t.Helper()
		if _, err := s.Conversations.Get(ctx, x.Conversation.AccountID, x.Conversation.ID); err == nil && x.Conversation.ID != "web-1" &&
			x.Conversation.ID != "busy" {
			t.Errorf("%s: the conversation was opened", x.Charge.ID)
		}
		if _, err := s.ReplyJobs.Get(ctx, x.Conversation.AccountID, x.Job.ID); err == nil {
			t.Errorf("%s: the job was stored", x.Charge.ID)
		}
		if _, err := s.Outbox.Get(ctx, x.Events[0].ID); err == nil {
			t.Errorf("%s: the event was stored", x.Charge.ID)
		}
	}
	// No period opened yet: nothing.
	x := exchangeOf("acct_a", "c1", conversation.ChannelAPI, 1, t0, 10)
	if _, _, _, err := s.Conversations.Exchange(ctx, x); !errors.Is(err, ports.ErrNotExchanged) {
		t.Fatalf("before the period is opened: %v, want ErrNotExchanged", err)
	}
	nothing(x)
	if _, ok, err := s.Usage.Charge(ctx, ledger.Charge{ID: "chg_open", AccountID: "acct_a", Action: ledger.ChatReply, Cost: 1, At: t0},
		ledger.PeriodAt(t0), 10); err != nil || !ok {
		t.Fatalf("opening charge: %t %v", ok, err)
	}
	c, spent, left, err := s.Conversations.Exchange(ctx, x)
	if err != nil || spent != 2 || !left || c.ID != "c1" || c.Channel != conversation.ChannelAPI {
		t.Fatalf("Exchange: %+v %d pending %t %v", c, spent, left, err)
	}
	msgs, err := s.Conversations.Messages(ctx, "acct_a", "c1", 0)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "messages", msgs, []conversation.Message{x.Message, x.Reply})
	job, err := s.ReplyJobs.Get(ctx, "acct_a", x.Job.ID)
	if err != nil || job.Status != conversation.JobDone || job.ReplyID != x.Reply.ID {
		t.Fatalf("job %+v %v", job, err)
	}
	if m, err := s.Outbox.Get(ctx, x.Events[0].ID); err != nil || string(m.Payload) != `{"n":1}` || m.AccountID != "acct_a" {
		t.Fatalf("event %+v %v", m, err)
	}
	if n, _ := s.Usage.Spent(ctx, "acct_a", ledger.PeriodAt(t0)); n != 2 {
		t.Fatalf("spent %d, want 2", n)
	}
	// A second exchange in the conversation, in the caller's transaction: after the first.
	x2 := exchangeOf("acct_a", "c1", conversation.ChannelAPI, 2, t0.Add(time.Second), 10)
	if err := s.Tx.InTx(ctx, func(ctx context.Context) error { _, _, _, err := s.Conversations.Exchange(ctx, x2); return err }); err != nil {
		t.Fatal(err)
	}
	msgs, _ = s.Conversations.Messages(ctx, "acct_a", "c1", 0)
	equal(t, "messages", msgs, []conversation.Message{x.Message, x.Reply, x2.Message, x2.Reply})
	if got, _ := s.Conversations.Get(ctx, "acct_a", "c1"); !got.UpdatedAt.Equal(t0.Add(time.Second)) {
		t.Errorf("updated_at %s, want the latest message's", got.UpdatedAt)
	}
	// Over the limit: nothing, the spending unchanged.
	x3 := exchangeOf("acct_a", "c2", conversation.ChannelAPI, 3, t0, 3)
	if _, _, _, err := s.Conversations.Exchange(ctx, x3); !errors.Is(err, ports.ErrNotExchanged) {
		t.Fatalf("over the limit: %v, want ErrNotExchanged", err)
	}
	nothing(x3)
	// A conversation of another channel: nothing.
	if _, err := s.Conversations.Open(ctx, conversation.Conversation{AccountID: "acct_a", ID: "web-1", Channel: conversation.ChannelWeb,
		ContactID: "web:web-1", CreatedAt: t0, UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	x4 := exchangeOf("acct_a", "web-1", conversation.ChannelAPI, 4, t0, 10)
	if _, _, _, err := s.Conversations.Exchange(ctx, x4); !errors.Is(err, ports.ErrNotExchanged) {
		t.Fatalf("another channel's conversation: %v, want ErrNotExchanged", err)
	}
	nothing(x4)
	if n, _ := s.Usage.Spent(ctx, "acct_a", ledger.PeriodAt(t0)); n != 3 {
		t.Fatalf("spent %d, want 3", n)
	}

	// Concurrent exchanges in one conversation: each stored whole or not at all.
	if _, ok, err := s.Usage.Charge(ctx, ledger.Charge{ID: "chg_open_b", AccountID: "acct_b", Action: ledger.ChatReply, Cost: 1, At: t0},
		ledger.PeriodAt(t0), 1000); err != nil || !ok {
		t.Fatalf("opening charge: %t %v", ok, err)
	}
	const writers = 20
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		stored []ports.Exchange
	)
	for i := range writers {
		wg.Go(func() {
			x := exchangeOf("acct_b", "busy", conversation.ChannelAPI, i, t0.Add(time.Duration(i)*time.Millisecond), 1000)
			_, _, _, err := s.Conversations.Exchange(ctx, x)
			switch {
			case err == nil:
				mu.Lock()
				stored = append(stored, x)
				mu.Unlock()
			case errors.Is(err, ports.ErrNotExchanged):
				nothing(x)
			default:
				t.Errorf("writer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if len(stored) == 0 {
		t.Fatal("no concurrent exchange was stored")
	}
	msgs, _ = s.Conversations.Messages(ctx, "acct_b", "busy", 0)
	if len(msgs) != 2*len(stored) {
		t.Fatalf("%d messages for %d exchanges", len(msgs), len(stored))
	}
	for i := 0; i < len(msgs); i += 2 {
		if msgs[i+1].ReplyTo != msgs[i].ID {
			t.Errorf("message %d (%s) is not followed by its reply: %s", i, msgs[i].ID, msgs[i+1].ID)
		}
	}
	if n, _ := s.Usage.Spent(ctx, "acct_b", ledger.PeriodAt(t0)); n != 1+len(stored) {
		t.Errorf("spent %d, want %d", n, 1+len(stored))
	}

	// Concurrent exchanges in separate conversations of an account with room for 5 more: 5 are
	// stored whole, the others write no job and no event.
	createAccounts(t, s, "acct_c")
	if _, ok, err := s.Usage.Charge(ctx, ledger.Charge{ID: "chg_open_c", AccountID: "acct_c", Action: ledger.ChatReply, Cost: 1, At: t0},
		ledger.PeriodAt(t0), 6); err != nil || !ok {
		t.Fatalf("opening charge: %t %v", ok, err)
	}
	var storedC sync.Map
	for i := range 12 {
		wg.Go(func() {
			x := exchangeOf("acct_c", fmt.Sprintf("room-%d", i), conversation.ChannelAPI, i, t0, 6)
			_, _, _, err := s.Conversations.Exchange(ctx, x)
			switch {
			case err == nil:
				storedC.Store(i, x)
			case errors.Is(err, ports.ErrNotExchanged):
				if _, err := s.ReplyJobs.Get(ctx, "acct_c", x.Job.ID); err == nil {
					t.Errorf("%s: the job was stored", x.Charge.ID)
				}
				if _, err := s.Outbox.Get(ctx, x.Events[0].ID); err == nil {
					t.Errorf("%s: the event was stored", x.Charge.ID)
				}
			default:
				t.Errorf("writer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	n := 0
	storedC.Range(func(_, v any) bool {
		n++
		x := v.(ports.Exchange)
		if msgs, _ := s.Conversations.Messages(ctx, "acct_c", x.Conversation.ID, 0); len(msgs) != 2 {
			t.Errorf("%s: %d messages stored, want 2", x.Conversation.ID, len(msgs))
		}
		return true
	})
	if spent, _ := s.Usage.Spent(ctx, "acct_c", ledger.PeriodAt(t0)); n != 5 || spent != 6 {
		t.Errorf("%d exchanges stored, spent %d; want 5 and 6", n, spent)
	}

	// Events that only webhooks need: written done while the account has no active webhook (on
	// their own and in the caller's transaction), pending once it has one; Exchange says which.
	pending := func(name string, x ports.Exchange, want bool) {
		t.Helper()
		m, err := s.Outbox.Get(ctx, x.Events[0].ID)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := !m.Done(); got != want || (!want && !m.DoneAt.Equal(x.Events[0].CreatedAt)) {
			t.Errorf("%s: event pending %t (done at %s), want %t", name, got, m.DoneAt, want)
		}
	}
	pending("hooks not only", x, true)
	hooksOnly := func(name string, n int, inTx, want bool) {
		t.Helper()
		x := exchangeOf("acct_a", "c1", conversation.ChannelAPI, n, t0.Add(time.Duration(n)*time.Second), 10)
		x.HooksOnly = true
		var left bool
		exchange := func(ctx context.Context) (err error) { _, _, left, err = s.Conversations.Exchange(ctx, x); return err }
		run := exchange
		if inTx {
			run = func(ctx context.Context) error { return s.Tx.InTx(ctx, exchange) }
		}
		err := run(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pending(name, x, want)
		if left != want {
			t.Errorf("%s: Exchange says pending %t, want %t", name, left, want)
		}
	}
	hooksOnly("hooks only, no webhook", 5, false, false)
	hooksOnly("hooks only, no webhook, in a transaction", 6, true, false)
	off := newWebhook("wh_off", "acct_a", t0)
	off.Active = false
	createWebhooks(t, s, off)
	hooksOnly("hooks only, an inactive webhook", 7, false, false)
	createWebhooks(t, s, newWebhook("wh_on", "acct_a", t0))
	hooksOnly("hooks only, an active webhook", 8, false, true)
	hooksOnly("hooks only, an active webhook, in a transaction", 9, true, true)
}
