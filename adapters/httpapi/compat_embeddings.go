package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/domain"
)

// POST /v1/embeddings

type embeddingsIn struct {
	Input          json.RawMessage `json:"input"`
	Model          string          `json:"model"`
	Dimensions     *int            `json:"dimensions"`
	EncodingFormat string          `json:"encoding_format"`
}

type embeddingJSON struct {
	Object    string `json:"object"`
	Index     int    `json:"index"`
	Embedding any    `json:"embedding"`
}

type embeddingsJSON struct {
	Object string          `json:"object"`
	Data   []embeddingJSON `json:"data"`
	Model  string          `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
	Svc apijson.Interactions `json:"svc"`
}

// embedOf reads input: a text, a list of texts, a list of token ids, or a list of lists of ids.
func embedOf(in embeddingsIn) (compat.Embed, error) {
	var e compat.Embed
	if in.EncodingFormat != "" && in.EncodingFormat != "float" && in.EncodingFormat != "base64" {
		return e, domain.Invalid("encoding_format", "encoding_format must be float or base64")
	}
	if in.Dimensions != nil {
		if *in.Dimensions < 1 {
			return e, domain.Invalid("dimensions", "dimensions must be at least 1")
		}
		e.Dimensions = *in.Dimensions
	}
	raw := bytes.TrimSpace(in.Input)
	if !present(raw) {
		return e, domain.Invalid("input", "input is required: a text or a list of texts")
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		e.Texts = []string{one}
		return e, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
		return e, domain.Invalid("input", "input must be a text or a non-empty list of texts")
	}
	var texts []string
	if json.Unmarshal(raw, &texts) == nil {
		e.Texts = texts
		return e, nil
	}
	var ids []int
	if json.Unmarshal(raw, &ids) == nil {
		e.Tokens = [][]int{ids}
		return e, nil
	}
	var lists [][]int
	if json.Unmarshal(raw, &lists) == nil {
		e.Tokens = lists
		return e, nil
	}
	return e, domain.Invalid("input", "input must be a text, a list of texts, or token ids")
}

func (s *Server) embeddings(c *gin.Context) {
	who, in, e, err := opening(c, embedOf)
	if err != nil {
		s.compatFail(c, err)
		return
	}
	v, err := s.uc.Compat.Embed(c.Request.Context(), who, e)
	if err != nil {
		s.compatFail(c, err)
		return
	}
	out := embeddingsJSON{Object: "list", Data: make([]embeddingJSON, len(v.Vectors)), Model: compat.Embeddings,
		Svc: apijson.InteractionsOf(v.Interactions)}
	for i, vec := range v.Vectors {
		item := embeddingJSON{Object: "embedding", Index: i}
		if in.EncodingFormat == "base64" {
			item.Embedding = base64Vector(vec)
		} else {
			item.Embedding = exactFloats(vec)
		}
		out.Data[i] = item
	}
	out.Usage.PromptTokens, out.Usage.TotalTokens = v.Tokens, v.Tokens
	c.JSON(http.StatusOK, out)
}

// exactFloats writes each float32 with the digits of its float64 value, so that a client reading
// the JSON numbers as float64 (every JSON library does) gets exactly the vector that base64 gives.
func exactFloats(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// base64Vector is OpenAI's base64 encoding of a vector: its float32 values, little-endian.
func base64Vector(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}
