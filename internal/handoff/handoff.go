// Package handoff groups the calls that arrive while a bound of writers is busy: the store's
// Postgres writers (the chat exchanges, the relay's holds) and the Redis rate limiter send the
// calls waiting for them together, one statement or one pipeline for the group.
package handoff

import "sync"

// Queue lets at most a bound of callers write at once, and hands the callers that arrive
// meanwhile to the next writer as one group: a caller arriving while a writer is free writes
// alone at once, so nothing waits when there is no load (no timer); the others wait, and when a
// writer is done the waiting ones (at most a group's bound) become the next group, written by the
// first of them. The zero Queue is ready for use.
type Queue[T any] struct {
	mu      sync.Mutex
	waiting []waiter[T]
	writers int // callers or groups being written
}

// waiter is a caller waiting for its group: done receives the group when the caller is to write
// it (its first), or nil once the group it was in was written by another.
type waiter[T any] struct {
	call T
	done chan *Group[T]
}

// Group is the callers one writer writes, the writer first (Calls[0]), and the channels of the
// others.
type Group[T any] struct {
	Calls  []T
	others []chan *Group[T]
}

// Enter lets call in: alone (g nil, write true) when fewer than writers are writing; else it waits
// and is to write g (write true, call first in g.Calls), or its group was written by another
// (write false). A caller that is to write must call Leave once it wrote.
func (h *Queue[T]) Enter(call T, writers int) (g *Group[T], write bool) {
	h.mu.Lock()
	if h.writers < writers {
		h.writers++
		h.mu.Unlock()
		return nil, true // the queue is empty whenever a writer is free
	}
	w := waiter[T]{call: call, done: make(chan *Group[T], 1)}
	h.waiting = append(h.waiting, w)
	h.mu.Unlock()
	g = <-w.done
	return g, g != nil
}

// Leave is called by a writer once it wrote (g: its group, nil when it wrote alone): it hands the
// waiting callers, at most max, as the next group to the first of them, or frees its place; then
// it tells the others of g that their group was written.
func (h *Queue[T]) Leave(g *Group[T], max int) {
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
		ng := &Group[T]{Calls: make([]T, len(next)), others: make([]chan *Group[T], 0, len(next)-1)}
		for i, w := range next {
			ng.Calls[i] = w.call
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
