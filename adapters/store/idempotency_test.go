package store_test

import (
	"testing"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/ports/portstest"
)

func TestIdempotencyStores(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			portstest.RunIdempotency(t, func(t *testing.T) portstest.IdempotencyStores {
				db := newDB(t, d.url(t))
				return portstest.IdempotencyStores{Stores: stores(db), Idempotency: store.NewIdempotency(db)}
			})
		})
	}
}
