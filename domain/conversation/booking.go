package conversation

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// durationPart is one number and its unit in a duration such as "1 hour 30 min", "1h30" or
// "45 minutos"; a number without a unit counts minutes.
var durationPart = regexp.MustCompile(`^\s*(\d+(?:[.,]\d+)?)\s*(horas?|hours?|hrs?|h|minutos?|minutes?|mins?|m)?\s*(?:and|e|y|,)?`)

// BookingDuration writes a booking's duration the way the booking.created event carries it,
// "<n> min" (spec part 6), when the text reads as a number of minutes or hours ("30", "30
// minutes", "1 hour", "1.5h", "1h30", "2 horas"); other text is kept as it is, trimmed.
func BookingDuration(text string) string {
	s := strings.ToLower(strings.TrimSpace(text))
	total, parts := 0.0, 0
	for s != "" {
		m := durationPart.FindStringSubmatch(s)
		if m == nil || m[0] == "" {
			return strings.TrimSpace(text)
		}
		n, err := strconv.ParseFloat(strings.Replace(m[1], ",", ".", 1), 64)
		if err != nil {
			return strings.TrimSpace(text)
		}
		if strings.HasPrefix(m[2], "h") {
			total += n * 60
		} else {
			total += n // minutes, also without a unit: the 30 of "1h30"
		}
		parts++
		s = s[len(m[0]):]
	}
	minutes := math.Round(total)
	if parts == 0 || minutes < 1 || minutes > 7*24*60 {
		return strings.TrimSpace(text)
	}
	return strconv.Itoa(int(minutes)) + " min"
}
