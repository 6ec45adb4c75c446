// Package evalset reads the small-Brain evaluation set (testdata/eval/businesses.json) and judges
// a reply to one of its questions, for the in-process eval (adapters/model/local) and the one
// through the API (tests, build tag eval) alike.
package evalset

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Set is the file's content.
type Set struct {
	Businesses []Business `json:"businesses"`
}

// Business is an invented business, with a profile, a few pages and FAQ items, and customers'
// questions labelled by what answers them.
type Business struct {
	Name    string `json:"name"`
	Split   string `json:"split"` // "tune", "held-out", "tune-2" (more to tune on), "held-out-2", "held-out-3", "held-out-4" (written later, blind; tuned on since the next blind ones took over), "tune-3" (new kinds of businesses, round 21), "tune-4" (three businesses the lead played as a customer, round 22), "tune-5" (new kinds of businesses, round 23), "tune-6" (new kinds again, round 24), "tune-7" (new kinds again, round 26), "held-out-5", "held-out-6", "held-out-7", "held-out-8" or "held-out-9" (blind: they validate each round)
	Profile struct {
		BusinessName string   `json:"business_name"`
		Languages    []string `json:"languages"`
		Description  string   `json:"description"`
		Contact      struct {
			Email, Phone, Address, Hours string
		} `json:"contact"`
	} `json:"profile"`
	Pages []struct {
		URL     string `json:"url"`
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"pages"`
	FAQ []struct {
		ID       string `json:"id"`
		Question string `json:"question"`
		Answer   string `json:"answer"`
	} `json:"faq"`
	Questions []Question `json:"questions"`
}

// Question is a customer's question and the replies that answer it. After, when set, is the
// customer's earlier messages in the same conversation, oldest first, each answered before it
// (in the file one message, "after": "…", or a chain of them, "after": ["…", "…"]): the
// question is then a follow-up ("and on sundays?" after "what time do you open on saturday?",
// "Follow-up questions" in testdata/eval/README.md), or a new question after another
// (NotFollowUp) whose reply must be the one it gets alone. Such questions are measured apart
// from the others.
type Question struct {
	Text    string     `json:"text"`
	Answers []Expected `json:"answers"` // none: the right reply is "I don't know"
	After   Messages   `json:"after,omitempty"`
	// NotFollowUp marks a question asked after another that completes nothing of it (an
	// unrelated question, some beginning with "and"): its reply must not change for After.
	NotFollowUp bool `json:"not_follow_up,omitempty"`
}

// Messages are a customer's earlier messages, oldest first: in JSON one message (a string) or
// an array of them.
type Messages []string

// UnmarshalJSON reads a string or an array of strings.
func (m *Messages) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*m = Messages{one}
		if one == "" {
			*m = nil
		}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("after: a message or an array of messages: %w", err)
	}
	*m = many
	return nil
}

// MarshalJSON writes one message as a string, more as an array.
func (m Messages) MarshalJSON() ([]byte, error) {
	if len(m) == 1 {
		return json.Marshal(m[0])
	}
	return json.Marshal([]string(m))
}

// Expected is one reply that answers a question: an FAQ item's answer, a passage of a page
// (its open token) that contains a phrase, or a reply from the profile (naming no page) that
// holds a phrase of its contact details (a question only the profile answers: "do you have a
// phone number?", "I want to talk to a human").
type Expected struct {
	FAQ      string `json:"faq"`
	Page     string `json:"page"`
	Contains string `json:"contains"`
	Profile  string `json:"profile"`
}

// Load reads a file of the set's shape.
func Load(path string) (Set, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Set{}, err
	}
	var s Set
	if err := json.Unmarshal(raw, &s); err != nil {
		return Set{}, fmt.Errorf("decode %s: %w", path, err)
	}
	return s, nil
}

// Judge reports whether a reply is one of the expected ones: it holds the FAQ item's answer, or
// it opens the page ([OPEN:url], as the built-in engine writes it) and holds the phrase.
func (b Business) Judge(reply string, want []Expected) bool {
	for _, w := range want {
		switch {
		case w.FAQ != "":
			for _, f := range b.FAQ {
				if f.ID == w.FAQ && strings.Contains(reply, strings.TrimSpace(f.Answer)) {
					return true
				}
			}
		case w.Page != "":
			if strings.Contains(reply, "[OPEN:"+w.Page+"]") && holds(reply, w.Contains) {
				return true
			}
		case w.Profile != "":
			if !strings.Contains(reply, "[OPEN:") && holds(reply, w.Profile) {
				return true
			}
		}
	}
	return false
}

// Passage is one of the Brain's hits as a model upstream is given it: an FAQ item (its id), or a
// chunk of a page (its address and text).
type Passage struct {
	FAQ  string
	Page string
	Text string
}

// Finds reports whether a passage is one of the expected replies: the FAQ item itself, or a
// chunk of the page whose text holds the phrase (case aside, as Judge compares).
func (b Business) Finds(p Passage, want []Expected) bool {
	for _, w := range want {
		switch {
		case w.FAQ != "":
			if p.FAQ == w.FAQ {
				return true
			}
		case w.Page != "":
			if p.FAQ == "" && p.Page == w.Page && holds(p.Text, w.Contains) {
				return true
			}
		}
	}
	return false
}

// holds reports whether text holds a phrase, case aside.
func holds(text, phrase string) bool {
	return strings.Contains(strings.ToLower(text), strings.ToLower(phrase))
}
