// Package portstest holds the conformance suites that every adapter of a port must pass. An
// adapter's test calls the suite with a function that builds the adapter over fresh state.
package portstest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

// Stores are the store ports of one adapter, all over the same database.
type Stores struct {
	Tx            ports.Tx
	Accounts      ports.Accounts
	Keys          ports.Keys
	Profiles      ports.Profiles
	Usage         ports.Usage
	Outbox        ports.Outbox
	Knowledge     ports.Knowledge
	Conversations ports.Conversations
	ReplyJobs     ports.ReplyJobs
	Sessions      ports.Sessions
	Bookings      ports.Bookings
	Webhooks      ports.Webhooks
	Deliveries    ports.Deliveries
	Conversions   ports.Conversions
	Notifications ports.Notifications
	Widgets       ports.Widgets
}

// RunStores runs the store conformance suite. newStores is called once per subtest and must
// return stores over an empty database of their own.
func RunStores(t *testing.T, newStores func(t *testing.T) Stores) {
	tests := []struct {
		name string
		run  func(t *testing.T, s Stores)
	}{
		{"Accounts", testAccounts},
		{"NotFound", testNotFound},
		{"DuplicateIsNotNotFound", testDuplicate},
		{"Keys", testKeys},
		{"Credential", testCredential},
		{"Profiles", testProfiles},
		{"ProfileWithBrain", testProfileWithBrain},
		{"UsagePeriods", testUsagePeriods},
		{"ConcurrentCharges", testConcurrentCharges},
		{"ConcurrentChargesNearLimit", testConcurrentChargesNearLimit},
		{"MarkLimitReached", testMarkLimitReached},
		{"UsageStatement", testUsageStatement},
		{"UsageDaily", testUsageDaily},
		{"KeysTouch", testKeysTouch},
		{"Refund", testRefund},
		{"Outbox", testOutbox},
		{"OutboxConcurrentClaimers", testOutboxConcurrentClaimers},
		{"Tx", testTx},
		{"TimesUTC", testTimesUTC},
		{"AgentProfileFields", testAgentProfileFields},
		{"ProfilesConcurrentUpdates", testProfilesConcurrentUpdates},
		{"KnowledgeReplace", testKnowledgeReplace},
		{"KnowledgeCrawlScoped", testKnowledgeCrawlScoped},
		{"KnowledgeFAQUpsert", testKnowledgeFAQ},
		{"KnowledgeFAQUpsertConcurrent", testKnowledgeFAQConcurrent},
		{"KnowledgeFAQDelete", testKnowledgeFAQDelete},
		{"KnowledgeAddPage", testKnowledgeAddPage},
		{"KnowledgeAddPageConcurrent", testKnowledgeAddPageConcurrent},
		{"KnowledgeAddPageAdmit", testKnowledgeAddPageAdmit},
		{"KnowledgeReplaceConcurrent", testKnowledgeReplaceConcurrent},
		{"KnowledgeScopedToAccount", testKnowledgeScoped},
		{"Conversations", testConversations},
		{"ConversationPages", testConversationPages},
		{"ConversationsExchange", testConversationsExchange},
		{"ReplyJobs", testReplyJobs},
		{"ReplyJobTransitions", testReplyJobTransitions},
		{"ReplyJobsConcurrentClaimers", testReplyJobsConcurrent},
		{"ConversationsConcurrent", testConversationsConcurrent},
		{"ConversationUpdatedAt", testConversationUpdatedAt},
		{"SessionsAndBookings", testSessionsAndBookings},
		{"Webhooks", testWebhooks},
		{"WebhookLimit", testWebhookLimit},
		{"WebhookLimitConcurrent", testWebhookLimitConcurrent},
		{"Deliveries", testDeliveries},
		{"WebhookRecord", testWebhookRecord},
		{"Conversions", testConversions},
		{"ConversionPages", testConversionPages},
		{"ConversionsSnapshot", testConversionsSnapshot},
		{"Notifications", testNotifications},
		{"Widgets", testWidgets},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newStores(t)) })
	}
}

// t0 is the suite's reference time: UTC, to the microsecond.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)

var errBoom = errors.New("boom")

func newAccount(id string) account.Account {
	return account.Account{
		ID:             id,
		Name:           "Shop " + id,
		Plan:           "starter",
		Status:         account.Active,
		OwnerEmail:     id + "@example.com",
		WidgetToken:    "wt_" + id,
		AllowedDomains: []string{id + ".example"},
		CreatedAt:      t0,
		UpdatedAt:      t0,
	}
}

func newKey(id, accountID string, created time.Time) account.Key {
	secret := account.KeyPrefix + id + strings.Repeat("x", 32)
	return account.Key{
		ID:        id,
		AccountID: accountID,
		Name:      "key " + id,
		Hash:      account.HashSecret(secret),
		Last4:     account.Last4Of(secret),
		CreatedAt: created,
	}
}

func newCharge(id, accountID string, cost int) ledger.Charge {
	return ledger.Charge{
		ID:        id,
		AccountID: accountID,
		Action:    ledger.ChatReply,
		Cost:      cost,
		Ref:       "msg_" + id,
		Labels:    ledger.Labels{Source: "n8n", Workflow: "orders", WorkflowID: "wf_1", ExecutionID: "ex_" + id},
		At:        t0,
	}
}

func newMessage(id, accountID string, created time.Time) outbox.Message {
	return outbox.Message{
		ID:        id,
		AccountID: accountID,
		Topic:     outbox.TopicEvent,
		Payload:   []byte(`{"id":"` + id + `"}`),
		CreatedAt: created,
	}
}

func createAccounts(t *testing.T, s Stores, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if err := s.Accounts.Create(t.Context(), newAccount(id)); err != nil {
			t.Fatalf("Accounts.Create(%s): %v", id, err)
		}
	}
}

// equal fails the test when got and want differ (times included: same instant, in UTC).
func equal[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %+v\n want %+v", what, got, want)
	}
}

func testAccounts(t *testing.T, s Stores) {
	ctx := t.Context()
	if n, err := s.Accounts.Count(ctx); err != nil || n != 0 {
		t.Fatalf("Count() on an empty store = %d, %v; want 0", n, err)
	}
	a, b := newAccount("acct_a"), newAccount("acct_b")
	b.InteractionLimit, b.DeveloperBonus, b.Plan = 500, true, "free"
	for _, acct := range []account.Account{a, b} {
		if err := s.Accounts.Create(ctx, acct); err != nil {
			t.Fatalf("Create(%s): %v", acct.ID, err)
		}
	}
	got, err := s.Accounts.Get(ctx, a.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	equal(t, "Get after Create", got, a)
	if n, err := s.Accounts.Count(ctx); err != nil || n != 2 {
		t.Errorf("Count() = %d, %v; want 2", n, err)
	}
	all, err := s.Accounts.List(ctx, "", 10)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	equal(t, "List", all, []account.Account{a, b})
	if page, err := s.Accounts.List(ctx, "", 1); err != nil || len(page) != 1 || page[0].ID != a.ID {
		t.Errorf("List(\"\", 1) = %+v, %v; want only %s", page, err, a.ID)
	}
	if page, err := s.Accounts.List(ctx, a.ID, 10); err != nil || len(page) != 1 || page[0].ID != b.ID {
		t.Errorf("List(%s, 10) = %+v, %v; want only %s", a.ID, page, err, b.ID)
	}

	want := a
	want.Name, want.Plan, want.Status = "Renamed", "pro", account.Inactive
	want.InteractionLimit, want.DeveloperBonus = 42, true
	want.DeveloperSince, want.DeveloperClient = t0.Add(30*time.Minute), "Claude Desktop 1.2.3"
	want.AllowedDomains = []string{"a.example", "b.example"}
	want.OwnerEmail, want.WidgetToken = "new@example.com", "wt_new"
	want.UpdatedAt = t0.Add(time.Hour)
	err = s.Accounts.Update(ctx, a.ID, func(acct *account.Account) error {
		equal(t, "Update's account", *acct, a)
		id, created := acct.ID, acct.CreatedAt
		*acct = want
		acct.ID, acct.CreatedAt = id, created
		return nil
	})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	got, _ = s.Accounts.Get(ctx, a.ID)
	equal(t, "Get after Update", got, want)
	got, _ = s.Accounts.Get(ctx, b.ID)
	equal(t, "the other account after Update", got, b)

	err = s.Accounts.Update(ctx, a.ID, func(acct *account.Account) error {
		acct.Name = "not saved"
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Errorf("Update with a failing fn = %v; want its error", err)
	}
	got, _ = s.Accounts.Get(ctx, a.ID)
	equal(t, "Get after a failed Update", got, want)

	emptyLists := newAccount("acct_c")
	emptyLists.AllowedDomains, emptyLists.WidgetToken = nil, ""
	if err := s.Accounts.Create(ctx, emptyLists); err != nil {
		t.Fatalf("Create without lists: %v", err)
	}
	if got, err := s.Accounts.Get(ctx, emptyLists.ID); err != nil || len(got.AllowedDomains) != 0 || got.WidgetToken != "" {
		t.Errorf("Get of an account without domains or widget token = %+v, %v", got, err)
	}
}

func testNotFound(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	tests := []struct {
		name string
		call func() error
	}{
		{"Accounts.Get", func() error { _, err := s.Accounts.Get(ctx, "acct_missing"); return err }},
		{"Accounts.Update", func() error {
			return s.Accounts.Update(ctx, "acct_missing", func(*account.Account) error {
				t.Error("Update called fn for a missing account")
				return nil
			})
		}},
		{"Keys.Credential", func() error {
			_, err := s.Keys.Credential(ctx, account.HashSecret("missing"), ledger.PeriodAt(t0))
			return err
		}},
		{"Keys.Revoke", func() error { _, err := s.Keys.Revoke(ctx, "key_missing", t0); return err }},
		{"Outbox.Get", func() error { _, err := s.Outbox.Get(ctx, "msg_missing"); return err }},
		{"Outbox.Done", func() error { return s.Outbox.Done(ctx, "msg_missing", t0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code := domain.ErrorCode(tt.call()); code != domain.CodeNotFound {
				t.Errorf("code = %q; want %q", code, domain.CodeNotFound)
			}
		})
	}
}

// testDuplicate checks that a write the database refuses is an error, and never not_found.
func testDuplicate(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	key := newKey("key_1", "acct_a", t0)
	if err := s.Keys.Create(ctx, key); err != nil {
		t.Fatalf("Keys.Create: %v", err)
	}
	otherToken := newAccount("acct_b")
	otherToken.WidgetToken = newAccount("acct_a").WidgetToken
	sameHash := newKey("key_2", "acct_a", t0)
	sameHash.Hash = key.Hash
	tests := []struct {
		name string
		call func() error
	}{
		{"account id", func() error { return s.Accounts.Create(ctx, newAccount("acct_a")) }},
		{"widget token", func() error { return s.Accounts.Create(ctx, otherToken) }},
		{"key id", func() error { return s.Keys.Create(ctx, key) }},
		{"key hash", func() error { return s.Keys.Create(ctx, sameHash) }},
		{"outbox id", func() error {
			m := newMessage("msg_1", "acct_a", t0)
			if err := s.Outbox.Add(ctx, m); err != nil {
				return fmt.Errorf("first Add: %w", err)
			}
			return s.Outbox.Add(ctx, m)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil || domain.IsNotFound(err) {
				t.Errorf("duplicate %s: err = %v; want an error other than not_found", tt.name, err)
			}
		})
	}
}

func testKeys(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	k1 := newKey("key_1", "acct_a", t0)
	k2 := newKey("key_2", "acct_a", t0.Add(time.Second))
	k2.SendWithoutApproval = true
	k3 := newKey("key_3", "acct_b", t0)
	for _, k := range []account.Key{k2, k1, k3} {
		if err := s.Keys.Create(ctx, k); err != nil {
			t.Fatalf("Create(%s): %v", k.ID, err)
		}
	}
	got, err := keyByHash(ctx, s, k2.Hash)
	if err != nil {
		t.Fatalf("Credential: %v", err)
	}
	equal(t, "Credential's key", got, k2)

	list := func(accountID string) []account.Key {
		t.Helper()
		keys, err := s.Keys.List(ctx, accountID)
		if err != nil {
			t.Fatalf("List(%s): %v", accountID, err)
		}
		slices.SortFunc(keys, func(a, b account.Key) int { return strings.Compare(a.ID, b.ID) })
		return keys
	}
	equal(t, "List of acct_a", list("acct_a"), []account.Key{k1, k2})
	equal(t, "List of acct_b", list("acct_b"), []account.Key{k3})
	if keys := list("acct_missing"); len(keys) != 0 {
		t.Errorf("List of an unknown account = %+v; want none", keys)
	}

	revoked := k1
	revoked.RevokedAt = t0.Add(time.Hour)
	got, err = s.Keys.Revoke(ctx, k1.ID, revoked.RevokedAt)
	if err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	equal(t, "Revoke", got, revoked)
	got, err = s.Keys.Revoke(ctx, k1.ID, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatalf("second Revoke: %v", err)
	}
	equal(t, "second Revoke keeps the first time", got, revoked)
	got, _ = keyByHash(ctx, s, k1.Hash)
	equal(t, "Credential of a revoked key", got, revoked)
	equal(t, "List after Revoke", list("acct_a"), []account.Key{revoked, k2})
	got, _ = keyByHash(ctx, s, k3.Hash)
	equal(t, "the other account's key after Revoke", got, k3)
}

// keyByHash returns the key of a Credential.
func keyByHash(ctx context.Context, s Stores, hash string) (account.Key, error) {
	c, err := s.Keys.Credential(ctx, hash, ledger.PeriodAt(t0))
	return c.Key, err
}

// testCredential checks that a credential carries the key's own account as stored, and what
// that account spent in the period asked for: 0 before any charge, and in another period.
func testCredential(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	ka, kb := newKey("key_a", "acct_a", t0), newKey("key_b", "acct_b", t0)
	for _, k := range []account.Key{ka, kb} {
		if err := s.Keys.Create(ctx, k); err != nil {
			t.Fatalf("Create(%s): %v", k.ID, err)
		}
	}
	period := ledger.PeriodAt(t0)
	charge := func(accountID, id string, cost int) {
		t.Helper()
		c := ledger.Charge{ID: id, AccountID: accountID, Action: ledger.ChatReply, Cost: cost, At: t0}
		if _, ok, err := s.Usage.Charge(ctx, c, period, 100); err != nil || !ok {
			t.Fatalf("Charge(%s): ok %t, %v", id, ok, err)
		}
	}
	check := func(name, hash string, p ledger.Period, wantKey account.Key, wantSpent int) {
		t.Helper()
		got, err := s.Keys.Credential(ctx, hash, p)
		if err != nil {
			t.Fatalf("%s: Credential: %v", name, err)
		}
		acct, err := s.Accounts.Get(ctx, wantKey.AccountID)
		if err != nil {
			t.Fatalf("%s: Accounts.Get: %v", name, err)
		}
		equal(t, name+": key", got.Key, wantKey)
		equal(t, name+": account", got.Account, acct)
		if got.Spent != wantSpent {
			t.Errorf("%s: spent = %d; want %d", name, got.Spent, wantSpent)
		}
	}
	check("before any charge", ka.Hash, period, ka, 0)
	charge("acct_a", "chg_1", 1)
	charge("acct_a", "chg_2", 2)
	charge("acct_b", "chg_3", 5)
	check("after charges", ka.Hash, period, ka, 3)
	check("the other account", kb.Hash, period, kb, 5)
	check("the next period", ka.Hash, ledger.PeriodAt(period.End), ka, 0)
}

func testProfiles(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	got, err := s.Profiles.Get(ctx, "acct_a")
	if err != nil {
		t.Fatalf("Get before Save: %v", err)
	}
	equal(t, "Get before Save", got, profile.Default("acct_a"))

	for i, p := range []profile.Profile{
		{
			AccountID:    "acct_a",
			BusinessName: "Acme",
			Languages:    []string{"en", "de"},
			Tone:         "friendly",
			Channels:     profile.Channels{API: true, Messaging: true},
			UpdatedAt:    t0,
		},
		{
			AccountID:    "acct_a",
			BusinessName: "Acme GmbH",
			Languages:    []string{"fr"},
			Tone:         "formal",
			Channels:     profile.Channels{Web: true},
			UpdatedAt:    t0.Add(time.Minute),
		},
	} {
		if err := s.Profiles.Save(ctx, p); err != nil {
			t.Fatalf("Save #%d: %v", i, err)
		}
		got, err := s.Profiles.Get(ctx, "acct_a")
		if err != nil {
			t.Fatalf("Get after Save #%d: %v", i, err)
		}
		equal(t, fmt.Sprintf("Get after Save #%d", i), got, p)
	}
	got, _ = s.Profiles.Get(ctx, "acct_b")
	equal(t, "the other account's agent", got, profile.Default("acct_b"))
}

func testUsagePeriods(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	march := ledger.PeriodAt(t0)
	april := ledger.PeriodAt(march.End)
	steps := []struct {
		name      string
		period    ledger.Period
		cost      int
		limit     int
		wantSpent int
		wantOK    bool
	}{
		{"first charge", march, 3, 10, 3, true},
		{"another period", april, 1, 10, 1, true},
		{"does not fit", march, 8, 10, 3, false},
		{"fits exactly", march, 7, 10, 10, true},
		{"nothing left", march, 1, 10, 10, false},
		{"free action when used up", march, 0, 10, 10, true},
		{"custom higher limit", march, 5, 20, 15, true},
	}
	for i, st := range steps {
		c := newCharge(fmt.Sprintf("chg_%d", i), "acct_a", st.cost)
		spent, ok, err := s.Usage.Charge(ctx, c, st.period, st.limit)
		if err != nil || spent != st.wantSpent || ok != st.wantOK {
			t.Errorf("%s: Charge(cost %d, limit %d) = %d, %t, %v; want %d, %t",
				st.name, st.cost, st.limit, spent, ok, err, st.wantSpent, st.wantOK)
		}
	}
	for _, tt := range []struct {
		accountID string
		period    ledger.Period
		want      int
	}{
		{"acct_a", march, 15},
		{"acct_a", april, 1},
		{"acct_a", ledger.PeriodAt(april.End), 0},
		{"acct_b", march, 0},
	} {
		if got, err := s.Usage.Spent(ctx, tt.accountID, tt.period); err != nil || got != tt.want {
			t.Errorf("Spent(%s, %s) = %d, %v; want %d", tt.accountID, tt.period.Start.Format("2006-01"), got, err, tt.want)
		}
	}
}

func testConcurrentCharges(t *testing.T, s Stores) {
	const charges, limit = 50, 10
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	period := ledger.PeriodAt(t0)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		totals []int
	)
	for i := range charges {
		wg.Go(func() {
			spent, ok, err := s.Usage.Charge(ctx, newCharge(fmt.Sprintf("chg_%02d", i), "acct_a", 1), period, limit)
			if err != nil {
				t.Errorf("Charge #%d: %v", i, err)
				return
			}
			if ok {
				mu.Lock()
				totals = append(totals, spent)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(totals)
	want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	equal(t, "totals of the charges that went through", totals, want)
	if spent, err := s.Usage.Spent(ctx, "acct_a", period); err != nil || spent != limit {
		t.Errorf("Spent = %d, %v; want %d", spent, err, limit)
	}
}

// testConcurrentChargesNearLimit charges several accounts at once, many charges each, around
// their limits: an account with room for all its charges, accounts with room for some (one of
// them with charges of two costs), one with none left and one whose period has no counter yet.
// Every charge that went through must have its own counter value, no counter may pass its limit,
// and every refused charge must not fit the counter at the end (a counter only grows, so it did
// not fit when it was refused either): exactly the excess is refused.
func testConcurrentChargesNearLimit(t *testing.T, s Stores) {
	ctx := t.Context()
	period := ledger.PeriodAt(t0)
	type acct struct {
		id           string
		limit, start int   // start: spent before (-1: no counter row yet)
		costs        []int // one charge each
	}
	ones := func(n int) []int { return slices.Repeat([]int{1}, n) }
	accts := []acct{
		{"acct_room", 100, 40, ones(30)},
		{"acct_near", 20, 12, ones(25)},
		{"acct_edge", 30, 29, ones(10)},
		{"acct_full", 10, 10, ones(5)},
		{"acct_new", 8, -1, ones(12)},
		{"acct_mixed", 25, 5, append(ones(12), slices.Repeat([]int{3}, 8)...)},
	}
	for _, a := range accts {
		createAccounts(t, s, a.id)
		if a.start >= 0 {
			// Open the period with the spending it starts from (a charge of that cost).
			if _, ok, err := s.Usage.Charge(ctx, newCharge("chg_"+a.id+"_start", a.id, a.start), period, a.limit); err != nil || !ok {
				t.Fatalf("opening charge of %s: %t, %v", a.id, ok, err)
			}
		}
	}
	type outcome struct {
		acct        int
		cost, spent int
		ok          bool
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		outcomes []outcome
		start    = make(chan struct{})
	)
	for ai, a := range accts {
		for i, cost := range a.costs {
			wg.Go(func() {
				<-start
				id := fmt.Sprintf("chg_%s_%02d", a.id, i)
				spent, ok, err := s.Usage.Charge(ctx, newCharge(id, a.id, cost), period, a.limit)
				if err != nil {
					t.Errorf("Charge %s: %v", id, err)
					return
				}
				mu.Lock()
				outcomes = append(outcomes, outcome{ai, cost, spent, ok})
				mu.Unlock()
			})
		}
	}
	close(start)
	wg.Wait()
	for ai, a := range accts {
		final, err := s.Usage.Spent(ctx, a.id, period)
		if err != nil {
			t.Fatal(err)
		}
		base := max(a.start, 0)
		sum, seen := base, map[int]bool{}
		var refused, charged int
		for _, o := range outcomes {
			switch {
			case o.acct != ai:
			case o.ok:
				charged++
				sum += o.cost
				if seen[o.spent] || o.spent-o.cost < base || o.spent > a.limit {
					t.Errorf("%s: a charge of %d went through with the counter at %d after it (start %d, limit %d, seen before: %t)",
						a.id, o.cost, o.spent, base, a.limit, seen[o.spent])
				}
				seen[o.spent] = true
			default:
				refused++
				if final+o.cost <= a.limit {
					t.Errorf("%s: a charge of %d was refused, yet the counter ends at %d of %d", a.id, o.cost, final, a.limit)
				}
				if o.spent > a.limit || o.spent < base {
					t.Errorf("%s: a refused charge reports the counter at %d (start %d, limit %d)", a.id, o.spent, base, a.limit)
				}
			}
		}
		if final != sum || final > a.limit {
			t.Errorf("%s: counter = %d; want the %d charges that went through, %d, within the limit %d", a.id, final, charged, sum, a.limit)
		}
		if charged+refused != len(a.costs) {
			t.Errorf("%s: %d charged + %d refused; want %d", a.id, charged, refused, len(a.costs))
		}
		if slices.Max(a.costs) == 1 {
			if want := min(len(a.costs), a.limit-base); charged != want {
				t.Errorf("%s: %d charges went through; want %d", a.id, charged, want)
			}
		}
	}
}

func testMarkLimitReached(t *testing.T, s Stores) {
	const callers = 20
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	march := ledger.PeriodAt(t0)
	var (
		wg     sync.WaitGroup
		firsts atomic.Int32
	)
	for range callers {
		wg.Go(func() {
			first, err := s.Usage.MarkLimitReached(ctx, "acct_a", march)
			if err != nil {
				t.Errorf("MarkLimitReached: %v", err)
			}
			if first {
				firsts.Add(1)
			}
		})
	}
	wg.Wait()
	if n := firsts.Load(); n != 1 {
		t.Errorf("%d concurrent MarkLimitReached calls reported first %d times; want once", callers, n)
	}
	for _, tt := range []struct {
		name      string
		accountID string
		period    ledger.Period
		want      bool
	}{
		{"again", "acct_a", march, false},
		{"next period", "acct_a", ledger.PeriodAt(march.End), true},
		{"other account", "acct_b", march, true},
	} {
		if first, err := s.Usage.MarkLimitReached(ctx, tt.accountID, tt.period); err != nil || first != tt.want {
			t.Errorf("MarkLimitReached %s = %t, %v; want %t", tt.name, first, err, tt.want)
		}
	}
	if spent, err := s.Usage.Spent(ctx, "acct_a", march); err != nil || spent != 0 {
		t.Errorf("Spent after MarkLimitReached = %d, %v; want 0", spent, err)
	}
}

func testOutbox(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	m1 := newMessage("msg_1", "acct_a", t0)
	m2 := newMessage("msg_2", "acct_a", t0.Add(time.Second))
	m3 := newMessage("msg_3", "", t0.Add(2*time.Second))
	m3.Topic = outbox.TopicPing
	for _, m := range []outbox.Message{m3, m1, m2} {
		if err := s.Outbox.Add(ctx, m); err != nil {
			t.Fatalf("Add(%s): %v", m.ID, err)
		}
	}
	got, err := s.Outbox.Get(ctx, m1.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	equal(t, "Get after Add", got, m1)
	backlog(t, s, 3)

	const lease = outbox.Lease
	now := t0.Add(time.Minute)
	claimed := func(at time.Time, ms ...outbox.Message) []outbox.Message {
		for i := range ms {
			ms[i].EnqueuedAt = at
			ms[i].Attempts++
		}
		return ms
	}
	claim(t, s, "first claim, limit 2", now, lease, 2, claimed(now, m1, m2))
	claim(t, s, "second claim", now, lease, 10, claimed(now, m3))
	claim(t, s, "within the lease", now.Add(lease-time.Microsecond), lease, 10, nil)

	doneAt := now.Add(time.Second)
	for _, at := range []time.Time{doneAt, doneAt.Add(time.Second)} {
		if err := s.Outbox.Done(ctx, m1.ID, at); err != nil {
			t.Fatalf("Done: %v", err)
		}
	}
	got, _ = s.Outbox.Get(ctx, m1.ID)
	want := claimed(now, m1)[0]
	want.DoneAt = doneAt
	equal(t, "Get after Done twice", got, want)
	backlog(t, s, 2)

	later := now.Add(lease)
	claim(t, s, "lease over", later, lease, 10, claimed(later, claimed(now, m2, m3)...))
	claim(t, s, "all claimed again", later, lease, 10, nil)
	claim(t, s, "limit 0", later.Add(lease), lease, 0, nil)
	backlog(t, s, 2)
}

func claim(t *testing.T, s Stores, name string, now time.Time, lease time.Duration, limit int, want []outbox.Message) {
	t.Helper()
	got, err := s.Outbox.Claim(t.Context(), now, lease, limit)
	if err != nil {
		t.Fatalf("Claim %s: %v", name, err)
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	equal(t, "Claim "+name, got, want)
}

func backlog(t *testing.T, s Stores, want int) {
	t.Helper()
	if n, err := s.Outbox.Backlog(t.Context()); err != nil || n != want {
		t.Errorf("Backlog() = %d, %v; want %d", n, err, want)
	}
}

func testOutboxConcurrentClaimers(t *testing.T, s Stores) {
	const messages, claimers, batch = 100, 8, 7
	ctx := t.Context()
	for i := range messages {
		m := newMessage(fmt.Sprintf("msg_%03d", i), "", t0.Add(time.Duration(i)*time.Millisecond))
		if err := s.Outbox.Add(ctx, m); err != nil {
			t.Fatalf("Add: %v", err)
		}
	}
	now := t0.Add(time.Minute)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total atomic.Int32
		seen  = map[string]int{}
	)
	for range claimers {
		wg.Go(func() {
			// Claim until every message is taken; the bound stops a broken adapter.
			for i := 0; total.Load() < messages && i < 10*messages; i++ {
				ms, err := s.Outbox.Claim(ctx, now, outbox.Lease, batch)
				if err != nil {
					t.Errorf("Claim: %v", err)
					return
				}
				mu.Lock()
				for _, m := range ms {
					seen[m.ID]++
					if m.Attempts != 1 {
						t.Errorf("%s claimed with attempts %d; want 1", m.ID, m.Attempts)
					}
				}
				mu.Unlock()
				total.Add(int32(len(ms)))
			}
		})
	}
	wg.Wait()
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times within one lease; want once", id, n)
		}
	}
	if len(seen) != messages {
		t.Errorf("%d messages claimed; want %d", len(seen), messages)
	}
}

func testTx(t *testing.T, s Stores) {
	period := ledger.PeriodAt(t0)
	// write does one write through each store; all of them must share fn's transaction.
	write := func(ctx context.Context, id string) error {
		steps := []func() error{
			func() error { return s.Accounts.Create(ctx, newAccount(id)) },
			func() error {
				return s.Accounts.Update(ctx, id, func(a *account.Account) error {
					a.Name = "updated in tx"
					return nil
				})
			},
			func() error { return s.Keys.Create(ctx, newKey("key_"+id, id, t0)) },
			func() error {
				return s.Profiles.Save(ctx, profile.Profile{AccountID: id, BusinessName: "B", UpdatedAt: t0})
			},
			func() error { _, _, err := s.Usage.Charge(ctx, newCharge("chg_"+id, id, 1), period, 10); return err },
			func() error { return s.Outbox.Add(ctx, newMessage("msg_"+id, id, t0)) },
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	}
	tests := []struct {
		name    string
		run     func(ctx context.Context) error
		wantErr error
		kept    []string // accounts whose writes must be there
		gone    []string // accounts whose writes must not
	}{
		{
			name: "commit",
			run: func(ctx context.Context) error {
				return s.Tx.InTx(ctx, func(ctx context.Context) error { return write(ctx, "acct_commit") })
			},
			kept: []string{"acct_commit"},
		},
		{
			name: "rollback on error",
			run: func(ctx context.Context) error {
				return s.Tx.InTx(ctx, func(ctx context.Context) error {
					if err := write(ctx, "acct_rollback"); err != nil {
						return err
					}
					return errBoom
				})
			},
			wantErr: errBoom,
			gone:    []string{"acct_rollback"},
		},
		{
			name: "nested joins the outer transaction",
			run: func(ctx context.Context) error {
				return s.Tx.InTx(ctx, func(ctx context.Context) error {
					if err := s.Tx.InTx(ctx, func(ctx context.Context) error { return write(ctx, "acct_inner") }); err != nil {
						return err
					}
					if err := write(ctx, "acct_outer"); err != nil {
						return err
					}
					return errBoom
				})
			},
			wantErr: errBoom,
			gone:    []string{"acct_inner", "acct_outer"},
		},
		{
			name: "nested commit",
			run: func(ctx context.Context) error {
				return s.Tx.InTx(ctx, func(ctx context.Context) error {
					if err := s.Tx.InTx(ctx, func(ctx context.Context) error { return write(ctx, "acct_inner_ok") }); err != nil {
						return err
					}
					return write(ctx, "acct_outer_ok")
				})
			},
			kept: []string{"acct_inner_ok", "acct_outer_ok"},
		},
		{
			name: "rollback on panic",
			run: func(ctx context.Context) (err error) {
				defer func() {
					if r := recover(); r != errBoom {
						err = fmt.Errorf("recovered %v; want the panic to go on with its value", r)
					}
				}()
				return s.Tx.InTx(ctx, func(ctx context.Context) error {
					if err := write(ctx, "acct_panic"); err != nil {
						return err
					}
					panic(errBoom)
				})
			},
			gone: []string{"acct_panic"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			if err := tt.run(ctx); !errors.Is(err, tt.wantErr) {
				t.Fatalf("InTx = %v; want %v", err, tt.wantErr)
			}
			for _, id := range tt.kept {
				checkWritten(t, s, id, true)
			}
			for _, id := range tt.gone {
				checkWritten(t, s, id, false)
			}
		})
	}
}

// checkWritten checks that the writes of testTx's write for the account are all there, or none.
func checkWritten(t *testing.T, s Stores, id string, want bool) {
	t.Helper()
	ctx := t.Context()
	a, err := s.Accounts.Get(ctx, id)
	if want && (err != nil || a.Name != "updated in tx") {
		t.Errorf("account %s = %+v, %v; want it updated", id, a, err)
	}
	if !want && !domain.IsNotFound(err) {
		t.Errorf("account %s: err = %v; want not_found", id, err)
	}
	if _, err := keyByHash(ctx, s, newKey("key_"+id, id, t0).Hash); (err == nil) != want {
		t.Errorf("key of %s: err = %v; want written %t", id, err, want)
	}
	if p, err := s.Profiles.Get(ctx, id); err != nil || p.Configured() != want {
		t.Errorf("agent of %s = %+v, %v; want written %t", id, p, err, want)
	}
	wantSpent := 0
	if want {
		wantSpent = 1
	}
	if spent, err := s.Usage.Spent(ctx, id, ledger.PeriodAt(t0)); err != nil || spent != wantSpent {
		t.Errorf("spent of %s = %d, %v; want %d", id, spent, err, wantSpent)
	}
	if _, err := s.Outbox.Get(ctx, "msg_"+id); (err == nil) != want {
		t.Errorf("outbox message of %s: err = %v; want written %t", id, err, want)
	}
}

func testTimesUTC(t *testing.T, s Stores) {
	ctx := t.Context()
	// Late on 30 June east of Greenwich is already 1 July in UTC.
	east := time.FixedZone("UTC+5:30", 5*3600+30*60)
	west := time.FixedZone("UTC-8", -8*3600)
	at := time.Date(2026, 6, 30, 23, 59, 59, 999999000, east)

	a := newAccount("acct_a")
	a.CreatedAt, a.UpdatedAt = at, at.Add(time.Microsecond).In(west)
	if err := s.Accounts.Create(ctx, a); err != nil {
		t.Fatalf("Create: %v", err)
	}
	k := newKey("key_1", a.ID, at.In(west))
	if err := s.Keys.Create(ctx, k); err != nil {
		t.Fatalf("Keys.Create: %v", err)
	}
	if err := s.Profiles.Save(ctx, profile.Profile{AccountID: a.ID, UpdatedAt: at}); err != nil {
		t.Fatalf("Agents.Save: %v", err)
	}
	m := newMessage("msg_1", a.ID, at)
	if err := s.Outbox.Add(ctx, m); err != nil {
		t.Fatalf("Outbox.Add: %v", err)
	}
	claimedAt := at.Add(time.Second).In(west)
	if _, err := s.Outbox.Claim(ctx, claimedAt, outbox.Lease, 1); err != nil {
		t.Fatalf("Claim: %v", err)
	}
	if err := s.Outbox.Done(ctx, m.ID, at.Add(2*time.Second)); err != nil {
		t.Fatalf("Done: %v", err)
	}
	// Below the microsecond, a store may cut or round.
	sub := newKey("key_2", a.ID, at.Add(789*time.Nanosecond))
	if err := s.Keys.Create(ctx, sub); err != nil {
		t.Fatalf("Keys.Create: %v", err)
	}

	gotAccount, err := s.Accounts.Get(ctx, a.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	gotKey, err := s.Keys.Revoke(ctx, k.ID, at.Add(3*time.Second).In(west))
	if err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	gotProfile, err := s.Profiles.Get(ctx, a.ID)
	if err != nil {
		t.Fatalf("Agents.Get: %v", err)
	}
	gotMessage, err := s.Outbox.Get(ctx, m.ID)
	if err != nil {
		t.Fatalf("Outbox.Get: %v", err)
	}
	gotSub, err := keyByHash(ctx, s, sub.Hash)
	if err != nil {
		t.Fatalf("Credential: %v", err)
	}

	tests := []struct {
		name      string
		got, want time.Time
	}{
		{"account created", gotAccount.CreatedAt, a.CreatedAt},
		{"account updated", gotAccount.UpdatedAt, a.UpdatedAt},
		{"key created", gotKey.CreatedAt, k.CreatedAt},
		{"key revoked", gotKey.RevokedAt, at.Add(3 * time.Second)},
		{"agent updated", gotProfile.UpdatedAt, at},
		{"message created", gotMessage.CreatedAt, at},
		{"message enqueued", gotMessage.EnqueuedAt, claimedAt},
		{"message done", gotMessage.DoneAt, at.Add(2 * time.Second)},
	}
	for _, tt := range tests {
		if !tt.got.Equal(tt.want) || tt.got.Location() != time.UTC {
			t.Errorf("%s = %s; want %s in UTC", tt.name, tt.got, tt.want.UTC())
		}
	}
	if d := gotSub.CreatedAt.Sub(sub.CreatedAt).Abs(); d >= time.Microsecond || gotSub.CreatedAt.Location() != time.UTC {
		t.Errorf("key created = %s; want %s to the microsecond, in UTC", gotSub.CreatedAt, sub.CreatedAt.UTC())
	}
}

// testKeysTouch checks the last use of keys: one write for many keys, a later time replaces an
// earlier one but never the reverse, unknown ids are ignored, and revoking or listing keeps it.
func testKeysTouch(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	for _, k := range []account.Key{newKey("key_1", "acct_a", t0), newKey("key_2", "acct_a", t0), newKey("key_3", "acct_b", t0)} {
		if err := s.Keys.Create(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	lastUsed := func(accountID string) map[string]time.Time {
		t.Helper()
		keys, err := s.Keys.List(ctx, accountID)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]time.Time{}
		for _, k := range keys {
			out[k.ID] = k.LastUsedAt
		}
		return out
	}
	equal(t, "never used", lastUsed("acct_a"), map[string]time.Time{"key_1": {}, "key_2": {}})
	if err := s.Keys.Touch(ctx, t0.Add(time.Minute), []string{"key_1", "key_3", "key_missing"}); err != nil {
		t.Fatal(err)
	}
	equal(t, "touched", lastUsed("acct_a"), map[string]time.Time{"key_1": t0.Add(time.Minute), "key_2": {}})
	equal(t, "touched, other account", lastUsed("acct_b"), map[string]time.Time{"key_3": t0.Add(time.Minute)})
	if err := s.Keys.Touch(ctx, t0, []string{"key_1"}); err != nil {
		t.Fatal(err)
	}
	equal(t, "an earlier time arriving late", lastUsed("acct_a"), map[string]time.Time{"key_1": t0.Add(time.Minute), "key_2": {}})
	if err := s.Keys.Touch(ctx, t0.Add(time.Hour), []string{"key_1", "key_2"}); err != nil {
		t.Fatal(err)
	}
	equal(t, "a later time", lastUsed("acct_a"), map[string]time.Time{"key_1": t0.Add(time.Hour), "key_2": t0.Add(time.Hour)})
	if err := s.Keys.Touch(ctx, t0.Add(2*time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	k, err := s.Keys.Revoke(ctx, "key_1", t0.Add(3*time.Hour))
	if err != nil || !k.LastUsedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("revoked key's last use: %v, %v", k.LastUsedAt, err)
	}
}
