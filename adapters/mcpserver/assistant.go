package mcpserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	assistantapp "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/ratelimit"
)

// The assistant tool is POST /v1/assistant. When a reply needs the person's approval and the
// client can ask its user (the elicitation capability), the tool asks them, in the client, to
// confirm the exact actions of the approval; a confirmation runs the approval as POST
// /v1/assistant with approve does, and the tool gives that reply. Declined, dismissed, or asked
// of a client that cannot ask, the approval stays pending and the reply carries its id.

func (s *Server) assistantTool(srv *mcp.Server) {
	add[apijson.AssistantIn](s, srv, &mcp.Tool{Name: "assistant", Annotations: writes("svc assistant", true, false, true),
		Description: "Ask the svc assistant (mode ask) or have it act (mode do), as POST /v1/assistant: it reads and changes the account, and drafts or sends messages. " +
			"Actions that need the person's approval come back as status needs_approval with an approval id and the exact actions; " +
			"where this client can ask its user, the user is asked to confirm them here and, when they do, the actions run at once. " +
			"Otherwise show the actions to the person, and only after they confirm call again with approve set to that id."},
		webChannels, body[apijson.AssistantIn], func(ctx context.Context, p accounts.Principal, in apijson.AssistantIn) (apijson.AssistantReply, error) {
			r, err := s.ask(ctx, p, in.Request())
			if err != nil || r.Status != assistant.StatusNeedsApproval || r.Approval == nil || !s.confirmed(ctx, r) {
				return apijson.AssistantReplyOf(r), err
			}
			id := r.Approval.ID
			approved, err := s.ask(ctx, p, assistant.Request{Approve: &id})
			return apijson.AssistantReplyOf(approved), err
		})
}

// ask runs one assistant request as the REST route does: checked, counted against the account's
// assistant limit, then handled.
func (s *Server) ask(ctx context.Context, p accounts.Principal, req assistant.Request) (assistantapp.Reply, error) {
	if _, _, err := req.Validate(); err != nil {
		return assistantapp.Reply{}, err
	}
	if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.Assistant); err != nil {
		return assistantapp.Reply{}, err
	}
	return s.uc.Assistant.Handle(ctx, assistantapp.Caller{Account: p.Account, SendWithoutApproval: p.SendWithoutApproval}, req)
}

// confirmed asks the client's user to confirm the actions of r's approval (MCP elicitation), and
// reports whether they accepted. A client without the capability is not asked; one that fails
// to answer has not confirmed.
func (s *Server) confirmed(ctx context.Context, r assistantapp.Reply) bool {
	req := call(ctx)
	if req == nil || req.Session == nil {
		return false
	}
	init := req.Session.InitializeParams()
	if init == nil || init.Capabilities == nil || init.Capabilities.Elicitation == nil {
		return false
	}
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: confirmation(r),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}})
	if err != nil {
		s.log.Warn("mcp: approval not confirmed: the client did not answer", zap.String("approval_id", r.Approval.ID), zap.Error(err))
		return false
	}
	return res.Action == "accept"
}

// confirmation is the question put to the person: the exact actions, one a line, as the REST
// API gives them.
func confirmation(r assistantapp.Reply) string {
	var b strings.Builder
	b.WriteString("The svc assistant asks your approval (" + r.Approval.ID + ") to carry out these actions. Accept to run them now; decline to leave them pending.\n")
	for _, a := range r.Approval.Actions {
		line, _ := json.Marshal(apijson.AssistantActionOf(a))
		b.WriteString("- ")
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}
