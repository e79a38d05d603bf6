package parser

import (
	"iter"

	"github.com/robotsgate/robotstxt/internal/parse"
)

// A Line is one line of a robots.txt body as [Parse] splits it: comment
// removed, key and value split at the first ':' (or, without one, at the
// blank of a line of exactly two words) and trimmed.
type Line struct {
	// Num is the 1-based line number. LF, CR and CRLF each end a line,
	// and the text after the last line end is a line too, even when
	// empty.
	Num int
	// Key is the key as written; "" when the line holds no key-value
	// pair: it is blank, a comment, or other text ([NoKey]).
	Key string
	// Value is the value as written, not normalised.
	Value string
	// Colon reports whether a ':' ends the key; a "key value" line
	// without one is read all the same ([MissingColon]).
	Colon bool
	// Text is the line as written, without its line end: comment, white
	// space and all, longer than [MaxLineLength] too.
	Text string
}

// Lines returns an iterator over the lines of body, as Parse reads them
// (after a UTF-8 byte-order mark, even a partial one): to show the lines
// of a File as written. The Lines do not refer to body.
func Lines(body []byte) iter.Seq[Line] {
	text := string(body)
	return func(yield func(Line) bool) {
		for l := range parse.Lines(text) {
			if !yield(Line{Num: l.Num, Key: l.RawKey, Value: l.Value,
				Colon: l.RawKey != "" && l.Flags&parse.FlagMissingColon == 0, Text: l.Text}) {
				return
			}
		}
	}
}
