package httpapi

import (
	"bytes"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain"
)

// Every text that comes in is checked here, once, before any handler sees it: the strings of a
// JSON body (names included), the path parameters and the query parameters. Text is valid UTF-8
// without NUL or other control characters; a body's strings may hold line breaks and tabs, a
// parameter may not. Nothing else in the service needs to look for them.

// decodeJSON reads the request body into dst, strictly: one JSON object, no unknown fields, names
// spelt exactly and each once, right types, text only. Every failure is a 400 invalid_request
// naming the field when there is one.
func decodeJSON(c *gin.Context, dst any) error {
	return apijson.Decode(c.Request.Body, dst, true)
}

// decodeOptionalJSON is decodeJSON for a body whose fields are all optional: no body at all (no
// bytes, or only white space, however the client framed it: Content-Length: 0 or an empty chunked
// body) leaves dst as it is.
func decodeOptionalJSON(c *gin.Context, dst any) error {
	body, err := apijson.ReadBody(c.Request.Body)
	if err != nil || len(bytes.TrimSpace(body)) == 0 {
		return err
	}
	return apijson.Unmarshal(body, dst, true)
}

// checkParams refuses a path or query parameter that is not one line of text, naming it.
func (s *Server) checkParams(c *gin.Context) {
	if err := paramsError(c.Params, c.Request.URL.RawQuery); err != nil {
		s.fail(c, err)
		return
	}
	c.Next()
}

// paramsError checks the path parameters and the query string.
func paramsError(params gin.Params, rawQuery string) error {
	for _, p := range params {
		if reason := apijson.BadText(p.Value, false); reason != "" {
			return domain.Invalid(p.Key, "%s %s", p.Key, reason)
		}
	}
	if rawQuery == "" {
		return nil
	}
	query, _ := url.ParseQuery(rawQuery) // pairs it cannot read are dropped, as gin's c.Query does
	for name, values := range query {
		if reason := apijson.BadText(name, false); reason != "" {
			return domain.Invalid("", "a query parameter's name %s", reason)
		}
		if len(values) > 1 {
			// No route takes a list in its query: a parameter given twice (limit=1&limit=2) is
			// ambiguous, and is refused rather than read as one of its values.
			at := apijson.CapParam(name)
			return domain.Invalid(at, "%s is given %d times; give it once", at, len(values))
		}
		for _, v := range values {
			if reason := apijson.BadText(v, false); reason != "" {
				at := apijson.CapParam(name)
				return domain.Invalid(at, "%s %s", at, reason)
			}
		}
	}
	return nil
}
