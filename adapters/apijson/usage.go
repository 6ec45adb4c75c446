package apijson

import (
	"strconv"
	"strings"
	"time"

	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/domain"
)

// StatementLine is the requests and interactions of one set of usage labels.
type StatementLine struct {
	Action       string  `json:"action"`
	Source       *string `json:"source"`
	Workflow     *string `json:"workflow"`
	WorkflowID   *string `json:"workflow_id"`
	ExecutionID  *string `json:"execution_id"`
	Requests     int     `json:"requests"`
	Interactions int     `json:"interactions"`
}

// Statement is the body of GET /v1/usage (the get_usage tool): the usage statement of the
// model-compatible endpoints, by label.
type Statement struct {
	Object            string          `json:"object"`
	Period            Period          `json:"period"`
	Data              []StatementLine `json:"data"`
	TotalInteractions int             `json:"total_interactions"`
}

// StatementOf is the statement st.
func StatementOf(st compat.Statement) Statement {
	out := Statement{Object: "usage_statement", Data: make([]StatementLine, 0, len(st.Lines)), TotalInteractions: st.Total,
		Period: Period{From: Stamp(st.From), To: Stamp(st.To)}}
	for _, l := range st.Lines {
		out.Data = append(out.Data, StatementLine{Action: string(l.Action), Source: Label(l.Source), Workflow: Label(l.Workflow),
			WorkflowID: Label(l.WorkflowID), ExecutionID: Label(l.ExecutionID), Requests: l.Requests, Interactions: l.Interactions})
	}
	return out
}

// StatementPeriod reads the query of GET /v1/usage (from, to) from get.
func StatementPeriod(get Params) (from, to time.Time, err error) {
	if from, err = timeParam(get, "from"); err != nil {
		return from, to, err
	}
	to, err = timeParam(get, "to")
	return from, to, err
}

// timeParam reads a time parameter: RFC 3339, a date (midnight UTC), or unix seconds.
func timeParam(get Params, name string) (time.Time, error) {
	raw, _ := get(name)
	v := strings.TrimSpace(raw)
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, queryTimeInRange(name, t)
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, queryTimeInRange(name, t)
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 && canonicalInteger(raw) { // written plainly, as Integer reads a number
		t := time.Unix(n, 0).UTC()
		return t, queryTimeInRange(name, t)
	}
	return time.Time{}, domain.Invalid(name, "%s must be an RFC 3339 time, a date (YYYY-MM-DD) or unix seconds", name)
}
