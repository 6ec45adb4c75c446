// Package post sends the JSON requests of the messaging apps' HTTP APIs and reads their answers
// into the domain's terms: a *messaging.SendError for every refusal, never the request URL
// (Telegram's carries the bot token) nor a credential in an error.
package post

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/internal/safehttp"
)

// maxAnswer caps the answer body read.
const maxAnswer = 1 << 20

// Timeout bounds one request to an app's API.
const Timeout = 10 * time.Second

// Explain reads an app's refusal from its answer's body: the reason, and the wait it asks for.
type Explain func(body []byte) (reason string, retryAfter time.Duration)

// API is one app's HTTP API: its address and the SSRF-guarded client (the timeout, no redirects).
type API struct {
	app     messaging.App
	base    string
	client  *http.Client
	explain Explain
}

// NewAPI returns the API of app at base (defaultBase when empty), whose refusals explain reads.
func NewAPI(app messaging.App, base, defaultBase string, allowPrivate bool, explain Explain) *API {
	base = strings.TrimRight(base, "/")
	if base == "" {
		base = defaultBase
	}
	return &API{app: app, base: base, client: safehttp.New(safehttp.Options{AllowPrivate: allowPrivate, Timeout: Timeout}), explain: explain}
}

// Answer is a 2xx answer's body.
type Answer []byte

// Post posts body as JSON to the API's path with the bearer token (none when empty) and returns
// the body of a 2xx answer. Any other answer is a *messaging.SendError with its status, the wait
// its Retry-After header (or its body) asks for and the reason its body gives.
func (a *API) Post(ctx context.Context, path, bearer string, body any) (Answer, error) {
	app, c, target := a.app, a.client, a.base+path
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("%s: encode request: %w", app, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(b))
	if err != nil {
		return nil, &messaging.SendError{App: app, Reason: "bad API address"}
	}
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := c.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its text holds the URL, and Telegram's URL holds the token
			err = ue.Err
		}
		return nil, &messaging.SendError{App: app, Reason: err.Error()}
	}
	defer func() { _ = resp.Body.Close() }()
	answer, err := safehttp.ReadLimited(resp.Body, maxAnswer)
	if err != nil && resp.StatusCode/100 == 2 {
		return nil, &messaging.SendError{App: app, Reason: "reading the answer: " + err.Error()}
	}
	if resp.StatusCode/100 == 2 {
		return answer, nil
	}
	reason, wait := a.explain(answer)
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 && wait == 0 {
		wait = time.Duration(s) * time.Second
	}
	return nil, &messaging.SendError{App: app, Status: resp.StatusCode, RetryAfter: wait, Reason: reason}
}

// Cut returns text cut to max characters, the cut marked with an ellipsis.
func Cut(text string, limit int) string {
	if utf8.RuneCountInString(text) <= limit {
		return text
	}
	return string([]rune(text)[:limit-1]) + "…"
}
