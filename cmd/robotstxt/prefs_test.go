package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// usageBody has Content-Usage rules and a Content-Signal record for every
// crawler.
const usageBody = `User-agent: *
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Usage: /ai-ok/ search=n
Content-Usage: /bad/ Train-AI=n
Content-Signal: ai-train=no, search=yes

User-agent: PlainBot
Disallow: /x
`

func TestTestShowsUsage(t *testing.T) {
	r := runCmd(t, usageBody, "test", "-file", "-", "/", "/private/x", "/ai-ok/x", "/bad/x")
	want := []string{
		"ALLOW     /           (no rule matched)",
		"          usage train-ai=n  (line 3: Content-Usage: train-ai=n)",
		"          signal train-ai=n, search=y  (line 7: Content-Signal: ai-train=no, search=yes)",
		"DISALLOW  /private/x  (line 2: Disallow: /private/)",
		"ALLOW     /ai-ok/x    (no rule matched)",
		"          usage train-ai=y, search=n  (lines 4 and 5: their paths match with the same length: they combine, n before y)",
		"          signal train-ai=n, search=y  (line 7: Content-Signal: ai-train=no, search=yes)",
		"ALLOW     /bad/x      (no rule matched)",
		`          usage unknown  (line 6: Content-Usage: /bad/ Train-AI=n; line 6: the statement "Train-AI=n" is not a Dictionary of RFC 9651 (sfv: offset 0: want a key, which starts with a lower-case letter or '*' (found "T")): every preference of this rule is unknown)`,
		"          signal train-ai=n, search=y  (line 7: Content-Signal: ai-train=no, search=yes)",
	}
	if got := outputLines(r.stdout); !slices.Equal(got, want) {
		t.Errorf("output:\n%s\nwant:\n%s", r.stdout, strings.Join(want, "\n"))
	}
	// A crawler whose groups have neither gets the one line it had.
	r = runCmd(t, usageBody, "test", "-file", "-", "-agent", "PlainBot", "/")
	if got := outputLines(r.stdout); len(got) != 1 {
		t.Errorf("PlainBot:\n%s", r.stdout)
	}
}

func TestExplainShowsUsage(t *testing.T) {
	r := runCmd(t, usageBody, "explain", "-file", "-", "/ai-ok/x")
	for _, want := range []string{
		"\nusage     train-ai=y, search=n (lines 4 and 5: their paths match with the same length: they combine, n before y)\n" +
			"          line 4: Content-Usage: /ai-ok/ train-ai=y\n" +
			"          line 5: Content-Usage: /ai-ok/ search=n\n" +
			"signal    train-ai=n, search=y (line 7: Content-Signal: ai-train=no, search=yes)\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	for url, want := range map[string]string{
		"/private/x": "usage     unknown (disallowed: preferences apply only to URLs the crawler may fetch)",
		"/bad/x":     "          line 6: the statement \"Train-AI=n\" is not a Dictionary of RFC 9651 (sfv: offset 0",
	} {
		if r := runCmd(t, usageBody, "explain", "-file", "-", url); !strings.Contains(r.stdout, want) {
			t.Errorf("%s: output lacks %q:\n%s", url, want, r.stdout)
		}
	}
	r = runCmd(t, "User-agent: *\nContent-Usage: /a/ train-ai=n\n", "explain", "-file", "-", "/b")
	if !strings.Contains(r.stdout, "usage     unknown (no Content-Usage rule of these groups matches /b)") {
		t.Errorf("no rule matches:\n%s", r.stdout)
	}
	// RFC 9309 mode matches the rules as it reads them.
	body := "User-agent: *\nContent-Usage: /%7Efred/ train-ai=n\n"
	if r := runCmd(t, body, "explain", "-file", "-", "-rfc9309", "/~fred/x"); !strings.Contains(r.stdout, "usage     train-ai=n (line 2") {
		t.Errorf("RFC 9309:\n%s", r.stdout)
	}
	if r := runCmd(t, body, "explain", "-file", "-", "/~fred/x"); !strings.Contains(r.stdout, "usage     unknown (no Content-Usage rule") {
		t.Errorf("Google:\n%s", r.stdout)
	}
}

// TestUsageOutputIsPrintable: what the file says reaches the terminal
// escaped.
func TestUsageOutputIsPrintable(t *testing.T) {
	body := "User-agent: *\nContent-Usage: /a train-ai=n\x1b[31m\u202e\nContent-Signal: ai-train=no\x1b]52;c;x\x07\n"
	for _, args := range [][]string{
		{"test", "-file", "-", "/a"},
		{"explain", "-file", "-", "/a"},
		{"lint", "-"},
	} {
		r := runCmd(t, body, args...)
		if strings.ContainsAny(r.stdout, "\x1b\x07\u202e") {
			t.Errorf("%s prints control characters:\n%q", args[0], r.stdout)
		}
		if args[0] != "lint" && !strings.Contains(r.stdout, `\x1b`) {
			t.Errorf("%s does not show the usage line:\n%s", args[0], r.stdout)
		}
	}
}

// TestTestAndLintAgree checks that what test says of a statement's
// values other than y and n, and labels outside the vocabulary, is what
// lint says: the same notes, and for the vocabulary's labels no
// preference shown where lint finds none.
func TestTestAndLintAgree(t *testing.T) {
	for _, stmt := range []string{
		"train-ai=yes",
		"train-ai=n, search=yes",
		`train-ai="n"`,
		"train-ai",
		"train-ai=(n)",
		"train-ai=?1",
		"train-ai=N, search=Y",
		"train-ai=n, train-ai=maybe",
		"train-ai=n, train-ai=y",
		"train-ai=maybe, train-ai=n",
		"train-ai=n;q=yes, ai=n, genai=y, bots=n, x=1",
		"Train-AI=n",
	} {
		body := "User-agent: *\nAllow: /\nContent-Usage: " + stmt + "\n"
		var fromLint []string
		for _, f := range lintText(t, body) {
			if f.Code == codeUsageValue || f.Code == codeUsageRepeated || f.Code == codeUsageLabel || f.Code == codeUsageSyntax {
				fromLint = append(fromLint, "line 3: "+f.Message)
			}
		}
		r := runCmd(t, body, "test", "-file", "-", "/x")
		lines := outputLines(r.stdout)
		if len(lines) != 2 {
			t.Fatalf("%s: test printed\n%s", stmt, r.stdout)
		}
		_, detail, _ := strings.Cut(lines[1], "(")
		notes := strings.Split(strings.TrimSuffix(detail, ")"), "; ")[1:]
		if !slices.Equal(notes, fromLint) {
			t.Errorf("%s: test notes %q, lint %q", stmt, notes, fromLint)
		}
		u := robotstxt.Parse([]byte(body)).Usage(defaultAgent, "/x")
		shown := strings.Fields(lines[1])[1]
		for _, l := range labels {
			if stated := u.Pref(l) != robotstxt.PrefUnknown; strings.Contains(shown, l+"=") != stated {
				t.Errorf("%s: test shows %s; Robots.Usage states %s: %v", stmt, lines[1], l, stated)
			}
		}
	}
	// The case: train-ai=yes is unknown in both, with the reason.
	body := "User-agent: *\nContent-Usage: train-ai=yes\n"
	want := "usage unknown  (line 2: Content-Usage: train-ai=yes; line 2: train-ai=yes states no preference: only the Tokens y and n count)"
	if r := runCmd(t, body, "test", "-file", "-", "/x"); !strings.Contains(r.stdout, want) {
		t.Errorf("test:\n%s\nwant %q", r.stdout, want)
	}
	if fs := lintText(t, body); len(fs) != 1 || fs[0].Code != codeUsageValue || fs[0].Message != "train-ai=yes states no preference: only the Tokens y and n count" {
		t.Errorf("lint: %+v", fs)
	}
}

// TestUsageNotesOfManyLabels checks that the notes of the longest statement,
// with thousands of labels outside the vocabulary, name a few of them in
// one note.
func TestUsageNotesOfManyLabels(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < parser.MaxLineLength-40; i++ {
		fmt.Fprintf(&b, "l%d=n,", i)
	}
	b.WriteString("train-ai=n")
	notes := usageNotes(b.String())
	if len(notes) != 1 || notes[0].code != codeUsageLabel || !strings.HasPrefix(notes[0].text, `labels "l0", "l1", "l2" and `) {
		t.Errorf("notes %+v", notes)
	}
}

// TestUsageOfServedForms: the usage line combines the Content-Usage rules
// that decide for the URL and for each path a server may serve it as, as
// the Client does, so that text and -json agree.
func TestUsageOfServedForms(t *testing.T) {
	const body = "User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /secret/ train-ai=n\nContent-Usage: /~fred/ train-ai=n\n"
	for _, tc := range []struct {
		url   string
		mode  []string
		lines string
	}{
		{"/x/../secret/page", nil, "lines 2 and 3: they decide for the URL or a path a server may serve it as"},
		{"/x/../secret/page", []string{"-rfc9309"}, "lines 2 and 3: they decide for the URL or a path a server may serve it as"},
		{"/%7Efred/x", nil, "lines 2 and 4: they decide for the URL or a path a server may serve it as"},
		{"/%7Efred/x", []string{"-rfc9309"}, "line 4: Content-Usage: /~fred/ train-ai=n"}, // read as /~fred/x
		{"/public/x", nil, "line 2: Content-Usage: train-ai=y"},
	} {
		mode := tc.mode
		args := append(append([]string{"test", "-file", "-"}, mode...), tc.url)
		r := runCmd(t, body, args...)
		want := "usage train-ai=n"
		if tc.url == "/public/x" {
			want = "usage train-ai=y"
		}
		if lines := outputLines(r.stdout); len(lines) < 2 || !strings.Contains(lines[1], want) || !strings.Contains(lines[1], tc.lines) {
			t.Errorf("%q: stdout:\n%s\nwant %q (%s)", args, r.stdout, want, tc.lines)
		}
		js := runCmd(t, body, append(append([]string{"test", "-json", "-file", "-"}, mode...), tc.url)...)
		if !strings.Contains(js.stdout, `"train-ai":"`+want[len(want)-1:]+`"`) {
			t.Errorf("%q -json: %s", args, js.stdout)
		}
	}
	// A yes only one form is given is none: the forms agree as the
	// Client reads them.
	const forms = "User-agent: *\nContent-Usage: /public/ train-ai=y, search=y\nContent-Usage: /private/ search=y\n"
	r := runCmd(t, forms, "test", "-file", "-", "/public/../private/doc")
	if lines := outputLines(r.stdout); len(lines) < 2 || !strings.Contains(lines[1], "usage search=y ") ||
		!strings.Contains(lines[1], "a yes only if every one is given it") {
		t.Errorf("a yes of one form: stdout:\n%s\nwant usage search=y", r.stdout)
	}
}

// TestLabelsAreTheClients: the labels the command lists as read are
// those a Client reads, the labels Content Signals' keys become in its
// Usage (ai-train is train-ai), and no other.
func TestLabelsAreTheClients(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nAllow: /\nContent-Signal: ai-train=no, search=no, ai-input=no\n"))
	b, err := json.Marshal(r.Usage("ExampleBot", "/x"))
	if err != nil {
		t.Fatal(err)
	}
	var read map[string]string
	if err := json.Unmarshal(b, &read); err != nil {
		t.Fatal(err)
	}
	if len(read) != len(labels) {
		t.Errorf("the Client reads %v; the command lists %q", read, labels)
	}
	for _, l := range labels {
		if read[l] != "n" {
			t.Errorf("the command lists %s; the Client reads %v", l, read)
		}
	}
}

// FuzzPrefsAgreeWithClient: the preferences the linter shows for a
// statement, for two statements combined, and for two forms of a path
// agreed on, are those the library reads, label by label: Robots.Usage of
// a file holding the statements, and the Decision of a check whose path
// is spelled otherwise than served, each form under a statement of its
// own.
func FuzzPrefsAgreeWithClient(f *testing.F) {
	f.Add("train-ai=n, search=y", "search=n, x=y", false)
	f.Add("search=yes, ai-train=no", "ai-input=yes", true)
	f.Add("a, b=?0, c=\"n\", train-ai=y;q=1", "a=n", false)
	f.Add("train-ai=y, search=y", "train-ai=y, ai-use=n", false)
	f.Add("ai-train=yes, search=no", "search=yes", true)
	f.Fuzz(func(t *testing.T, a, b string, signal bool) {
		for _, stmt := range []string{a, b} {
			// Only what a robots.txt line holds as written: no comment,
			// no line end, nothing trimmed, no path before it.
			if stmt == "" || stmt != strings.TrimSpace(stmt) || strings.ContainsAny(stmt, "#\r\n\x00") ||
				stmt[0] == '/' || !utf8.ValidString(stmt) || len(stmt) > 2000 {
				return
			}
		}
		key, line := "content-usage", "Content-Usage: "
		if signal {
			key, line = "content-signal", "Content-Signal: "
		}
		pa, _ := readPrefs(key, a)
		pb, _ := readPrefs(key, b)
		usageOf := func(lines ...string) robotstxt.Usage {
			return robotstxt.Parse([]byte("User-agent: *\n"+strings.Join(lines, "\n")+"\n")).Usage("FuzzBot", "/a/b")
		}
		labels := slices.Concat(pa.labels, pb.labels) // of both statements, whatever p kept
		same := func(what string, p prefs, u robotstxt.Usage) {
			t.Helper()
			var lib map[string]string // and those the library holds
			if b, err := json.Marshal(u); err != nil || json.Unmarshal(b, &lib) != nil {
				t.Fatalf("Usage %q as JSON: %s, %v", u, b, err)
			}
			for _, l := range slices.Concat(labels, slices.Collect(maps.Keys(lib))) {
				cli := p.value[l]
				if cli != "y" && cli != "n" {
					cli = ""
				}
				lib := map[robotstxt.Pref]string{robotstxt.PrefYes: "y", robotstxt.PrefNo: "n"}[u.Pref(l)]
				if cli != lib {
					t.Fatalf("%s %s: linter %s=%q, the library %q", key, what, l, p.value[l], u)
				}
			}
		}
		same(fmt.Sprintf("%q", a), pa, usageOf(line+a))
		same(fmt.Sprintf("%q", b), pb, usageOf(line+b))
		comb := prefs{labels: slices.Clone(pa.labels), value: maps.Clone(pa.value)}
		comb.combine(pb)
		same(fmt.Sprintf("%q + %q", a, b), comb, usageOf(line+a, line+b))
		if signal {
			return // a Content-Signal record has no path, nor forms to agree
		}
		// "/a/./b" is checked as written, under /a/./'s statement a, and
		// as served, "/a/b", under b.
		robots := "User-agent: *\nContent-Usage: /a/./ " + a + "\nContent-Usage: /a/b " + b + "\n"
		c := robotstxt.NewClient(robotstxt.WithUserAgent("FuzzBot/1.0"), robotstxt.WithHTTPClient(&http.Client{Transport: serveRobots(robots)}))
		defer c.Close()
		d, err := c.Check(context.Background(), "http://fuzz.test/a/./b")
		if err != nil {
			t.Fatal(err)
		}
		same(fmt.Sprintf("%q ~ %q", a, b), pa.agree(pb), d.Usage)
	})
}

// serveRobots is a RoundTripper that answers every request, in the
// process, with robots as a robots.txt.
type serveRobots string

func (s serveRobots) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", "text/plain")
	_, _ = rec.WriteString(string(s))
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// TestUsagePastFormsBoundAsClient checks that the usage line that test,
// explain and check print for a URL spelled otherwise than served (its
// forms checked against many wildcard Content-Usage rules) says what the
// Client's Decision.Usage and the page's receipt say: past the bound of
// that check, the Client fails closed with train-ai=n, where the lines
// said y, or nothing matched (unknown).
func TestUsagePastFormsBoundAsClient(t *testing.T) {
	path := "/./" + strings.Repeat("a", 8150) // a dot segment: its served form is checked too
	for name, robots := range map[string]string{
		"a yes matches": "User-agent: *\nContent-Usage: train-ai=y\n" + strings.Repeat("Content-Usage: /*q x\n", 24000),
		"none matches":  "User-agent: *\n" + strings.Repeat("Content-Usage: /*q x\n", 24000),
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				w.Write([]byte(robots))
				return
			}
			w.Write([]byte("a page"))
		}))
		url := srv.URL + path
		c, _ := libraryClient(t)
		d, err := c.Check(context.Background(), url)
		if err != nil || !d.Allowed || d.Usage.Pref("train-ai") != robotstxt.PrefNo {
			t.Fatalf("%s: the Client: allowed %v, train-ai %v, %v; the test wants an allowed URL with train-ai=n", name, d.Allowed, d.Usage.Pref("train-ai"), err)
		}
		for _, args := range [][]string{
			{"test", "-file", srv.URL + "/robots.txt", url},
			{"explain", url},
			{"check", url},
		} {
			r := runCmd(t, "", args...)
			if out := strings.ReplaceAll(r.stdout, strings.Repeat("a", 8150), "a…"); !strings.Contains(out, "train-ai=n") {
				t.Errorf("%s: %s: exit %d; no train-ai=n where the Client says train-ai=n:\n%s", name, args[0], r.code, out)
			}
		}
		srv.Close()
	}
}

// TestUsageSpeaksForItsRun: test shows a crawler the Content-Usage rules
// and Content-Signal records that speak for it, as the library reads
// them: a crawler whose user-agent line joins the group of another's
// statements obeys the group's rules but not those statements' yes
// (consent80: the command, like the Client, gave ExampleBot GPTBot's
// train-ai=y), and their refusals (consent84: GPTBot lost line 8's
// search=n); and over drawn files, the preferences test shows are
// Robots.Usage's.
func TestUsageSpeaksForItsRun(t *testing.T) {
	const body = "User-agent: GPTBot\nContent-Usage: train-ai=y\nContent-Signal: search=yes\n\n" +
		"User-agent: ExampleBot\nUser-agent: *\nDisallow: /private/\nContent-Usage: search=n\n"
	for _, tc := range []struct {
		agent string
		want  []string
	}{
		{"ExampleBot", []string{"ALLOW     /  (no rule matched)", "          usage search=n  (line 8: Content-Usage: search=n)"}},
		{"OtherBot", []string{"ALLOW     /  (no rule matched)", "          usage search=n  (line 8: Content-Usage: search=n)"}},
		{"GPTBot", []string{"ALLOW     /  (no rule matched)",
			"          usage train-ai=y, search=n  (lines 2 and 8: they decide for the URL, for this crawler or for others of its group: they combine, n before y; line 8 speaks for other crawlers of this group, whose rules this one obeys: only its refusals count)",
			"          signal search=y  (line 3: Content-Signal: search=yes)"}},
	} {
		r := runCmd(t, body, "test", "-file", "-", "-agent", tc.agent, "/")
		if got := outputLines(r.stdout); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.agent, r.stdout, strings.Join(tc.want, "\n"))
		}
	}
	agents := []string{"*", "FooBot", "BarBot"}
	lines := []string{"Allow: /a", "Disallow: /b", "Content-Usage: train-ai=y", "Content-Usage: /a train-ai=n", "Content-Signal: search=yes", "Content-Signal: ai-train=no"}
	rnd := rand.New(rand.NewPCG(80, 1))
	for range 200 {
		var b strings.Builder
		for range 1 + rnd.IntN(6) {
			b.WriteString("User-agent: " + agents[rnd.IntN(len(agents))] + "\n")
			for range rnd.IntN(3) {
				b.WriteString(lines[rnd.IntN(len(lines))] + "\n")
			}
		}
		robots := robotstxt.Parse([]byte(b.String()))
		f := parse([]byte(b.String()), robotstxt.ModeGoogle)
		for _, agent := range []string{"FooBot", "BarBot", "Other"} {
			for _, path := range []string{"/a", "/c"} {
				want := robots.Usage(agent, path)
				var got prefs
				for _, it := range prefItems(f, agent, path, robots.Allowed(agent, path), want) {
					stated, _ := readPrefs("content-usage", strings.ReplaceAll(it.prefs, "unknown", ""))
					got.combine(stated)
				}
				for _, l := range labels {
					if got.pref(l) != want.Pref(l) {
						t.Fatalf("%s %s: test shows %s=%v, Robots.Usage %v\n%s", agent, path, l, got.pref(l), want.Pref(l), b.String())
					}
				}
			}
		}
	}
}

// TestTestShowsACutRuleReadsAsRefusal: test shows a Content-Usage rule
// cut at a NUL byte as the Client reads it, train-ai=n, and says why: a
// cut rule, stating nothing, took the file-wide refusal from its path.
func TestTestShowsACutRuleReadsAsRefusal(t *testing.T) {
	body := "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /page train-ai=y\x00, junk\n"
	r := runCmd(t, body, "test", "-file", "-", "/page")
	if lines := outputLines(r.stdout); len(lines) != 2 || !strings.Contains(lines[1], "usage train-ai=n ") ||
		!strings.Contains(lines[1], "line 3 is cut short: its statement reads as its refusals and train-ai=n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	if p := robotstxt.Parse([]byte(body)).Usage(defaultAgent, "/page").Pref("train-ai"); p != robotstxt.PrefNo {
		t.Errorf("the Client reads train-ai=%v", p)
	}
	// Past the parser's 1,000 diagnostics too (cli81).
	many := "User-agent: *\n" + strings.Repeat("Frobnicate: x\n", 1001) + "Content-Usage: /page train-ai=y\x00, junk\n"
	if r := runCmd(t, many, "test", "-file", "-", "/page"); !strings.Contains(r.stdout, "line 1003 is cut short") {
		t.Errorf("past 1,000 diagnostics, stdout:\n%s", r.stdout)
	}
}

// TestUsagePastFormsBoundDropsAYes: past the Client's bound on the forms
// a server may serve a path as, the Client keeps train-ai=n and drops a
// yes the forms it did not read may lack; test showed that yes (cli81).
func TestUsagePastFormsBoundDropsAYes(t *testing.T) {
	path := "/./" + strings.Repeat("a", 8150) // a dot segment: its served form is checked too
	robots := "User-agent: *\nContent-Usage: train-ai=y, search=y\n" + strings.Repeat("Content-Usage: /*q x\n", 24000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(robots))
	}))
	defer srv.Close()
	c, _ := libraryClient(t)
	d, err := c.Check(context.Background(), srv.URL+path)
	if err != nil || d.Usage.Pref("search") != robotstxt.PrefUnknown || d.Usage.Pref("train-ai") != robotstxt.PrefNo {
		t.Fatalf("the Client: usage %v, %v; the test wants train-ai=n alone", d.Usage, err)
	}
	r := runCmd(t, "", "test", "-file", srv.URL+"/robots.txt", srv.URL+path)
	if lines := outputLines(r.stdout); len(lines) < 2 || !strings.HasPrefix(strings.Fields(lines[1])[1], "train-ai=n") || strings.Fields(lines[1])[2] != "(line" {
		t.Errorf("test shows\n%s\nwant usage train-ai=n alone, as the Client", strings.ReplaceAll(r.stdout, strings.Repeat("a", 8150), "a…"))
	}
}

// TestUsageLinesBounded: the preferences test prints for a URL of a file
// of 34,000 rules tied for it, or of one run of 15,000 user-agent lines
// over 15,000 rules, cost lines and work linear in the file, as the
// Client's: test printed 3.9 MB for one URL, and compared each rule's
// user-agent lines with the crawler's name (cli81, review128, consent81).
func TestUsageLinesBounded(t *testing.T) {
	r := runCmd(t, "User-agent: *\n"+strings.Repeat("Content-Usage:x\r", 34000), "test", "-file", "-", "/ /%7eab//../%2F")
	if len(r.stdout) > 8<<10 {
		t.Errorf("test printed %d bytes for one URL", len(r.stdout))
	}
	run := func(n int) []byte {
		return []byte(strings.Repeat("User-agent: b\n", n) + "User-agent: *\n" + strings.Repeat("Content-Usage: /x\n", n))
	}
	// allocs returns how many times, and how many bytes, prefItems
	// allocates for body.
	allocs := func(body []byte) (times, bytes uint64) {
		p := parse(body, robotstxt.ModeGoogle)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		prefItems(p, "z", "/x", true, robotstxt.Usage{})
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
	}
	a1, _ := allocs(run(4000))
	if a2, _ := allocs(run(8000)); float64(a2) > 3*float64(a1) {
		t.Errorf("prefItems allocated %d times for 4,000 rules of a run of 4,000 lines, %d for 8,000: more than linear", a1, a2)
	}
	// A group of a run of n crawlers, the one asked of last, and a run of
	// one line with n statements, whose refusals reach the crawler:
	// each statement copied and searched the group's other lines, which
	// took test seconds a URL (cli85).
	theirs := func(n int) []byte {
		return []byte(strings.Repeat("User-agent: a\n", n) + "User-agent: z\nContent-Usage: train-ai=y\nUser-agent: b\n" +
			strings.Repeat("Content-Usage: x\n", n) + "Disallow: /z\n")
	}
	_, b1 := allocs(theirs(2000))
	if _, b2 := allocs(theirs(4000)); float64(b2) > 3*float64(b1) {
		t.Errorf("prefItems allocated %d bytes for a run of 2,000 lines and one of 2,000 statements, %d for 4,000: more than linear", b1, b2)
	}
}

// TestUsagePastFormsBoundDropsAYesWhenRulesSayNo: as
// TestUsagePastFormsBoundDropsAYes, when the deciding rule, or a
// Content-Signal record, refuses training itself (review129: test showed
// the search=y the Client dropped).
func TestUsagePastFormsBoundDropsAYesWhenRulesSayNo(t *testing.T) {
	path := "/./" + strings.Repeat("a", 8150) // a dot segment: its served form is checked too
	for name, head := range map[string]string{
		"rule says train-ai=n":    "User-agent: *\nContent-Usage: train-ai=n, search=y\n",
		"signal says ai-train=no": "User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: train-ai=y, search=y\n",
	} {
		robots := head + strings.Repeat("Content-Usage: /*q x\n", 24000)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(robots))
		}))
		c, _ := libraryClient(t)
		d, err := c.Check(context.Background(), srv.URL+path)
		if err != nil || d.Usage.Pref("search") != robotstxt.PrefUnknown || d.Usage.Pref("train-ai") != robotstxt.PrefNo {
			t.Fatalf("%s: the Client: usage %v, %v; the test wants train-ai=n alone", name, d.Usage, err)
		}
		r := runCmd(t, "", "test", "-file", srv.URL+"/robots.txt", srv.URL+path)
		j := runCmd(t, "", "test", "-json", "-file", srv.URL+"/robots.txt", srv.URL+path)
		srv.Close()
		lines := outputLines(r.stdout)
		if len(lines) < 2 || strings.Contains(strings.Split(lines[1], "(")[0], "search=y") {
			t.Errorf("%s: the Client gives %q (search dropped past its bound); test shows\n%s\n-json: %s", name, d.Usage,
				strings.ReplaceAll(r.stdout, strings.Repeat("a", 8150), "a…"), strings.ReplaceAll(j.stdout, strings.Repeat("a", 8150), "a…"))
		}
	}
}

// TestTestNotesACutSignal: test and explain note a Content-Signal record
// cut short, whose train-ai=n stands beside a line that says
// ai-train=yes (review129), as they note a cut Content-Usage rule.
func TestTestNotesACutSignal(t *testing.T) {
	body := "User-agent: *\nContent-Signal: ai-train=yes, search=yes\x00junk\nAllow: /\n"
	for _, cmd := range []string{"test", "explain"} {
		r := runCmd(t, body, cmd, "-file", "-", "/page")
		if !strings.Contains(r.stdout, "cut short") {
			t.Errorf("%s shows the cut record without saying it is cut:\n%s", cmd, r.stdout)
		}
	}
}
