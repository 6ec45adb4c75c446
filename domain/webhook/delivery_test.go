package webhook

import (
	"testing"
	"time"
)

func TestRetryDelay(t *testing.T) {
	tests := []struct {
		attempt int
		want    time.Duration
	}{
		{0, 0}, {1, 2 * time.Second}, {2, 4 * time.Second}, {3, 0}, {4, 0},
	}
	for _, tt := range tests {
		if got := RetryDelay(tt.attempt); got != tt.want {
			t.Errorf("RetryDelay(%d) = %v, want %v", tt.attempt, got, tt.want)
		}
	}
	var total time.Duration
	for a := 1; a < MaxAttempts; a++ {
		total += RetryDelay(a)
	}
	if MaxAttempts != 3 || total != 6*time.Second {
		t.Errorf("%d attempts over %v, want 3 over 6 s (spec part 6)", MaxAttempts, total)
	}
}

func TestRecord(t *testing.T) {
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	ok := Attempt{StatusCode: 204, At: at}
	fail := Attempt{StatusCode: 500, Error: "status 500", At: at}
	noAnswer := Attempt{Error: "timeout", At: at}
	redirect := Attempt{StatusCode: 302, Error: "redirect not followed (302)", At: at}

	tests := []struct {
		name            string
		failures        int
		active          bool
		a               Attempt
		final           bool
		wantFailures    int
		wantActive      bool
		wantDeactivated bool
	}{
		{"delivered resets", 7, true, ok, false, 0, true, false},
		{"delivered on the last attempt resets", 7, true, ok, true, 0, true, false},
		{"failed attempt with a retry to come", 7, true, fail, false, 7, true, false},
		{"final failure counts", 7, true, fail, true, 8, true, false},
		{"no answer counts", 0, true, noAnswer, true, 1, true, false},
		{"a redirect counts", 0, true, redirect, true, 1, true, false},
		{"19th failure stays on", 18, true, fail, true, 19, true, false},
		{"20th failure turns it off", 19, true, fail, true, 20, false, true},
		{"20th failure not final", 19, true, fail, false, 19, true, false},
		{"already off: counted, not reported", 20, false, fail, true, 21, false, false},
		{"delivered while off stays off", 25, false, ok, true, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Webhook{Failures: tt.failures, Active: tt.active, LastStatus: 418}
			got := w.Record(tt.a, tt.final)
			if got != tt.wantDeactivated || w.Failures != tt.wantFailures || w.Active != tt.wantActive {
				t.Errorf("Record = %v, failures %d, active %v; want %v, %d, %v",
					got, w.Failures, w.Active, tt.wantDeactivated, tt.wantFailures, tt.wantActive)
			}
			if w.LastStatus != tt.a.StatusCode || !w.LastDeliveryAt.Equal(at) {
				t.Errorf("last status %d at %v, want %d at %v", w.LastStatus, w.LastDeliveryAt, tt.a.StatusCode, at)
			}
		})
	}
}

func TestRecordDeactivatesOnceAfterTwentyDeliveries(t *testing.T) {
	w := Webhook{Active: true}
	reports := 0
	for delivery := 1; delivery <= 25; delivery++ {
		for attempt := 1; attempt <= MaxAttempts; attempt++ {
			if w.Record(Attempt{StatusCode: 500, Error: "status 500"}, attempt == MaxAttempts) {
				reports++
				if delivery != DeactivateAfter {
					t.Errorf("deactivated at delivery %d, want %d", delivery, DeactivateAfter)
				}
			}
		}
	}
	if reports != 1 || w.Active {
		t.Errorf("reported %d times, active %v; want once, inactive", reports, w.Active)
	}
}

func TestWants(t *testing.T) {
	tests := []struct {
		events []string
		typ    string
		want   bool
	}{
		{[]string{"*"}, "message.replied", true},
		{[]string{"*"}, "limit.reached", true},
		{[]string{"message.replied"}, "message.replied", true},
		{[]string{"message.replied", "limit.reached"}, "limit.reached", true},
		{[]string{"message.replied"}, "booking.created", false},
		{nil, "message.replied", false},
	}
	for _, tt := range tests {
		if got := (Webhook{Events: tt.events}).Wants(tt.typ); got != tt.want {
			t.Errorf("Webhook{Events: %v}.Wants(%q) = %v, want %v", tt.events, tt.typ, got, tt.want)
		}
	}
}

func TestFailure(t *testing.T) {
	tests := []struct {
		name string
		a    Attempt
		want string
	}{
		{"delivered", Attempt{StatusCode: 204}, ""},
		{"a category", Attempt{Error: FailDNS}, FailDNS},
		{"a status", Attempt{StatusCode: 500, Error: FailHTTPStatus}, FailHTTPStatus},
		{"a timeout after a 2xx", Attempt{StatusCode: 200, Error: FailTimeout}, FailTimeout},
		// Attempts logged before the categories: never their words.
		{"old status", Attempt{StatusCode: 500, Error: "status 500"}, FailHTTPStatus},
		{"old redirect", Attempt{StatusCode: 302, Error: "redirect not followed (302)"}, FailRedirect},
		{"old refusal", Attempt{Error: "refused: private address"}, FailBlocked},
		{"old timeout", Attempt{Error: "timeout"}, FailTimeout},
		{"old dial error", Attempt{Error: "dial tcp: lookup x on 127.0.0.53:53: no such host"}, FailNetwork},
		{"no answer, no reason", Attempt{}, FailNetwork},
	}
	for _, tt := range tests {
		if got := tt.a.Failure(); got != tt.want {
			t.Errorf("%s: Failure() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
