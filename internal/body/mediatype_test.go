package body

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestContentType(t *testing.T) {
	for _, tc := range []struct {
		lines          []string
		media, charset string
	}{
		{nil, "", ""},
		{[]string{"text/html"}, "text/html", ""},
		{[]string{"Text/HTML; Charset=UTF-16"}, "text/html", "UTF-16"},
		{[]string{` text/html ; charset="utf-16" `}, "text/html", "utf-16"},
		{[]string{`text/html; charset="utf\-16"; x=y`}, "text/html", "utf-16"},
		{[]string{`text/html; a="x;charset=utf-8"; charset=utf-16`}, "text/html", "utf-16"},
		{[]string{`text/html; charset="unterminated`}, "text/html", "unterminated"},
		// Browsers skip a parameter they cannot read, and keep the first
		// charset; Go's mime package refuses both.
		{[]string{"text/html; charset=utf-16; foo"}, "text/html", "utf-16"},
		{[]string{"text/html; foo; charset=utf-16"}, "text/html", "utf-16"},
		{[]string{"text/html; charset=utf-16; charset=utf-8"}, "text/html", "utf-16"},
		{[]string{"text/html; charset=; charset=utf-8"}, "text/html", "utf-8"},
		{[]string{"text/html; charset =utf-8"}, "text/html", ""},
		// The last value that parses wins, over lines and commas; a
		// charset carries over to a later value of the same type.
		{[]string{"text/plain", "text/html"}, "text/html", ""},
		{[]string{"text/html", "nonsense"}, "text/html", ""},
		{[]string{"text/html", "*/*"}, "text/html", ""},
		{[]string{"text/html; charset=utf-16, text/html"}, "text/html", "utf-16"},
		{[]string{"text/html; charset=utf-16, text/plain"}, "text/plain", ""},
		{[]string{"text/html; charset=utf-16", "text/html; charset=utf-8", "text/html"}, "text/html", "utf-16"},
		{[]string{"text/html; charset=utf-16", "text/html; charset=utf-8"}, "text/html", "utf-8"},
		{[]string{"text/html", "text/html; charset=utf-8", "text/html"}, "text/html", ""},
		{[]string{`text/html; charset="a,b", image/png`}, "image/png", ""},
		{[]string{"html"}, "", ""},
		{[]string{"/"}, "", ""},
		{[]string{"text/ html"}, "", ""},
	} {
		media, charset := ContentType(http.Header{"Content-Type": tc.lines})
		if media != tc.media || charset != tc.charset {
			t.Errorf("ContentType(%q) = %q, %q; want %q, %q", tc.lines, media, charset, tc.media, tc.charset)
		}
	}
}

func TestAnyMediaType(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  bool
	}{
		{nil, false},
		{[]string{"text/html"}, false},
		{[]string{"image/svg+xml, text/html"}, true},
		{[]string{"text/html", "Image/PNG; x"}, true},
		{[]string{`text/html; a="image/png"`}, false},
		{[]string{"image"}, false},
	} {
		if got := AnyMediaType(http.Header{"Content-Type": tc.lines}, "image/"); got != tc.want {
			t.Errorf("AnyMediaType(%q, image/) = %v, want %v", tc.lines, got, tc.want)
		}
	}
}

func TestAnyCharset(t *testing.T) {
	isUTF8 := func(_, cs string) bool { return strings.EqualFold(cs, "utf-8") }
	named := func(mt, cs string) bool { return mt == "text/html" && cs == "" }
	for _, tc := range []struct {
		lines []string
		is    func(mediaType, charset string) bool
		want  bool
	}{
		{nil, isUTF8, false},
		{[]string{"text/html"}, isUTF8, false},                 // no charset named
		{[]string{"text/html; charset=utf-16"}, isUTF8, false}, // another
		{[]string{"text/html; charset=utf-16", "text/plain; charset=UTF-8"}, isUTF8, true},
		{[]string{"text/html; charset=utf-16, text/html; charset=\"utf-8\""}, isUTF8, true},
		{[]string{"text/html; x=\"charset=utf-8\""}, isUTF8, false}, // a parameter's value
		{[]string{"text; charset=utf-8"}, isUTF8, false},            // does not parse
		// A value naming none is given the charset ContentType carries.
		{[]string{"text/html", "text/html; charset=utf-16"}, named, true},
		{[]string{"text/html; charset=utf-8", "text/html"}, named, false},
		{[]string{"text/html; charset=utf-8", "text/html"}, isUTF8, true},
		{[]string{"text/html; charset=utf-8", "text/plain", "text/html"}, named, true},
	} {
		if got := AnyCharset(http.Header{"Content-Type": tc.lines}, tc.is); got != tc.want {
			t.Errorf("AnyCharset(%q) = %v, want %v", tc.lines, got, tc.want)
		}
	}
}

func FuzzContentType(f *testing.F) {
	f.Add(`text/html; charset="utf\-16"; foo, image/png`)
	f.Fuzz(func(t *testing.T, v string) {
		media, charset := ContentType(http.Header{"Content-Type": {v}})
		if media != strings.ToLower(media) || media != "" && !strings.Contains(media, "/") {
			t.Errorf("media type %q", media)
		}
		if media == "" && charset != "" {
			t.Errorf("a charset %q without a media type", charset)
		}
	})
}

// TestContentTypeBounded: a hostile server's megabyte of Content-Type
// values, on one line or on many, is read by its first values, in bounded
// work (each value a parse, and a page reads the header a dozen times).
func TestContentTypeBounded(t *testing.T) {
	for name, h := range map[string]http.Header{
		"one line":   {"Content-Type": {"text/html; charset=utf-8, " + strings.Repeat("a/b,", 1<<18)}},
		"many lines": {"Content-Type": append([]string{"text/html; charset=utf-8"}, slices.Repeat([]string{"x"}, 1<<16)...)},
	} {
		if allocs := testing.AllocsPerRun(3, func() { AnyCharset(h, func(string, string) bool { return false }) }); allocs > 1000 {
			t.Errorf("%s: %v allocations", name, allocs)
		}
		if !AnyMediaType(h, "text/html") {
			t.Errorf("%s: the first value, text/html, not read", name)
		}
	}
}

// TestContentTypeParametersAsWHATWG: ContentType promises the Fetch
// standard's "extract a MIME type", whose parameter parser (MIME Sniffing
// §4.4) reads a quoted empty value as a value (only an unquoted empty one
// is skipped), which no earlier value's charset replaces, and reads a
// parameter's name and unquoted value up to the next ';' whatever quotes
// they hold: a '"' starts a quoted string only at the start of a value.
func TestContentTypeParametersAsWHATWG(t *testing.T) {
	for _, tc := range []struct{ line, charset string }{
		{`text/html; charset=""; charset=utf-16`, ""},
		{`text/plain; x=a"b; charset=shift_jis`, "shift_jis"},
		{`text/plain; x=a"; charset=shift_jis`, "shift_jis"},
		{`text/html; x=a"b; charset=utf-8; y="; charset=utf-16`, "utf-8"},
		{`text/html; a"=1; charset=utf-8; b"=2; charset=utf-16`, "utf-8"},
		{`text/html; charset=shift_jis, text/html; charset=""`, ""},
		{`text/html; charset=shift_jis, text/html; charset=`, "shift_jis"},
		{"text/html; charset=\"utf\x01-8\"; charset=shift_jis", "shift_jis"},
		{`text/plain; charset="shift_jis"junk; charset=utf-8`, "shift_jis"},
		{`text/plain; charset = utf-8; charset=shift_jis`, "shift_jis"},
		{`text/html; charset=shift_jis, text/html{; charset=utf-16`, "shift_jis"},
		{`text/html; charset=shift_jis, text/html}; charset=utf-16`, "shift_jis"},
		{"text/html; charset=shift_jis, text\v/html; charset=utf-16", "shift_jis"},
		{` text/html ; charset=euc-jp`, "euc-jp"},
	} {
		if _, cs := ContentType(http.Header{"Content-Type": {tc.line}}); cs != tc.charset {
			t.Errorf("ContentType(%q) charset %q, want %q (WHATWG)", tc.line, cs, tc.charset)
		}
	}
}
