package knowledge

import (
	"math"
	"slices"
)

// Parameters of the FAQ classifier (see classifier), tuned on an intent set
// (testdata/eval/README.md).
const (
	// classifierMinAnswers is the fewest distinct answers, and classifierMinPhrasings the fewest
	// items per answer on average, an FAQ needs for the classifier to be trained: with fewer
	// there is too little to learn what sets answers apart (measured: with 3 phrasings per
	// answer it ranks no better than the similarity), and the similarity alone scores them.
	classifierMinAnswers   = 20
	classifierMinPhrasings = 5
	// classifierWeight is the share of the classifier's probability in an answer's score; the
	// similarity has the rest.
	classifierWeight = 0.5
	// classifierConfidence scales the confidence of answers scored with the classifier: on the
	// intent set, the threshold of the most right answers with at most 12 % wrong was 0.26 with
	// it and 0.16 without (0.6), and with its weight decay 1.5 times lower again.
	classifierConfidence = 0.9
	// classifierEpochs is how many times the training visits each item; classifierStep is its
	// first step size, divided by 1 + the epoch after; classifierL2 the weight decay of each
	// step (L2 regularisation: each step shrinks the weights by step × classifierL2).
	classifierEpochs = 20
	classifierStep   = 4.0
	classifierL2     = 3e-5
)

// classifier is a multinomial logistic regression from the words of a question to the answer of
// the FAQ items, trained on the items' questions when the index is built. Where the similarity
// weighs a word by how rare it is among all questions, the classifier learns how much each word
// tells one answer from the others ("balance" for an account's balance, "card" for no answer in
// particular). Its input is the unit vector of the word features' weights (faqMatcher.features,
// words only), followed for an English FAQ with word vectors by the question's unit vector of
// meaning (denseSpace); its output a probability for each answer.
type classifier struct {
	answers int
	row     []int32   // the weights' row of each of the matcher's features; -1 for n-grams
	w       []float32 // rows × answers
	// dense is the first row of the vector of meaning's values (after the words'), when the
	// matcher has one.
	dense int32
}

// newClassifier trains the classifier on the features of each item (docs) and its answer; it
// returns nil for an FAQ of fewer than classifierMinAnswers answers or classifierMinPhrasings
// items per answer.
func newClassifier(m *faqMatcher, docs [][]feature, answers int) *classifier {
	if answers < classifierMinAnswers || len(docs) < classifierMinPhrasings*answers {
		return nil
	}
	c := &classifier{answers: answers, row: make([]int32, m.feats.len())}
	rows := int32(0)
	for id := range int32(m.feats.len()) {
		c.row[id] = -1
		if m.feats.key(id)[0] == 'w' {
			c.row[id] = rows
			rows++
		}
	}
	type input struct {
		rows []int32
		x    []float64
	}
	c.dense = rows
	if m.dense != nil {
		rows += int32(m.dense.dims)
	}
	items := make([]input, len(docs))
	for i, doc := range docs {
		var v []float32
		if m.dense != nil {
			v = m.vecs[i*m.dense.dims : (i+1)*m.dense.dims]
		}
		items[i].rows, items[i].x = c.input(m, doc, v, nil, nil)
	}

	// Stochastic gradient descent on the log-loss with weight decay, the items visited in a
	// fixed order that interleaves the answers, at a step that shrinks with each epoch. The
	// weights are kept as scale × w, so that the decay of all of them is one multiplication and
	// a step touches only the rows of the item's features.
	size := int(rows) * answers
	w := make([]float64, size)
	p := make([]float64, answers)
	scale := 1.0
	order := interleave(m.answer, answers)
	for e := range classifierEpochs {
		step := classifierStep / float64(1+e)
		for _, i := range order {
			it := items[i]
			logits(w, answers, it.rows, it.x, p)
			for a := range p {
				p[a] *= scale
			}
			softmax(p)
			p[m.answer[i]]--
			if scale *= 1 - step*classifierL2; scale < 1e-6 {
				for j := range w {
					w[j] *= scale
				}
				scale = 1
			}
			for k, r := range it.rows {
				wr := w[int(r)*answers : int(r+1)*answers]
				f := step * it.x[k] / scale
				for a := range wr {
					wr[a] -= f * p[a]
				}
			}
		}
	}
	c.w = make([]float32, size)
	for j, v := range w {
		c.w[j] = float32(v * scale)
	}
	return c
}

// input returns the rows and values of the unit vector of a text's word features, each weighing
// its count's weight times its idf (features the matcher does not know are left out), followed
// by the text's unit vector of meaning when it has one (dense), of as much weight; appended to
// rows and x emptied.
func (c *classifier) input(m *faqMatcher, doc []feature, dense []float32, rows []int32, x []float64) ([]int32, []float64) {
	rows, x = rows[:0], x[:0]
	norm := 0.0
	for _, ft := range doc {
		if ft.gram {
			continue
		}
		id, ok := m.feats.get(ft.key)
		if !ok || c.row[id] < 0 {
			continue
		}
		v := ft.weight * m.idf(id)
		rows = append(rows, c.row[id])
		x = append(x, v)
		norm += v * v
	}
	if norm > 0 {
		norm = math.Sqrt(norm)
		for k := range x {
			x[k] /= norm
		}
	}
	if m.dense != nil && dense != nil && !allZero(dense) {
		for j, v := range dense {
			rows = append(rows, c.dense+int32(j))
			x = append(x, float64(v))
		}
	}
	return rows, x
}

// allZero reports whether a vector is all zeros.
func allZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// predict returns the probability of each answer for the features of a question and its vector
// of meaning (nil: none), in b's probs (b nil: a new one).
func (c *classifier) predict(m *faqMatcher, q []feature, dense []float32, b *matchBuf) []float64 {
	if b == nil {
		b = &matchBuf{}
	}
	b.rows, b.x = c.input(m, q, dense, b.rows, b.x)
	rows, x := b.rows, b.x
	b.probs = zeroed(b.probs, c.answers)
	p := b.probs
	for k, r := range rows {
		wr := c.w[int(r)*c.answers : int(r+1)*c.answers]
		for a, v := range wr {
			p[a] += x[k] * float64(v)
		}
	}
	softmax(p)
	return p
}

// logits sets p to the logits of an input under weights w of the given answers.
func logits(w []float64, answers int, rows []int32, x []float64, p []float64) {
	clear(p)
	for k, r := range rows {
		wr := w[int(r)*answers : int(r+1)*answers]
		for a, v := range wr {
			p[a] += x[k] * v
		}
	}
}

// softmax turns logits into probabilities in place.
func softmax(p []float64) {
	top := math.Inf(-1)
	for _, v := range p {
		top = max(top, v)
	}
	sum := 0.0
	for a, v := range p {
		p[a] = math.Exp(v - top)
		sum += p[a]
	}
	for a := range p {
		p[a] /= sum
	}
}

// interleave returns the items (by their answer) in an order that visits one item of each
// answer in turn: the first of each answer, then the second of each, and so on.
func interleave(answer []int32, answers int) []int {
	seen := make([]int, answers)
	rank := make([]int, len(answer))
	for i, g := range answer {
		rank[i] = seen[g]
		seen[g]++
	}
	order := make([]int, len(answer))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank[a] - rank[b] })
	return order
}
