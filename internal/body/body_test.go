package body

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// utf16LE returns s in UTF-16LE with a byte-order mark (s is ASCII or
// Latin-1: one code unit a rune).
func utf16LE(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

// encode applies the content coding of a Content-Encoding header that
// Read decodes to body: gzip, x-gzip, deflate (a zlib stream) or identity.
func encode(t testing.TB, body []byte, coding string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip", "x-gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	case "identity":
		return body
	default:
		t.Fatalf("encode: no coding %q", coding)
	}
	if _, err := w.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCharsetDropCutRune(t *testing.T) {
	for in, want := range map[string]string{
		"a/é\xE2\x82": "a/é", "a/é\xE2": "a/é", "a/é": "a/é", "abc": "abc", "": "",
		"\xF0\x9F\x98": "", "a\x82": "a\x82",
	} {
		if got := string(dropCutRune([]byte(in))); got != want {
			t.Errorf("dropCutRune(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScriptTextKeepsItsRules: a file in a Cyrillic or Central European
// charset, named so, whose line of its own text reads as UTF-8 (KOI8-U's
// "тіні" is D4 A6 CE A6, "ԦΦ"), is read in that charset, not kept as
// UTF-8: it spells characters the charset does not have (review154).
func TestScriptTextKeepsItsRules(t *testing.T) {
	for _, tc := range []struct {
		charset       string
		enc           *charmap.Charmap
		comment, rule string
	}{
		{"koi8-u", charmap.KOI8U, "# Правила для роботів", "Disallow: /тіні/"},
		{"koi8-u", charmap.KOI8U, "# Правила для роботів", "Disallow: /лісі/"},
		{"koi8-r", charmap.KOI8R, "# Правила для роботов", "Disallow: /её/"},
		{"windows-1251", charmap.Windows1251, "# Правила для роботів", "Disallow: /Ці/"},
		{"windows-1250", charmap.Windows1250, "# Pravidla pro roboty: nevstupovat do této části", "Disallow: /píšťaly/"},
		{"windows-1250", charmap.Windows1250, "# Reguły dla robotów", "Disallow: /KÓŁKO/"},
		{"iso-8859-2", charmap.ISO8859_2, "# Reguły dla robotów", "Disallow: /WRÓŻKA/"},
	} {
		raw, err := tc.enc.NewEncoder().String(tc.comment + "\nUser-agent: *\n" + tc.rule + "\n")
		if err != nil {
			t.Fatal(err)
		}
		b, err := Read(strings.NewReader(raw), http.Header{"Content-Type": {"text/plain; charset=" + tc.charset}}, -1)
		if err != nil || !strings.Contains(string(b.Text), tc.rule) {
			t.Errorf("a %s file's %q: read as %q, %v; want its rule", tc.charset, tc.rule, b.Text, err)
		}
	}
}

func TestCharsetToUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, body, ctype, want string
	}{
		{"valid UTF-8 kept", "a/é", "", "a/é"},
		{"declared UTF-8 kept with a stray byte", "a/\xE9/é", "text/plain; charset=UTF-8", "a/\xE9/é"},
		{"Latin-1 declared", "a/caf\xE9", "text/plain; charset=iso-8859-1", "a/café"},
		{"Windows-1252 fallback", "a/\x80", "text/plain", "a/€"},
		// The Encoding Standard's GBK decoder is gb18030's: 81 30 84 32,
		// a four-byte sequence, is a no-break space.
		{"GBK's four bytes", "a/\x81\x30\x84\x32", "text/plain; charset=gbk", "a/\u00a0"},
		{"gb2312's four bytes", "a/\xC4\xE3\x81\x30\x84\x32", "text/plain; charset=gb2312", "a/你\u00a0"},
		{"UTF-16LE with BOM", "\xFF\xFEa\x00/\x00", "", "\uFEFFa/"},
		// A byte-order mark says UTF-8: a stray byte stays, as without a
		// charset, and the mark is not turned into "ï»¿".
		{"UTF-8 BOM, a stray byte", "\xEF\xBB\xBFa/caf\xE9", "text/plain", "\xEF\xBB\xBFa/caf\xE9"},
		{"UTF-8 BOM, Latin-1 declared", "\xEF\xBB\xBFa/caf\xE9", "text/plain; charset=iso-8859-1", "\xEF\xBB\xBFa/caf\xE9"},
		{"partial BOM EF BB", "\xEF\xBBa/", "", "a/"},
		{"partial BOM EF", "\xEFa/", "", "a/"},
		{"partial BOM before Latin-1", "\xEF\xBBa/caf\xE9", "", "a/café"},
		{"UTF-32LE with BOM", "\xFF\xFE\x00\x00a\x00\x00\x00/\x00\x00\x00", "", "a/"},
		{"UTF-32BE with BOM", "\x00\x00\xFE\xFF\x00\x00\x00a\x00\x00\x00/", "", "a/"},
		// The mark of a UTF-16 file whose NULs a tool stripped, before
		// rules spelt a byte a letter: two stray bytes, as Google's
		// parser reads them, not UTF-16.
		{"UTF-16LE BOM before rules", "\xFF\xFE# r\r\nDisallow: /p\r\n", "text/plain; charset=utf-8", "\xFF\xFE# r\r\nDisallow: /p\r\n"},
		{"UTF-16BE BOM before rules", "\xFE\xFF# r\nDisallow: /p\n", "", "þÿ# r\nDisallow: /p\n"},
		// ISO-2022-JP's escapes switch every line after them; a stray
		// byte makes the body fall to the charset, which is passed over.
		// A UTF-8 file with stray bytes of another charset keeps its
		// UTF-8 lines, as Google's parser, reading bytes, matches them:
		// read whole as Windows-1252 "/bücher/" was "/bÃ¼cher/" (parse85,
		// review146); a line with a stray byte is converted whole.
		{"UTF-8 with a stray Latin-1 byte", "# Mis \xE0 jour\nDisallow: /bücher/\nDisallow: /café\n", "",
			"# Mis à jour\nDisallow: /bücher/\nDisallow: /café\n"},
		{"UTF-8 with a stray byte, Latin-1 declared", "Disallow:\xA0/_inc*\nDisallow: /bücher/\n", "text/plain; charset=iso-8859-1",
			"Disallow:\u00a0/_inc*\nDisallow: /bücher/\n"},
		// So too with a Cyrillic or Central European charset named, whose
		// text seldom reads as UTF-8 (fetch87).
		{"UTF-8 with a stray byte, windows-1251 declared", "Disallow: /книги/\n# \xFF\n", "text/plain; charset=windows-1251",
			"Disallow: /книги/\n# я\n"},
		{"UTF-8 with a stray byte, KOI8-R declared", "Disallow: /поиск/\n# \xC1\n", "text/plain; charset=koi8-r",
			"Disallow: /поиск/\n# а\n"},
		{"UTF-8 with a stray byte, windows-1250 declared", "Disallow: /książki/\n# \xB9\n", "text/plain; charset=windows-1250",
			"Disallow: /książki/\n# ą\n"},
		{"windows-1251 text", "# \xcf\xf0\xe8\xe2\xe5\xf2\nDisallow: /\xea\xed\xe8\xe3\xe8/\n", "text/plain; charset=windows-1251",
			"# Привет\nDisallow: /книги/\n"},
		{"KOI8-R text", "Disallow: /\xd0\xcf\xc9\xd3\xcb/\n", "text/plain; charset=koi8-r", "Disallow: /поиск/\n"},
		// A charset named otherwise is taken at its word: GBK's 图片 (CD
		// BC C6 AC) reads as UTF-8 too (review147).
		{"GBK whose line reads as UTF-8", "Disallow: /\xCD\xBC\xC6\xAC/\n# \xD6\xD0\n", "text/plain; charset=gbk", "Disallow: /图片/\n# 中\n"},
		{"Latin-1 spelling a UTF-8 character once", "a/caf\xE9/\xE9t\xE9/\xC3\xA9", "", "a/café/été/Ã©"},
		{"a line with a stray byte converted whole", "a/\xE9/é", "text/plain", "a/é/Ã©"},
		// What the parser reads of a line tells (review148): a stray
		// byte in a rule's comment, or after a NUL, is converted alone.
		{"a stray byte in a rule's comment", "Disallow: /bücher/ # mis \xE0 jour\n", "", "Disallow: /bücher/ # mis à jour\n"},
		{"a stray byte after a NUL", "Disallow: /bücher/\x00\xE0\r\n", "", "Disallow: /bücher/\x00à\r\n"},
		{"Latin-9 declared", "# \xE0 \xA4\nDisallow: /bücher/\n", "text/plain; charset=iso-8859-15", "# à €\nDisallow: /bücher/\n"},
		{"Latin-5 declared", "# \xFD\nDisallow: /bücher/\n", "text/plain; charset=iso-8859-9", "# ı\nDisallow: /bücher/\n"},
		{"UTF-8 lines under a long Latin-1 comment", "# mis \xE0 jour par l'\xE9quipe \xAB S\xE9curit\xE9 \xBB\nDisallow: /bücher/\r\nDisallow: /café\n",
			"", "# mis à jour par l'équipe « Sécurité »\nDisallow: /bücher/\r\nDisallow: /café\n"},
		// A line in a single-byte charset whose letters pair as UTF-8's
		// but not all (windows-1256's چاپ is 8D C7 81, C7 81 valid UTF-8).
		{"windows-1256 letters pairing as UTF-8", "Disallow: /\x8D\xC7\x81/\nDisallow: /\xDA\x98\xD3/\n", "text/plain; charset=windows-1256",
			"Disallow: /چاپ/\nDisallow: /عکس/\n"},
		{"ISO-2022-JP passed over", "# \x1b(I x\nDisallow: /p\n# \x82", "text/plain; charset=iso-2022-jp", "# \x1b(I x\nDisallow: /p\n# \u201a"},
	} {
		body, wide := []byte(tc.body), wideOf([]byte(tc.body))
		enc, name := charsetOf(body, http.Header{"Content-Type": {tc.ctype}}, wide)
		text, _, _ := toUTF8(body, enc, name, wide, false, false)
		got := string(text)
		got = strings.TrimPrefix(got, "\uFEFF")
		if want := strings.TrimPrefix(tc.want, "\uFEFF"); got != want {
			t.Errorf("%s: toUTF8(%q, %q) = %q, want %q", tc.name, tc.body, tc.ctype, got, want)
		}
	}
}

// fuzzCodings are the Content-Encoding headers FuzzRead tries; the
// first ones it can also apply to its input.
var fuzzCodings = []string{"", "identity", "gzip", "x-gzip", "deflate", "gzip, identity", "deflate, gzip", "br", "compress", "zz"}

// fuzzContentTypes are Content-Type headers whose charsets never shorten
// a line when converting it, so the cut-line property is exact.
var fuzzContentTypes = []string{"", "text/plain", "text/plain; charset=utf-8", "text/plain; charset=iso-8859-1",
	"text/plain; charset=gb18030", "text/plain; charset=shift_jis", "text/plain; charset=koi8-u", "text/plain; charset=windows-1250"}

// cutStatement reports whether l is a Content-Usage rule or a
// Content-Signal record a limit cut, ended with cutMark.
func cutStatement(l parse.Line) bool {
	return (l.Key == parse.KeyContentUsage || strings.EqualFold(l.RawKey, "content-signal")) && l.Flags&(parse.FlagNUL|parse.FlagTooLong) != 0
}

// readPrefix returns text, a body's as Read returns it cut, less what Read
// makes up of its cut last line: a disallow's '*' or the NUL ending a cut
// statement.
func readPrefix(text []byte) []byte {
	last := text[bytes.LastIndexAny(text, "\r\n")+1:]
	for l := range parse.Lines(string(last)) {
		if cutStatement(l) && bytes.HasSuffix(text, []byte(cutMark)) {
			return bytes.TrimSuffix(text, []byte(cutMark))
		}
	}
	return bytes.TrimRight(text, "*")
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /\n"), uint8(0), uint8(0), true, uint32(10))
	f.Add([]byte("User-agent: *\nDisallow: /\nAllow: /public/page.html\n"), uint8(2), uint8(1), true, uint32(35))
	f.Add([]byte(utf16LE("User-agent: *\nDisallow: /café\n")), uint8(4), uint8(0), true, uint32(31))
	f.Add([]byte("a/é\r\nb/\xE2\x82\xAC\rc"), uint8(3), uint8(3), false, uint32(7))
	f.Add([]byte("\x1f\x8b\x08\x00garbage"), uint8(2), uint8(0), false, uint32(0))
	f.Add(bytes.Repeat([]byte("x"), parse.MaxLineLength+10), uint8(0), uint8(2), true, uint32(parse.MaxLineLength+5))
	f.Add([]byte("\x000\x00000000"), uint8(0), uint8(0), false, uint32(47)) // valid UTF-8, read as UTF-16
	f.Add([]byte("\x00a\x00a\x00a\x00a\n"+strings.Repeat("b", 40)), uint8(0), uint8(0x10), false, uint32(42))
	// 755 bytes of the declared length: read into a buffer of 768, kept.
	f.Add([]byte("User-agent: *\n"+strings.Repeat("Disallow: /x\n", 57)), uint8(0), uint8(0x11), false, uint32(757))
	f.Add([]byte(strings.Repeat("Disallow: /x\n", 40)), uint8(0), uint8(0x30), false, uint32(531)) // declared longer, within the limit
	f.Add([]byte("Disallow: /stra\x810\x898e/\n"), uint8(0), uint8(4), false, uint32(18))          // gb18030's ß cut after 81 30
	f.Add([]byte("# \xe0\nDisallow: /b\xc3\xbc\xe9x\n"), uint8(0), uint8(1), false, uint32(18))    // a UTF-8 cut line, a stray byte past the limit
	f.Fuzz(func(t *testing.T, data []byte, coding, ctype uint8, encodeIt bool, lim uint32) {
		header := http.Header{}
		header.Set("Content-Encoding", fuzzCodings[int(coding)%len(fuzzCodings)])
		header.Set("Content-Type", fuzzContentTypes[int(ctype)%len(fuzzContentTypes)])
		// limit from -1 (read everything) to past the input and a
		// Content-Length longer than it.
		limit := int64(lim)%(int64(len(data))+12) - 1
		codings := strings.Split(header.Get("Content-Encoding"), ", ")
		supported := int(coding)%len(fuzzCodings) < 7
		body := data
		if encodeIt && supported {
			for _, c := range codings {
				if c != "" {
					body = encode(t, body, c)
				}
			}
		}
		// A Content-Length, from the high bits of ctype: none, the
		// length sent, fewer bytes, more.
		if d := int(ctype>>4) % 4; d > 0 {
			header.Set("Content-Length", strconv.Itoa(max(0, len(body)+[]int{0, 0, -3, 9}[d])))
		}
		b, err := Read(bytes.NewReader(body), header, limit)
		cutWeight(t, data, int(limit))
		if !supported {
			if !errors.Is(err, ErrContentCoding) {
				t.Fatalf("coding %q: error %v, want ErrContentCoding", header.Get("Content-Encoding"), err)
			}
			return
		}
		decoded := encodeIt || header.Get("Content-Encoding") == "" || header.Get("Content-Encoding") == "identity"
		if !decoded {
			return // random bytes labelled compressed: only not panicking counts
		}
		if Compressed(data) && errors.Is(err, ErrContentCoding) {
			return // compressed bytes under no coding: refused, as Read says
		}
		if err != nil {
			t.Fatalf("Read of a well-formed %q body: %v", header.Get("Content-Encoding"), err)
		}
		n := int64(len(data))
		if limit > 0 {
			n = min(n, limit)
		}
		if int64(len(b.Text)) > 3*n {
			t.Fatalf("Text is %d bytes from %d bytes read", len(b.Text), n)
		}
		if b.Truncated != (limit > 0 && int64(len(data)) > limit) {
			t.Fatalf("Truncated = %v for %d bytes and limit %d", b.Truncated, len(data), limit)
		}
		if b.Truncated && len(b.Text) > 0 {
			last := bytes.LastIndexAny(b.Text, "\r\n")
			// Of the line the limit cuts, a line the parser reads as every
			// line it begins (parse.Settled) is kept, less an incomplete
			// UTF-8 sequence (at most 3 bytes) at the end, and so is a
			// line that ends right at the limit (see
			// TestReadBodyKeepsLineEndingAtLimit) and a disallow rule (see
			// TestReadBodyCutDisallow); no other.
			whole := breaksAt(data[limit:], int(limit), wideOf(data[:limit]))
			cut := b.Text[last+1:]
			if !whole && len(cut) > 0 && !parse.Settled(string(cut)) {
				for l := range parse.Lines(string(cut)) {
					if (l.Key != parse.KeyDisallow || l.Value == "" || strings.HasSuffix(l.Value, "$")) && !cutStatement(l) {
						t.Fatalf("truncated Text ends with a %d-byte partial line %q", len(cut), cut)
					}
				}
			}
			// A kept line of valid UTF-8 reads as the whole line does, or,
			// a disallow, as a prefix of its pattern, made up with '*'.
			if !whole && len(cut) > 0 && utf8.Valid(data) && bytes.HasPrefix(data, readPrefix(b.Text)) {
				line := data[last+1:]
				if end := bytes.IndexAny(line, "\r\n"); end >= 0 {
					line = line[:end]
				}
				for c := range parse.Lines(string(cut)) {
					for w := range parse.Lines(string(line)) {
						switch {
						case c.Key == parse.KeyDisallow && w.Key == parse.KeyDisallow && strings.HasPrefix(w.Value, strings.TrimRight(c.Value, "*")):
						case cutStatement(c) && c.Key == w.Key && strings.HasPrefix(w.Value, c.Value):
						case c.Key != w.Key || c.Value != w.Value || c.Flags&^parse.FlagTooLong != w.Flags&^parse.FlagTooLong: // a NUL cut it first
							t.Fatalf("cut line %q reads as %v %q %b; the whole line %q as %v %q %b", cut, c.Key, c.Value, c.Flags, line, w.Key, w.Value, w.Flags)
						}
					}
				}
			}
		}
		if utf8.Valid(data) && wideOf(data[:min(n, int64(len(data)))]).enc == nil {
			// Valid UTF-8 whose NULs do not make it UTF-16 (see wideOf).
			if b.Charset != "utf-8" {
				t.Fatalf("valid UTF-8 read as %s", b.Charset)
			}
			if !b.Truncated && !bytes.Equal(b.Text, data) {
				t.Fatalf("valid UTF-8 read as %q, want it unchanged", b.Text)
			}
			if b.Truncated && !bytes.HasPrefix(data, readPrefix(b.Text)) {
				t.Fatalf("valid UTF-8 cut to %q, not a prefix of the input but for a disallow's '*' or a Content-Usage rule's statement", b.Text)
			}
		}
		if b.Truncated && b.Charset != "utf-8" && !encodeIt {
			// Converted, a cut body reads as a prefix of the whole one
			// in the same charset, but for a disallow's '*': no character
			// it cut becomes another. Its cut line may read as UTF-8
			// where the whole line, with a stray byte past the limit,
			// is converted: what lies past the limit is no part of it.
			all, err := Read(bytes.NewReader(data), header, -1)
			complete := b.Text[:bytes.LastIndexAny(b.Text, "\r\n")+1]
			raw := data[bytes.LastIndexAny(data[:limit], "\r\n")+1 : limit] // the cut line as sent
			kept := readPrefix(b.Text)[len(complete):]
			if err == nil && all.Charset == b.Charset && !bytes.HasPrefix(all.Text, readPrefix(b.Text)) &&
				(!bytes.HasPrefix(all.Text, complete) || !utf8Line(kept) || !bytes.HasPrefix(trimPartBOM(raw), kept)) {
				t.Fatalf("%s cut to %q, not a prefix of the whole body's %q", b.Charset, b.Text, all.Text)
			}
		}
	})
}

// cutWeight checks, for FuzzRead, that a disallow kept of the line the
// limit cuts (UTF-8) weighs, as the parser reads the kept text, no less
// than the cut pattern as it stands (its cut bytes escaped), unless the
// padding reached MaxLineLength (see dropCutLine).
func cutWeight(t *testing.T, data []byte, limit int) {
	t.Helper()
	if limit <= 0 || limit >= len(data) || !utf8.Valid(data) {
		return
	}
	b, err := Read(strings.NewReader(string(data)), nil, int64(limit))
	if err != nil || !b.Truncated {
		return
	}
	start := strings.LastIndexAny(string(data[:limit]), "\r\n") + 1
	if breaksAt(data[limit:], limit, wideForm{}) {
		return
	}
	var stands, kept *parse.Line
	for l := range parse.Lines(string(data[start:limit])) {
		stands = &l
	}
	keptLine := string(b.Text[strings.LastIndexAny(string(b.Text), "\r\n")+1:])
	if keptLine == "" || len(b.Text) <= start {
		return
	}
	for l := range parse.Lines(keptLine) {
		kept = &l
	}
	if stands == nil || kept == nil || stands.Key != parse.KeyDisallow || kept.Key != parse.KeyDisallow {
		return
	}
	if w, g := len(match.Escape(stands.Value)), len(match.Escape(kept.Value)); g < w && len(keptLine) < parse.MaxLineLength {
		cut := string(data[start:limit])
		if len(cut) > 60 {
			cut = cut[:20] + "…" + cut[len(cut)-20:]
		}
		t.Fatalf("cut line %q (%d bytes) kept as a pattern of weight %d (flags %b), less than the %d of the cut pattern as it stands", cut, limit-start, g, kept.Flags, w)
	}
}

// TestReadValidUTF8LeadingEF: a valid UTF-8 body whose first character
// is one of U+F000..U+FFFF (lead byte EF, not the BOM: a full-width '＃',
// half-width katakana, U+FFFD) is read as UTF-8: the EF was trimmed as
// part of a BOM before the body was found valid, and every rule was read
// as windows-1252 (FuzzRead found it: testdata/fuzz/FuzzRead/858c72ac7e0c42ea).
func TestReadValidUTF8LeadingEF(t *testing.T) {
	for _, body := range []string{
		"＃ robots.txt\nUser-agent: *\nDisallow: /café/\n",
		"\uFFFD\nUser-agent: *\nDisallow: /日本/\n",
		"ﾛﾎﾞｯﾄ\nUser-agent: *\nDisallow: /é/\n",
	} {
		b, err := Read(strings.NewReader(body), nil, -1)
		if err != nil || b.Charset != "utf-8" || !strings.Contains(string(b.Text), body[strings.IndexByte(body, '\n'):]) {
			t.Errorf("%q: read as %s, %q, %v; want UTF-8, the rules unchanged", body, b.Charset, b.Text, err)
		}
	}
}

// TestReadBoundsCodings: a Content-Encoding of a mebibyte of commas is
// refused for its many codings at the cost of about its copy, not a
// string header per comma.
func TestReadBoundsCodings(t *testing.T) {
	h := http.Header{"Content-Encoding": {strings.Repeat(",", 1<<20)}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(strings.NewReader("User-agent: *\n"), h, DefaultLimit)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 || !errors.Is(err, ErrContentCoding) {
		t.Errorf("Read: %v, allocating %d bytes; want ErrContentCoding in at most 4 MiB", err, grew)
	}
}

// TestCompressed: the streams a body may hold still compressed, and text
// that starts as a zlib header may.
func TestCompressed(t *testing.T) {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write([]byte(strings.Repeat("User-agent: *\nDisallow: /\n", 20)))
	_ = zw.Close()
	for b, want := range map[string]bool{
		"\x1f\x8b\x08\x00":              true,
		"\x28\xb5\x2f\xfd\x00":          true,
		z.String():                      true,
		"x^ User-agent: *\n":            false, // a zlib header, but text
		"x\x01plain text in UTF-8\n":    false,
		"(r\xe9sum\xe9)\nDisallow: /\n": false, // Windows-1252
		"x \xe9t\xe9\n":                 false,
		"User-agent: *\nDisallow: /\n":  false,
		"x":                             false,
	} {
		if got := Compressed([]byte(b)); got != want {
			t.Errorf("Compressed(%q) = %v, want %v", b[:min(len(b), 12)], got, want)
		}
	}
}

// TestReadBodyContentLength: the declared length only sizes the buffer.
// A body shorter or longer than declared is read whole, and a length
// beyond the limit, or a body read without a limit, is not trusted.
func TestReadBodyContentLength(t *testing.T) {
	body := strings.Repeat("Disallow: /x\n", 100)
	for _, declared := range []string{"", "0", "-5", "junk", "10", strconv.Itoa(len(body)), strconv.Itoa(len(body) + 1000), "99999999999"} {
		for _, limit := range []int64{0, 1 << 20} {
			h := http.Header{"Content-Length": {declared}}
			b, err := Read(strings.NewReader(body), h, limit)
			if err != nil || string(b.Text) != body || b.Truncated {
				t.Errorf("Content-Length %q, limit %d: %d bytes, truncated %v, %v", declared, limit, len(b.Text), b.Truncated, err)
			}
		}
	}
	h := http.Header{"Content-Length": {strconv.Itoa(len(body))}}
	if b, err := Read(strings.NewReader(body), h, 100); err != nil || !b.Truncated || len(b.Text) > 100 {
		t.Errorf("declared length over the limit: %d bytes, truncated %v, %v", len(b.Text), b.Truncated, err)
	}
}

// TestReadBodyCutKeepsCharset: whether a body is UTF-16 is told from all
// that was read, not again from what is left once the cut line is
// dropped, which may be too short to tell: here valid UTF-8 whose first
// line, alone, has the NULs of UTF-16.
func TestReadBodyCutKeepsCharset(t *testing.T) {
	first := "\x00a\x00a\x00a\x00a\n"
	body := first + strings.Repeat("b", 40)
	b, err := Read(strings.NewReader(body), nil, 41)
	if err != nil || b.Charset != "utf-8" || string(b.Text) != first || !b.Truncated {
		t.Fatalf("Read = %q (%s, truncated %v), %v; want %q as UTF-8", b.Text, b.Charset, b.Truncated, err, first)
	}
}

// TestReadBodyCharsetWithinLimit: the charset is told from the bytes
// within the limit, and those that finish a character it cuts, no more:
// a Latin-1 byte just past it made a UTF-8 body read as Windows-1252, and
// its rules "/bÃ¼cher/" (parse4). A GBK body cut within a character is
// still told apart from UTF-8 by the bytes that finish it.
func TestReadBodyCharsetWithinLimit(t *testing.T) {
	rules := "Disallow: /bücher/\n"
	for _, tc := range []struct {
		body    string
		limit   int64
		charset string
	}{
		{rules + "\xA9 2024", int64(len(rules)), "utf-8"},
		{rules + "x\xE9t\xE9", int64(len(rules)) + 1, "utf-8"},
		{rules + "\xC3\xA9\xE9", int64(len(rules)) + 1, "utf-8"}, // é cut, finished past the limit
		{"Disallow: /\xD2\xBB\xC4\xE3\n", 14, "windows-1252"},    // GBK's 一你 cut within 你
	} {
		b, err := Read(strings.NewReader(tc.body), nil, tc.limit)
		if err != nil || b.Charset != tc.charset {
			t.Errorf("Read(%q, limit %d) = %q (%s), %v; want it read as %s", tc.body, tc.limit, b.Text, b.Charset, err, tc.charset)
		}
	}
}

// TestReadStrayByteCutWithinUTF8: a UTF-8 body with a stray byte of
// another charset, cut by the limit within a UTF-8 character, reads as
// the same body with no stray byte does: the character the cut left
// unfinished is no stray byte that outvotes its UTF-8 (parse85).
func TestReadStrayByteCutWithinUTF8(t *testing.T) {
	for _, clean := range []string{
		"# à\nDisallow: /bücher/\nDisallow: /über/x\n",
		"# à\nUser-agent: *\nDisallow: /über/é/\n", // review146: the cut line's UTF-8 is told by the bytes finishing it
	} {
		stray := strings.Replace(clean, "à", "\xE0", 1)
		for _, cut := range []int{strings.Index(clean, "über") + 1, strings.Index(clean, "über") + 2} {
			want, err := Read(strings.NewReader(clean), nil, int64(cut))
			if err != nil {
				t.Fatal(err)
			}
			limit := cut - len("à") + 1
			got, err := Read(strings.NewReader(stray), nil, int64(limit))
			if err != nil || string(got.Text) != string(want.Text) || !got.Truncated {
				t.Errorf("%q cut at %d: Read = %q (truncated %v), %v; want %q", stray, limit, got.Text, got.Truncated, err, want.Text)
			}
		}
	}
}

// TestReadStrayByteCutAfterABreak: cut right after a line break, a UTF-8
// body with a stray Latin-1 byte keeps the line before the cut as UTF-8:
// it is whole (review147: it was read as the line the limit cuts, in
// Windows-1252, "/bÃ¼cher/").
func TestReadStrayByteCutAfterABreak(t *testing.T) {
	const body = "# \xE0\nDisallow: /bücher/\nDisallow: /x\n"
	limit := strings.Index(body, "Disallow: /x")
	got, err := Read(strings.NewReader(body), nil, int64(limit))
	if want := "# à\nDisallow: /bücher/\n"; err != nil || string(got.Text) != want || !got.Truncated {
		t.Errorf("Read(%q, limit %d) = %q (truncated %v), %v; want %q", body, limit, got.Text, got.Truncated, err, want)
	}
}

// TestReadBodyLimitsPastInt64: a limit so large that the bytes read past
// it would overflow reads the whole body, as no limit does; it read
// nothing, an empty robots.txt.
func TestReadBodyLimitsPastInt64(t *testing.T) {
	const body = "User-agent: *\nDisallow: /\n"
	for _, limit := range []int64{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 - 3, math.MaxInt64 - 4} {
		if b, err := Read(strings.NewReader(body), nil, limit); err != nil || string(b.Text) != body || b.Truncated {
			t.Errorf("limit %d: %q, truncated %v, %v; want the whole body", limit, b.Text, b.Truncated, err)
		}
	}
}

// TestReadUTF16FarFromASCII: a UTF-16 body without a byte-order mark
// whose first bytes are a comment in a script far from ASCII (no NULs to
// tell it by; bytes of CR, LF or NUL within its characters, as in 上, 不,
// the ideographic space and 😀, or a CR's code unit in the other byte
// order, as in U+0D00) is told by its line breaks, labelled or not, and
// never read as Windows-1252 or UTF-8, where every rule would become
// garbage.
func TestReadUTF16FarFromASCII(t *testing.T) {
	for _, comment := range []string{strings.Repeat("このサイトのクローラー設定", 20), strings.Repeat("上不可以", 60), strings.Repeat("മലയാളം", 40),
		strings.Repeat("一　最开退需", 50), strings.Repeat("😀🌀", 70), strings.Repeat("\u0d00", 5) + strings.Repeat(" x", 200)} {
		readUTF16FarFromASCII(t, "# "+comment+"\nUser-agent: *\nDisallow: /private\n")
	}
	// UTF-8 padded with NULs (at both parities) is UTF-8; so is ASCII
	// whose lines end as C strings do (their NULs before line feeds at
	// even offsets: "line breaks" of UTF-16BE), its keys spelled as
	// Google's parser accepts them too, or begin with a NUL.
	for _, padded := range []string{"User-agent: *\nDisallow: /x\n\x00\x00\x00\x00", "\xEF\xBB\xBFUser-agent: *\nDisallow: /x\n\x00\x00",
		"User-agent: *\x00\nDisallow: /private/\x00\nDisallow: /admin/\x00\nDisallow: /tmp/\x00\nSitemap: https://example.com/sitemap.xml\x00\n",
		"Useragent: *\x00\nDisalow: /private/\x00\nDisalow: /admin/\x00\nDisalow: /tmp/\x00\n",
		"User agent:  *\x00\nDisalow: /private/\x00\nDisalow: /admin/\x00\nDisalow: /tmp/\x00\n",
		"Useragent: *\x00\nDiasllow: /private/\x00\nDisallaw: /admin/\x00\nDiasllow: /tmp/\x00\n",
		"Sitemap: https://example.com/sitemap.xml\x00\nLicense: https://example.com/license.xml\x00\nSitemap: https://example.com/news.xml\x00\n",
		"User-agent: *\nDisallow: /x\n\x00# ab\n\x00# b\nDisallow: /admin/\n"} {
		if got, err := Read(strings.NewReader(padded), http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, DefaultLimit); err != nil ||
			got.Charset != "utf-8" || string(got.Text) != padded {
			t.Errorf("UTF-8 with NULs %q: %q (%s), %v", padded, got.Text, got.Charset, err)
		}
	}
	// Text in an ASCII-compatible charset has no NUL: Shift_JIS as
	// labelled.
	sjis := "# \x82\xb1\x82\xcc\nUser-agent: *\nDisallow: /private\n"
	if got, err := Read(strings.NewReader(sjis), http.Header{"Content-Type": {"text/plain; charset=shift_jis"}}, DefaultLimit); err != nil ||
		got.Charset != "shift_jis" || !strings.HasSuffix(string(got.Text), "Disallow: /private\n") {
		t.Errorf("Shift_JIS: %q (%s), %v", got.Text, got.Charset, err)
	}
}

// readUTF16FarFromASCII checks that text in UTF-16, either byte order, no
// byte-order mark, labelled or not, reads as text.
func readUTF16FarFromASCII(t *testing.T, text string) {
	t.Helper()
	for _, be := range []bool{false, true} {
		var b []byte
		for _, u := range utf16.Encode([]rune(text)) {
			if be {
				b = binary.BigEndian.AppendUint16(b, u)
			} else {
				b = binary.LittleEndian.AppendUint16(b, u)
			}
		}
		for _, ctype := range []string{"", "text/plain; charset=utf-16le", "text/plain; charset=utf-16"} {
			got, err := Read(bytes.NewReader(b), http.Header{"Content-Type": {ctype}}, DefaultLimit)
			if err != nil || string(got.Text) != text {
				t.Errorf("big-endian %v, %q: %q (%s), %v; want the text", be, ctype, got.Text, got.Charset, err)
			}
		}
	}
}

// TestReadCodedBounded: a body in a content coding is read no further
// than its text earns (codedBase, and codedPerByte a byte of text), and
// one that runs past it fails: empty gzip members or deflate blocks,
// which decode to nothing, were read until the fetch timed out (595 MB in
// 10 s), and a body cut at the bound between two members is not a whole
// one (the rule after the padding would be lost), nor past the cap, four
// times the limit, however the padding is spread, nor in an inner coding
// (gzip of gzip). A body gzipped a line
// at a time, a member a line, is read whole, as is one that ends right at
// the bound.
func TestReadCodedBounded(t *testing.T) {
	const limit = 1000
	bound := int64(codedBase + codedPerByte*(limit+4))
	empty := encode(t, nil, "gzip")
	padding := bytes.Repeat(empty, int(bound)/len(empty)+1)
	gz := slices.Concat(encode(t, []byte("User-agent: *\nAllow: /\n"), "gzip"), padding, encode(t, []byte("Disallow: /private\n"), "gzip"))
	var zb bytes.Buffer
	zw := zlib.NewWriter(&zb)
	_, _ = zw.Write([]byte("User-agent: *\n"))
	for zb.Len() < int(bound) {
		_ = zw.Flush() // an empty stored block
	}
	// The same padding in an inner coding, which the outer one packs a
	// thousandfold, costs as much as on the wire.
	nested := encode(t, gz, "gzip")
	if len(nested) >= codedBase {
		t.Fatalf("the nested padding takes %d bytes on the wire", len(nested))
	}
	for coding, raw := range map[string][]byte{"gzip": gz, "deflate": zb.Bytes(), "gzip, gzip": nested} {
		r := &countingReader{r: bytes.NewReader(raw)}
		if b, err := Read(r, http.Header{"Content-Encoding": {coding}}, limit); err == nil {
			t.Errorf("%s padded past the bound: %q, no error", coding, b.Text)
		}
		if r.n > bound+1 {
			t.Errorf("%s: %d bytes read, over %d", coding, r.n, bound+1)
		}
	}

	// A member a line, as "echo $line | gzip >> robots.txt.gz" builds,
	// and nginx's gzip_static serves: 2.4 coded bytes a byte of text.
	var text, members bytes.Buffer
	text.WriteString("User-agent: *\n")
	for i := 0; text.Len() < DefaultLimit-100; i++ {
		fmt.Fprintf(&text, "Disallow: /%x/\n", i)
	}
	gw := gzip.NewWriter(&members)
	for line := range bytes.Lines(text.Bytes()) {
		gw.Reset(&members)
		_, _ = gw.Write(line)
		_ = gw.Close()
	}
	if b, err := Read(bytes.NewReader(members.Bytes()), http.Header{"Content-Encoding": {"gzip"}}, DefaultLimit); err != nil || !bytes.Equal(b.Text, text.Bytes()) {
		t.Errorf("a member a line (%d bytes for %d of text): %d bytes, %v", members.Len(), text.Len(), len(b.Text), err)
	}

	// Padding that the text between its members earns stops at the cap:
	// 1,000 bytes of text, then 31 KB of empty members, again and again.
	const spread = 64 << 10
	chunk := slices.Concat(encode(t, bytes.Repeat([]byte("#\n"), 500), "gzip"), bytes.Repeat(empty, 31000/len(empty)))
	mixed := bytes.Repeat(chunk, int(codedCap(spread))/len(chunk)+2)
	r := &countingReader{r: bytes.NewReader(mixed)}
	if b, err := Read(r, http.Header{"Content-Encoding": {"gzip"}}, spread); err == nil {
		t.Errorf("text and padding past the cap: %d bytes, no error", len(b.Text))
	}
	if r.n > codedCap(spread)+1 {
		t.Errorf("text and padding: %d bytes read, over %d", r.n, codedCap(spread)+1)
	}

	// Right at the bound, a body that ends is whole; one byte more fails.
	for _, extra := range []int{0, 1} {
		l := &codedLimit{bytes.NewReader(make([]byte, 10+extra)), 10, 100}
		if got, err := io.ReadAll(l); (err != nil) != (extra > 0) || len(got) != 10 {
			t.Errorf("%d bytes at a bound of 10: %d read, %v", 10+extra, len(got), err)
		}
	}
	// Random printable bytes hardly compress: a body at a limit past 64
	// KiB, coded, nears the limit itself.
	const big = 256 << 10
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, big)
	for i := range random {
		random[i] = byte(' ' + 1 + rng.IntN(94))
	}
	if b, err := Read(bytes.NewReader(encode(t, random, "gzip")), http.Header{"Content-Encoding": {"gzip"}}, big); err != nil || len(b.Text) != big {
		t.Errorf("a gzip body of %d random bytes: %d bytes, %v", big, len(b.Text), err)
	}
}

// A countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestReadGzipMembers: a gzip body is read member after member, and ends
// where the bytes after a whole member start no other (a newline, NUL
// padding), as browsers read it; a member cut short in a body that came
// whole is a coding that cannot be read (ErrContentCoding), and one the
// transfer cut is the transfer's error.
func TestReadGzipMembers(t *testing.T) {
	const a, b = "User-agent: *\n", "Disallow: /private\n"
	one, two := encode(t, []byte(a), "gzip"), encode(t, []byte(b), "gzip")
	h := http.Header{"Content-Encoding": {"gzip"}}
	for name, r := range map[string]io.Reader{
		"after a member":  io.MultiReader(bytes.NewReader(one), iotest.ErrReader(io.ErrUnexpectedEOF)),
		"within a member": io.MultiReader(bytes.NewReader(one[:len(one)-3]), iotest.ErrReader(io.ErrUnexpectedEOF)),
	} {
		cut, err := Read(r, h, DefaultLimit)
		if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrContentCoding) {
			t.Errorf("a transfer cut %s: %q, %v; want the cut's error", name, cut.Text, err)
		}
	}
	for _, tc := range []struct {
		name, body, want string
		fails            bool
	}{
		{"two members", string(one) + string(two), a + b, false},
		{"then a newline", string(one) + string(two) + "\n", a + b, false},
		{"then NUL padding", string(one) + strings.Repeat("\x00", 16), a, false},
		{"a second member cut", string(one) + string(two[:12]), "", true},
		{"one member cut", string(one[:len(one)-3]), "", true},
	} {
		got, err := Read(strings.NewReader(tc.body), h, DefaultLimit)
		if (err != nil) != tc.fails || tc.fails && !errors.Is(err, ErrContentCoding) || !tc.fails && string(got.Text) != tc.want {
			t.Errorf("%s: %q, %v; want %q, failing with ErrContentCoding %v", tc.name, got.Text, err, tc.want, tc.fails)
		}
	}
}

// TestReadBodyCutDisallow: of the line a size limit cuts, what the
// parser reads as the whole line says is kept: a disallow's pattern cut
// short (a prefix covers more, as Google's parser reads the first 500
// KiB), less a '$', a cut escape or a cut character at its end, each
// made up with '*' to the weight Google's parser gives it; a
// Content-Usage rule or a Content-Signal record, ended with cutMark,
// which makes the parser read it as cut short, a refusal; and any line
// whose comment
// began before the cut; any other line is dropped.
func TestReadBodyCutDisallow(t *testing.T) {
	const head = "User-agent: *\n"
	for _, tc := range []struct{ line, read, kept string }{
		{"Disallow: /private", "Disallow: /priv", "Disallow: /priv"},
		{"disallowed: /private", "disallowed: /priv", "disallowed: /priv"},
		{"Disallow /private", "Disallow /priv", "Disallow /priv"},
		{"Disallow: /private # a comment", "Disallow: /private # a c", "Disallow: /private # a c"},
		{"Allow: /x # a comment", "Allow: /x # a c", "Allow: /x # a c"},
		{"Allow: /x\x00yz", "Allow: /x\x00y", "Allow: /x\x00y"},
		{"Allow: /x\x00 yz", "Allow: /x\x00 ", ""},
		{"Content-Usage: train-ai=y" + strings.Repeat(" ", parse.MaxLineLength) + "x", "Content-Usage: train-ai=y" + strings.Repeat(" ", parse.MaxLineLength), "Content-Usage: train-ai=y\x00\x00"},
		{"Content-Usage: train-ai=y" + strings.Repeat(" ", parse.MaxLineLength) + "é", "Content-Usage: train-ai=y" + strings.Repeat(" ", parse.MaxLineLength) + "\xc3", "Content-Usage: train-ai=y\x00\x00"},
		{"Content-Usage: train-ai=y" + strings.Repeat(" ", parse.MaxLineLength) + "xy", "Content-Usage: train-ai=y" + strings.Repeat(" ", parse.MaxLineLength) + "x", "Content-Usage: train-ai=y" + strings.Repeat(" ", parse.MaxLineLength) + "x"},
		{"Content-Usage: train-ai=y\x00, train-ai=n", "Content-Usage: train-ai=y\x00", "Content-Usage: train-ai=y\x00\x00\x00"},
		{"Disallow: /x\x00yz", "Disallow: /x\x00y", "Disallow: /x\x00y"},
		{"Disallow: /a$b", "Disallow: /a$", "Disallow: /a*"},
		{"Disallow: /a%2Fb", "Disallow: /a%2", "Disallow: /a**"},
		{"Disallow: /a%2Fb", "Disallow: /a%", "Disallow: /a*"},
		{"Disallow: /a%2Fb", "Disallow: /a%2F", "Disallow: /a%2F"},
		{"Disallow: /ü", "Disallow: /\xc3", "Disallow: /***"},
		{"Content-Usage: /private/ train-ai=y", "Content-Usage: /private/ train-a", "Content-Usage: /private/ train-a\x00\x00"},
		{"Content-Usage: /private/ train-ai=n", "Content-Usage: /priv", "Content-Usage: /priv\x00\x00"},
		{"Content-Usage: /private/ train-ai=y", "Content-Usage: /private/ ", "Content-Usage: /private/\x00\x00"},
		{"Content-Usage: /private/\ttrain-ai=y", "Content-Usage: /private/\t", "Content-Usage: /private/\x00\x00"},
		{"Content-Usage: /private/   train-ai=y", "Content-Usage: /private/  ", "Content-Usage: /private/\x00\x00"},
		{"Content-Usage: train-ai=y, search=y", "Content-Usage: train-ai=y, sea", "Content-Usage: train-ai=y, sea\x00\x00"},
		{"Content-Usage: train-ai=y", "Content-Usage:", "Content-Usage:\x00\x00"},
		{"Content-Signal: ai-train=yes, search=yes", "Content-Signal: ai-train=yes, se", "Content-Signal: ai-train=yes, se\x00\x00"},
		{"content-signal: ai-train=yes", "content-signal: ai", "content-signal: ai\x00\x00"},
		{"Content-Sig: ai-train=yes", "Content-Sig: ai", ""},
		{"Disallow:     /x", "Disallow:  ", ""},
		{"Disallow: $x", "Disallow: $", ""},
		{"Allow: /public", "Allow: /pub", ""},
		{"User-agent: Googlebot-News", "User-agent: Googlebot", ""},
		{"Crawl-delay: 10", "Crawl-delay: 1", ""},
		{"Disallow: /x", "Disal", ""},
	} {
		b, err := Read(strings.NewReader(head+tc.line+"\nDisallow: /later\n"), nil, int64(len(head)+len(tc.read)))
		if err != nil || string(b.Text) != head+tc.kept {
			t.Errorf("%q cut after %q: kept %q, %v; want %q", tc.line, tc.read, b.Text[min(len(b.Text), len(head)):], err, tc.kept)
		}
	}
}

// TestReadBodyCutDisallowMultibyte: in a charset of several bytes a
// character, GBK's or Shift_JIS's, a disallow the limit cuts keeps the
// characters it holds whole, as converted; it kept a pattern ending in
// U+FFFD (a GBK character's trailing byte looks like UTF-8's leading
// one, Shift_JIS's leading byte like UTF-8's continuation), which covers
// neither the rule's paths nor more, or was read as UTF-8 when what it
// kept happened to be.
func TestReadBodyCutDisallowMultibyte(t *testing.T) {
	const head = "User-agent: *\nDisallow: /"
	for _, tc := range []struct {
		enc     encoding.Encoding
		charset string
		path    string
		cut     int // bytes of the encoded path read
		kept    string
	}{
		{simplifiedchinese.GBK, "gbk", "你好", 2, "/你"},
		{simplifiedchinese.GBK, "gbk", "你好", 3, "/你***"},
		// What is kept, 一, is valid UTF-8: the byte past the cut tells.
		{simplifiedchinese.GBK, "gbk", "一你", 3, "/一***"},
		{japanese.ShiftJIS, "shift_jis", "あい", 1, "/***"},
		{japanese.ShiftJIS, "shift_jis", "あい", 2, "/あ"},
		{japanese.ShiftJIS, "shift_jis", "あい", 3, "/あ***"},
		{japanese.ShiftJIS, "shift_jis", "あい", 4, "/あい"},
		// gb18030's four-byte characters: told the input ends, the
		// decoder reads a cut 81 30 as U+FFFD and '0'.
		{simplifiedchinese.GB18030, "gb18030", "straße", 5, "/stra***"},
		{simplifiedchinese.GB18030, "gb18030", "straße", 6, "/stra******"},
		{simplifiedchinese.GB18030, "gb18030", "straße", 7, "/stra*********"},
		{simplifiedchinese.GB18030, "gb18030", "straße", 8, "/straß"},
		{simplifiedchinese.GB18030, "gb18030", "한국", 2, "/******"},
		{simplifiedchinese.GB18030, "gb18030", "한국", 3, "/*********"},
		{simplifiedchinese.GB18030, "gb18030", "한국", 6, "/한******"},
	} {
		p, err := tc.enc.NewEncoder().String(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		h := http.Header{"Content-Type": {"text/plain; charset=" + tc.charset}}
		b, err := Read(strings.NewReader(head+p+"/\nDisallow: /later\n"), h, int64(len(head)+tc.cut))
		if want := "User-agent: *\nDisallow: " + tc.kept; err != nil || string(b.Text) != want || b.Charset != tc.charset {
			t.Errorf("%s %q cut after %d bytes: %q (%s), %v; want %q", tc.charset, tc.path, tc.cut, b.Text, b.Charset, err, want)
		}
	}
}

// TestReadBodyCutSurrogatePair: a UTF-16 disallow cut within a surrogate
// pair keeps the pattern before the character, not U+FFFD (which would
// match nothing), its weight made up with '*', three a byte read of the
// character.
func TestReadBodyCutSurrogatePair(t *testing.T) {
	const head = "User-agent: *\nDisallow: /"
	for _, order := range []unicode.Endianness{unicode.LittleEndian, unicode.BigEndian} {
		enc := unicode.UTF16(order, unicode.UseBOM)
		full, err := enc.NewEncoder().String(head + "😀/\nDisallow: /later\n")
		if err != nil {
			t.Fatal(err)
		}
		pre, _ := enc.NewEncoder().String(head)
		for cut := 1; cut <= 3; cut++ { // of the pair's four bytes
			b, err := Read(strings.NewReader(full), nil, int64(len(pre)+cut))
			if want := head + strings.Repeat("***", cut); err != nil || string(b.Text) != want {
				t.Errorf("UTF-16 (big-endian %v) cut after %d bytes of the pair: %q, %v; want %q", order == unicode.BigEndian, cut, b.Text, err, want)
			}
		}
	}
}

// TestReadBodyKeepsLineEndingAtLimit: a line that ends right at the limit,
// its line break the first byte past it, is whole: it is kept, and only
// a line the limit cuts is dropped.
func TestReadBodyKeepsLineEndingAtLimit(t *testing.T) {
	const head = "User-agent: *\nDisallow: /private"
	for _, tc := range []struct{ body, want string }{
		{head + "\nAllow: /x\n", head},
		{head + "\r\nAllow: /x\n", head},
		{head + "x\nAllow: /x\n", head}, // a prefix of a disallow covers more
	} {
		b, err := Read(strings.NewReader(tc.body), nil, int64(len(head)))
		if err != nil || string(b.Text) != tc.want || !b.Truncated {
			t.Errorf("Read(%q) cut at %d = %q (truncated %v), %v; want %q", tc.body, len(head), b.Text, b.Truncated, err, tc.want)
		}
		// The same in UTF-16 and UTF-32, with their marks or without.
		for _, form := range []struct {
			name string
			bom  string
			unit int
			be   bool
		}{{"utf-16le", "\xFF\xFE", 2, false}, {"utf-16be", "\xFE\xFF", 2, true}, {"utf-16le", "", 2, false},
			{"utf-32le", "\xFF\xFE\x00\x00", 4, false}, {"utf-32be", "\x00\x00\xFE\xFF", 4, true}} {
			wide := []byte(form.bom)
			for _, c := range []byte(tc.body) {
				u := make([]byte, form.unit)
				if form.be {
					u[form.unit-1] = c
				} else {
					u[0] = c
				}
				wide = append(wide, u...)
			}
			limit := int64(len(form.bom) + form.unit*len(head))
			b, err := Read(bytes.NewReader(wide), nil, limit)
			if err != nil || string(b.Text) != tc.want || b.Charset != form.name || !b.Truncated {
				t.Errorf("Read(%q in %s, mark %q) cut at %d = %q (%s, truncated %v), %v; want %q",
					tc.body, form.name, form.bom, limit, b.Text, b.Charset, b.Truncated, err, tc.want)
			}
			// A cut within a character cuts the character, a disallow's
			// weight made up for the byte read of it, which may be a
			// line break's: it may weigh more, never less.
			if b, err := Read(bytes.NewReader(wide), nil, limit+1); err != nil || string(b.Text) != head+"***" {
				t.Errorf("Read(%q in %s, mark %q) cut at %d = %q, %v; want %q", tc.body, form.name, form.bom, limit+1, b.Text, err, head+"***")
			}
		}
	}
}

// FuzzReadHeaders reads any body under any Content-Type,
// Content-Encoding (one or two lines) and Content-Length, where FuzzRead
// tries only a fixed few: Read never panics, keeps within its limit,
// fails closed on a coding it does not know (never reading coded bytes
// as text), names the charset it read in, and gives the same text twice.
func FuzzReadHeaders(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /\n"), "text/plain; charset=utf-16", "", "", "", int64(10))
	f.Add([]byte("\xff\xfeU\x00"), `text/plain; charset="iso-2022-jp"`, "identity", "", "5", int64(0))
	f.Add([]byte("abc"), "text/html;charset=x-user-defined", "GZIP", "br", "", int64(-1))
	f.Add([]byte("abc"), "text/plain", " identity ,", ",", "2", int64(2))
	f.Fuzz(func(t *testing.T, data []byte, ctype, enc1, enc2, clen string, limit int64) {
		if limit > 1<<20 {
			limit %= 1 << 20
		}
		h := http.Header{}
		if ctype != "" {
			h.Set("Content-Type", ctype)
		}
		if enc1 != "" {
			h.Add("Content-Encoding", enc1)
		}
		if enc2 != "" {
			h.Add("Content-Encoding", enc2)
		}
		if clen != "" {
			h.Set("Content-Length", clen)
		}
		b, err := Read(bytes.NewReader(data), h, limit)
		b2, err2 := Read(bytes.NewReader(data), h, limit)
		if (err == nil) != (err2 == nil) || !bytes.Equal(b.Text, b2.Text) || b.Charset != b2.Charset || b.Truncated != b2.Truncated {
			t.Fatalf("two reads differ: %v / %v", err, err2)
		}
		unknown := false
		for _, line := range h.Values("Content-Encoding") {
			for _, c := range strings.Split(line, ",") {
				switch strings.ToLower(strings.TrimSpace(c)) {
				case "", "identity", "gzip", "x-gzip", "deflate":
				default:
					unknown = true
				}
			}
		}
		if unknown && err == nil {
			t.Fatalf("Content-Encoding %q read as text: %q", h.Values("Content-Encoding"), b.Text)
		}
		if err != nil {
			return
		}
		if b.Charset == "" {
			t.Fatalf("no charset named (Content-Type %q)", ctype)
		}
		if _, e := htmlindex.Get(b.Charset); e != nil && !strings.HasPrefix(b.Charset, "utf-32") {
			t.Fatalf("charset %q is not a WHATWG name: %v", b.Charset, e)
		}
		if b.Truncated && limit <= 0 {
			t.Fatalf("truncated with limit %d", limit)
		}
		if limit > 0 && int64(len(b.Text)) > 3*limit+3 {
			t.Fatalf("%d bytes of text for a limit of %d", len(b.Text), limit)
		}
		if b.Charset != "utf-8" && !utf8.Valid(b.Text) {
			t.Fatalf("text read in %s is not UTF-8: %q", b.Charset, b.Text)
		}
	})
}

// utf16Of returns s in UTF-16, big-endian or not, after a byte-order
// mark or not.
func utf16Of(s string, be, mark bool) string {
	var order binary.AppendByteOrder = binary.LittleEndian
	if be {
		order = binary.BigEndian
	}
	var b []byte
	if mark {
		b = order.AppendUint16(b, 0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return string(b)
}

// TestReadMarksAndRules: a UTF-16 file, with its mark or without, in
// either order and any line end, is read as UTF-16, and so is one to
// which ASCII lines were appended; a byte-order mark (either) or NULs
// before ASCII rules (lines ended as C strings end, lines of a NUL,
// padding) are stray bytes, the rules read as Google's parser reads them.
func TestReadMarksAndRules(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private/\n"
	h := http.Header{"Content-Type": {"text/plain"}}
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		file := "User-agent: *" + eol + "Disallow: /private/" + eol
		for _, be := range []bool{false, true} {
			for name, body := range map[string]string{
				"marked":                 utf16Of(file, be, true),
				"unmarked":               utf16Of(file, be, false),
				"marked, ASCII appended": utf16Of(file, be, true) + "Sitemap: https://a.test/s.xml\nSitemap: https://a.test/t.xml\n",
				"CJK first, appended":    utf16Of("# "+strings.Repeat("中文", 300)+eol+file, be, true) + "Sitemap: https://a.test/s.xml\n",
			} {
				b, err := Read(strings.NewReader(body), h, DefaultLimit)
				if err != nil || !strings.HasPrefix(b.Charset, "utf-16") || !bytes.Contains(b.Text, []byte("Disallow: /private/")) {
					t.Errorf("%s, big-endian %v, line end %q: %s %.80q, %v; want UTF-16 and its rules", name, be, eol, b.Charset, b.Text, err)
				}
			}
		}
	}
	for name, body := range map[string]string{
		"C strings": "# robots.txt\x00\nUser-agent: *\x00\nDisallow: /private/\x00\n",
		"NUL lines": "# robots.txt\n\x00\nUser-agent: *\n\x00\nDisallow: /private/\n\x00\n",
		"padding":   rules + strings.Repeat("\x00", 600),
		// Comments before the rules: their NULs and line feeds at like
		// offsets look like UTF-16 line feeds.
		"C-string comments":          "# robots\x00\n# more\x00\nUser-agent: *\x00\nDisallow: /private/\x00\n",
		"NUL lines after comments":   "# robots\n# more\n\x00\n\x00\nUser-agent: *\nDisallow: /private/\n",
		"NUL lines between comments": "# a\n\x00\n# b\n\x00\n# c\n\x00\nUser-agent: *\nDisallow: /private/\n",
	} {
		// A mark of either UTF-16, or the bytes of a UTF-32 one (a UTF-16
		// mark and NULs), of a file whose NULs a tool stripped.
		for _, mark := range []string{"", "\xFF\xFE", "\xFE\xFF", "\xFF\xFE\x00\x00", "\x00\x00\xFE\xFF"} {
			for _, shift := range []string{"", "#"} { // the NULs at even offsets or odd
				b, err := Read(strings.NewReader(mark+shift+body), h, DefaultLimit)
				if err != nil || !bytes.Contains(b.Text, []byte("Disallow: /private/")) {
					t.Errorf("%s, mark %q, shift %q: %s %.80q, %v; want the rules read", name, mark, shift, b.Charset, b.Text, err)
				}
			}
		}
	}
}
