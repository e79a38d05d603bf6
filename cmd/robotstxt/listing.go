package main

import (
	"strings"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt/parser"
)

// A listing holds the lines of a robots.txt body as written, so that rules
// and findings are shown as their author typed them rather than normalised:
// the parser's [parser.Lines], numbered as it numbers them.
type listing struct {
	lines []string // lines[n-1] is line n, without its line end
}

// newListing returns the lines of text, split and numbered by
// parser.Lines.
func newListing(text []byte) listing {
	var l listing
	for pl := range parser.Lines(text) {
		l.lines = append(l.lines, pl.Text)
	}
	return l
}

// len returns the number of lines.
func (l listing) len() int { return len(l.lines) }

// read returns the number of lines crawlers read of a body cut at their
// limit: all but the empty one after the last line end, or all when the
// body does not end with one, as when its last line ends at the limit or
// was kept cut.
func (l listing) read() int {
	if n := l.len(); n > 0 && len(l.lines[n-1]) == 0 {
		return n - 1
	}
	return l.len()
}

// maxShown bounds how much of one line is shown.
const maxShown = 160

// text returns line n as written, white space trimmed and cut to maxShown
// bytes; "" when there is no such line.
func (l listing) text(n int) string {
	if n < 1 || n > len(l.lines) {
		return ""
	}
	s := strings.TrimSpace(l.lines[n-1][:min(len(l.lines[n-1]), 4*maxShown)])
	return clip(s, maxShown)
}

// directive returns line n as "Key: value", the key and value as written
// with the comment and surrounding white space removed; "" when the line
// has no key.
func (l listing) directive(n int) string {
	pl := l.parsed(n)
	if pl.Key == "" {
		return ""
	}
	sep := ": "
	if !pl.Colon {
		sep = " "
	}
	return clip(pl.Key+sep+pl.Value, maxShown)
}

// value returns the value of line n as the parser reads it (as written,
// but cut where the parser cuts a line: at a NUL), whole; "" when the
// line has no key.
func (l listing) value(n int) string { return l.parsed(n).Value }

// parsed returns line n as the parser reads it; the zero Line when there
// is no such line.
func (l listing) parsed(n int) parser.Line {
	if n >= 1 && n <= len(l.lines) {
		// After a line end: only the file's start may hold the
		// byte-order mark the parser skips, which the first line is
		// kept without.
		for pl := range parser.Lines([]byte("\n" + l.lines[n-1])) {
			if pl.Num == 2 {
				return pl
			}
		}
	}
	return parser.Line{}
}

// clip cuts s to at most n bytes, at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && i > n-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	if !utf8.RuneStart(s[i]) {
		i = n // not UTF-8 here: cut where asked
	}
	return s[:i] + "…"
}
