package httpapi

import (
	"context"
	_ "embed"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/svcagent/svc/ports"
)

// Operations and the description of the API: GET /healthz, GET /readyz, GET /v1 and
// GET /v1/openapi.json.

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

type healthJSON struct {
	Status string `json:"status"`
}

func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, healthJSON{Status: "ok"})
}

// readinessJSON is the state of each check (ok, degraded or unavailable) and of the instance.
// Checks comes first, as TestReadiness reads the body byte for byte.
type readinessJSON struct {
	Checks map[string]string `json:"checks"`
	Status string            `json:"status"`
}

const (
	// readyTimeout bounds GET /readyz's checks together.
	readyTimeout = 2 * time.Second
	// degradeTimeout bounds a check that Degrades: its failure keeps the instance in rotation only
	// if the answer comes before the prober gives up (1 s is Kubernetes' default), so a dependency
	// that stops answering (a stalled Redis) is reported degraded after this long.
	degradeTimeout = 500 * time.Millisecond
)

// readyz answers 200 "ready" when every check passes, 200 "degraded" when only checks that
// degrade fail (the instance stays in rotation), and 503 "unavailable" when any other fails.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), readyTimeout)
	defer cancel()
	checks := map[string]string{}
	state := "ready"
	for _, ch := range s.ready {
		err := ping(ctx, ch)
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
	c.JSON(status, readinessJSON{Status: state, Checks: checks})
}

// ping runs one check, within degradeTimeout when it Degrades.
func ping(ctx context.Context, ch Check) error {
	if !ch.Degrades {
		return ch.Pinger.Ping(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, degradeTimeout)
	defer cancel()
	return ch.Pinger.Ping(ctx)
}

type apiJSON struct {
	Object        string `json:"object"`
	Name          string `json:"name"`
	Version       string `json:"version"`
	BaseURL       string `json:"base_url"`
	Documentation string `json:"documentation"`
}

func (s *Server) apiInfo(c *gin.Context) {
	c.JSON(http.StatusOK, apiJSON{
		Object:        "api",
		Name:          "svc",
		Version:       Version,
		BaseURL:       s.opts.PublicURL + "/v1",
		Documentation: s.opts.PublicURL + "/v1/openapi.json",
	})
}

// openAPISpec is the OpenAPI 3.1 description of every route; TestOpenAPIMatchesRoutes keeps the
// two equal.
//
//go:embed openapi.json
var openAPISpec []byte

// openAPI answers the description with the Content-Type of every other JSON answer (gin's
// c.JSON writes "application/json; charset=utf-8"), so that a client or proxy that keys on the
// header reads one form.
func (s *Server) openAPI(c *gin.Context) {
	c.Data(http.StatusOK, "application/json; charset=utf-8", openAPISpec)
}
