package accounts

import (
	"context"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/svcagent/svc/ports"
)

// TouchEvery is how often, at most, one process writes the last use of one API key: the
// console's "last used" is to the minute.
const TouchEvery = time.Minute

// touchTimeout bounds one write of last uses.
const touchTimeout = 10 * time.Second

// touchBatch is the most keys one write names (well within both stores' limits on a statement's
// parameters).
const touchBatch = 500

// touchDelay is how long the writer waits after the first use it was handed before it writes:
// the keys first used in that time are written together, and the write does not run beside the
// request that handed it the key. Written at once, it did: on SQLite it took the one writer's
// turn just before that request's charge, which waited for it (a key's first request in a
// minute, one client at a time, took 0.11–0.14 ms longer than without the write), and each key
// took a statement and a commit of its own. The console shows a key's last use to the minute.
const touchDelay = time.Second

// keyUses writes when API keys were last used, off the request path: Note only looks at memory
// (at most one write a minute per key and process) and hands the key to a single writer
// goroutine, which runs only while there are uses to write and, touchDelay after the first of
// them, writes every key noted meanwhile in one Keys.Touch. A failed write is dropped, and its
// keys are written at their next use.
type keyUses struct {
	keys  ports.Keys
	clock ports.Clock
	delay time.Duration // touchDelay; tests shorten it

	mu       sync.Mutex
	written  *lru.Cache[string, time.Time] // by key id: when its last write was asked for
	pending  []string                      // key ids noted since the last write began
	latest   time.Time                     // the latest use among pending
	flushing bool                          // the writer goroutine runs
}

func newKeyUses(k ports.Keys, c ports.Clock) *keyUses {
	written, err := lru.New[string, time.Time](knownKeys)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &keyUses{keys: k, clock: c, delay: touchDelay, written: written}
}

// Note records that keyID was used now. It never waits on the store.
func (u *keyUses) Note(keyID string) {
	now := u.clock.Now().UTC()
	u.mu.Lock()
	defer u.mu.Unlock()
	if last, ok := u.written.Get(keyID); ok && now.Sub(last) < TouchEvery {
		return
	}
	u.written.Add(keyID, now)
	u.pending = append(u.pending, keyID)
	if now.After(u.latest) {
		u.latest = now
	}
	if !u.flushing {
		u.flushing = true
		time.AfterFunc(u.delay, u.flush)
	}
}

// flush writes the pending uses, batch after batch while a whole batch is pending; when fewer
// are left (noted during the last write), it writes them touchDelay later, and stops when none
// are.
func (u *keyUses) flush() {
	for {
		u.mu.Lock()
		ids, at := u.pending, u.latest
		if len(ids) > touchBatch {
			// The rest waits for the next write, with the same latest time.
			ids, u.pending = ids[:touchBatch:touchBatch], ids[touchBatch:]
		} else {
			u.pending, u.latest = nil, time.Time{}
		}
		if len(ids) == 0 {
			u.flushing = false
			u.mu.Unlock()
			return
		}
		u.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), touchTimeout)
		err := u.keys.Touch(ctx, at, ids)
		cancel()
		u.mu.Lock()
		if err != nil {
			for _, id := range ids {
				if last, ok := u.written.Peek(id); ok && !last.After(at) {
					u.written.Remove(id)
				}
			}
		}
		switch rest := len(u.pending); {
		case rest == 0:
			u.flushing = false
		case rest < touchBatch: // noted during the write: written together, touchDelay later
			time.AfterFunc(u.delay, u.flush)
		default:
			u.mu.Unlock()
			continue
		}
		u.mu.Unlock()
		return
	}
}
