package policy

import (
	"reflect"
	"testing"

	"github.com/svcagent/svc/domain/actiontoken"
	"github.com/svcagent/svc/domain/channel"
)

// TestPermits checks every act on every channel.
func TestPermits(t *testing.T) {
	all := []Act{ActOpen, ActCart, ActCheckout, ActBooking, ActSettings, "delete", ""}
	customer := map[Act]bool{ActOpen: true, ActCart: true, ActCheckout: true, ActBooking: true}
	tests := []struct {
		ch   channel.Channel
		want map[Act]bool // the acts permitted; every other is refused
	}{
		{channel.API, customer},
		{channel.Web, customer},
		{channel.Messaging, customer},
		{channel.Owner, map[Act]bool{ActOpen: true, ActBooking: true, ActSettings: true}},
		{"fax", nil},
		{"", nil},
	}
	for _, tt := range tests {
		for _, act := range all {
			if got := Permits(tt.ch, act); got != tt.want[act] {
				t.Errorf("Permits(%q, %q) = %v, want %v", tt.ch, act, got, tt.want[act])
			}
		}
	}
	// The customers-only rule: no customer channel is given an owner's act.
	for _, ch := range []channel.Channel{channel.API, channel.Web, channel.Messaging} {
		if !ch.Customer() || Permits(ch, ActSettings) {
			t.Errorf("customer channel %q may change settings", ch)
		}
	}
}

func TestActions(t *testing.T) {
	open := actiontoken.Action{Type: actiontoken.Open, URL: "https://shop.example/menu"}
	cart := actiontoken.Action{Type: actiontoken.Cart, ProductID: "42", Qty: 2}
	checkout := actiontoken.Action{Type: actiontoken.Checkout}
	settings := actiontoken.Action{Type: string(ActSettings)}
	reply := []actiontoken.Action{open, cart, settings, checkout}
	tests := []struct {
		ch   channel.Channel
		in   []actiontoken.Action
		want []actiontoken.Action
	}{
		{channel.API, reply, []actiontoken.Action{open, cart, checkout}},
		{channel.Web, reply, []actiontoken.Action{open, cart, checkout}},
		{channel.Messaging, reply, []actiontoken.Action{open, cart, checkout}},
		{channel.Owner, reply, []actiontoken.Action{open, settings}},
		{"fax", reply, nil},
		{channel.Web, nil, nil},
	}
	for _, tt := range tests {
		if got := Actions(tt.ch, tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Actions(%q) = %+v, want %+v", tt.ch, got, tt.want)
		}
	}
}
