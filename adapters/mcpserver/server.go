// Package mcpserver is the agent-tool protocol adapter: the Model Context Protocol server at
// /mcp, over the Streamable HTTP transport of the official Go SDK. It is a driving adapter beside
// httpapi: httpapi authenticates the API key and counts the request against the per-key limit
// exactly as for /v1, then hands the request and its principal to Serve; every tool calls the
// same app use cases as the REST routes, with the same checks, limits and errors.
package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/google/wire"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/profiles"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/domain"
)

// Set provides the MCP adapter.
var Set = wire.NewSet(New, wire.Struct(new(UseCases), "*"))

// UseCases are the application's use cases the tools call.
type UseCases struct {
	Access      *accounts.Access
	Overviews   *accounts.Overviews
	Profiles    *profiles.Service
	Brain       *knowledge.Brain
	Chat        *chat.Agent
	Webhooks    *webhooks.Manager
	Conversions *conversions.Service
	Compat      *compat.Service
	Assistant   *assistant.Service
	Developers  *accounts.Developers
}

// Name is the server's name in the initialize handshake.
const Name = "svc"

// sessionIdle is how long an idle MCP session is kept.
const sessionIdle = 30 * time.Minute

// instructions tell the client's model what the server is for.
const instructions = "svc runs a business's customer agent. These tools read and change the account of the API key: " +
	"the agent's profile and appearance, its knowledge (pages, FAQ, crawled site), its conversations, conversions, " +
	"webhooks and usage, and the svc assistant, which carries out instructions in plain words. " +
	"A tool error carries the same code, message and param as the REST API's error."

// Options are the server's settings.
type Options struct {
	UpgradeURL string // where plan and limit errors send the owner, as the REST API's upgrade_url
}

// Server serves MCP for authenticated API keys.
type Server struct {
	uc      UseCases
	opts    Options
	log     *zap.Logger
	handler http.Handler
}

// New returns a Server with every tool in place.
func New(uc UseCases, opts Options, log *zap.Logger) *Server {
	s := &Server{uc: uc, opts: opts, log: log}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "svc customer agent", Version: "1"},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{}})
	srv.AddReceivingMiddleware(s.developerBonus)
	s.addTools(srv)
	s.addResources(srv)
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: sessionIdle})
	s.handler = jsonErrors(auth.RequireBearerToken(verify, nil)(streamable))
	return s
}

type principalKey struct{}

// Serve answers an MCP request of the key whose principal is p, authenticated by the caller.
func (s *Server) Serve(w http.ResponseWriter, r *http.Request, p accounts.Principal) {
	s.handler.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
}

// verify hands the SDK the principal Serve was given as the request's token information: the
// SDK passes it to the tools, and binds each session to the key that opened it.
func verify(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
	p, ok := ctx.Value(principalKey{}).(accounts.Principal)
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: p.KeyID, Expiration: time.Now().Add(time.Hour),
		Extra: map[string]any{"principal": p}}, nil
}

// principal returns the principal of the key that made the call.
func principal(req *mcp.CallToolRequest) (accounts.Principal, error) {
	return principalOf(req.Extra)
}

// principalOf returns the principal of the key that sent a message (see verify).
func principalOf(extra *mcp.RequestExtra) (accounts.Principal, error) {
	if extra != nil && extra.TokenInfo != nil {
		if p, ok := extra.TokenInfo.Extra["principal"].(accounts.Principal); ok {
			return p, nil
		}
	}
	return accounts.Principal{}, domain.Errorf(domain.CodeUnauthorized, "missing API key")
}

// developerBonus records, once an initialize has been answered, that the key's account is
// connected through MCP (accounts.Developers), before the client gets the answer: from then on
// the account has the developer bonus. A failure to record it is logged; the session goes on.
func (s *Server) developerBonus(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "initialize" {
			return res, err
		}
		p, perr := principalOf(req.GetExtra())
		if perr != nil {
			return res, err
		}
		client := ""
		if params, ok := req.GetParams().(*mcp.InitializeParams); ok && params != nil && params.ClientInfo != nil {
			client = strings.TrimSpace(params.ClientInfo.Name + " " + params.ClientInfo.Version)
		}
		if _, cerr := s.uc.Developers.Connected(ctx, p.Account.ID, client); cerr != nil {
			s.log.Error("mcp: developer bonus not recorded", zap.String("account_id", p.Account.ID), zap.Error(cerr))
		}
		return res, err
	}
}

// failed turns err into a tool result with isError set and the REST error's envelope as its
// text. It carries no structured content: every tool has an outputSchema (its REST answer), and
// clients check any structured content against it, a tool error's too (the official TypeScript
// SDK's Client.callTool throws a protocol error -32602 in place of the result), so the envelope
// would turn the refusal into a failure to call. Errors that carry no code are ours: logged here,
// once.
func (s *Server) failed(err error) *mcp.CallToolResult {
	e, ok := domain.AsError(err)
	if !ok || e.Code == domain.CodeInternal {
		s.log.Error("mcp tool failed", zap.Error(err))
		e = &domain.Error{Code: domain.CodeInternal, Message: "internal error"}
	}
	env := apijson.ErrorEnvelope{Error: apijson.ErrorOf(e, s.opts.UpgradeURL)}
	text, _ := json.Marshal(env)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
}
