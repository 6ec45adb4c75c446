package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
)

// GET /v1/usage: the usage statement of the model-compatible endpoints, by label.

type statementLineJSON struct {
	Action       string  `json:"action"`
	Source       *string `json:"source"`
	Workflow     *string `json:"workflow"`
	WorkflowID   *string `json:"workflow_id"`
	ExecutionID  *string `json:"execution_id"`
	Requests     int     `json:"requests"`
	Interactions int     `json:"interactions"`
}

type statementJSON struct {
	Object            string              `json:"object"`
	Period            periodJSON          `json:"period"`
	Data              []statementLineJSON `json:"data"`
	TotalInteractions int                 `json:"total_interactions"`
}

// label is a label's value, or null when it was not set.
func label(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// timeParam reads a time query parameter: RFC 3339, a date (midnight UTC), or unix seconds.
func timeParam(c *gin.Context, name string) (time.Time, error) {
	v := strings.TrimSpace(c.Query(name))
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Time{}, domain.Invalid(name, "%s must be an RFC 3339 time, a date (YYYY-MM-DD) or unix seconds", name)
}

func (s *Server) usageStatement(c *gin.Context) {
	p, _ := principal(c)
	from, err := timeParam(c, "from")
	if err != nil {
		s.fail(c, err)
		return
	}
	to, err := timeParam(c, "to")
	if err != nil {
		s.fail(c, err)
		return
	}
	st, err := s.uc.Compat.Statement(c.Request.Context(), p.Account, from, to)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := statementJSON{Object: "usage_statement", Data: make([]statementLineJSON, 0, len(st.Lines)), TotalInteractions: st.Total}
	out.Period.From, out.Period.To = stamp(st.From), stamp(st.To)
	for _, l := range st.Lines {
		out.Data = append(out.Data, statementLineJSON{Action: string(l.Action), Source: label(l.Source), Workflow: label(l.Workflow),
			WorkflowID: label(l.WorkflowID), ExecutionID: label(l.ExecutionID), Requests: l.Requests, Interactions: l.Interactions})
	}
	c.JSON(http.StatusOK, out)
}
