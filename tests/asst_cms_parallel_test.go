package tests

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"testing"
)

// TestPluginParallelCalls: a site plugin's calls on one resource at the same moment (spec 4.9): 15
// reports of one order make one sale conversion (one 201, the others 200 with its id), and 10
// syncs of different page sets leave exactly one of the sets in the Brain (its services), whole (no lost write
// mixed into another, no duplicate page). On both stacks.
func TestPluginParallelCalls(t *testing.T) {
	for _, st := range stacks {
		t.Run(st.name, func(t *testing.T) {
			s := st.stack(t)
			api := s.startAPI(t)
			a := newOwner(t, s, api, nil, false)
			email, password := ownerLogin(t, s, a.id)
			const site = "https://shop-par.example"
			token := pluginToken(t, api, email, password, site)

			var mu sync.Mutex
			codes, ids := map[int]int{}, map[string]bool{}
			var wg sync.WaitGroup
			for range 15 {
				wg.Go(func() {
					r := callJSON(t, "POST", api.URL()+"/cms/sale", map[string]any{"token": token, "order_id": 42, "order_name": "#42",
						"total": "12.50", "currency": "EUR", "items": []any{map[string]any{"name": "Cake", "qty": 1}}})
					mu.Lock()
					defer mu.Unlock()
					codes[r.status]++
					if r.status < 300 {
						ids[r.body.str("conversion_id")] = true
					} else {
						t.Errorf("POST /cms/sale: %s", r)
					}
				})
			}
			wg.Wait()
			if codes[http.StatusCreated] != 1 || codes[http.StatusOK] != 14 || len(ids) != 1 {
				t.Errorf("15 reports of one order: %v, conversion ids %v; want one 201, 14 200, one id", codes, ids)
			}
			if l := listOf(call(t, "GET", api.URL()+"/v1/conversions", bearer(a.key)...).body, "data"); len(l) != 1 {
				t.Errorf("conversions after 15 reports of one order: %d, want 1", len(l))
			}

			for set := range 10 {
				wg.Go(func() {
					pages := make([]map[string]any, 3)
					for j := range pages {
						pages[j] = map[string]any{"title": fmt.Sprintf("set %d page %d", set, j), "url": fmt.Sprintf("%s/s%d/p%d", site, set, j),
							"content": fmt.Sprintf("Page %d of set %d: we bake bread every morning.", j, set)}
					}
					if r := callJSON(t, "POST", api.URL()+"/cms/sync", map[string]any{"token": token, "site_url": site, "platform": "wordpress",
						"pages": pages}); r.status != http.StatusOK {
						t.Errorf("POST /cms/sync: %s", r)
					}
				})
			}
			wg.Wait()
			kn := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...)
			var urls []string
			for _, p := range listOf(kn.body, "services") {
				urls = append(urls, p.str("url"))
			}
			sort.Strings(urls)
			ok := len(urls) == 3
			for j, u := range urls {
				if ok && u != fmt.Sprintf("%s/p%d", urls[0][:len(urls[0])-3], j) {
					ok = false
				}
			}
			if n, _ := kn.body.num("version"); !ok || n < 10 {
				t.Errorf("plugin pages after 10 syncs at once: %v (version %v), want the 3 of one set, after 10 versions", urls, n)
			}
		})
	}
}

// pluginToken connects site to the account whose owner signs in with email and password, as its
// plugin does (connect, the owner's approval, exchange), and returns the plugin token.
func pluginToken(t *testing.T, api *proc, email, password, site string) string {
	t.Helper()
	back := approveHTTP(t, api, email, password, api.URL()+"/cms/connect?"+url.Values{"site": {site},
		"return": {site + "/wp-admin/admin.php"}, "state": {"s"}, "woo": {"1"}}.Encode())
	u, _ := url.Parse(back)
	ex := callJSON(t, "POST", api.URL()+"/cms/exchange", map[string]any{"code": u.Query().Get("svc_code"), "site": site})
	if ex.status != http.StatusOK {
		t.Fatalf("POST /cms/exchange: %s", ex)
	}
	return ex.body.str("token")
}
