// Package sfv reads the Dictionary type of Structured Field Values for
// HTTP (RFC 9651), the syntax of Content-Usage statements such as
// "train-ai=n, search=y", checking the whole grammar of RFC 9651 §4.2.
package sfv

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// MaxLength is the length in bytes of the longest field value a [Scanner]
// reads, 68 KiB: room for 1,024 members with keys of 64 characters, the
// least of a Dictionary RFC 9651 §3.2 asks parsers to accept, each set to
// a one-byte Token and followed by ", ". A Byte Sequence of the 16,384
// octets §3.3.5 asks for takes 21,850 bytes. A statement in a robots.txt
// line is shorter: the parser cuts a line at parse.MaxLineLength bytes.
const MaxLength = 1024 * (64 + len("=n, "))

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

// A Member is one member of a Dictionary, as written.
type Member struct {
	Key string
	// Value is the value as written, without its parameters: "y" for the
	// Token y, `"n"` for the String n, "(a b)" for an inner list, "" for a
	// key written alone (Boolean true).
	Value string
	Token bool // whether Value is a Token
}

// A Scanner, made by [Scan], reads the members of a Dictionary in order,
// as written, without allocating, in linear time. A repeated key comes
// each time (RFC 9651: the last one counts, at the place of the first). A
// member comes before the rest of the value is read: a caller must check
// [Scanner.Err] before using any.
type Scanner struct {
	in    string
	off   int
	token bool // whether the last value read is a Token
	err   error
	m     Member
}

// Scan returns a Scanner that reads value as a Dictionary.
func Scan(value string) Scanner {
	sc := Scanner{in: value}
	if len(value) > MaxLength {
		sc.err = ErrTooLong
	}
	sc.skip(sp)
	return sc
}

// Next reads the next member, for [Scanner.Member]. It returns false at
// the end or at the first error.
func (sc *Scanner) Next() bool {
	if sc.err != nil {
		return false
	}
	if sc.m.Key != "" { // after a member
		if sc.skip(ows); !sc.eof() {
			if !sc.eat(',') {
				return sc.unexpected("want ',' or the end after a member")
			}
			if sc.skip(ows); sc.eof() {
				return sc.fail("a ',' ends the dictionary")
			}
		}
	}
	if sc.eof() {
		return false
	}
	start := sc.off
	if !sc.key() {
		return false
	}
	m := Member{Key: sc.in[start:sc.off]}
	if sc.eat('=') {
		start := sc.off
		if sc.peek() == '(' {
			if !sc.innerList() {
				return false
			}
		} else if !sc.bareItem() {
			return false
		}
		m.Value, m.Token = sc.in[start:sc.off], sc.token
	}
	if !sc.params() {
		return false
	}
	sc.m = m
	return true
}

// Member returns the member that the last successful [Scanner.Next] read.
func (sc *Scanner) Member() Member { return sc.m }

// Err returns nil if the whole value is a Dictionary, else a
// *[SyntaxError] or [ErrTooLong]; final once [Scanner.Next] returns false.
func (sc *Scanner) Err() error { return sc.err }

// fail stops the scan with a SyntaxError at the current offset.
func (sc *Scanner) fail(reason string) bool {
	sc.err = &SyntaxError{Offset: sc.off, Reason: reason}
	return false
}

// unexpected is fail naming the byte at the current offset.
func (sc *Scanner) unexpected(reason string) bool {
	sc.err = &SyntaxError{Offset: sc.off, Reason: reason, at: sc.in[sc.off:], quote: true}
	return false
}

func (sc *Scanner) eof() bool { return sc.off == len(sc.in) }

// peek returns the byte at the current offset, or 0 at the end.
func (sc *Scanner) peek() byte {
	if sc.eof() {
		return 0
	}
	return sc.in[sc.off]
}

// eat skips c if it is the byte at the current offset.
func (sc *Scanner) eat(c byte) bool {
	if sc.peek() != c {
		return false
	}
	sc.off++
	return true
}

func (sc *Scanner) skip(class uint16) { sc.off = span(sc.in, sc.off, class) }

// key reads a key (RFC 9651 §4.2.3.3).
func (sc *Scanner) key() bool {
	if !is(sc.peek(), keyStart) {
		return sc.unexpected("want a key, which starts with a lower-case letter or '*'")
	}
	sc.off = span(sc.in, sc.off+1, keyByte)
	return true
}

// params reads parameters: each ';', spaces, a key, and '=' with a bare
// item unless the value is Boolean true (RFC 9651 §4.2.3.2).
func (sc *Scanner) params() bool {
	for sc.eat(';') {
		if sc.skip(sp); !sc.key() || sc.eat('=') && !sc.bareItem() {
			return false
		}
	}
	return true
}

// innerList reads '(', items with their parameters separated by spaces,
// and ')' (RFC 9651 §4.2.1.2); the caller reads the list's parameters.
func (sc *Scanner) innerList() bool {
	sc.off++ // '('
	for {
		sc.skip(sp)
		switch {
		case sc.eof():
			return sc.fail("an inner list is not closed")
		case sc.eat(')'):
			sc.token = false
			return true
		case !sc.bareItem() || !sc.params():
			return false
		case sc.peek() != ' ' && sc.peek() != ')':
			return sc.unexpected("want ' ' or ')' after an item of an inner list")
		}
	}
}

// bareItem reads a bare item, telling its type by its first byte (RFC
// 9651 §4.2.3.1), and sets sc.token.
func (sc *Scanner) bareItem() bool {
	sc.token = false
	switch c := sc.peek(); {
	case c == '-' || is(c, digit):
		return sc.number()
	case is(c, tokenStart): // RFC 9651 §4.2.6
		sc.off, sc.token = span(sc.in, sc.off+1, tokenByte), true
		return true
	case c == '"':
		return sc.string()
	case c == ':':
		return sc.byteSequence()
	case c == '?': // RFC 9651 §4.2.8
		if sc.off++; sc.peek() != '0' && sc.peek() != '1' {
			return sc.unexpected("want '0' or '1' after '?'")
		}
		sc.off++
		return true
	case c == '@': // RFC 9651 §4.2.9
		start := sc.off + 1
		if sc.off++; !sc.number() {
			return false
		}
		if strings.Contains(sc.in[start:sc.off], ".") {
			return sc.fail("a date is an integer, not a decimal")
		}
		return true
	case c == '%':
		return sc.displayString()
	}
	return sc.unexpected("want a value")
}

// number reads an Integer (up to 15 digits) or a Decimal (up to 12
// digits, '.', 1 to 3 digits), either after an optional '-' (§4.2.4).
func (sc *Scanner) number() bool {
	sc.eat('-')
	if !is(sc.peek(), digit) {
		return sc.unexpected("want a digit")
	}
	start, dot := sc.off, -1
	for ; is(sc.peek(), digit) || sc.peek() == '.' && dot < 0; sc.off++ {
		if sc.peek() == '.' {
			if sc.off-start > 12 {
				return sc.fail("a decimal has more than 12 digits before '.'")
			}
			dot = sc.off
		}
	}
	switch {
	case dot < 0 && sc.off-start > 15:
		return sc.fail("an integer has more than 15 digits")
	case dot == sc.off-1:
		return sc.fail("a decimal ends with '.'")
	case dot >= 0 && sc.off-dot-1 > 3:
		return sc.fail("a decimal has more than 3 digits after '.'")
	}
	return true
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
			if c := sc.peek(); c != '"' && c != '\\' {
				return sc.unexpected(`want '"' or '\' after '\' in a string`)
			}
		case c < ' ' || c > '~':
			return sc.unexpected("a string holds a byte that is not printable ASCII")
		}
	}
	return sc.fail("a string is not closed")
}

// byteSequence reads a Byte Sequence: base64 between colons (RFC 9651
// §4.2.7).
func (sc *Scanner) byteSequence() bool {
	start := sc.off + 1
	sc.off = span(sc.in, start, base64Byte)
	switch {
	case sc.eof():
		return sc.fail("a byte sequence is not closed")
	case sc.peek() != ':':
		return sc.unexpected("a byte sequence holds a byte that is not base64")
	case !isBase64(sc.in[start:sc.off]):
		return sc.fail("a byte sequence is not base64")
	}
	sc.off++
	return true
}

// isBase64 reports whether s, of base64 characters and '=', decodes as
// RFC 9651 §4.2.7 reads it: padding may be missing, not wrong; pad bits
// may be non-zero.
func isBase64(s string) bool {
	data := strings.TrimRight(s, "=")
	pad := len(s) - len(data)
	return !strings.Contains(data, "=") && (pad == 0 || pad <= 2 && len(s)%4 == 0) && len(data)%4 != 1
}

// displayString reads a Display String: '%', '"', printable ASCII with
// '%' and two lower-case hex digits for a byte, '"'; the bytes must be
// UTF-8 (RFC 9651 §4.2.10), checked a character at a time.
func (sc *Scanner) displayString() bool {
	sc.off++ // '%'
	if !sc.eat('"') {
		return sc.unexpected(`want '"' after '%'`)
	}
	var char [utf8.UTFMax]byte // the bytes of the character being read
	n, want := 0, 0
	for ; !sc.eof(); sc.off++ {
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
			if sc.off++; len(sc.in)-sc.off < 2 || !is(sc.in[sc.off], lowerHex) || !is(sc.in[sc.off+1], lowerHex) {
				return sc.unexpected("want two lower-case hex digits after '%' in a display string")
			}
			c = ascii.Unhex(sc.in[sc.off])<<4 | ascii.Unhex(sc.in[sc.off+1])
			sc.off++
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

// utf8Length returns the length of a UTF-8 encoding that starts with c,
// or 0 if none does.
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

// The classes of bytes.
const (
	sp         = 1 << iota // ' '
	ows                    // ' ', '\t'
	digit                  // 0-9
	lowerHex               // 0-9, a-f
	keyStart               // a key's first byte
	keyByte                // a key's other bytes
	tokenStart             // a Token's first byte
	tokenByte              // a Token's other bytes: a tchar of RFC 9110, ':' or '/'
	base64Byte             // base64 and '='
)

var byteClass = func() (class [256]uint16) {
	const lower, upper, digits = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"
	for bit, bytes := range map[uint16]string{
		sp: " ", ows: " \t", digit: digits, lowerHex: digits + "abcdef",
		keyStart: lower + "*", keyByte: lower + digits + "_-.*",
		tokenStart: lower + upper + "*", tokenByte: lower + upper + digits + "!#$%&'*+-.^_`|~:/",
		base64Byte: lower + upper + digits + "+/=",
	} {
		for i := range len(bytes) {
			class[bytes[i]] |= bit
		}
	}
	return class
}()

func is(c byte, class uint16) bool { return byteClass[c]&class != 0 }

// span returns the offset of the first byte of s from i on not in class.
func span(s string, i int, class uint16) int {
	for i < len(s) && is(s[i], class) {
		i++
	}
	return i
}

// IsKey reports whether s is a key, such as a Dictionary member's name.
func IsKey(s string) bool {
	return s != "" && is(s[0], keyStart) && span(s, 1, keyByte) == len(s)
}

// IsToken reports whether s is a Token.
func IsToken(s string) bool {
	return s != "" && is(s[0], tokenStart) && span(s, 1, tokenByte) == len(s)
}
