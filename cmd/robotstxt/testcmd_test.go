package main

import (
	"strings"
	"testing"
)

func TestTestDecisions(t *testing.T) {
	r := runCmd(t, "", "test", "-file", "testdata/robots.txt",
		"/private/x", "/", "https://example.com/private/public.html", "/doc.pdf", "/doc.pdf?x")
	if r.code != exitDisallowed {
		t.Errorf("exit %d, want %d; stderr %q", r.code, exitDisallowed, r.stderr)
	}
	want := []string{
		"DISALLOW  /private/x                               (line 3: Disallow: /private/)",
		"ALLOW     /                                        (no rule matched)",
		"ALLOW     https://example.com/private/public.html  (line 4: Allow: /private/public.html)",
		"DISALLOW  /doc.pdf                                 (line 5: Disallow: /*.pdf$)",
		"ALLOW     /doc.pdf?x                               (no rule matched)",
	}
	if got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n"); !equal(got, want) {
		t.Errorf("output:\n%s\nwant:\n%s", r.stdout, strings.Join(want, "\n"))
	}
}

func TestTestAllAllowedExitsZero(t *testing.T) {
	r := runCmd(t, "", "test", "-file", "testdata/robots.txt", "/", "/public/")
	if r.code != exitOK {
		t.Errorf("exit %d, want 0; stdout:\n%s", r.code, r.stdout)
	}
}

func TestTestAgentGroup(t *testing.T) {
	// ExampleBot has its own group (Disallow: /), so the * rules do not
	// apply to it; a full User-Agent string is cut to its token.
	r := runCmd(t, "", "test", "-file", "testdata/robots.txt", "-agent", "ExampleBot/2.0", "/")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "(line 8: Disallow: /)") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, `matched as "ExampleBot"`) {
		t.Errorf("no note about the cut token on stderr: %q", r.stderr)
	}
}

func TestTestStdinAndRawURL(t *testing.T) {
	// A URL typed with raw UTF-8 is escaped as the Client escapes it, so it
	// matches the normalised rule.
	r := runCmd(t, "User-agent: *\nDisallow: /café\n", "test", "-file", "-", "/café/menu")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "Disallow: /caf%C3%A9") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestTestRFC9309(t *testing.T) {
	body := "User-agent: *\nDisallow: /\n"
	if r := runCmd(t, body, "test", "-file", "-", "/robots.txt"); r.code != exitDisallowed {
		t.Errorf("google mode: /robots.txt exit %d, want %d", r.code, exitDisallowed)
	}
	if r := runCmd(t, body, "test", "-file", "-", "-rfc9309", "/robots.txt"); r.code != exitOK {
		t.Errorf("rfc9309 mode: /robots.txt exit %d, want 0", r.code)
	}
}

func TestTestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"test", "/x"},                                                   // no -file
		{"test", "-file", "testdata/robots.txt"},                         // no URL
		{"test", "-file", "testdata/missing.txt", "/x"},                  // unreadable
		{"test", "-file", "testdata/robots.txt", "-agent", "/2.0", "/x"}, // no token
	} {
		if r := runCmd(t, "", args...); r.code != exitUsage || r.stderr == "" {
			t.Errorf("%q: exit %d, stderr %q; want %d and a message", args, r.code, r.stderr, exitUsage)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTestEscapesLikeTheClient(t *testing.T) {
	// A space is escaped as the Client escapes it, so "/a b" meets the rule
	// written as /a%20b.
	r := runCmd(t, "User-agent: *\nDisallow: /a%20b\n", "test", "-file", "-", "/a b")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "Disallow: /a%20b") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}
