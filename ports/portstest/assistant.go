package portstest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/approval"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/ports"
)

// AssistantStores are the store ports of the owner's assistant, over the same database as
// Stores.
type AssistantStores struct {
	Stores
	Records   ports.Records
	Approvals ports.Approvals
	History   ports.AssistantHistory
	Mailboxes ports.Mailboxes
}

// RunAssistantStores runs the conformance suite of the assistant's store ports. newStores is
// called once per subtest and must return stores over an empty database of their own.
func RunAssistantStores(t *testing.T, newStores func(t *testing.T) AssistantStores) {
	tests := []struct {
		name string
		run  func(t *testing.T, s AssistantStores)
	}{
		{"Records", testRecords},
		{"Approvals", testApprovals},
		{"ApprovalsConcurrent", testApprovalsConcurrent},
		{"ApprovalOutcome", testApprovalOutcome},
		{"ApprovalsUseAtExpiry", testApprovalsUseAtExpiry},
		{"ApprovalsRefuse", testApprovalsRefuse},
		{"ApprovalsPending", testApprovalsPending},
		{"History", testHistory},
		{"HistoryConcurrent", testHistoryConcurrent},
		{"HistoryConversation", testHistoryConversation},
		{"HistoryHold", testHistoryHold},
		{"ConversationsWithAssistant", testConversationsWithAssistant},
		{"Mailboxes", testMailboxes},
		{"KeyPermission", testKeyPermission},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStores(t)
			createAccounts(t, s.Stores, "acct_a", "acct_b")
			tt.run(t, s)
		})
	}
}

func testRecords(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	save := func(r assistant.Record) {
		t.Helper()
		if err := s.Records.Save(ctx, r); err != nil {
			t.Fatalf("Save(%s): %v", r.ID, err)
		}
	}
	save(assistant.Record{ID: "rec_1", AccountID: "acct_a", Type: assistant.Contact, Title: "Ana", Email: "ana@example.com", CreatedAt: at(1), UpdatedAt: at(1)})
	save(assistant.Record{ID: "rec_2", AccountID: "acct_a", Type: assistant.Contact, Title: "Ana Lima", Email: "ANA@example.com", Phone: "123", CreatedAt: at(2), UpdatedAt: at(2)})
	// saved again without the phone: the phone it had is kept (a detail not given is not erased)
	save(assistant.Record{ID: "rec_2b", AccountID: "acct_a", Type: assistant.Contact, Title: "Ana Lima", Email: "ANA@example.com", CreatedAt: at(2), UpdatedAt: at(2)})
	save(assistant.Record{ID: "rec_3", AccountID: "acct_a", Type: assistant.Task, Title: "invoice", Date: "2026-05-01", CreatedAt: at(3), UpdatedAt: at(3)})
	save(assistant.Record{ID: "rec_4", AccountID: "acct_a", Type: assistant.Task, Title: "invoice", CreatedAt: at(4), UpdatedAt: at(4)})
	save(assistant.Record{ID: "rec_5", AccountID: "acct_b", Type: assistant.Contact, Title: "Ana", Email: "ana@example.com", CreatedAt: at(5), UpdatedAt: at(5)})

	contacts, n, err := s.Records.List(ctx, "acct_a", assistant.Contact, 0)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "contacts", contacts, []assistant.Record{{ID: "rec_1", AccountID: "acct_a", Type: assistant.Contact, Title: "Ana Lima",
		Email: "ANA@example.com", Phone: "123", CreatedAt: at(1), UpdatedAt: at(2)}})
	equal(t, "contact count", n, 1)
	tasks, n, err := s.Records.List(ctx, "acct_a", assistant.Task, 1)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "task count", n, 2)
	if len(tasks) != 1 || tasks[0].ID != "rec_4" {
		t.Errorf("tasks limit 1 = %+v, want the newest, rec_4", tasks)
	}
	notes, n, err := s.Records.List(ctx, "acct_b", assistant.Task, 0)
	if err != nil || len(notes) != 0 || n != 0 {
		t.Errorf("acct_b tasks = %v, %d, %v; want none", notes, n, err)
	}

	// bookings include the agent's
	save(assistant.Record{ID: "rec_6", AccountID: "acct_a", Type: assistant.Booking, Title: "table for 4", CreatedAt: at(6), UpdatedAt: at(6)})
	if err := s.Bookings.Create(ctx, "acct_a", conversation.Booking{ID: "bkg_1", ConversationID: "c1", CustomerName: "Bo",
		Date: "2026-05-02", Time: "10:00", Type: "haircut", CreatedAt: at(7)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Bookings.Create(ctx, "acct_b", conversation.Booking{ID: "bkg_2", ConversationID: "c1", Date: "2026-05-02",
		Time: "10:00", CreatedAt: at(8)}); err != nil {
		t.Fatal(err)
	}
	bookings, n, err := s.Records.List(ctx, "acct_a", assistant.Booking, 0)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "booking count", n, 2)
	if len(bookings) != 2 || bookings[0].ID != "bkg_1" || bookings[0].Date != "2026-05-02" || bookings[1].ID != "rec_6" {
		t.Errorf("bookings = %+v", bookings)
	}
}

func newApproval(id, accountID string, at time.Time) approval.Request {
	r := approval.New(id, accountID, []assistant.Action{
		{Type: assistant.Email, To: "ana@example.com", Cc: "bo@example.com", Subject: "Olá", Text: "Line 1\nLine 2"},
		{Type: assistant.Settings, Setting: "tone", Value: "formal"},
	}, at)
	r.Lang, r.ConversationID = "pt", "asc_1"
	return r
}

func testApprovals(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	made := t0
	for _, id := range []string{"apr_1", "apr_2", "apr_3"} {
		if err := s.Approvals.Create(ctx, newApproval(id, "acct_a", made)); err != nil {
			t.Fatalf("Create: %v", err)
		}
	}
	notFound := func(name string, err error) {
		t.Helper()
		if domain.ErrorCode(err) != domain.CodeApprovalNotFound {
			t.Errorf("%s: %v, want approval_not_found", name, err)
		}
	}
	_, err := s.Approvals.Use(ctx, "acct_b", "apr_1", made.Add(time.Minute))
	notFound("another account's", err)
	_, err = s.Approvals.Use(ctx, "acct_a", "apr_none", made.Add(time.Minute))
	notFound("unknown", err)

	got, err := s.Approvals.Use(ctx, "acct_a", "apr_1", made.Add(time.Minute))
	if err != nil {
		t.Fatalf("Use: %v", err)
	}
	want := newApproval("apr_1", "acct_a", made)
	want.Status, want.UsedAt = approval.Used, made.Add(time.Minute)
	equal(t, "used approval", got, want)
	if approval.Hash(got.Actions) != got.Hash {
		t.Error("the actions read back do not match their hash")
	}
	_, err = s.Approvals.Use(ctx, "acct_a", "apr_1", made.Add(2*time.Minute))
	notFound("used again", err)

	// expiry: usable at exactly 60:00, not at 60:01
	if _, err := s.Approvals.Use(ctx, "acct_a", "apr_2", made.Add(approval.Lifetime)); err != nil {
		t.Errorf("Use at 60:00: %v", err)
	}
	_, err = s.Approvals.Use(ctx, "acct_a", "apr_3", made.Add(approval.Lifetime+time.Second))
	notFound("at 60:01", err)
}

func testApprovalsConcurrent(t *testing.T, s AssistantStores) {
	createApproval(t, s, "apr_c")
	wins, late, misses := useAtOnce(t, s, "apr_c", 100, func(int) time.Time { return t0.Add(time.Minute) }, t0.Add(approval.Lifetime))
	if wins != 1 || late != 0 || misses != 99 {
		t.Errorf("100 concurrent uses: %d won, %d not found; want 1 and 99", wins, misses)
	}
}

// useAtOnce sends n uses of acct_a's approval id at once, the i-th at at(i), and counts those
// that won at or before expires, those that won after it, and those approval_not_found.
func useAtOnce(t *testing.T, s AssistantStores, id string, n int, at func(i int) time.Time, expires time.Time) (wins, late, misses int32) {
	var w, l, m atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		when := at(i)
		wg.Go(func() {
			_, err := s.Approvals.Use(t.Context(), "acct_a", id, when)
			switch {
			case err == nil && when.After(expires):
				l.Add(1)
			case err == nil:
				w.Add(1)
			case domain.ErrorCode(err) == domain.CodeApprovalNotFound:
				m.Add(1)
			default:
				t.Errorf("Use: %v", err)
			}
		})
	}
	wg.Wait()
	return w.Load(), l.Load(), m.Load()
}

// createApproval stores acct_a's approval id, made at t0.
func createApproval(t *testing.T, s AssistantStores, id string) approval.Request {
	t.Helper()
	a := newApproval(id, "acct_a", t0)
	if err := s.Approvals.Create(t.Context(), a); err != nil {
		t.Fatal(err)
	}
	return a
}

// testApprovalsUseAtExpiry: approvals sent at the moment an approval expires, some at its
// last valid instant and some just after: exactly one of the first wins, every other is
// approval_not_found, and one sent only after it expired never wins.
func testApprovalsUseAtExpiry(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	for round := range 5 {
		id := fmt.Sprintf("apr_x%d", round)
		a := createApproval(t, s, id)
		wins, late, misses := useAtOnce(t, s, id, 40, func(i int) time.Time {
			return a.ExpiresAt.Add(time.Duration(i%2) * time.Millisecond)
		}, a.ExpiresAt)
		if wins != 1 || late != 0 || misses != 39 {
			t.Errorf("round %d: %d won in time, %d won expired, %d not found; want 1, 0, 39", round, wins, late, misses)
		}
	}
	a := createApproval(t, s, "apr_late")
	if _, err := s.Approvals.Use(ctx, "acct_a", "apr_late", a.ExpiresAt.Add(time.Millisecond)); domain.ErrorCode(err) != domain.CodeApprovalNotFound {
		t.Errorf("Use 1 ms after expiry = %v, want approval_not_found", err)
	}
}

// testApprovalOutcome: a used approval keeps its actions' outcome, answered once; another
// account's is approval_not_found at every step.
func testApprovalOutcome(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	a := createApproval(t, s, "apr_o")
	out := approval.Outcome{Status: assistant.StatusFailed, Actions: []assistant.Outcome{
		{Action: a.Actions[0], Error: assistant.SendFailed}, {Action: a.Actions[1], OK: true}}}
	if err := s.Approvals.Record(ctx, "acct_a", "apr_o", out); domain.ErrorCode(err) != domain.CodeApprovalNotFound {
		t.Errorf("Record of a pending approval = %v, want approval_not_found", err)
	}
	if _, err := s.Approvals.Use(ctx, "acct_a", "apr_o", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Approvals.Answer(ctx, "acct_a", "apr_o", t0.Add(time.Minute)); ok || err != nil {
		t.Errorf("Answer without an outcome = %v, %v; want false", ok, err)
	}
	if err := s.Approvals.Record(ctx, "acct_b", "apr_o", out); domain.ErrorCode(err) != domain.CodeApprovalNotFound {
		t.Errorf("Record of another account's = %v, want approval_not_found", err)
	}
	if err := s.Approvals.Record(ctx, "acct_a", "apr_o", out); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Approvals.Get(ctx, "acct_b", "apr_o"); domain.ErrorCode(err) != domain.CodeApprovalNotFound {
		t.Errorf("Get of another account's = %v, want approval_not_found", err)
	}
	got, err := s.Approvals.Get(ctx, "acct_a", "apr_o")
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := got.Unanswered("acct_a"); !ok {
		t.Errorf("recorded approval %+v not unanswered", got)
	} else {
		equal(t, "outcome", o, out)
	}
	if ok, err := s.Approvals.Answer(ctx, "acct_b", "apr_o", t0.Add(time.Minute)); ok || err != nil {
		t.Errorf("Answer of another account's = %v, %v; want false", ok, err)
	}
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			ok, err := s.Approvals.Answer(ctx, "acct_a", "apr_o", t0.Add(2*time.Minute))
			if err != nil {
				t.Errorf("Answer: %v", err)
			}
			if ok {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Errorf("20 concurrent answers: %d won, want 1", wins.Load())
	}
	got, err = s.Approvals.Get(ctx, "acct_a", "apr_o")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.Unanswered("acct_a"); ok || !got.AnsweredAt.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("answered approval %+v", got)
	}
}

func testHistory(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	if _, err := s.History.Turns(ctx, "acct_a", "asc_1", 0); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("Turns of none = %v, want not_found", err)
	}
	turn := func(i int, role string) assistant.Turn {
		return assistant.Turn{ConversationID: "asc_1", Seq: int64(i), Role: role, Content: fmt.Sprint("turn ", i),
			Status:    map[string]assistant.Status{assistant.RoleAssistant: assistant.StatusNeedsInput}[role],
			CreatedAt: t0.Add(time.Duration(i) * time.Second)}
	}
	if err := s.History.Add(ctx, "acct_a", turn(1, assistant.RoleOwner), turn(2, assistant.RoleAssistant)); err != nil {
		t.Fatal(err)
	}
	if err := s.History.Add(ctx, "acct_a", turn(3, assistant.RoleOwner), turn(4, assistant.RoleAssistant)); err != nil {
		t.Fatal(err)
	}
	got, err := s.History.Turns(ctx, "acct_a", "asc_1", 0)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "turns", got, []assistant.Turn{turn(1, assistant.RoleOwner), turn(2, assistant.RoleAssistant), turn(3, assistant.RoleOwner), turn(4, assistant.RoleAssistant)})
	last, err := s.History.Turns(ctx, "acct_a", "asc_1", 2)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "last two", last, []assistant.Turn{turn(3, assistant.RoleOwner), turn(4, assistant.RoleAssistant)})
	if _, err := s.History.Turns(ctx, "acct_b", "asc_1", 0); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("another account's conversation = %v, want not_found", err)
	}
}

// testHistoryConcurrent adds to one conversation from many requests at once (the owner sends
// several messages with the same conversation_id): every add succeeds, and each keeps its turns
// together and in order.
func testHistoryConcurrent(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	const adds = 20
	var wg sync.WaitGroup
	for i := range adds {
		wg.Go(func() {
			err := s.History.Add(ctx, "acct_a", assistant.Turn{ConversationID: "asc_c", Role: assistant.RoleOwner, Content: fmt.Sprint("q", i), CreatedAt: t0},
				assistant.Turn{ConversationID: "asc_c", Role: assistant.RoleAssistant, Content: fmt.Sprint("a", i), Status: assistant.StatusCompleted, CreatedAt: t0})
			if err != nil {
				t.Errorf("Add %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	got, err := s.History.Turns(ctx, "acct_a", "asc_c", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2*adds {
		t.Fatalf("%d turns after %d concurrent adds of two, want %d", len(got), adds, 2*adds)
	}
	seen := map[string]bool{}
	for i := 0; i < len(got); i += 2 {
		q, a := got[i].Content, got[i+1].Content
		if got[i].Role != assistant.RoleOwner || q[0] != 'q' || a != "a"+q[1:] || seen[q] {
			t.Fatalf("turns %d and %d = %q, %q: an add's turns must stay together, in order, once", i, i+1, q, a)
		}
		seen[q] = true
	}
}

func testMailboxes(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	if _, err := s.Mailboxes.Get(ctx, "acct_a"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("Get of none = %v, want not_found", err)
	}
	box := assistant.Mailbox{AccountID: "acct_a", Host: "smtp.example.com", Port: 587, Username: "lu", SealedPassword: []byte{1, 2, 3},
		From: "lu@example.com", Security: assistant.StartTLS, UpdatedAt: t0}
	if err := s.Mailboxes.Save(ctx, box); err != nil {
		t.Fatal(err)
	}
	box.Port, box.Security, box.SealedPassword, box.UpdatedAt = 465, assistant.TLS, []byte{4, 5}, t0.Add(time.Hour)
	if err := s.Mailboxes.Save(ctx, box); err != nil {
		t.Fatal(err)
	}
	got, err := s.Mailboxes.Get(ctx, "acct_a")
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "mailbox", got, box)
	if _, err := s.Mailboxes.Get(ctx, "acct_b"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("acct_b's = %v, want not_found", err)
	}
	if err := s.Mailboxes.Delete(ctx, "acct_a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mailboxes.Get(ctx, "acct_a"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("Get after Delete = %v, want not_found", err)
	}
}

func testKeyPermission(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	k := newKey("key_p", "acct_a", t0)
	if err := s.Keys.Create(ctx, k); err != nil {
		t.Fatal(err)
	}
	got, err := s.Keys.SetSendWithoutApproval(ctx, "key_p", true)
	if err != nil || !got.SendWithoutApproval || got.ID != "key_p" {
		t.Fatalf("SetSendWithoutApproval(true) = %+v, %v", got, err)
	}
	stored, err := keyByHash(ctx, s.Stores, k.Hash)
	if err != nil || !stored.SendWithoutApproval {
		t.Errorf("stored key %+v, %v; want the permission on", stored, err)
	}
	if got, err = s.Keys.SetSendWithoutApproval(ctx, "key_p", false); err != nil || got.SendWithoutApproval {
		t.Errorf("SetSendWithoutApproval(false) = %+v, %v", got, err)
	}
	if _, err := s.Keys.SetSendWithoutApproval(ctx, "key_none", true); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("unknown key = %v, want not_found", err)
	}
}

// testHistoryConversation reads a kept conversation as one of the account's conversations:
// created at its first turn, updated at its last (never moved back), channel assistant.
func testHistoryConversation(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	if _, err := s.History.Conversation(ctx, "acct_a", "asc_1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("Conversation of none = %v, want not_found", err)
	}
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	add := func(m int) {
		t.Helper()
		if err := s.History.Add(ctx, "acct_a", assistant.Turn{ConversationID: "asc_1", Role: assistant.RoleOwner, Content: "q", CreatedAt: at(m)},
			assistant.Turn{ConversationID: "asc_1", Role: assistant.RoleAssistant, Content: "a", CreatedAt: at(m + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	get := func() conversation.Conversation {
		t.Helper()
		c, err := s.History.Conversation(ctx, "acct_a", "asc_1")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	want := conversation.Conversation{AccountID: "acct_a", ID: "asc_1", Channel: conversation.ChannelAssistant, CreatedAt: at(1), UpdatedAt: at(2)}
	add(1)
	equal(t, "after the first turns", get(), want)
	add(5)
	want.UpdatedAt = at(6)
	equal(t, "after later turns", get(), want)
	add(3) // turns written late with an older clock do not move it back
	equal(t, "after older turns", get(), want)
	if _, err := s.History.Conversation(ctx, "acct_b", "asc_1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("another account's conversation = %v, want not_found", err)
	}
	if _, err := s.Conversations.Get(ctx, "acct_a", "asc_1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("Conversations.Get of an assistant conversation = %v, want not_found (it is no customer's)", err)
	}
}

// testConversationsWithAssistant lists the customers' conversations with the owner's kept
// assistant conversations: merged newest first by (created_at, id), equal times across the two
// kinds included, and paged exactly (no duplicate, no gap) at every page size; channel assistant
// lists only the assistant's; without q.Assistant none of them.
func testConversationsWithAssistant(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	for i := range 5 {
		openConversation(t, s.Stores, "acct_a", fmt.Sprintf("c%d", i), at(2*i))
	}
	if _, err := s.Conversations.Open(ctx, conversation.Conversation{AccountID: "acct_a", ID: "w", Channel: conversation.ChannelWeb,
		CreatedAt: at(5), UpdatedAt: at(5)}); err != nil {
		t.Fatal(err)
	}
	keep := func(accountID, id string, m int) {
		t.Helper()
		if err := s.History.Add(ctx, accountID, assistant.Turn{ConversationID: id, Role: assistant.RoleOwner, Content: "q", CreatedAt: at(m)},
			assistant.Turn{ConversationID: id, Role: assistant.RoleAssistant, Content: "a", CreatedAt: at(m)}); err != nil {
			t.Fatal(err)
		}
	}
	keep("acct_a", "asc_1", 1)
	keep("acct_a", "asc_3", 3)
	keep("acct_a", "asc_t", 4) // the time of c2: the id decides
	keep("acct_a", "asc_1", 9) // a later turn moves updated_at, not the place
	keep("acct_b", "asc_b", 7)
	openConversation(t, s.Stores, "acct_b", "cb", at(7))

	walk := func(q conversation.ListQuery) ([]string, []conversation.Conversation) {
		t.Helper()
		var ids []string
		var all []conversation.Conversation
		for page := 0; ; page++ {
			p, err := s.Conversations.List(ctx, "acct_a", q)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Conversations) > q.Limit {
				t.Fatalf("page of %d conversations, limit %d", len(p.Conversations), q.Limit)
			}
			for _, c := range p.Conversations {
				ids = append(ids, c.ID)
				all = append(all, c)
			}
			if !p.HasMore {
				return ids, all
			}
			last := p.Conversations[len(p.Conversations)-1]
			q.After = &conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
			if page > 20 {
				t.Fatal("paging does not end")
			}
		}
	}
	everything := []string{"c4", "c3", "w", "c2", "asc_t", "asc_3", "c1", "asc_1", "c0"}
	for _, limit := range []int{1, 2, 3, 4, 9, 100} {
		ids, all := walk(conversation.ListQuery{Limit: limit, Assistant: true})
		equal(t, fmt.Sprintf("all, limit %d", limit), ids, everything)
		if limit != 100 {
			continue
		}
		equal(t, "the listed assistant conversation", all[7], conversation.Conversation{AccountID: "acct_a", ID: "asc_1",
			Channel: conversation.ChannelAssistant, CreatedAt: at(1), UpdatedAt: at(9)})
		if all[0].Channel != conversation.ChannelAPI || all[0].ContactID != "api:c4" || all[2].Channel != conversation.ChannelWeb {
			t.Errorf("customer conversations changed in the merged list: %+v, %+v", all[0], all[2])
		}
	}
	for _, limit := range []int{1, 2, 100} {
		ids, _ := walk(conversation.ListQuery{Channel: conversation.ChannelAssistant, Limit: limit, Assistant: true})
		equal(t, fmt.Sprintf("channel assistant, limit %d", limit), ids, []string{"asc_t", "asc_3", "asc_1"})
		ids, _ = walk(conversation.ListQuery{Channel: conversation.ChannelAPI, Limit: limit, Assistant: true})
		equal(t, fmt.Sprintf("channel api with the assistant's, limit %d", limit), ids, []string{"c4", "c3", "c2", "c1", "c0"})
		ids, _ = walk(conversation.ListQuery{Limit: limit})
		equal(t, fmt.Sprintf("customers only, limit %d", limit), ids, []string{"c4", "c3", "w", "c2", "c1", "c0"})
	}
	if p, err := s.Conversations.List(ctx, "acct_a", conversation.ListQuery{Channel: conversation.ChannelAssistant, Limit: 10}); err != nil || len(p.Conversations) != 0 || p.HasMore {
		t.Errorf("channel assistant without Assistant = %+v, %v; want none", p, err)
	}
}

// testHistoryHold holds a conversation for one turn at a time: of concurrent holds one wins;
// another waits for its release, or for its until to pass; a release by a turn that no longer
// holds it changes nothing; another account's conversation, or none, is not_found.
func testHistoryHold(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	if _, err := s.History.Hold(ctx, "acct_a", "asc_h", "turn_0", t0, t0.Add(time.Minute)); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("Hold of no conversation: %v, want not_found", err)
	}
	if err := s.History.Add(ctx, "acct_a", assistant.Turn{ConversationID: "asc_h", Role: assistant.RoleOwner, Content: "q", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.History.Hold(ctx, "acct_b", "asc_h", "turn_0", t0, t0.Add(time.Minute)); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("Hold of another account's conversation: %v, want not_found", err)
	}
	var wg sync.WaitGroup
	var won atomic.Int32
	winner := make(chan string, 10)
	for i := range 10 {
		wg.Go(func() {
			turn := fmt.Sprint("turn_", i)
			ok, err := s.History.Hold(ctx, "acct_a", "asc_h", turn, t0, t0.Add(time.Minute))
			if err != nil {
				t.Errorf("Hold %d: %v", i, err)
			}
			if ok {
				won.Add(1)
				winner <- turn
			}
		})
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d of 10 concurrent holds won, want 1", won.Load())
	}
	first := <-winner
	if ok, err := s.History.Hold(ctx, "acct_a", "asc_h", "turn_x", t0.Add(30*time.Second), t0.Add(time.Minute)); ok || err != nil {
		t.Fatalf("Hold while held: %v, %v", ok, err)
	}
	if err := s.History.Release(ctx, "acct_a", "asc_h", "turn_x"); err != nil { // not the holder: nothing
		t.Fatal(err)
	}
	if ok, _ := s.History.Hold(ctx, "acct_a", "asc_h", "turn_y", t0.Add(30*time.Second), t0.Add(time.Minute)); ok {
		t.Fatal("a release by a turn that does not hold the conversation let another in")
	}
	if err := s.History.Release(ctx, "acct_a", "asc_h", first); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.History.Hold(ctx, "acct_a", "asc_h", "turn_y", t0.Add(30*time.Second), t0.Add(time.Minute)); !ok || err != nil {
		t.Fatalf("Hold after the release: %v, %v", ok, err)
	}
	// turn_y dies holding it: past its until another turn takes it
	if ok, _ := s.History.Hold(ctx, "acct_a", "asc_h", "turn_z", t0.Add(59*time.Second), t0.Add(2*time.Minute)); ok {
		t.Fatal("held before the holder's until")
	}
	if ok, err := s.History.Hold(ctx, "acct_a", "asc_h", "turn_z", t0.Add(61*time.Second), t0.Add(2*time.Minute)); !ok || err != nil {
		t.Fatalf("Hold past the holder's until: %v, %v", ok, err)
	}
	if _, err := s.History.Conversation(ctx, "acct_a", "asc_h"); err != nil {
		t.Fatalf("the held conversation reads: %v", err)
	}
}

// testApprovalsRefuse: a refused approval can no longer be used nor refused again; only a pending
// one of the account, not past its expiry, can be refused; of uses and refusals sent at once,
// exactly one wins.
func testApprovalsRefuse(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	notFound := func(name string, err error) {
		t.Helper()
		if domain.ErrorCode(err) != domain.CodeApprovalNotFound {
			t.Errorf("%s: %v, want approval_not_found", name, err)
		}
	}
	createApproval(t, s, "apr_r")
	_, err := s.Approvals.Refuse(ctx, "acct_b", "apr_r", t0.Add(time.Minute))
	notFound("another account's", err)
	got, err := s.Approvals.Refuse(ctx, "acct_a", "apr_r", t0.Add(time.Minute))
	if err != nil {
		t.Fatalf("Refuse: %v", err)
	}
	want := newApproval("apr_r", "acct_a", t0)
	want.Status, want.UsedAt = approval.Refused, t0.Add(time.Minute)
	equal(t, "refused approval", got, want)
	_, err = s.Approvals.Refuse(ctx, "acct_a", "apr_r", t0.Add(2*time.Minute))
	notFound("refused again", err)
	_, err = s.Approvals.Use(ctx, "acct_a", "apr_r", t0.Add(2*time.Minute))
	notFound("used after refused", err)
	if a, err := s.Approvals.Get(ctx, "acct_a", "apr_r"); err != nil || a.Status != approval.Refused {
		t.Errorf("Get after Refuse = %+v, %v", a, err)
	}

	createApproval(t, s, "apr_u")
	if _, err := s.Approvals.Use(ctx, "acct_a", "apr_u", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = s.Approvals.Refuse(ctx, "acct_a", "apr_u", t0.Add(2*time.Minute))
	notFound("refused after used", err)

	createApproval(t, s, "apr_e")
	_, err = s.Approvals.Refuse(ctx, "acct_a", "apr_e", t0.Add(approval.Lifetime+time.Second))
	notFound("refused after expiry", err)

	createApproval(t, s, "apr_x")
	var used, refused, misses atomic.Int32
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				if _, err = s.Approvals.Use(t.Context(), "acct_a", "apr_x", t0.Add(time.Minute)); err == nil {
					used.Add(1)
				}
			} else if _, err = s.Approvals.Refuse(t.Context(), "acct_a", "apr_x", t0.Add(time.Minute)); err == nil {
				refused.Add(1)
			}
			if err != nil {
				if domain.ErrorCode(err) != domain.CodeApprovalNotFound {
					t.Errorf("Use or Refuse: %v", err)
				}
				misses.Add(1)
			}
		})
	}
	wg.Wait()
	if used.Load()+refused.Load() != 1 || misses.Load() != 39 {
		t.Errorf("40 uses and refusals at once: %d used, %d refused, %d not found; want one winner", used.Load(), refused.Load(), misses.Load())
	}
}

// testApprovalsPending: the account's pending approvals not past their expiry, newest first, at
// most limit; never another account's, a used, a refused or an expired one.
func testApprovalsPending(t *testing.T, s AssistantStores) {
	ctx := t.Context()
	for i, id := range []string{"apr_p1", "apr_p2", "apr_p3", "apr_p4", "apr_p5"} {
		if err := s.Approvals.Create(ctx, newApproval(id, "acct_a", t0.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Approvals.Create(ctx, newApproval("apr_b", "acct_b", t0)); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(approval.Lifetime + 30*time.Second) // apr_p1 expired
	if _, err := s.Approvals.Use(ctx, "acct_a", "apr_p3", now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Approvals.Refuse(ctx, "acct_a", "apr_p4", now); err != nil {
		t.Fatal(err)
	}
	ids := func(limit int) []string {
		t.Helper()
		got, err := s.Approvals.Pending(ctx, "acct_a", now, limit)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, a := range got {
			if a.Status != approval.Pending || approval.Hash(a.Actions) != a.Hash {
				t.Errorf("Pending listed %s with status %s", a.ID, a.Status)
			}
			out = append(out, a.ID)
		}
		return out
	}
	equal(t, "pending", ids(10), []string{"apr_p5", "apr_p2"})
	equal(t, "pending, limit 1", ids(1), []string{"apr_p5"})
	if got, err := s.Approvals.Pending(ctx, "acct_c", now, 10); err != nil || len(got) != 0 {
		t.Errorf("Pending of an account without approvals = %v, %v", got, err)
	}
}
