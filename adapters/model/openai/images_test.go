package openai

import (
	"errors"
	"net/http"
	"testing"
)

func TestCreateImage(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			reply(w, 200, `{"created":1,"data":[{"url":"https://img.example/1.png"}]}`)
			return
		}
		reply(w, 200, `{"created":1,"data":[{"b64_json":"aGk="}]}`)
	})
	c, _ := u.client(Options{ImageModel: "gpt-image-1"})
	url, err := c.Create(t.Context(), "a croissant")
	if err != nil || url != "https://img.example/1.png" {
		t.Fatalf("Create = %q, %v", url, err)
	}
	if got := u.req(0); got.path != "/v1/images/generations" {
		t.Errorf("path %q", got.path)
	}
	sameJSON(t, u.body(t, 0), `{"model":"gpt-image-1","prompt":"a croissant","n":1}`)
	if url, err = c.Create(t.Context(), "bread"); err != nil || url != "data:image/png;base64,aGk=" {
		t.Errorf("Create (b64) = %q, %v", url, err)
	}
	none, _ := u.client(Options{})
	if _, err := none.Create(t.Context(), "x"); !errors.Is(err, ErrNoImageModel) {
		t.Errorf("without an image model = %v", err)
	}
}
