package knowledge

import (
	"slices"
	"testing"
)

// TestPassageSentences checks the sentences a chunk's passage starts from: the most like the
// query, never its title, and a second stating the fact asked when the best states it too and
// the second comes within runnerRatio of it.
func TestPassageSentences(t *testing.T) {
	for _, c := range []struct {
		name          string
		sim           []float64
		title         []bool
		cues          []cue
		asked         cue
		which, second []int32
	}{
		{"the best, not the title", []float64{0.9, 0.5, 0.3}, []bool{true, false, false}, []cue{0, 0, 0}, 0, []int32{1}, []int32{-1}},
		{"nothing asked: no second", []float64{0, 0.5, 0.45}, []bool{true, false, false}, []cue{0, cueDuration, cueDuration}, 0, []int32{1}, []int32{-1}},
		// UK 0.40, EU 0.48: both state a duration, UK within 0.8 of EU.
		{"two durations", []float64{0, 0.40, 0.48}, []bool{true, false, false}, []cue{0, cueDuration, cueDuration}, cueDuration, []int32{2}, []int32{1}},
		{"a second too far under the best", []float64{0, 0.30, 0.48}, []bool{true, false, false}, []cue{0, cueDuration, cueDuration}, cueDuration, []int32{2}, []int32{-1}},
		{"a second stating another fact", []float64{0, 0.45, 0.48}, []bool{true, false, false}, []cue{0, cuePrice, cueDuration}, cueDuration, []int32{2}, []int32{-1}},
		{"the best stating no fact asked", []float64{0, 0.45, 0.48}, []bool{true, false, false}, []cue{0, cueDuration, 0}, cueDuration, []int32{2}, []int32{-1}},
	} {
		which, second := []int32{-1}, []int32{-1}
		passageSentences(c.sim, make([]int32, len(c.sim)), c.title, c.cues, c.asked, which, second)
		if !slices.Equal(which, c.which) || !slices.Equal(second, c.second) {
			t.Errorf("%s: which %v second %v, want %v %v", c.name, which, second, c.which, c.second)
		}
	}
}
