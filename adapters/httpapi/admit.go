package httpapi

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain"
)

// admit.go: the bound on the chat replies worked on at once (POST /v1/chat, POST
// /v1/client/chat, the widget's POST …/chat). A request waits for a place once it has read its
// body and before anything else: its key, its limits, the agent's reply and its store writes. So a
// process that falls behind keeps its backlog as requests that hold a small goroutine and their
// few bytes of body, not as replies half made (their deeper stacks, decoded bodies, the engine's
// and the store's work) all waiting for the one SQLite writer or the database at once. The body is
// read first because Go's HTTP/1 server notices a closed connection (and ends the request's
// context) only once the body has been read: a client that gives up then frees its place.

// chatWorkPerCore is how many chat replies are worked on at once per core (GOMAXPROCS) when
// Options.ChatWork is 0: enough to keep the cores busy while some wait on the database.
const chatWorkPerCore = 4

// ctxReadBody holds the body admitChat read (a readBody), for decodeJSON.
const ctxReadBody = "svc.read_body"

// ctxPlace holds the request's place among the chat replies worked on (a *place).
const ctxPlace = "svc.chat_place"

type readBody struct {
	body []byte
	err  error // the refusal of a body that could not be read, answered where it is decoded
}

// newChatWork returns the places of the chat replies worked on at once: n, or chatWorkPerCore
// per core when n is 0.
func newChatWork(n int) chan struct{} {
	if n <= 0 {
		n = chatWorkPerCore * runtime.GOMAXPROCS(0)
	}
	return make(chan struct{}, n)
}

// place is a request's place among the chat replies worked on; leave frees it once.
type place struct {
	work chan struct{}
	left atomic.Bool
}

func (p *place) leave() {
	if p.left.CompareAndSwap(false, true) {
		<-p.work
	}
}

// admitChat reads the body, then waits for a place among the chat replies worked on (in the
// order the requests came: a channel's waiting senders are served first in, first out), or for
// the request's end (the client left, the server stops): 503 then. The place is left when the
// request is answered, or earlier when it only waits for a reply made elsewhere (leaveOf).
func (s *Server) admitChat(c *gin.Context) {
	body, err := apijson.ReadBody(c.Request.Body)
	c.Set(ctxReadBody, readBody{body: body, err: err})
	select {
	case s.chatWork <- struct{}{}:
	case <-c.Request.Context().Done():
		s.fail(c, &domain.Error{Code: domain.CodeServiceUnavailable, Message: "the request ended while it waited for its turn",
			RetryAfter: time.Second})
		return
	}
	p := &place{work: s.chatWork}
	c.Set(ctxPlace, p)
	defer p.leave()
	c.Next()
}

// leaveOf returns the function that leaves the request's place among the chat replies worked
// on (chat.Request.Leave), or nil on a route without one.
func leaveOf(c *gin.Context) func() {
	v, ok := c.Get(ctxPlace)
	if !ok {
		return nil
	}
	p, _ := v.(*place)
	return p.leave
}
