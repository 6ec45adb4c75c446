package knowledge

import (
	"slices"
	"testing"
)

func TestCounts(t *testing.T) {
	for q, want := range map[string][]count{
		"my daughter is 15 and wants her nose done":     {{15, unitYears}},
		"tem alguma atividade pro meu filho de 8 anos?": {{8, unitYears}},
		"mi hijo tiene 16, puede rentar un scooter?":    {{16, unitYears}},
		"cheguei atrasado 15 min, posso entrar?":        {{15, unitMinutes}},
		"we're a group of 10 do we need to pay upfront": {{10, unitPeople}},
		"somos un grupo de 14 amigos":                   {{14, unitPeople}},
		"price for a private office for 3 ppl":          {{3, unitPeople}},
		"my puppy is 10 weeks":                          {{10, unitWeeks}},
		"I start work at 7, can I leave the car":        nil,
		"mi vuelo sale a las 20h":                       nil,
		"abren el 16 de septiembre?":                    nil,
		"is the 2005 model still for sale":              nil,
	} {
		if got := counts(NormalizeQuestion(q)); !slices.Equal(got, want) {
			t.Errorf("counts(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestFits(t *testing.T) {
	years := func(n int) []count { return []count{{n, unitYears}} }
	for _, c := range []struct {
		sentence string
		asked    []count
		want     bool
	}{
		{"Clients aged 14 to 17 can get earlobe piercings with a parent present.", years(15), true},
		{"Clients aged 14 to 17 can get earlobe piercings with a parent present.", years(18), false},
		{"Clients aged 14 to 17 can get earlobe piercings with a parent present.", []count{{15, unitPeople}}, false},
		{"Aulas para crianças: turma de ginástica kids, de 6 a 12 anos, aos sábados às 11h.", years(8), true},
		{"Crianças: o Dr. Ricardo atende a partir de 4 anos.", years(6), true},
		{"Depois de 10 minutos do início, não é possível entrar no spinning.", []count{{15, unitMinutes}}, true},
		{"Groups: for groups of 8 or more we ask for a deposit of $10 per person.", []count{{10, unitPeople}}, true},
		{"Groups: for groups of 8 or more we ask for a deposit of $10 per person.", []count{{6, unitPeople}}, false},
		{"Grupos: para grupos de más de 10 personas hacemos un precio especial.", []count{{14, unitPeople}}, true},
		{"Una silla para niño cuesta $50 por día, para niños de 1 a 5 años y hasta 20 kg.", years(10), false},
		{"Una silla para niño cuesta $50 por día, para niños de 1 a 5 años y hasta 20 kg.", years(3), true},
		{"We open from 9 to 5 on weekdays.", years(7), false},
		{"Rooms seat up to 12 people.", []count{{10, unitPeople}}, true},
	} {
		if got := fits(NormalizeQuestion(c.sentence), c.asked); got != c.want {
			t.Errorf("fits(%q, %v) = %v, want %v", c.sentence, c.asked, got, c.want)
		}
	}
}

// TestCountLifts checks that a count the question states lifts the sentence stating a range it
// falls within over the engine's threshold (0.17), and not one it falls outside.
func TestCountLifts(t *testing.T) {
	ix := NewIndex([]Doc{
		{Chunk: Chunk{ID: "classes", URL: "https://gym.example/classes", Title: "Timetable",
			Text: "Spinning: Monday to Friday at 7am and 7pm, 45 minutes.\nYoga: Tuesdays and Thursdays at 6pm.\n" +
				"Kids: gymnastics for children aged 6 to 12, on Saturdays at 11am, with their own monthly plan."}},
		{Chunk: Chunk{ID: "plans", URL: "https://gym.example/plans", Title: "Plans",
			Text: "Monthly plan: $60 a month. Annual plan: $45 a month, paid yearly. Day pass: $15."}},
	}, nil, lightStemmer{}, nil)
	score := func(q string) float64 {
		hits := ix.Search(q, nil, 1)
		if len(hits) == 0 || hits[0].Chunk.ID != "classes" {
			t.Fatalf("%q: first hit %v, want the classes", q, hits)
		}
		return hits[0].Score
	}
	if s := score("anything for kids? my son is 10"); s < 0.17 {
		t.Errorf("a count in the range: score %.3f, under the threshold", s)
	}
	if in, out := score("anything for kids? my son is 10"), score("anything for kids? my son is 13"); in <= out {
		t.Errorf("the count in the range scores %.3f, outside it %.3f", in, out)
	}
}
