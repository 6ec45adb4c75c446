package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed" // the widget script, minified
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/widget"
)

// GET /widget.js, the public widget endpoints GET /widget/api/{widget_token}/info,
// POST /widget/api/{widget_token}/chat, GET /widget/api/{widget_token}/messages (with their CORS),
// and the settings GET /v1/widget, PUT /v1/widget/domains, PATCH /v1/widget/style.

// widgetScript is the script served: assets/widget.min.js, made by `make generate` (the directive
// below) from assets/widget.js, the readable script developers edit; `make check-generate` fails
// when it is stale. The programs do not link the minifier (esbuild): only internal/tools/jsmin does.
//
//go:generate go run ../../internal/tools/jsmin -in assets/widget.js -out assets/widget.min.js
//go:embed assets/widget.min.js
var widgetScript []byte

// widgetETag is the script's content hash, its ETag.
var widgetETag = contentETag(widgetScript)

// contentETag is the ETag of body: its content hash.
func contentETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// widgetGzip is the script compressed once (under half its size), served to browsers that
// accept gzip, under its own ETag.
var widgetGzip, widgetGzipETag = func() ([]byte, string) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // a valid level: no error
	_, _ = zw.Write(widgetScript)                          // a bytes.Buffer does not fail
	_ = zw.Close()
	return b.Bytes(), contentETag(b.Bytes())
}()

// widgetScriptHandler serves the script: a short cache (5 minutes, then revalidated by the
// content hash), gzipped when the browser accepts it, and 304 when the browser has this version.
// The script is public: any page may fetch it in CORS mode (a script tag with crossorigin and an
// integrity hash, a loader that fetches it), without credentials.
func (s *Server) widgetScriptHandler(c *gin.Context) {
	body, etag := widgetScript, widgetETag
	h := c.Writer.Header()
	h.Add("Vary", "Accept-Encoding")
	if acceptsGzip(c.GetHeader("Accept-Encoding")) {
		body, etag = widgetGzip, widgetGzipETag
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300, must-revalidate")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("X-Content-Type-Options", "nosniff")
	if etagMatch(c.GetHeader("If-None-Match"), etag) {
		h.Del("Content-Encoding")
		c.Status(http.StatusNotModified)
		return
	}
	c.Data(http.StatusOK, "text/javascript; charset=utf-8", body)
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip (named, or *, without q=0).
func acceptsGzip(header string) bool {
	for _, v := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(v), ";")
		if name = strings.ToLower(strings.TrimSpace(name)); name != "gzip" && name != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		return !strings.HasPrefix(q, "q=0") || strings.Trim(strings.TrimPrefix(q, "q=0"), ".0") != ""
	}
	return false
}

// etagMatch reports whether an If-None-Match header names etag (or is *).
func etagMatch(header, etag string) bool {
	for _, v := range strings.Split(header, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == etag || v == "*" {
			return true
		}
	}
	return false
}

const (
	ctxVisit         = "svc.visit"
	widgetAPIPrefix  = "/widget/api/"
	widgetCORSMethod = "GET, POST, OPTIONS"
)

// widgetPreflight answers the CORS preflight of the public widget endpoints: 204 always, with the
// grant only for a page the widget's allowed domains let in (and a known token).
func (s *Server) widgetPreflight(c *gin.Context) {
	token, _, _ := strings.Cut(strings.TrimPrefix(c.Request.URL.Path, widgetAPIPrefix), "/")
	origin := c.GetHeader("Origin")
	h := c.Writer.Header()
	h.Add("Vary", "Origin")
	if origin != "" && s.uc.Widgets.Allowed(c.Request.Context(), token, origin) {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Methods", widgetCORSMethod)
		h.Set("Access-Control-Allow-Headers", "Content-Type, X-Request-Id, Idempotency-Key")
		h.Set("Access-Control-Max-Age", "600")
	}
	c.AbortWithStatus(http.StatusNoContent)
}

// openWidget admits a public widget request: its token, account, plan, page origin and the
// token's rate limit (widgets.Service.Open). A page the allowed domains let in gets the CORS grant,
// so that it can read the answer, errors included; any other page gets none.
func (s *Server) openWidget(c *gin.Context) {
	origin := c.GetHeader("Origin")
	c.Writer.Header().Add("Vary", "Origin")
	v, err := s.uc.Widgets.Open(c.Request.Context(), c.Param("widget_token"), origin)
	if v.Granted && origin != "" {
		h := c.Writer.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Expose-Headers", "X-Request-Id, Retry-After, Idempotent-Replayed")
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Set(ctxVisit, v)
	c.Next()
}

func visit(c *gin.Context) widgets.Visit {
	v, _ := c.Get(ctxVisit)
	out, _ := v.(widgets.Visit)
	return out
}

type widgetStyleJSON struct {
	Position string `json:"position"`
	Theme    string `json:"theme"`
	Accent   string `json:"accent"`
	Drag     bool   `json:"drag"`
}

func styleOf(s widget.Style) widgetStyleJSON { return widgetStyleJSON(s) }

// widgetInfoJSON is what the widget shows: the agent's look and the saved style.
type widgetInfoJSON struct {
	Object      string              `json:"object"`
	Name        string              `json:"name"`
	AvatarURL   string              `json:"avatar_url"`
	Greeting    map[string]string   `json:"greeting"`
	Suggestions map[string][]string `json:"suggestions"`
	Languages   []string            `json:"languages"`
	Style       widgetStyleJSON     `json:"style"`
}

func (s *Server) widgetInfo(c *gin.Context) {
	info, err := s.uc.Widgets.Info(c.Request.Context(), visit(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	a := apijson.AppearanceOf(info.Profile.Appearance)
	c.JSON(http.StatusOK, widgetInfoJSON{Object: "widget_info", Name: info.Profile.DisplayName(), AvatarURL: a.AvatarURL,
		Greeting: a.Greeting, Suggestions: a.Suggestions, Languages: apijson.AgentOf(info.Profile).Languages, Style: styleOf(info.Style)})
}

// widgetChatIn is the body of POST /widget/api/{widget_token}/chat.
type widgetChatIn struct {
	Message      *string `json:"message"`
	VisitorID    string  `json:"visitor_id"`
	CustomerName string  `json:"customer_name"`
}

func (s *Server) widgetChat(c *gin.Context) {
	var body widgetChatIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	if body.Message == nil {
		s.fail(c, domain.Invalid("message", "message is required"))
		return
	}
	m := widgets.Message{Visitor: body.VisitorID, Text: *body.Message, CustomerName: body.CustomerName}
	if v, ok := c.Get(ctxIdemRef); ok {
		m.RequestKey, _ = v.(string)
	}
	r, err := s.uc.Widgets.Chat(c.Request.Context(), visit(c), m)
	if err != nil {
		s.fail(c, err)
		return
	}
	writeReply(c, r, false)
}

// widgetThreadJSON is the visitor's own conversation: its contact and messages only.
type widgetThreadJSON struct {
	Object    string            `json:"object"`
	VisitorID string            `json:"visitor_id"`
	ContactID string            `json:"contact_id"`
	Messages  []apijson.Message `json:"messages"`
}

func (s *Server) widgetMessages(c *gin.Context) {
	visitor := c.Query("visitor_id")
	t, err := s.uc.Widgets.Messages(c.Request.Context(), visit(c), visitor)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := widgetThreadJSON{Object: "widget_conversation", VisitorID: visitor, ContactID: widget.ContactID(visitor),
		Messages: make([]apijson.Message, 0, len(t.Messages))}
	for _, m := range t.Messages {
		out.Messages = append(out.Messages, apijson.MessageOf(m))
	}
	c.JSON(http.StatusOK, out)
}

// widgetJSON is the widget's settings as the owner sees them, with the snippet.
type widgetJSON struct {
	Object         string          `json:"object"`
	WidgetToken    string          `json:"widget_token"`
	ScriptURL      string          `json:"script_url"`
	Framework      string          `json:"framework"`
	File           *string         `json:"file"`
	Lang           *string         `json:"lang"`
	Position       *string         `json:"position"`
	Code           string          `json:"code"`
	AllowedDomains []string        `json:"allowed_domains"`
	Style          widgetStyleJSON `json:"style"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func widgetOf(st widgets.Settings) widgetJSON {
	return widgetJSON{Object: "widget", WidgetToken: st.Token, ScriptURL: st.ScriptURL, Framework: string(st.Framework),
		File: optional(st.Framework.File()), Lang: optional(st.Lang), Position: optional(st.Position), Code: st.Code,
		AllowedDomains: st.AllowedDomains, Style: styleOf(st.Style)}
}

func (s *Server) getWidget(c *gin.Context) {
	p, _ := principal(c)
	st, err := s.uc.Widgets.Settings(c.Request.Context(), p.Account,
		widgets.Query{Framework: c.Query("framework"), Lang: c.Query("lang"), Position: c.Query("position")})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, widgetOf(st))
}

// widgetDomainsIn is the body of PUT /v1/widget/domains.
type widgetDomainsIn struct {
	Domains *[]string `json:"domains"`
}

func (s *Server) putWidgetDomains(c *gin.Context) {
	p, _ := principal(c)
	var body widgetDomainsIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	if body.Domains == nil {
		s.fail(c, domain.Invalid("domains", "domains is required: a list of host names, empty for any domain"))
		return
	}
	st, err := s.uc.Widgets.SetDomains(c.Request.Context(), p.Account, *body.Domains)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, widgetOf(st))
}

// widgetStyleIn is the body of PATCH /v1/widget/style: every field optional.
type widgetStyleIn struct {
	Position *string `json:"position"`
	Theme    *string `json:"theme"`
	Accent   *string `json:"accent"`
	Drag     *bool   `json:"drag"`
}

func (s *Server) patchWidgetStyle(c *gin.Context) {
	p, _ := principal(c)
	var body widgetStyleIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	st, err := s.uc.Widgets.PatchStyle(c.Request.Context(), p.Account, widget.StylePatch(body))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, widgetOf(st))
}
