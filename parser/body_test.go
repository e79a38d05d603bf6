package parser_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/parser"
)

// TestRead checks that Read reads a body as the Client does: content
// coding undone, UTF-16 and a declared charset converted, the line a
// limit cuts dropped, and a coding it cannot read an error.
func TestRead(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("User-agent: *\nDisallow: /x\n"))
	zw.Close()
	for _, tc := range []struct {
		name      string
		raw       string
		header    http.Header
		limit     int64
		text      string
		charset   string
		truncated bool
	}{
		{"utf-8", "User-agent: *\nDisallow: /café\n", nil, 0, "User-agent: *\nDisallow: /café\n", "utf-8", false},
		{"gzip", gz.String(), http.Header{"Content-Encoding": {"gzip"}}, 0, "User-agent: *\nDisallow: /x\n", "utf-8", false},
		{"utf-16le", "\xff\xfeD\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00\n\x00", nil, 0, "Disallow: /\n", "utf-16le", false},
		{"latin-1", "Disallow: /caf\xe9\n", http.Header{"Content-Type": {"text/plain; charset=iso-8859-1"}}, 0, "Disallow: /café\n", "windows-1252", false},
		{"cut", "Disallow: /a\nAllow: /public/page.html\n", nil, 20, "Disallow: /a\n", "utf-8", true},
	} {
		b, err := parser.Read(strings.NewReader(tc.raw), tc.header, tc.limit)
		if err != nil || string(b.Text) != tc.text || b.Charset != tc.charset || b.Truncated != tc.truncated {
			t.Errorf("%s: %q, %s, truncated %v, %v; want %q, %s, %v", tc.name, b.Text, b.Charset, b.Truncated, err, tc.text, tc.charset, tc.truncated)
		}
	}
	if _, err := parser.Read(strings.NewReader("x"), http.Header{"Content-Encoding": {"br"}}, 0); err == nil {
		t.Error("an unknown content coding: no error")
	}
}

// TestReadCodingNamesASCII: content codings compare by ASCII case, as
// net/http's: "gzİp" (U+0130) is no gzip, an unknown coding.
func TestReadCodingNamesASCII(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write([]byte("User-agent: *\nDisallow: /\n"))
	_ = zw.Close()
	for _, tc := range []struct {
		coding string
		body   []byte
	}{
		{"gz\u0130p", z.Bytes()},
		{"\u0130dentity", []byte("User-agent: *\nDisallow: /\n")},
	} {
		b, err := parser.Read(bytes.NewReader(tc.body), http.Header{"Content-Encoding": {tc.coding}}, 500<<10)
		if err == nil {
			t.Errorf("Content-Encoding %q: read as a known coding (%q), want an unknown coding's error", tc.coding, b.Text)
		}
	}
}
