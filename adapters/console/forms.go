package console

import (
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
)

// A form the service refuses for one of its values (the domain's invalid_request or
// input_too_large, with the field at fault) is not answered with an error page: the same page is
// rendered again, 400 as the API answers, with the reason next to the field (aria-invalid and
// aria-describedby on the input, the reason in an element with role="alert"), the input focused,
// and every value the owner typed kept, secrets (a password) left out. A change that succeeds
// still redirects (Post/Redirect/Get).

// form is one of the console's forms: its name (the ids of its messages start with it), its
// inputs (the names of their fields), and those whose values are never sent back.
type form struct {
	name   string
	inputs []string
	secret []string
}

// The console's forms with values to check (buttons without inputs only have their error page).
var (
	keyForm      = form{name: "key", inputs: []string{"name"}}
	webhookForm  = form{name: "webhook", inputs: []string{"url", "events"}}
	styleForm    = form{name: "style", inputs: []string{"position", "theme", "accent", "drag"}}
	domainsForm  = form{name: "domains", inputs: []string{"domains"}}
	faqForm      = form{name: "faq", inputs: []string{"question", "answer"}}
	tryForm      = form{name: "try", inputs: []string{"question"}}
	crawlForm    = form{name: "crawl", inputs: []string{"url"}}
	channelsForm = form{name: "channels", inputs: []string{"api", "web", "messaging"}}
	periodForm   = form{name: "period", inputs: []string{"from", "to"}}
)

// formKey is the page data's key of a refused form's state.
const formKey = "Form"

// formState is a refused form as the owner sent it.
type formState struct {
	Form    string // the form's name
	Input   string // the input at fault; "" when the field names none of the form's
	Field   string // the field at fault as the API names it (items[0].question)
	Message string // the reason, as the API gives it
	Format  string // its form and values (domain.Error), for the page's language: reason
	Args    []any
	Values  map[string][]string // what was typed, secrets left out
}

// fieldError is what the "field-error" template shows next to an input, and "form-error" above
// a form (with Field) when the field names none of its inputs.
type fieldError struct{ ID, Lead, Field, Message string }

// page renders a console page with its status and data added to the page's own.
type page func(ctx *gin.Context, status int, extra map[string]any)

// refuse answers err for form f: a bad value renders the form's page again (show) with the
// reason next to the field and the values typed; anything else is answered as fail does.
func (c *Console) refuse(ctx *gin.Context, err error, f form, show page) {
	e, ok := domain.AsError(err)
	if !ok || e.Code != domain.CodeInvalidRequest && e.Code != domain.CodeInputTooLarge {
		c.fail(ctx, err)
		return
	}
	st := &formState{Form: f.name, Field: e.Field, Message: e.Message, Format: e.Format, Args: e.Args, Values: map[string][]string{}}
	if in := inputOf(e.Field); slices.Contains(f.inputs, in) {
		st.Input = in
	}
	for _, in := range f.inputs {
		if slices.Contains(f.secret, in) {
			continue
		}
		var vs []string
		if ctx.Request.Method == http.MethodGet {
			vs = ctx.QueryArray(in)
		} else {
			vs = ctx.PostFormArray(in)
		}
		for _, v := range vs {
			st.Values[in] = append(st.Values[in], strings.ToValidUTF8(strings.ReplaceAll(v, "\x00", ""), "\uFFFD"))
		}
	}
	show(ctx, http.StatusBadRequest, map[string]any{formKey: st})
}

// inputOf is the form input a field of the API names: its last part, without an index
// (items[0].question: question; domains[2]: domains).
func inputOf(field string) string {
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		field = field[i+1:]
	}
	if i := strings.IndexByte(field, '['); i >= 0 {
		field = field[:i]
	}
	return field
}

// refused returns the state of form if it is the one refused.
func (v view) refused(form string) *formState {
	if v.form == nil || v.form.Form != form {
		return nil
	}
	return v.form
}

// errorID is the id of the reason shown next to an input (or above the form: input "").
func errorID(form, input string) string {
	if input == "" {
		return form + "-error"
	}
	return form + "-" + input + "-error"
}

// Invalid returns the attributes of an input the refusal names: aria-invalid, aria-describedby
// (its reason) and autofocus. form and input are the template's own names.
func (v view) Invalid(form, input string) template.HTMLAttr {
	st := v.refused(form)
	if st == nil || st.Input != input || !plainName(form) || !plainName(input) {
		return ""
	}
	return template.HTMLAttr(`aria-invalid="true" aria-describedby="` + errorID(form, input) + `" autofocus`)
}

// plainName reports whether a template's name of a form or input can go into an id unescaped.
func plainName(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
}

// FieldError returns the reason to show next to input, or nil.
func (v view) FieldError(form, input string) *fieldError {
	st := v.refused(form)
	if st == nil || st.Input != input {
		return nil
	}
	return &fieldError{ID: errorID(form, input), Lead: v.T("form.fix"), Message: v.reason(st)}
}

// FormError returns the refusal of form whose field names none of its inputs (shown above it),
// or nil.
func (v view) FormError(form string) *fieldError {
	if st := v.refused(form); st != nil && st.Input == "" {
		return &fieldError{ID: errorID(form, ""), Lead: v.T("error.invalid"), Field: st.Field, Message: v.reason(st)}
	}
	return nil
}

// Value returns what the owner typed in input when form was refused, else fallback (the value
// the page shows otherwise; none is "").
func (v view) Value(form, input string, fallback any) string {
	st := v.refused(form)
	if st == nil {
		if fallback == nil {
			return ""
		}
		return fmt.Sprint(fallback)
	}
	return strings.Join(st.Values[input], "\n")
}

// Has reports whether input held value when form was refused (a ticked box, a chosen option),
// else fallback.
func (v view) Has(form, input, value string, fallback bool) bool {
	st := v.refused(form)
	if st == nil {
		return fallback
	}
	return slices.Contains(st.Values[input], value)
}
