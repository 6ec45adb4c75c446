package console

import (
	"errors"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/gorilla/csrf"
	"go.uber.org/zap"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/owner"
)

// SessionCookie names the owner's session; its value is the session token, whose hash the
// store keeps.
const SessionCookie = "svc_owner"

// csrfField is the form field (and X-CSRF-Token the header) that carries the CSRF token.
const csrfField = "csrf_token"

// accountKey is the gin context key of the signed-in owner's account.
const accountKey = "console.account"

// CSRF is gin middleware that protects every unsafe request (POST, PUT, PATCH, DELETE) with a
// CSRF token (gorilla/csrf: a token in the form field csrf_token or the X-CSRF-Token header that
// matches the signed svc_csrf cookie, and an Origin or Referer of this site): a request without
// it is refused with 403 and goes no further. Safe requests go on with a token CSRFField renders.
func (c *Console) CSRF(ctx *gin.Context) {
	r := ctx.Request
	// The form is read here first, so a body over the console's cap is named as such rather than
	// read as a form without its token; the check below reads the parsed form. It is a 400 naming
	// the cap, as the REST API and /mcp answer a body over it (spec 7: above a size limit, 400).
	var tooLarge *http.MaxBytesError
	if err := r.ParseForm(); errors.As(err, &tooLarge) {
		c.render(ctx, http.StatusBadRequest, "error", map[string]any{"Status": http.StatusBadRequest, "Message": "error.too_large",
			"Detail": fmt.Sprintf("request body is larger than %d bytes", tooLarge.Limit)})
		ctx.Abort()
		return
	}
	if c.plaintext {
		r = csrf.PlaintextHTTPRequest(r)
	}
	passed := false
	c.protect(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		passed = true
		ctx.Request = r
		ctx.Next()
	})).ServeHTTP(ctx.Writer, r)
	if !passed {
		ctx.Abort()
	}
}

// CSRFField returns the hidden form field with the request's CSRF token (after CSRF).
func (c *Console) CSRFField(ctx *gin.Context) template.HTML { return csrf.TemplateField(ctx.Request) }

// CSRFToken returns the request's CSRF token (after CSRF), for the X-CSRF-Token header.
func (c *Console) CSRFToken(ctx *gin.Context) string { return csrf.Token(ctx.Request) }

// csrfCookie names the cookie of the CSRF token. It lives as long as a sign-in session
// (csrf.MaxAge in New) and a new one comes with each sign-in and sign-out (dropCSRFCookie), so a
// signed-in owner's form does not expire before the session does.
const csrfCookie = "svc_csrf"

// csrfFailed answers a request the CSRF check refused, with 403. A form of this console whose
// token no longer holds (the cookie was cleared, or a sign-in or sign-out in another tab gave a
// new one) is not lost: when the request comes from this site (its Origin or Referer) and the
// owner is still signed in, the page says the form had expired, keeps what was typed, and offers
// to send it again with a fresh token, or to go back to the form. The sign-in form is shown
// again with the e-mail typed. Anything else (another site's request, a missing token from
// elsewhere) gets the plain refusal.
func (c *Console) csrfFailed(w http.ResponseWriter, r *http.Request) {
	reason := csrf.FailureReason(r)
	c.log.Info("csrf refused", zap.String("path", r.URL.Path), zap.NamedError("reason", reason))
	ctx, _ := gin.CreateTestContext(w) // a bare context to render the page with
	ctx.Request = r
	ownForm := r.Method == http.MethodPost && (errors.Is(reason, csrf.ErrBadToken) || errors.Is(reason, csrf.ErrNoToken)) &&
		c.fromHere(r) && r.ParseForm() == nil
	if !ownForm {
		c.errorPage(ctx, http.StatusForbidden, "error.csrf")
		return
	}
	if r.URL.Path == LoginPath {
		c.render(ctx, http.StatusForbidden, "login", map[string]any{"Next": owner.SafeNext(r.PostForm.Get("next"), ""),
			"Email": r.PostForm.Get("email"), "Error": "login.expired"})
		return
	}
	token, _ := ctx.Cookie(SessionCookie)
	if acct, err := c.uc.Owners.Authenticate(ctx, token); err == nil {
		ctx.Set(accountKey, acct) // the page's menu, as on any page of the console
	} else {
		c.signedOutForm(ctx, http.StatusForbidden)
		return
	}
	c.render(ctx, http.StatusForbidden, "expired", map[string]any{"Action": r.URL.RequestURI(), "Fields": typedFields(r), "Back": c.backTo(r)})
}

// signedOutForm answers a form of this console sent without a signed-in owner (signed out in
// another tab, a new password set elsewhere, the session past its days): nothing was saved, what
// was typed is listed to copy (never a password), and a link signs in again and comes back to the
// form's page.
func (c *Console) signedOutForm(ctx *gin.Context, status int) {
	c.render(ctx, status, "expired", map[string]any{"SignedOut": true, "Fields": typedFields(ctx.Request), "Back": c.backTo(ctx.Request)})
}

// typedFields is what a parsed form holds, as it was typed, but its CSRF token, passwords and
// secrets.
func typedFields(r *http.Request) []expiredField {
	var fields []expiredField
	for _, name := range slices.Sorted(maps.Keys(r.PostForm)) {
		if lower := strings.ToLower(name); name == csrfField || strings.Contains(lower, "password") || strings.Contains(lower, "secret") {
			continue
		}
		for _, v := range r.PostForm[name] {
			fields = append(fields, expiredField{Name: name, Value: v})
		}
	}
	return fields
}

// expiredField is a field of an expired form, sent again as it was typed.
type expiredField struct{ Name, Value string }

// fromHere reports whether r says it comes from a page of this site: its Origin, or without one
// its Referer. A browser sets these, and another site cannot set them to ours.
func (c *Console) fromHere(r *http.Request) bool {
	from := r.Header.Get("Origin")
	if from == "" {
		from = r.Referer()
	}
	u, err := url.Parse(from)
	return err == nil && from != "" && u.Host != "" && u.Host == c.host && (u.Scheme == "https" || c.plaintext && u.Scheme == "http")
}

// backTo is the console page the refused form was on (its Referer, a path of this site), else
// the overview.
func (c *Console) backTo(r *http.Request) string {
	if u, err := url.Parse(r.Referer()); err == nil && u.Host == c.host {
		return owner.SafeNext(u.RequestURI(), Prefix+"/")
	}
	return Prefix + "/"
}

// dropCSRFCookie ends the CSRF cookie: the next page gets a new token (gorilla/csrf makes one
// when there is none), whose cookie lasts as long as the session begun or after the one ended.
func (c *Console) dropCSRFCookie(ctx *gin.Context) {
	http.SetCookie(ctx.Writer, &http.Cookie{Name: csrfCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: c.secure, SameSite: http.SameSiteLaxMode})
}

// RequireOwner is gin middleware that lets a request go on only with a signed-in owner of an
// active account, whose account AccountID then returns. Without one, a GET or HEAD is redirected
// (303) to /app/login?next=<the path and query>; a form of this console (a POST whose Origin or
// Referer is this site) gets 401 and the page that lists what was typed (signedOutForm); any
// other request is redirected to /app/login. An inactive account gets 403.
func (c *Console) RequireOwner(ctx *gin.Context) {
	token, _ := ctx.Cookie(SessionCookie)
	acct, err := c.uc.Owners.Authenticate(ctx, token)
	switch domain.ErrorCode(err) {
	case "":
		ctx.Set(accountKey, acct)
		ctx.Next()
		return
	case domain.CodeUnauthorized:
		c.lang(ctx) // a ?lang= (a plugin's connection) is kept for the sign-in page
		r := ctx.Request
		if r.Method == http.MethodPost && c.fromHere(r) && r.ParseForm() == nil {
			c.signedOutForm(ctx, http.StatusUnauthorized) // a form of this console: what was typed is not lost
			break
		}
		next := ""
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			next = r.URL.RequestURI()
		}
		ctx.Redirect(http.StatusSeeOther, LoginURL(next))
	case domain.CodeAccountInactive:
		c.errorPage(ctx, http.StatusForbidden, "error.inactive")
	default:
		c.fail(ctx, err)
	}
	ctx.Abort()
}

// LoginURL is the sign-in page that goes on to next (a path on this site) once signed in.
func LoginURL(next string) string {
	if next == "" {
		return LoginPath
	}
	return LoginPath + "?next=" + url.QueryEscape(next)
}

// AccountID returns the id of the signed-in owner's account (after RequireOwner).
func (c *Console) AccountID(ctx *gin.Context) (string, bool) {
	a, ok := signedIn(ctx)
	return a.ID, ok
}

func signedIn(ctx *gin.Context) (account.Account, bool) {
	v, ok := ctx.Get(accountKey)
	if !ok {
		return account.Account{}, false
	}
	a, ok := v.(account.Account)
	return a, ok
}

func (c *Console) setSession(ctx *gin.Context, token string, maxAge time.Duration) {
	http.SetCookie(ctx.Writer, &http.Cookie{
		Name: SessionCookie, Value: token, Path: "/", MaxAge: int(maxAge / time.Second),
		HttpOnly: true, Secure: c.secure, SameSite: http.SameSiteLaxMode,
	})
}

func (c *Console) loginPage(ctx *gin.Context) {
	c.render(ctx, http.StatusOK, "login", map[string]any{"Next": owner.SafeNext(ctx.Query("next"), "")})
}

// login signs the owner in: a new session (the one the browser held ends: rotation), its cookie,
// and a redirect to next. A refusal shows the form again with the reason.
func (c *Console) login(ctx *gin.Context) {
	email, password := ctx.PostForm("email"), ctx.PostForm("password")
	next := owner.SafeNext(ctx.PostForm("next"), Prefix+"/")
	previous, _ := ctx.Cookie(SessionCookie)
	token, _, err := c.uc.Owners.SignIn(ctx, email, password, ctx.ClientIP(), previous)
	if err != nil {
		status, msg := http.StatusUnauthorized, "login.wrong"
		switch domain.ErrorCode(err) {
		case domain.CodeUnauthorized:
		case domain.CodeRateLimited:
			status, msg = http.StatusTooManyRequests, "login.throttled"
			if e, ok := domain.AsError(err); ok {
				ctx.Header("Retry-After", retryAfter(e.RetryAfter))
			}
		case domain.CodeAccountInactive:
			status, msg = http.StatusForbidden, "error.inactive"
		default:
			c.fail(ctx, err)
			return
		}
		// The e-mail typed is kept, the password never sent back; a wrong pair marks both fields.
		c.render(ctx, status, "login", map[string]any{"Next": ctx.PostForm("next"), "Email": email, "Error": msg,
			"Invalid": msg == "login.wrong"})
		return
	}
	c.setSession(ctx, token, owner.SessionTTL)
	c.dropCSRFCookie(ctx)
	ctx.Redirect(http.StatusSeeOther, next)
}

func retryAfter(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	return itoa(s)
}

// logout ends the session on the server and clears the cookie.
func (c *Console) logout(ctx *gin.Context) {
	token, _ := ctx.Cookie(SessionCookie)
	if err := c.uc.Owners.SignOut(ctx, token); err != nil {
		c.fail(ctx, err)
		return
	}
	c.setSession(ctx, "", -time.Second)
	c.dropCSRFCookie(ctx)
	ctx.Redirect(http.StatusSeeOther, LoginPath)
}
