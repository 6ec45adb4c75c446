package messaging

import (
	"strings"
	"unicode"
	"unicode/utf16"
)

// MaxText is the longest text message both apps take, counted in UTF-16 code units, where a
// character outside the Basic Multilingual Plane, an emoji, counts twice. Telegram says so of
// sendMessage's text; WhatsApp says "4096 characters" of a text message's body without saying
// what a character is, and the unit is counted as Telegram's, the count that is never the longer
// (the Cloud API's own JavaScript clients check the body's UTF-16 length).
const MaxText = 4096

// MaxParts bounds the messages one reply is sent as. A reply is bounded well below it: the
// Brain's answers hold at most 5000 characters (knowledge.MaxAnswer) and the model writes at
// most 700 tokens, which with the action links is two messages, three when most of the text is
// emoji. What a longer text has past MaxParts messages is cut.
const MaxParts = 4

// units returns how many UTF-16 code units r counts for against MaxText: two for a character
// outside the Basic Multilingual Plane, one for the others.
func units(r rune) int {
	if utf16.RuneLen(r) == 2 {
		return 2
	}
	return 1
}

// Split returns the messages that send text on either app, in order: the text itself when it
// fits in MaxText, else parts that each do, made at the last paragraph break, else line break,
// else end of a sentence, else space that leaves a part at least half full, else between two
// characters (never inside one, nor inside a UTF-16 surrogate pair). The spaces at a split are
// dropped. At most MaxParts: the last is cut, an ellipsis marking the cut, when the text is
// longer still. None for a blank text.
func Split(text string) []string {
	return split(text, MaxText, MaxParts, units)
}

// Fit returns text cut to MaxText as the last part of Split is.
func Fit(text string) string {
	if parts := split(text, MaxText, 1, units); len(parts) == 1 {
		return parts[0]
	}
	return ""
}

func split(text string, limit, maxParts int, units func(rune) int) []string {
	text = strings.TrimSpace(text)
	var parts []string
	for text != "" {
		last := len(parts) == maxParts-1
		room := limit
		if last {
			room-- // for the ellipsis, if the rest is cut
		}
		end, fits := prefix(text, limit, units)
		if fits {
			parts = append(parts, text)
			break
		}
		if last {
			end, _ = prefix(text, room, units)
		}
		at := breakAt(text, end)
		parts = append(parts, strings.TrimRightFunc(text[:at], unicode.IsSpace))
		if last {
			parts[len(parts)-1] += "…"
			break
		}
		text = strings.TrimLeftFunc(text[at:], unicode.IsSpace)
	}
	return parts
}

// prefix returns the end (a byte index) of the longest prefix of text within limit units, and
// whether that is all of text.
func prefix(text string, limit int, units func(rune) int) (end int, all bool) {
	n := 0
	for i, r := range text {
		if n += units(r); n > limit {
			return i, false
		}
	}
	return len(text), true
}

// breakAt returns where to end a part of text that may hold text[:end] at most (end <
// len(text)): the last paragraph break, line break, sentence end or space in the second half of
// it, in that order of preference; else end itself.
func breakAt(text string, end int) int {
	const (
		paragraph = iota
		line
		sentence
		word
		kinds
	)
	best := [kinds]int{}
	prev := rune(0)
	for i, r := range text {
		if i > end {
			break
		}
		if i > 0 && i >= end/2 {
			switch {
			case strings.HasPrefix(text[i:], "\n\n"):
				best[paragraph] = i
			case r == '\n':
				best[line] = i
			}
			if unicode.IsSpace(r) && strings.ContainsRune(".!?…", prev) || strings.ContainsRune("。！？", prev) {
				best[sentence] = i
			}
			if unicode.IsSpace(r) {
				best[word] = i
			}
		}
		prev = r
	}
	for _, at := range best {
		if at > 0 {
			return at
		}
	}
	return end
}
