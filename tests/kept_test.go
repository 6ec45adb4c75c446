package tests

import (
	"net/http"
	"testing"
	"time"
)

// TestModelKeyChangesSeen checks that the model-compatible endpoints, which reuse a recent check
// of a key while no key or account changed (Access.AdmitKept), see a change made by another
// process (svcctl): a suspended account gets 403, an allowance cut below what was spent 402
// and a raised one 200 again, a revoked key 401. On Postgres the change reaches svc-api as a
// notification, on SQLite as the counter of changes it reads every 50 ms: within moments. The
// test tries for up to 5 s, a hundred times what it takes, and still half of accounts.KeptFor,
// after which a check would be read again even without the signal.
func TestModelKeyChangesSeen(t *testing.T) {
	for _, env := range webhookStacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			up := newMCUpstream(t)
			api := s.startAPI(t, "SVC_MODEL_BASE_URL", up.URL()+"/v1", "SVC_MODEL_API_KEY", mcUpstreamKey, "SVC_MODEL_NAME", mcUpstreamModel)
			a := s.newAccount(t, "--plan", "pro")
			complete := func() response {
				return callJSON(t, "POST", api.URL()+"/v1/chat/completions", map[string]any{
					"model": "svc", "messages": []map[string]any{{"role": "user", "content": "Hi"}}}, bearer(a.key)...)
			}
			// until returns the first answer whose status is not 200, trying for 5 s.
			until := func() response {
				deadline := time.Now().Add(5 * time.Second)
				for {
					r := complete()
					if r.status != http.StatusOK || time.Now().After(deadline) {
						return r
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			for range 5 {
				if r := complete(); r.status != http.StatusOK {
					t.Fatalf("before any change: %s, want 200", r)
				}
			}
			ctl(t, s.env, "account", "set-status", "--account", a.id, "--status", "inactive")
			wantError(t, until(), http.StatusForbidden, "account_inactive")
			ctl(t, s.env, "account", "set-status", "--account", a.id, "--status", "active")
			if r := complete(); r.status != http.StatusOK {
				t.Fatalf("active again: %s, want 200", r)
			}
			// Every 200 above was charged: an allowance of 1 is used up, one of 1,000,000 is not
			// (the 402 was not charged, and its check is not kept).
			ctl(t, s.env, "account", "set-plan", "--account", a.id, "--interaction-limit", "1")
			wantError(t, until(), http.StatusPaymentRequired, "interaction_limit_reached")
			ctl(t, s.env, "account", "set-plan", "--account", a.id, "--interaction-limit", "1000000")
			if r := complete(); r.status != http.StatusOK {
				t.Fatalf("allowance raised: %s, want 200", r)
			}
			ctl(t, s.env, "key", "revoke", "--key-id", a.keyID)
			wantError(t, until(), http.StatusUnauthorized, "unauthorized")
		})
	}
}
