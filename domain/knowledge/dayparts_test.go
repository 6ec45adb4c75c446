package knowledge

import "testing"

func TestAskedDayPart(t *testing.T) {
	for _, tc := range []struct {
		q, lang string
		want    dayPart
	}{
		{"are there any morning classes", "en", partMorning},
		{"what do you have in the evenings", "en", partEvening},
		{"can i come in the afternoon", "en", partAfternoon},
		{"what time do you open", "en", 0},
		{"que horas tem bike indoor de manhã?", "pt", partMorning},
		{"vou amanhã, está aberto?", "pt", 0},
		{"tem aula à noite?", "pt", partEvening},
		{"a que hora son las clases por la mañana", "es", partMorning},
		{"reservé para mañana", "es", 0},
		{"llego tarde, puedo entrar", "es", 0},
		{"hay clases por la tarde", "es", partAfternoon},
		{"tienen algun tour de noche", "es", partEvening},
	} {
		if got := questionIn(tc.q, tc.lang).dayParts(); got != tc.want {
			t.Errorf("day parts of %q = %b, want %b", tc.q, got, tc.want)
		}
	}
}

func TestStatedDayPart(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want dayPart
	}{
		{"Clases de lunes a viernes a las 7:30, 10:00, 18:30 y 20:00.", partMorning | partEvening},
		{"Bike indoor às 6h30, 12h15 e 19h.", partMorning | partAfternoon | partEvening},
		{"We open at 9am and close at 5 pm.", partMorning | partAfternoon},
		{"Lunch from 12 noon, dinner at 7pm", partEvening},
		{"A cut costs £10.50 and takes 30 minutes.", 0},
		{"Open 24 hours a day, 7 days a week.", 0},
		{"We are at 21 High Street.", 0},
	} {
		if got := statedDayPart(tc.s); got != tc.want {
			t.Errorf("statedDayPart(%q) = %b, want %b", tc.s, got, tc.want)
		}
	}
}
