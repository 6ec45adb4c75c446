package compat

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ledger"
)

// Embed asks for the vectors of one or more texts.
type Embed struct {
	// Texts are the inputs; Tokens, when set instead, are inputs given as token ids.
	Texts  []string
	Tokens [][]int
	// Dimensions of the vectors; 0 for the embedder's default.
	Dimensions int
}

// Vectors are the embeddings of a request, in the order of its inputs.
type Vectors struct {
	Vectors      [][]float32
	Tokens       int
	Interactions ledger.Usage
}

// Embed makes the vectors of up to MaxEmbeddingTexts texts of MaxEmbeddingChars characters in
// all, and charges 1 interaction for the request, held while the vectors are made (see hold).
func (s *Service) Embed(ctx context.Context, c Caller, e Embed) (Vectors, error) {
	texts := e.Texts
	if len(e.Tokens) > 0 {
		if len(e.Tokens) > MaxEmbeddingTexts {
			return Vectors{}, tooManyTexts(len(e.Tokens))
		}
		texts = make([]string, len(e.Tokens))
		for i, ids := range e.Tokens {
			if len(ids) > MaxEmbeddingChars {
				return Vectors{}, tooManyChars(len(ids))
			}
			t, err := s.d.Tokens.Decode(ids)
			if err != nil {
				return Vectors{}, domain.Invalid(fmt.Sprintf("input[%d]", i), "input[%d]: %s", i, err.Error())
			}
			texts[i] = t
		}
	}
	if len(texts) == 0 {
		return Vectors{}, domain.Invalid("input", "input must hold at least one text")
	}
	if len(texts) > MaxEmbeddingTexts {
		return Vectors{}, tooManyTexts(len(texts))
	}
	chars := 0
	for i, t := range texts {
		if t == "" {
			return Vectors{}, domain.Invalid(fmt.Sprintf("input[%d]", i), "input[%d] is empty", i)
		}
		chars += utf8.RuneCountInString(t)
	}
	if chars > MaxEmbeddingChars {
		return Vectors{}, tooManyChars(chars)
	}
	if e.Dimensions < 0 {
		return Vectors{}, domain.Invalid("dimensions", "dimensions must be positive")
	}
	if err := affordable(c, ledger.Embeddings); err != nil {
		return Vectors{}, err
	}
	var vecs [][]float32
	spent, err := s.paid(ctx, c, ledger.Embeddings, ident.New("emb"), func(ctx context.Context) (err error) {
		vecs, err = s.embed(ctx, texts, e.Dimensions)
		return err
	})
	if err != nil {
		return Vectors{}, err
	}
	tokens := 0
	for _, t := range texts {
		tokens += s.d.Tokens.Count(t)
	}
	return Vectors{Vectors: vecs, Tokens: tokens, Interactions: spent}, nil
}

// embed asks the embedder for one vector per text.
func (s *Service) embed(ctx context.Context, texts []string, dimensions int) ([][]float32, error) {
	vecs, err := s.d.Embedder.Embed(ctx, texts, dimensions)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embedder gave %d vectors for %d texts", len(vecs), len(texts))
	}
	return vecs, nil
}

// tooManyTexts is 400 invalid_request: the spec's input_too_large is more than 32,000 characters
// of text (part 7), which a count of texts is not (as 5 images are invalid_request, and as OpenAI
// answers too many inputs with an invalid_request_error).
func tooManyTexts(n int) error {
	return domain.Invalid("input", "at most %d texts per request; this one has %d", MaxEmbeddingTexts, n)
}

func tooManyChars(n int) error {
	return &domain.Error{Code: domain.CodeInputTooLarge, Field: "input",
		Message: fmt.Sprintf("at most %d characters of input per request; this one has %d", MaxEmbeddingChars, n)}
}
