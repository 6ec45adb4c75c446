package store_test

import (
	"testing"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/ports/portstest"
)

func TestMessaging(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			portstest.RunMessaging(t, func(t *testing.T) portstest.Messaging {
				db := newDB(t, d.url(t))
				return portstest.Messaging{Tx: store.NewTx(db), Accounts: store.NewAccounts(db),
					Connections: store.NewConnections(db), Inbox: store.NewInbox(db)}
			})
		})
	}
}
