package outage

import (
	"errors"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
)

func TestRetry(t *testing.T) {
	away := &domain.Error{Code: domain.CodeServiceUnavailable, Message: "away"}
	other := errors.New("bad statement")
	tests := []struct {
		name    string
		results []error // what each try returns
		tries   int
		want    error
	}{
		{"works at once", []error{nil}, 1, nil},
		{"back on the second try", []error{away, nil}, 2, nil},
		{"another error ends it", []error{away, other}, 2, other},
		{"away every time", []error{away, away, away}, 3, away},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tries := 0
			err := Retry(make([]time.Duration, 3), func() error {
				tries++
				return tt.results[tries-1]
			})
			if tries != tt.tries || !errors.Is(err, tt.want) && err != tt.want {
				t.Errorf("%d tries, %v; want %d, %v", tries, err, tt.want, tt.want)
			}
		})
	}
}
