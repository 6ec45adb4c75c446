package assistant

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The dates the grammar reads in the text of a task, an event or a booking, in English,
// Portuguese and Spanish: "today", "tonight", "tomorrow", "the day after tomorrow", a weekday
// ("Friday", "on Friday", "next Friday", "na segunda", "sexta-feira", "el lunes"), an ISO date
// (2026-12-25), a day and month with a slash or a dot ("25/12", "25/12/2026"; month first only
// when the day-first reading is impossible: "12/25"), and a day with a month's name
// ("25 December", "December 25th", "25 de dezembro", "25 de diciembre").

// dateMatcher finds one kind of date in a text: where it starts, and the day it names.
type dateMatcher func(text string, now time.Time) (at int, day time.Time, ok bool)

// word is a case-insensitive regexp of s as whole words: Go's \b knows only ASCII letters, and
// "amanhã", "sábado" end or start with others. A match may start with the character before.
func word(s string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { // compiled on first use, as re's
		return regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])(?:` + s + `)(?:[^\p{L}\p{N}]|$)`)
	})
}

var (
	afterTomorrowWord = word(`(?:the\s+)?day\s+after\s+tomorrow|depois\s+de\s+amanh[ãa]|pasado\s+ma[ñn]ana`)
	todayDate         = word(`today|tonight|this\s+evening|hoje|esta\s+noite|hoy|esta\s+noche`)
	// "mañana" is also "morning": "por la mañana", "la mañana" are not tomorrow
	tomorrowDate = word(`((?:por\s+|de\s+)?la\s+)?(?:tomorrow|amanh[ãa]|ma[ñn]ana)`)
	isoDate      = word(`\d{4}-\d{2}-\d{2}`)
	slashDate    = word(`(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?`)
	// a weekday: the English and Spanish names anywhere; the Portuguese "segunda", "sexta", …
	// also mean "second", "sixth": they count with "-feira", after "na", "no", "para", …, or
	// after "próxima"
	weekdayDate = word(`(?:(next|this|coming|pr[óo]xim[oa]|est[ea]|el\s+pr[óo]ximo)\s+)?(?:` +
		`(monday|tuesday|wednesday|thursday|friday|saturday|sunday)|` +
		`(lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo)|` +
		`(segunda|ter[çc]a|quarta|quinta|sexta)((?:-|\s+)feira)?)`)
	ptWeekdayCue = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:na|no|nesta|neste|nessa|nesse|(?:para|pra|at[ée])(?:\s+a)?|toda|todo)\s+$`)
	dayMonth     = word(`(\d{1,2})(?:st|nd|rd|th|º)?\s+(?:de\s+|of\s+)?(\p{L}{3,})`)
	monthDay     = word(`(\p{L}{3,})\s+(\d{1,2})(?:st|nd|rd|th)?`)
)

var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday,
	"friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday,
	"lunes": time.Monday, "martes": time.Tuesday, "miercoles": time.Wednesday, "jueves": time.Thursday,
	"viernes": time.Friday, "sabado": time.Saturday, "domingo": time.Sunday,
	"segunda": time.Monday, "terca": time.Tuesday, "quarta": time.Wednesday, "quinta": time.Thursday, "sexta": time.Friday,
}

var months = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12,
	"janeiro": 1, "fevereiro": 2, "marco": 3, "abril": 4, "maio": 5, "junho": 6, "julho": 7, "agosto": 8,
	"setembro": 9, "outubro": 10, "novembro": 11, "dezembro": 12,
	"enero": 1, "febrero": 2, "mayo": 5, "junio": 6, "julio": 7, "septiembre": 9, "setiembre": 9,
	"octubre": 10, "noviembre": 11, "diciembre": 12,
}

// plain folds the accents the day and month names carry.
var plain = strings.NewReplacer("á", "a", "é", "e", "ç", "c", "ã", "a", "Á", "a", "É", "e", "Ç", "c")

// at returns where the match m starts, past the character before the word.
func at(s string, m []int) int {
	if m[0] == 0 {
		return 0
	}
	_, n := utf8.DecodeRuneInString(s[m[0]:])
	return m[0] + n
}

var dateMatchers = []dateMatcher{
	func(s string, now time.Time) (int, time.Time, bool) {
		if m := afterTomorrowWord().FindStringIndex(s); m != nil {
			return at(s, m), now.AddDate(0, 0, 2), true
		}
		return 0, time.Time{}, false
	},
	func(s string, now time.Time) (int, time.Time, bool) {
		if m := todayDate().FindStringIndex(s); m != nil {
			return at(s, m), now, true
		}
		return 0, time.Time{}, false
	},
	func(s string, now time.Time) (int, time.Time, bool) {
		for _, m := range tomorrowDate().FindAllStringSubmatchIndex(s, -1) {
			if m[2] < 0 { // not "la mañana" (the morning)
				return at(s, m), now.AddDate(0, 0, 1), true
			}
		}
		return 0, time.Time{}, false
	},
	func(s string, now time.Time) (int, time.Time, bool) {
		m := isoDate().FindStringIndex(s)
		if m == nil {
			return 0, time.Time{}, false
		}
		d, err := time.ParseInLocation(time.DateOnly, strings.Trim(s[m[0]:m[1]], " ,.;:()"), now.Location())
		return at(s, m), d, err == nil
	},
	func(s string, now time.Time) (int, time.Time, bool) {
		for _, m := range slashDate().FindAllStringSubmatchIndex(s, -1) {
			a, _ := strconv.Atoi(s[m[2]:m[3]])
			b, _ := strconv.Atoi(s[m[4]:m[5]])
			day, month := a, b
			if b > 12 && a <= 12 { // 12/25: month first
				day, month = b, a
			}
			year := 0
			if m[6] >= 0 {
				year, _ = strconv.Atoi(s[m[6]:m[7]])
				if year < 100 {
					year += 2000
				}
			}
			if d, ok := dayOf(year, time.Month(month), day, now); ok {
				return at(s, m), d, true
			}
		}
		return 0, time.Time{}, false
	},
	func(s string, now time.Time) (int, time.Time, bool) {
		for _, m := range weekdayDate().FindAllStringSubmatchIndex(s, -1) {
			var name string
			switch {
			case m[4] >= 0:
				name = s[m[4]:m[5]]
			case m[6] >= 0:
				name = s[m[6]:m[7]]
			default: // Portuguese: with "-feira", a qualifier ("próxima") or a cue before
				name = s[m[8]:m[9]]
				if m[10] < 0 && m[2] < 0 && !ptWeekdayCue.MatchString(s[:m[8]]) {
					continue
				}
			}
			wd, ok := weekdays[plain.Replace(strings.ToLower(name))]
			if !ok {
				continue
			}
			ahead := (int(wd) - int(now.Weekday()) + 7) % 7
			if ahead == 0 && m[2] >= 0 {
				if q := strings.ToLower(s[m[2]:m[3]]); q != "this" && !strings.HasPrefix(q, "est") {
					ahead = 7 // "next Friday" said on a Friday
				}
			}
			return at(s, m), now.AddDate(0, 0, ahead), true
		}
		return 0, time.Time{}, false
	},
	func(s string, now time.Time) (int, time.Time, bool) { return namedMonth(s, now, dayMonth(), 2, 4) },
	func(s string, now time.Time) (int, time.Time, bool) { return namedMonth(s, now, monthDay(), 4, 2) },
}

// namedMonth finds a day with a month's name with re, whose groups at day and month (indexes
// of the submatch positions) hold them.
func namedMonth(s string, now time.Time, re *regexp.Regexp, day, month int) (int, time.Time, bool) {
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		mo, ok := months[plain.Replace(strings.ToLower(s[m[month]:m[month+1]]))]
		if !ok {
			continue
		}
		d, _ := strconv.Atoi(s[m[day]:m[day+1]])
		if t, ok := dayOf(0, mo, d, now); ok {
			return at(s, m), t, true
		}
	}
	return 0, time.Time{}, false
}

// dayOf returns the day of month and year (year 0: the next such day from now, this year or
// the next), and false when there is no such day.
func dayOf(year int, month time.Month, day int, now time.Time) (time.Time, bool) {
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return time.Time{}, false
	}
	y := year
	if y == 0 {
		y = now.Year()
	}
	d := time.Date(y, month, day, 0, 0, 0, 0, now.Location())
	if d.Day() != day { // 31/02
		return time.Time{}, false
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	if year == 0 && d.Before(today) {
		d = d.AddDate(1, 0, 0)
	}
	return d, true
}

// DateIn returns the first date text names, as YYYY-MM-DD from now, or "".
func DateIn(text string, now time.Time) string {
	best, found := -1, time.Time{}
	for _, f := range dateMatchers {
		if at, d, ok := f(text, now); ok && (best < 0 || at < best) {
			best, found = at, d
		}
	}
	if best < 0 {
		return ""
	}
	return found.Format(time.DateOnly)
}
