// Package httpapi is the HTTP adapter: the gin router, middleware, handlers, the request and
// response types, and the one mapping of error codes to HTTP statuses.
//
// server.go holds the one table of routes; each feature has a file of its own with its handlers
// and its request and response types (account.go, agent.go, knowledge.go, chat.go, sessions.go,
// webhooks.go, conversions.go, notifications.go, usage.go, ops.go, widget.go, and the OpenAI-compatible
// compat*.go); middleware.go, bind.go and errors.go are what every route shares. The bodies the
// MCP tools share with their routes (requests, responses, the error object) and the strict
// reading of a body are in adapters/apijson. A request body that decodeJSON reads strictly has a
// named type (beside its handler, or in apijson), listed in fuzz_test.go's strictRequests so that
// one test and one fuzz target go over each.
package httpapi

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/messaging"
	"github.com/svcagent/svc/app/notifications"
	"github.com/svcagent/svc/app/plugins"
	"github.com/svcagent/svc/app/profiles"
	"github.com/svcagent/svc/app/sessions"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ratelimit"
)

// Version is the API version of the interface (spec part 9).
const Version = "2026-09-24"

// Set provides the HTTP adapter.
var Set = wire.NewSet(New, NewMetrics, wire.Struct(new(UseCases), "*"))

// UseCases are the application's use cases the handlers call.
type UseCases struct {
	Access        *accounts.Access
	Overviews     *accounts.Overviews
	Profiles      *profiles.Service
	Brain         *knowledge.Brain
	Ledger        *accounts.Ledger
	Chat          *chat.Agent
	Sessions      *sessions.Sessions
	Webhooks      *webhooks.Manager
	Conversions   *conversions.Service
	Notifications *notifications.Notifier
	Relay         *events.Relay
	Compat        *compat.Service
	Messaging     *messaging.Service
	Assistant     *assistant.Service
	Widgets       *widgets.Service
	Plugins       *plugins.Service
	Idempotent    *idempotent.Requests
	// MCP serves the agent-tool protocol at /mcp (adapters/mcpserver); without it /mcp answers 404.
	MCP MCP
	// Connect shows GET /cms/connect's refusals (adapters/console); without it they are the
	// error object.
	Connect ConnectPages
}

// ConnectPages shows the page of a site's connection request refused for err (invalid_request
// naming the field), in the visitor's language.
type ConnectPages interface {
	ConnectRefused(c *gin.Context, err *domain.Error)
}

// MCP serves the agent-tool protocol to a key authenticated and counted as for /v1.
type MCP interface {
	Serve(w http.ResponseWriter, r *http.Request, p accounts.Principal)
}

// Options are the adapter's settings.
type Options struct {
	PublicURL    string
	UpgradeURL   string
	MaxBodyBytes int64
	// TrustedProxies lists the addresses and CIDR ranges of the reverse proxies whose
	// X-Forwarded-For (or X-Real-IP) names the client; empty trusts none, so the client is the
	// connection's peer. The client address keys the throttle of failed authentications.
	TrustedProxies []string
}

// Server answers the HTTP interface.
type Server struct {
	opts    Options
	uc      UseCases
	ready   Readiness
	metrics *Metrics
	log     *zap.Logger
	engine  *gin.Engine
}

// New returns a Server with every route in place.
func New(opts Options, uc UseCases, ready Readiness, metrics *Metrics, log *zap.Logger) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{opts: opts, uc: uc, ready: ready, metrics: metrics, log: log}
	s.engine = s.routes()
	return s
}

// Handler returns the http.Handler of every route.
func (s *Server) Handler() http.Handler { return s.engine }

// Routes lists the method and path of every route, for the OpenAPI check.
func (s *Server) Routes() gin.RoutesInfo { return s.engine.Routes() }

func (s *Server) routes() *gin.Engine {
	r := gin.New()
	if err := r.SetTrustedProxies(s.opts.TrustedProxies); err != nil {
		// The configuration checks the list; should it still be wrong, trust no proxy.
		s.log.Error("trusted proxies: trusting none", zap.Error(err))
		_ = r.SetTrustedProxies(nil)
	}
	r.ContextWithFallback = true
	r.RedirectFixedPath = false
	r.RedirectTrailingSlash = false // "/v1/account/" is an unknown route: 404 with the envelope, not a redirect
	r.HandleMethodNotAllowed = false
	r.Use(s.requestID, s.accessLog, s.recovery, s.cors, s.limitBody, s.checkParams, s.nudgeRelay)
	r.NoRoute(s.notFound)
	r.NoMethod(s.notFound)

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)

	// The POST routes of API keys and client session tokens take an Idempotency-Key
	// (s.idempotent, after authentication; idempotency.go); the model-compatible endpoints, /mcp,
	// the widget's and the plugin's public routes do not.
	v1 := r.Group("/v1")
	v1.GET("", s.apiInfo)
	v1.GET("/openapi.json", s.openAPI)

	key := v1.Group("", s.authKey())
	key.GET("/account", s.account)

	// The agent-tool protocol (MCP, Streamable HTTP): the key's tools, on any plan; each tool of
	// the web channels checks the plan as its REST route does.
	r.Match([]string{http.MethodGet, http.MethodPost, http.MethodDelete}, "/mcp", s.authKey(), s.mcp)

	web := key.Group("", s.webChannels)
	web.GET("/agent", s.getAgent)
	web.PATCH("/agent", s.patchAgent)
	web.PATCH("/agent/appearance", s.patchAppearance)
	web.GET("/knowledge", s.getKnowledge)
	web.PUT("/knowledge/pages", s.putPages)
	web.POST("/knowledge/faq", s.idempotent, s.postFAQ)
	web.POST("/knowledge/crawl", s.idempotent, s.postCrawl)
	v1.POST("/chat", s.keepBody, s.authKeyChat, s.webChannels, s.idempotent, s.postChat) // authKey with the body read first
	web.GET("/conversations", s.listConversations)
	web.GET("/conversations/:conversation_id", s.getConversation)
	web.POST("/sessions", s.idempotent, s.postSession)

	web.GET("/webhooks", s.listWebhooks)
	web.POST("/webhooks", s.idempotent, s.createWebhook)
	web.GET("/webhooks/:id", s.getWebhook)
	web.PATCH("/webhooks/:id", s.patchWebhook)
	web.DELETE("/webhooks/:id", s.deleteWebhook)
	web.POST("/webhooks/:id/test", s.idempotent, s.testWebhook)
	web.GET("/webhooks/:id/deliveries", s.listDeliveries)
	web.POST("/webhooks/:id/deliveries/:event_id/redeliver", s.idempotent, s.redeliver)
	web.POST("/conversions", s.idempotent, s.createConversion)
	web.GET("/conversions", s.listConversions)
	web.GET("/notifications", s.listNotifications)
	web.POST("/assistant", s.idempotent, s.postAssistant)
	web.GET("/widget", s.getWidget)
	web.PUT("/widget/domains", s.putWidgetDomains)
	web.PATCH("/widget/style", s.patchWidgetStyle)

	// Model-compatible endpoints (spec 4.8), 60 requests a minute per account, and the usage
	// statement their labels feed.
	mdl := v1.Group("", s.authKeyKept(ratelimit.Compat), s.webChannels, s.compatLimit)
	mdl.POST("/chat/completions", s.chatCompletions)
	mdl.POST("/responses", s.responses)
	mdl.POST("/embeddings", s.embeddings)
	key.GET("/usage", s.usageStatement)
	web.GET("/models", s.listModels)
	web.GET("/models/:model", s.getModel)

	// The messaging apps' webhooks: each authenticated by its app's proof (messaging.go).
	v1.GET("/messaging/whatsapp/:hook", s.whatsappHandshake)
	v1.POST("/messaging/whatsapp/:hook", s.whatsappWebhook)
	v1.POST("/messaging/telegram/:hook", s.telegramWebhook)

	cl := v1.Group("/client", s.authClient)
	cl.POST("/chat", s.idempotent, s.clientChat)
	cl.GET("/messages", s.clientMessages)
	cl.GET("/agent", s.clientAgent)

	// The website chat widget: its script and its public endpoints (widget token in the path).
	r.GET("/widget.js", s.widgetScriptHandler)
	wg := r.Group("/widget/api/:widget_token", s.openWidget)
	wg.GET("/info", s.widgetInfo)
	wg.POST("/chat", s.idempotent, s.widgetChat) // the widget sends a key: a message sent again after a lost answer runs once
	wg.GET("/messages", s.widgetMessages)

	// The site plugin protocol's server-to-server calls (cms.go): the plugin token in the body.
	r.GET("/cms/connect", s.cmsConnect)
	r.POST("/cms/exchange", s.cmsExchange)
	r.POST("/cms/sync", s.cmsSync)
	r.POST("/cms/sale", s.cmsSale)
	return r
}

// mcp hands an MCP request to the MCP adapter with the key's principal.
func (s *Server) mcp(c *gin.Context) {
	if s.uc.MCP == nil {
		s.notFound(c)
		return
	}
	p, _ := principal(c)
	s.uc.MCP.Serve(c.Writer, c.Request, p)
}

// notFound answers an unknown route 404 not_found, saying which methods the path takes when it is
// a route's with another method ("no route PUT /v1/chat; /v1/chat takes POST"), or the path
// without its trailing slash when that is a route's: the answer stays 404 (see README, "Interface
// decisions"), but says what to send instead.
func (s *Server) notFound(c *gin.Context) {
	method, path := c.Request.Method, c.Request.URL.Path
	if methods := s.methodsOf(path); len(methods) > 0 {
		s.fail(c, domain.Errorf(domain.CodeNotFound, "no route %s %s; %s takes %s", method, path, path, strings.Join(methods, ", ")))
		return
	}
	if bare := strings.TrimRight(path, "/"); bare != path && bare != "" {
		if methods := s.methodsOf(bare); slices.Contains(methods, method) {
			s.fail(c, domain.Errorf(domain.CodeNotFound, "no route %s %s; send it without the trailing slash: %s %s", method, path, method, bare))
			return
		}
	}
	s.fail(c, domain.Errorf(domain.CodeNotFound, "no route %s %s", method, path))
}

// methodsOf lists the methods of the routes whose pattern path matches (HEAD with GET, as
// AnswerHead serves it), in the router's order.
func (s *Server) methodsOf(path string) []string {
	var out []string
	for _, r := range s.engine.Routes() {
		if !slices.Contains(out, r.Method) && routeMatches(r.Path, path) {
			out = append(out, r.Method)
		}
	}
	if slices.Contains(out, http.MethodGet) {
		out = append(out, http.MethodHead)
	}
	return out
}

// routeMatches reports whether path is one of pattern's (gin's: ":name" one segment, "*name"
// the rest).
func routeMatches(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		if strings.HasPrefix(p, "*") {
			return true
		}
		if i >= len(xs) || (p != xs[i] && !(strings.HasPrefix(p, ":") && xs[i] != "")) {
			return false
		}
	}
	return len(ps) == len(xs)
}
