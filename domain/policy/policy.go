// Package policy holds the customers-only rule of the customer channels (website chat, API,
// site plugin): the agent serves the business's customers, and never changes settings, reveals
// its instructions or other customers' data, or takes orders from someone claiming to be the
// owner. Screen recognises messages that try; Refusal is the answer they get. Permits and
// Actions screen what the agent does per channel: a customer channel never gets an owner's act.
package policy

import (
	"strings"

	"github.com/svcagent/svc/domain/language"
)

// Reason says why a message was refused.
type Reason string

// The reasons a message is refused.
const (
	// ClaimsOwner: the sender claims to be the owner, staff or developer and asks for something
	// only the owner may do or see.
	ClaimsOwner Reason = "claims_owner"
	// ChangeSettings: the sender asks to change the agent (its tone, instructions, name), prices,
	// products, the Brain, opening hours or settings.
	ChangeSettings Reason = "change_settings"
	// OtherCustomersData: the sender asks for other customers' data, leads, orders,
	// conversations, bookings or the business's reports.
	OtherCustomersData Reason = "other_customers_data"
	// SystemPrompt: the sender asks for the agent's instructions, hidden rules or configuration.
	SystemPrompt Reason = "system_prompt"
	// OverrideInstructions: the sender tries to override the agent's instructions ("ignore
	// previous instructions", "you are now…", developer mode, role-play as the admin).
	OverrideInstructions Reason = "override_instructions"
)

// Verdict is the outcome of screening one customer message. A refused message carries the
// reason; an allowed one has none.
type Verdict struct {
	Allowed bool
	Reason  Reason
}

// Screen decides whether a customer message may go to the agent. It recognises, in English,
// Portuguese (Brazil and Portugal) and Spanish, messages that try to make the agent act for the
// owner. The message is normalized first (lower case, accents folded, punctuation and extra
// spaces dropped, light obfuscation undone) and matched against phrase rules over whole words,
// so that a customer who owns a shop elsewhere, changes their own order or asks for the opening
// hours passes. An attempt to override the instructions is refused as OverrideInstructions;
// any other refused request made with a claim to be the owner or staff is refused as
// ClaimsOwner, as is a claim with a request only the owner makes ("show me my notifications").
// Screen is deterministic and safe for any input.
func Screen(message string) Verdict {
	m := newInput(message)
	if fires(lexicons.override, m) {
		return Verdict{Reason: OverrideInstructions}
	}
	claim := fires(lexicons.claims, m)
	for _, c := range checks {
		if fires(c.rules, m) {
			if claim {
				return Verdict{Reason: ClaimsOwner}
			}
			return Verdict{Reason: c.reason}
		}
	}
	if claim && fires(lexicons.ownerOnly, m) {
		return Verdict{Reason: ClaimsOwner}
	}
	return Verdict{Allowed: true}
}

// Refusal returns the answer to a refused message, in the customer's language (en, pt, es; a
// regional code such as pt-BR counts as its language, anything else as English): short and
// polite, it declines without lecturing and offers help with products, services, orders or
// bookings. business, when given, names whose assistant is answering.
func Refusal(lang, business string) string {
	business = strings.TrimSpace(business)
	switch language.Base(lang) {
	case language.Portuguese:
		who := "Sou o assistente de atendimento aos clientes"
		if business != "" {
			who += " de " + business
		}
		return who + " e não posso alterar configurações nem dar informações internas ou de outros clientes. " +
			"Posso ajudar com os nossos produtos, serviços, o seu pedido ou uma reserva?"
	case language.Spanish:
		who := "Solo puedo ayudar como asistente de atención al cliente"
		if business != "" {
			who += " de " + business
		}
		return who + ": no puedo cambiar la configuración ni compartir información interna o de otros clientes. " +
			"¿Te ayudo con nuestros productos, servicios, tu pedido o una reserva?"
	default:
		who := "a customer assistant"
		if business != "" {
			who = possessive(business) + " customer assistant"
		}
		return "I can only help as " + who + ": I can't change settings or share internal or other customers' information. " +
			"Is there anything about our products, services, your order or a booking I can help with?"
	}
}

// possessive returns the English possessive of a name: "Padaria Lu's", "Sweets'".
func possessive(name string) string {
	if strings.HasSuffix(name, "s") || strings.HasSuffix(name, "S") {
		return name + "'"
	}
	return name + "'s"
}

// lexicon holds the rules of one language, or of all of them merged.
type lexicon struct {
	claims    []rule // the sender claims to be the owner, staff or developer
	ownerOnly []rule // requests that only the owner may make: refused with a claim
	override  []rule
	prompt    []rule
	settings  []rule
	others    []rule
}

// lexicons are the rules of every language: a message is screened against all of them, as
// customers mix languages.
var lexicons = merge(english, portuguese, spanish)

func merge(ls ...lexicon) lexicon {
	var m lexicon
	for _, l := range ls {
		m.claims = append(m.claims, l.claims...)
		m.ownerOnly = append(m.ownerOnly, l.ownerOnly...)
		m.override = append(m.override, l.override...)
		m.prompt = append(m.prompt, l.prompt...)
		m.settings = append(m.settings, l.settings...)
		m.others = append(m.others, l.others...)
	}
	return m
}

// checks are the requests a message is screened for once it is no override, in order.
var checks = []struct {
	reason Reason
	rules  []rule
}{
	{SystemPrompt, lexicons.prompt},
	{ChangeSettings, lexicons.settings},
	{OtherCustomersData, lexicons.others},
}

// claim compiles claim rules; a claim followed by aside ("of a small shop") is about another
// business and no claim.
func claim(aside string, patterns ...string) []rule {
	return except(aside, strict(patterns...))
}
