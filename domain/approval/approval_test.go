package approval

import (
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/assistant"
)

func TestUse(t *testing.T) {
	made := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	actions := []assistant.Action{{Type: assistant.Email, To: "ana@example.com", Subject: "Hi", Text: "Hello"}}
	pending := New("apr_1", "acct_a", actions, made)
	used, _ := pending.Use("acct_a", made.Add(time.Minute))
	tampered := pending
	tampered.Actions = []assistant.Action{{Type: assistant.Email, To: "eve@example.com", Subject: "Hi", Text: "Hello"}}
	tests := []struct {
		name    string
		r       Request
		account string
		at      time.Duration // after made
		ok      bool
		status  Status // StatusAt(at) before the use
	}{
		{"pending, at once", pending, "acct_a", 0, true, Pending},
		{"pending, at 59:59", pending, "acct_a", 59*time.Minute + 59*time.Second, true, Pending},
		{"pending, at 60:00", pending, "acct_a", 60 * time.Minute, true, Pending},
		{"expired at 60:01", pending, "acct_a", 60*time.Minute + time.Second, false, Expired},
		{"expired much later", pending, "acct_a", 24 * time.Hour, false, Expired},
		{"used", used, "acct_a", 2 * time.Minute, false, Used},
		{"another account", pending, "acct_b", time.Minute, false, Pending},
		{"actions changed since", tampered, "acct_a", time.Minute, false, Pending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := made.Add(tt.at)
			if got := tt.r.StatusAt(now); got != tt.status {
				t.Errorf("StatusAt = %s, want %s", got, tt.status)
			}
			got, err := tt.r.Use(tt.account, now)
			if !tt.ok {
				if domain.ErrorCode(err) != domain.CodeApprovalNotFound {
					t.Fatalf("Use = %v, want approval_not_found", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Use: %v", err)
			}
			if got.Status != Used || !got.UsedAt.Equal(now) {
				t.Errorf("after Use: status %s used_at %v", got.Status, got.UsedAt)
			}
			if _, err := got.Use(tt.account, now); domain.ErrorCode(err) != domain.CodeApprovalNotFound {
				t.Errorf("second Use = %v, want approval_not_found", err)
			}
		})
	}
}

func TestNew(t *testing.T) {
	at := time.Date(2026, 11, 25, 10, 0, 0, 0, time.FixedZone("UTC-3", -3*3600))
	r := New("apr_x", "acct_a", nil, at)
	if r.Status != Pending || !r.ExpiresAt.Equal(at.Add(time.Hour)) || r.Hash != Hash(nil) {
		t.Fatalf("New = %+v", r)
	}
}

func TestHash(t *testing.T) {
	a := []assistant.Action{{Type: assistant.Email, To: "a@x", Subject: "b"}}
	b := []assistant.Action{{Type: assistant.Email, To: "a@xb", Subject: ""}}
	c := []assistant.Action{{Type: assistant.Email, To: "a@x", Subject: "b"}, {Type: assistant.Note, Text: "n"}}
	if Hash(a) == Hash(b) || Hash(a) == Hash(c) || Hash(a) != Hash([]assistant.Action{a[0]}) {
		t.Fatalf("hashes: %s %s %s", Hash(a), Hash(b), Hash(c))
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"apr_abc123": true, "apr_": false, "abc": false, "apr_a b": false, "apr_é": false,
		"apr_" + string(make([]byte, 70)): false,
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestUnanswered(t *testing.T) {
	made := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	pending := New("apr_1", "acct_a", []assistant.Action{{Type: assistant.Email, To: "a@b.c", Text: "x"}}, made)
	used, _ := pending.Use("acct_a", made.Add(time.Minute))
	out := Outcome{Status: assistant.StatusCompleted, Actions: []assistant.Outcome{{Action: pending.Actions[0], OK: true}}, Text: "Done."}
	ran := used
	ran.Outcome = &out
	answered := ran
	answered.AnsweredAt = made.Add(2 * time.Minute)
	tests := []struct {
		name    string
		r       Request
		account string
		ok      bool
	}{
		{"pending", pending, "acct_a", false},
		{"used, actions running or outcome lost", used, "acct_a", false},
		{"ran, never answered", ran, "acct_a", true},
		{"ran, another account", ran, "acct_b", false},
		{"answered", answered, "acct_a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.r.Unanswered(tt.account)
			if ok != tt.ok || ok && got.Text != "Done." {
				t.Errorf("Unanswered(%s) = %+v, %v; want ok %v", tt.account, got, ok, tt.ok)
			}
		})
	}
}

func TestAwaiting(t *testing.T) {
	made := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	pending := New("apr_1", "acct_a", []assistant.Action{{Type: assistant.Email, To: "a@b.c", Text: "x"}}, made)
	usedAt := made.Add(time.Minute)
	used, _ := pending.Use("acct_a", usedAt)
	ran := used
	ran.Outcome = &Outcome{Status: assistant.StatusCompleted}
	answered := ran
	answered.AnsweredAt = usedAt.Add(time.Second)
	refused := pending
	refused.Status, refused.UsedAt = Refused, usedAt
	tests := []struct {
		name    string
		r       Request
		account string
		want    bool
	}{
		{"used, no outcome", used, "acct_a", true},
		{"used, another account", used, "acct_b", false},
		{"outcome kept", ran, "acct_a", false},
		{"answered", answered, "acct_a", false},
		{"pending", pending, "acct_a", false},
		{"refused", refused, "acct_a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Awaiting(tt.account); got != tt.want {
				t.Errorf("Awaiting(%s) = %v, want %v", tt.account, got, tt.want)
			}
		})
	}
}
