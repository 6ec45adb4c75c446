package compat

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/model"
)

// output is what a reply's text must be: anything, a JSON object (json_object), JSON
// (json_schema), or JSON valid against the schema (json_schema with strict).
type output struct {
	json   bool
	object bool
	schema *jsonschema.Schema
}

// noLoader refuses every reference outside the schema: a caller's schema never makes the service
// read a file or the network. The meta-schemas of the drafts are built in and need no loader.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("references outside the schema are not followed (%s)", url)
}

// outputOf reads the response format of a request and compiles its schema when strict.
func outputOf(rf *model.ResponseFormat, param string) (output, error) {
	if rf == nil {
		return output{}, nil
	}
	switch rf.Type {
	case "", "text":
		return output{}, nil
	case "json_object":
		return output{json: true, object: true}, nil
	case "json_schema":
	default:
		return output{}, domain.Invalid(param+".type", "the format type is text, json_object or json_schema, not %s", domain.Quote(rf.Type))
	}
	out := output{json: true}
	if len(rf.Schema) == 0 {
		return out, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(rf.Schema))
	if err != nil {
		return output{}, domain.Invalid(param+".schema", "the schema is not JSON: %s", err.Error())
	}
	if _, ok := doc.(map[string]any); !ok {
		return output{}, domain.Invalid(param+".schema", "the schema must be a JSON object")
	}
	if !rf.Strict {
		return out, nil
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	c.DefaultDraft(jsonschema.Draft2020)
	const loc = "urn:svc:response-format"
	if err := c.AddResource(loc, doc); err != nil {
		return output{}, domain.Invalid(param+".schema", "the schema is not valid: %s", firstLine(err.Error()))
	}
	out.schema, err = c.Compile(loc)
	if err != nil {
		return output{}, domain.Invalid(param+".schema", "the schema is not valid: %s", firstLine(err.Error()))
	}
	return out, nil
}

var english = message.NewPrinter(language.English)

// errBadOutput is a reply that is not the JSON asked for.
var errBadOutput = errors.New("the model's reply does not follow the response format")

// check returns errBadOutput (wrapped with the reason) when a finished reply's text is not the
// JSON asked for. A reply cut short (length, content filter) or made of tool calls is not checked:
// its finish reason tells.
func (o output) check(r model.Response) error {
	if !o.json || r.FinishReason == model.FinishLength || r.FinishReason == model.FinishContentFilter ||
		(len(r.Message.ToolCalls) > 0 && strings.TrimSpace(r.Message.Content) == "") {
		return nil
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(r.Message.Content))
	if err != nil {
		return fmt.Errorf("%w: it is not JSON", errBadOutput)
	}
	if _, ok := v.(map[string]any); o.object && !ok {
		return fmt.Errorf("%w: it is not a JSON object", errBadOutput)
	}
	if o.schema != nil {
		if err := o.schema.Validate(v); err != nil {
			return fmt.Errorf("%w: it does not match the JSON schema: %s", errBadOutput, firstLine(validationMessage(err)))
		}
	}
	return nil
}

// validationMessage is the most specific cause of a validation error.
func validationMessage(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	loc := "/" + strings.Join(ve.InstanceLocation, "/")
	return fmt.Sprintf("at %s: %s", loc, ve.ErrorKind.LocalizedString(english))
}

// badOutput is the error a caller sees for a reply that stayed off the format.
func badOutput(err error) error {
	return &domain.Error{Code: domain.CodeModelUnavailable, Err: err,
		Message: strings.TrimPrefix(err.Error(), errBadOutput.Error()+": ") + "; " + errBadOutput.Error() + " asked for; try again"}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
