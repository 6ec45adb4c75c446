// Package approval holds the approval of the owner's assistant (spec 3.2): the actions a `do`
// request left waiting, shown in full, which one approve call may run within 60 minutes.
//
//	pending ──Use (within Lifetime)──▶ used ──its actions ran: Outcome kept──▶ ──reply given──▶ answered
//	pending ──Lifetime passes──▶ expired
//	pending ──Refuse (within Lifetime)──▶ refused: its actions never run
//	answered, expired, used without an outcome ──Use──▶ approval_not_found
//	used with an outcome, never answered ──Use──▶ that outcome again (Unanswered)
//	used without an outcome held by the process ──Use──▶ that outcome, kept then (Awaiting)
//
// A used approval whose actions ran keeps their outcome. When the call that ran them failed
// after (the reply could not be stored, the database went away), the owner never got it: the
// approve sent again by the account gets that outcome, and the actions never run twice. Once a
// reply has been given, approving again is approval_not_found (spec 3.2).
//
// Use is kept before any action runs: a used approval without an outcome is one whose actions
// are running, or ran and whose outcome waits for the database to come back (kept in the
// background by the process that ran them). An approve sent again to that process keeps and
// answers the outcome it holds; any other approve of it is approval_not_found, as spec 3.2 says
// of a used approval (so concurrent approves get one run and 404s), and never a second run.
//
// An approval belongs to one account and is bound to the exact actions it showed: their hash is
// kept with it and checked before they run.
package approval

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/assistant"
)

// Lifetime is how long an approval may be used (spec part 8).
const Lifetime = 60 * time.Minute

// IDPrefix starts every approval id.
const IDPrefix = "apr_"

// Status is where an approval is in its life.
type Status string

// The states of an approval.
const (
	Pending Status = "pending"
	Used    Status = "used"
	Expired Status = "expired"
	// Refused is an approval the owner turned down (the console's Refuse): its actions never
	// run, and an approve of it is approval_not_found, as of a used one.
	Refused Status = "refused"
)

// Request is an approval: what runs when the owner approves it.
type Request struct {
	ID             string
	AccountID      string
	Actions        []assistant.Action
	Hash           string
	Status         Status
	Lang           string
	ConversationID string
	CreatedAt      time.Time
	ExpiresAt      time.Time
	UsedAt         time.Time
	// Outcome is what the actions did, kept once they ran; nil before.
	Outcome *Outcome
	// AnsweredAt is when the reply to the approve call was given; zero before.
	AnsweredAt time.Time
}

// Outcome is what an approval's actions did, as the approve call's reply tells it (spec 2.12).
type Outcome struct {
	Status  assistant.Status // completed, or failed when an action has ok false
	Actions []assistant.Outcome
	Text    string // the reply; "" when failed (reply null)
}

// Unanswered returns the outcome of the account's approval whose actions ran and whose reply was
// never given (the approve call that ran them failed after): what an approve sent again
// answers. ok is false for another account's approval, one not used, one without an outcome
// (its actions are still running, or their outcome could not be kept), and one answered.
func (r Request) Unanswered(accountID string) (Outcome, bool) {
	if r.AccountID != accountID || r.Status != Used || r.Outcome == nil || !r.AnsweredAt.IsZero() {
		return Outcome{}, false
	}
	return *r.Outcome, true
}

// Awaiting reports whether the account's approval was used and has no outcome kept yet: its
// actions are running, or ran and their outcome is on its way to the store (held, while the
// database is away, by the process that ran them).
func (r Request) Awaiting(accountID string) bool {
	return r.AccountID == accountID && r.Status == Used && r.Outcome == nil && r.AnsweredAt.IsZero()
}

// New returns a pending approval of actions for an account, made at now.
func New(id, accountID string, actions []assistant.Action, now time.Time) Request {
	return Request{ID: id, AccountID: accountID, Actions: actions, Hash: Hash(actions), Status: Pending,
		CreatedAt: now, ExpiresAt: now.Add(Lifetime)}
}

// StatusAt returns the approval's state at now: a pending approval past its lifetime is expired.
// The lifetime is inclusive: at exactly 60:00 it may still be used.
func (r Request) StatusAt(now time.Time) Status {
	if r.Status == Pending && now.After(r.ExpiresAt) {
		return Expired
	}
	return r.Status
}

// Use returns the approval used at now by accountID: 404 approval_not_found when it belongs to
// another account, was used, or expired, or when its actions are not the ones it was made with.
func (r Request) Use(accountID string, now time.Time) (Request, error) {
	if r.AccountID != accountID || r.StatusAt(now) != Pending || Hash(r.Actions) != r.Hash {
		return r, NotFound()
	}
	r.Status, r.UsedAt = Used, now
	return r, nil
}

// NotFound is the error of an approval that does not exist, was used, or expired.
func NotFound() error {
	return domain.Errorf(domain.CodeApprovalNotFound, "approval does not exist, was used, or expired (60 minutes)")
}

// ValidID reports whether id has the form of an approval id.
func ValidID(id string) bool {
	if !strings.HasPrefix(id, IDPrefix) || len(id) <= len(IDPrefix) || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// Hash returns the hex SHA-256 of a canonical encoding of the actions: every field of each, in
// order, length-prefixed, so that no two different lists share an encoding.
func Hash(actions []assistant.Action) string {
	h := sha256.New()
	put := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	put(strconv.Itoa(len(actions)))
	for _, a := range actions {
		for _, f := range []string{string(a.Type), a.To, a.Cc, a.Subject, a.Text, a.Name, a.Email, a.Phone, a.Date,
			a.Setting, a.Value, a.Question, a.Answer, a.Query, a.Target, a.URL, strconv.FormatBool(a.ToOwner)} {
			put(f)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
