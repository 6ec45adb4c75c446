// Package tokens counts tokens the way OpenAI's models do, with tiktoken's encodings: o200k_base
// (the GPT-4o family) for counting and cutting, cl100k_base for reading token ids that clients
// send as embeddings input (LangChain does, with that encoding). The encodings are embedded in
// the binary (tiktoken-go-loader's offline loader): nothing is downloaded at run time.
package tokens

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// The encodings are loaded once per process, when first needed: parsing one takes a few hundred
// milliseconds and tens of megabytes, and an encoding never changes.
var (
	setLoader = sync.OnceFunc(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	o200k     = sync.OnceValues(func() (*tiktoken.Tiktoken, error) { return load(tiktoken.MODEL_O200K_BASE) })
	cl100k    = sync.OnceValues(func() (*tiktoken.Tiktoken, error) { return load(tiktoken.MODEL_CL100K_BASE) })
)

func load(name string) (*tiktoken.Tiktoken, error) {
	setLoader()
	enc, err := tiktoken.GetEncoding(name)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", name, err)
	}
	return enc, nil
}

// Counter counts and cuts text in tokens. It is safe for concurrent use.
type Counter struct{}

// NewLazy returns a Counter that loads its encoding when first used: for a process whose
// model-compatible endpoints are rarely asked (the built-in engine's), which so spares the
// encoding's tens of megabytes until then, at the cost of a first request that waits for it.
func NewLazy() *Counter { return &Counter{} }

// Count returns the number of tokens of text. Special-token text such as "<|endoftext|>" counts
// as ordinary text, as it is for a model's input.
func (c *Counter) Count(text string) int {
	if text == "" {
		return 0
	}
	enc, err := o200k()
	if err != nil {
		return estimate(text) // cannot happen with the embedded files; an estimate beats nothing
	}
	return len(enc.EncodeOrdinary(text))
}

// Truncate returns the longest start of text that is at most n tokens, and whether text was cut.
func (c *Counter) Truncate(text string, n int) (string, bool) {
	enc, err := o200k()
	if err != nil {
		if r := []rune(text); len(r) > n*4 {
			return string(r[:n*4]), true
		}
		return text, false
	}
	ids := enc.EncodeOrdinary(text)
	if len(ids) <= n {
		return text, false
	}
	return enc.Decode(ids[:max(n, 0)]), true
}

// Decode turns token ids of cl100k_base into text. An id the encoding lacks is an error.
func (c *Counter) Decode(ids []int) (string, error) {
	enc, err := cl100k()
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		if id < 0 || enc.Decode([]int{id}) == "" {
			return "", fmt.Errorf("token %d is not a cl100k_base token", id)
		}
	}
	return enc.Decode(ids), nil
}

// estimate is about a token per four characters.
func estimate(text string) int {
	n := 0
	for range text {
		n++
	}
	return (n + 3) / 4
}
