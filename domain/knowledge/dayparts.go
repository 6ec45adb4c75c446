package knowledge

import (
	"regexp"
	"strconv"
	"strings"
)

// dayPart is a part of the day a question asks about or a sentence states a time in: the
// morning, the afternoon, the evening (a set of them).
type dayPart uint8

const (
	partMorning dayPart = 1 << iota
	partAfternoon
	partEvening
)

// dayPartWords are the words and phrases (folded, as NormalizeQuestion writes them) by which a
// question in each language asks about a part of the day. Spanish "mañana" alone is also
// tomorrow, and "tarde" alone late ("llego tarde", "cheguei tarde"), so those are read in their
// phrases only; Portuguese "manhã" is never tomorrow ("amanhã").
var dayPartWords = map[string]map[dayPart][]string{
	"en": {
		partMorning:   {"morning", "mornings", "before work"},
		partAfternoon: {"afternoon", "afternoons", "lunchtime", "lunch time"},
		partEvening:   {"evening", "evenings", "tonight", "at night", "after work"},
	},
	"pt": {
		partMorning:   {"manha", "manhas", "de manhazinha", "cedo"},
		partAfternoon: {"de tarde", "a tarde", "pela tarde", "tardes", "hora do almoco"},
		partEvening:   {"noite", "noites", "depois do trabalho", "fim do dia"},
	},
	"es": {
		partMorning:   {"por la manana", "de la manana", "en la manana", "las mananas", "por las mananas", "temprano"},
		partAfternoon: {"por la tarde", "de la tarde", "en la tarde", "a la tarde", "las tardes", "por las tardes", "mediodia"},
		partEvening:   {"noche", "noches", "de noche", "despues del trabajo"},
	},
}

// dayParts returns the parts of the day the query asks about (dayPartWords).
func (q *query) dayParts() dayPart { return askedBy(q.padded, dayPartWords[q.lang]) }

// clockTime matches a time of day as pages write it: "7:30", "9am", "9 pm", "6h30", "19h",
// "10.30 am"; its groups are the hour, the minutes and am or pm.
var clockTime = regexp.MustCompile(`\b(\d{1,2})(?:[:h.](\d{2}))?\s?(am|pm|a\.m\.|p\.m\.|h)?(?:\b|$)`)

// statedDayPart returns the parts of the day of the times a sentence states: from 5:00 to 11:59
// the morning, from 12:00 to 17:59 the afternoon, from 18:00 to 23:59 the evening. A number is a
// time only with minutes after a colon or an "h" ("7:30", "6h30") or with am, pm or h ("9am",
// "19h"); a price's "10.50" is no time.
func statedDayPart(sentence string) dayPart {
	if !strings.ContainsAny(sentence, "0123456789") {
		return 0
	}
	folded := strings.ToLower(sentence)
	var p dayPart
	for _, m := range clockTime.FindAllStringSubmatchIndex(folded, -1) {
		hour, _ := strconv.Atoi(folded[m[2]:m[3]])
		sep := byte(0)
		if m[4] >= 0 {
			sep = folded[m[4]-1]
		}
		suffix := ""
		if m[6] >= 0 {
			suffix = folded[m[6]:m[7]]
		}
		switch {
		case suffix == "" && sep != ':' && sep != 'h':
			continue // a bare number, or a decimal
		case strings.HasPrefix(suffix, "p") && hour < 12:
			hour += 12
		case strings.HasPrefix(suffix, "a") && hour == 12:
			hour = 0
		}
		switch {
		case hour >= 5 && hour < 12:
			p |= partMorning
		case hour >= 12 && hour < 18:
			p |= partAfternoon
		case hour >= 18 && hour < 24:
			p |= partEvening
		}
	}
	return p
}
