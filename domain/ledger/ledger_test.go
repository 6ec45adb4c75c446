package ledger

import (
	"errors"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
)

func TestPeriodAt(t *testing.T) {
	utc := func(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, time.UTC) }
	lisbon := time.FixedZone("UTC+1", 3600)
	tests := []struct {
		name       string
		at         time.Time
		start, end time.Time
	}{
		{"middle of month", utc(2026, 11, 21, 12), utc(2026, 11, 1, 0), utc(2026, 12, 1, 0)},
		{"first instant", utc(2026, 11, 1, 0), utc(2026, 11, 1, 0), utc(2026, 12, 1, 0)},
		{"december rolls the year", utc(2026, 12, 31, 23), utc(2026, 12, 1, 0), utc(2027, 1, 1, 0)},
		{"february leap year", utc(2028, 2, 29, 5), utc(2028, 2, 1, 0), utc(2028, 3, 1, 0)},
		{"offset zone counts in UTC", time.Date(2026, 12, 1, 0, 30, 0, 0, lisbon), utc(2026, 11, 1, 0), utc(2026, 12, 1, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PeriodAt(tt.at)
			if !p.Start.Equal(tt.start) || !p.End.Equal(tt.end) {
				t.Fatalf("PeriodAt(%v) = %v..%v, want %v..%v", tt.at, p.Start, p.End, tt.start, tt.end)
			}
		})
	}
}

func TestCost(t *testing.T) {
	tests := []struct {
		action Action
		want   int
		ok     bool
	}{
		{ChatReply, 1, true},
		{AssistantReply, 1, true},
		{WebSearch, 1, true},
		{TaskCreated, 1, true},
		{Picture, 10, true},
		{Approval, 0, true},
		{ModelReply, 1, true},
		{Embeddings, 1, true},
		{"teleport", 0, false},
	}
	for _, tt := range tests {
		got, ok := Cost(tt.action)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Cost(%q) = %d, %v; want %d, %v", tt.action, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLimit(t *testing.T) {
	starter := Plan{Name: "starter", Interactions: 1000, WebChannels: true, DeveloperBonus: 100}
	tests := []struct {
		custom    int
		developer bool
		want      int
	}{{0, false, 1000}, {-1, false, 1000}, {50, false, 50}, {5000, false, 5000},
		{0, true, 1100}, {50, true, 150}}
	for _, tt := range tests {
		if got := Limit(starter, tt.custom, tt.developer); got != tt.want {
			t.Errorf("Limit(custom=%d, developer=%v) = %d, want %d", tt.custom, tt.developer, got, tt.want)
		}
	}
}

func TestCheckChannel(t *testing.T) {
	tests := []struct {
		name  string
		plan  Plan
		bonus bool
		want  domain.Code
	}{
		{"web plan", Plan{Name: "starter", WebChannels: true}, false, ""},
		{"free plan", Plan{Name: "free"}, false, domain.CodePlanRequired},
		{"free plan with developer bonus", Plan{Name: "free"}, true, ""},
	}
	for _, tt := range tests {
		if got := domain.ErrorCode(CheckChannel(tt.plan, tt.bonus)); got != tt.want {
			t.Errorf("%s: code %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestCheckAndRemaining(t *testing.T) {
	tests := []struct {
		name               string
		spent, limit, cost int
		want               domain.Code
		remaining          int
		exhausted          bool
	}{
		{"fits", 0, 10, 1, "", 10, false},
		{"last one fits", 9, 10, 1, "", 1, false},
		{"nothing left", 10, 10, 1, domain.CodeInteractionLimitReached, 0, true},
		{"picture does not fit in five", 995, 1000, 10, domain.CodeInteractionLimitReached, 5, false},
		{"free call when exhausted", 10, 10, 0, "", 0, true},
		{"over the limit after a lowered custom limit", 12, 10, 1, domain.CodeInteractionLimitReached, 0, true},
	}
	for _, tt := range tests {
		u := Usage{Spent: tt.spent, Limit: tt.limit}
		if got := domain.ErrorCode(Check(u, tt.cost)); got != tt.want {
			t.Errorf("%s: Check code %q, want %q", tt.name, got, tt.want)
		}
		if u.Remaining() != tt.remaining || u.Exhausted() != tt.exhausted {
			t.Errorf("%s: Remaining %d Exhausted %v", tt.name, u.Remaining(), u.Exhausted())
		}
	}
}

func TestPlans(t *testing.T) {
	plans := Plans{"pro": {Name: "pro"}, "free": {Name: "free"}}
	if _, ok := plans.Get("starter"); ok {
		t.Error("Get(starter) found a plan")
	}
	if p, ok := plans.Get("pro"); !ok || p.Name != "pro" {
		t.Error("Get(pro)")
	}
	if got := plans.Names(); len(got) != 2 || got[0] != "free" || got[1] != "pro" {
		t.Errorf("Names() = %v", got)
	}
}

// TestHoldTransitions keeps and releases a hold in every state.
func TestHoldTransitions(t *testing.T) {
	c := Charge{ID: "chg_1", AccountID: "a", Action: ModelReply, Cost: 1}
	u := Usage{Spent: 3, Limit: 10}
	held := NewHold(c, u)
	if held != (Hold{Charge: c, Usage: u, State: Held}) {
		t.Fatalf("NewHold = %+v, want held", held)
	}
	in := func(s HoldState) Hold { h := held; h.State = s; return h }
	refused := Hold{Usage: u} // a hold that nothing was left for
	tests := []struct {
		name  string
		from  Hold
		event func(Hold) (Hold, error)
		want  HoldState // "" when refused
	}{
		{"held, keep", held, Hold.Keep, Kept},
		{"held, release", held, Hold.Release, Released},
		{"kept, keep", in(Kept), Hold.Keep, ""},
		{"kept, release", in(Kept), Hold.Release, ""},
		{"released, keep", in(Released), Hold.Keep, ""},
		{"released, release", in(Released), Hold.Release, ""},
		{"refused, keep", refused, Hold.Keep, ""},
		{"refused, release", refused, Hold.Release, ""},
	}
	for _, tt := range tests {
		got, err := tt.event(tt.from)
		if tt.want == "" {
			if !errors.Is(err, ErrNotHeld) || got != tt.from {
				t.Errorf("%s: %+v, %v; want ErrNotHeld and the hold unchanged", tt.name, got, err)
			}
			continue
		}
		want := tt.from
		want.State = tt.want
		if err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", tt.name, got, err, want)
		}
	}
}

func TestDays(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	nov := PeriodAt(day(10))
	tests := []struct {
		name    string
		counted []Day
		through time.Time
		want    map[int]int // day of month -> interactions; every other day up to through is 0
		days    int
	}{
		{"nothing spent", nil, day(3).Add(5 * time.Hour), nil, 3},
		{"first day only", []Day{{Date: day(1), Interactions: 4}}, day(1), map[int]int{1: 4}, 1},
		{"gaps are zero", []Day{{Date: day(2), Interactions: 3}, {Date: day(5), Interactions: 7}}, day(6).Add(23 * time.Hour), map[int]int{2: 3, 5: 7}, 6},
		{"a day's two rows add up", []Day{{Date: day(2), Interactions: 3}, {Date: day(2).Add(time.Hour), Interactions: 2}}, day(2), map[int]int{2: 5}, 2},
		{"days outside are ignored", []Day{{Date: day(1).AddDate(0, 0, -1), Interactions: 9}, {Date: day(4), Interactions: 1}, {Date: day(20), Interactions: 8}}, day(4), map[int]int{4: 1}, 4},
		{"through past the period stops at its last day", []Day{{Date: day(30), Interactions: 2}}, day(1).AddDate(0, 1, 3), map[int]int{30: 2}, 30},
		{"through in another zone counts in UTC", nil, time.Date(2026, 11, 3, 0, 30, 0, 0, time.FixedZone("UTC+1", 3600)), nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Days(nov, tt.counted, tt.through)
			if len(got) != tt.days {
				t.Fatalf("Days: %d days, want %d: %+v", len(got), tt.days, got)
			}
			for i, d := range got {
				if !d.Date.Equal(day(i+1)) || d.Date.Location() != time.UTC {
					t.Errorf("day %d is %v, want %v", i, d.Date, day(i+1))
				}
				if d.Interactions != tt.want[i+1] {
					t.Errorf("day %d: %d interactions, want %d", i+1, d.Interactions, tt.want[i+1])
				}
			}
		})
	}
}
