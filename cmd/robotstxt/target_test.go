package main

import (
	"errors"
	"testing"

	"github.com/robotsgate/robotstxt"
)

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		arg       string
		bare      bool
		authority string
		path      string
	}{
		{"/x", true, "", "/x"},
		{"/café?q=1#frag", true, "", "/caf%C3%A9?q=1"},
		{"/a b", true, "", "/a%20b"},
		{"HTTPS://Example.COM", false, "https://example.com:443", "/"},
		{"http://user@example.com:8080//x", true, "http://example.com:8080", "//x"},
	} {
		got, err := parseTarget(tc.arg, tc.bare)
		if err != nil || got.authority != tc.authority || got.path != tc.path || got.arg != tc.arg {
			t.Errorf("parseTarget(%q, %v) = %+v, %v; want %q %q", tc.arg, tc.bare, got, err, tc.authority, tc.path)
		}
	}
	for _, tc := range []struct {
		arg  string
		bare bool
	}{
		{"/x", false}, // a bare path needs a file
		{"//x", true},
		{"ftp://x/y", true},
		{"not a url", true},
		{"", true},
		{"x/y", true},
		{"http://", false},
	} {
		if _, err := parseTarget(tc.arg, tc.bare); !errors.Is(err, robotstxt.ErrBadURL) {
			t.Errorf("parseTarget(%q, %v): %v, want an error wrapping ErrBadURL", tc.arg, tc.bare, err)
		}
	}
}

// TestCheckURLKeepsDoubleSlash checks that a path starting with "//" is
// matched as a path, not read as a host.
func TestCheckURLKeepsDoubleSlash(t *testing.T) {
	tg, err := parseTarget("http://example.com//private/x", false)
	if err != nil {
		t.Fatal(err)
	}
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: //private/\n"))
	if r.Allowed("x", tg.checkURL()) {
		t.Errorf("%s is allowed; the rule //private/ should match", tg.checkURL())
	}
}
