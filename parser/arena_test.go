package parser

import (
	"bytes"
	"reflect"
	"testing"
)

// TestParseDoesNotAliasBody proves that a File keeps its own copy of every
// string: overwriting the caller's buffer after Parse changes nothing.
func TestParseDoesNotAliasBody(t *testing.T) {
	src := "Sitemap: https://example.com/s.xml\nhost: example.com\n" +
		"User-agent: FooBot/1.0\nDisallow: /private/ # no\nAllow: /private/index.html\n" +
		"Crawl-delay: 2\nunknown-key: value\nUser agent: *\ndissallow: /x\n" +
		"Disallow: /ümlaut\nallow relative\n"
	body := []byte(src)
	got := Parse(body)
	want := Parse([]byte(src))
	copy(body, bytes.Repeat([]byte{'X'}, len(body)))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("File changed when the body was overwritten:\n got %+v\nwant %+v", got, want)
	}
	if len(got.Groups) != 2 || len(got.Sitemaps) != 1 || len(got.Diagnostics) == 0 {
		t.Fatalf("unexpected parse: %+v", got)
	}
}

// TestArenaBlocks checks that keep copies across block boundaries and that
// earlier strings survive later blocks.
func TestArenaBlocks(t *testing.T) {
	var a arena
	var kept []string
	var want []string
	for i := range 5000 {
		s := string(bytes.Repeat([]byte{byte('a' + i%26)}, i%50+1))
		want = append(want, s)
		kept = append(kept, a.keep(s, 100))
	}
	if !reflect.DeepEqual(kept, want) {
		t.Fatal("arena strings changed")
	}
	if a.keep("", 10) != "" {
		t.Fatal("empty keep")
	}
	if got := a.keepLower("MiXeD-Key", 9); got != "mixed-key" {
		t.Fatalf("keepLower = %q", got)
	}
}

// TestRuleMatchFarStar covers patterns whose first '*' lies beyond what a
// Rule keeps (index 255), which take the general path.
func TestRuleMatchFarStar(t *testing.T) {
	long := "/" + string(bytes.Repeat([]byte{'a'}, 300))
	f := Parse([]byte("user-agent: *\ndisallow: " + long + "*z\ndisallow: " + long + "*z*y$\n"))
	rules := f.Groups[0].Rules
	for _, c := range []struct {
		rule int
		path string
		want bool
	}{
		{0, long + "xxz", true},
		{0, long + "xx", false},
		{1, long + "zzy", true},
		{1, long + "zzyq", false},
	} {
		if _, got := rules[c.rule].Match(c.path); got != c.want {
			t.Errorf("rule %d on %.20q…: %v, want %v", c.rule, c.path[len(c.path)-5:], got, c.want)
		}
	}
}
