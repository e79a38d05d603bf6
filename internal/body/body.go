// Package body reads a robots.txt body as the Client and the robotstxt
// command read it (see [Read]).
package body

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/quote"
)

// DefaultLimit is how many bytes of a body the Client reads unless
// WithBodyLimit says otherwise: 500 KiB, the least RFC 9309 allows.
const DefaultLimit = 500 << 10

// ErrContentCoding is wrapped by the error of [Read] for a body whose
// Content-Encoding it cannot decode. The Client treats such a robots.txt
// as unreachable: bytes it cannot read are never parsed as text.
var ErrContentCoding = errors.New("robotstxt: unsupported content coding")

// A Body is a robots.txt body as [Read] reads it: parser.Body's twin,
// which documents it.
type Body struct {
	Text      []byte
	Charset   string
	Truncated bool
}

// Compressed reports whether b, a body with its declared content codings
// undone, is compressed still: a coding no header line declared, as when
// a transport undoes one gzip and drops every Content-Encoding line (as
// net/http's does unless the request asked for gzip), and a second stays. It starts as a gzip stream (RFC 1952 §2.3.1) or a
// Zstandard frame (RFC 8878 §3.1.1) does, which no text does, or is a
// zlib stream (RFC 1950), whose two-byte header text may start with
// ("x^", "(r"): one that inflates, checksum and all, or for zlibProbe
// bytes.
func Compressed(b []byte) bool {
	switch {
	case len(b) < 2:
		return false
	case b[0] == 0x1f && b[1] == 0x8b, bytes.HasPrefix(b, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return true
	case b[0]&0x0f != 8 || b[0]>>4 > 7 || (uint(b[0])<<8|uint(b[1]))%31 != 0:
		return false
	}
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err == nil {
		_, err = io.Copy(io.Discard, io.LimitReader(zr, zlibProbe))
	}
	return err == nil
}

// zlibProbe is how much of a zlib stream Compressed inflates when it does
// not end sooner: no text inflates that far, and a stream built to
// inflate a thousandfold costs no more.
const zlibProbe = 64 << 10

// A body in a content coding is read only as far as its text earns:
// codedBase bytes, then codedPerByte more for each byte it decodes to, and
// never past codedCap(limit). Padding that decodes to nothing (empty gzip
// members, deflate's empty blocks) was read at full speed until the fetch
// timed out, 595 MB of it. A gzip member costs about 20 bytes of framing,
// so a file gzipped a line at a time stays within codedPerByte (2.4 coded
// bytes a byte of text, lines of "Disallow: /x/" and more), and codedBase
// covers a decoder's first window before it yields a byte; the cap stops
// padding that text between its members earns (32 times the limit).
const (
	codedBase    = 64 << 10
	codedPerByte = 32
)

// codedCap is the most of a coded body read for a limit of text: four
// times it, room for a member a line, and codedBase.
func codedCap(limit int64) int64 { return 4*limit + codedBase }

// A codedLimit reads r while n, the bytes it may still read, lasts, and
// never more than left; the decoded text earns n more (see earned). Past
// it a body that ends is whole, and one that goes on fails: cut there,
// even between two gzip members, it is not read as one that ended.
type codedLimit struct {
	r       io.Reader
	n, left int64
}

func (l *codedLimit) Read(p []byte) (int, error) {
	if min(l.n, l.left) <= 0 {
		var one [1]byte
		if n, err := io.ReadFull(l.r, one[:]); n == 0 && err == io.EOF {
			return 0, io.EOF
		}
		return 0, errors.New("more coded bytes than the text they hold needs")
	}
	p = p[:min(int64(len(p)), l.n, l.left)]
	n, err := l.r.Read(p)
	l.n -= int64(n)
	l.left -= int64(n)
	return n, err
}

// earned reads the text decoded through the limits ls, one under each
// decoder, each byte of it letting each read codedPerByte more: padding
// inside a coding (gzip of empty gzip members) costs as much as padding
// on the wire.
type earned struct {
	r  io.Reader
	ls []*codedLimit
}

func (e earned) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	for _, l := range e.ls {
		l.n += int64(n) * codedPerByte
	}
	return n, err
}

// maxCodings bounds how many content codings Read undoes in a row.
const maxCodings = 4

// Read reads a robots.txt body from r as the Client reads a response
// body, as parser.Read documents; deflate may be zlib or raw, and the
// error of an unknown coding, or of a coded stream that stops short in a
// body that ended whole, wraps [ErrContentCoding].
func Read(r io.Reader, header http.Header, limit int64) (Body, error) {
	if limit > (math.MaxInt64-codedBase)/4 {
		limit = 0 // no limit: the bounds below would overflow
	}
	// Several header lines are one list (RFC 9110 §5.3).
	wire := &endSeen{r: r}
	r, coded, err := decoded(wire, strings.Join(header.Values("Content-Encoding"), ","), limit)
	if err != nil {
		return Body{}, wire.unfinished(err)
	}
	if coded != nil {
		r = earned{r, coded}
	}
	if limit > 0 {
		r = io.LimitReader(r, limit+4) // +4: the character after the cut, UTF-32's too
	}
	raw, err := readAll(r, nil, header.Get("Content-Length"), limit)
	if err != nil {
		return Body{}, wire.unfinished(err)
	}
	if Compressed(raw) {
		return Body{}, fmt.Errorf("%w: compressed bytes under no Content-Encoding", ErrContentCoding)
	}
	var b Body
	n := len(raw)
	if limit > 0 && int64(n) > limit {
		n = int(limit)
	}
	wide := wideOf(raw[:n])
	whole := false // the line the limit cuts ends right at it
	tell := raw    // what the charset is told from
	if n < len(raw) {
		b.Truncated, whole = true, breaksAt(raw[n:], n, wide)
		// With the bytes that finish a character the limit cuts, and
		// no more (a Latin-1 byte past it is no part of the file):
		// GBK's 一你 cut within 你 keeps 一, which is valid UTF-8.
		tell = dropCutRune(raw[:finishing(raw, n)])
		raw = raw[:n]
	}
	enc, name := charsetOf(tell, header, wide)
	converted := enc != nil // the cut line is dropped from the UTF-8 text
	if b.Truncated && !converted && !whole {
		// A UTF-8 body is cut before converting; another charset's
		// characters, such as GBK's, whose trailing bytes look like
		// UTF-8's leading ones, only once converted.
		raw = dropCutLine(raw, 0)
	}
	cut := b.Truncated && !whole
	// The line the limit cuts is UTF-8 if, with the bytes that finish
	// its last character, it is (see toUTF8).
	cutLine := tell[bytes.LastIndexAny(tell, "\r\n")+1:]
	cutUTF8 := cut && keptAsUTF8(enc, cutLine[:parsed(cutLine)])
	var left int
	b.Text, b.Charset, left = toUTF8(raw, enc, name, wide, cut, cutUTF8)
	if b.Truncated && converted && !whole {
		b.Text = dropCutLine(b.Text, left) // toUTF8 left out a character the limit cut
	}
	return b, nil
}

// finishing returns where a UTF-8 character that raw[:n] ends within
// ends in raw, as far as raw holds it; n when none is cut there.
func finishing(raw []byte, n int) int {
	for i := n - 1; i >= max(0, n-utf8.UTFMax+1); i-- {
		if !utf8.RuneStart(raw[i]) {
			continue
		}
		for end := n; end <= min(len(raw), i+utf8.UTFMax); end++ {
			if utf8.FullRune(raw[i:end]) {
				return end
			}
		}
		return min(len(raw), i+utf8.UTFMax)
	}
	return n
}

// breaksAt reports whether next, what follows a cut at offset at of a
// body in the form wide, starts with a line break: then the line the cut
// ends is whole.
func breaksAt(next []byte, at int, wide wideForm) bool {
	unit := 1
	if wide.enc != nil {
		unit = 2
		if strings.HasPrefix(wide.name, "utf-32") {
			unit = 4
		}
	}
	if at%unit != 0 || len(next) < unit {
		return false // a cut within a character
	}
	c, rest := next[0], next[1:unit]
	if strings.HasSuffix(wide.name, "be") {
		c, rest = next[unit-1], next[:unit-1]
	}
	return (c == '\n' || c == '\r') && bytes.Count(rest, []byte{0}) == len(rest)
}

// readAll appends what r holds to b, grown first to a Content-Length
// within limit, which io.ReadAll would grow a dozen times.
func readAll(r io.Reader, b []byte, declared string, limit int64) ([]byte, error) {
	if n, err := strconv.ParseInt(declared, 10, 64); limit > 0 && err == nil && n > 0 && n <= limit {
		b = slices.Grow(b, int(n)+1) // +1: the read that finds the end needs room
	} else {
		b = slices.Grow(b, 512) // as io.ReadAll starts
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // longer than declared: grow as io.ReadAll does
		}
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// decoded returns r with the content codings of a Content-Encoding header
// undone, the last applied first, and for a limit of text, the
// codedLimit under each decoder.
func decoded(r io.Reader, codings string, limit int64) (io.Reader, []*codedLimit, error) {
	list := strings.SplitN(codings, ",", maxCodings+1) // no slice of a header of commas
	if len(list) > maxCodings {
		return nil, nil, fmt.Errorf("%w: more than %d codings", ErrContentCoding, maxCodings)
	}
	var coded []*codedLimit
	for i := len(list) - 1; i >= 0; i-- {
		c := ascii.LowerString(strings.TrimSpace(list[i]))
		if c != "identity" && c != "" && limit > 0 {
			l := &codedLimit{r, codedBase, codedCap(limit)}
			coded, r = append(coded, l), l
		}
		switch c {
		case "identity", "":
		case "gzip", "x-gzip":
			br := bufio.NewReader(r) // gzip reads a bufio.Reader no further than a member's end
			zr, err := gzip.NewReader(br)
			if err == io.EOF {
				err = errors.New("no stream: the body is empty") // not io.EOF: no clean end
			}
			if err != nil && !strings.HasPrefix(err.Error(), "gzip: ") { // compress/gzip's own say so
				err = fmt.Errorf("gzip: %w", err)
			}
			if err != nil {
				return nil, nil, err
			}
			zr.Multistream(false)
			r = &gzipMembers{zr, br}
		case "deflate":
			r = inflater(r)
		default:
			return nil, nil, fmt.Errorf("%w %q", ErrContentCoding, quote.Cut(c, quote.Max))
		}
	}
	return r, coded, nil
}

// gzipMembers reads the members of a gzip body in a row, as
// compress/gzip does, but ends where the bytes after a member start no
// other (a newline, NUL padding), as browsers do.
type gzipMembers struct {
	zr *gzip.Reader
	br *bufio.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != io.EOF {
		return n, err
	}
	magic, err := g.br.Peek(2)
	if err != nil && err != io.EOF {
		return n, err // the transfer was cut: later members are missing
	}
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return n, io.EOF // the member, checksum and all, was the body
	}
	if err := g.zr.Reset(g.br); err != nil {
		return n, err
	}
	g.zr.Multistream(false)
	return n, nil
}

// inflater reads a deflate body: a zlib stream (RFC 9110), whose header
// is method 8 and a multiple of 31, or raw deflate, as many servers send.
func inflater(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if h, err := br.Peek(2); err == nil && h[0]&0x0F == 8 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
		if zr, err := zlib.NewReader(br); err == nil {
			return zr
		}
	}
	return flate.NewReader(br)
}

// cutMark ends a line the limit cuts as the parser reads a line cut short
// at a NUL byte: what follows the first NUL is more than white space.
const cutMark = "\x00\x00"

// dropCutLine removes from the end of b what a size limit cut of its last
// line the parser must not read, keeping what it reads as the line says:
//   - a line the parser reads as every line it begins (parse.Settled:
//     its comment began before the cut, or the text past what the parser
//     keeps of it, cut at MaxLineLength or a NUL, is more than white
//     space), less a cut UTF-8 sequence, which any line loses;
//   - a disallow rule, but for a '$', a cut escape or a cut character at
//     its end, made up with '*' to the length Google's parser weighs the
//     cut pattern by (reading the first 500 KiB as they stand, a cut
//     character's bytes escaped): a prefix of a pattern covers more, and
//     so weighed, it beats no fewer rules than the cut pattern would (but
//     for a pattern that the padding would take past MaxLineLength,
//     which weighs what fits);
//   - a Content-Usage rule and a Content-Signal record, ended with
//     cutMark, so that the parser reads it as any line cut short: its
//     refusals and a refusal of training (see parse.Table.Cut), for what
//     was cut may have been one; a rule's path, a prefix of the path if
//     the cut is within it, then refuses training for the paths it named
//     and perhaps more, where dropped, a shorter rule would answer;
//   - nothing of any other line, lest a cut allow, user-agent or
//     crawl-delay say what the line did not.
//
// left is how many bytes of a character the limit cut a conversion to
// UTF-8 left out of b.
func dropCutLine(b []byte, left int) []byte {
	n := len(b)
	b = dropCutRune(b) // first, lest it be what settles the line
	left += n - len(b)
	i := bytes.LastIndexAny(b, "\r\n")
	line := b[i+1:]
	if parse.Settled(string(line)) {
		return b
	}
	for l := range parse.Lines(string(line)) {
		v := bytes.TrimRight(line, " \t\v\f")
		start := len(v) - len(l.Value) // of the value
		switch {
		case l.Key == parse.KeyContentUsage || l.Key == parse.KeyOther && strings.EqualFold(l.RawKey, "content-signal"):
			return append(append(b[:i+1:i+1], v...), cutMark...)
		case l.Key != parse.KeyDisallow:
			return b[:i+1]
		}
		weight := len(match.Escape(string(v))) + 3*left // each byte left out as %XX
		switch n := len(v); {
		case n > 0 && v[n-1] == '%':
			v = v[:n-1]
		case n > 1 && v[n-2] == '%' && ascii.IsHex(v[n-1]):
			v = v[:n-2]
		}
		v = bytes.TrimRight(v, "$")
		if len(v) > start {
			out := append(b[:i+1:i+1], v...)
			for k := len(match.Escape(string(v))); k < weight && len(out)-(i+1) < parse.MaxLineLength; k++ {
				out = append(out, '*') // within the line the parser keeps
			}
			return out
		}
	}
	return b[:i+1]
}

// dropCutRune removes an incomplete UTF-8 sequence from the end of b.
func dropCutRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// utf8BOM is the UTF-8 byte-order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// wideForm is a body's UTF-16 or UTF-32 encoding and its name; enc is
// nil for none.
type wideForm struct {
	enc  encoding.Encoding
	name string
}

// wideOf tells UTF-32 by its byte-order mark, and UTF-16 by its own or
// by its code units (see codeUnits); but where a line, read a byte a
// character, spells a key the parser reads (see keyLine), only if the
// bytes before that line, read in the wide form, spell one too: the
// NULs of lines a writer ended as C strings end, or a mark (a UTF-32
// one too) of a file whose NULs a tool stripped ("tr -d '\0'"), are
// stray bytes before rules Google's parser reads, where a UTF-16 file to
// which ASCII lines were appended holds its own rules before them (and
// is read as UTF-16, the appended lines lost).
func wideOf(body []byte) wideForm {
	var w wideForm
	switch {
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE, 0, 0}):
		w = wideForm{utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM), "utf-32le"}
	case bytes.HasPrefix(body, []byte{0, 0, 0xFE, 0xFF}):
		w = wideForm{utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM), "utf-32be"}
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		w = wideForm{unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), "utf-16le"}
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		w = wideForm{unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "utf-16be"}
	default:
		switch le, be := codeUnits(body); {
		case le:
			w = wideForm{unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le"}
		case be:
			w = wideForm{unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be"}
		default:
			return wideForm{}
		}
	}
	if at := keyLine(body); at >= 0 {
		if text, err := w.enc.NewDecoder().Bytes(body[:at]); err != nil || keyLine(text) < 0 {
			return wideForm{}
		}
	}
	return w
}

// codeUnits reports whether b looks like UTF-16 code units, little- or
// big-endian: by its line breaks as code units, two or more (see
// wideBreaks), or else, as a robots.txt is mostly ASCII, by its first
// bytes: a third or more of the even (big-endian) or odd (little-endian)
// ones NUL, almost none of the others. (Characters such as 一, U+4E00,
// and the ideographic space have a NUL byte of their own: a comment of
// them would fool the first bytes alone.)
func codeUnits(b []byte) (le, be bool) {
	l, r := wideBreaks(b)
	le, be = l >= 2 && l > r, r >= 2 && r > l
	if n := min(len(b), 512) &^ 1; !le && !be && n >= 8 {
		var even, odd int
		for i := 0; i < n; i += 2 {
			if b[i] == 0 {
				even++
			}
			if b[i+1] == 0 {
				odd++
			}
		}
		pairs := n / 2
		le, be = odd*3 >= pairs && even*16 < pairs, even*3 >= pairs && odd*16 < pairs
	}
	return le, be
}

// keyLine returns where the first line of body starts that, read a byte
// a character, begins with a key the parser knows (see parse.Lines; a
// misspelling Google's parser accepts is one), or -1: an ASCII-compatible
// charset's line, which UTF-16 text would spell only as rare ideographs
// in a row at a line's start (its ASCII letters have NULs between them).
func keyLine(body []byte) int {
	s, pos := string(body), 0
	for l := range parse.Lines(s) {
		at := pos + strings.Index(s[pos:], l.Text) // the line starts at pos, or past a UTF-8 mark
		if l.Key != parse.KeyNone && l.Key != parse.KeyOther {
			return at
		}
		pos = at + len(l.Text)
	}
	return -1
}

// wideBreaks counts the line feeds body holds as UTF-16 code units at
// even offsets, little-endian (0A 00) and big-endian (00 0A). No
// character fakes one (U+0A00 is unassigned, and 上 is 0A 4E); a CR
// would be faked, by U+0D00, a Malayalam sign, so a body of CRs alone is
// left to the sample. A body in an ASCII-compatible charset has none,
// having no NUL, or one where padding starts.
func wideBreaks(body []byte) (le, be int) {
	for i := bytes.IndexByte(body, 0); i >= 0; {
		switch {
		case i%2 == 1 && body[i-1] == '\n':
			le++
		case i%2 == 0 && i+1 < len(body) && body[i+1] == '\n':
			be++
		}
		j := bytes.IndexByte(body[i+1:], 0)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return le, be
}

// toUTF8 converts body, whose UTF-16 or UTF-32 form is wide, from enc,
// named name (nil for UTF-8: see charsetOf), to UTF-8 and names the
// charset it was read in (see Read). A body read as Windows-1252 (no
// charset named, or Latin-1's) or another charset whose text seldom
// reads as UTF-8 (see seldomUTF8) is converted a line at a time: a line
// whose part the parser reads (see parsed) is UTF-8 (see keptAsUTF8)
// keeps that part as it is, so that a UTF-8 file with a stray byte (an
// "à" in a comment, a no-break space 0xA0 after a colon, as real files
// hold) keeps its UTF-8 rules, which Google's parser, reading bytes,
// matches: converted, "/bücher/" read "/bÃ¼cher/", and "/книги/"
// "/РєРЅРёРіРё/" in Windows-1251. A charset named otherwise is taken at
// its word: the lines of GBK, Thai or Arabic text often read as UTF-8
// (GBK's 图片 is CD BC C6 AC). cut says the limit cut body within a
// line, which cutUTF8 says is UTF-8: a character it left unfinished is
// left out, left its bytes.
func toUTF8(body []byte, enc encoding.Encoding, name string, wide wideForm, cut, cutUTF8 bool) (_ []byte, _ string, left int) {
	if wide.enc == nil && !utf8.Valid(body) {
		body = trimPartBOM(body)
	}
	if enc == nil {
		return body, "utf-8", 0
	}
	dec := Decoder(enc)
	out := make([]byte, 0, len(body)+len(body)/2)
	from, byLine := 0, seldomUTF8(enc)       // body[from:] is not in out
	for at := 0; at < len(body) && byLine; { // no UTF-16 or UTF-32
		end, ended := len(body), false
		if i := bytes.IndexAny(body[at:], "\r\n"); i >= 0 {
			end, ended = at+i+1, true
		}
		line := body[at:end]
		read := line[:parsed(line)]
		last := !ended && cut // the line the limit cuts
		if last && cutUTF8 || !last && keptAsUTF8(enc, read) {
			var err error
			if out, _, err = decodeTo(out, dec, body[from:at], false); err != nil {
				return body, "utf-8", 0
			}
			if last && len(read) == len(line) {
				kept := dropCutRune(line)
				return append(out, kept...), name, len(line) - len(kept)
			}
			out, from = append(out, read...), at+len(read) // its comment, or what the parser cuts, converted
		}
		at = end
	}
	out, left, err := decodeTo(out, dec, body[from:], cut)
	if err != nil {
		// x/text decoders replace what they cannot read; if one fails, keep body.
		return body, "utf-8", 0
	}
	return out, name, left
}

// seldomUTF8 reports whether enc, a charset a body is read in, is
// Windows-1252 (no charset named, or Latin-1's) or another single-byte
// charset whose text seldom reads as UTF-8 (see keptAsUTF8): one that
// keeps Latin letters where Windows-1252 does (see latin), or one of a
// script (see scripted).
func seldomUTF8(enc encoding.Encoding) bool { return latin(enc) || scripted(enc) != nil }

// latin reports whether enc is Windows-1252 or one of its kin that keep
// its letters where it does (ISO-8859-15, Windows-1254), whose text
// seldom reads as UTF-8, a capital of C2-DF pairing with a sign of 80-BF
// alone: a UTF-8 file that a server names Latin-1 may hold any script.
func latin(enc encoding.Encoding) bool {
	return enc == charmap.Windows1252 || enc == charmap.ISO8859_15 || enc == charmap.Windows1254
}

// scripted returns enc when it is a charset of one script, Cyrillic
// (Windows-1251, KOI8-R, KOI8-U) or Central European (Windows-1250,
// ISO-8859-2), or nil. Its text reads as UTF-8 more often than
// Windows-1252's (KOI8-U's "тіні", D4 A6 CE A6, is "ԦΦ"; Windows-1250's
// "píšťaly" holds "횝"), but as characters it does not have, which a UTF-8
// file named so seldom holds.
func scripted(enc encoding.Encoding) *charmap.Charmap {
	switch enc {
	case charmap.Windows1250, charmap.ISO8859_2, charmap.Windows1251, charmap.KOI8R, charmap.KOI8U:
		return enc.(*charmap.Charmap)
	}
	return nil
}

// keptAsUTF8 reports whether line, what the parser reads of one in a
// body read in enc a line at a time (see seldomUTF8), is kept as it is:
// it is UTF-8 (see utf8Line) and, for a charset of one script (see
// scripted), spells only characters that charset has.
func keptAsUTF8(enc encoding.Encoding, line []byte) bool {
	if !utf8Line(line) {
		return false
	}
	if cm := scripted(enc); cm != nil {
		for _, r := range string(line) {
			if _, ok := cm.EncodeRune(r); !ok {
				return false
			}
		}
	}
	return true
}

// parsed returns how much of line the parser reads, in Google's mode: what
// it keeps (see parse.Kept) up to a comment's '#'.
func parsed(line []byte) int {
	n := len(parse.Kept(string(line), true))
	if i := bytes.IndexByte(line[:n], '#'); i >= 0 {
		n = i
	}
	return n
}

// utf8Line reports whether line, what the parser reads of one, holds
// UTF-8 past ASCII and nothing else: one in Windows-1252 seldom does,
// all its letters past ASCII paired as UTF-8's, a capital of C2-DF with
// a sign of 80-BF.
func utf8Line(line []byte) bool {
	for i, c := range line {
		if c >= utf8.RuneSelf {
			return utf8.Valid(line[i:])
		}
	}
	return false
}

// decodeTo appends src, decoded by dec, to out. With more (the limit cut
// the body within src's last line), a character src ends within is left
// out, left its bytes: told the input ends, a decoder reads one as
// U+FFFD, and maybe more (gb18030's 81 30 as "\uFFFD0", a UTF-16
// surrogate and a byte as two U+FFFD), which would end a cut pattern in
// what it never said.
func decodeTo(out []byte, dec *encoding.Decoder, src []byte, more bool) (_ []byte, left int, _ error) {
	dec.Reset()
	for len(src) > 0 {
		out = slices.Grow(out, 2*len(src)+utf8.UTFMax)
		n, read, err := dec.Transform(out[len(out):cap(out)], src, !more)
		out, src = out[:len(out)+n], src[read:]
		switch {
		case err == transform.ErrShortDst:
		case err == nil, err == transform.ErrShortSrc && more:
			return out, len(src), nil
		default:
			return out, 0, err
		}
	}
	return out, 0, nil
}

// charsetOf returns the encoding that body, whose UTF-16 or UTF-32 form
// is wide, sent with header, is read in and its name: nil for UTF-8.
func charsetOf(body []byte, header http.Header, wide wideForm) (encoding.Encoding, string) {
	switch {
	case wide.enc != nil:
		return wide.enc, wide.name
	case bytes.HasPrefix(body, utf8BOM), utf8.Valid(body), utf8.Valid(trimPartBOM(body)):
		return nil, "utf-8"
	}
	_, charset := ContentType(header)
	if enc, name := headerCharset(charset); name != "utf-8" {
		return enc, name
	}
	return nil, "utf-8"
}

// trimPartBOM returns body without the leading part of a UTF-8
// byte-order mark (EF, EF BB), which the parser skips, before its
// charset is told: converted from another charset, either would become
// text that hides the first line. A whole one says UTF-8 whatever the
// header says, and stays.
func trimPartBOM(body []byte) []byte {
	if bytes.HasPrefix(body, utf8BOM) {
		return body
	}
	for _, b := range utf8BOM[:2] {
		if len(body) == 0 || body[0] != b {
			break
		}
		body = body[1:]
	}
	return body
}

// Decoder returns the decoder the Encoding Standard gives enc: GBK's is
// gb18030's, which reads its four-byte sequences too (x/text's GBK
// decoder reads them as U+FFFD and digits).
func Decoder(enc encoding.Encoding) *encoding.Decoder {
	if enc == simplifiedchinese.GBK {
		enc = simplifiedchinese.GB18030
	}
	return enc.NewDecoder()
}

// Encoding returns the WHATWG encoding a charset label names, as
// htmlindex.Get does, for a label in ASCII alone: labels compare by ASCII
// case, where htmlindex.Get folds others too ("unİcode", U+0130, named
// UTF-16 there).
func Encoding(label string) (encoding.Encoding, error) {
	if !ascii.IsASCII(label) {
		return nil, fmt.Errorf("robotstxt: charset label %q is not ASCII", label)
	}
	return htmlindex.Get(label)
}

// Stateful returns the encoding charset names when it is ISO-2022-JP, a
// WHATWG encoding that is not ASCII-compatible but for UTF-16 and the
// replacement encoding (which decodes any text to one U+FFFD): its text
// holds ASCII bytes that are not its characters; nil for any other.
func Stateful(charset string) encoding.Encoding {
	if enc, err := Encoding(charset); err == nil {
		if name, _ := htmlindex.Name(enc); name == "iso-2022-jp" {
			return enc
		}
	}
	return nil
}

// headerCharset returns the encoding charset (a Content-Type's, see
// [ContentType]) names, and its name, unless that is not ASCII-compatible
// (UTF-16 or the replacement encoding would turn a disallow into
// garbage, and ISO-2022-JP every line after an escape in a comment):
// Windows-1252 then, as without a charset.
func headerCharset(charset string) (encoding.Encoding, string) {
	if enc, err := Encoding(charset); err == nil {
		name, _ := htmlindex.Name(enc) // every encoding Get returns has one
		if name != "replacement" && name != "iso-2022-jp" && !strings.HasPrefix(name, "utf-16") {
			return enc, name
		}
	}
	return charmap.Windows1252, "windows-1252"
}

// endSeen reads a body as it came, noting whether it ended whole: a
// coded stream that stops short in it was sent so (a gzip.Writer never
// closed, a stream without its trailer), where one the transfer cut ends
// with the transfer's error, io.ErrUnexpectedEOF too.
type endSeen struct {
	r     io.Reader
	ended bool
}

func (e *endSeen) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.ended = true
	}
	return n, err
}

// unfinished returns err, or for a decoder's io.ErrUnexpectedEOF in a
// body that ended whole an error that wraps ErrContentCoding: an answer
// that cannot be read, not a cut.
func (e *endSeen) unfinished(err error) error {
	if e.ended && errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: the coded stream stops before its end (%v), in a body that came whole", ErrContentCoding, err)
	}
	return err
}
