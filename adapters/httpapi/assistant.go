package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	assistantapp "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/ratelimit"
)

// POST /v1/assistant

// assistantIn is the body of POST /v1/assistant.
type assistantIn struct {
	Message         *string `json:"message"`
	Input           *string `json:"input"`
	Mode            *string `json:"mode"`
	ConversationID  *string `json:"conversation_id"`
	NewConversation *bool   `json:"new_conversation"`
	Image           *bool   `json:"image"`
	Lang            *string `json:"lang"`
	Approve         *string `json:"approve"`
}

// assistantActionJSON is an action: an e-mail always carries to, cc, subject and text; other
// types carry the fields they use. ok and error come after the service ran it (not in an
// approval's actions, which have not run).
type assistantActionJSON struct {
	Type     string  `json:"type"`
	OK       *bool   `json:"ok,omitempty"`
	Error    *string `json:"error,omitempty"`
	To       *string `json:"to,omitempty"`
	Cc       *string `json:"cc,omitempty"`
	Subject  *string `json:"subject,omitempty"`
	Text     *string `json:"text,omitempty"`
	Name     *string `json:"name,omitempty"`
	Email    *string `json:"email,omitempty"`
	Phone    *string `json:"phone,omitempty"`
	Date     *string `json:"date,omitempty"`
	Setting  *string `json:"setting,omitempty"`
	Value    *string `json:"value,omitempty"`
	Question *string `json:"question,omitempty"`
	Answer   *string `json:"answer,omitempty"`
	Query    *string `json:"query,omitempty"`
	Target   *string `json:"target,omitempty"`
	URL      *string `json:"url,omitempty"`
}

func assistantActionOf(a assistant.Action) assistantActionJSON {
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	out := assistantActionJSON{Type: string(a.Type), To: opt(a.To), Cc: opt(a.Cc), Subject: opt(a.Subject), Text: opt(a.Text),
		Name: opt(a.Name), Email: opt(a.Email), Phone: opt(a.Phone), Date: opt(a.Date), Setting: opt(a.Setting),
		Value: opt(a.Value), Question: opt(a.Question), Answer: opt(a.Answer), Query: opt(a.Query), Target: opt(a.Target),
		URL: opt(a.URL)}
	if a.Type == assistant.Email {
		to, cc, subject, text := a.To, a.Cc, a.Subject, a.Text
		out.To, out.Cc, out.Subject, out.Text = &to, &cc, &subject, &text
	}
	return out
}

type blockedJSON struct {
	assistantActionJSON
	Reason string `json:"reason"`
}

type approvalJSON struct {
	ID        string                `json:"id"`
	ExpiresAt string                `json:"expires_at"`
	Actions   []assistantActionJSON `json:"actions"`
}

type assistantReplyJSON struct {
	Object         string                `json:"object"`
	Mode           string                `json:"mode"`
	Status         string                `json:"status"`
	ConversationID *string               `json:"conversation_id"`
	Reply          *string               `json:"reply"`
	Actions        []assistantActionJSON `json:"actions"`
	Blocked        []blockedJSON         `json:"blocked"`
	Approval       *approvalJSON         `json:"approval"`
	Usage          interactionsJSON      `json:"usage"`
}

// offsetStamp writes a time in ISO 8601 with an explicit offset (+00:00).
func offsetStamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05-07:00") }

func assistantReplyOf(r assistantapp.Reply) assistantReplyJSON {
	out := assistantReplyJSON{Object: "assistant_reply", Mode: string(r.Mode), Status: string(r.Status), Reply: r.Text,
		Actions: make([]assistantActionJSON, 0, len(r.Actions)), Blocked: make([]blockedJSON, 0, len(r.Blocked)),
		Usage: interactionsOf(r.Usage)}
	if r.ConversationID != "" {
		id := r.ConversationID
		out.ConversationID = &id
	}
	for _, o := range r.Actions {
		a := assistantActionOf(o.Action)
		ok := o.OK
		a.OK = &ok
		if !o.OK {
			e := string(o.Error)
			a.Error = &e
		}
		out.Actions = append(out.Actions, a)
	}
	for _, b := range r.Blocked {
		out.Blocked = append(out.Blocked, blockedJSON{assistantActionJSON: assistantActionOf(b.Action), Reason: string(b.Reason)})
	}
	if a := r.Approval; a != nil {
		aj := &approvalJSON{ID: a.ID, ExpiresAt: offsetStamp(a.ExpiresAt), Actions: make([]assistantActionJSON, 0, len(a.Actions))}
		for _, act := range a.Actions {
			aj.Actions = append(aj.Actions, assistantActionOf(act))
		}
		out.Approval = aj
	}
	return out
}

func (s *Server) postAssistant(c *gin.Context) {
	p, _ := principal(c)
	var body assistantIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	req := assistant.Request{Message: body.Message, Input: body.Input, Mode: body.Mode, ConversationID: body.ConversationID,
		NewConversation: body.NewConversation, Image: body.Image, Lang: body.Lang, Approve: body.Approve}
	if _, _, err := req.Validate(); err != nil {
		s.fail(c, err)
		return
	}
	if !s.limit(c, p.Account.Plan, p.Account.ID, ratelimit.Assistant) {
		return
	}
	r, err := s.uc.Assistant.Handle(c.Request.Context(), assistantapp.Caller{Account: p.Account, SendWithoutApproval: p.SendWithoutApproval}, req)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, assistantReplyOf(r))
}
