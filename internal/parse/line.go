package parse

import (
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// MaxLineLength is the number of bytes of a line that the parser keeps
// (see parser.MaxLineLength).
const MaxLineLength = 2083*8 - 1

// A Line is one line of a robots.txt body as the parser splits it (see
// parser.Line).
type Line struct {
	Num    int
	Key    Key       // what the key names; KeyNone when the line has none
	RawKey string    // the key as written, white space trimmed
	Value  string    // white space trimmed, not yet normalised
	Flags  LineFlags // what the parser noticed or tolerated
	Text   string    // the line as written, without its line end, not cut
}

// LineFlags is a set of observations about one line.
type LineFlags uint16

// The flags of a Line.
const (
	FlagEmpty        LineFlags = 1 << iota // nothing but white space
	FlagComment                            // has a '#' comment
	FlagCommentOnly                        // nothing but a comment
	FlagMissingColon                       // "key value" accepted without ':'
	FlagTypo                               // a misspelt key that is accepted
	FlagTooLong                            // cut at MaxLineLength bytes
	FlagNUL                                // cut at a NUL byte
	FlagInvalidUTF8                        // the kept text is not valid UTF-8
	FlagNoKey                              // text that is not a key-value pair
)

// Lines returns an iterator over the lines of a robots.txt body as Parse
// reads them.
func Lines(body string) iter.Seq[Line] {
	return func(yield func(Line) bool) {
		sc := newScanner(body)
		var l Line
		for sc.next(&l) && yield(l) {
		}
	}
}

// scanner splits a body into Lines, searching each byte at most once for
// CR and once for LF.
type scanner struct {
	s      string
	pos    int // where the next line starts
	num    int
	nextCR int // index of the next '\r' at or after pos, or len(s)
	nextLF int // likewise for '\n'
	done   bool
	ascii  bool // the body has no byte at or above 0x80
	noNUL  bool // the body has no NUL byte
	plain  bool // ascii and no '%': no rule of the body needs escaping
}

func newScanner(s string) scanner {
	// Skip a UTF-8 byte-order mark, or the leading part of one.
	for _, b := range []byte{0xEF, 0xBB, 0xBF} {
		if s == "" || s[0] != b {
			break
		}
		s = s[1:]
	}
	isASCII := ascii.IsASCII(s) // quick passes that spare checks on each line
	return scanner{s: s, nextCR: -1, nextLF: -1, ascii: isASCII,
		noNUL: strings.IndexByte(s, 0) < 0,
		plain: isASCII && strings.IndexByte(s, '%') < 0}
}

// next reads the next line into l and reports whether there was one.
func (sc *scanner) next(l *Line) bool {
	if sc.done {
		return false
	}
	if sc.nextLF < sc.pos {
		sc.nextLF = indexFrom(sc.s, sc.pos, '\n')
	}
	if sc.nextCR < sc.pos {
		sc.nextCR = indexFrom(sc.s, sc.pos, '\r')
	}
	end := min(sc.nextLF, sc.nextCR)
	text := sc.s[sc.pos:end]
	if end == len(sc.s) {
		sc.done = true
	} else {
		sc.pos = end + 1
		if sc.s[end] == '\r' && sc.pos < len(sc.s) && sc.s[sc.pos] == '\n' {
			sc.pos++ // CRLF ends one line
		}
	}
	sc.num++
	sc.parseLine(l, text)
	l.Text = text
	return true
}

// indexFrom returns the index of c in s at or after from, or len(s).
func indexFrom(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// Settled reports whether the parser reads text, a line cut short, as
// it reads every line text begins: its comment began before the cut, or
// past the part the parser keeps (MaxLineLength bytes, to a NUL) it holds
// more than white space, which settles how the rest is read.
func Settled(text string) bool {
	kept := Kept(text, true)
	return strings.IndexByte(kept, '#') >= 0 || restOf(text, kept) != ""
}

// Kept returns the part of a line's text the parser reads but for its
// comment: cut at MaxLineLength and, when nuls is set (Google's mode), at
// a NUL.
func Kept(text string, nuls bool) string {
	kept := text[:min(len(text), MaxLineLength)]
	if nuls {
		if nul := strings.IndexByte(kept, 0); nul >= 0 {
			kept = kept[:nul]
		}
	}
	return kept
}

// restOf returns what follows kept, the part Kept returns of text, past
// a NUL and white space.
func restOf(text, kept string) string {
	return strings.TrimLeft(strings.TrimPrefix(text[len(kept):], "\x00"), " \t\v\f")
}

// parseLine splits one line into key and value as Google's parser does.
func (sc *scanner) parseLine(l *Line, text string) {
	*l = Line{Num: sc.num}
	// The line is cut at MaxLineLength and at a NUL, then its comment; a
	// cut of nothing but white space and a comment cuts nothing read, and
	// is no cut.
	kept := Kept(text, !sc.noNUL)
	if i := strings.IndexByte(kept, '#'); i >= 0 {
		kept = kept[:i]
		l.Flags |= FlagComment
	} else if len(kept) < len(text) {
		switch rest := restOf(text, kept); {
		case rest == "":
		case rest[0] == '#':
			l.Flags |= FlagComment
		default:
			if len(text) > MaxLineLength {
				l.Flags |= FlagTooLong
			}
			if len(kept) < min(len(text), MaxLineLength) { // cut at a NUL
				l.Flags |= FlagNUL
			}
		}
	}
	text = kept
	text = trimSpace(text)
	if text == "" {
		if l.Flags&FlagComment != 0 {
			l.Flags |= FlagCommentOnly
		} else {
			l.Flags |= FlagEmpty
		}
		return
	}
	if !sc.ascii && !utf8.ValidString(text) {
		l.Flags |= FlagInvalidUTF8
	}
	sep := strings.IndexByte(text, ':')
	if sep < 0 {
		sep = strings.IndexAny(text, " \t")
		if sep < 0 || strings.ContainsAny(strings.TrimLeft(text[sep:], " \t"), " \t") {
			l.Flags |= FlagNoKey
			return
		}
		l.Flags |= FlagMissingColon
	}
	key := trimSpace(text[:sep])
	if key == "" {
		l.Flags |= FlagNoKey
		l.Flags &^= FlagMissingColon
		return
	}
	l.RawKey = key
	l.Value = trimSpace(text[sep+1:])
	var typo bool
	l.Key, typo = classify(key)
	if typo {
		l.Flags |= FlagTypo
	}
}

// isSpace reports whether c is ASCII white space as C's isspace defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}
