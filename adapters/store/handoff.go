package store

import "sync"

// handoff lets at most a bound of callers write at once, and hands the callers that arrive
// meanwhile to the next writer as one group (pggroup.go's exchanges, pghold.go's charges): a
// caller arriving while a writer is free writes alone at once, so nothing waits when there is no
// load; the others wait, and when a writer is done the waiting ones (at most a group's bound)
// become the next group, written by the first of them.
type handoff[T any] struct {
	mu      sync.Mutex
	waiting []waiter[T]
	writers int // callers or groups being written
}

// waiter is a caller waiting for its group: done receives the group when the caller is to write
// it (its first), or nil once the group it was in was written by another.
type waiter[T any] struct {
	call T
	done chan *group[T]
}

// group is the callers one writer writes, the writer first, and the channels of the others.
type group[T any] struct {
	calls  []T
	others []chan *group[T]
}

// enter lets call in: alone (g nil, write true) when fewer than writers are writing; else it waits
// and is to write g (write true, call first in g.calls), or its group was written by another
// (write false).
func (h *handoff[T]) enter(call T, writers int) (g *group[T], write bool) {
	h.mu.Lock()
	if h.writers < writers {
		h.writers++
		h.mu.Unlock()
		return nil, true // the queue is empty whenever a writer is free
	}
	w := waiter[T]{call: call, done: make(chan *group[T], 1)}
	h.waiting = append(h.waiting, w)
	h.mu.Unlock()
	g = <-w.done
	return g, g != nil
}

// leave is called by a writer once it wrote (g: its group, nil when it wrote alone): it hands the
// waiting callers, at most max, as the next group to the first of them, or frees its place; then
// it tells the others of g that their group was written.
func (h *handoff[T]) leave(g *group[T], max int) {
	h.mu.Lock()
	var next []waiter[T]
	if len(h.waiting) > 0 {
		n := min(len(h.waiting), max)
		next = h.waiting[:n:n]
		h.waiting = h.waiting[n:]
	} else {
		h.writers--
	}
	h.mu.Unlock()
	if next != nil {
		ng := &group[T]{calls: make([]T, len(next)), others: make([]chan *group[T], 0, len(next)-1)}
		for i, w := range next {
			ng.calls[i] = w.call
			if i > 0 {
				ng.others = append(ng.others, w.done)
			}
		}
		next[0].done <- ng
	}
	if g != nil {
		for _, done := range g.others {
			done <- nil
		}
	}
}
