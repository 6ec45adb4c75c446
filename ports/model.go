package ports

import (
	"context"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/model"
)

//go:generate go tool mockgen -source=model.go -destination=mock/model.go -package=mock

// Embedder turns texts into vectors; vectors are comparable only with those of the same embedder
// and dimensions. dimensions 0 means the embedder's default.
type Embedder interface {
	Embed(ctx context.Context, texts []string, dimensions int) ([][]float32, error)
}

// Stemmer reduces a lower-case word of a language (en, pt or es) to the stem the Brain's index
// matches on (knowledge.Stemmer).
type Stemmer interface {
	Stem(word, lang string) string
}

// WordVectors gives vectors of the meaning of English words, read by the Brain's index to match
// questions that share no word with an FAQ item (knowledge.WordVectors).
type WordVectors interface {
	Dims() int
	Rank(word string) int
	AddVector(dst []float32, rank int, weight float32)
}

// ChatModel is a chat-completions model (an OpenAI-compatible upstream). Failures of the upstream
// are 503 model_unavailable; content its safety filter refused is 400 content_policy.
type ChatModel interface {
	Complete(ctx context.Context, req model.Request) (model.Response, error)
	// Stream calls fn with each piece of the reply as it comes and returns the whole reply.
	Stream(ctx context.Context, req model.Request, fn func(model.Chunk) error) (model.Response, error)
}

// Replier writes the agent's reply to one customer turn.
type Replier interface {
	Reply(ctx context.Context, turn conversation.Turn) (conversation.Draft, error)
}
