package profiles

import (
	"context"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports/mock"
)

func TestUpdate(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	name, rude := "Padaria Lu", "rude\nand loud"
	tests := []struct {
		name    string
		patch   profile.Patch
		want    domain.Code
		saved   bool
		checkFn func(t *testing.T, p profile.Profile)
	}{
		{name: "saves the merged profile", patch: profile.Patch{BusinessName: &name}, saved: true, checkFn: func(t *testing.T, p profile.Profile) {
			if p.BusinessName != name || p.Tone != "warm" || !p.UpdatedAt.Equal(now) || p.AccountID != "acct_1" {
				t.Fatalf("%+v", p)
			}
		}},
		{name: "invalid patch saves nothing", patch: profile.Patch{Tone: &rude}, want: domain.CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctrl := gomock.NewController(t)
			store, clock := mock.NewMockProfiles(ctrl), mock.NewMockClock(ctrl)
			clock.EXPECT().Now().Return(now).AnyTimes()
			stored := profile.Default("acct_1")
			stored.Tone = "warm"
			// The store runs the change on what it holds, in its transaction; fn's error saves nothing.
			store.EXPECT().Update(gomock.Any(), "acct_1", gomock.Any()).DoAndReturn(
				func(_ context.Context, _ string, fn func(*profile.Profile) error) (profile.Profile, error) {
					p := stored
					if err := fn(&p); err != nil {
						return profile.Profile{}, err
					}
					p.AccountID = "acct_1"
					if !tt.saved {
						t.Fatal("an invalid patch reached the save")
					}
					tt.checkFn(t, p)
					return p, nil
				})
			p, err := New(store, clock).Update(context.Background(), "acct_1", tt.patch)
			if got := domain.ErrorCode(err); got != tt.want {
				t.Fatalf("code %q, want %q", got, tt.want)
			}
			if tt.checkFn != nil {
				tt.checkFn(t, p)
			}
		})
	}
}
