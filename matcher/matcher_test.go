package matcher_test

import (
	"fmt"
	"testing"

	"github.com/robotsgate/robotstxt/matcher"
)

func ExampleMatch() {
	fmt.Println(matcher.Match("/*.php$", "/folder/index.php"))
	fmt.Println(matcher.Match("/*.php$", "/index.php?x=1"))
	fmt.Println(matcher.Match("/fish", "/Fish.html"))
	fmt.Println(matcher.Match("", "/"))
	// Output:
	// true
	// false
	// false
	// false
}

func ExampleEscape() {
	fmt.Println(matcher.Escape("/foo/bar/ツ"))
	fmt.Println(matcher.Escape("/%7efred"))
	// Output:
	// /foo/bar/%E3%83%84
	// /%7Efred
}

// TestMatchEscaped: a pattern read from a file matches the escaped path
// once Escape has normalised it, as the robotstxt package reads rules.
func TestMatchEscaped(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"/café", "/caf%C3%A9/x", true},
		{"/%7efred", "/%7Efred", true},
		{"/a*b$", "/axxb", true},
		{"/a*b$", "/axxb/", false},
	} {
		if got := matcher.Match(matcher.Escape(tc.pattern), tc.path); got != tc.want {
			t.Errorf("Match(Escape(%q), %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

func ExamplePath() {
	fmt.Println(matcher.Path("https://example.com/a/b;p?q=1#top"))
	fmt.Println(matcher.Path("https://example.com"))
	fmt.Println(matcher.UnescapePath("/%7efred/%2f*"))
	// Output:
	// /a/b;p?q=1
	// /
	// /~fred/%2F%2A
}

func ExampleMatchRule() {
	// Two rules match /shop/: the allow of its index page, widened to
	// its directory as /shop/$ would be (7 bytes), and the disallow (6).
	n, ok := matcher.MatchRule("/shop/index.html", true, "/shop/")
	m, _ := matcher.MatchRule("/shop/", false, "/shop/")
	fmt.Println(n, ok, m)
	fmt.Println(matcher.Precedence(n, true, m, false) < 0) // the allow decides
	fmt.Println(matcher.Prefix("/shop/index.html", true), matcher.Prefix("/a*b$", false))
	// Output:
	// 7 true 6
	// true
	// /shop/ /a
}

func ExampleServedForms() {
	fmt.Println(matcher.ServedForms("/public/x"))
	fmt.Println(matcher.ServedForms("/public/../private/x"))
	fmt.Println(matcher.ServedForms("/a//../%7Euser?q=/../x"))
	// Output:
	// []
	// [/private/x]
	// [/~user?q=/../x /a/~user?q=/../x]
}
