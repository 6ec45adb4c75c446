// Package ports holds the interfaces the inside of the service needs from the outside, in domain
// words. Adapters implement them; ports/portstest holds the suites every adapter must pass.
package ports

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/profile"
)

//go:generate go tool mockgen -source=store.go -destination=mock/store.go -package=mock

// Tx runs fn in one transaction. Store calls made with the ctx that fn receives join it; fn's error
// (or a panic) rolls everything back. Nested calls join the outer transaction.
type Tx interface {
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
	// InSnapshot runs fn's reads in one read-only transaction that sees one state of the
	// database: reads made with the ctx fn receives agree with each other whatever commits
	// meanwhile (REPEATABLE READ, READ ONLY on Postgres; a deferred transaction on SQLite, whose
	// snapshot is taken at its first read in WAL mode, and which waits for no writer). fn must
	// not write. A ctx that already carries a transaction runs fn in it.
	InSnapshot(ctx context.Context, fn func(ctx context.Context) error) error
}

// Accounts stores business accounts. Get and Update return not_found for an unknown id.
type Accounts interface {
	Create(ctx context.Context, a account.Account) error
	Get(ctx context.Context, accountID string) (account.Account, error)
	// Update loads the account, lets fn change it and saves it, in one transaction.
	Update(ctx context.Context, accountID string, fn func(a *account.Account) error) error
	// Count returns the number of accounts (for first-start set-up; an admin call).
	Count(ctx context.Context) (int, error)
	// List returns up to limit accounts whose id sorts after the given one, in id order (an
	// admin call: it is the only query that is not scoped to one account).
	List(ctx context.Context, after string, limit int) ([]account.Account, error)
}

// Credential is what authenticating a key reads: the key, its account, and the account's
// spending in one period.
type Credential struct {
	Key     account.Key
	Account account.Account
	Spent   int
}

// Keys stores API keys by the hash of the secret.
type Keys interface {
	Create(ctx context.Context, k account.Key) error
	// Credential finds a key, revoked or not, by its hash, with its account and what the account
	// has spent in period, in one read (authentication); not_found when none.
	Credential(ctx context.Context, hash string, period ledger.Period) (Credential, error)
	List(ctx context.Context, accountID string) ([]account.Key, error)
	// Revoke marks a key revoked (an admin call by key id); not_found when none, and a second
	// revoke keeps the first time.
	Revoke(ctx context.Context, keyID string, at time.Time) (account.Key, error)
	// SetSendWithoutApproval switches a key's Send without approval permission (an admin call by
	// key id) and returns the key; not_found when none.
	SetSendWithoutApproval(ctx context.Context, keyID string, on bool) (account.Key, error)
	// Touch records that the keys of keyIDs were used at at, in one write: each key's LastUsedAt
	// becomes at unless it is later already. Ids of no key are ignored.
	Touch(ctx context.Context, at time.Time, keyIDs []string) error
}

// KeyChanges is what a Keys store also implements when it can tell that keys or accounts changed,
// in this process or any other of the deployment, so that authentication may keep what it read
// while nothing changed.
type KeyChanges interface {
	// Generation returns a number that changes after every committed change to a key or an
	// account (at once for this process's own writes), and ok false while changes cannot be
	// followed, when nothing read may be kept.
	Generation() (gen uint64, ok bool)
}

// Profiles stores the profile of each account.
type Profiles interface {
	// Get returns the account's profile, or profile.Default when it has none yet.
	Get(ctx context.Context, accountID string) (profile.Profile, error)
	// GetWithBrain returns what Get returns and the account's Brain state (what
	// Knowledge.State returns: version 0 when it has none yet), read at once: the agent a
	// customer's reply is made with.
	GetWithBrain(ctx context.Context, accountID string) (profile.Profile, knowledge.State, error)
	Save(ctx context.Context, p profile.Profile) error
	// Update loads the account's profile (profile.Default when it has none yet), lets fn change
	// it and saves it, in one transaction that concurrent updates of the account wait for: two
	// partial changes made at once both stay. An error of fn saves nothing and is returned.
	Update(ctx context.Context, accountID string, fn func(p *profile.Profile) error) (profile.Profile, error)
}

// Usage counts interactions per account and period.
type Usage interface {
	// Spent returns what the account spent in the period (0 when nothing yet).
	Spent(ctx context.Context, accountID string, period ledger.Period) (int, error)
	// Charge adds c.Cost to the period's counter only when the result stays within limit, and
	// records c, atomically even under concurrent charges. It returns the spent total after the
	// call and whether the charge went through.
	Charge(ctx context.Context, c ledger.Charge, period ledger.Period, limit int) (spent int, ok bool, err error)
	// Refund deletes the account's charge of id and takes its cost off its period's counter,
	// atomically; nothing when there is no such charge (refunded already, or another account's).
	Refund(ctx context.Context, accountID, id string) error
	// MarkLimitReached flags the period as reached and reports whether this call was the first.
	MarkLimitReached(ctx context.Context, accountID string, period ledger.Period) (first bool, err error)
	// Statement groups the account's charges made in [from, to) by action and labels, ordered by
	// action, then labels.
	Statement(ctx context.Context, accountID string, from, to time.Time) ([]ledger.Line, error)
	// Daily sums the cost of the account's charges made in period per calendar day (UTC), oldest
	// first; days without charges are left out.
	Daily(ctx context.Context, accountID string, period ledger.Period) ([]ledger.Day, error)
}

// Outbox is the transactional outbox.
type Outbox interface {
	Add(ctx context.Context, m outbox.Message) error
	// Ensure adds m unless a message with its id exists (idempotent fan-out).
	Ensure(ctx context.Context, m outbox.Message) error
	// Claim marks up to limit claimable messages (outbox.Message.Claimable) as enqueued at now,
	// adds one to their attempts and returns them, oldest first. Concurrent claimers never get the
	// same message within one lease.
	Claim(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]outbox.Message, error)
	// Done confirms a message (idempotent); not_found when none.
	Done(ctx context.Context, id string, at time.Time) error
	// Get returns one message (admin); not_found when none.
	Get(ctx context.Context, id string) (outbox.Message, error)
	// Backlog counts messages not yet done.
	Backlog(ctx context.Context) (int, error)
}

// Pinger answers whether a backing service is reachable.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Knowledge stores the Brain of each account. Every change increases the account's version.
type Knowledge interface {
	// State returns the account's Brain state (version 0 when it has none yet).
	State(ctx context.Context, accountID string) (knowledge.State, error)
	// Replace deletes the account's pages of r.Source (of r.Site when set) with their chunks,
	// stores r's pages and chunks, and returns the new state.
	Replace(ctx context.Context, accountID string, r knowledge.Replacement) (knowledge.State, error)
	// UpsertFAQ adds items, or updates those whose Normalized question the account already has.
	UpsertFAQ(ctx context.Context, accountID string, items []knowledge.FAQItem, at time.Time) (knowledge.FAQUpsert, knowledge.State, error)
	// DeleteFAQ deletes the account's FAQ item id and increases the Brain's version, atomically,
	// returning the item deleted and the new state; not_found (nothing changed) when the account
	// has no such item.
	DeleteFAQ(ctx context.Context, accountID, id string, at time.Time) (knowledge.FAQItem, knowledge.State, error)
	// AddPage stores page (source pages, no site) with its chunks, replacing the account's uploaded
	// pages of the same key (knowledge.Page.Key: its address, or its title when it has none), and
	// increases the Brain's version, atomically: the account's Brain writes queue on its version
	// row, so two concurrent adds of different pages both end up stored. When the account would
	// then hold more than limit uploaded pages it answers invalid_request (field pages) and nothing
	// changed. Once the page fits, and before anything is written, it calls admit (when not nil)
	// with the transaction's ctx, the account's Brain still locked: admit's error (an hourly
	// upload limit) rolls back and is returned; so a page refused for the limit is never
	// admitted (never counts as an upload), and concurrent adds are admitted one at a time. It
	// returns the new state and how many stored pages the page replaced.
	AddPage(ctx context.Context, accountID string, page knowledge.StoredPage, chunks []knowledge.StoredChunk, limit int, at time.Time, admit func(ctx context.Context) error) (knowledge.State, int, error)
	// DeletePage deletes the account's uploaded page id (source pages) with its chunks and
	// increases the Brain's version, atomically, returning the page deleted (without content) and
	// the new state; not_found (nothing changed) when the account has no such uploaded page.
	DeletePage(ctx context.Context, accountID, id string, at time.Time) (knowledge.StoredPage, knowledge.State, error)
	// Pages lists the account's pages, without content, oldest first.
	Pages(ctx context.Context, accountID string) ([]knowledge.StoredPage, error)
	// FAQ lists the account's FAQ items with their vectors, oldest first.
	FAQ(ctx context.Context, accountID string) ([]knowledge.FAQItem, error)
	// Chunks lists the account's chunks with their vectors.
	Chunks(ctx context.Context, accountID string) ([]knowledge.StoredChunk, error)
}
