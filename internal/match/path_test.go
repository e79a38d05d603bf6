package match

import (
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "/"},
		{"/", "/"},
		{"http://example.com", "/"},
		{"http://example.com/", "/"},
		{"https://example.com:8443/a/b", "/a/b"},
		{"http://user:pw@example.com/a", "/a"},
		{"http://example.com/a;p=1?q=2#frag", "/a;p=1?q=2"},
		{"http://example.com/a#b?c", "/a"},
		{"http://example.com#frag", "/"},
		{"http://example.com#/x", "/"},
		{"http://example.com?q", "/?q"},
		{"http://example.com;p", "/;p"},
		{"http://example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"/a?x=http://b/c", "/a?x=http://b/c"},
		{"/a://b", "/a://b"},
		{"//host/p?q", "/p?q"},
		{"//host", "/"},
		{"example.com/a", "/a"},
		{"a/b", "/b"},
		{"?q", "/?q"},
		{"/%7Efred", "/%7Efred"}, // not decoded
		{"/ツ", "/ツ"},             // not escaped
		{"HTTP://EXAMPLE.COM/A", "/A"},
		{"http://example.com//double", "//double"},
		// As Google's parser: ';' ends the authority, and a NUL the path.
		{"http://x;@example.com/private", "/;@example.com/private"},
		{"/x.php\x00.jpg", "/x.php"},
		{"http://example.com/a?b\x00c#d\x00", "/a?b"},
	} {
		if got := Path(c.in); got != c.want {
			t.Errorf("Path(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzPath checks Path's invariants on any input: it never panics, the
// result starts with "/", holds no fragment, is a piece of the input (with
// perhaps a "/" put in front), and a plain path is returned unchanged.
func FuzzPath(f *testing.F) {
	for _, s := range []string{
		"", "/", "http://example.com", "http://a/b?c#d", "//a/b/c", "a/b",
		"example.com?a", "example.com/a;b#c", "/a://b", "#", "://", "?",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, url string) {
		p := Path(url)
		if !strings.HasPrefix(p, "/") {
			t.Fatalf("Path(%q) = %q: no leading slash", url, p)
		}
		if strings.Contains(p, "#") {
			t.Fatalf("Path(%q) = %q keeps a fragment", url, p)
		}
		if p != "/" && !strings.Contains(url, p) && !strings.Contains(url, p[1:]) {
			t.Fatalf("Path(%q) = %q is not part of the URL", url, p)
		}
		if strings.Contains(p, "\x00") {
			t.Fatalf("Path(%q) = %q holds a NUL", url, p)
		}
		if strings.HasPrefix(url, "/") && !strings.HasPrefix(url, "//") && !strings.ContainsAny(url, "#\x00") && p != url {
			t.Fatalf("Path(%q) = %q: a plain path must come back unchanged", url, p)
		}
	})
}
