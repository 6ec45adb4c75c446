package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/internal/safehttp"
)

// embedBatch is how many texts go in one embeddings request, well under the limits upstreams set
// on inputs and tokens per request.
const embedBatch = 128

type (
	embedRequest struct {
		Model          string   `json:"model"`
		Input          []string `json:"input"`
		Dimensions     int      `json:"dimensions,omitempty"`
		EncodingFormat string   `json:"encoding_format"`
	}
	embedResponse struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
)

// Embed returns one vector for each text, in the order of texts, from Options.EmbeddingModel;
// dimensions 0 means the model's default. Long lists are sent in batches.
func (c *Client) Embed(ctx context.Context, texts []string, dimensions int) ([][]float32, error) {
	if dimensions < 0 {
		return nil, domain.Invalid("dimensions", "dimensions must be positive")
	}
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	if c.opts.EmbeddingModel == "" {
		return nil, c.unavailable(&failure{err: errors.New("no embedding model is configured"), operator: true})
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += embedBatch {
		batch := texts[start:min(start+embedBatch, len(texts))]
		vs, err := c.embed(ctx, batch, dimensions)
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

func (c *Client) embed(ctx context.Context, texts []string, dimensions int) ([][]float32, error) {
	body, err := json.Marshal(embedRequest{Model: c.opts.EmbeddingModel, Input: texts, Dimensions: dimensions, EncodingFormat: "float"})
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	err = c.post(ctx, embeddingsPath, body, false, func(r io.Reader) error {
		b, err := safehttp.ReadLimited(r, MaxBodyBytes)
		if err != nil {
			return &failure{err: fmt.Errorf("reading the embeddings: %w", err), retry: !errors.Is(err, safehttp.ErrTooLarge)}
		}
		var w embedResponse
		if err := json.Unmarshal(b, &w); err != nil {
			return &failure{err: fmt.Errorf("decoding the embeddings: %w", err)}
		}
		if len(w.Data) != len(texts) {
			return &failure{err: fmt.Errorf("%d embeddings for %d texts", len(w.Data), len(texts))}
		}
		clear(out)
		for _, d := range w.Data {
			switch {
			case d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil:
				return &failure{err: fmt.Errorf("embedding index %d is out of range or repeated", d.Index)}
			case len(d.Embedding) == 0:
				return &failure{err: fmt.Errorf("embedding %d is empty", d.Index)}
			case dimensions > 0 && len(d.Embedding) != dimensions:
				return domain.Invalid("dimensions", "the embedding model gives %d dimensions, not %d", len(d.Embedding), dimensions)
			}
			out[d.Index] = d.Embedding
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
