package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

// TestExplainGolden runs explain on testdata/explain.txt for the cases a
// site owner asks about and compares the output with golden files.
func TestExplainGolden(t *testing.T) {
	for _, tc := range []struct {
		name, agent, url string
		code             int
		args             []string
	}{
		// FooBot has its own groups, so the * group's Disallow: /private
		// matches but is not read.
		{"star-group-not-applied", "FooBot", "/private/x", exitOK, nil},
		{"longest-match", "FooBot", "/shop/cart/x", exitOK, nil},
		{"allow-wins-tie", "FooBot", "/tie", exitOK, nil},
		{"written-and-normalised", "FooBot/2.1", "https://example.com/café/menu", exitDisallowed, nil},
		{"index-directory", "FooBot", "/docs/", exitOK, nil},
		{"star-group", "OtherBot", "/private/public.html", exitOK, nil},
		// A server serves /%7Efred/x as /~fred/x, which both readings
		// disallow, as the Client does.
		{"rfc-decodes-escapes", "OtherBot", "/%7Efred/x", exitDisallowed, nil},
		{"rfc-mode", "OtherBot", "/%7Efred/x", exitDisallowed, []string{"-rfc9309"}},
		{"rfc-robots-txt", "Blocker", "/robots.txt", exitDisallowed, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"explain", "-file", "testdata/explain.txt", "-agent", tc.agent, tc.url}, tc.args...)
			r := runCmd(t, "", args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tc.code, r.stderr)
			}
			golden(t, "explain-"+tc.name+".txt", r.stdout)
			// explain's exit code is test's.
			targs := append([]string{"test", "-file", "testdata/explain.txt", "-agent", tc.agent, tc.url}, tc.args...)
			if tr := runCmd(t, "", targs...); tr.code != r.code {
				t.Errorf("test exits %d, explain %d", tr.code, r.code)
			}
		})
	}
}

func TestExplainNoGroup(t *testing.T) {
	r := runCmd(t, "User-agent: FooBot\nDisallow: /\n", "explain", "-file", "-", "-agent", "BarBot", "/x")
	if r.code != exitOK || !strings.Contains(r.stdout, "no group names BarBot and there is no * group: every URL is allowed") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestExplainLongRuleNotNormalised: a rule whose line is shown cut is
// not said to be normalised, as its pattern is written.
func TestExplainLongRuleNotNormalised(t *testing.T) {
	long := "/" + strings.Repeat("a", 200)
	r := runCmd(t, "User-agent: *\nDisallow: "+long+"\n", "explain", "-file", "-", long+"/x")
	if r.code != exitDisallowed || strings.Contains(r.stdout, "normalised") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// Its -json text is cut to 160 bytes, marked, as the help says.
	r = runCmd(t, "User-agent: *\nDisallow: "+long+"\n", "explain", "-json", "-file", "-", long+"/x")
	var v struct{ Rule struct{ Text string } }
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || !strings.HasSuffix(v.Rule.Text, "…") || len(v.Rule.Text) > 160+len("…") {
		t.Errorf("-json: %v, rule text %q; want it cut to 160 bytes", err, v.Rule.Text)
	}
	// A short one written with an ellipsis is, as its pattern escapes it.
	r = runCmd(t, "User-agent: *\nDisallow: /more…\n", "explain", "-file", "-", "/more…/x")
	if !strings.Contains(r.stdout, "normalised /more%E2%80%A6") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

func TestExplainMergedStarGroups(t *testing.T) {
	body := "User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n"
	r := runCmd(t, body, "explain", "-file", "-", "/c/x")
	for _, want := range []string{
		"no group names robotstxt, so the * group applies: line 1 (User-agent: *)",
		"merged with line 7 (User-agent: *): every * group applies",
		"DISALLOW by line 8 (Disallow: /c): the only rule that matches",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestExplainSharedStarGroup: a group that names both * and the agent
// applies as the agent's own; only other * groups are said not to apply.
func TestExplainSharedStarGroup(t *testing.T) {
	body := "User-agent: FooBot\nUser-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"
	r := runCmd(t, body, "explain", "-file", "-", "-agent", "FooBot", "/a")
	if !strings.Contains(r.stdout, "the * group, line 5 (User-agent: *), does not apply") ||
		strings.Contains(r.stdout, "line 2 (User-agent: *), does not apply") || strings.Contains(r.stdout, "line 1 (User-agent: FooBot), does not apply") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	r = runCmd(t, "User-agent: FooBot\nUser-agent: *\nDisallow: /a\n", "explain", "-file", "-", "-agent", "FooBot", "/a")
	if strings.Contains(r.stdout, "does not apply") {
		t.Errorf("the shared group is said not to apply:\n%s", r.stdout)
	}
}

// TestExplainLive checks the live form: without -file, each URL's
// robots.txt is fetched once per site as check fetches it.
func TestExplainLive(t *testing.T) {
	s := newRobotsServer(t, http.StatusOK, liveRobots)
	r := runCmd(t, "", "explain", "-agent", "ExampleBot", s.URL+"/x", s.URL+"/y")
	if r.code != exitDisallowed || strings.Count(r.stdout, "DISALLOW by line 7 (Disallow: /)") != 2 {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, "robots    "+s.URL+"/robots.txt (status 200), ") {
		t.Errorf("the robots.txt is not named:\n%s", r.stdout)
	}
	if n := s.fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times for two URLs of one site", n)
	}
	// A bare path needs a -file: without one there is no site to fetch.
	if r := runCmd(t, "", "explain", "/x"); r.code != exitUsage || !strings.Contains(r.stderr, "bad URL") {
		t.Errorf("explain /x: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestExplainLiveUnavailable(t *testing.T) {
	missing := newRobotsServer(t, http.StatusNotFound, "")
	r := runCmd(t, "", "explain", missing.URL+"/x")
	if r.code != exitOK || !strings.Contains(r.stdout, "decision  ALLOW: status 404; no robots.txt: allow all") {
		t.Errorf("404: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	down := newRobotsServer(t, http.StatusServiceUnavailable, "")
	r = runCmd(t, "", "explain", down.URL+"/x")
	if r.code != exitDeferred || !strings.Contains(r.stdout, "decision  DEFER: robots.txt unreachable: status 503 Service Unavailable") {
		t.Errorf("503: exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestExplainAsSent: explain reads a URL as net/http sends it, as the
// Transport checks it, `"` as %22: its path, the rules that match it and
// the decision are of that; the URL is shown as typed.
func TestExplainAsSent(t *testing.T) {
	r := runCmd(t, "User-agent: *\nDisallow: /a%22\n", "explain", "-file", "-", `/a"b`)
	for _, want := range []string{"URL       /a\"b\n", "path      /a%22b\n", "line 2    Disallow: /a%22  (length 5)  ← decides", "decision  DISALLOW by line 2"} {
		if r.code != exitDisallowed || !strings.Contains(r.stdout, want) {
			t.Errorf("exit %d, stdout:\n%s\nwant %q", r.code, r.stdout, want)
		}
	}
}

// TestExplainModesDiffer: a rule written with an escape that RFC 9309
// decodes decides there and not in Google's reading, whose Client
// compares it as written, as the explanation says.
func TestExplainModesDiffer(t *testing.T) {
	body := "User-agent: *\nDisallow: /%7Ejoe/\n"
	r := runCmd(t, body, "explain", "-file", "-", "/~joe/x")
	want := "decision  ALLOW: no rule matches, and what no rule disallows is allowed\n" +
		"RFC 9309  DISALLOW (line 2: Disallow: /%7Ejoe/)\n" +
		"          RFC 9309 decodes %-escaped letters, digits and -._~, as %7E to ~\n" +
		"          before it compares rules and paths; Google's parser compares them as written\n"
	if r.code != exitOK || !strings.Contains(r.stdout, want) {
		t.Errorf("exit %d, stdout:\n%s\nwant %q", r.code, r.stdout, want)
	}
	if r := runCmd(t, body, "test", "-file", "-", "-rfc9309", "/~joe/x"); r.code != exitDisallowed {
		t.Errorf("test -rfc9309: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestExplainModesDifferOnSpecials: RFC 9309 matches a path's '*' and
// '$' as %2A and %24, which no escape is decoded to: the explanation
// gives that reason, not the decoding of escapes, in both modes.
func TestExplainModesDifferOnSpecials(t *testing.T) {
	body := "User-agent: *\nDisallow: /a%2Ab\n"
	r := runCmd(t, body, "explain", "-file", "-", "/a*b")
	want := "RFC 9309  DISALLOW (line 2: Disallow: /a%2Ab)\n" +
		"          RFC 9309 reads * and $ in the path as %2A and %24\n"
	if r.code != exitOK || !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "decodes") {
		t.Errorf("exit %d, stdout:\n%s\nwant %q", r.code, r.stdout, want)
	}
	r = runCmd(t, body, "explain", "-file", "-", "-rfc9309", "/a*b")
	want = "path      /a*b, compared as /a%2Ab (RFC 9309 reads * and $ in the path as %2A and %24)\n"
	if r.code != exitDisallowed || !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "decodes") {
		t.Errorf("-rfc9309: exit %d, stdout:\n%s\nwant %q", r.code, r.stdout, want)
	}
	// Google's reading decides by the path a server serves, /p*, whose
	// '*' RFC 9309 reads as %2A (cli84): not by an escape, which neither
	// the URL nor a rule holds.
	body = "User-agent: *\nAllow: /p%2A\nDisallow: /p\n"
	for _, args := range [][]string{{"explain", "-file", "-", "/p%2A"}, {"explain", "-file", "-", "-rfc9309", "/p%2A"}} {
		r = runCmd(t, body, args...)
		want = "          RFC 9309 reads * and $ in the path as %2A and %24\n"
		if !strings.Contains(r.stdout, "served as /p*") || !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "decodes") {
			t.Errorf("%v: stdout:\n%s\nwant %q", args, r.stdout, want)
		}
	}
	// Here the rule's escape decides, not the path's '*'.
	r = runCmd(t, "User-agent: *\nDisallow: /%7Ea*$\n", "explain", "-file", "-", "/~ab*")
	want = "          RFC 9309 decodes %-escaped letters, digits and -._~, as %7E to ~\n"
	if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "%2A and %24") {
		t.Errorf("stdout:\n%s\nwant %q", r.stdout, want)
	}
	// A rule's '$' before its end, which RFC 9309 weighs as %24, decides
	// (cli86): no escape, in either mode.
	body = "User-agent: *\nAllow: /x$y\nDisallow: /x*yz\n"
	for _, args := range [][]string{{"explain", "-file", "-", "/x$yz"}, {"explain", "-file", "-", "-rfc9309", "/x$yz"}} {
		r = runCmd(t, body, args...)
		want = "          RFC 9309 reads a rule's $ before its end as %24, three bytes in precedence\n"
		if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "decodes") {
			t.Errorf("%v: stdout:\n%s\nwant %q", args, r.stdout, want)
		}
	}
	// The rule's escape decides, not its '$' (review151).
	r = runCmd(t, "User-agent: *\nDisallow: /%61$b\n", "explain", "-file", "-", "/a$b")
	if !strings.Contains(r.stdout, "RFC 9309 decodes") || strings.Contains(r.stdout, "rule's $") {
		t.Errorf("stdout:\n%s\nwant the escape named, not the '$'", r.stdout)
	}
	// A path's lower-case escape is upper-cased, not decoded: the rule's
	// '$' still decides (review152); and the upper-casing alone can.
	r = runCmd(t, "User-agent: *\nDisallow: /x$y%2a\n", "explain", "-file", "-", "/x%24y%2a")
	if !strings.Contains(r.stdout, "RFC 9309  DISALLOW") || !strings.Contains(r.stdout, "rule's $") || strings.Contains(r.stdout, "decodes") {
		t.Errorf("stdout:\n%s\nwant the rule's '$' named, and no decoding", r.stdout)
	}
	r = runCmd(t, "User-agent: *\nAllow: /a%2a\nDisallow: /a\n", "explain", "-file", "-", "/a%2ab")
	if !strings.Contains(r.stdout, "RFC 9309  ALLOW") || !strings.Contains(r.stdout, "upper-cases the hex digits") || strings.Contains(r.stdout, "decodes") {
		t.Errorf("stdout:\n%s\nwant the upper-casing named, and no decoding", r.stdout)
	}
	// Only the usage differs, by a Content-Usage rule's '$': no reason
	// the access rules hold (review151).
	r = runCmd(t, "User-agent: *\nAllow: /\nContent-Usage: /x$y train-ai=y\nContent-Usage: /x*yz train-ai=n\n", "explain", "-file", "-", "/x$yz")
	if !strings.Contains(r.stdout, "but usage train-ai=y") || strings.Contains(r.stdout, "decodes") {
		t.Errorf("stdout:\n%s\nwant the usage told apart, with no false reason", r.stdout)
	}
}

// TestExplainUserinfoWithSemicolon: a ';' in a URL's userinfo starts no
// path, as the Client reads it: explain names the rule the Client
// decided by (it once panicked, finding no match), and test's usage is
// the path's.
func TestExplainUserinfoWithSemicolon(t *testing.T) {
	const rules = "User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /pub train-ai=n\nDisallow: /private\n"
	r := runCmd(t, rules, "explain", "-file", "-", "http://u;x@h.test/private")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "Disallow: /private") {
		t.Errorf("explain: exit %d, stdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, rules, "test", "-file", "-", "http://u;x@h.test/pub")
	if r.code != exitOK || !strings.Contains(r.stdout, "usage train-ai=n") {
		t.Errorf("test: exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestExplainServedDoubleSlash: a served form that starts with "//" is
// a path, not a scheme-relative URL: explain lists the rule that decided
// by it (it once panicked, finding no match).
func TestExplainServedDoubleSlash(t *testing.T) {
	r := runCmd(t, "User-agent: *\nDisallow: /*%7E\nAllow: /\n", "explain", "-file", "-", "//%7ex")
	for _, want := range []string{"served as //%7Ex", "line 2    Disallow: /*%7E", "decision  DISALLOW by line 2"} {
		if r.code != exitDisallowed || !strings.Contains(r.stdout, want) {
			t.Errorf("exit %d, stdout:\n%s\nstderr: %s\nwant %q", r.code, r.stdout, r.stderr, want)
		}
	}
}

// TestExplainPastLimit: explain gives the last line crawlers read of a
// file over the limit, as lint does, whether the limit falls at a line's
// end, after it or within the next line.
func TestExplainPastLimit(t *testing.T) {
	const rule = "Disallow: /a"
	for _, short := range []int{0, 1, 5} { // bytes from the rule's end to the limit
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for b.Len() < crawlerLimit-1000 {
			b.WriteString("# " + strings.Repeat("p", 97) + "\n")
		}
		b.WriteString("#" + strings.Repeat("p", crawlerLimit-short-len(rule)-b.Len()-2) + "\n")
		n := strings.Count(b.String(), "\n") + 1 // the rule's line
		body := b.String() + rule + "\nDisallow: /b\n"
		if r := runCmd(t, body, "test", "-file", "-", "/a"); r.code != exitDisallowed {
			t.Errorf("limit %d bytes past the rule: the Client did not read it: %s", short, r.stdout)
		}
		r := runCmd(t, body, "explain", "-file", "-", "/b")
		if want := fmt.Sprintf("crawlers read (up to line %d);", n); !strings.Contains(r.stdout, want) {
			t.Errorf("limit %d bytes past the rule: stdout lacks %q:\n%s", short, want, r.stdout)
		}
		r = runCmd(t, body, "lint", "-")
		if want := fmt.Sprintf("crawlers read the first 500 KiB (to line %d)", n); !strings.Contains(r.stdout, want) {
			t.Errorf("lint, limit %d bytes past the rule: stdout lacks %q:\n%s", short, want, r.stdout)
		}
	}
}

// TestExplainModesDifferOnUsage: "RFC 9309 reads it the same way" must
// not be said of a URL whose usage preferences RFC 9309 reads otherwise:
// a Content-Usage rule written with an escape RFC 9309 decodes states
// train-ai=n for /~joe/x there, and nothing in Google's reading.
func TestExplainModesDifferOnUsage(t *testing.T) {
	body := "User-agent: *\nAllow: /\nContent-Usage: /%7Ejoe/ train-ai=n\n"
	// What a Client in each mode says of the URL.
	type usageOnly struct {
		Usage map[string]string `json:"usage"`
	}
	var google, rfc usageOnly
	for _, m := range []struct {
		res  *usageOnly
		args []string
	}{{&google, nil}, {&rfc, []string{"-rfc9309"}}} {
		r := runCmd(t, body, append([]string{"test", "-json", "-file", "-", "/~joe/x"}, m.args...)...)
		if err := json.Unmarshal([]byte(r.stdout), m.res); err != nil {
			t.Fatalf("%v: %q", err, r.stdout)
		}
	}
	if google.Usage["train-ai"] == rfc.Usage["train-ai"] {
		t.Fatalf("the modes agree: %v, %v", google.Usage, rfc.Usage)
	}
	for _, args := range [][]string{{}, {"-rfc9309"}} {
		r := runCmd(t, body, append([]string{"explain", "-file", "-", "/~joe/x"}, args...)...)
		if strings.Contains(r.stdout, "reads it the same way") {
			t.Errorf("explain %v: Google's usage %v, RFC 9309's %v, yet:\n%s", args, google.Usage, rfc.Usage, r.stdout)
		}
	}
}

// TestExplainModesServedRobotsTxt: a URL a server serves as /robots.txt
// (/a/../robots.txt, //robots.txt) that Google's reading disallows by the
// rule of /robots.txt, RFC 9309 allows because it always allows
// /robots.txt, not because it decodes escapes the URL does not have.
func TestExplainModesServedRobotsTxt(t *testing.T) {
	body := "User-agent: *\nDisallow: /robots.txt\n"
	for _, u := range []string{"/a/../robots.txt", "//robots.txt", "/./robots.txt"} {
		for _, args := range [][]string{{}, {"-rfc9309"}} {
			r := runCmd(t, body, append([]string{"explain", "-file", "-", u}, args...)...)
			if !strings.Contains(r.stdout, "RFC 9309 always allows /robots.txt") || strings.Contains(r.stdout, "decodes %-escaped") {
				t.Errorf("explain %v %s:\n%s", args, u, r.stdout)
			}
		}
	}
}

// TestExplainLiveStaleCopy: explain without -file answers as check does
// for a URL whose robots.txt expired and now fails: the Client answers
// from its last good copy, marked Stale, and check says "stale copy";
// explain, which reads the held document again, must say so too. The
// command's Clients run on the real clock, whose shortest freshness is a
// minute: this test runs explain's own steps (eachURL's fetch, then the
// explainer) on a fetcher whose Client runs two minutes ahead for the
// second URL.
func TestExplainLiveStaleCopy(t *testing.T) {
	var fails atomic.Bool
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			fmt.Fprintln(w, "page")
			return
		}
		if fails.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", "max-age=0") // fresh for the Client's least: a minute
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	}))
	defer s.Close()
	var ahead atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	// As eachURL configures its fetcher, with the clock.
	f := newFetcher(fetchConfig{userAgent: defaultUserAgent, timeout: 5 * time.Second, whole: true,
		opts: []robotstxt.Option{robotstxt.WithProductTokens(defaultAgent), robotstxt.WithMode(robotstxt.ModeGoogle), robotstxt.WithClock(clock)}})
	defer f.close()
	if _, doc, err := f.read(context.Background(), s.URL+"/private/x"); doc == nil {
		t.Fatal(err)
	}
	fails.Store(true)
	ahead.Store(int64(2 * time.Minute)) // past the minute a copy is fresh at least
	u := s.URL + "/private/z"
	d, doc, err := f.read(context.Background(), u)
	if doc == nil {
		t.Fatal(err)
	}
	if !d.Stale || d.LastStatus != http.StatusServiceUnavailable {
		t.Fatalf("the Client's answer is not from a stale copy: %+v", d)
	}
	var out bytes.Buffer
	x := newExplainer(doc, defaultAgent, robotstxt.ModeGoogle, false, env{stdout: &out, stderr: &out})
	defer x.close()
	targets, err := parseTargets([]string{u}, false)
	if err != nil {
		t.Fatal(err)
	}
	res := x.explanation(x.check(targets[0]))
	code := x.explain(targets[0])
	if !strings.Contains(res.Detail, "stale") || !strings.Contains(out.String(), "stale") {
		t.Errorf("the Client answers from a stale copy (its server now answers 503); explain (exit %d) says:\n%s\n-json detail %q",
			code, out.String(), res.Detail)
	}
}
