package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
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

// TestListingDirectiveKeepsBOMAsParser: a byte-order mark is skipped at
// the start of the file only; on a later line, or a second one on line
// 1 (or a mark and a partial one), it is part of the key, as the parser
// reads it ("\ufeffDisallow", an unknown key). The listing, which says
// it gives each line as the parser reads it, must not drop it, or lint
// quotes the line as the Disallow rule crawlers do not read it as.
func TestListingDirectiveKeepsBOMAsParser(t *testing.T) {
	for _, tc := range []struct {
		text string
		line int // the line with a mark
	}{
		{"User-agent: a\n\ufeffDisallow: /x\nUser-agent: b\nDisallow: /y\n", 2},
		{"\ufeff\ufeffDisallow: /x\nUser-agent: b\nDisallow: /y\n", 1},
		{"\ufeff\xef\xbbDisallow: /x\nUser-agent: b\nDisallow: /y\n", 1},
		{"\xef\xefDisallow: /x\nUser-agent: b\nDisallow: /y\n", 1},
	} {
		text := []byte(tc.text)
		var key string
		for pl := range parser.Lines(text) {
			if pl.Num == tc.line {
				key = pl.Key
			}
		}
		l := newListing(text)
		if got := l.parsed(tc.line).Key; got != key {
			t.Errorf("%q: line %d's key is %q; the parser reads %q", tc.text, tc.line, got, key)
		}
		if got, want := l.directive(tc.line), key+": /x"; got != want {
			t.Errorf("%q: directive(%d) = %q, want %q", tc.text, tc.line, got, want)
		}
		// And so lint's joined-group finding (of a user-agent line after
		// a group's first, so past line 1 only) quotes no Disallow line
		// as what did not end the group.
		r := runCmd(t, tc.text, "lint", "-")
		if tc.line > 1 && strings.Contains(r.stdout, fmt.Sprintf("past line %d (Disallow: /x)", tc.line)) {
			t.Errorf("%q: lint quotes line %d as a Disallow rule that ended no group:\n%s", tc.text, tc.line, r.stdout)
		}
	}
}
