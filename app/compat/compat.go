// Package compat holds the use cases of the model-compatible endpoints (spec part 4.8): a reply
// in the chat-completions or Responses form from model svc (a general model: the caller's
// conversation goes to the upstream as it is) or svc-assistant (the account's own assistant,
// answering only, from the owner's records, the business profile and the Brain), embeddings,
// and the usage statement with its labels. Each reply and each embeddings request costs 1
// interaction, charged only when it succeeded.
package compat

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

// The model names of the interface.
const (
	General    = "svc"
	Assistant  = "svc-assistant"
	Embeddings = "svc-embeddings"
)

// Limits of spec part 8.
const (
	MaxInputChars     = 32000 // text per request: messages, tool definitions, tool-call arguments
	MaxImages         = 4     // images per request
	MaxReplyTokens    = 2000  // a reply; a higher max_tokens is reduced to this
	MaxEmbeddingTexts = 256
	MaxEmbeddingChars = 32000
)

// searchHits is how many Brain matches svc-assistant reads for a question (a model upstream is
// given more, up to knowledge.ContextChars: conversation.Turn.Context).
const searchHits = 5

// Ledger holds interactions while a reply is made: kept when it succeeds, released when it
// fails.
type Ledger interface {
	Hold(ctx context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Hold, error)
	Keep(ctx context.Context, acct account.Account, h ledger.Hold) error
	Release(ctx context.Context, h ledger.Hold) error
}

// Profiles reads the account's agent profile.
type Profiles interface {
	Get(ctx context.Context, accountID string) (profile.Profile, error)
}

// Brain searches an account's knowledge.
type Brain interface {
	// SearchContext ranks the Brain whose state (State) the caller read for query: at most k
	// hits, and the passages a model upstream is given, those hits first, up to budget characters.
	SearchContext(ctx context.Context, accountID string, state knowledge.State, query string, k, budget int) (hits, passages []knowledge.Hit, err error)
	State(ctx context.Context, accountID string) (knowledge.State, error)
}

// Owner is the account owner's own assistant (spec 4.7: app/assistant), as svc-assistant
// answers: it only answers, never acts.
type Owner interface {
	// Answer answers message as the owner's assistant does in mode ask, when it reads it as a
	// question about the owner's records or an instruction to act (which it does not carry out),
	// after the conversation's earlier turns (history, oldest first: an answer to its question
	// for a missing detail completes the instruction); ok is false for any other message.
	// Nothing is charged.
	Answer(ctx context.Context, acct account.Account, prof profile.Profile, history []assistant.Turn, message string,
		now time.Time) (text string, ok bool, err error)
	// Records is what a model is told of the owner's latest records.
	Records(ctx context.Context, accountID string) string
}

// Tokenizer counts tokens as the models do.
type Tokenizer interface {
	// Count returns the number of tokens of text.
	Count(text string) int
	// Truncate returns the longest start of text of at most n tokens, and whether it cut.
	Truncate(text string, n int) (string, bool)
	// Decode turns token ids (clients may send them as embeddings input) into text.
	Decode(ids []int) (string, error)
}

// Deps are the Service's collaborators.
type Deps struct {
	// Upstream is the OpenAI-compatible model; nil when none is configured (SVC_MODEL_BASE_URL).
	Upstream ports.ChatModel
	// Engine is the built-in reply engine: svc-assistant without an upstream.
	Engine ports.Replier
	// Embedder makes the vectors of POST /v1/embeddings: the upstream's, or the built-in one.
	Embedder ports.Embedder
	Tokens   Tokenizer
	Ledger   Ledger
	Profiles Profiles
	Brain    Brain
	Usage    ports.Usage
	Clock    ports.Clock
	// Owner is the owner's assistant, whose knowledge of the owner's records svc-assistant has.
	Owner Owner
}

// Options tune the Service.
type Options struct {
	// UpstreamModel names the upstream model that serves svc and svc-assistant ("" for the
	// upstream client's default).
	UpstreamModel string
}

// Service runs the model-compatible endpoints.
type Service struct {
	d    Deps
	opts Options
}

// New returns a Service.
func New(d Deps, opts Options) *Service {
	return &Service{d: d, opts: opts}
}

// Caller is who asks: the key's account, its interactions as they stood when the key was
// checked (a request the account cannot pay for is refused before the upstream is asked), and
// the labels its charges carry in the statement.
type Caller struct {
	Account account.Account
	Usage   ledger.Usage
	Labels  ledger.Labels
	// Early is the interaction held for this request before it was read (Service.HoldEarly), or
	// nil: the reply whose Chat.ID is its Ref uses it instead of holding one.
	Early *Early
}

// Chat asks for one model reply.
type Chat struct {
	// ID names the reply (chatcmpl-…, resp_…); it is the charge's reference.
	ID string
	// Model is the name asked for: svc-assistant, or anything else for svc ("" too).
	Model string
	// Request is the conversation and its settings, as the caller sent them; Request.Model is
	// not used.
	Request model.Request
}

// Reply is a model reply that was made and charged.
type Reply struct {
	ID           string
	Model        string // the name to report: the one asked for, or svc
	Created      time.Time
	Message      model.Message
	FinishReason string
	Usage        model.Usage
	Interactions ledger.Usage
	Logprobs     []byte // the upstream's, as it came (model.Response.Logprobs)
}

// Listed is a model of GET /v1/models.
type Listed struct {
	ID      string
	Created time.Time
}

// since is when this service's model names were introduced: the creation time models report.
var since = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

// Catalogue returns the models this service serves, in the order of GET /v1/models.
func Catalogue() []Listed {
	return []Listed{{ID: General, Created: since}, {ID: Assistant, Created: since}, {ID: Embeddings, Created: since}}
}

// Find returns the model of the catalogue named id; not_found when there is none.
func Find(id string) (Listed, error) {
	for _, m := range Catalogue() {
		if m.ID == id {
			return m, nil
		}
	}
	return Listed{}, domain.NotFound("model")
}

// IsAssistant reports whether a model name asks for svc-assistant.
func IsAssistant(name string) bool { return name == Assistant }

// ReportedModel is the model name a reply reports: svc-assistant when that was asked for, else
// svc, whatever other name was sent (spec 4.8: any other model name is answered by svc).
func ReportedModel(name string) string {
	if IsAssistant(name) {
		return Assistant
	}
	return General
}
