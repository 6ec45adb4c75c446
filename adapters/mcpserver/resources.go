package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/domain"
)

// The resources a client can attach as context: the Brain's FAQ and pages, and conversations.
const (
	faqURI          = "svc://knowledge/faq"
	pagesPrefix     = "svc://knowledge/pages/"
	conversationsTo = "svc://conversations/"
)

// reader reads one resource for the key's principal p.
type reader func(ctx context.Context, p accounts.Principal, uri string) (any, error)

// resource wraps a reader: the principal, the plan check of the web channels (every resource is
// read from their routes), and the answer as JSON. A resource that is not there, or another
// account's, is the protocol's resource-not-found error.
func (s *Server) resource(read reader) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		p, err := principalOf(req.Extra)
		if err != nil {
			return nil, err
		}
		if err = s.uc.Access.RequireWebChannels(p.Account); err != nil {
			return nil, err
		}
		out, err := read(ctx, p, uri)
		if domain.IsNotFound(err) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if err != nil {
			if e, ok := domain.AsError(err); ok && e.Code != domain.CodeInternal {
				return nil, e
			}
			s.log.Error("mcp resource failed", zap.Error(err))
			return nil, fmt.Errorf("internal error")
		}
		text, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(text)}}}, nil
	}
}

type pageText struct {
	URL      string   `json:"url"`
	Title    string   `json:"title"`
	Source   string   `json:"source"`
	Passages []string `json:"passages"`
}

func (s *Server) addResources(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{URI: faqURI, Name: "faq", Title: "FAQ", MIMEType: "application/json",
		Description: "The questions and answers the agent knows."},
		s.resource(func(ctx context.Context, p accounts.Principal, _ string) (any, error) {
			o, err := s.uc.Brain.Overview(ctx, p.Account.ID)
			if err != nil {
				return nil, err
			}
			return map[string]any{"faq": apijson.KnowledgeOf(o).FAQ}, nil
		}))
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: pagesPrefix + "{n}", Name: "page", Title: "Knowledge page",
		MIMEType: "application/json", Description: "Page n (from 1, in get_knowledge's order) of the agent's knowledge, with the passages the agent reads."},
		s.resource(func(ctx context.Context, p accounts.Principal, uri string) (any, error) {
			n, err := strconv.Atoi(strings.TrimPrefix(uri, pagesPrefix))
			if err != nil {
				return nil, domain.NotFound("page")
			}
			page, chunks, err := s.uc.Brain.Page(ctx, p.Account.ID, n)
			if err != nil {
				return nil, err
			}
			out := pageText{URL: page.Page.URL, Title: page.Page.Title, Source: string(page.Source), Passages: []string{}}
			for _, c := range chunks {
				out.Passages = append(out.Passages, c.Text)
			}
			return out, nil
		}))
	// {+id}: an id may hold ':' and '@' (whatsapp:<wa_id>, a caller's key), which a simple {id}
	// would neither match nor let a client expand as they are; a percent-encoded id is decoded.
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: conversationsTo + "{+id}", Name: "conversation", Title: "Conversation",
		MIMEType: "application/json", Description: "A conversation with all its messages, by id (from list_conversations)."},
		s.resource(func(ctx context.Context, p accounts.Principal, uri string) (any, error) {
			id, err := url.PathUnescape(strings.TrimPrefix(uri, conversationsTo))
			if err != nil {
				return nil, domain.NotFound("conversation")
			}
			t, err := s.uc.Chat.AnyConversation(ctx, p.Account.ID, id)
			if err != nil {
				return nil, err
			}
			return apijson.ThreadOf(t), nil
		}))
}
