// Package profiles holds the use cases of the account's profile (domain/profile): reading and
// changing what the agent knows of the business, its appearance and its channel switches.
package profiles

import (
	"context"

	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

// Service reads and changes profiles.
type Service struct {
	profiles ports.Profiles
	clock    ports.Clock
}

// New returns a Service.
func New(a ports.Profiles, c ports.Clock) *Service {
	return &Service{profiles: a, clock: c}
}

// Get returns the account's profile (the default one when nothing was set).
func (p *Service) Get(ctx context.Context, accountID string) (profile.Profile, error) {
	return p.profiles.Get(ctx, accountID)
}

// Update applies a partial change of the profile: a field left out keeps its value.
func (p *Service) Update(ctx context.Context, accountID string, ch profile.Patch) (profile.Profile, error) {
	return p.change(ctx, accountID, func(prof *profile.Profile) error { return prof.Apply(ch) })
}

// UpdateAppearance applies a partial change of the appearance.
func (p *Service) UpdateAppearance(ctx context.Context, accountID string, ch profile.AppearancePatch) (profile.Profile, error) {
	return p.change(ctx, accountID, func(prof *profile.Profile) error { return prof.ApplyAppearance(ch) })
}

func (p *Service) change(ctx context.Context, accountID string, fn func(*profile.Profile) error) (profile.Profile, error) {
	return p.profiles.Update(ctx, accountID, func(prof *profile.Profile) error {
		if err := fn(prof); err != nil {
			return err
		}
		prof.UpdatedAt = p.clock.Now().UTC()
		return nil
	})
}
