package store_test

import (
	"testing"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/ports/portstest"
)

func TestPushStores(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			portstest.RunPush(t, func(t *testing.T) portstest.PushStores {
				db := newDB(t, d.url(t))
				return portstest.PushStores{Stores: stores(db), Push: store.NewPushSubscriptions(db)}
			})
		})
	}
}
