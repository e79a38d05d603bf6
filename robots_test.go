package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
)

// dpMatch is a reference wildcard matcher, the O(len(pattern)·len(path))
// dynamic programme: '*' is any run of bytes, a final '$' the end of path.
// It is kept separate from the matcher package on purpose.
func dpMatch(pattern, path string) bool {
	if pattern == "" {
		return false
	}
	end := strings.HasSuffix(pattern, "$")
	if end {
		pattern = pattern[:len(pattern)-1]
	}
	ok := make([]bool, len(path)+1) // ok[j]: pattern[:i] matches path[:j]
	ok[0] = true
	for i := 0; i < len(pattern); i++ {
		next := make([]bool, len(path)+1)
		for j := 0; j <= len(path); j++ {
			if pattern[i] == '*' {
				next[j] = ok[j] || (j > 0 && next[j-1])
			} else if j > 0 {
				next[j] = ok[j-1] && path[j-1] == pattern[i]
			}
		}
		ok = next
	}
	if end {
		return ok[len(path)]
	}
	return slices.Contains(ok, true)
}

// refDecide decides a path from the rules that apply, the slow way: every
// rule is matched with dpMatch, an allow of …/index.htm* also as "dir/$",
// and the longest match wins, allow on a tie, the first on a full tie. It
// returns the decision and the line of the deciding rule (0: none).
func refDecide(rules []Rule, path string) (bool, int) {
	bestLen, bestAllow, line := -1, true, 0
	take := func(n int, allow bool, l int) {
		if n > bestLen || (n == bestLen && allow && !bestAllow) {
			bestLen, bestAllow, line = n, allow, l
		}
	}
	for _, r := range rules {
		if dpMatch(r.Pattern, path) {
			take(len(r.Pattern), r.Allow, r.Line)
		}
		if i := strings.LastIndexByte(r.Pattern, '/'); r.Allow && i >= 0 && strings.HasPrefix(r.Pattern[i:], "/index.htm") {
			if dir := r.Pattern[:i+1] + "$"; dpMatch(dir, path) {
				take(len(dir), true, r.Line)
			}
		}
	}
	return bestAllow, line
}

// genBody draws a random robots.txt as lines (without line ends): groups,
// rules over a small alphabet (so that they often match and tie),
// index.html allows, records, comments and junk.
func genBody(r *rand.Rand) []string {
	agents := []string{"*", "FooBot", "foobot", "BarBot/1.0", "bot1", "*x", ""}
	keys := []string{"Disallow", "Allow", "disallow", "allow", "dissallow", "Disallow"}
	var lines []string
	for range r.IntN(16) {
		switch r.IntN(10) {
		case 0, 1:
			lines = append(lines, "User-agent: "+agents[r.IntN(len(agents))])
		case 2, 3, 4, 5:
			p := genPattern(r)
			sep := ": "
			if r.IntN(8) == 0 && p != "" {
				sep = " "
			}
			lines = append(lines, keys[r.IntN(len(keys))]+sep+p)
		case 6:
			lines = append(lines, "Allow: "+genPattern(r)+"/index.html")
		case 7:
			lines = append(lines, []string{"Sitemap: http://x/s.xml", "Crawl-delay: 2", "foo: bar", "Host: x"}[r.IntN(4)])
		case 8:
			lines = append(lines, []string{"", "# comment", "  ", "junk junk junk", "<p>"}[r.IntN(5)])
		case 9:
			lines = append(lines, "  user-agent : "+agents[r.IntN(len(agents))]+" # c")
		}
	}
	return lines
}

func genPattern(r *rand.Rand) string {
	const alphabet = "ab/*$"
	b := []byte{'/'}
	if r.IntN(6) == 0 {
		b = b[:0]
	}
	for range r.IntN(6) {
		b = append(b, alphabet[r.IntN(len(alphabet))])
	}
	return string(b)
}

func genURL(r *rand.Rand) string {
	const alphabet = "ab/ab/?$*"
	b := []byte{'/'}
	for range r.IntN(8) {
		b = append(b, alphabet[r.IntN(len(alphabet))])
	}
	if r.IntN(4) == 0 {
		return "http://example.com" + string(b) + "#frag"
	}
	return string(b)
}

var propAgents = []string{"FooBot", "foobot", "BarBot", "bot", "Other", ""}

// sameVerdict reports whether two verdicts give the same decision with the
// same deciding rule.
func sameVerdict(a, b Verdict) bool {
	return a == b
}

func propRuns(t *testing.T) int {
	if testing.Short() {
		return 300
	}
	return 3000
}

// TestPropertyCheckAgreesWithReference compares Check with refDecide over
// the rules that Rules reports, on random files.
func TestPropertyCheckAgreesWithReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for range propRuns(t) {
		body := strings.Join(genBody(rnd), "\n")
		r := Parse([]byte(body))
		for _, agent := range propAgents {
			rules := r.Rules(agent)
			for range 5 {
				url := genURL(rnd)
				v := r.Check(agent, url)
				allow, line := refDecide(rules, matcher.Path(url))
				if err := verdictMismatch(v, allow, line); err != "" {
					t.Fatalf("Check(%q, %q): %s\nbody: %q", agent, url, err, body)
				}
			}
		}
	}
}

// TestPropertyLineEndings: LF, CRLF and CR give the same decisions, with
// the deciding rule on the same line, and the same diagnostics.
func TestPropertyLineEndings(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 14))
	for range propRuns(t) {
		lines := genBody(rnd)
		var rs []*Robots
		var diags [][]Diagnostic
		for _, nl := range []string{"\n", "\r\n", "\r"} {
			body := []byte(strings.Join(lines, nl) + nl)
			rs = append(rs, Parse(body))
			diags = append(diags, lint(body, ModeGoogle))
		}
		for _, agent := range propAgents {
			for range 4 {
				url := genURL(rnd)
				want := rs[0].Check(agent, url)
				for i, r := range rs[1:] {
					if got := r.Check(agent, url); !sameVerdict(got, want) {
						t.Fatalf("ending %d: Check(%q, %q) = %+v, LF gives %+v\nlines: %q", i+1, agent, url, got, want, lines)
					}
				}
			}
		}
		for _, d := range diags[1:] {
			if !slices.Equal(d, diags[0]) {
				t.Fatalf("diagnostics differ: %v vs %v\nlines: %q", d, diags[0], lines)
			}
		}
	}
}

// TestPropertyNoRulesAllowsAll: a file in which no line is an allow or a
// disallow allows every URL to every crawler, with no deciding rule.
func TestPropertyNoRulesAllowsAll(t *testing.T) {
	rnd := rand.New(rand.NewPCG(15, 16))
	const alphabet = "Uu: \t/*$#ab\r\n\x00\xff-"
	tried := 0
	for range propRuns(t) {
		lines := genBody(rnd)
		lines = slices.DeleteFunc(lines, func(l string) bool {
			k := strings.ToLower(strings.TrimSpace(l))
			return strings.HasPrefix(k, "allow") || strings.HasPrefix(k, "disallow") || strings.HasPrefix(k, "dissallow")
		})
		junk := make([]byte, rnd.IntN(40))
		for i := range junk {
			junk[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		body := strings.Join(lines, "\n") + "\n" + string(junk)
		for l := range parser.Lines(body) {
			if l.Key == parser.KeyAllow || l.Key == parser.KeyDisallow {
				t.Fatalf("generator made a rule: %q", body)
			}
		}
		tried++
		r := Parse([]byte(body))
		for _, agent := range propAgents {
			for range 3 {
				url := genURL(rnd)
				if v := r.Check(agent, url); !v.Allowed || v.Matched() {
					t.Fatalf("Check(%q, %q) = %+v in a file without rules: %q", agent, url, v, body)
				}
			}
		}
	}
	if tried == 0 {
		t.Fatal("no file tried")
	}
}

// TestPropertyAllowAndDisallowSamePattern: when a group holds an allow
// and a disallow of the same pattern, in either order and in any company
// of shorter rules, the URL is allowed.
func TestPropertyAllowAndDisallowSamePattern(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 18))
	for range propRuns(t) {
		p := genPattern(rnd)
		pair := []string{"Disallow: " + p, "Allow: " + p}
		if rnd.IntN(2) == 0 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		lines := []string{"User-agent: *"}
		extra := 0
		for range rnd.IntN(4) {
			// Shorter disallows can never outweigh the pair when it matches.
			if q := genPattern(rnd); len(q) < len(p) {
				lines = append(lines, "Disallow: "+q)
				extra++
			}
		}
		lines = append(lines, pair[0])
		if rnd.IntN(2) == 0 {
			lines = append(lines, "", "User-agent: *") // the pair split across merged groups
		}
		lines = append(lines, pair[1])
		body := strings.Join(lines, "\n")
		r := Parse([]byte(body))
		for range 8 {
			url := genURL(rnd)
			v := r.Check("FooBot", url)
			matches := matcher.Match(matcher.Escape(p), matcher.Path(url))
			if !v.Allowed && (matches || extra == 0) {
				t.Fatalf("Check(%q) = %+v\nbody: %q", url, v, body)
			}
			if matches && (!v.Matched() || !v.Rule.Allow || v.Rule.Pattern != p) {
				t.Fatalf("Check(%q): deciding rule %+v, want the allow %q\nbody: %q", url, v.Rule, p, body)
			}
		}
	}
}

// TestPropertyCommentsChangeNothing: appending a comment to every line
// changes no decision, no deciding rule and no diagnostic.
func TestPropertyCommentsChangeNothing(t *testing.T) {
	rnd := rand.New(rand.NewPCG(19, 20))
	comments := []string{"#", " # comment", "\t#x: y", "# Disallow: /", "#User-agent: *"}
	for range propRuns(t) {
		lines := genBody(rnd)
		commented := make([]string, len(lines))
		for i, l := range lines {
			commented[i] = l + comments[rnd.IntN(len(comments))]
		}
		plain, withComments := []byte(strings.Join(lines, "\n")), []byte(strings.Join(commented, "\n"))
		a, b := Parse(plain), Parse(withComments)
		for _, agent := range propAgents {
			for range 4 {
				url := genURL(rnd)
				if va, vb := a.Check(agent, url), b.Check(agent, url); !sameVerdict(va, vb) {
					t.Fatalf("Check(%q, %q): %+v without comments, %+v with\nlines: %q", agent, url, va, vb, commented)
				}
			}
		}
		if da, db := lint(plain, ModeGoogle), lint(withComments, ModeGoogle); !slices.Equal(da, db) {
			t.Fatalf("diagnostics differ: %v vs %v\nlines: %q", da, db, commented)
		}
		if !slices.Equal(a.Sitemaps(), b.Sitemaps()) {
			t.Fatalf("sitemaps differ: %q vs %q", a.Sitemaps(), b.Sitemaps())
		}
	}
}

// TestPropertyConcurrentChecks: a Robots is safe for concurrent use and
// gives every goroutine the answers a single one gets. Run with -race.
func TestPropertyConcurrentChecks(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	r := Parse([]byte(rfc5_1 + "\nUser-agent: FooBot\nAllow: /a*b$\nDisallow: /a\nCrawl-delay: 1\n"))
	type q struct{ agent, url string }
	var qs []q
	var want []Verdict
	for range 200 {
		x := q{propAgents[rnd.IntN(len(propAgents))], genURL(rnd)}
		qs = append(qs, x)
		want = append(want, r.Check(x.agent, x.url))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range qs {
				j := (i + g*25) % len(qs)
				if v := r.Check(qs[j].agent, qs[j].url); !sameVerdict(v, want[j]) {
					errs <- fmt.Sprintf("goroutine %d: %v: %+v, want %+v", g, qs[j], v, want[j])
					return
				}
				r.Crawler(qs[j].agent).Rules()
				r.CrawlDelay(qs[j].agent)
				r.Sitemaps()
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestParseCopiesBody: the Robots does not change when the caller reuses
// the body's buffer.
func TestParseCopiesBody(t *testing.T) {
	src := "User-agent: FooBot\nDisallow: /private\nSitemap: http://e/s.xml\nCrawl-delay: 3\nfoo: bar\n"
	body := []byte(src)
	r := Parse(body)
	for i := range body {
		body[i] = 'X'
	}
	if v := r.Check(fooBot, "/private/x"); v.Allowed || v.Rule.Pattern != "/private" {
		t.Errorf("after overwriting the body: %+v", v)
	}
	if got := r.Sitemaps(); !slices.Equal(got, []string{"http://e/s.xml"}) {
		t.Errorf("sitemaps after overwriting the body: %q", got)
	}
	if got := r.Extensions(fooBot); len(got) != 2 || got[1].Key != "foo" || got[1].Value != "bar" {
		t.Errorf("extensions after overwriting the body: %v", got)
	}
}

// lint returns the diagnostics of body, as the lint command gets them.
func lint(body []byte, mode Mode) []Diagnostic {
	return parser.Parser{RFC9309: mode == ModeRFC9309}.Parse(body).Diagnostics
}

func TestAgentView(t *testing.T) {
	r := Parse([]byte(rfc5_1))
	for _, c := range []struct {
		agent string
		named bool
		rules int
	}{
		{"foobot", true, 3}, {"FOOBOT", true, 3}, {"bazbot", true, 1}, {"quxbot", true, 0},
		{"other", false, 3}, {"", false, 3},
	} {
		a := r.Crawler(c.agent)
		if a.Named() != c.named || len(a.Rules()) != c.rules {
			t.Errorf("Crawler(%q): Named %v, %d rules; want %v, %d", c.agent, a.Named(), len(a.Rules()), c.named, c.rules)
		}
		if !slices.Equal(a.Rules(), r.Rules(c.agent)) {
			t.Errorf("Crawler(%q).Rules() differs from Robots.Rules", c.agent)
		}
		for _, u := range []string{"/", "/example/page.html", "/images/x.gif", "/publications/"} {
			if a.Allowed(u) != r.Allowed(c.agent, u) || !sameVerdict(a.Check(u), r.Check(c.agent, u)) {
				t.Errorf("Crawler(%q) disagrees with Robots on %s", c.agent, u)
			}
		}
	}
}

// TestAgentNamedSharedWithStar: a group that names both "*" and the
// crawler still names the crawler.
func TestAgentNamedSharedWithStar(t *testing.T) {
	r := Parse([]byte("User-agent: *\nUser-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"))
	if !r.Crawler(fooBot).Named() {
		t.Error("Crawler(FooBot).Named() = false, but line 2 names FooBot")
	}
	if r.Crawler("Other").Named() {
		t.Error("Crawler(Other).Named() = true")
	}
	if !r.Allowed(fooBot, "/b") {
		t.Error("FooBot is named, so the second * group must not apply")
	}
}

// TestCheckDoesNotAllocate: the documented promise of Check in the
// default mode. (A count, not a timing.)
func TestCheckDoesNotAllocate(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage build")
	}
	r := Parse([]byte(rfc5_1))
	var sink bool
	n := testing.AllocsPerRun(100, func() {
		sink = r.Check("FooBot", "https://www.example.com/example/page.html").Allowed
		sink = sink && r.Check("other", "/images/logo.gif?size=2").Allowed
	})
	if n != 0 {
		t.Errorf("Check allocates %.1f times per call", n)
	}
}
