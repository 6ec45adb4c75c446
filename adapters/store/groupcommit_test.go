package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/internal/testenv"
	"github.com/svcagent/svc/ports"
)

// TestExchangeGroups checks what the ports allow but SQLite's group commit must not do: of
// concurrent exchanges stored in groups, one that does not fit (over the limit, after its
// conversation was opened in the group's transaction) leaves nothing behind, not even its
// conversation, and the others are stored whole.
func TestExchangeGroups(t *testing.T) {
	const writers, room = 24, 5
	db := newDB(t, testenv.SQLite(t))
	ctx := t.Context()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	createAccount(t, db, "acct_g", now)
	if _, ok, err := store.NewUsage(db).Charge(ctx, ledger.Charge{ID: "chg_open", AccountID: "acct_g", Action: ledger.ChatReply, Cost: 1, At: now},
		ledger.PeriodAt(now), 1+room); err != nil || !ok {
		t.Fatalf("opening charge: %t %v", ok, err)
	}
	convs := store.NewConversations(db)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		stored []string
		start  = make(chan struct{})
	)
	for i := range writers {
		wg.Go(func() {
			conv, msg, reply := fmt.Sprint("c", i), fmt.Sprint("msg_c", i), fmt.Sprint("msg_r", i)
			job := conversation.NewJob(fmt.Sprint("job_", i), "acct_g", conv, msg, reply, conversation.ChannelAPI, now, time.Minute)
			done, _ := job.Complete(reply, now)
			x := ports.Exchange{
				Conversation: conversation.Conversation{AccountID: "acct_g", ID: conv, Channel: conversation.ChannelAPI, CreatedAt: now, UpdatedAt: now},
				Message:      conversation.Message{ID: msg, ConversationID: conv, Role: conversation.RoleCustomer, Content: "q", CreatedAt: now},
				Reply:        conversation.Message{ID: reply, ConversationID: conv, Role: conversation.RoleAgent, Content: "a", ReplyTo: msg, CreatedAt: now},
				Job:          done,
				Charge:       ledger.Charge{ID: fmt.Sprint("chg_", i), AccountID: "acct_g", Action: ledger.ChatReply, Cost: 1, Ref: reply, At: now},
				Period:       ledger.PeriodAt(now), Limit: 1 + room,
				Events: []outbox.Message{{ID: fmt.Sprint("evt_", i), AccountID: "acct_g", Topic: outbox.TopicEvent, Payload: []byte(`{}`), CreatedAt: now}},
			}
			<-start
			_, _, err := convs.Exchange(ctx, x)
			switch {
			case err == nil:
				mu.Lock()
				stored = append(stored, conv)
				mu.Unlock()
			case !errors.Is(err, ports.ErrNotExchanged):
				t.Errorf("exchange %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(stored) != room {
		t.Fatalf("%d exchanges stored, want %d", len(stored), room)
	}
	for table, want := range map[string]int{"conversations": room, "messages": 2 * room, "reply_jobs": room, "outbox": room, "charges": 1 + room} {
		n, err := db.NewSelect().Table(table).Where("account_id = ?", "acct_g").Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if int(n) != want {
			t.Errorf("%d rows in %s, want %d", n, table, want)
		}
	}
}
