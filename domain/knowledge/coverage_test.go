package knowledge

import (
	"math"
	"testing"
)

func TestCoverage(t *testing.T) {
	m := newMatcher([]FAQ{
		{Question: "We offer hatha yoga, vinyasa and pilates.", Answer: "0"},
		{Question: "Each class lasts 75 minutes.", Answer: "1"},
		{Question: "Pilates mats are free for every class.", Answer: "2"},
	}, "We offer hatha yoga, vinyasa and pilates. Each class lasts 75 minutes.", nil, nil, sentenceStopWeight)
	cov := m.coverage("do you do pilates")
	if len(cov) != 3 || math.Abs(cov[0]-1) > 1e-9 || math.Abs(cov[2]-1) > 1e-9 || cov[1] != 0 {
		t.Errorf(`coverage("do you do pilates") = %v, want [1 0 1]: "do" is a light word, "you" a stop word`, cov)
	}
	cov = m.coverage("pilates class")
	if len(cov) != 3 || !(cov[0] > 0 && cov[0] < 1) || math.Abs(cov[2]-1) > 1e-9 || !(cov[1] > 0 && cov[1] < 1) {
		t.Errorf(`coverage("pilates class") = %v, want the third sentence whole, the others in part`, cov)
	}
	for _, q := range []string{"do you have any job openings", "do you do", "hello"} {
		if cov := m.coverage(q); cov != nil {
			t.Errorf("coverage(%q) = %v, want nil (a word no sentence holds, or no content word)", q, cov)
		}
	}
}
