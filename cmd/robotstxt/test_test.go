package main

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
	if got := outputLines(r.stdout); !slices.Equal(got, want) {
		t.Errorf("output:\n%s\nwant:\n%s", r.stdout, strings.Join(want, "\n"))
	}
}

func TestTestFlagsAfterArguments(t *testing.T) {
	r := runCmd(t, "", "test", "/private/x", "-file", "testdata/robots.txt", "-agent", "ExampleBot")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "(line 8: Disallow: /)") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestTestAllAllowedExitsZero(t *testing.T) {
	r := runCmd(t, "", "test", "-file", "testdata/robots.txt", "/", "/public/")
	if r.code != exitOK {
		t.Errorf("exit %d, want 0; stdout:\n%s", r.code, r.stdout)
	}
}

func TestTestExpect(t *testing.T) {
	for _, tc := range []struct {
		expect string
		urls   []string
		code   int
		note   bool
	}{
		{"disallow", []string{"/private/x", "/doc.pdf"}, exitOK, false},
		{"disallow", []string{"/private/x", "/"}, exitDisallowed, true},
		{"allow", []string{"/", "/public/"}, exitOK, false},
		{"allow", []string{"/", "/private/x"}, exitDisallowed, true},
	} {
		args := append([]string{"test", "-file", "testdata/robots.txt", "-expect", tc.expect}, tc.urls...)
		r := runCmd(t, "", args...)
		if r.code != tc.code || strings.Contains(r.stdout, "; expected "+tc.expect) != tc.note {
			t.Errorf("-expect %s %q: exit %d, stdout:\n%s\nwant exit %d, note %v", tc.expect, tc.urls, r.code, r.stdout, tc.code, tc.note)
		}
		// -json's detail says what the parentheses say, the note too.
		r = runCmd(t, "", append([]string{"test", "-json"}, args[1:]...)...)
		if r.code != tc.code || strings.Contains(r.stdout, `; expected `+tc.expect+`"`) != tc.note {
			t.Errorf("-json -expect %s %q: exit %d, stdout:\n%s\nwant exit %d, note in detail %v", tc.expect, tc.urls, r.code, r.stdout, tc.code, tc.note)
		}
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

func TestTestShowsRulesAsWritten(t *testing.T) {
	// A URL typed with raw UTF-8 is escaped as the Client escapes it, so it
	// matches the rule, which is shown as written.
	r := runCmd(t, "User-agent: *\nDisallow: /café # old menu\n", "test", "-file", "-", "/café/menu")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "(line 2: Disallow: /café)") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
	// A space is escaped as the Client escapes it, so "/a b" meets the
	// rule written as /a%20b.
	r = runCmd(t, "User-agent: *\nDisallow: /a%20b\n", "test", "-file", "-", "/a b")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "Disallow: /a%20b") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestTestAsSent: a URL is tested as net/http sends it, as the Transport
// checks it: `"` as %22 and { as %7B, and a '*' in a path net/http
// escapes as %2A; it is shown as typed.
func TestTestAsSent(t *testing.T) {
	r := runCmd(t, "User-agent: *\nDisallow: /a%22\nDisallow: /*%7B*%2A\n", "test", "-file", "-", `/a"b`, `https://example.com/x{y*`, "/x*")
	want := []string{
		`DISALLOW  /a"b                      (line 2: Disallow: /a%22)`,
		`DISALLOW  https://example.com/x{y*  (line 3: Disallow: /*%7B*%2A)`,
		`ALLOW     /x*                       (no rule matched)`,
	}
	if got := outputLines(r.stdout); r.code != exitDisallowed || !slices.Equal(got, want) {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", r.code, r.stdout, strings.Join(want, "\n"))
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
	// With a query, it is a URL like any other.
	r := runCmd(t, body, "explain", "-file", "-", "-rfc9309", "/robots.txt?x")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "DISALLOW by line 2") || strings.Contains(r.stdout, "always allows") {
		t.Errorf("rfc9309 mode: /robots.txt?x exit %d, stdout:\n%s", r.code, r.stdout)
	}
	r = runCmd(t, "User-agent: *\nDisallow: /private\n", "explain", "-file", "-", "-rfc9309", "/robots.txt?x")
	if r.code != exitOK || !strings.Contains(r.stdout, "no rule matches") || strings.Contains(r.stdout, "always allows") {
		t.Errorf("rfc9309 mode: /robots.txt?x under no rule: exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestTestURLsAsTheClientAcceptsThem checks that only what the Client
// accepts, and bare paths ("//host/x" is the path //host/x), are tested;
// the rest exits 2 before any output.
func TestTestURLsAsTheClientAcceptsThem(t *testing.T) {
	for _, u := range []string{"ftp://x/y", "not a url", "", "?q", "mailto:a@b", "http://", "http://exa mple.com/"} {
		r := runCmd(t, "", "test", "-file", "testdata/robots.txt", "/", u)
		if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "bad URL") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, no output and a bad URL error", u, r.code, r.stdout, r.stderr, exitUsage)
		}
	}
	for _, u := range []string{"/x", "//host/x", "HTTP://Example.COM/x", "https://example.com", "http://[::1]:8080/private/y"} {
		if r := runCmd(t, "", "test", "-file", "testdata/robots.txt", u); r.code == exitUsage {
			t.Errorf("%q: exit %d, stderr %q", u, r.code, r.stderr)
		}
	}
}

func TestTestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "/x"}, "-file is required"},
		{[]string{"test", "/x", "-file"}, "flag needs an argument"},
		{[]string{"test", "-file", "testdata/robots.txt"}, "no URL given"},
		{[]string{"test", "-file", "testdata/missing.txt", "/x"}, "missing.txt"},
		{[]string{"test", "-file", "testdata/robots.txt", "-agent", "/2.0", "/x"}, "no product token can be derived"},
		{[]string{"test", "-file", "ftp://example.com/robots.txt", "/x"}, "bad URL"},
	} {
		r := runCmd(t, "", tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, exitUsage, tc.want)
		}
	}
}

func TestTestFull(t *testing.T) {
	// A rule past the 500 KiB limit is obeyed only with -full.
	body := "User-agent: *\n" + strings.Repeat("# padding padding padding padding\n", 16000) + "Disallow: /late\n"
	r := runCmd(t, body, "test", "-file", "-", "/late")
	if r.code != exitOK || !strings.Contains(r.stderr, "only the first 500 KiB is read") {
		t.Errorf("without -full: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCmd(t, body, "test", "-full", "-file", "-", "/late")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "line 16002: Disallow: /late") {
		t.Errorf("with -full: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestExplainManySites explains the URLs of more sites than eachURL keeps
// explainers for, twice over: the second round, whose explainers are made
// again, answers as the first, fetches no robots.txt again, and notes
// once that a robots.txt is over the limit.
func TestExplainManySites(t *testing.T) {
	long := liveRobots + strings.Repeat("# "+strings.Repeat("p", 97)+"\n", crawlerLimit/100+1)
	var urls []string
	var sites []*robotsServer
	for i := range maxExplainers + 2 {
		s := newRobotsServer(t, http.StatusOK, liveRobots)
		if i == 0 {
			s = newRobotsServer(t, http.StatusOK, long)
		}
		sites = append(sites, s)
		urls = append(urls, s.URL+"/private/x")
	}
	r := runCmd(t, "", append([]string{"explain", "-agent", "OtherBot"}, append(urls, urls...)...)...)
	if r.code != exitDisallowed {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	answers := strings.Split(strings.TrimSpace(r.stdout), "\n\n")
	if len(answers) != 2*len(urls) {
		t.Fatalf("%d answers for %d URLs:\n%s", len(answers), 2*len(urls), r.stdout)
	}
	for i, a := range answers[:len(urls)] {
		if again := answers[len(urls)+i]; a != again || !strings.Contains(a, "DISALLOW by line 2") {
			t.Errorf("%s: the second answer differs from the first:\n%s\n---\n%s", urls[i], a, again)
		}
	}
	for _, s := range sites {
		if n := s.fetches.Load(); n != 1 {
			t.Errorf("%s/robots.txt fetched %d times", s.URL, n)
		}
	}
	if n := strings.Count(r.stderr, "note: "+sites[0].URL+"/robots.txt is "); n != 1 {
		t.Errorf("the limit noted %d times:\n%s", n, r.stderr)
	}
}

// BenchmarkExplainSites explains a URL of each of 200 sites, each with an
// 8 KiB robots.txt, and reports the heap the run grew to, a site.
func BenchmarkExplainSites(b *testing.B) {
	const sites = 200
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := 0; body.Len() < 8<<10; i++ {
		fmt.Fprintf(&body, "Disallow: /p%d/\n", i)
	}
	args := []string{"explain"}
	for range sites {
		args = append(args, newRobotsServer(b, http.StatusOK, body.String()).URL+"/x")
	}
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // samples the heap until stopped
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak.Store(max(peak.Load(), m.HeapAlloc))
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	for b.Loop() {
		var out, errOut bytes.Buffer
		if code := runIO(args, strings.NewReader(""), &out, &errOut); code != exitOK {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
	close(stop)
	<-sampled
	b.ReportMetric(float64(peak.Load()-min(peak.Load(), base.HeapAlloc))/sites, "peak-B/site")
}
