package assistant

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Record is one of the owner's own records: a contact, lead, task, note, event or booking.
type Record struct {
	ID        string
	AccountID string
	Type      Type
	Title     string // a contact's or lead's name; the text of the others
	Email     string
	Phone     string
	Date      string // YYYY-MM-DD when known
	CreatedAt time.Time
	UpdatedAt time.Time
}

// MaxRecordText bounds a record's title, in characters.
const MaxRecordText = 4000

// RecordOf returns the record an action saves, with id and time, and false when the action
// saves no record.
func RecordOf(a Action, id, accountID string, now time.Time) (Record, bool) {
	if !IsRecord(a.Type) {
		return Record{}, false
	}
	r := Record{ID: id, AccountID: accountID, Type: a.Type, Title: a.Text, Email: a.Email, Phone: a.Phone,
		Date: a.Date, CreatedAt: now, UpdatedAt: now}
	if a.Type == Contact || a.Type == Lead {
		r.Title = a.Name
		if r.Title == "" {
			r.Title = a.Email
		}
		// the other details the owner gave ("interested in wedding cakes") stay with the name:
		// a record has no other field for them
		if d := strings.TrimSpace(a.Text); d != "" {
			r.Title = strings.TrimSpace(r.Title + " — " + d)
		}
	}
	if utf8.RuneCountInString(r.Title) > MaxRecordText {
		r.Title = string([]rune(r.Title)[:MaxRecordText])
	}
	return r, true
}

// Key is what makes two saves the same record: a contact or lead is changed, not repeated,
// when its e-mail (or, without one, its name, without the details after " — ") is saved again;
// every other record is new.
func (r Record) Key() string {
	if r.Type == Contact || r.Type == Lead {
		if r.Email != "" {
			return string(r.Type) + ":" + strings.ToLower(r.Email)
		}
		name, _, _ := strings.Cut(r.Title, " — ") // without the details RecordOf adds
		return string(r.Type) + ":" + strings.ToLower(strings.Join(strings.Fields(name), " "))
	}
	return r.ID
}

// Filter keeps the records a query asks for: those dated today when it says today.
func Filter(rs []Record, q Query, now time.Time) []Record {
	if !q.Today {
		return rs
	}
	day := now.Format(time.DateOnly)
	out := rs[:0:0]
	for _, r := range rs {
		if r.Date == day || r.Date == "" && r.CreatedAt.Format(time.DateOnly) == day {
			out = append(out, r)
		}
	}
	return out
}
