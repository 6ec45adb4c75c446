package store_test

import (
	"testing"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/ports/portstest"
)

func TestOwnerStores(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			portstest.RunOwners(t, func(t *testing.T) portstest.OwnerStores {
				db := newDB(t, d.url(t))
				return portstest.OwnerStores{Stores: stores(db), Owners: store.NewOwners(db)}
			})
		})
	}
}
