package portstest

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/widget"
)

// testWidgets: an account is found by its widget token and by nothing else; the style is the
// default until saved, saved per account, rolled back with fn's error, and concurrent updates
// never lose one.
func testWidgets(t *testing.T, s Stores) {
	ctx := context.Background()
	for _, id := range []string{"acct_a", "acct_b"} {
		if err := s.Accounts.Create(ctx, newAccount(id)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Widgets.Account(ctx, newAccount("acct_a").WidgetToken)
	if err != nil || got.ID != "acct_a" {
		t.Fatalf("Account(acct_a's token) = %+v, %v", got, err)
	}
	for _, token := range []string{"", "wt_nobody", "acct_a"} {
		if _, err := s.Widgets.Account(ctx, token); !domain.IsNotFound(err) {
			t.Errorf("Account(%q) = %v, want not_found", token, err)
		}
	}

	if st, err := s.Widgets.Style(ctx, "acct_a"); err != nil || st != widget.DefaultStyle {
		t.Fatalf("Style of an account that saved none = %+v, %v; want the default", st, err)
	}
	want := widget.Style{Position: widget.Left, Theme: widget.Dark, Accent: "#112233", Drag: false}
	saved, err := s.Widgets.UpdateStyle(ctx, "acct_a", func(st *widget.Style) error { *st = want; return nil })
	if err != nil || saved != want {
		t.Fatalf("UpdateStyle = %+v, %v; want %+v", saved, err, want)
	}
	if st, err := s.Widgets.Style(ctx, "acct_a"); err != nil || st != want {
		t.Errorf("Style after the update = %+v, %v; want %+v", st, err, want)
	}
	if st, err := s.Widgets.Style(ctx, "acct_b"); err != nil || st != widget.DefaultStyle {
		t.Errorf("acct_b's style became %+v, %v", st, err)
	}
	if _, err := s.Widgets.UpdateStyle(ctx, "acct_a", func(st *widget.Style) error {
		st.Theme = widget.Light
		return errBoom
	}); err != errBoom {
		t.Errorf("UpdateStyle with fn failing = %v, want fn's error", err)
	}
	if st, _ := s.Widgets.Style(ctx, "acct_a"); st != want {
		t.Errorf("a failed update changed the style to %+v", st)
	}
	if _, err := s.Widgets.UpdateStyle(ctx, "acct_nobody", func(*widget.Style) error { return nil }); !domain.IsNotFound(err) {
		t.Errorf("UpdateStyle of an unknown account = %v, want not_found", err)
	}

	// Concurrent updates of an account with no saved style: each adds one to the accent.
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			_, err := s.Widgets.UpdateStyle(ctx, "acct_b", func(st *widget.Style) error {
				v, err := strconv.ParseUint(st.Accent[1:], 16, 32)
				if err != nil {
					return err
				}
				if st.Accent == widget.DefaultStyle.Accent {
					v = 0
				}
				st.Accent = fmt.Sprintf("#%06x", v+1)
				return nil
			})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent UpdateStyle: %v", err)
		}
	}
	if st, _ := s.Widgets.Style(ctx, "acct_b"); st.Accent != fmt.Sprintf("#%06x", n) {
		t.Errorf("after %d concurrent updates the accent is %s, want #%06x: an update was lost", n, st.Accent, n)
	}
}
