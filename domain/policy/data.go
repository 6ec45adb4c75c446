package policy

import "strings"

// Defuse returns text someone else wrote, to be put inside <tag> … </tag> of a model's prompt
// as data, with every opening or closing of that tag in it written "&lt;…" so that the text
// cannot end its wrapping and pass for instructions: in any case and spacing ("</INPUT>",
// "< /input", "<Input "), as a model would read them. Other text is left as it is.
func Defuse(tag, text string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '<' || !opensTag(text[i+1:], tag) {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(text) + 8)
		}
		b.WriteString(text[last:i])
		b.WriteString("&lt;")
		last = i + 1
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// opensTag reports whether rest, the text after a '<', goes on as tag's start or end: spaces, an
// optional '/', spaces, then the tag's name in any case.
func opensTag(rest, tag string) bool {
	rest = strings.TrimLeft(rest, " \t\r\n")
	if strings.HasPrefix(rest, "/") {
		rest = strings.TrimLeft(rest[1:], " \t\r\n")
	}
	return len(rest) >= len(tag) && strings.EqualFold(rest[:len(tag)], tag)
}
