package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/svcagent/svc/internal/safehttp"
	"github.com/svcagent/svc/ports"
)

const imagesPath = "/images/generations"

var _ ports.Images = (*Client)(nil)

type imageRequest struct {
	Model  string `json:"model"`
	Prompt string `json:"prompt"`
	N      int    `json:"n"`
}

type imageResponse struct {
	Data []struct {
		URL     string `json:"url"`
		B64JSON string `json:"b64_json"`
	} `json:"data"`
}

// ErrNoImageModel is Create's answer when no image model is configured.
var ErrNoImageModel = errors.New("no image model is configured (SVC_MODEL_IMAGE_NAME)")

// Create makes one picture from prompt with Options.ImageModel (POST <base>/images/generations)
// and returns its URL, or a data: URL when the upstream answers with the image itself.
func (c *Client) Create(ctx context.Context, prompt string) (string, error) {
	if c.opts.ImageModel == "" {
		return "", ErrNoImageModel
	}
	body, err := json.Marshal(imageRequest{Model: c.opts.ImageModel, Prompt: prompt, N: 1})
	if err != nil {
		return "", err
	}
	var url string
	err = c.post(ctx, imagesPath, body, false, func(r io.Reader) error {
		b, err := safehttp.ReadLimited(r, MaxBodyBytes)
		if err != nil {
			return &failure{err: fmt.Errorf("reading the image: %w", err), retry: !errors.Is(err, safehttp.ErrTooLarge)}
		}
		var w imageResponse
		if err := json.Unmarshal(b, &w); err != nil || len(w.Data) == 0 {
			return &failure{err: fmt.Errorf("decoding the image: %v (%d images)", err, len(w.Data))}
		}
		switch d := w.Data[0]; {
		case strings.HasPrefix(d.URL, "https://") || strings.HasPrefix(d.URL, "http://"):
			url = d.URL
		case d.B64JSON != "":
			url = "data:image/png;base64," + d.B64JSON
		default:
			return &failure{err: errors.New("the image has neither a URL nor data")}
		}
		return nil
	})
	return url, err
}
