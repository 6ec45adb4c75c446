package console

import (
	"html/template"
	"net/http"
	"net/url"
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

func (c *Console) csrfFailed(w http.ResponseWriter, r *http.Request) {
	c.log.Info("csrf refused", zap.String("path", r.URL.Path), zap.NamedError("reason", csrf.FailureReason(r)))
	ctx, _ := gin.CreateTestContext(w) // a bare context to render the page with
	ctx.Request = r
	c.errorPage(ctx, http.StatusForbidden, "error.csrf")
}

// RequireOwner is gin middleware that lets a request go on only with a signed-in owner of an
// active account, whose account AccountID then returns. Without one, a GET or HEAD is redirected
// (303) to /app/login?next=<the path and query>, and any other request to /app/login; an
// inactive account gets 403.
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
		next := ""
		if ctx.Request.Method == http.MethodGet || ctx.Request.Method == http.MethodHead {
			next = ctx.Request.URL.RequestURI()
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
	ctx.Redirect(http.StatusSeeOther, LoginPath)
}
