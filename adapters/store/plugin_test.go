package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/plugin"
)

// TestPlugins: a request is approved once; a code is redeemed once (also under concurrent
// redeems), never after its 10 minutes nor for another site; connections are found by token
// hash and revoked only by their account; an order is claimed once under concurrent claims.
func TestPlugins(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			ctx := context.Background()
			db := newDB(t, d.url(t))
			now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
			storetest.Accounts(t, db, storetest.Account("acct_a", now), storetest.Account("acct_b", now))
			r := store.NewPlugins(db)

			req, err := plugin.ParseRequest("https://shop.example", "https://shop.example/wp-admin/admin.php?page=svc", "st1", "", "1")
			if err != nil {
				t.Fatal(err)
			}
			p := plugin.NewPending("creq_1", req, now)
			if err := r.Save(ctx, p); err != nil {
				t.Fatal(err)
			}
			got, err := r.Get(ctx, "creq_1")
			if err != nil || got.Request != req || !got.ExpiresAt.Equal(now.Add(plugin.StateTTL)) {
				t.Fatalf("Get = %+v, %v", got, err)
			}
			code := plugin.NewCode("hash1", "acct_a", p, now)
			if err := r.Approve(ctx, "creq_1", code); err != nil {
				t.Fatal(err)
			}
			if err := r.Approve(ctx, "creq_1", plugin.NewCode("hash2", "acct_b", p, now)); !domain.IsNotFound(err) {
				t.Fatalf("second Approve = %v, want not_found", err)
			}
			if _, err := r.Redeem(ctx, "hash1", "https://other.example", now); err != plugin.ErrCode {
				t.Errorf("Redeem for another site = %v", err)
			}
			if _, err := r.Redeem(ctx, "hash1", "https://shop.example", now.Add(plugin.CodeTTL)); err != plugin.ErrCode {
				t.Errorf("Redeem after 10 minutes = %v", err)
			}
			if _, err := r.Redeem(ctx, "nohash", "https://shop.example", now); err != plugin.ErrCode {
				t.Errorf("Redeem of an unknown code = %v", err)
			}
			var wg sync.WaitGroup
			results := make(chan error, 8)
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c, err := r.Redeem(ctx, "hash1", "https://shop.example/", now.Add(time.Minute))
					if err == nil && c.AccountID != "acct_a" {
						t.Errorf("Redeem gave %+v", c)
					}
					results <- err
				}()
			}
			wg.Wait()
			close(results)
			ok := 0
			for err := range results {
				switch err {
				case nil:
					ok++
				case plugin.ErrCode:
				default:
					t.Errorf("concurrent Redeem: %v", err)
				}
			}
			if ok != 1 {
				t.Errorf("%d concurrent redeems succeeded, want 1", ok)
			}

			conn := plugin.Connection{ID: "site_1", AccountID: "acct_a", Site: "shop.example", SiteURL: "https://shop.example",
				TokenHash: "th1", CreatedAt: now}
			if err := r.Connect(ctx, conn); err != nil {
				t.Fatal(err)
			}
			conn2 := conn
			conn2.ID, conn2.TokenHash, conn2.CreatedAt = "site_2", "th2", now.Add(time.Second)
			if err := r.Connect(ctx, conn2); err != nil {
				t.Fatal(err)
			}
			if c, err := r.ByToken(ctx, "th1"); err != nil || !c.Revoked() {
				t.Errorf("the replaced connection = %+v, %v; want revoked", c, err)
			}
			if _, err := r.ByToken(ctx, "nope"); !domain.IsNotFound(err) {
				t.Errorf("ByToken(unknown) = %v", err)
			}
			counts := plugin.Counts{Pages: 1, Posts: 2, Products: 300, Chars: 1234}
			if err := r.Synced(ctx, "acct_a", "site_2", now, counts); err != nil {
				t.Fatal(err)
			}
			list, err := r.List(ctx, "acct_a")
			if err != nil || len(list) != 1 || list[0].ID != "site_2" || list[0].LastSync != counts || !list[0].LastSyncAt.Equal(now) {
				t.Fatalf("List = %+v, %v", list, err)
			}
			if err := r.Revoke(ctx, "acct_b", "site_2", now); !domain.IsNotFound(err) {
				t.Errorf("Revoke by another account = %v, want not_found", err)
			}
			if err := r.Revoke(ctx, "acct_a", "site_2", now); err != nil {
				t.Fatal(err)
			}
			if list, _ := r.List(ctx, "acct_a"); len(list) != 0 {
				t.Errorf("List after revoke = %+v", list)
			}

			firsts := make(chan string, 8)
			for i := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					id, first, err := r.Claim(ctx, "acct_a", "shop.example", 1001, "cv_"+string(rune('a'+i)), now)
					if err != nil {
						t.Errorf("Claim: %v", err)
						return
					}
					if first {
						firsts <- id
					}
				}()
			}
			wg.Wait()
			close(firsts)
			var winners []string
			for id := range firsts {
				winners = append(winners, id)
			}
			if len(winners) != 1 {
				t.Fatalf("%d claims were first, want 1", len(winners))
			}
			if id, first, err := r.Claim(ctx, "acct_a", "shop.example", 1001, "cv_z", now); err != nil || first || id != winners[0] {
				t.Errorf("Claim again = %q, %v, %v; want %q", id, first, err, winners[0])
			}
			if _, first, _ := r.Claim(ctx, "acct_b", "shop.example", 1001, "cv_b", now); !first {
				t.Error("another account's order of the same number was taken as a duplicate")
			}
		})
	}
}
