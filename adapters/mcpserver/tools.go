package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/domain/ratelimit"
)

// Every tool is the REST route it stands for, spoken over MCP: its arguments are read as the
// route reads its body (or its path and query parameters), by the same code (apijson), so that a
// wrong name, type or value fails as the route fails; its result is the route's response body,
// from the same code, with an output schema generated from that body's type.

// scope says which plans a tool is open to, as the REST route's group does.
type scope int

const (
	anyPlan     scope = iota // the routes every key reaches (GET /v1/account, GET /v1/usage)
	webChannels              // the routes of the web channels (402 plan_required without them)
)

// argsReader reads a tool's arguments, a JSON object, into what its handler takes.
type argsReader[In any] func(args []byte) (In, error)

// body reads the arguments as the route reads its JSON body: strictly (apijson.Unmarshal).
func body[In any](args []byte) (In, error) {
	var in In
	err := apijson.Unmarshal(args, &in, true)
	return in, err
}

// params reads the arguments as the route reads its path and query parameters names.
func params(names ...string) argsReader[apijson.Params] {
	return func(args []byte) (apijson.Params, error) { return apijson.ParamsOf(args, names...) }
}

// handler runs one tool for the key's principal p.
type handler[In, Out any] func(ctx context.Context, p accounts.Principal, in In) (Out, error)

// add registers a tool: its input schema is Schema's, its output schema Out's. The call is
// checked as the REST route checks its request (the key's plan, then the arguments), and an error
// becomes a tool result with isError and the REST error's object, never a protocol error.
func add[Schema, In, Out any](s *Server, srv *mcp.Server, t *mcp.Tool, sc scope, read argsReader[In], h handler[In, Out]) {
	in := schemaOf[Schema]()
	in.Required = required[t.Name]
	t.InputSchema, t.OutputSchema = in, schemaOf[Out]()
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p, err := principal(req)
		if err == nil && sc == webChannels {
			err = s.uc.Access.RequireWebChannels(p.Account)
		}
		var in In
		if err == nil {
			in, err = read(arguments(req.Params.Arguments))
		}
		var out Out
		if err == nil {
			out, err = h(context.WithValue(ctx, callKey{}, req), p, in)
		}
		if err != nil {
			return s.failed(err), nil
		}
		return s.result(out)
	})
}

// required names, per tool, the arguments its route cannot do without, for the input schema's
// "required": the schemas are generated from the routes' request types, whose fields are all
// optional to the decoder (the route names a missing one in its 400), but an MCP client and the
// model behind it read "required" to know what a call must carry. A tool not named here needs
// none (update_agent and update_appearance change what they are given; assistant takes message
// or approve).
var required = map[string][]string{
	"search_knowledge":  {"query"},
	"add_faq":           {"items"},
	"replace_pages":     {"pages"},
	"crawl_site":        {"url"},
	"get_conversation":  {"conversation_id"},
	"preview_reply":     {"message"},
	"report_conversion": {"kind"},
	"test_webhook":      {"webhook_id"},
}

// arguments are a call's arguments; none are an empty object, as an empty body is not.
func arguments(raw json.RawMessage) []byte {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return []byte("{}")
	}
	return raw
}

// result is a tool's result out: the REST body, as structured content and as its text.
func (s *Server) result(out any) (*mcp.CallToolResult, error) {
	text, err := json.Marshal(out)
	if err != nil {
		return s.failed(fmt.Errorf("mcp result: %w", err)), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: json.RawMessage(text)}, nil
}

// schemaOf is the JSON schema of T, for the tools' input and output schemas. The types are the
// service's own: a type it cannot describe is a defect found when the server is built.
func schemaOf[T any]() *jsonschema.Schema {
	sch, err := jsonschema.For[T](&jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: no JSON schema of %v: %v", reflect.TypeFor[T](), err))
	}
	return sch
}

type callKey struct{}

// call is the tools/call request of ctx, the context add gives a handler.
func call(ctx context.Context) *mcp.CallToolRequest {
	req, _ := ctx.Value(callKey{}).(*mcp.CallToolRequest)
	return req
}

// progress returns what tells the caller of a crawl_site call of each page read, as MCP progress
// notifications, when the call asked for them (a progress token); nil when it did not.
func progress(ctx context.Context) func(read int, url string) {
	req := call(ctx)
	if req == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return func(read int, url string) {
		// A notification that cannot be sent is the client's loss only: the crawl goes on.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
			Progress: float64(read), Message: "read " + url})
	}
}

// limit counts a call against the account's limit l (as its plan sets it), as the REST route does.
func (s *Server) limit(ctx context.Context, plan, accountID string, l ratelimit.Limit) error {
	_, err := s.uc.Access.Limit(ctx, plan, accountID, l)
	return err
}

func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}
}

func writes(title string, destructive, idempotent, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: new(destructive), IdempotentHint: idempotent, OpenWorldHint: new(openWorld)}
}

// noInput is the arguments of a tool that takes none: an empty object.
type noInput struct{}

// Names of the tools, in the order tools/list gives them.
var Names = []string{"get_account", "get_agent", "update_agent", "update_appearance", "get_knowledge", "search_knowledge",
	"add_faq", "replace_pages", "crawl_site", "list_conversations", "get_conversation", "preview_reply", "report_conversion",
	"list_conversions", "list_webhooks", "test_webhook", "get_usage", "assistant"}

func (s *Server) addTools(srv *mcp.Server) {
	s.accountTools(srv)
	s.knowledgeTools(srv)
	s.conversationTools(srv)
	s.businessTools(srv)
}
