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
//
// A form that meets a limit (429), an outage (503) or a failure (500) is answered the same way:
// its own page again with its status (and Retry-After, as the API answers), the values typed kept
// (secrets left out), and what happened said at the top of the form (role="alert", focused), so
// that the owner corrects nothing and sends it again with the form's own button. When that page
// cannot be rendered either (the store it reads is down), the shared page of the form not sent
// (failedForm) keeps what was typed.

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
	pageForm     = form{name: "page", inputs: []string{"url", "title", "content"}}
	approvalForm = form{name: "approval"}
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
	// Failed is the message key of a limit, an outage or a failure that stopped the form (nothing
	// was saved; Input is ""), Wait a limit's wait in seconds.
	Failed, Wait string
}

// fieldError is what the "field-error" template shows next to an input, and "form-error" above
// a form (with Field) when the field names none of its inputs or the form was not sent.
type fieldError struct{ ID, Lead, Field, Message string }

// page renders a console page with its status and data added to the page's own.
type page func(ctx *gin.Context, status int, extra map[string]any)

// refuse answers err for form f: a bad value renders the form's page again (show) with the
// reason next to the field and the values typed; a limit, an outage or a failure of a POST renders
// it again with its status and what happened above the form; anything else is answered as fail
// does.
func (c *Console) refuse(ctx *gin.Context, err error, f form, show page) {
	st := &formState{Form: f.name, Values: typedValues(ctx, f)}
	if e, ok := domain.AsError(err); ok && (e.Code == domain.CodeInvalidRequest || e.Code == domain.CodeInputTooLarge) {
		st.Field, st.Message, st.Format, st.Args = e.Field, e.Message, e.Format, e.Args
		if in := inputOf(e.Field); slices.Contains(f.inputs, in) {
			st.Input = in
		}
		show(ctx, http.StatusBadRequest, map[string]any{formKey: st})
		return
	}
	status, msg := c.failure(ctx, err)
	if ctx.Request.Method != http.MethodPost || status != http.StatusTooManyRequests && status < http.StatusInternalServerError {
		c.answer(ctx, err, status, msg)
		return
	}
	st.Failed, st.Wait = msg, c.setRetryAfter(ctx, err, status)
	show(ctx, status, map[string]any{formKey: st})
}

// typedValues is what the owner typed in f's inputs (the query of a GET, else the body), secrets
// left out, as valid UTF-8 without NULs.
func typedValues(ctx *gin.Context, f form) map[string][]string {
	values := map[string][]string{}
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
			values[in] = append(values[in], strings.ToValidUTF8(strings.ReplaceAll(v, "\x00", ""), "\uFFFD"))
		}
	}
	return values
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

// FormError returns what stopped form when it is said above it, or nil: a limit, an outage or a
// failure (nothing saved), or a refusal whose field names none of its inputs.
func (v view) FormError(form string) *fieldError {
	st := v.refused(form)
	if st != nil && st.Failed != "" {
		msg := v.T(st.Failed)
		if st.Wait != "" {
			msg = v.T("failed.wait", st.Wait)
		}
		return &fieldError{ID: errorID(form, ""), Lead: v.T("form.not_sent"), Message: msg}
	}
	if st != nil && st.Input == "" {
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
