// Package clock adapts the system clock to ports.Clock.
package clock

import (
	"time"

	"github.com/google/wire"

	"github.com/svcagent/svc/ports"
)

// Set provides the system clock as ports.Clock.
var Set = wire.NewSet(New, wire.Bind(new(ports.Clock), new(*System)))

// System reads the operating system's clock.
type System struct{}

// New returns the system clock.
func New() *System { return &System{} }

// Now returns the current time in UTC.
func (*System) Now() time.Time { return time.Now().UTC() }
