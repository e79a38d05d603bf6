package main

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/robotsgate/robotstxt/parser"
)

func TestListing(t *testing.T) {
	l := newListing([]byte("\xef\xbb\xbfUser-agent: *\r\nDisallow: /a  # old\rAllow:/b\n\n  Disallow /c\nnothing"))
	var got []string
	for n := 1; n <= l.len(); n++ {
		got = append(got, l.text(n)+" | "+l.directive(n))
	}
	want := []string{
		"User-agent: * | User-agent: *",
		"Disallow: /a  # old | Disallow: /a",
		"Allow:/b | Allow: /b",
		" | ",
		"Disallow /c | Disallow /c",
		"nothing | ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if l.text(0) != "" || l.text(7) != "" || l.directive(7) != "" {
		t.Error("lines out of range are not empty")
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc…"},
		{"ééé", 3, "é…"}, // never cut inside a character
		{"\xff\xff\xff\xff", 2, "\xff\xff…"},
	} {
		if got := clip(tc.s, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestListingNumbersLinesAsTheParser checks, over the corpus, that the
// listing has as many lines as the parser counts, so that a line number
// shows the line it names.
func TestListingNumbersLinesAsTheParser(t *testing.T) {
	for _, f := range corpusFiles(t, "*.txt") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text, err := parser.Read(bytes.NewReader(b), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := parser.Parse(text.Text)
		if n := newListing(text.Text).len(); n != p.Lines {
			t.Errorf("%s: listing has %d lines, the parser %d", f, n, p.Lines)
		}
	}
}
