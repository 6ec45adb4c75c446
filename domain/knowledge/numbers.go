package knowledge

import (
	"strconv"
	"strings"
)

// unit is what a count counts: years (of age), people, minutes, days, weeks, months, a
// distance, a weight. Not hours: "a las 3", "até às 18h" are times of day (dayparts.go).
type unit uint8

const (
	unitNone unit = iota
	unitYears
	unitPeople
	unitMinutes
	unitDays
	unitWeeks
	unitMonths
	unitDistance
	unitWeight
)

// unitWords are the words (folded, as NormalizeQuestion writes them) that follow a count and say
// what it counts, in English, Portuguese and Spanish: general words, of no trade.
var unitWords = map[string]unit{
	"years": unitYears, "year": unitYears, "yr": unitYears, "yrs": unitYears, "yo": unitYears,
	"anos": unitYears, "ano": unitYears, // and "años", "año", folded
	"people": unitPeople, "persons": unitPeople, "ppl": unitPeople, "guests": unitPeople, "adults": unitPeople,
	"pessoas": unitPeople, "personas": unitPeople, "adultos": unitPeople, "amigos": unitPeople, "friends": unitPeople,
	"min": unitMinutes, "mins": unitMinutes, "minutes": unitMinutes, "minute": unitMinutes, "minutos": unitMinutes,
	"days": unitDays, "day": unitDays, "dias": unitDays, "dia": unitDays,
	"weeks": unitWeeks, "week": unitWeeks, "semanas": unitWeeks, "semana": unitWeeks,
	"months": unitMonths, "month": unitMonths, "meses": unitMonths, "mes": unitMonths,
	"miles": unitDistance, "mile": unitDistance, "km": unitDistance, "kilometres": unitDistance, "kilometers": unitDistance, "quilometros": unitDistance, "kilometros": unitDistance,
	"kg": unitWeight, "kilos": unitWeight, "quilos": unitWeight,
}

// peopleBefore and yearsBefore are words (folded) before a count that say it counts people ("a
// group of 10", "grupos de 8") or years of age ("aged 14", "idade de 12"); askedYears those by
// which a customer states an age ("im 17", "my daughter is 15", "tengo 16", "turns 16").
var (
	peopleBefore = []string{"group of", "groups of", "party of", "grupo de", "grupos de", "grupo com", "grupos com"}
	yearsBefore  = []string{"aged", "ages", "age", "edad de", "idade de", "edad minima de", "idade minima de"}
	askedYears   = []string{"im", "i am", "is", "turns", "turned", "tengo", "tiene", "cumple", "tenho", "tem", "faz"}
)

// count is a number of a text with what it counts.
type count struct {
	n    int
	unit unit
}

// unitAt returns what the number words[i] counts: the unit word after it, else the words before
// it (before, then the lists of words that a count's unit may come after).
func unitAt(words []string, i int, befores ...[]string) unit {
	if i+1 < len(words) {
		if u := unitWords[words[i+1]]; u != unitNone {
			return u
		}
	}
	prev := " " + strings.Join(words[max(0, i-3):i], " ")
	for k, list := range befores {
		for _, w := range list {
			if strings.HasSuffix(prev, " "+w) {
				if k == 0 {
					return unitPeople
				}
				return unitYears
			}
		}
	}
	return unitNone
}

// number returns the number words[i] if it is one of at most three figures, else -1.
func number(words []string, i int) int {
	if i < 0 || i >= len(words) || len(words[i]) > 3 || words[i][0] < '0' || words[i][0] > '9' {
		return -1
	}
	n, err := strconv.Atoi(words[i])
	if err != nil {
		return -1
	}
	return n
}

// counts returns the counts a question (folded: NormalizeQuestion) states, each a number with
// what it counts ("15 min", "8 anos", "a group of 10", "im 17").
func counts(norm string) []count {
	if !strings.ContainsAny(norm, "0123456789") {
		return nil
	}
	words := strings.Fields(norm)
	var out []count
	for i := range words {
		if n := number(words, i); n >= 0 {
			if u := unitAt(words, i, peopleBefore, askedYears); u != unitNone {
				out = append(out, count{n, u})
			}
		}
	}
	return out
}

// bound is a range of a count a sentence states: "14 to 17 years", "de 1 a 5 años", "over 70",
// "a partir de 12 años", "up to 80 people", "groups of 8 or more"; lo or hi -1 for none.
type bound struct {
	lo, hi int
	unit   unit
}

// Words (folded) before a number that make it a least or a most, and after it (and its unit).
var (
	leastBefore = []string{"from", "over", "above", "at least", "minimum", "min", "older than", "more than", "a partir de", "desde", "mayores de", "maiores de", "acima de", "mais de", "mas de", "minimo", "minimo de", "despues de", "depois de", "after"}
	mostBefore  = []string{"up to", "under", "below", "until", "no more than", "less than", "fewer than", "hasta", "ate", "menores de", "menos de", "max", "maximo", "maximo de", "within"}
	leastAfter  = []string{"or more", "or over", "or older", "y mas", "o mas", "ou mais"}
	mostAfter   = []string{"or less", "or under", "or fewer", "o menos", "ou menos"}
	rangeWords  = map[string]bool{"to": true, "a": true, "y": true, "e": true, "and": true}
)

// bounds returns the ranges of counts a sentence (folded) states.
func bounds(norm string) []bound {
	words := strings.Fields(norm)
	var out []bound
	has := func(text string, list []string, prefix bool) bool {
		for _, w := range list {
			if prefix && strings.HasPrefix(text, w+" ") || !prefix && strings.HasSuffix(text, " "+w) {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(words); i++ {
		n := number(words, i)
		if n < 0 {
			continue
		}
		if i+2 < len(words) && rangeWords[words[i+1]] {
			if m := number(words, i+2); m > n {
				u := unitAt(words, i+2, peopleBefore, yearsBefore)
				if u == unitNone {
					u = unitAt(words, i, peopleBefore, yearsBefore)
				}
				out = append(out, bound{n, m, u})
				i += 2
				continue
			}
		}
		u := unitAt(words, i, peopleBefore, yearsBefore)
		prev := " " + strings.Join(words[max(0, i-3):i], " ")
		next := strings.Join(words[i+1:min(len(words), i+5)], " ") + " "
		if u != unitNone && unitWords[words[min(i+1, len(words)-1)]] == u {
			next = strings.Join(words[min(i+2, len(words)):min(len(words), i+6)], " ") + " "
		}
		switch {
		case has(prev, leastBefore, false) || has(next, leastAfter, true):
			out = append(out, bound{n, -1, u})
		case has(prev, mostBefore, false) || has(next, mostAfter, true):
			out = append(out, bound{-1, n, u})
		}
	}
	return out
}

// fits reports whether a sentence (folded) states a range of counts of the unit of a count asked
// that the count falls within: the page's rule for the customer's case ("my daughter is 15" and
// "Clients aged 14 to 17…", "cheguei atrasado 15 min" and "Depois de 10 minutos…").
func fits(norm string, asked []count) bool {
	if len(asked) == 0 || !strings.ContainsAny(norm, "0123456789") {
		return false
	}
	for _, b := range bounds(norm) {
		for _, c := range asked {
			if b.unit != unitNone && b.unit == c.unit && (b.lo < 0 || c.n >= b.lo) && (b.hi < 0 || c.n <= b.hi) {
				return true
			}
		}
	}
	return false
}
