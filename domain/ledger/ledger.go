// Package ledger decides what an interaction costs, what a plan allows in a period, and whether a
// charge may go through. It does no I/O: the store applies a charge atomically.
package ledger

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ratelimit"
)

// Plan is an entry of the plan table: a monthly interaction allowance and whether the web
// channels (API, website chat, client sessions) are included.
type Plan struct {
	Name         string
	Interactions int
	WebChannels  bool
	// DeveloperBonus is the interactions a period that an account with the developer bonus
	// gets on top of its allowance.
	DeveloperBonus int
	// RateLimits are the plan's own counts of the per-minute request limits (the spec's when
	// absent).
	RateLimits ratelimit.Counts
}

// Period is a billing period, [Start, End).
type Period struct {
	Start time.Time
	End   time.Time
}

// PeriodAt returns the billing period holding t: the calendar month in UTC.
func PeriodAt(t time.Time) Period {
	t = t.UTC()
	start := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return Period{Start: start, End: start.AddDate(0, 1, 0)}
}

// Action is something that may cost interactions.
type Action string

// The actions of the interface specification, part 8, and DESIGN.md part 4.
const (
	ChatReply      Action = "chat_reply"
	AssistantReply Action = "assistant_reply"
	WebSearch      Action = "web_search"
	TaskCreated    Action = "task_created"
	Picture        Action = "picture"
	Approval       Action = "approval"
	ModelReply     Action = "model_reply"
	Embeddings     Action = "embeddings"
)

var costs = map[Action]int{
	ChatReply:      1,
	AssistantReply: 1,
	WebSearch:      1,
	TaskCreated:    1,
	Picture:        10,
	Approval:       0,
	ModelReply:     1,
	Embeddings:     1,
}

// Cost returns the interactions an action costs, and false for an unknown action.
func Cost(a Action) (int, bool) {
	c, ok := costs[a]
	return c, ok
}

// Limit returns the allowance of an account: its custom limit when set, else the plan's, plus
// the plan's developer bonus when the account has it.
func Limit(p Plan, custom int, developer bool) int {
	n := p.Interactions
	if custom > 0 {
		n = custom
	}
	if developer {
		n += p.DeveloperBonus
	}
	return n
}

// Labels tag a charge in the usage statement (model-compatible endpoints' optional headers).
type Labels struct {
	Source      string
	Workflow    string
	WorkflowID  string
	ExecutionID string
}

// Charge is one spending of interactions by an account.
type Charge struct {
	ID        string
	AccountID string
	Action    Action
	Cost      int
	Ref       string
	Labels    Labels
	At        time.Time
}

// Hold is a charge taken for something still being made (a model reply): kept when it
// succeeds, given back when it fails, so that a failure costs nothing while the charge's write
// runs beside the work instead of after it. Its life:
//
//	held ──Keep──▶ kept       (the charge stays)
//	held ──Release──▶ released (the charge is given back)
//
// Kept and released are final. A hold that was refused (nothing left) was never held: it has
// no state and carries only the usage.
type Hold struct {
	Charge Charge
	// Usage is the account's usage with the hold taken.
	Usage Usage
	State HoldState
}

// HoldState is where a hold is in its life.
type HoldState string

// The states of a hold.
const (
	Held     HoldState = "held"
	Kept     HoldState = "kept"
	Released HoldState = "released"
)

// ErrNotHeld refuses to keep or release a hold that is not held: settled already, or never
// taken.
var ErrNotHeld = errors.New("the interaction is not held: it was settled already, or never taken")

// NewHold returns a charge held, with the account's usage with it taken.
func NewHold(c Charge, u Usage) Hold { return Hold{Charge: c, Usage: u, State: Held} }

// Keep returns the hold kept: its charge stays. ErrNotHeld unless it is held.
func (h Hold) Keep() (Hold, error) { return h.settle(Kept) }

// Release returns the hold released: its charge is given back. ErrNotHeld unless it is held.
func (h Hold) Release() (Hold, error) { return h.settle(Released) }

func (h Hold) settle(to HoldState) (Hold, error) {
	if h.State != Held {
		return h, fmt.Errorf("%w (%s)", ErrNotHeld, h.stateName())
	}
	h.State = to
	return h, nil
}

func (h Hold) stateName() string {
	if h.State == "" {
		return "refused"
	}
	return string(h.State)
}

// Usage is what an account spent in a period against its limit.
type Usage struct {
	Period Period
	Spent  int
	Limit  int
}

// Remaining returns the interactions left, never below zero.
func (u Usage) Remaining() int {
	if r := u.Limit - u.Spent; r > 0 {
		return r
	}
	return 0
}

// Exhausted reports whether nothing is left.
func (u Usage) Exhausted() bool { return u.Spent >= u.Limit }

// CheckChannel returns 402 plan_required when the plan lacks the web channels and the account has
// no developer bonus.
func CheckChannel(p Plan, developerBonus bool) error {
	if p.WebChannels || developerBonus {
		return nil
	}
	return domain.Errorf(domain.CodePlanRequired, "the %s plan does not include the web channels (API, website chat); upgrade to use them", p.Name)
}

// Check returns 402 interaction_limit_reached when cost does not fit in what is left.
func Check(u Usage, cost int) error {
	if cost <= 0 || u.Spent+cost <= u.Limit {
		return nil
	}
	return LimitReached()
}

// LimitReached is the error of a charge that did not fit.
func LimitReached() error {
	return domain.Errorf(domain.CodeInteractionLimitReached, "the plan's interactions for this period are used up")
}

// Plans is the plan table, by plan name.
type Plans map[string]Plan

// Get returns a plan by name.
func (p Plans) Get(name string) (Plan, bool) {
	plan, ok := p[name]
	return plan, ok
}

// RateLimit returns limit l as the plan named plan sets it: the spec's when the plan is unknown
// or does not change it.
func (p Plans) RateLimit(plan string, l ratelimit.Limit) ratelimit.Limit {
	return p[plan].RateLimits.Of(l)
}

// Names returns the plan names, sorted.
func (p Plans) Names() []string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// MaxLabelLength is the most characters a usage label may have.
const MaxLabelLength = 200

// Line is one line of the usage statement: the charges of one action under one set of labels in
// a period, how many there were and what they cost.
type Line struct {
	Action Action
	Labels
	Requests     int
	Interactions int
}

// Day is the interactions an account spent on one calendar day (UTC), Date at its midnight.
type Day struct {
	Date         time.Time
	Interactions int
}

// Days returns one Day for every calendar day of p from its first up to and including the day of
// through (at most the period's last day), oldest first: the interactions of counted (days the
// ledger has charges on; others are ignored) and zero for the days without any.
func Days(p Period, counted []Day, through time.Time) []Day {
	through = through.UTC()
	if !through.Before(p.End) {
		through = p.End.Add(-time.Nanosecond)
	}
	byDate := make(map[time.Time]int, len(counted))
	for _, d := range counted {
		u := d.Date.UTC()
		byDate[time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)] += d.Interactions
	}
	var out []Day
	for day := p.Start.UTC(); !day.After(through); day = day.AddDate(0, 0, 1) {
		out = append(out, Day{Date: day, Interactions: byDate[day]})
	}
	return out
}
