package ports

import "time"

//go:generate go tool mockgen -source=clock.go -destination=mock/clock.go -package=mock

// Clock tells the time; the domain never reads it itself.
type Clock interface {
	Now() time.Time
}
