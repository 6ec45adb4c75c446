package knowledge

import (
	"slices"
	"testing"
)

func TestStoryWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want []bool // nil: one clause, no story
	}{
		{"do you repair cars", nil},
		{"do you repair cars?", nil},
		{"hi!", nil},
		// The story first, then the clause that asks (the last one ended by a question mark).
		{"my mom lives in charlotte, can you get flowers to her??", []bool{true, true, true, true, true, false, false, false, false, false, false}},
		{"mi sobrino tiene 10 años, puede ir al tour?", []bool{true, true, true, true, true, false, false, false, false}},
		// The question first, the story after it.
		{"How do I end my membership? I'm moving to Denver next month.", []bool{false, false, false, false, false, false, true, true, true, true, true, true}},
		// Apostrophes join a word, as lowerWords reads it.
		{"i'm crook, will i be charged?", []bool{true, true, false, false, false, false}},
		// No question mark: the last clause asks.
		{"failed my test today :( what now", []bool{true, true, true, true, false, false}},
		// Two questions: the last one ended by a question mark asks.
		{"onde ficam? qual é o metro mais perto?", []bool{true, true, false, false, false, false, false, false}},
	} {
		got := storyWords(c.text, len(lowerWords(c.text)))
		if !slices.Equal(got, c.want) {
			t.Errorf("storyWords(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	// Words counted otherwise than lowerWords counts them: no story.
	if got := storyWords("my mom lives here, can you deliver?", 3); got != nil {
		t.Errorf("storyWords with a wrong count = %v, want nil", got)
	}
}

func TestWithoutStory(t *testing.T) {
	m := newMatcher([]FAQ{
		{Question: "We deliver flowers to any address in town.", Answer: "0"},
		{Question: "Our shop is open every day.", Answer: "1"},
	}, "We deliver flowers to any address in town. Our shop is open every day.", nil, nil, sentenceStopWeight)
	has := func(fs []feature, key string) bool {
		return slices.ContainsFunc(fs, func(f feature) bool { return f.key == key })
	}
	for _, c := range []struct {
		query      string
		kept, left []string // stem features kept and left out
	}{
		// A word of the story the Brain lacks is left out; the story's words it holds are kept.
		{"my mom lives in charlotte, can you deliver flowers?", []string{"wdeliver", "wflowers"}, []string{"wcharlotte", "wmom"}},
		{"the shop was closed, can you deliver?", []string{"wshop", "wdeliver"}, []string{"wclosed"}},
		// A word of the clause that asks is kept however unknown: it is what is asked.
		{"hello, do you deliver cars", []string{"wcars", "wdeliver"}, []string{"whello"}},
		// One clause: nothing is left out.
		{"can you deliver to charlotte", []string{"wcharlotte", "wdeliver"}, nil},
	} {
		raw := m.queryFeatures(nil, m.parse(c.query))
		got := m.withoutStory(m.parse(c.query), raw)
		for _, k := range c.kept {
			if !has(got, k) {
				t.Errorf("withoutStory(%q) left out %s", c.query, k)
			}
		}
		for _, k := range c.left {
			if !has(raw, k) {
				t.Fatalf("%q: no feature %s to leave out", c.query, k)
			}
			if has(got, k) {
				t.Errorf("withoutStory(%q) kept %s", c.query, k)
			}
		}
		if len(c.left) == 0 && len(got) != len(raw) {
			t.Errorf("withoutStory(%q) left out %d features, want none", c.query, len(raw)-len(got))
		}
	}
}
