package policy

import (
	"github.com/svcagent/svc/domain/actiontoken"
	"github.com/svcagent/svc/domain/channel"
)

// Act is something the agent does for the person it answers: an action of its reply (the
// actiontoken types), a booking, or a change only the owner may ask for.
type Act string

// The acts.
const (
	ActOpen     Act = actiontoken.Open     // show a page of the site
	ActCart     Act = actiontoken.Cart     // add a product to the customer's cart
	ActCheckout Act = actiontoken.Checkout // take the customer to the checkout
	ActBooking  Act = "booking"            // book an appointment or a reservation
	// ActSettings changes the business's settings: the agent, prices, products, the Brain,
	// opening hours. Only the owner may.
	ActSettings Act = "settings"
)

// acts are what each channel may be given. The customer channels get the customer's acts and
// never an owner's (the customers-only rule); the owner's own channel gets the owner's, and the
// shopping acts, which only a customer's browser can carry out, not. An unknown channel or act
// gets nothing.
var acts = map[channel.Channel]map[Act]bool{
	channel.API:       {ActOpen: true, ActCart: true, ActCheckout: true, ActBooking: true},
	channel.Web:       {ActOpen: true, ActCart: true, ActCheckout: true, ActBooking: true},
	channel.Messaging: {ActOpen: true, ActCart: true, ActCheckout: true, ActBooking: true},
	channel.Owner:     {ActOpen: true, ActBooking: true, ActSettings: true},
}

// Permits reports whether the agent may do act for the person it answers on ch.
func Permits(ch channel.Channel, act Act) bool { return acts[ch][act] }

// Actions returns the actions of a reply that ch may be given, in order; nil when none is.
func Actions(ch channel.Channel, actions []actiontoken.Action) []actiontoken.Action {
	var out []actiontoken.Action
	for _, a := range actions {
		if Permits(ch, Act(a.Type)) {
			out = append(out, a)
		}
	}
	return out
}
