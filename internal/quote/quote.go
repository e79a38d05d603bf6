// Package quote bounds the text a server, a file or a caller chose where
// the library keeps or quotes it: a hostile server can send megabytes.
package quote

import "unicode/utf8"

// Max bounds each piece of chosen text that an error's text quotes (a
// URL, a host, a rule's pattern, a scheme): enough to recognise it, too
// little for one response to flood every log line that prints the error.
const Max = 128

// Cut returns s cut to at most n bytes, at a UTF-8 boundary and marked
// with "…" when it is cut, unless n leaves no room for the mark.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	mark := "…"
	end := n - len(mark)
	if end < 0 {
		end, mark = max(n, 0), ""
	}
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + mark
}
