package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain"
	kdomain "github.com/svcagent/svc/domain/knowledge"
)

// crawlKeepAlive is how often a crawl's event stream says it is alive while no page comes.
const crawlKeepAlive = 15 * time.Second

// crawlProgress is the crawl form with its progress: the same checks, limit and use case as
// crawl (knowledge.Brain.Crawl, its OnPage hook as MCP's crawl_site uses it), answered as
// server-sent events (text/event-stream) while the crawl runs. console.js posts the form here
// (with its CSRF token, so starting a crawl is as safe as the plain form, which still works
// without script) and shows each event:
//
//	event: page    data: {"read":3,"url":"…","text":"Read 3: …"}   one per page read
//	event: done    data: {"pages":5,"chunks":12,"text":"Done: …"}  the pages are stored
//	event: failed  data: {"text":"…"}                               nothing was stored
//	                     ({"text":"…","field":"url"} for the input console.js marks invalid)
//
// Leaving the page cancels the crawl, and then nothing is stored.
func (c *Console) crawlProgress(ctx *gin.Context) {
	acct := c.acct(ctx)
	langCode := c.lang(ctx)
	lang := catalog[langCode]
	words := view{Lang: langCode, msgs: lang}
	w := ctx.Writer
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(event string, data map[string]any) {
		b, err := json.Marshal(data)
		if err != nil {
			return
		}
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		w.Flush()
	}
	failed := func(err error) {
		e, ok := domain.AsError(err)
		switch {
		case ok && e.Code == domain.CodeCrawlFailed:
			send("failed", map[string]any{"text": words.T("brain.crawl_why", words.crawlReason(e))})
			return
		case ok && (e.Code == domain.CodeInvalidRequest || e.Code == domain.CodeInputTooLarge) && slices.Contains(crawlForm.inputs, inputOf(e.Field)):
			// As the form without script shows it: the reason, in the page's language, and the
			// input console.js marks.
			reason := view{Lang: langCode}.reason(&formState{Message: e.Message, Format: e.Format, Args: e.Args})
			send("failed", map[string]any{"text": lang["form.fix"] + " " + reason, "field": inputOf(e.Field)})
			return
		}
		_, msg := c.failure(ctx, err)
		send("failed", map[string]any{"text": lang[msg]})
	}
	req, err := c.crawlRequest(ctx, acct)
	if err != nil {
		failed(err)
		return
	}
	type page struct {
		read int
		url  string
	}
	// Every page read is queued (a crawl reads at most MaxCrawlPages), so the crawl never waits
	// on this stream.
	pages := make(chan page, kdomain.MaxCrawlPages+1)
	req.OnPage = func(read int, url string) {
		select {
		case pages <- page{read, url}:
		case <-ctx.Done():
		}
	}
	type outcome struct {
		out knowledge.CrawlOutcome
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		out, err := c.uc.Brain.Crawl(ctx, acct.ID, req)
		done <- outcome{out, err}
	}()
	sendPage := func(p page) {
		send("page", map[string]any{"read": p.read, "url": p.url, "text": words.T("brain.crawl_read", p.read, p.url)})
	}
	alive := time.NewTicker(crawlKeepAlive)
	defer alive.Stop()
	for {
		select {
		case p := <-pages:
			sendPage(p)
		case <-alive.C:
			fmt.Fprint(w, ": still reading\n\n")
			w.Flush()
		case o := <-done:
			// The crawl's last OnPage calls happened before it returned: send them first.
			for len(pages) > 0 {
				sendPage(<-pages)
			}
			if o.err != nil {
				failed(o.err)
				return
			}
			send("done", map[string]any{"pages": o.out.Pages, "chunks": o.out.Chunks,
				"text": words.T("brain.crawled", o.out.Pages, o.out.Chunks)})
			return
		}
	}
}
