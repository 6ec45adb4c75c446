// Package assistant holds the account owner's assistant (spec 2.12, 3.1, 4.7): the catalogue of
// the actions it knows, the mode rules that decide whether an action runs at once, waits for
// approval or is refused, the validation of a request, the statuses of a reply, and the local
// command grammar that reads instructions without a model.
package assistant

import (
	"strings"

	"github.com/svcagent/svc/domain/ledger"
)

// Type names an action of the catalogue. It is the "type" of an action in a reply.
type Type string

// The catalogue: every action the assistant knows.
const (
	// Low-risk: the account's own records, an e-mail to the owner, a web search.
	Contact   Type = "contact"
	Lead      Type = "lead"
	Task      Type = "task"
	Note      Type = "note"
	Event     Type = "event"
	Booking   Type = "booking"
	WebSearch Type = "web_search"
	// Email is an e-mail: to the account owner it is low-risk, to anyone else it needs approval.
	Email Type = "email"

	// Needs approval: anything leaving to another person, any change to settings, the
	// assistant, the Brain or a connector.
	Message         Type = "message"
	SocialPost      Type = "social_post"
	Settings        Type = "settings"
	AssistantChange Type = "assistant_settings"
	FAQ             Type = "faq"
	ConnectorChange Type = "connector"

	// Never through the API.
	Delete       Type = "delete"
	CarCommand   Type = "car_command"
	PhoneCall    Type = "call"
	Image        Type = "image"
	ComputerTask Type = "computer_task"
	FileTask     Type = "file_task"
)

// Class is how the mode rules treat an action.
type Class int

// The classes of spec 4.7.
const (
	Unknown Class = iota
	LowRisk
	RequiresApproval
	Never
)

var classes = map[Type]Class{
	Contact: LowRisk, Lead: LowRisk, Task: LowRisk, Note: LowRisk, Event: LowRisk, Booking: LowRisk,
	WebSearch: LowRisk,
	Email:     RequiresApproval, // LowRisk when addressed to the owner: see ClassOf
	Message:   RequiresApproval, SocialPost: RequiresApproval, Settings: RequiresApproval,
	AssistantChange: RequiresApproval, FAQ: RequiresApproval, ConnectorChange: RequiresApproval,
	Delete: Never, CarCommand: Never, PhoneCall: Never, Image: Never, ComputerTask: Never, FileTask: Never,
}

// Types lists the catalogue, in a fixed order (the tools offered to a model follow it).
var Types = []Type{Contact, Lead, Task, Note, Event, Booking, WebSearch, Email, Message, SocialPost, Settings,
	AssistantChange, FAQ, ConnectorChange, Delete, CarCommand, PhoneCall, Image, ComputerTask, FileTask}

// Records are the action types that save one of the owner's records.
var Records = []Type{Contact, Lead, Task, Note, Event, Booking}

// IsRecord reports whether t saves one of the owner's records.
func IsRecord(t Type) bool {
	for _, r := range Records {
		if r == t {
			return true
		}
	}
	return false
}

// Action is one action the assistant would take, with the fields its type uses.
type Action struct {
	Type    Type
	To      string // email, message: the recipient; call: who
	Cc      string
	Subject string
	Text    string // email, message, social post, note, task, event, booking: the text
	Name    string // contact, lead
	Email   string // contact, lead
	Phone   string // contact, lead
	Date    string // task, event, booking: YYYY-MM-DD when known
	Setting string // settings: which one (e.g. "tone")
	Value   string // settings: the new value
	// Question and Answer are an FAQ item.
	Question string
	Answer   string
	Query    string // web search
	Target   string // delete, car command, computer or file task: what it is about
	URL      string // image: the picture made
	// ToOwner marks an e-mail addressed to the account owner: set by Address, and by Parse for
	// an e-mail to "me" (To empty until Address gives it the owner's address).
	ToOwner bool
}

// Address gives the e-mails to "me" the owner's e-mail address, when the account has one, and
// marks the e-mails addressed to it alone.
func Address(actions []Action, ownerEmail string) []Action {
	owner := strings.TrimSpace(ownerEmail)
	for i := range actions {
		a := &actions[i]
		if a.Type == Email && a.ToOwner && strings.TrimSpace(a.To) == "" {
			a.To = owner
		}
		a.ToOwner = a.Type == Email && owner != "" && strings.EqualFold(strings.TrimSpace(a.To), owner) && a.Cc == ""
	}
	return actions
}

// ClassOf returns an action's class: an e-mail to the owner is low-risk, a type outside the
// catalogue is Unknown.
func ClassOf(a Action) Class {
	if a.Type == Email && a.ToOwner {
		return LowRisk
	}
	return classes[a.Type]
}

// sendable are the actions Send without approval lets go out at once.
func sendable(t Type) bool { return t == Email || t == Message || t == SocialPost }

// Mode is how the assistant may act.
type Mode string

// The modes of spec 4.7.
const (
	Ask Mode = "ask"
	Do  Mode = "do"
)

// Verdict is what the mode rules decide for one action.
type Verdict int

// The verdicts.
const (
	Block Verdict = iota
	Run
	Wait
)

// Reason is why an action was refused (spec 4.7 rule 5).
type Reason string

// The blocked reasons.
const (
	AnswerOnly       Reason = "answer_only"
	DeleteNotAllowed Reason = "delete_not_allowed"
	NotAvailable     Reason = "not_available"
	UnknownAction    Reason = "unknown_action"
)

// Decision is the verdict on one action, with the reason when it is blocked.
type Decision struct {
	Verdict Verdict
	Reason  Reason
}

// Permissions are what the request and its key allow beyond the rules.
type Permissions struct {
	// SendWithoutApproval is the key's permission (rule 6).
	SendWithoutApproval bool
	// Image is the request's image flag: one picture may be made in mode do.
	Image bool
}

// Decide applies the mode rules of spec 4.7 to one action:
//
//  1. ask never acts: every action is blocked answer_only (an action outside the catalogue is
//     unknown_action whatever the mode);
//  2. do runs low-risk actions at once;
//  3. what leaves to another person or changes settings, the assistant, the Brain or a
//     connector waits for approval;
//  4. deleting is delete_not_allowed; car commands, calls, pictures (without image), computer
//     and file tasks are not_available;
//  6. with Send without approval, e-mails to others, messages and social posts run at once.
func Decide(mode Mode, a Action, p Permissions) Decision {
	class := ClassOf(a)
	switch {
	case class == Unknown:
		return Decision{Verdict: Block, Reason: UnknownAction}
	case mode != Do:
		return Decision{Verdict: Block, Reason: AnswerOnly}
	case a.Type == Delete:
		return Decision{Verdict: Block, Reason: DeleteNotAllowed}
	case a.Type == Image && p.Image:
		return Decision{Verdict: Run}
	case class == Never:
		return Decision{Verdict: Block, Reason: NotAvailable}
	case class == LowRisk:
		return Decision{Verdict: Run}
	case p.SendWithoutApproval && sendable(a.Type):
		return Decision{Verdict: Run}
	}
	return Decision{Verdict: Wait}
}

// Charge returns what running an action costs beyond the reply (DESIGN.md: web search +1, a
// task +1, a picture +10), as a ledger action, and false when it costs nothing more.
func Charge(t Type) (ledger.Action, bool) {
	switch t {
	case Task:
		return ledger.TaskCreated, true
	case WebSearch:
		return ledger.WebSearch, true
	case Image:
		return ledger.Picture, true
	}
	return "", false
}

// Unavailable reports whether a blocked action needs a website or the user's computer, which
// the API cannot provide (reply status unavailable).
func Unavailable(t Type) bool { return t == ComputerTask || t == FileTask }
