package ports

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain/owner"
)

//go:generate go tool mockgen -source=owner.go -destination=mock/owner.go -package=mock

// Owners stores the owners' console credentials and sessions.
type Owners interface {
	// SetCredential stores the account's credential, replacing the one it had; invalid_request
	// (field email) when another account's credential has that e-mail.
	SetCredential(ctx context.Context, c owner.Credential) error
	// Credential finds a credential by its normalised e-mail (the sign-in lookup); not_found when
	// none.
	Credential(ctx context.Context, email string) (owner.Credential, error)
	// CreateSession stores a new session.
	CreateSession(ctx context.Context, s owner.Session) error
	// Session finds a session by its token's hash, unexpired at now; not_found otherwise.
	Session(ctx context.Context, hash string, now time.Time) (owner.Session, error)
	// EndSession deletes one session (nothing when none).
	EndSession(ctx context.Context, hash string) error
	// EndSessions deletes every session of the account.
	EndSessions(ctx context.Context, accountID string) error
}
