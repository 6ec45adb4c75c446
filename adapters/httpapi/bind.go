package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
)

// decodeJSON reads the request body into dst, strictly: one JSON object, no unknown fields, right
// types. Every failure is a 400 invalid_request naming the field when there is one.
func decodeJSON(c *gin.Context, dst any) error {
	return decode(c.Request.Body, dst, true)
}

func decode(r io.Reader, dst any, strict bool) error {
	body, err := io.ReadAll(r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return domain.Invalid("", "request body is larger than %d bytes", tooBig.Limit)
		}
		return domain.Invalid("", "request body could not be read")
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return domain.Invalid("", "request body is required: send a JSON object")
	}
	if trimmed[0] != '{' {
		return domain.Invalid("", "request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return domain.Invalid("", "request body must hold one JSON object")
	}
	return nil
}

func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return domain.Invalid("", "malformed JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return domain.Invalid("", "request body must be a JSON object")
		}
		return domain.Invalid(typ.Field, "%s must be %s", typ.Field, jsonKind(typ.Type.Kind().String()))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return domain.Invalid("", "malformed JSON: the body ends too early")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return domain.Invalid(field, "unknown field %q", field)
	}
	return domain.Invalid("", "malformed JSON: %s", err.Error())
}

func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	}
	return "of another type"
}
