// Package unconnected adapts the assistant's outside services that no account can connect yet:
// messaging and social-network connectors, and an images upstream when none is configured. Each
// answers as an unconnected service does: a message or post is not allowed (not connected), a
// picture fails.
package unconnected

import (
	"context"
	"errors"

	"github.com/google/wire"

	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/ports"
)

// Set provides the connectors, bound to their port (Images is chosen by each program).
var Set = wire.NewSet(NewConnectors, wire.Bind(new(ports.Connectors), new(*Connectors)))

// Connectors are the messaging and social-network connectors of accounts that have connected
// none: every delivery answers assistant.ErrNotConnected.
type Connectors struct{}

var _ ports.Connectors = (*Connectors)(nil)

// NewConnectors returns the connectors of accounts that have connected none.
func NewConnectors() *Connectors { return &Connectors{} }

// Deliver answers assistant.ErrNotConnected.
func (*Connectors) Deliver(context.Context, string, assistant.Action) error {
	return assistant.ErrNotConnected
}

// ErrNoImages is the answer of Images.
var ErrNoImages = errors.New("no images upstream is configured")

// Images stands for an images upstream when none is configured: every picture fails.
type Images struct{}

var _ ports.Images = (*Images)(nil)

// NewImages returns the images of a service with no images upstream.
func NewImages() *Images { return &Images{} }

// Create answers ErrNoImages.
func (*Images) Create(context.Context, string) (string, error) { return "", ErrNoImages }
