package ports

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain/plugin"
)

//go:generate go tool mockgen -source=plugin.go -destination=mock/plugin.go -package=mock

// PluginRequests keeps the site plugin's connection requests until the owner approves them, and
// the connect codes an approval makes (by hash).
type PluginRequests interface {
	// Save stores a pending request.
	Save(ctx context.Context, p plugin.Pending) error
	// Get returns a pending request, expired or not; not_found when none (or approved already).
	Get(ctx context.Context, id string) (plugin.Pending, error)
	// Approve deletes the pending request id and stores c, in one step: only one approval of a
	// request succeeds (not_found for the others).
	Approve(ctx context.Context, id string, c plugin.Code) error
	// Redeem marks the code of hash used when c.Redeem(site, now) allows it, atomically (of two
	// concurrent redeems one succeeds), and returns it; plugin.ErrCode otherwise, unknown included.
	Redeem(ctx context.Context, hash, site string, now time.Time) (plugin.Code, error)
}

// PluginSites stores the sites connected through the plugin, by the hash of their token.
type PluginSites interface {
	// Connect stores c and revokes, at c.CreatedAt, the account's other connections of the same site.
	Connect(ctx context.Context, c plugin.Connection) error
	// ByToken returns the connection whose token has hash, revoked or not; not_found when none.
	ByToken(ctx context.Context, hash string) (plugin.Connection, error)
	// List returns the account's connections not revoked, newest first.
	List(ctx context.Context, accountID string) ([]plugin.Connection, error)
	// Revoke revokes the account's connection id (a second revoke keeps the first time);
	// not_found when the account has none with that id.
	Revoke(ctx context.Context, accountID, id string, at time.Time) error
	// Synced records the account's connection's last sync.
	Synced(ctx context.Context, accountID, id string, at time.Time, counts plugin.Counts) error
}

// PluginOrders remembers the orders a site reported, so that an order counts once.
type PluginOrders interface {
	// Claim records that the account's order orderID of site made conversionID, unless one was
	// recorded before: then it returns that one's conversion id and first false. Atomic under
	// concurrent claims of the same order.
	Claim(ctx context.Context, accountID, site string, orderID int64, conversionID string, at time.Time) (existing string, first bool, err error)
}
