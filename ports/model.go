package ports

import (
	"context"
)

//go:generate go tool mockgen -source=model.go -destination=mock/model.go -package=mock

// Embedder turns texts into vectors; vectors are comparable only with those of the same embedder
// and dimensions. dimensions 0 means the embedder's default.
type Embedder interface {
	Embed(ctx context.Context, texts []string, dimensions int) ([][]float32, error)
}
