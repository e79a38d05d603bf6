// Package sfv reads the Dictionary type of Structured Field Values for
// HTTP (RFC 9651), the syntax of statements of preference about content
// usage: the Content-Usage header field and the robots.txt Content-Usage
// rule carry one, such as "train-ai=n, search=y".
//
// A [Scanner] checks a Dictionary against the whole of RFC 9651 §4.2
// (keys, parameters, inner lists and every bare item type: Integer,
// Decimal, String, Token, Byte Sequence, Boolean, Date and Display String)
// and hands out its members as written, one at a time, without
// allocating. It rejects what RFC 9651 rejects, and it also rejects field
// values longer than [MaxLength] bytes.
package sfv

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt/internal/parse"
)

// MaxLength is the length in bytes of the longest field value a [Scanner]
// reads: that of a robots.txt line ([parse.MaxLineLength]), so that a
// Content-Usage statement may fill the line it is written on, and a
// header field carries no longer one. Within it a Dictionary may have any
// number of members, up to (MaxLength+1)/2 (a one-byte key and a ','
// each), well past the 1,024 that RFC 9651 §3.2 asks parsers to accept.
// Reading a value costs time linear in its length.
const MaxLength = parse.MaxLineLength

// ErrTooLong is the error of a field value longer than [MaxLength].
var ErrTooLong = errors.New("sfv: field value longer than " + strconv.Itoa(MaxLength) + " bytes")

// A SyntaxError reports where and why a field value is not a Dictionary.
type SyntaxError struct {
	Offset int    // byte offset in the field value where reading stopped
	Reason string // what was wrong there, or what was wanted there
	at     string // the value from Offset on, when Error names the byte found there
	quote  bool   // whether Error names it
}

// Error describes the failure as "sfv: offset N: reason", naming the byte
// found at N when the reason is about it.
func (e *SyntaxError) Error() string {
	msg := "sfv: offset " + strconv.Itoa(e.Offset) + ": " + e.Reason
	switch {
	case !e.quote:
		return msg
	case e.at == "":
		return msg + " (found the end)"
	}
	return msg + " (found " + strconv.Quote(e.at[:1]) + ")"
}

// Kind is the type of a member's value.
type Kind uint8

// The kinds of value. A member written as a key alone has the value
// Boolean true.
const (
	Integer Kind = iota + 1
	Decimal
	String
	Token
	ByteSequence
	Boolean
	Date
	DisplayString
	InnerList
)

// A Member is one member of a Dictionary, as written.
type Member struct {
	Key string
	// Kind is the type of the value.
	Kind Kind
	// Value is the value as written, without its parameters: "y" for the
	// Token y, `"n"` for the String n, "(a b)" for an inner list (its
	// items' parameters included), "" for a key written alone.
	Value string
	// Params are the member's parameters as written, from their first
	// ';' ("" when there are none).
	Params string
}

// A Scanner reads the members of a Dictionary in order, as [Scan] makes
// it:
//
//	sc := sfv.Scan(value)
//	for sc.Next() {
//		m := sc.Member()
//		…
//	}
//	if err := sc.Err(); err != nil {
//		// value is not a Dictionary: forget the members read
//	}
//
// Members come as written: a repeated key comes each time, and RFC 9651
// says the last one counts, at the place of the first. A member is handed
// out before the rest of the value is read, so that a caller must check
// [Scanner.Err] before using any.
type Scanner struct {
	in      string
	off     int
	members int // read so far
	done    bool
	err     error
	m       Member
}

// Scan returns a Scanner that reads value as a Dictionary.
func Scan(value string) Scanner {
	sc := Scanner{in: value}
	if len(value) > MaxLength {
		sc.err, sc.done = ErrTooLong, true
		return sc
	}
	sc.skipSP()
	return sc
}

// Next reads the next member, for [Scanner.Member]. It returns false at
// the end of the Dictionary or at the first error, which [Scanner.Err]
// then reports.
func (sc *Scanner) Next() bool {
	if sc.done {
		return false
	}
	if sc.members > 0 {
		sc.skipOWS()
		if sc.eof() {
			sc.done = true
			return false
		}
		if sc.in[sc.off] != ',' {
			return sc.unexpected("want ',' or the end after a member")
		}
		sc.off++
		sc.skipOWS()
		if sc.eof() {
			return sc.fail("a ',' ends the dictionary")
		}
	} else if sc.eof() {
		sc.done = true // the empty Dictionary
		return false
	}
	key, ok := sc.key()
	if !ok {
		return false
	}
	m := Member{Key: key, Kind: Boolean}
	if !sc.eof() && sc.in[sc.off] == '=' {
		sc.off++
		start := sc.off
		if !sc.eof() && sc.in[sc.off] == '(' {
			ok = sc.innerList()
			m.Kind = InnerList
		} else {
			m.Kind, ok = sc.bareItem()
		}
		if !ok {
			return false
		}
		m.Value = sc.in[start:sc.off]
	}
	start := sc.off
	if !sc.params() {
		return false
	}
	m.Params = sc.in[start:sc.off]
	sc.m = m
	sc.members++
	return true
}

// Member returns the member that the last successful [Scanner.Next] read.
func (sc *Scanner) Member() Member { return sc.m }

// Err returns nil if the whole value is a Dictionary, else why not: a
// *[SyntaxError] or [ErrTooLong]. It is final once [Scanner.Next] has
// returned false.
func (sc *Scanner) Err() error { return sc.err }

// fail stops the scan with a SyntaxError at the current offset; it
// returns false for Next.
func (sc *Scanner) fail(reason string) bool {
	sc.err = &SyntaxError{Offset: sc.off, Reason: reason}
	sc.done = true
	return false
}

// unexpected is fail for a reason about the byte at the current offset,
// which the error names.
func (sc *Scanner) unexpected(reason string) bool {
	sc.err = &SyntaxError{Offset: sc.off, Reason: reason, at: sc.in[sc.off:], quote: true}
	sc.done = true
	return false
}

func (sc *Scanner) eof() bool { return sc.off == len(sc.in) }

func (sc *Scanner) skipSP() {
	for !sc.eof() && sc.in[sc.off] == ' ' {
		sc.off++
	}
}

// skipOWS skips optional white space: spaces and tabs.
func (sc *Scanner) skipOWS() {
	for !sc.eof() && (sc.in[sc.off] == ' ' || sc.in[sc.off] == '\t') {
		sc.off++
	}
}

// key reads a key: a lower-case letter or '*', then lower-case letters,
// digits, '_', '-', '.' and '*' (RFC 9651 §4.2.3.3).
func (sc *Scanner) key() (string, bool) {
	if sc.eof() || !isLower(sc.in[sc.off]) && sc.in[sc.off] != '*' {
		return "", sc.unexpected("want a key, which starts with a lower-case letter or '*'")
	}
	start := sc.off
	sc.off = span(sc.in, sc.off+1, keyByte)
	return sc.in[start:sc.off], true
}

// params reads parameters: each ';', spaces, a key, and '=' with a bare
// item unless the value is Boolean true (RFC 9651 §4.2.3.2).
func (sc *Scanner) params() bool {
	for !sc.eof() && sc.in[sc.off] == ';' {
		sc.off++
		sc.skipSP()
		if _, ok := sc.key(); !ok {
			return false
		}
		if !sc.eof() && sc.in[sc.off] == '=' {
			sc.off++
			if _, ok := sc.bareItem(); !ok {
				return false
			}
		}
	}
	return true
}

// innerList reads '(', items with their parameters separated by spaces,
// ')' and the list's parameters (RFC 9651 §4.2.1.2).
func (sc *Scanner) innerList() bool {
	sc.off++ // '('
	for {
		sc.skipSP()
		if sc.eof() {
			return sc.fail("an inner list is not closed")
		}
		if sc.in[sc.off] == ')' {
			sc.off++
			return true // the caller reads the list's parameters
		}
		if _, ok := sc.bareItem(); !ok || !sc.params() {
			return false
		}
		if sc.eof() || sc.in[sc.off] != ' ' && sc.in[sc.off] != ')' {
			return sc.unexpected("want ' ' or ')' after an item of an inner list")
		}
	}
}

// bareItem reads a bare item, telling its type by its first byte (RFC
// 9651 §4.2.3.1).
func (sc *Scanner) bareItem() (Kind, bool) {
	var c byte // 0 at the end, which starts no value
	if !sc.eof() {
		c = sc.in[sc.off]
	}
	switch {
	case c == '-' || isDigit(c):
		return sc.number()
	case c == '"':
		return String, sc.string()
	case isAlpha(c) || c == '*':
		sc.token()
		return Token, true
	case c == ':':
		return ByteSequence, sc.byteSequence()
	case c == '?':
		return Boolean, sc.boolean()
	case c == '@':
		sc.off++
		k, ok := sc.number()
		if ok && k != Integer {
			return 0, sc.fail("a date is an integer, not a decimal")
		}
		return Date, ok
	case c == '%':
		return DisplayString, sc.displayString()
	}
	return 0, sc.unexpected("want a value")
}

// number reads an Integer (at most 15 digits) or a Decimal (at most 12
// digits, '.', 1 to 3 digits), either with a leading '-' (RFC 9651
// §4.2.4).
func (sc *Scanner) number() (Kind, bool) {
	if !sc.eof() && sc.in[sc.off] == '-' {
		sc.off++
	}
	if sc.eof() || !isDigit(sc.in[sc.off]) {
		return 0, sc.unexpected("want a digit")
	}
	start, dot := sc.off, -1
	for ; !sc.eof(); sc.off++ {
		c := sc.in[sc.off]
		if isDigit(c) {
			continue
		}
		if c != '.' || dot >= 0 {
			break
		}
		if sc.off-start > 12 {
			return 0, sc.fail("a decimal has more than 12 digits before '.'")
		}
		dot = sc.off
	}
	switch {
	case dot < 0 && sc.off-start > 15:
		return 0, sc.fail("an integer has more than 15 digits")
	case dot < 0:
		return Integer, true
	case dot == sc.off-1:
		return 0, sc.fail("a decimal ends with '.'")
	case sc.off-dot-1 > 3:
		return 0, sc.fail("a decimal has more than 3 digits after '.'")
	}
	return Decimal, true
}

// string reads a String: '"', printable ASCII with '\' escaping '"' and
// '\', '"' (RFC 9651 §4.2.5).
func (sc *Scanner) string() bool {
	for sc.off++; !sc.eof(); sc.off++ {
		switch c := sc.in[sc.off]; {
		case c == '"':
			sc.off++
			return true
		case c == '\\':
			sc.off++
			if sc.eof() || sc.in[sc.off] != '"' && sc.in[sc.off] != '\\' {
				return sc.unexpected(`want '"' or '\' after '\' in a string`)
			}
		case c < ' ' || c > '~':
			return sc.unexpected("a string holds a byte that is not printable ASCII")
		}
	}
	return sc.fail("a string is not closed")
}

// token reads a Token, whose first byte the caller has checked: then
// tchar, ':' and '/' (RFC 9651 §4.2.6).
func (sc *Scanner) token() {
	sc.off = span(sc.in, sc.off+1, tokenByte)
}

// byteSequence reads a Byte Sequence: base64 between colons (RFC 9651
// §4.2.7).
func (sc *Scanner) byteSequence() bool {
	sc.off++ // ':'
	start := sc.off
	for ; !sc.eof() && sc.in[sc.off] != ':'; sc.off++ {
		if c := sc.in[sc.off]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return sc.unexpected("a byte sequence holds a byte that is not base64")
		}
	}
	if sc.eof() {
		return sc.fail("a byte sequence is not closed")
	}
	if !isBase64(sc.in[start:sc.off]) {
		return sc.fail("a byte sequence is not base64")
	}
	sc.off++
	return true
}

// isBase64 reports whether s, of base64 characters and '=', decodes
// (RFC 4648 §4). As RFC 9651 §4.2.7 asks, missing padding is not an
// error; padding that is there must be right, and only at the end.
// Non-zero pad bits are accepted, as RFC 9651 allows.
func isBase64(s string) bool {
	data := len(s)
	for data > 0 && s[data-1] == '=' {
		data--
	}
	for i := range data {
		if s[i] == '=' {
			return false
		}
	}
	if pad := len(s) - data; pad > 0 && (pad > 2 || len(s)%4 != 0) {
		return false
	}
	return data%4 != 1 // one character left over holds no whole byte
}

// boolean reads "?1" or "?0" (RFC 9651 §4.2.8).
func (sc *Scanner) boolean() bool {
	sc.off++ // '?'
	if sc.eof() || sc.in[sc.off] != '0' && sc.in[sc.off] != '1' {
		return sc.unexpected("want '0' or '1' after '?'")
	}
	sc.off++
	return true
}

// displayString reads a Display String: '%', '"', printable ASCII with
// '%' and two lower-case hex digits for a byte, '"'; the bytes must be
// UTF-8 (RFC 9651 §4.2.10). It checks the UTF-8 as it reads, holding at
// most one character's bytes.
func (sc *Scanner) displayString() bool {
	sc.off++ // '%'
	if sc.eof() || sc.in[sc.off] != '"' {
		return sc.unexpected(`want '"' after '%'`)
	}
	var char [utf8.UTFMax]byte // the bytes of the character being read
	n, want := 0, 0
	for sc.off++; !sc.eof(); sc.off++ {
		at, c := sc.off, sc.in[sc.off] // at: where the byte is written
		switch {
		case c < ' ' || c > '~':
			return sc.unexpected("a display string holds a byte that is not printable ASCII")
		case c == '"':
			if n > 0 {
				return sc.fail("a display string is not UTF-8")
			}
			sc.off++
			return true
		case c == '%':
			if len(sc.in)-sc.off < 3 || !isLowerHex(sc.in[sc.off+1]) || !isLowerHex(sc.in[sc.off+2]) {
				sc.off++
				return sc.unexpected("want two lower-case hex digits after '%' in a display string")
			}
			c = unhex(sc.in[sc.off+1])<<4 | unhex(sc.in[sc.off+2])
			sc.off += 2
		}
		switch {
		case n == 0 && c < utf8.RuneSelf:
			continue
		case n == 0:
			want = utf8Length(c)
		case c < utf8.RuneSelf:
			want = 0 // an ASCII byte cuts the character short
		}
		char[n] = c
		if n++; want == 0 || n == want && !utf8.Valid(char[:n]) {
			sc.off = at
			return sc.fail("a display string is not UTF-8")
		}
		if n == want {
			n = 0
		}
	}
	return sc.fail("a display string is not closed")
}

// utf8Length returns the length of the UTF-8 encoding that starts with
// the byte c, or 0 if no encoding starts with it.
func utf8Length(c byte) int {
	switch {
	case c >= 0xC2 && c <= 0xDF:
		return 2
	case c >= 0xE0 && c <= 0xEF:
		return 3
	case c >= 0xF0 && c <= 0xF4:
		return 4
	}
	return 0
}

func isLower(c byte) bool    { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool    { return isLower(c) || c >= 'A' && c <= 'Z' }
func isLowerHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' }

func unhex(c byte) byte {
	if isDigit(c) {
		return c - '0'
	}
	return c - 'a' + 10
}

// The classes of bytes that byteClass records.
const (
	keyByte   = 1 << iota // may follow a key's first byte
	tokenByte             // may follow a Token's first byte: a tchar of RFC 9110, ':' or '/'
)

// byteClass records the classes of each byte, so that the loops over keys
// and Tokens test one bit a byte.
var byteClass = func() (class [256]uint8) {
	for c := range 256 {
		b := byte(c)
		if isLower(b) || isDigit(b) || strings.IndexByte("_-.*", b) >= 0 {
			class[c] |= keyByte
		}
		if isAlpha(b) || isDigit(b) || strings.IndexByte("!#$%&'*+-.^_`|~:/", b) >= 0 {
			class[c] |= tokenByte
		}
	}
	return class
}()

// span returns the offset of the first byte of s from i on that is not of
// the class.
func span(s string, i int, class uint8) int {
	for i < len(s) && byteClass[s[i]]&class != 0 {
		i++
	}
	return i
}

// IsKey reports whether s is a key: what a Dictionary member's name may
// be.
func IsKey(s string) bool {
	return s != "" && (isLower(s[0]) || s[0] == '*') && span(s, 1, keyByte) == len(s)
}

// IsToken reports whether s is a Token.
func IsToken(s string) bool {
	return s != "" && (isAlpha(s[0]) || s[0] == '*') && span(s, 1, tokenByte) == len(s)
}
