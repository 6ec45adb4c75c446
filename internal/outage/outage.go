// Package outage logs the failures of something tried again and again (a relay's pass, a sweep,
// a poll of Redis) the way an operator wants to read them during an outage: one line when it
// starts failing, with the error; a reminder at most once per interval while it keeps failing,
// saying how many failures were not logged; and one line when it works again.
package outage

import (
	"sync"
	"time"

	"go.uber.org/zap"
)

// Reminder is the least time between two lines about one cause that keeps failing.
const Reminder = time.Minute

// Clock tells the time (ports.Clock, the system clock of adapters/clock, satisfies it).
type Clock interface{ Now() time.Time }

// System is the operating system's clock, for packages that may not import adapters/clock.
var System Clock = systemClock{}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// Log logs the outages of named causes. Safe for concurrent use.
type Log struct {
	log   *zap.Logger
	clock Clock
	every time.Duration

	mu     sync.Mutex
	causes map[string]*state
}

// state is one cause that is failing.
type state struct {
	since      time.Time // first failure of the outage
	logged     time.Time // last line logged
	failures   int       // failures of the outage
	suppressed int       // failures not logged since the last line
}

// New returns a Log writing to log, reminding at most once every interval while a cause keeps
// failing. Lines carry no stack trace: an outage of a dependency is expected, not a bug.
func New(log *zap.Logger, clock Clock, every time.Duration) *Log {
	return &Log{log: log.WithOptions(zap.AddStacktrace(zap.FatalLevel)), clock: clock, every: every,
		causes: map[string]*state{}}
}

// Report records the outcome of one try of cause: Failed when err is not nil, else Succeeded.
func (l *Log) Report(cause string, err error) {
	if err != nil {
		l.Failed(cause, err)
		return
	}
	l.Succeeded(cause)
}

// Failed records a failure of cause. The first of an outage is logged as a warning with err;
// later ones are counted, and logged at most once every interval with the count of those not
// logged since.
func (l *Log) Failed(cause string, err error) {
	now := l.clock.Now()
	l.mu.Lock()
	s, ok := l.causes[cause]
	if !ok {
		l.causes[cause] = &state{since: now, logged: now, failures: 1}
		l.mu.Unlock()
		l.log.Warn(cause+": failing", zap.Error(err))
		return
	}
	s.failures++
	if now.Sub(s.logged) < l.every {
		s.suppressed++
		l.mu.Unlock()
		return
	}
	suppressed, since, failures := s.suppressed, s.since, s.failures
	s.logged, s.suppressed = now, 0
	l.mu.Unlock()
	l.log.Warn(cause+": still failing", zap.Error(err), zap.Duration("failing_for", now.Sub(since)),
		zap.Int("failures", failures), zap.Int("suppressed", suppressed))
}

// Succeeded records a success of cause: when cause was failing, its end is logged once.
func (l *Log) Succeeded(cause string) {
	now := l.clock.Now()
	l.mu.Lock()
	s, ok := l.causes[cause]
	if ok {
		delete(l.causes, cause)
	}
	l.mu.Unlock()
	if !ok {
		return
	}
	l.log.Info(cause+": back", zap.Duration("failed_for", now.Sub(s.since)), zap.Int("failures", s.failures))
}

// Failing reports whether cause is failing (failed and not succeeded since).
func (l *Log) Failing(cause string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.causes[cause]
	return ok
}
