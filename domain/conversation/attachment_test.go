package conversation

import (
	"strings"
	"testing"
)

func TestIsAttachment(t *testing.T) {
	tests := []struct {
		name    string
		message string
		want    bool
	}{
		{"an image's note", AttachmentNote("image"), true},
		{"a voice note's", AttachmentNote("audio"), true},
		{"a document's", AttachmentNote("document"), true},
		{"a video's", AttachmentNote("video"), true},
		{"text pasted with a picture in it", "\uFFFC Do you deliver on Sundays?", false},
		{"the mark alone", "\uFFFC", false},
		{"the mark and an unknown kind", "\uFFFC sticker", false},
		{"the kind alone", "image", false},
		{"a question", "do you deliver?", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsAttachment(tt.message); got != tt.want {
				t.Errorf("IsAttachment(%q) = %v, want %v", tt.message, got, tt.want)
			}
		})
	}
}

func TestAttachmentAsk(t *testing.T) {
	for _, tt := range []struct{ lang, business, want string }{
		{"pt-BR", "Cervejaria Serra", "Pode escrever em texto o que precisa?"},
		{"es", "", "¿Puedes escribir en texto lo que necesitas?"},
		{"en", "Brightwater", "Thanks for sending that to Brightwater!"},
		{"", "", "Thanks for sending that!"},
	} {
		if got := AttachmentAsk(tt.lang, tt.business); !strings.Contains(got, tt.want) {
			t.Errorf("AttachmentAsk(%q, %q) = %q, want it to hold %q", tt.lang, tt.business, got, tt.want)
		}
	}
}
