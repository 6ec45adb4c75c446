package assistant

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
)

// Limits of spec 4.7 and part 8, in characters.
const (
	MaxMessage = conversation.MaxMessage // 8000, as a customer's message
	MaxInput   = 8000
)

// Request is the body of POST /v1/assistant; a nil field was not sent.
type Request struct {
	Message         *string
	Input           *string
	Mode            *string
	ConversationID  *string
	NewConversation *bool
	Image           *bool
	Lang            *string
	Approve         *string
}

// Langs are the languages a request may ask for.
var Langs = []string{"en", "pt", "pt-BR", "es"}

// Instruction is a validated new instruction.
type Instruction struct {
	Message         string
	Input           string
	Mode            Mode
	ConversationID  string
	NewConversation bool
	Image           bool
	Lang            string
}

// Validate checks a request against spec 4.7. It returns the approval id when the request is an
// approval (sent alone), else the instruction.
func (r Request) Validate() (approve string, in Instruction, err error) {
	if r.Approve != nil {
		for _, f := range []struct {
			name string
			set  bool
		}{{"message", r.Message != nil}, {"input", r.Input != nil}, {"mode", r.Mode != nil},
			{"conversation_id", r.ConversationID != nil}, {"new_conversation", r.NewConversation != nil},
			{"image", r.Image != nil}, {"lang", r.Lang != nil}} {
			if f.set {
				return "", Instruction{}, domain.Invalid(f.name, "approve must be sent alone: remove %s", f.name)
			}
		}
		if strings.TrimSpace(*r.Approve) == "" {
			return "", Instruction{}, domain.Invalid("approve", "approve must be an approval id")
		}
		return *r.Approve, Instruction{}, nil
	}
	if r.Message == nil {
		return "", Instruction{}, domain.Invalid("message", "message is required (or approve, alone)")
	}
	in = Instruction{Message: *r.Message, Mode: Ask}
	// as a customer's chat message: 1 to 8000 characters, and blank (spaces and invisible
	// characters only, such as zero-width spaces) is refused before anything is charged
	if err := conversation.ValidateMessage("message", in.Message); err != nil {
		return "", Instruction{}, err
	}
	if r.Input != nil {
		if utf8.RuneCountInString(*r.Input) > MaxInput {
			return "", Instruction{}, domain.Invalid("input", "input must be at most %d characters", MaxInput)
		}
		in.Input = *r.Input
	}
	if r.Mode != nil {
		switch Mode(*r.Mode) {
		case Ask, Do:
			in.Mode = Mode(*r.Mode)
		default:
			return "", Instruction{}, domain.Invalid("mode", "mode must be %q or %q", Ask, Do)
		}
	}
	if r.ConversationID != nil {
		if err := conversation.ValidateID("conversation_id", *r.ConversationID); err != nil {
			return "", Instruction{}, err
		}
		in.ConversationID = *r.ConversationID
	}
	if r.NewConversation != nil {
		in.NewConversation = *r.NewConversation
		if in.NewConversation && in.ConversationID != "" {
			return "", Instruction{}, domain.Invalid("new_conversation", "new_conversation starts a conversation: do not send it with conversation_id")
		}
	}
	if r.Image != nil {
		in.Image = *r.Image
		if in.Image && in.Mode != Do {
			return "", Instruction{}, domain.Invalid("image", "image is only allowed in mode do")
		}
	}
	if r.Lang != nil {
		lang, ok := ParseLang(*r.Lang)
		if !ok {
			return "", Instruction{}, domain.Invalid("lang", "lang must be one of %s", strings.Join(Langs, ", "))
		}
		in.Lang = lang
	}
	return "", in, nil
}

// ParseLang accepts the languages of spec 4.7 (case-insensitively).
func ParseLang(s string) (string, bool) {
	for _, l := range Langs {
		if strings.EqualFold(s, l) {
			return l, true
		}
	}
	return "", false
}

// Status is the status of an assistant reply (spec 3.1).
type Status string

// The statuses.
const (
	StatusCompleted     Status = "completed"
	StatusNeedsApproval Status = "needs_approval"
	StatusNeedsInput    Status = "needs_input"
	StatusUnavailable   Status = "unavailable"
	StatusFailed        Status = "failed"
)

// Blocked is a refused action with its reason.
type Blocked struct {
	Action Action
	Reason Reason
}

// Outcome is an action after the service ran it: ok, or the error of spec 4.7 rule 7.
type Outcome struct {
	Action Action
	OK     bool
	Error  ActionError
}

// ActionError is an action's error after it ran (spec 4.7 rule 7).
type ActionError string

// The action errors.
const (
	EmailNotConnected ActionError = "email_not_connected"
	SendFailed        ActionError = "send_failed"
	NoChange          ActionError = "no_change"
	NotApplied        ActionError = "not_applied"
	NotAllowed        ActionError = "not_allowed"
	ActionFailed      ActionError = "failed"
)

// Refused returns the error refused_NNN of an action the other side refused with status code.
func Refused(code int) ActionError { return ActionError(fmt.Sprintf("refused_%03d", code)) }

// StatusOf decides the status of a new instruction's reply: needs_input when the assistant needs
// one more detail, needs_approval when something waits, unavailable when nothing was done and
// a refused action needs a website or the user's computer, else completed.
func StatusOf(needsInput bool, ran []Outcome, waiting []Action, blocked []Blocked) Status {
	switch {
	case needsInput:
		return StatusNeedsInput
	case len(waiting) > 0:
		return StatusNeedsApproval
	case len(ran) == 0:
		for _, b := range blocked {
			if Unavailable(b.Action.Type) {
				return StatusUnavailable
			}
		}
	}
	return StatusCompleted
}

// ApprovedStatus is the status after an approval ran its actions: failed when any is not ok.
func ApprovedStatus(ran []Outcome) Status {
	for _, o := range ran {
		if !o.OK {
			return StatusFailed
		}
	}
	return StatusCompleted
}
