// Package console is the owner console under /app/: a driving adapter beside adapters/httpapi
// that renders server-side pages (html/template, assets embedded) over the same app/ use cases as
// the REST API. The owner signs in with an e-mail and a password (app/owners); the session is a
// server-side session named by an HttpOnly cookie, every form carries a CSRF token
// (gorilla/csrf), and every page a Content-Security-Policy without inline scripts.
//
// console.go holds the engine and what every page shares; auth.go the sign-in, the session gate
// (RequireOwner, AccountID) and the CSRF middleware other handlers may reuse; i18n.go the pages'
// words in en, pt and es; pages*.go the pages; chart.go the overview's per-day chart; progress.go
// the crawl's progress as server-sent events.
package console

import (
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/wire"
	"github.com/gorilla/csrf"
	"go.uber.org/zap"

	"github.com/svcagent/svc/app/accounts"
	assistantapp "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/notifications"
	"github.com/svcagent/svc/app/owners"
	"github.com/svcagent/svc/app/plugins"
	"github.com/svcagent/svc/app/profiles"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/domain/owner"
)

// Set provides the console.
var Set = wire.NewSet(New, wire.Struct(new(UseCases), "*"))

// Prefix is where the console lives.
const Prefix = "/app"

// LoginPath is the sign-in page; RequireOwner sends the signed-out there with ?next=<path>.
const LoginPath = Prefix + "/login"

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// UseCases are the application's use cases the pages call: the same as the REST API's.
type UseCases struct {
	Owners        *owners.Service
	Access        *accounts.Access
	Overviews     *accounts.Overviews
	Admin         *accounts.Admin
	Profiles      *profiles.Service
	Brain         *knowledge.Brain
	Chat          *chat.Agent
	Assistant     *assistantapp.Service
	Widgets       *widgets.Service
	Webhooks      *webhooks.Manager
	Conversions   *conversions.Service
	Notifications *notifications.Notifier
	Plugins       *plugins.Service
}

// Options are the console's settings.
type Options struct {
	// PublicURL is the service's address (SVC_PUBLIC_URL): its scheme says whether cookies are
	// Secure (https) and its origin is trusted by the CSRF check.
	PublicURL string
	// Dev is SVC_ENV=dev: cookies are Secure outside it.
	Dev bool
	// CSRFKey (32 bytes) authenticates the CSRF cookie; every replica needs the same.
	CSRFKey []byte
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the client (the address
	// the sign-in throttle counts).
	TrustedProxies []string
	// MaxBodyBytes caps a form's body.
	MaxBodyBytes int64
}

// Console serves the owner console.
type Console struct {
	opts      Options
	uc        UseCases
	log       *zap.Logger
	secure    bool   // cookies Secure
	plaintext bool   // the public address is http: the CSRF check expects http origins
	host      string // the public address's host (and port): the origin of this site's forms
	protect   func(http.Handler) http.Handler
	pages     *pages
	engine    *gin.Engine
}

// New returns a Console with its routes in place.
func New(opts Options, uc UseCases, log *zap.Logger) (*Console, error) {
	gin.SetMode(gin.ReleaseMode)
	c := &Console{opts: opts, uc: uc, log: log.Named("console")}
	u, err := url.Parse(opts.PublicURL)
	if err != nil {
		return nil, err
	}
	c.plaintext = u.Scheme == "http"
	c.secure = !opts.Dev
	if c.opts.MaxBodyBytes <= 0 {
		c.opts.MaxBodyBytes = 1 << 20
	}
	c.host = u.Host
	c.protect = csrf.Protect(opts.CSRFKey,
		csrf.CookieName(csrfCookie),
		csrf.MaxAge(int(owner.SessionTTL/time.Second)), // not gorilla/csrf's 12 hours: as long as a session
		csrf.FieldName(csrfField),
		csrf.Path("/"),
		csrf.Secure(c.secure),
		csrf.HttpOnly(true),
		csrf.SameSite(csrf.SameSiteLaxMode),
		csrf.TrustedOrigins([]string{u.Host}),
		csrf.ErrorHandler(http.HandlerFunc(c.csrfFailed)),
	)
	if c.pages, err = parsePages(); err != nil {
		return nil, err
	}
	c.engine = c.routes()
	return c, nil
}

// Wrap returns a handler that serves the console's paths (/app and below) and hands every other
// request to api.
func (c *Console) Wrap(api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == Prefix || strings.HasPrefix(r.URL.Path, Prefix+"/") {
			c.engine.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// Routes lists the console's routes.
func (c *Console) Routes() gin.RoutesInfo { return c.engine.Routes() }

func (c *Console) routes() *gin.Engine {
	r := gin.New()
	if err := r.SetTrustedProxies(c.opts.TrustedProxies); err != nil {
		c.log.Error("trusted proxies: trusting none", zap.Error(err))
		_ = r.SetTrustedProxies(nil)
	}
	r.ContextWithFallback = true
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.HandleMethodNotAllowed = false
	r.Use(c.recovery, c.headers, c.limitBody)
	r.NoRoute(c.notFound)

	r.GET(Prefix, func(ctx *gin.Context) { ctx.Redirect(http.StatusMovedPermanently, Prefix+"/") })
	r.GET(Prefix+"/static/*file", c.static)
	r.GET(Prefix+"/sw.js", c.serviceWorker)

	app := r.Group(Prefix, c.CSRF)
	app.GET("/login", c.loginPage)
	app.POST("/login", c.login)
	app.POST("/logout", c.logout)

	owner := app.Group("", c.RequireOwner)
	owner.GET("/", c.overview)
	owner.POST("/channels", c.channels)
	owner.GET("/agent", c.agentPage)
	owner.POST("/agent/profile", c.agentProfile)
	owner.POST("/agent/appearance", c.agentAppearance)
	owner.GET("/keys", c.keys)
	owner.POST("/keys", c.createKey)
	owner.POST("/keys/:id/revoke", c.revokeKey)
	owner.POST("/keys/:id/send-without-approval", c.sendWithoutApproval)
	owner.GET("/widget", c.widgetPage)
	owner.POST("/widget/style", c.widgetStyle)
	owner.POST("/widget/domains", c.widgetDomains)
	owner.GET("/brain", c.brain)
	owner.POST("/brain/faq", c.faq)
	owner.POST("/brain/faq/:id/remove", c.removeFAQ)
	owner.POST("/brain/try", c.tryQuestion)
	owner.POST("/brain/pages", c.uploadPage)
	owner.POST("/brain/pages/:id/remove", c.removePage)
	owner.POST("/brain/crawl", c.crawl)
	owner.POST("/brain/crawl/progress", c.crawlProgress)
	owner.GET("/approvals", c.approvals)
	owner.POST("/approvals/:id/approve", c.approve)
	owner.POST("/approvals/:id/refuse", c.refuseApproval)
	owner.GET("/conversations", c.conversations)
	owner.GET("/conversations/:id", c.conversation)
	owner.GET("/webhooks", c.webhooks)
	owner.POST("/webhooks", c.createWebhook)
	owner.GET("/webhooks/:id", c.webhook)
	owner.POST("/webhooks/:id/test", c.testWebhook)
	owner.POST("/webhooks/:id/reactivate", c.reactivateWebhook)
	owner.POST("/webhooks/:id/deliveries/:event_id/redeliver", c.redeliver)
	owner.GET("/conversions", c.conversions)
	owner.GET("/notifications", c.notifications)
	c.pushRoutes(owner)
	c.pluginRoutes(owner)
	return r
}

// headers sets what every console answer carries: a strict Content-Security-Policy (scripts
// and styles from this origin only; the widget's script from the public origin), no framing,
// no sniffing, no referrer to other sites, and no caching of pages.
func (c *Console) headers(ctx *gin.Context) {
	c.setHeaders(ctx)
	ctx.Next()
}

func (c *Console) setHeaders(ctx *gin.Context) {
	h := ctx.Writer.Header()
	origin := publicOrigin(c.opts.PublicURL)
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self' "+origin+"; style-src 'self'; img-src 'self' data: https:; "+
		"connect-src 'self' "+origin+"; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	if !strings.HasPrefix(ctx.Request.URL.Path, Prefix+"/static/") {
		h.Set("Cache-Control", "no-store")
	}
}

func publicOrigin(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func (c *Console) limitBody(ctx *gin.Context) {
	if ctx.Request.Body != nil {
		ctx.Request.Body = http.MaxBytesReader(ctx.Writer, ctx.Request.Body, c.opts.MaxBodyBytes)
	}
	ctx.Next()
}

func (c *Console) recovery(ctx *gin.Context) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			c.log.Error("panic", zap.Any("panic", v), zap.String("path", ctx.Request.URL.Path), zap.Stack("stack"))
			if !ctx.Writer.Written() {
				c.errorPage(ctx, http.StatusInternalServerError, "error.internal")
			}
			ctx.Abort()
		}
	}()
	ctx.Next()
}

func (c *Console) notFound(ctx *gin.Context) {
	c.errorPage(ctx, http.StatusNotFound, "error.not_found")
}

// static serves the embedded assets, cached for a day: the files of static/ only (a path that
// climbs out of it, /app/static/../templates/…, or names a directory is not found).
func (c *Console) static(ctx *gin.Context) {
	name := strings.TrimPrefix(ctx.Param("file"), "/")
	if !fs.ValidPath(name) {
		c.notFound(ctx)
		return
	}
	b, err := fs.ReadFile(staticFiles, "static/"+name)
	if err != nil {
		c.notFound(ctx)
		return
	}
	ctx.Header("Cache-Control", "public, max-age=86400")
	ctx.Data(http.StatusOK, staticType(name), b)
}

// staticType is the Content-Type of an asset by its name.
func staticType(name string) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
