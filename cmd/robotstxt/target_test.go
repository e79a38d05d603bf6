package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
)

func TestParseTargets(t *testing.T) {
	for _, tc := range []struct {
		arg   string
		bare  bool
		url   string
		path  string
		shown string // if not the argument
	}{
		{"/x", true, pathSite + "/x", "/x", ""},
		{"/café?q=1#frag", true, pathSite + "/café?q=1#frag", "/caf%C3%A9?q=1", ""},
		{"/a b", true, pathSite + "/a b", "/a%20b", ""},
		{"//x", true, pathSite + "//x", "//x", ""}, // a path, as the Client reads http://host//x
		{"HTTPS://Example.COM", false, "HTTPS://Example.COM", "/", ""},
		{"http://user@example.com:8080//x", true, "http://user@example.com:8080//x", "//x", "http://example.com:8080//x"},
		// A ';' in the userinfo starts no path: the Client drops it.
		{"http://u;x@h.test/private", false, "http://u;x@h.test/private", "/private", "http://h.test/private"},
		{"http://u;x@h.test", false, "http://u;x@h.test", "/", "http://h.test"},
		{"http://a:b@c@h.test/p@q?r@s", false, "http://a:b@c@h.test/p@q?r@s", "/p@q?r@s", "http://h.test/p@q?r@s"},
		{"http://h.test?q=1", false, "http://h.test?q=1", "/?q=1", ""},
	} {
		if tc.shown == "" {
			tc.shown = tc.arg
		}
		got, err := parseTargets([]string{tc.arg}, tc.bare)
		if err != nil || len(got) != 1 || got[0].url != tc.url || got[0].shown != tc.shown || matchPath(clientEscaped(got[0].url), robotstxt.ModeGoogle) != tc.path {
			t.Errorf("parseTargets(%q, %v) = %+v, %v; want %q %q", tc.arg, tc.bare, got, err, tc.url, tc.path)
		}
	}
	for _, tc := range []struct {
		arg  string
		bare bool
	}{
		{"/x", false}, // a bare path needs a file
		{"ftp://x/y", true},
		{"not a url", true},
		{"", true},
		{"x/y", true},
		{"http://", false},
		{"/a\x01b", true},
		{"/" + strings.Repeat("|", 3000), true}, // under the Client's 8 KiB as typed, over it as sent (%7C)
	} {
		if _, err := parseTargets([]string{"/", tc.arg}, tc.bare); !errors.Is(err, robotstxt.ErrBadURL) {
			t.Errorf("parseTargets(%q, %v): %v, want an error wrapping ErrBadURL", tc.arg, tc.bare, err)
		}
	}
}

// TestTargetSent checks that a target is checked as net/http sends a
// request for it: the path escaped as net/url escapes it, its escapes
// as written while it needs no other, the query as written, without
// the userinfo and fragment.
func TestTargetSent(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		bare bool
		sent string
	}{
		{`http://u:p@h.test/a"b{c}?q="x"#f`, false, `http://h.test/a%22b%7Bc%7D?q="x"`},
		{"HTTPS://Example.COM", false, "https://Example.COM/"},
		{"/a b^c|d", true, pathSite + "/a%20b%5Ec%7Cd"},
		{"/%7e/*/x;y", true, pathSite + "/%7e/*/x;y"},
		{`/é"*`, true, pathSite + "/%C3%A9%22%2A"},
		{"//x?", true, pathSite + "//x?"},
	} {
		got, err := parseTargets([]string{tc.arg}, tc.bare)
		if err != nil || len(got) != 1 || got[0].sent() != tc.sent {
			t.Errorf("parseTargets(%q, %v) = %+v, %v; want it sent as %q", tc.arg, tc.bare, got, err, tc.sent)
		}
	}
}

// TestMatchPathAsTheClient checks that the path explain matches rules
// against is the one the Client matches: a path starting with "//" is a
// path, not read as a host, and the Client decides as the rules that
// match it say.
func TestMatchPathAsTheClient(t *testing.T) {
	doc := &document{name: "t"}
	if err := doc.decode([]byte("User-agent: *\nDisallow: //private/\nDisallow: /a%20b\nDisallow: /caf%C3%A9\n"), nil); err != nil {
		t.Fatal(err)
	}
	c := doc.client(defaultAgent, robotstxt.ModeGoogle, false)
	defer c.Close()
	for _, url := range []string{"http://example.com//private/x", "http://example.com/a b", "http://example.com/café", pathSite + "//private/y"} {
		d, err := c.Check(t.Context(), url)
		p := matchPath(clientEscaped(url), robotstxt.ModeGoogle)
		if err != nil || d.Allowed || d.Served != "" || !strings.HasPrefix(p, d.Rule.Pattern) {
			t.Errorf("%s: matched as %s; the Client: allowed %v by %+v, served %q, %v", url, p, d.Allowed, d.Rule, d.Served, err)
		}
	}
}

// TestBarePathErrorNamesThePath checks that a bare path the Client
// cannot check is named as typed in the error: not on pathSite, a host
// the user never typed, with a hint to give "a path that starts with /"
// for an argument that is one.
func TestBarePathErrorNamesThePath(t *testing.T) {
	for _, args := range [][]string{
		{"test", "-file", "testdata/robots.txt", "/ok", "/x?q=a b"},
		{"test", "-json", "-file", "testdata/robots.txt", "/a%zz"},
		{"explain", "-file", "testdata/robots.txt", "/a%"},
		{"test", "-file", "testdata/robots.txt", "/x?q=a@b c"},
		{"explain", "-file", "testdata/robots.txt", "/me@x/a%zz"},
		{"test", "-file", "testdata/robots.txt", "/p?u=http://robots.invalid/ x"},
	} {
		r := runCmd(t, "", args...)
		bad := args[len(args)-1]
		if r.code != exitUsage || strings.Count(r.stderr, "robots.invalid") != strings.Count(bad, "robots.invalid") || !strings.Contains(r.stderr, fmt.Sprintf("%q", bad)) {
			t.Errorf("%q: exit %d, stderr %q; want %d and an error that quotes %q, not a URL on %s",
				args, r.code, r.stderr, exitUsage, bad, pathSite)
		}
	}
	// A long one is cut, as the Client cuts a URL.
	long := "/" + strings.Repeat("a", 9000) + "%"
	if r := runCmd(t, "", "test", "-file", "testdata/robots.txt", long); r.code != exitUsage || len(r.stderr) > 400 || !strings.Contains(r.stderr, "…") {
		t.Errorf("a bad path of %d bytes: exit %d, %d bytes of stderr; want %d and the path cut", len(long), r.code, len(r.stderr), exitUsage)
	}
}

// TestOutputWithholdsUserinfo: a URL argument's password never reaches
// the output, in text or -json, of check, explain, test or lint (of a
// robots.txt or a tdmrep.json), as the Client names no URL with one.
func TestOutputWithholdsUserinfo(t *testing.T) {
	const secret = "s3cret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
		case tdmrepPath:
			w.Write([]byte(`[{"location": "/", "tdm-reservation": 1}]`))
		default:
			w.Write([]byte("<html>page</html>"))
		}
	}))
	defer srv.Close()
	site := strings.Replace(srv.URL, "http://", "http://alice:"+secret+"@", 1)
	robots := "User-agent: *\nDisallow: /private\n"
	for _, args := range [][]string{
		{"check", site + "/private", site + "/ok"},
		{"check", "-json", site + "/private", site + "/ok"},
		{"check", "-v", site + "/ok"},
		{"explain", site + "/private"},
		{"explain", "-json", site + "/private"},
		{"test", "-file", "-", "http://alice:" + secret + "@h.test/private"},
		{"test", "-json", "-file", "-", "http://alice:" + secret + "@h.test/private"},
		{"lint", site + "/robots.txt"},
		{"lint", site + tdmrepPath},
		{"lint", "-json", site + tdmrepPath},
	} {
		r := runCmd(t, robots, args...)
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("%s: exit %d; the output holds the URL's password:\n%s%s", strings.Join(args[:len(args)-1], " "), r.code, r.stdout, r.stderr)
		}
	}
}

// TestBarePathShownAsTyped: a bare path whose query holds a URL with
// userinfo ("/go?to=http://u@x.test/p") is a path on the file's site,
// with no userinfo of the argument's own to withhold: the output names
// it as typed, the path the Client matched.
func TestBarePathShownAsTyped(t *testing.T) {
	for _, p := range []string{"/go?to=http://u@x.test/p", "/a://b@c"} {
		got, err := parseTargets([]string{p}, true)
		if err != nil || len(got) != 1 || got[0].shown != p {
			t.Errorf("parseTargets(%q, true) = %+v, %v; want it shown as typed", p, got, err)
		}
		r := runCmd(t, "User-agent: *\nDisallow: /go\n", "test", "-file", "-", p)
		if !strings.Contains(r.stdout, p) {
			t.Errorf("test -file - %s: exit %d, stdout %q; want the path named as typed", p, r.code, r.stdout)
		}
	}
}
