package ports

import (
	"context"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/widget"
)

//go:generate go tool mockgen -source=widget.go -destination=mock/widget.go -package=mock

// Widgets finds accounts by their public widget token and keeps the widget's saved style.
type Widgets interface {
	// Account returns the account whose widget token is token; not_found when none.
	Account(ctx context.Context, token string) (account.Account, error)
	// Style returns the account's saved style, widget.DefaultStyle when it saved none.
	Style(ctx context.Context, accountID string) (widget.Style, error)
	// UpdateStyle loads the account's style, lets fn change it and saves it, in one transaction
	// (concurrent updates each see the other's change), and returns what was saved.
	UpdateStyle(ctx context.Context, accountID string, fn func(s *widget.Style) error) (widget.Style, error)
}
