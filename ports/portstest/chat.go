package portstest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/session"
	"github.com/svcagent/svc/ports"
)

func openConversation(t *testing.T, s Stores, accountID, id string, at time.Time) conversation.Conversation {
	t.Helper()
	c, err := s.Conversations.Open(t.Context(), conversation.Conversation{AccountID: accountID, ID: id, Channel: conversation.ChannelAPI,
		ContactID: conversation.ContactID(conversation.ChannelAPI, id), CreatedAt: at, UpdatedAt: at})
	if err != nil {
		t.Fatalf("Open(%s): %v", id, err)
	}
	return c
}

func testConversations(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	c := openConversation(t, s, "acct_a", "order-1", t0)
	if c.Channel != conversation.ChannelAPI || c.ContactID != "api:order-1" || !c.CreatedAt.Equal(t0) {
		t.Fatalf("opened %+v", c)
	}
	// Opening again keeps it, and a customer name given later is set.
	again, err := s.Conversations.Open(ctx, conversation.Conversation{AccountID: "acct_a", ID: "order-1", Channel: conversation.ChannelWeb,
		CustomerName: "Ana", CreatedAt: t0.Add(time.Hour), UpdatedAt: t0.Add(time.Hour)})
	if err != nil || again.Channel != conversation.ChannelAPI || again.CustomerName != "Ana" || !again.CreatedAt.Equal(t0) {
		t.Fatalf("reopened %+v %v", again, err)
	}
	msgs := []conversation.Message{
		{ID: "msg_1", ConversationID: "order-1", Role: conversation.RoleCustomer, Content: "Hi", CreatedAt: t0.Add(time.Second)},
		{ID: "msg_2", ConversationID: "order-1", Role: conversation.RoleAgent, Content: "Hello!", ReplyTo: "msg_1", CreatedAt: t0.Add(2 * time.Second),
			Actions: []conversation.Action{{Type: "open", URL: "https://x.example/a"}, {Type: "cart", ProductID: "42", Qty: 2}}},
		{ID: "msg_3", ConversationID: "order-1", Role: conversation.RoleCustomer, Content: "Bye", CreatedAt: t0.Add(3 * time.Second)},
	}
	for _, m := range msgs {
		if err := s.Conversations.AddMessage(ctx, "acct_a", m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Conversations.Messages(ctx, "acct_a", "order-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "messages", got, msgs)
	last2, _ := s.Conversations.Messages(ctx, "acct_a", "order-1", 2)
	if len(last2) != 2 || last2[0].ID != "msg_2" || last2[1].ID != "msg_3" {
		t.Fatalf("last two %+v", last2)
	}
	// UpTo: a message and those before it, never those after.
	upTo, err := s.Conversations.UpTo(ctx, "acct_a", "order-1", "msg_2", 0)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "messages up to msg_2", upTo, msgs[:2])
	if upTo, _ = s.Conversations.UpTo(ctx, "acct_a", "order-1", "msg_3", 2); len(upTo) != 2 || upTo[0].ID != "msg_2" || upTo[1].ID != "msg_3" {
		t.Fatalf("up to msg_3, limit 2: %+v", upTo)
	}
	if upTo, _ = s.Conversations.UpTo(ctx, "acct_a", "order-1", "msg_1", 1); len(upTo) != 1 || upTo[0].ID != "msg_1" {
		t.Fatalf("up to msg_1, limit 1: %+v", upTo)
	}
	for _, q := range []struct{ account, conv, msg string }{
		{"acct_a", "order-1", "msg_nope"}, {"acct_b", "order-1", "msg_2"}, {"acct_a", "order-2", "msg_2"},
	} {
		if _, err := s.Conversations.UpTo(ctx, q.account, q.conv, q.msg, 0); domain.ErrorCode(err) != domain.CodeNotFound {
			t.Fatalf("UpTo(%s, %s, %s): %v, want not_found", q.account, q.conv, q.msg, err)
		}
	}
	c, _ = s.Conversations.Get(ctx, "acct_a", "order-1")
	if !c.UpdatedAt.Equal(t0.Add(3 * time.Second)) {
		t.Fatalf("updated_at %v", c.UpdatedAt)
	}
	// Another account sees none of it, and cannot write into it.
	if _, err := s.Conversations.Get(ctx, "acct_b", "order-1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("account b reads a's conversation: %v", err)
	}
	if m, _ := s.Conversations.Messages(ctx, "acct_b", "order-1", 0); len(m) != 0 {
		t.Fatalf("account b reads a's messages: %v", m)
	}
	if err := s.Conversations.AddMessage(ctx, "acct_b", conversation.Message{ID: "msg_x", ConversationID: "order-1", Role: "customer", Content: "x", CreatedAt: t0}); err == nil {
		t.Fatal("account b wrote into a's conversation")
	}
	for range 2 {
		if err := s.Conversations.Tag(ctx, "acct_a", "order-1", "sale", t0); err != nil {
			t.Fatal(err)
		}
	}
	c, _ = s.Conversations.Get(ctx, "acct_a", "order-1")
	equal(t, "tags", c.Tags, []string{"sale"})
	if err := s.Conversations.Tag(ctx, "acct_b", "order-1", "sale", t0); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("tag of another account's conversation: %v", err)
	}
}

func testConversationPages(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	for i := range 5 {
		openConversation(t, s, "acct_a", fmt.Sprintf("c%d", i), t0.Add(time.Duration(i)*time.Minute))
	}
	if _, err := s.Conversations.Open(ctx, conversation.Conversation{AccountID: "acct_a", ID: "w1", Channel: conversation.ChannelWeb, CreatedAt: t0, UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	q := conversation.ListQuery{Channel: conversation.ChannelAPI, Limit: 2}
	for page := 0; ; page++ {
		p, err := s.Conversations.List(ctx, "acct_a", q)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p.Conversations {
			ids = append(ids, c.ID)
		}
		if !p.HasMore {
			break
		}
		last := p.Conversations[len(p.Conversations)-1]
		q.After = &conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
		if page > 5 {
			t.Fatal("paging does not end")
		}
	}
	equal(t, "pages, newest first, api channel only", ids, []string{"c4", "c3", "c2", "c1", "c0"})
}

func testReplyJobs(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	j := conversation.Job{ID: "job_1", AccountID: "acct_a", ConversationID: "c", MessageID: "msg_1", ReplyID: "msg_2", Channel: conversation.ChannelAPI,
		Status: conversation.JobPending, LeaseUntil: t0.Add(time.Minute), CreatedAt: t0, UpdatedAt: t0}
	if err := s.ReplyJobs.Create(ctx, j); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReplyJobs.Get(ctx, "acct_a", "job_1")
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "job", got, j)
	if _, err := s.ReplyJobs.Get(ctx, "acct_b", "job_1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("account b reads a's job: %v", err)
	}
	// Within the lease nothing is claimed; after it, the job is, once.
	if c, _ := s.ReplyJobs.ClaimExpired(ctx, t0.Add(30*time.Second), time.Minute, 10); len(c) != 0 {
		t.Fatalf("claimed within the lease: %+v", c)
	}
	c, err := s.ReplyJobs.ClaimExpired(ctx, t0.Add(2*time.Minute), time.Minute, 10)
	if err != nil || len(c) != 1 || c[0].Attempts != 1 || !c[0].LeaseUntil.Equal(t0.Add(3*time.Minute)) {
		t.Fatalf("claim %+v %v", c, err)
	}
	done, err := c[0].Complete("msg_2", t0)
	if err != nil {
		t.Fatal(err)
	}
	other := done
	other.AccountID = "acct_b"
	if ok, err := s.ReplyJobs.Finish(ctx, other); err != nil || ok {
		t.Fatalf("account b finished a's job: %v %v", ok, err)
	}
	if ok, err := s.ReplyJobs.Finish(ctx, done); err != nil || !ok {
		t.Fatalf("finish %v %v", ok, err)
	}
	late, _ := c[0].Fail("late", t0)
	if ok, _ := s.ReplyJobs.Finish(ctx, late); ok {
		t.Fatal("a finished job finished twice")
	}
	got, _ = s.ReplyJobs.Get(ctx, "acct_a", "job_1")
	if got.Status != conversation.JobDone || got.ReplyID != "msg_2" {
		t.Fatalf("finished job %+v", got)
	}
	if c, _ := s.ReplyJobs.ClaimExpired(ctx, t0.Add(time.Hour), time.Minute, 10); len(c) != 0 {
		t.Fatalf("a done job was claimed: %+v", c)
	}
}

// testReplyJobTransitions checks that the store's changes of a job are conversation.Job's
// transitions: for a job stored in each state, a take-over (ClaimExpired) and a finish (Finish of
// the job as a process that still sees it pending completes or fails it) change the stored job
// exactly when the domain allows the transition on it, into the job the domain returns.
func testReplyJobTransitions(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	now := t0.Add(time.Hour)
	const lease = 90 * time.Second
	states := []struct {
		name string
		set  func(j *conversation.Job)
	}{
		{"leased", func(j *conversation.Job) { j.LeaseUntil = now.Add(time.Second) }},
		{"leased to the edge", func(j *conversation.Job) { j.LeaseUntil = now }},
		{"unleased", func(j *conversation.Job) { j.LeaseUntil = now.Add(-time.Microsecond) }},
		{"unleased, taken over before", func(j *conversation.Job) { j.LeaseUntil, j.Attempts = now.Add(-time.Minute), 2 }},
		{"done", func(j *conversation.Job) { j.Status, j.ReplyID = conversation.JobDone, "msg_done" }},
		{"failed", func(j *conversation.Job) {
			j.Status, j.ReplyID, j.Error = conversation.JobFailed, "", "model_unavailable"
		}},
	}
	// seen is the job as the process that made it sees it: pending, leased.
	type event struct {
		name  string
		apply func(stored conversation.Job) (conversation.Job, error)     // the domain's transition of the stored job
		store func(seen conversation.Job) (conversation.Job, bool, error) // the job claimed, whether the store changed it
	}
	finish := func(seen conversation.Job, f func(conversation.Job) (conversation.Job, error)) (conversation.Job, bool, error) {
		j, err := f(seen)
		if err != nil {
			return conversation.Job{}, false, err
		}
		ok, err := s.ReplyJobs.Finish(ctx, j)
		return conversation.Job{}, ok, err // Finish returns no job
	}
	complete := func(j conversation.Job) (conversation.Job, error) { return j.Complete("msg_reply", now) }
	fail := func(j conversation.Job) (conversation.Job, error) { return j.Fail("model_unavailable", now) }
	events := []event{
		{"take over", func(j conversation.Job) (conversation.Job, error) { return j.TakeOver(now, lease) },
			func(conversation.Job) (conversation.Job, bool, error) {
				c, err := s.ReplyJobs.ClaimExpired(ctx, now, lease, 10)
				if err != nil || len(c) == 0 {
					return conversation.Job{}, false, err
				}
				return c[0], len(c) == 1, nil
			}},
		{"complete", complete, func(seen conversation.Job) (conversation.Job, bool, error) { return finish(seen, complete) }},
		{"fail", fail, func(seen conversation.Job) (conversation.Job, bool, error) { return finish(seen, fail) }},
	}
	n := 0
	for _, st := range states {
		for _, ev := range events {
			n++
			seen := conversation.NewJob(fmt.Sprintf("job_%02d", n), "acct_a", "c", "msg_1", "msg_reply", conversation.ChannelAPI, t0, time.Minute)
			stored := seen
			st.set(&stored)
			if err := s.ReplyJobs.Create(ctx, stored); err != nil {
				t.Fatal(err)
			}
			want, refused := ev.apply(stored)
			got, changed, err := ev.store(seen)
			if err != nil {
				t.Fatalf("%s, %s: %v", st.name, ev.name, err)
			}
			if changed != (refused == nil) {
				t.Errorf("%s, %s: the store changed the job: %v; the domain says %v", st.name, ev.name, changed, refused)
			}
			after, err := s.ReplyJobs.Get(ctx, "acct_a", seen.ID)
			if err != nil {
				t.Fatal(err)
			}
			equal(t, st.name+", "+ev.name+": stored job", after, want)
			if changed && got.ID != "" {
				equal(t, st.name+", "+ev.name+": job claimed", got, want)
			}
			if refused == nil && ev.name == "take over" { // leave no claimable job to the next case
				j, _ := after.Fail("cleared", now)
				if _, err := s.ReplyJobs.Finish(ctx, j); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func testReplyJobsConcurrent(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	for i := range 20 {
		if err := s.ReplyJobs.Create(ctx, conversation.Job{ID: fmt.Sprintf("job_%02d", i), AccountID: "acct_a", ConversationID: "c",
			MessageID: "m", Channel: conversation.ChannelAPI, Status: conversation.JobPending, LeaseUntil: t0, CreatedAt: t0, UpdatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			jobs, err := s.ReplyJobs.ClaimExpired(ctx, t0.Add(time.Minute), time.Minute, 20)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, j := range jobs {
				seen[j.ID]++
			}
		})
	}
	wg.Wait()
	if len(seen) != 20 {
		t.Fatalf("claimed %d jobs, want 20", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("job %s claimed %d times", id, n)
		}
	}
}

func testSessionsAndBookings(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	if err := s.Keys.Create(ctx, newKey("key_s1", "acct_a", t0)); err != nil {
		t.Fatal(err)
	}
	sess := session.Session{ID: "cs_1", AccountID: "acct_a", KeyID: "key_s1", ConversationID: "c1", CustomerName: "Ana", Hash: "h1",
		ExpiresAt: t0.Add(time.Hour), CreatedAt: t0}
	if err := s.Sessions.Create(ctx, sess); err != nil {
		t.Fatal(err)
	}
	got, err := s.Sessions.Credential(ctx, "h1")
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "credential", got, ports.ClientCredential{Session: sess, Account: newAccount("acct_a")})
	if _, err := s.Sessions.Credential(ctx, "nope"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("unknown hash: %v", err)
	}
	if err := s.Sessions.Create(ctx, sess); err == nil || domain.IsNotFound(err) {
		t.Fatalf("duplicate session: %v", err)
	}
	// Revoking the key that created the session revokes the session; another key's session, or
	// one of no key (made before sessions recorded their key), stays.
	if err := s.Keys.Create(ctx, newKey("key_s2", "acct_a", t0)); err != nil {
		t.Fatal(err)
	}
	other := session.Session{ID: "cs_2", AccountID: "acct_a", KeyID: "key_s2", ConversationID: "c2", Hash: "h2",
		ExpiresAt: t0.Add(time.Hour), CreatedAt: t0}
	keyless := session.Session{ID: "cs_3", AccountID: "acct_a", ConversationID: "c3", Hash: "h3",
		ExpiresAt: t0.Add(time.Hour), CreatedAt: t0}
	orphan := session.Session{ID: "cs_4", AccountID: "acct_a", KeyID: "key_gone", ConversationID: "c4", Hash: "h4",
		ExpiresAt: t0.Add(time.Hour), CreatedAt: t0}
	for _, x := range []session.Session{other, keyless, orphan} {
		if err := s.Sessions.Create(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Keys.Revoke(ctx, "key_s1", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	for hash, want := range map[string]bool{"h1": true, "h2": false, "h3": false, "h4": true} {
		got, err := s.Sessions.Credential(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		if got.KeyRevoked != want {
			t.Errorf("session %s after revoking key_s1: KeyRevoked = %v, want %v", got.Session.ID, got.KeyRevoked, want)
		}
	}
	b := conversation.Booking{ID: "bk_1", ConversationID: "c1", CustomerName: "Ana", Date: "2026-12-01", Time: "10:30", Duration: "30 min", Type: "haircut", CreatedAt: t0}
	if err := s.Bookings.Create(ctx, "acct_a", b); err != nil {
		t.Fatal(err)
	}
}

// testConversationsConcurrent opens one new conversation from 50 goroutines at once, each adding
// a customer message in the same transaction and then the agent's reply to it, as the chat does:
// nothing fails, every message is stored once, each reply comes after its customer message, and
// updated_at is the latest message's time, whatever order the commits came in.
func testConversationsConcurrent(t *testing.T, s Stores) {
	const writers = 50
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for i := range writers {
		wg.Go(func() {
			at := t0.Add(time.Duration(i) * time.Millisecond)
			customer := conversation.Message{ID: fmt.Sprintf("msg_c%02d", i), ConversationID: "busy", Role: conversation.RoleCustomer,
				Content: fmt.Sprintf("question %d", i), CreatedAt: at}
			reply := conversation.Message{ID: fmt.Sprintf("msg_r%02d", i), ConversationID: "busy", Role: conversation.RoleAgent,
				Content: fmt.Sprintf("answer %d", i), CreatedAt: at.Add(time.Second)}
			<-start
			err := s.Tx.InTx(ctx, func(ctx context.Context) error {
				if _, err := s.Conversations.Open(ctx, conversation.Conversation{AccountID: "acct_a", ID: "busy", Channel: conversation.ChannelAPI,
					CustomerName: fmt.Sprintf("Ana %d", i), ContactID: "api:busy", CreatedAt: at, UpdatedAt: at}); err != nil {
					return fmt.Errorf("open: %w", err)
				}
				return s.Conversations.AddMessage(ctx, "acct_a", customer)
			})
			if err != nil {
				t.Errorf("writer %d: %v", i, err)
				return
			}
			if err := s.Conversations.AddMessage(ctx, "acct_a", reply); err != nil {
				t.Errorf("writer %d: reply: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		return
	}
	msgs, err := s.Conversations.Messages(ctx, "acct_a", "busy", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2*writers {
		t.Fatalf("%d messages, want %d", len(msgs), 2*writers)
	}
	pos := map[string]int{}
	for i, m := range msgs {
		if _, dup := pos[m.ID]; dup {
			t.Fatalf("message %s listed twice", m.ID)
		}
		pos[m.ID] = i
	}
	for i := range writers {
		if c, r := pos[fmt.Sprintf("msg_c%02d", i)], pos[fmt.Sprintf("msg_r%02d", i)]; r < c {
			t.Errorf("reply %d listed at %d, before its customer message at %d", i, r, c)
		}
	}
	// Each message's UpTo is the listing up to it: one order, whichever way it is read.
	for i, m := range msgs {
		upTo, err := s.Conversations.UpTo(ctx, "acct_a", "busy", m.ID, 0)
		if err != nil {
			t.Fatalf("UpTo(%s): %v", m.ID, err)
		}
		if len(upTo) != i+1 || upTo[i].ID != m.ID || upTo[0].ID != msgs[0].ID {
			t.Fatalf("UpTo(%s) holds %d messages ending with %s, want the %d listed up to it", m.ID, len(upTo), upTo[len(upTo)-1].ID, i+1)
		}
	}
	c, err := s.Conversations.Get(ctx, "acct_a", "busy")
	if err != nil {
		t.Fatal(err)
	}
	if latest := t0.Add((writers-1)*time.Millisecond + time.Second); !c.UpdatedAt.Equal(latest) {
		t.Errorf("updated_at %v, want the latest message's time %v", c.UpdatedAt, latest)
	}
}

// testConversationUpdatedAt checks that updated_at only moves forward: a message or tag stamped
// earlier than the latest change (a reply that committed late) leaves it alone.
func testConversationUpdatedAt(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	openConversation(t, s, "acct_a", "c1", t0)
	add := func(id string, at time.Time) {
		t.Helper()
		if err := s.Conversations.AddMessage(ctx, "acct_a", conversation.Message{ID: id, ConversationID: "c1", Role: conversation.RoleCustomer,
			Content: id, CreatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	updatedAt := func() time.Time {
		t.Helper()
		c, err := s.Conversations.Get(ctx, "acct_a", "c1")
		if err != nil {
			t.Fatal(err)
		}
		return c.UpdatedAt
	}
	add("msg_1", t0.Add(2*time.Second))
	add("msg_2", t0.Add(time.Second))
	if got := updatedAt(); !got.Equal(t0.Add(2 * time.Second)) {
		t.Errorf("updated_at %v after a message stamped earlier, want %v", got, t0.Add(2*time.Second))
	}
	if err := s.Conversations.Tag(ctx, "acct_a", "c1", "sale", t0); err != nil {
		t.Fatal(err)
	}
	if got := updatedAt(); !got.Equal(t0.Add(2 * time.Second)) {
		t.Errorf("updated_at %v after a tag stamped earlier, want %v", got, t0.Add(2*time.Second))
	}
	add("msg_3", t0.Add(3*time.Second))
	if got := updatedAt(); !got.Equal(t0.Add(3 * time.Second)) {
		t.Errorf("updated_at %v, want the new message's %v", got, t0.Add(3*time.Second))
	}
}
