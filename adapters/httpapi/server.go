// Package httpapi is the HTTP adapter: the gin router, middleware, handlers, the request and
// response types, and the one mapping of error codes to HTTP statuses.
package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/agents"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/models"
	"github.com/svcagent/svc/app/notices"
	"github.com/svcagent/svc/app/sessions"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
)

// Version is the API version of the interface (spec part 9).
const Version = "2026-09-24"

// Set provides the HTTP adapter.
var Set = wire.NewSet(New, NewMetrics, wire.Struct(new(UseCases), "*"))

// UseCases are the application's use cases the handlers call.
type UseCases struct {
	Access      *accounts.Access
	Overviews   *accounts.Overviews
	Profiles    *agents.Profiles
	Brain       *knowledge.Brain
	Ledger      *accounts.Ledger
	Chat        *chat.Agent
	Sessions    *sessions.Sessions
	Webhooks    *webhooks.Manager
	Conversions *conversions.Service
	Notices     *notices.Notifier
	Relay       *events.Relay
	Models      *models.Service
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

// Check is one dependency that readiness probes. A dependency the service can do without for a
// while (Redis: the rate limits fall back to this process, events wait in the outbox) Degrades:
// its failure shows as "degraded" and keeps the instance ready; any other failure makes it
// unavailable.
type Check struct {
	Name     string
	Pinger   ports.Pinger
	Degrades bool
}

// Readiness lists what GET /readyz checks.
type Readiness []Check

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
	r.HandleMethodNotAllowed = false
	r.Use(s.requestID, s.accessLog, s.recovery, s.cors, s.limitBody, s.checkParams, s.nudgeRelay)
	r.NoRoute(s.notFound)
	r.NoMethod(s.notFound)

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)

	v1 := r.Group("/v1")
	v1.GET("", s.apiInfo)
	v1.GET("/openapi.json", s.openAPI)

	key := v1.Group("", s.authKey())
	key.GET("/account", s.account)

	web := key.Group("", s.webChannels)
	web.GET("/agent", s.getAgent)
	web.PATCH("/agent", s.patchAgent)
	web.PATCH("/agent/appearance", s.patchAppearance)
	web.GET("/knowledge", s.getKnowledge)
	web.PUT("/knowledge/pages", s.putPages)
	web.POST("/knowledge/faq", s.postFAQ)
	web.POST("/knowledge/crawl", s.postCrawl)
	web.POST("/chat", s.postChat)
	web.GET("/conversations", s.listConversations)
	web.GET("/conversations/:conversation_id", s.getConversation)
	web.POST("/sessions", s.postSession)

	web.GET("/webhooks", s.listWebhooks)
	web.POST("/webhooks", s.createWebhook)
	web.GET("/webhooks/:id", s.getWebhook)
	web.PATCH("/webhooks/:id", s.patchWebhook)
	web.DELETE("/webhooks/:id", s.deleteWebhook)
	web.POST("/webhooks/:id/test", s.testWebhook)
	web.GET("/webhooks/:id/deliveries", s.listDeliveries)
	web.POST("/webhooks/:id/deliveries/:event_id/redeliver", s.redeliver)
	web.POST("/conversions", s.createConversion)
	web.GET("/conversions", s.listConversions)
	web.GET("/notifications", s.listNotifications)

	// Model-compatible endpoints (spec 4.8), 60 requests a minute per account, and the usage
	// statement their labels feed.
	mdl := v1.Group("", s.authKey(ratelimit.Model), s.webChannels, s.modelLimit)
	mdl.POST("/chat/completions", s.chatCompletions)
	mdl.POST("/responses", s.responses)
	mdl.POST("/embeddings", s.embeddings)
	key.GET("/usage", s.usageStatement)
	web.GET("/models", s.listModels)
	web.GET("/models/:model", s.getModel)

	cl := v1.Group("/client", s.authClient)
	cl.POST("/chat", s.clientChat)
	cl.GET("/messages", s.clientMessages)
	cl.GET("/agent", s.clientAgent)
	return r
}

func (s *Server) notFound(c *gin.Context) {
	s.fail(c, domain.Errorf(domain.CodeNotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
}

func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz answers 200 "ready" when every check passes, 200 "degraded" when only checks that
// degrade fail (the instance stays in rotation), and 503 "unavailable" when any other fails.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	checks := map[string]string{}
	state := "ready"
	for _, ch := range s.ready {
		err := ch.Pinger.Ping(ctx)
		switch {
		case err == nil:
			checks[ch.Name] = "ok"
		case ch.Degrades:
			logger(c).Warn("readiness check failed; degraded", zap.String("check", ch.Name), zap.Error(err))
			checks[ch.Name] = "degraded"
			if state == "ready" {
				state = "degraded"
			}
		default:
			logger(c).Warn("readiness check failed", zap.String("check", ch.Name), zap.Error(err))
			checks[ch.Name] = "unavailable"
			state = "unavailable"
		}
	}
	status := http.StatusOK
	if state == "unavailable" {
		status = http.StatusServiceUnavailable
	}
	c.JSON(status, gin.H{"status": state, "checks": checks})
}

func (s *Server) apiInfo(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{
		"object":        "api",
		"name":          "svc",
		"version":       Version,
		"base_url":      s.opts.PublicURL + "/v1",
		"documentation": s.opts.PublicURL + "/v1/openapi.json",
	})
}
