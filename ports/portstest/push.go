package portstest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/ports"
)

// PushStores are the store ports of the owner's push subscriptions, over the same database as
// Stores.
type PushStores struct {
	Stores
	Push ports.PushSubscriptions
}

// RunPush runs the conformance suite of ports.PushSubscriptions. newStores is called once per
// subtest and must return stores over an empty database of their own.
func RunPush(t *testing.T, newStores func(t *testing.T) PushStores) {
	tests := []struct {
		name string
		run  func(t *testing.T, s PushStores)
	}{
		{"SaveGetListDelete", testPushSaveGetListDelete},
		{"SameEndpointIsOne", testPushSameEndpoint},
		{"OldestReplaced", testPushLimit},
		{"Concurrent", testPushConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStores(t)
			createAccounts(t, s.Stores, "acct_a", "acct_b")
			tt.run(t, s)
		})
	}
}

func newPush(id, accountID, endpoint string, at time.Time) push.Subscription {
	return push.Subscription{ID: id, AccountID: accountID, Endpoint: endpoint, P256dh: "key-" + id, Auth: "auth-" + id, CreatedAt: at}
}

func savePush(t *testing.T, s PushStores, sub push.Subscription, limit int) push.Subscription {
	t.Helper()
	got, err := s.Push.Save(t.Context(), sub, limit)
	if err != nil {
		t.Fatalf("Save(%s): %v", sub.ID, err)
	}
	return got
}

func pushIDs(t *testing.T, s PushStores, accountID string) []string {
	t.Helper()
	list, err := s.Push.List(t.Context(), accountID)
	if err != nil {
		t.Fatalf("List(%s): %v", accountID, err)
	}
	ids := make([]string, len(list))
	for i, p := range list {
		ids[i] = p.ID
	}
	return ids
}

func testPushSaveGetListDelete(t *testing.T, s PushStores) {
	ctx := t.Context()
	west := time.FixedZone("UTC-8", -8*3600)
	p1 := newPush("push_1", "acct_a", "https://push.example/1", t0.In(west))
	p2 := newPush("push_2", "acct_a", "https://push.example/2", t0.Add(time.Second))
	p3 := newPush("push_3", "acct_b", "https://push.example/1", t0)
	stored1 := p1
	stored1.CreatedAt = t0
	equal(t, "Save(p1)", savePush(t, s, p1, push.MaxPerAccount), stored1)
	savePush(t, s, p2, push.MaxPerAccount)
	savePush(t, s, p3, push.MaxPerAccount) // the same endpoint in another account is another subscription
	got, err := s.Push.Get(ctx, "acct_a", "push_1")
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	equal(t, "Get(push_1)", got, stored1)
	equal(t, "List(acct_a)", pushIDs(t, s, "acct_a"), []string{"push_2", "push_1"})
	equal(t, "List(acct_b)", pushIDs(t, s, "acct_b"), []string{"push_3"})

	// Another account's subscription is not found, and stays.
	if _, err := s.Push.Get(ctx, "acct_a", "push_3"); !domain.IsNotFound(err) {
		t.Errorf("Get(acct_a, push_3) = %v, want not_found", err)
	}
	if err := s.Push.Delete(ctx, "acct_a", "push_3"); !domain.IsNotFound(err) {
		t.Errorf("Delete(acct_a, push_3) = %v, want not_found", err)
	}
	equal(t, "List(acct_b) after A's delete", pushIDs(t, s, "acct_b"), []string{"push_3"})
	if err := s.Push.Delete(ctx, "acct_a", "push_1"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	equal(t, "List(acct_a) after delete", pushIDs(t, s, "acct_a"), []string{"push_2"})
	if err := s.Push.Delete(ctx, "acct_a", "push_1"); !domain.IsNotFound(err) {
		t.Errorf("Delete again = %v, want not_found", err)
	}
	if _, err := s.Push.Save(ctx, newPush("push_x", "acct_none", "https://push.example/x", t0), push.MaxPerAccount); !domain.IsNotFound(err) {
		t.Errorf("Save for an unknown account = %v, want not_found", err)
	}
}

// testPushSameEndpoint: saving an endpoint again keeps its id and takes the new keys and time.
func testPushSameEndpoint(t *testing.T, s PushStores) {
	savePush(t, s, newPush("push_1", "acct_a", "https://push.example/1", t0), push.MaxPerAccount)
	savePush(t, s, newPush("push_2", "acct_a", "https://push.example/2", t0.Add(time.Second)), push.MaxPerAccount)
	again := newPush("push_9", "acct_a", "https://push.example/1", t0.Add(time.Minute))
	again.P256dh, again.Auth = "new-key", "new-auth"
	got := savePush(t, s, again, push.MaxPerAccount)
	want := again
	want.ID = "push_1"
	equal(t, "Save(the same endpoint)", got, want)
	equal(t, "List", pushIDs(t, s, "acct_a"), []string{"push_1", "push_2"})
}

// testPushLimit: past the limit the oldest subscriptions go.
func testPushLimit(t *testing.T, s PushStores) {
	for i := range 5 {
		savePush(t, s, newPush(fmt.Sprintf("push_%d", i), "acct_a", fmt.Sprintf("https://push.example/%d", i), t0.Add(time.Duration(i)*time.Second)), 3)
	}
	equal(t, "List past the limit", pushIDs(t, s, "acct_a"), []string{"push_4", "push_3", "push_2"})
}

// testPushConcurrent: concurrent saves of one endpoint make one subscription, and of many
// endpoints never leave more than the limit.
func testPushConcurrent(t *testing.T, s PushStores) {
	const n, limit = 12, 4
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			_, err := s.Push.Save(t.Context(), newPush(fmt.Sprintf("same_%d", i), "acct_a", "https://push.example/same", t0.Add(time.Duration(i)*time.Second)), limit)
			errs <- err
		})
		wg.Go(func() {
			_, err := s.Push.Save(t.Context(), newPush(fmt.Sprintf("many_%d", i), "acct_b", fmt.Sprintf("https://push.example/%d", i), t0.Add(time.Duration(i)*time.Second)), limit)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent Save: %v", err)
		}
	}
	if ids := pushIDs(t, s, "acct_a"); len(ids) != 1 {
		t.Errorf("one endpoint saved %d times concurrently: %v, want one subscription", n, ids)
	}
	if ids := pushIDs(t, s, "acct_b"); len(ids) != limit {
		t.Errorf("%d endpoints saved concurrently with limit %d: %v", n, limit, ids)
	}
}
