package store_test

import (
	"testing"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/ports/portstest"
)

func TestAssistantStores(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			portstest.RunAssistantStores(t, func(t *testing.T) portstest.AssistantStores {
				db := newDB(t, d.url(t))
				return portstest.AssistantStores{Stores: stores(db), Records: store.NewRecords(db),
					Approvals: store.NewApprovals(db), History: store.NewAssistantHistory(db), Mailboxes: store.NewMailboxes(db)}
			})
		})
	}
}
