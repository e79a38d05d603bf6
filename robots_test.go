package robotstxt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/body"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/target"
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
func sameVerdict(a, b Decision) bool {
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
				allow, line := refDecide(rules, match.Path(url))
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
		var diags [][]parse.Diagnostic
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
		for l := range parse.Lines(body) {
			if l.Key == parse.KeyAllow || l.Key == parse.KeyDisallow {
				t.Fatalf("generator made a rule: %q", body)
			}
		}
		tried++
		r := Parse([]byte(body))
		for _, agent := range propAgents {
			for range 3 {
				url := genURL(rnd)
				if v := r.Check(agent, url); !v.Allowed || matched(v) {
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
			matches := match.Match(match.Escape(p), match.Path(url))
			if !v.Allowed && (matches || extra == 0) {
				t.Fatalf("Check(%q) = %+v\nbody: %q", url, v, body)
			}
			if matches && (!matched(v) || !v.Rule.Allow || v.Rule.Pattern != p) {
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
	var want []Decision
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
				r.agentRules(qs[j].agent).Rules()
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
	if got := extensionsOf(r, fooBot); len(got) != 2 || got[1].Key != "foo" || got[1].Value != "bar" {
		t.Errorf("extensions after overwriting the body: %v", got)
	}
}

// lint returns the diagnostics of body, as the lint command gets them.
func lint(body []byte, mode Mode) []parse.Diagnostic {
	return parse.Parser{RFC9309: mode == ModeRFC9309}.Parse(body).Diagnostics
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
		a := r.agentRules(c.agent)
		if named(r, c.agent) != c.named || len(a.Rules()) != c.rules {
			t.Errorf("agentRules(%q): named %v, %d rules; want %v, %d", c.agent, named(r, c.agent), len(a.Rules()), c.named, c.rules)
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
	if !named(r, fooBot) {
		t.Error("FooBot not named, but line 2 names it")
	}
	if named(r, "Other") {
		t.Error("Other named")
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

// TestCheckManyGroupsDoesNotAllocate: checks for crawlers other than the
// first one checked, in a file that indexes its user-agent lines, do not
// allocate either, also for a crawler that many groups name.
func TestCheckManyGroupsDoesNotAllocate(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage build")
	}
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "User-agent: Bot%c%c\nUser-agent: ManyBot\nDisallow: /%d\n", 'a'+i%26, 'a'+i/26%26, i)
	}
	r := Parse([]byte(b.String()))
	r.Allowed("FirstBot", "/")
	var sink bool
	n := testing.AllocsPerRun(100, func() {
		sink = r.Check("BOTAB", "/x").Allowed
		sink = sink && !r.Allowed("ManyBot", "/1999")
		sink = sink && r.Allowed("OtherBot", "/")
	})
	if n != 0 || !sink {
		t.Errorf("checks allocate %.1f times per call (answers right: %v)", n, sink)
	}
}

// One test per point of the reading rules, in the order the package
// documentation gives them: TestSpec1_* for how a body is read,
// TestSpec2_* for how a URL is matched, TestSpec3_* for the RFC 9309
// mode. Each table checks the decision, the deciding rule's line
// (Decision.Rule) and, where the point is about tolerance, the diagnostics.

const fooBot = "FooBot"

// A decision is one expected outcome of Check.
type decision struct {
	name  string
	body  string
	agent string
	url   string
	allow bool
	line  int // line of the deciding rule; 0 when no rule matches
}

// checkDecisions parses each body in mode and checks the verdict of
// Robots.Check, Robots.Allowed and Crawler.Check against it.
func checkDecisions(t *testing.T, mode Mode, ds []decision) {
	t.Helper()
	for _, d := range ds {
		r := ParseMode([]byte(d.body), mode)
		v := r.Check(d.agent, d.url)
		if err := verdictMismatch(v, d.allow, d.line); err != "" {
			t.Errorf("%s: Check(%q, %q): %s\nbody: %q", d.name, d.agent, d.url, err, d.body)
			continue
		}
		if got := r.Allowed(d.agent, d.url); got != d.allow {
			t.Errorf("%s: Allowed(%q, %q) = %v, Check said %v", d.name, d.agent, d.url, got, d.allow)
		}
		if av := r.agentRules(d.agent).Check(d.url); av != v {
			t.Errorf("%s: Crawler(%q).Check(%q) = %+v, Robots.Check = %+v", d.name, d.agent, d.url, av, v)
		}
	}
}

// verdictMismatch describes how v differs from the expected decision, or
// returns "".
func verdictMismatch(v Decision, allow bool, line int) string {
	got := "no rule"
	if matched(v) {
		kind := "disallow"
		if v.Rule.Allow {
			kind = "allow"
		}
		got = fmt.Sprintf("%s %q on line %d", kind, v.Rule.Pattern, v.Rule.Line)
	}
	switch {
	case v.Allowed != allow:
		return fmt.Sprintf("allowed = %v (%s), want %v (line %d)", v.Allowed, got, allow, line)
	case line == 0 && matched(v):
		return fmt.Sprintf("decided by %s, want no rule", got)
	case line != 0 && !matched(v):
		return fmt.Sprintf("no deciding rule, want line %d", line)
	case line != 0 && (int(v.Rule.Line) != line || v.Rule.Allow != allow):
		return fmt.Sprintf("decided by %s, want the %v rule on line %d", got, map[bool]string{true: "allow", false: "disallow"}[allow], line)
	}
	return ""
}

// dg formats a diagnostic the way diagsOf does.
func dg(line int, k parse.Kind) string { return fmt.Sprintf("%d:%v", line, k) }

func diagsOf(body []byte) []string {
	var out []string
	for _, d := range lint(body, ModeGoogle) {
		out = append(out, dg(d.Line, d.Kind))
	}
	return out
}

// checkDiags checks the diagnostics of body, in order.
func checkDiags(t *testing.T, name, body string, want ...string) {
	t.Helper()
	if got := diagsOf([]byte(body)); !slices.Equal(got, want) {
		t.Errorf("%s: diagnostics %q, want %q\nbody: %q", name, got, want, body)
	}
}

func TestSpec1_1_LineEndingsAndBOM(t *testing.T) {
	var ds []decision
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		body := "User-agent: FooBot" + nl + "Disallow: /a" + nl + nl + "Allow: /a/b" + nl
		name := fmt.Sprintf("ending %q", nl)
		ds = append(ds,
			decision{name, body, fooBot, "/a/x", false, 2},
			decision{name, body, fooBot, "/a/b", true, 4},
			decision{name, body, fooBot, "/b", true, 0},
		)
	}
	ds = append(ds,
		decision{"mixed endings", "User-agent: FooBot\r\nAllow: /x\rDisallow: /a\n\r\nDisallow: /b", fooBot, "/b", false, 5},
		decision{"LF CR is two line ends", "User-agent: FooBot\n\rDisallow: /a", fooBot, "/a", false, 3},
		decision{"full BOM", "\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /a", fooBot, "/a", false, 2},
		decision{"BOM EF BB", "\xEF\xBBUser-agent: FooBot\nDisallow: /a", fooBot, "/a", false, 2},
		decision{"BOM EF", "\xEFUser-agent: FooBot\nDisallow: /a", fooBot, "/a", false, 2},
		decision{"broken BOM spoils line 1", "\xEF\x11\xBFUser-agent: FooBot\nDisallow: /a", fooBot, "/a", true, 0},
		decision{"BOM only at the start", "User-agent: FooBot\n\xEF\xBB\xBFDisallow: /a", fooBot, "/a", true, 0},
	)
	checkDecisions(t, ModeGoogle, ds)
	checkDiags(t, "full BOM", "\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /a")
	checkDiags(t, "BOM only at the start", "User-agent: FooBot\n\xEF\xBB\xBFDisallow: /a", dg(2, parse.UnknownKey))
	checkDiags(t, "broken BOM", "\xEF\x11\xBFUser-agent: FooBot\nDisallow: /a",
		dg(1, parse.InvalidUTF8), dg(1, parse.UnknownKey), dg(2, parse.RuleOutsideGroup))
	for _, c := range []struct {
		body  string
		lines int
	}{
		{"a: b", 1}, {"a: b\n", 2}, {"a: b\r\n", 2}, {"a: b\r", 2}, {"a\r\nb\rc\nd", 4}, {"\n\r", 3}, {"\r\n\r\n", 3},
	} {
		if got := fileOf(Parse([]byte(c.body))).Lines; got != c.lines {
			t.Errorf("%q: %d lines, want %d", c.body, got, c.lines)
		}
	}
}

func TestSpec1_2_ParseReadsEveryByte(t *testing.T) {
	// Parse has no size limit of its own: a rule after 600 KiB of other
	// lines still counts. (The 500 KiB limit belongs to the fetch layer.)
	var b strings.Builder
	b.WriteString("User-agent: FooBot\n")
	filler := "# " + strings.Repeat("x", 60) + "\n"
	n := 1
	for b.Len() < 600<<10 {
		b.WriteString(filler)
		n++
	}
	b.WriteString("Disallow: /late\n")
	n++
	checkDecisions(t, ModeGoogle, []decision{
		{"rule after 600 KiB", b.String(), fooBot, "/late", false, n},
		{"rule after 600 KiB", b.String(), fooBot, "/early", true, 0},
	})
}

func TestSpec1_3_LongLinesTruncated(t *testing.T) {
	const max = parse.MaxLineLength // 16663
	if max != 2083*8-1 {
		t.Fatalf("MaxLineLength = %d", max)
	}
	// The disallow line is 3 bytes too long: "/qux" loses "qux", so the
	// stored pattern is the long value followed by "/".
	long := "/x/" + strings.Repeat("a", max-len("disallow: ")-len("/x/")-1)
	body := "user-agent: FooBot\ndisallow: " + long + "/qux\nallow: /x/\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"truncated rule still applies", body, fooBot, long + "/fux", false, 2},
		{"truncated rule still applies", body, fooBot, long + "/qux", false, 2},
		{"shorter path", body, fooBot, long, true, 3},
	})
	checkDiags(t, "too long", body, dg(2, parse.LineTooLong))
	r := Parse([]byte(body))
	if p := r.Rules(fooBot)[0].Pattern; p != long+"/" {
		t.Errorf("truncated pattern has %d bytes ending %q, want %d ending in /", len(p), p[len(p)-4:], len(long)+1)
	}
	// A line of exactly the limit is kept whole.
	exact := "/" + strings.Repeat("b", max-len("disallow: ")-1)
	body = "user-agent: FooBot\ndisallow: " + exact + "\n"
	checkDiags(t, "exactly the limit", body)
	if p := Parse([]byte(body)).Rules(fooBot)[0].Pattern; p != exact {
		t.Errorf("a line of %d bytes lost %d bytes", max, len(exact)-len(p))
	}
	// Only the too-long line is cut: the next one is read normally.
	body = "user-agent: FooBot\n# " + strings.Repeat("c", 3*max) + "\ndisallow: /next\n"
	checkDecisions(t, ModeGoogle, []decision{{"line after a long one", body, fooBot, "/next", false, 3}})
}

func TestSpec1_4_CommentsAndWhitespace(t *testing.T) {
	checkDecisions(t, ModeGoogle, []decision{
		{"trailing comments", "User-agent: FooBot # me\nDisallow: /a # not /a#b", fooBot, "/a", false, 2},
		{"comment inside a value", "User-agent: FooBot\nDisallow: /a#b", fooBot, "/ax", false, 2},
		{"comment inside a value", "User-agent: FooBot\nDisallow: /a#b", fooBot, "/", true, 0},
		{"comment at the start of a value", "User-agent: FooBot\nDisallow: #/a", fooBot, "/a", true, 0},
		{"commented-out rules", "User-agent: FooBot\n# Disallow: /\n  # Disallow: /a", fooBot, "/a", true, 0},
		{"comment in the user-agent value", "User-agent: Foo#Bot\nDisallow: /", "Foo", "/", false, 2},
		{"white space around key and value", "  User-agent  :  FooBot  \n\t Disallow \t: \t /a \t", fooBot, "/a", false, 2},
		{"white space is trimmed, not kept", "  User-agent  :  FooBot  \n\t Disallow \t: \t /a \t", fooBot, "/b", true, 0},
		{"inner space is kept", "User-agent: FooBot\nDisallow: /a b", fooBot, "/a b", false, 2},
		{"inner space is kept", "User-agent: FooBot\nDisallow: /a b", fooBot, "/a", true, 0},
		{"vertical tab and form feed", "User-agent: FooBot\n\v\fDisallow:\v/a\f", fooBot, "/a", false, 2},
	})
	checkDiags(t, "comments are no diagnostics", "# head\nUser-agent: FooBot # me\n\n   # indented\nDisallow: /a # x")
}

func TestSpec1_5_MissingColon(t *testing.T) {
	checkDecisions(t, ModeGoogle, []decision{
		{"no colon, two tokens", "User-agent FooBot\nDisallow /a", fooBot, "/a", false, 2},
		{"no colon, tab", "User-agent\tFooBot\nDisallow\t/a", fooBot, "/a", false, 2},
		{"no colon, comment after", "User-agent FooBot # x\nDisallow /a # y", fooBot, "/a", false, 2},
		{"three tokens are no rule", "User-agent: FooBot\nDisallow /a /b", fooBot, "/a", true, 0},
		{"one token is no rule", "User-agent: FooBot\nDisallow/a", fooBot, "/a", true, 0},
		{"split at the first colon", "User-agent: FooBot\nDisallow: /a:b", fooBot, "/a:b", false, 2},
		{"split at the first colon", "User-agent: FooBot\nDisallow: /a:b", fooBot, "/a", true, 0},
		{"no space after colon", "User-agent:FooBot\nDisallow:/a", fooBot, "/a", false, 2},
		{"space before colon", "User-agent : FooBot\nDisallow : /a", fooBot, "/a", false, 2},
	})
	checkDiags(t, "missing colon", "User-agent FooBot\nDisallow /a", dg(1, parse.MissingColon), dg(2, parse.MissingColon))
	checkDiags(t, "three tokens", "User-agent: FooBot\nDisallow /a /b", dg(2, parse.NoKey))
	if got := Parse([]byte("Sitemap: https://example.com/s.xml")).Sitemaps(); !slices.Equal(got, []string{"https://example.com/s.xml"}) {
		t.Errorf("sitemap split at the first colon: %q", got)
	}
}

func TestSpec1_6_KeysAndTypos(t *testing.T) {
	var ds []decision
	for i, ua := range []string{"user-agent", "User-Agent", "USER-AGENT", "uSeR-aGeNt", "useragent", "user agent", "UserAgent"} {
		for j, dis := range []string{"disallow", "Disallow", "DISALLOW", "dissallow", "dissalow", "disalow", "diasllow", "disallaw", "DisAllaw"} {
			body := ua + ": FooBot\n" + dis + ": /a\n" + "ALLOW: /a/b\n"
			name := fmt.Sprintf("%d.%d %s/%s", i, j, ua, dis)
			ds = append(ds,
				decision{name, body, fooBot, "/a/x", false, 2},
				decision{name, body, fooBot, "/a/b", true, 3},
			)
		}
	}
	ds = append(ds,
		decision{"unknown spelling desallow", "User-agent: FooBot\nDesallow: /a", fooBot, "/a", true, 0},
		decision{"unknown spelling useg-agent", "useg-agent: FooBot\nDisallow: /a", fooBot, "/a", true, 0},
		decision{"unknown spelling dis-allow", "User-agent: FooBot\nDis-allow: /a", fooBot, "/a", true, 0},
	)
	checkDecisions(t, ModeGoogle, ds)
	checkDiags(t, "standard spellings", "USER-AGENT: FooBot\nDisallow: /a\nALLOW: /b\nSITEMAP: /s")
	checkDiags(t, "typos", "useragent: FooBot\nuser agent: Bar\ndissallow: /a\ndissalow: /a\ndisalow: /a\ndiasllow: /a\ndisallaw: /a\nsite-map: /s",
		dg(1, parse.MisspeltKey), dg(2, parse.MisspeltKey), dg(3, parse.MisspeltKey), dg(4, parse.MisspeltKey),
		dg(5, parse.MisspeltKey), dg(6, parse.MisspeltKey), dg(7, parse.MisspeltKey), dg(8, parse.MisspeltKey))
	checkDiags(t, "unknown spelling", "User-agent: FooBot\nDesallow: /a", dg(2, parse.UnknownKey))
	if got := Parse([]byte("site-map: http://a/1.xml\nSiteMap: http://a/2.xml")).Sitemaps(); !slices.Equal(got, []string{"http://a/1.xml", "http://a/2.xml"}) {
		t.Errorf("site-map spellings: %q", got)
	}
}

func TestSpec1_7_BadLinesNeverFailTheFile(t *testing.T) {
	body := strings.Join([]string{
		"<html><body>",                         // 1 junk
		"User-agent: FooBot",                   // 2
		"this line has four words",             // 3 junk
		"Disallow: /a",                         // 4
		"\x00\x01\x02 binary",                  // 5 NUL
		"Disallow: /b\xff",                     // 6 invalid UTF-8, still a rule
		": no key",                             // 7 junk
		"Disallow: /c\x00ignored",              // 8 cut at NUL
		"Crawl-delay: soon",                    // 9 bad value
		"unicorns: /d",                         // 10 unknown key
		"Allow: " + strings.Repeat("/", 20000), // 11 too long
		"Disallow /e",                          // 12 missing colon
		"</body></html>",                       // 13 junk
	}, "\n")
	checkDecisions(t, ModeGoogle, []decision{
		{"rules among junk", body, fooBot, "/a", false, 4},
		{"rule with invalid UTF-8", body, fooBot, "/b%FF", false, 6},
		{"rule cut at NUL", body, fooBot, "/c", false, 8},
		{"unknown key is no rule", body, fooBot, "/d", true, 0},
		{"missing colon", body, fooBot, "/e", false, 12},
	})
	checkDiags(t, "junk", body,
		dg(1, parse.NoKey), dg(3, parse.NoKey), dg(5, parse.NULByte), dg(6, parse.InvalidUTF8),
		dg(7, parse.NoKey), dg(8, parse.NULByte), dg(9, parse.BadValue), dg(10, parse.UnknownKey),
		dg(11, parse.LineTooLong), dg(12, parse.MissingColon), dg(13, parse.NoKey))
	for _, b := range [][]byte{nil, {}, {0}, {0xFF, 0xFE, 0}, []byte(strings.Repeat("\r", 1000))} {
		r := Parse(b)
		if r == nil || !r.Allowed(fooBot, "/") {
			t.Errorf("Parse(%q): a file without rules must allow everything", b)
		}
	}
}

func TestSpec1_8_Groups(t *testing.T) {
	const two = "User-agent: FooBot\nUser-agent: BarBot\nDisallow: /x\n"
	const split = "User-agent: FooBot\nDisallow: /x\nUser-agent: BarBot\nDisallow: /y\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"several user-agents, one group", two, fooBot, "/x", false, 3},
		{"several user-agents, one group", two, "BarBot", "/x", false, 3},
		{"user-agent after a rule starts a group", split, fooBot, "/y", true, 0},
		{"user-agent after a rule starts a group", split, "BarBot", "/x", true, 0},
		{"user-agent after a rule starts a group", split, "BarBot", "/y", false, 4},
		{"blank lines do not end a group", "User-agent: FooBot\n\nUser-agent: BarBot\n\n\nDisallow: /x\n\nDisallow: /y", fooBot, "/y", false, 8},
		{"blank lines do not end a group", "User-agent: FooBot\n\nUser-agent: BarBot\n\n\nDisallow: /x\n\nDisallow: /y", "BarBot", "/x", false, 6},
		{"sitemap does not end a group", "User-agent: FooBot\nSitemap: /s.xml\nUser-agent: BarBot\nDisallow: /x", fooBot, "/x", false, 4},
		{"sitemap between rules", "User-agent: FooBot\nDisallow: /x\nSitemap: /s.xml\nDisallow: /y", fooBot, "/y", false, 4},
		{"unknown line does not end a group", "User-agent: FooBot\nfoo: bar\nUser-agent: BarBot\nDisallow: /x", fooBot, "/x", false, 4},
		{"unknown line between rules", "User-agent: FooBot\nDisallow: /x\nfoo: bar\nDisallow: /y", fooBot, "/y", false, 4},
		{"crawl-delay does not end a group", "User-agent: FooBot\nCrawl-delay: 1\nUser-agent: BarBot\nDisallow: /x", fooBot, "/x", false, 4},
		{"junk does not end a group", "User-agent: FooBot\n<br>\nUser-agent: BarBot\nDisallow: /x", fooBot, "/x", false, 4},
		{"an empty disallow is a rule", "User-agent: FooBot\nDisallow:\nUser-agent: BarBot\nDisallow: /x", fooBot, "/x", true, 0},
	})
}

func TestSpec1_9_RulesBeforeFirstGroup(t *testing.T) {
	const body = "Disallow: /\nAllow: /a\nUser-agent: FooBot\nDisallow: /b\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"leading rules ignored", body, fooBot, "/", true, 0},
		{"leading rules ignored", body, fooBot, "/b", false, 4},
		{"leading rules ignored for others", body, "Other", "/", true, 0},
		{"no group at all", "Disallow: /\n", fooBot, "/", true, 0},
		{"leading allow ignored", "Allow: /a\nUser-agent: *\nDisallow: /", fooBot, "/a", false, 3},
		{"leading rules after a sitemap", "Sitemap: /s\nDisallow: /\nUser-agent: *\nDisallow: /x", fooBot, "/", true, 0},
	})
	checkDiags(t, "leading rules", body, dg(1, parse.RuleOutsideGroup), dg(2, parse.RuleOutsideGroup))
}

func TestSpec1_10_UserAgentValues(t *testing.T) {
	const star = "User-agent: *\nDisallow: /s\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"* is global", star, fooBot, "/s", false, 2},
		{"* then space", "User-agent: * \nDisallow: /s", fooBot, "/s", false, 2},
		{"* then words", "User-agent: * everyone\nDisallow: /s", fooBot, "/s", false, 2},
		{"* then tab", "User-agent: *\tx\nDisallow: /s", fooBot, "/s", false, 2},
		{"*bot is not global", "User-agent: *bot\nDisallow: /s", fooBot, "/s", true, 0},
		{"*bot names no crawler", "User-agent: *bot\nDisallow: /s", "bot", "/s", true, 0},
		{"*<BR> is not global", "User-agent: *<BR>\nDisallow: /s", fooBot, "/s", true, 0},
		{"version cut", "User-agent: Googlebot/2.1\nDisallow: /g\n" + star, "Googlebot", "/g", false, 2},
		{"version cut, case-insensitive", "User-agent: Googlebot/2.1\nDisallow: /g\n" + star, "googlebot", "/g", false, 2},
		{"crawler name is not cut", "User-agent: Googlebot/2.1\nDisallow: /g\n" + star, "Googlebot/2.1", "/s", false, 4},
		{"digits cut", "User-agent: bot1\nDisallow: /b\n" + star, "bot", "/b", false, 2},
		{"digits cut: bot1 never matches", "User-agent: bot1\nDisallow: /b\n" + star, "bot1", "/b", true, 0},
		{"digits cut: bot1 gets *", "User-agent: bot1\nDisallow: /b\n" + star, "bot1", "/s", false, 4},
		{"space cut", "User-agent: Foo Bar\nDisallow: /f\n" + star, "Foo", "/f", false, 2},
		{"space cut: Foo Bar never matches", "User-agent: Foo Bar\nDisallow: /f\n" + star, "Foo Bar", "/s", false, 4},
		{"hyphen and underscore kept", "User-agent: Foo-Bar_Baz/1\nDisallow: /f\n" + star, "foo-bar_baz", "/f", false, 2},
		{"case-insensitive", "User-agent: FOOBOT\nDisallow: /f\n" + star, "foobot", "/f", false, 2},
		{"case-insensitive", "User-agent: foobot\nDisallow: /f\n" + star, "FOOBOT", "/f", false, 2},
		{"prefix is not a match", "User-agent: Foo\nDisallow: /f\n" + star, fooBot, "/f", true, 0},
		{"longer token is not a match", "User-agent: FooBotX\nDisallow: /f\n" + star, fooBot, "/f", true, 0},
		{"non-ASCII cut", "User-agent: Jävla-Foobot\nDisallow: /f\n" + star, "J", "/f", false, 2},
	})
	checkDiags(t, "values", "User-agent: *\nUser-agent: * x\nUser-agent: Googlebot/2.1\nUser-agent: *bot\nUser-agent: FooBot\nUser-agent:",
		dg(3, parse.AgentCut), dg(4, parse.EmptyAgent), dg(6, parse.EmptyAgent))
	f := fileOf(Parse([]byte("User-agent: Googlebot/2.1\nUser-agent: * x")))
	if a := f.Groups[0].Agents; a[0].Token != "Googlebot" || a[0].Value != "Googlebot/2.1" || a[0].Global || !a[1].Global || a[1].Token != "" {
		t.Errorf("agents %+v", a)
	}
}

func TestSpec1_11_GroupMerging(t *testing.T) {
	const merged = "User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /s\n\nUser-agent: FooBot\nAllow: /a/b\nDisallow: /c\n\nUser-agent: *\nDisallow: /t\n"
	const emptyNamed = "User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n"
	const sharedWithStar = "User-agent: FooBot\nUser-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"first group", merged, fooBot, "/a", false, 2},
		{"second group", merged, fooBot, "/c", false, 9},
		{"precedence across groups", merged, fooBot, "/a/b", true, 8},
		{"* rules do not apply to FooBot", merged, fooBot, "/s", true, 0},
		{"* rules do not apply to FooBot", merged, fooBot, "/t", true, 0},
		{"* groups merged", merged, "Other", "/s", false, 5},
		{"* groups merged", merged, "Other", "/t", false, 12},
		{"FooBot rules do not apply to others", merged, "Other", "/a", true, 0},
		{"empty named group shields from *", emptyNamed, fooBot, "/x", true, 0},
		{"empty named group: others get *", emptyNamed, "Other", "/x", false, 2},
		{"group naming FooBot and *", sharedWithStar, fooBot, "/a", false, 3},
		{"group naming FooBot and *: other * group ignored", sharedWithStar, fooBot, "/b", true, 0},
		{"group naming FooBot and *: others merge both", sharedWithStar, "Other", "/b", false, 6},
		{"same crawler twice in one group", "User-agent: FooBot\nUser-agent: foobot\nDisallow: /a", fooBot, "/a", false, 3},
	})
	var lines []int
	for _, r := range Parse([]byte(merged)).Rules(fooBot) {
		lines = append(lines, r.Line)
	}
	if !slices.Equal(lines, []int{2, 8, 9}) {
		t.Errorf("Rules(FooBot) on lines %v, want [2 8 9]", lines)
	}
	lines = nil
	for _, r := range Parse([]byte(merged)).Rules("Other") {
		lines = append(lines, r.Line)
	}
	if !slices.Equal(lines, []int{5, 12}) {
		t.Errorf("Rules(Other) on lines %v, want [5 12]", lines)
	}
	if n := len(Parse([]byte(sharedWithStar)).Rules("foobot")); n != 1 {
		t.Errorf("Rules(foobot) has %d rules, want 1", n)
	}
}

func TestSpec1_12_NoMatchingGroup(t *testing.T) {
	checkDecisions(t, ModeGoogle, []decision{
		{"empty crawler gets *", "User-agent: *\nDisallow: /", "", "/", false, 2},
		{"empty crawler does not match an empty token", "User-agent: *bot\nDisallow: /", "", "/", true, 0},
		{"empty crawler does not match an empty value", "User-agent:\nDisallow: /", "", "/", true, 0},
		{"empty crawler does not match an empty value, gets *", "User-agent:\nDisallow: /a\nUser-agent: *\nDisallow: /b", "", "/a", true, 0},
		{"empty crawler does not match an empty value, gets *", "User-agent:\nDisallow: /a\nUser-agent: *\nDisallow: /b", "", "/b", false, 4},
		{"no matching group, no *", "User-agent: BarBot\nDisallow: /", fooBot, "/", true, 0},
		{"empty file", "", fooBot, "/", true, 0},
		{"only comments", "# Disallow: /\n", fooBot, "/", true, 0},
		{"a crawler called *", "User-agent: *\nDisallow: /", "*", "/", false, 2},
	})
}

func TestSpec1_13_Sitemaps(t *testing.T) {
	body := "Sitemap: https://e.com/1.xml\n" +
		"User-agent: FooBot\n" +
		"Sitemap: https://e.com/2.xml\n" +
		"User-agent: BarBot\n" +
		"Disallow: /x\n" +
		"site-map: https://e.com/3.xml # typo\n" +
		"User-agent: *\n" +
		"Sitemap: https://e.com/1.xml\n" +
		"sitemap:\thttps://e.com/4.xml\t\n"
	want := []string{"https://e.com/1.xml", "https://e.com/2.xml", "https://e.com/3.xml", "https://e.com/1.xml", "https://e.com/4.xml"}
	r := Parse([]byte(body))
	if got := r.Sitemaps(); !slices.Equal(got, want) {
		t.Errorf("Sitemaps() = %q, want %q", got, want)
	}
	var lines []int
	for _, s := range fileOf(r).Sitemaps {
		lines = append(lines, s.Line)
	}
	if !slices.Equal(lines, []int{1, 3, 6, 8, 9}) {
		t.Errorf("sitemap lines %v", lines)
	}
	for _, g := range fileOf(r).Groups {
		for _, e := range g.Extensions {
			if e.Key == "sitemap" {
				t.Errorf("sitemap kept in a group: %+v", e)
			}
		}
	}
	// The sitemap on line 3 did not end FooBot's group.
	checkDecisions(t, ModeGoogle, []decision{{"sitemap inside a group", body, fooBot, "/x", false, 5}})
	if got := Parse([]byte("User-agent: *\nDisallow: /")).Sitemaps(); len(got) != 0 {
		t.Errorf("no sitemaps: got %q", got)
	}
	// The returned slice is the caller's.
	got := r.Sitemaps()
	got[0] = "changed"
	if r.Sitemaps()[0] != want[0] {
		t.Error("Sitemaps() shares its slice with the Robots")
	}
}

// TestSpec8_Licenses: the License records of RSL 1.0 are file-wide, as
// sitemaps are, and Licenses returns the absolute http and https URLs
// among them, in file order.
func TestSpec8_Licenses(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"none", "User-agent: *\nDisallow: /x\n", nil},
		{"before any user-agent", "License: https://e.com/license.xml\nUser-agent: *\nDisallow: /\n", []string{"https://e.com/license.xml"}},
		{"key in any case", "LICENSE: https://e.com/a.xml\nlicense: http://e.com/b.xml\nLiCeNsE:https://e.com/c.xml # terms\n",
			[]string{"https://e.com/a.xml", "http://e.com/b.xml", "https://e.com/c.xml"}},
		{"relative and hostless URLs are not returned",
			"License: /license.xml\nLicense: license.xml\nLicense: https:///x.xml\nLicense: https://:80/x.xml\nLicense: http://:/x\nLicense: ftp://e.com/l.xml\nLicense: https://e.com/ok.xml\nLicense:\n",
			[]string{"https://e.com/ok.xml"}},
		{"file order, repeats kept", "License: https://b.example/l\nUser-agent: *\nLicense: https://a.example/l\nDisallow: /\nLicense: https://b.example/l\n",
			[]string{"https://b.example/l", "https://a.example/l", "https://b.example/l"}},
		{"not a license", "Licenses: https://e.com/l.xml\nLicense-URL: https://e.com/l.xml\n", nil},
	} {
		if got := Parse([]byte(c.body)).Licenses(); !slices.Equal(got, c.want) {
			t.Errorf("%s: Licenses() = %q, want %q", c.name, got, c.want)
		}
	}
	// License lines between a group's lines split neither its user-agent
	// lines nor its rules, and belong to no group.
	body := "User-agent: FooBot\n" + // 1
		"License: https://e.com/1.xml\n" + // 2
		"User-agent: BarBot\n" + // 3: still the first group
		"Disallow: /x\n" + // 4
		"License: https://e.com/2.xml\n" + // 5
		"Allow: /x/y\n" + // 6: still the first group
		"User-agent: *\n" + // 7
		"Disallow: /\n" // 8
	r := Parse([]byte(body))
	if got := len(fileOf(r).Groups); got != 2 {
		t.Fatalf("%d groups, want 2", got)
	}
	checkDecisions(t, ModeGoogle, []decision{
		{"license before the rules", body, "BarBot", "/x", false, 4},
		{"license between rules", body, fooBot, "/x/y", true, 6},
	})
	for _, g := range fileOf(r).Groups {
		if len(g.Extensions) != 0 {
			t.Errorf("a License line kept in a group: %+v", g.Extensions)
		}
	}
	var lines []int
	for _, l := range fileOf(r).Licenses {
		lines = append(lines, l.Line)
	}
	if !slices.Equal(lines, []int{2, 5}) {
		t.Errorf("license lines %v, want [2 5]", lines)
	}
}

func TestSpec1_14_Extensions(t *testing.T) {
	body := "Host: example.com\n" + // 1: before any group
		"User-agent: FooBot\n" + // 2
		"Crawl-delay: 0.5\n" + // 3
		"Request-rate: 1/10s\n" + // 4
		"Visit-time: 0600-0845\n" + // 5
		"Disallow: /a\n" + // 6
		"Clean-param: ref /articles/\n" + // 7
		"X-Custom: Some Raw Value\n" + // 8
		"Crawl-delay: 9\n" + // 9
		"User-agent: *\n" + // 10
		"Crawl-delay: 10\n" + // 11
		"Disallow: /b\n" + // 12
		"Noindex: /c\n" // 13
	r := Parse([]byte(body))
	want := []parse.Record{
		{Key: "crawl-delay", Value: "0.5", Line: 3},
		{Key: "request-rate", Value: "1/10s", Line: 4},
		{Key: "visit-time", Value: "0600-0845", Line: 5},
		{Key: "clean-param", Value: "ref /articles/", Line: 7},
		{Key: "x-custom", Value: "Some Raw Value", Line: 8},
		{Key: "crawl-delay", Value: "9", Line: 9},
	}
	if got := extensionsOf(r, fooBot); !slices.Equal(got, want) {
		t.Errorf("Extensions(FooBot) =\n%v\nwant\n%v", got, want)
	}
	wantStar := []parse.Record{{Key: "crawl-delay", Value: "10", Line: 11}, {Key: "noindex", Value: "/c", Line: 13}}
	if got := extensionsOf(r, "Other"); !slices.Equal(got, wantStar) {
		t.Errorf("Extensions(Other) = %v, want %v", got, wantStar)
	}
	if got := fileOf(r).Extensions; !slices.Equal(got, []parse.Record{{Key: "host", Value: "example.com", Line: 1}}) {
		t.Errorf("file extensions %v", got)
	}
	if d, ok := r.CrawlDelay(fooBot); !ok || d != 500*time.Millisecond {
		t.Errorf("CrawlDelay(FooBot) = %v %v, want 500ms", d, ok)
	}
	if d, ok := r.CrawlDelay("other"); !ok || d != 10*time.Second {
		t.Errorf("CrawlDelay(other) = %v %v, want 10s", d, ok)
	}
	for _, c := range []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"5", 5 * time.Second, true},
		{"0", 0, true},
		{"1.25", 1250 * time.Millisecond, true},
		{" 2 ", 2 * time.Second, true},
		{"soon", 0, false},
		{"-1", 0, false},
		{"NaN", 0, false},
		{"", 0, false},
		{"86401", 24 * time.Hour, true}, // clamped to the longest
		{"1e9", 24 * time.Hour, true},
	} {
		rr := Parse([]byte("User-agent: FooBot\nCrawl-delay: " + c.value))
		if d, ok := rr.CrawlDelay(fooBot); d != c.want || ok != c.ok {
			t.Errorf("Crawl-delay: %q gives %v %v, want %v %v", c.value, d, ok, c.want, c.ok)
		}
	}
	// An unusable crawl-delay is skipped in favour of the next.
	if d, ok := Parse([]byte("User-agent: FooBot\nCrawl-delay: soon\nCrawl-delay: 3")).CrawlDelay(fooBot); !ok || d != 3*time.Second {
		t.Errorf("CrawlDelay after a bad value = %v %v, want 3s", d, ok)
	}
	if _, ok := Parse([]byte("User-agent: FooBot\nDisallow: /")).CrawlDelay(fooBot); ok {
		t.Error("CrawlDelay without a crawl-delay line reports one")
	}
	checkDiags(t, "known extensions", "User-agent: a\nCrawl-delay: 1\nRequest-rate: 1/5\nVisit-time: 0100-0200\nHost: h\nClean-param: x\nNoindex: /\nNofollow: /\nNoarchive: /")
	checkDiags(t, "unknown extension", "User-agent: a\nX-Custom: 1", dg(2, parse.UnknownKey))

	// Records never change a decision: the same file without them decides
	// every URL alike.
	var plain []string
	for _, l := range strings.Split(body, "\n") {
		k, _, _ := strings.Cut(strings.ToLower(l), ":")
		if k == "user-agent" || k == "disallow" || k == "" {
			plain = append(plain, l)
		} else {
			plain = append(plain, "") // keep the line numbers
		}
	}
	rp := Parse([]byte(strings.Join(plain, "\n")))
	for _, agent := range []string{fooBot, "Other", ""} {
		for _, u := range []string{"/", "/a", "/b", "/c", "/articles/x"} {
			if a, b := r.Check(agent, u), rp.Check(agent, u); a.Allowed != b.Allowed || a.Rule.Line != b.Rule.Line {
				t.Errorf("%s %s: with records %+v, without %+v", agent, u, a, b)
			}
		}
	}
}

func TestSpec2_1_URLForms(t *testing.T) {
	const body = "User-agent: FooBot\nDisallow: /$\nDisallow: /*frag\nDisallow: /*?q=\nDisallow: /p;\nDisallow: /example.com\nDisallow: /*http\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"empty path is /", body, fooBot, "http://example.com", false, 2},
		{"empty URL is /", body, fooBot, "", false, 2},
		{"root", body, fooBot, "https://example.com/", false, 2},
		{"authority with port", body, fooBot, "https://example.com:8080", false, 2},
		{"fragment dropped", body, fooBot, "http://example.com/a#frag", true, 0},
		{"fragment only", body, fooBot, "http://example.com#frag", false, 2},
		{"query kept", body, fooBot, "http://example.com/a?q=1", false, 4},
		{"query right after host", body, fooBot, "http://example.com?q=1", false, 4},
		{"params kept", body, fooBot, "http://example.com/p;jsessionid=1", false, 5},
		{"authority dropped", body, fooBot, "http://example.com/x", true, 0},
		{"scheme dropped", body, fooBot, "http://example.com/x/", true, 0},
		{"a path as given", body, fooBot, "/p;x", false, 5},
		{"a path that looks like a host", body, fooBot, "/example.com/x", false, 6},
		{"URL inside a query kept", body, fooBot, "/r?u=http://x/", false, 7},
		{"scheme-relative", body, fooBot, "//example.com/", false, 2},
	})
}

func TestSpec2_2_Normalisation(t *testing.T) {
	checkDecisions(t, ModeGoogle, []decision{
		{"non-ASCII rule encoded", "User-agent: FooBot\nDisallow: /ä", fooBot, "/%C3%A4", false, 2},
		{"non-ASCII URL not encoded by Check", "User-agent: FooBot\nDisallow: /ä", fooBot, "/ä", true, 0},
		{"lower-case URL escape differs", "User-agent: FooBot\nDisallow: /ä", fooBot, "/%c3%a4", true, 0},
		{"rule escapes upper-cased", "User-agent: FooBot\nDisallow: /%aa", fooBot, "/%AA", false, 2},
		{"rule escapes upper-cased", "User-agent: FooBot\nDisallow: /%aa", fooBot, "/%aa", true, 0},
		{"nothing decoded: rule", "User-agent: FooBot\nDisallow: /%7Efred", fooBot, "/~fred", true, 0},
		{"nothing decoded: URL", "User-agent: FooBot\nDisallow: /~fred", fooBot, "/%7Efred", true, 0},
		{"nothing decoded: same text", "User-agent: FooBot\nDisallow: /%7Efred", fooBot, "/%7Efred", false, 2},
		{"invalid UTF-8 in a rule", "User-agent: FooBot\nDisallow: /\xff", fooBot, "/%FF", false, 2},
		{"encoded slash kept", "User-agent: FooBot\nDisallow: /a%2fb", fooBot, "/a%2Fb", false, 2},
		{"encoded slash kept", "User-agent: FooBot\nDisallow: /a%2fb", fooBot, "/a/b", true, 0},
	})
	r := Parse([]byte("User-agent: FooBot\nDisallow: /ä/%7e/%zz"))
	if p := r.Rules(fooBot)[0].Pattern; p != "/%C3%A4/%7E/%zz" {
		t.Errorf("pattern %q, want /%%C3%%A4/%%7E/%%zz", p)
	}
}

func TestSpec2_3_Wildcards(t *testing.T) {
	const b = "User-agent: FooBot\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"anchored at the start", b + "Disallow: /fish", fooBot, "/catfish", true, 0},
		{"prefix", b + "Disallow: /fish", fooBot, "/fish/salmon", false, 2},
		{"case-sensitive", b + "Disallow: /fish", fooBot, "/Fish", true, 0},
		{"* any run", b + "Disallow: /*.php", fooBot, "/a/b/index.php?x", false, 2},
		{"* empty run", b + "Disallow: /fish*", fooBot, "/fish", false, 2},
		{"* spans slashes", b + "Disallow: /a*z", fooBot, "/a/b/c/z", false, 2},
		{"leading *", b + "Disallow: *.gif", fooBot, "/img/x.gif", false, 2},
		{"$ anchors the end", b + "Disallow: /*.php$", fooBot, "/index.php", false, 2},
		{"$ anchors after the query", b + "Disallow: /*.php$", fooBot, "/index.php?x=1", true, 0},
		{"$ with a query in the pattern", b + "Disallow: /*?x=1$", fooBot, "/index.php?x=1", false, 2},
		{"$ anchors the end", b + "Disallow: /fish$", fooBot, "/fish/", true, 0},
		{"$ in the middle is literal", b + "Disallow: /a$b", fooBot, "/a$b", false, 2},
		{"$ in the middle is literal", b + "Disallow: /a$b", fooBot, "/ab", true, 0},
		{"$ alone matches no path", b + "Disallow: $", fooBot, "/", true, 0},
		{"/$ is the root only", b + "Disallow: /$", fooBot, "/", false, 2},
		{"/$ is the root only", b + "Disallow: /$", fooBot, "/a", true, 0},
		{"/$ is the root only", b + "Disallow: /$", fooBot, "/?a", true, 0},
		{"pattern without / cannot match", b + "Disallow: fish", fooBot, "/fish", true, 0},
		{"* then $", b + "Disallow: /*$", fooBot, "/anything", false, 2},
		{"several *", b + "Disallow: /*a*b*c$", fooBot, "/xaybzc", false, 2},
		{"several *", b + "Disallow: /*a*b*c$", fooBot, "/xaybzcd", true, 0},
	})
	checkDiags(t, "no leading slash", b+"Disallow: fish\nDisallow: *fish\nDisallow: /fish", dg(2, parse.NoLeadingSlash))
}

func TestSpec2_4_Precedence(t *testing.T) {
	const b = "User-agent: FooBot\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"longest wins", b + "Allow: /p\nDisallow: /", fooBot, "/page", true, 2},
		{"longest wins, order does not matter", b + "Disallow: /\nAllow: /p", fooBot, "/page", true, 3},
		{"longest disallow wins", b + "Allow: /folder\nDisallow: /folder/", fooBot, "/folder/page", false, 3},
		{"tie: allow wins", b + "Disallow: /page\nAllow: /page", fooBot, "/page", true, 3},
		{"tie: allow wins, either order", b + "Allow: /page\nDisallow: /page", fooBot, "/page", true, 2},
		{"* counts in the length", b + "Allow: /a*\nDisallow: /ab", fooBot, "/abc", true, 2},
		{"$ counts in the length", b + "Allow: /a\nDisallow: /a$", fooBot, "/a", false, 3},
		{"$ counts in the length", b + "Allow: /a\nDisallow: /a$", fooBot, "/ab", true, 2},
		{"length of the normalised pattern", b + "Allow: /ä\nDisallow: /%C3%A", fooBot, "/%C3%A4", true, 2},
		{"length in bytes, not runes", b + "Allow: /ä\nDisallow: /%C3%A4x", fooBot, "/%C3%A4x", false, 3},
		{"wildcard pattern longer than the literal", b + "Disallow: /page\nAllow: /*p*a*g*e", fooBot, "/page", true, 3},
		{"empty disallow matches nothing", b + "Disallow:", fooBot, "/", true, 0},
		{"empty allow matches nothing", b + "Allow:\nDisallow: /", fooBot, "/", false, 3},
		{"first of equal rules decides", b + "Disallow: /a\nDisallow: /a", fooBot, "/a", false, 2},
		{"first of equal allows decides", b + "Allow: /a\nDisallow: /\nAllow: /a", fooBot, "/a", true, 2},
		{"tie among wildcards", b + "Disallow: /*.html\nAllow: /a/*.htm", fooBot, "/a/x.html", true, 3},
	})
}

func TestSpec2_5_IndexHTML(t *testing.T) {
	const body = "User-agent: FooBot\nDisallow: /d/\nAllow: /d/index.html\nAllow: /e/index.htm\nDisallow: /e/\nDisallow: /f/index.html\n"
	checkDecisions(t, ModeGoogle, []decision{
		{"index.html allows its directory", body, fooBot, "/d/", true, 3},
		{"and itself", body, fooBot, "/d/index.html", true, 3},
		{"but nothing else in it", body, fooBot, "/d/other", false, 2},
		{"the directory exactly", body, fooBot, "/d/?q=1", false, 2},
		{"index.htm too", body, fooBot, "/e/", true, 4},
		{"disallow of index.html does not widen", body, fooBot, "/f/", true, 0},
		{"disallow of index.html", body, fooBot, "/f/index.html", false, 6},
		{"the widened rule counts as dir/$", "User-agent: FooBot\nAllow: /d/index.html\nDisallow: /d/$", fooBot, "/d/", true, 2},
		{"a longer disallow beats the widened rule", "User-agent: FooBot\nAllow: /d/index.html\nDisallow: /d/*$", fooBot, "/d/", false, 3},
		{"root index", "User-agent: FooBot\nDisallow: /\nAllow: /index.html", fooBot, "/", true, 3},
		{"root index", "User-agent: FooBot\nDisallow: /\nAllow: /index.html", fooBot, "/x", false, 2},
	})
}

func TestSpec2_7_DecidingRule(t *testing.T) {
	const body = "User-agent: FooBot\nDisallow: /a\nAllow: /a/b\n\nUser-agent: *\nDisallow: /\n"
	r := Parse([]byte(body))
	v := r.Check(fooBot, "http://example.com/a/b/c")
	if !v.Allowed || !matched(v) || v.Rule.Pattern != "/a/b" || v.Rule.Line != 3 || !v.Rule.Allow {
		t.Fatalf("Check = %+v, want the allow /a/b on line 3", v)
	}
	// The deciding rule is one of the rules that apply, not a copy made up.
	rules := r.Rules(fooBot)
	if v.Rule != rules[1] {
		t.Errorf("deciding rule %+v is not Rules()[1] %+v", v.Rule, rules[1])
	}
	v = r.Check("Other", "/x")
	if v.Allowed || !matched(v) || v.Rule.Pattern != "/" || v.Rule.Line != 6 || v.Rule.Allow {
		t.Errorf("Check(Other) = %+v, want disallow / on line 6", v)
	}
	if v := r.Check(fooBot, "/z"); !v.Allowed || matched(v) {
		t.Errorf("no matching rule: %+v", v)
	}
	if v := Parse(nil).Check(fooBot, "/"); !v.Allowed || matched(v) {
		t.Errorf("empty file: %+v", v)
	}
}

func TestSpec3_RFC9309Mode(t *testing.T) {
	const all = "User-agent: *\nDisallow: /\n"
	const fred = "User-agent: *\nDisallow: /~fred\nDisallow: /%7Ejoe\nDisallow: /a%2Fb\nDisallow: /%62%61%7A\nDisallow: /%e3%83%84x\n"
	for _, c := range []struct {
		name   string
		body   string
		url    string
		google bool // allowed in the default mode
		rfc    bool // allowed in RFC 9309 mode
		gline  int
		rline  int
	}{
		{"robots.txt itself", all, "https://example.com/robots.txt", false, true, 2, 0},
		{"robots.txt with a query", all, "/robots.txt?x=1", false, false, 2, 2},
		{"robots.txt with an empty query", all, "/robots.txt?", false, false, 2, 2},
		{"robots.txt escaped", all, "/%72obots.txt", false, true, 2, 0},
		{"other files", all, "/robots.txt.bak", false, false, 2, 2},
		{"robots.txt elsewhere", all, "/a/robots.txt", false, false, 2, 2},
		{"encoded URL, plain rule", fred, "/%7Efred/x", true, false, 0, 2},
		{"encoded URL, lower-case hex", fred, "/%7efred", true, false, 0, 2},
		{"plain URL, encoded rule", fred, "/~joe", true, false, 0, 3},
		{"both plain", fred, "/~fred", false, false, 2, 2},
		{"%2F stays encoded", fred, "/a/b", true, true, 0, 0},
		{"%2F matches %2F", fred, "/a%2Fb", false, false, 4, 4},
		{"%2f matches %2F in RFC mode", fred, "/a%2fb", true, false, 0, 4},
		{"unreserved letters decoded", fred, "/baz", true, false, 0, 5},
		{"non-ASCII stays encoded", fred, "/%E3%83%84x", false, false, 6, 6},
		// Google's index.html rule holds in both modes (see ModeRFC9309).
		{"index.html allows its directory", "User-agent: *\nDisallow: /private/\nAllow: /private/index.html\n", "/private/", true, true, 3, 3},
	} {
		checkDecisions(t, ModeGoogle, []decision{{c.name + " (google)", c.body, fooBot, c.url, c.google, c.gline}})
		checkDecisions(t, ModeRFC9309, []decision{{c.name + " (rfc9309)", c.body, fooBot, c.url, c.rfc, c.rline}})
	}
}

// The tests read agentRules through methods shaped like the public
// Robots ones, a URL at a time.

func (a *agentRules) Allowed(url string) bool {
	ok, _, _ := a.check(match.Path(url))
	return ok
}

func (a *agentRules) Check(url string) Decision {
	path := match.Path(url)
	d := Decision{Outcome: OutcomeRules}
	if d.Allowed, d.Rule, _ = a.check(path); d.Allowed {
		d.Usage = a.usage(path)
	}
	return d
}

func (a *agentRules) Usage(url string) Usage { return a.usage(match.Path(url)) }

func (a *agentRules) Rules() []Rule { return rulesOf(a.t.Rules(selected)) }

// named reports whether some group of r names agent, so that the "*"
// groups do not apply to it.
func named(r *Robots, agent string) bool {
	_, ok := r.t.AppendGroups(nil, agent)
	return ok
}

// fileOf returns the parsed form of r with strings.
func fileOf(r *Robots) *parse.File { return r.t.File() }

// extensionsOf returns the extension records of the groups of r that
// apply to agent.
func extensionsOf(r *Robots, agent string) []parse.Record { return r.t.Extensions(r.groups(agent)) }

// matched reports whether a rule decided d.
func matched(d Decision) bool { return d.Rule.Line != 0 }

// held returns the Decision that describes what c's memory holds for
// rawURL's authority, fresh or not, and its entry; ok is false when it
// holds nothing. Nothing is fetched.
func held(c *Client, rawURL string) (d Decision, e *entry, ok bool) {
	key, _, err := splitKey(rawURL)
	if err != nil {
		return Decision{}, nil, false
	}
	if e = c.robots.cache.peek(key); e == nil {
		return Decision{}, nil, false
	}
	d.describe(e, c.cfg.mode)
	return d, e, true
}

// bodyOf returns the robots.txt text e keeps, nil when it keeps none.
func bodyOf(e *entry) []byte {
	b, _ := e.text()
	return b
}

// sitemapsOf returns the sitemaps of the robots.txt d rests on.
func sitemapsOf(d Decision) []string {
	if r := d.Robots(); r != nil {
		return r.Sitemaps()
	}
	return nil
}

// forget drops rawURL's authority from c's memory.
func forget(c *Client, rawURL string) {
	if key, _, err := splitKey(rawURL); err == nil {
		c.robots.cache.forget(key)
	}
}

func TestAgentRulesCopyTheGroups(t *testing.T) {
	r := Parse([]byte("User-agent: a\nDisallow: /a\nCrawl-delay: 2\nUser-agent: *\nDisallow: /\n"))
	a := r.agentRules("a")
	if a.Allowed("/a/x") || !a.Allowed("/b") || len(a.Rules()) != 1 {
		t.Errorf("a's rules: %v", a.Rules())
	}
	if d, ok := a.crawlDelayOf(r, []string{"a"}); !ok || d.Seconds() != 2 {
		t.Errorf("crawl-delay %v %v", d, ok)
	}
	if other := r.agentRules("b"); other.Allowed("/b") {
		t.Error("b is not held to the * group")
	}
}

// TestCrawlDelayOfTokens: a crawler known by several tokens keeps the
// longest crawl-delay of those each token's groups give, of the groups it
// obeys; one token's is the first of its groups'.
func TestCrawlDelayOfTokens(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		tokens     []string
		want       float64 // seconds; -1 for none
	}{
		// A group ends at a rule: with none, the lines below make one.
		{"the family's group first", "User-agent: bot\nCrawl-delay: 1\nDisallow: /a\n\nUser-agent: bot-news\nCrawl-delay: 30\nDisallow: /b\n", []string{"bot-news", "bot"}, 30},
		{"the product's group first", "User-agent: bot-news\nCrawl-delay: 30\nDisallow: /b\n\nUser-agent: bot\nCrawl-delay: 1\nDisallow: /a\n", []string{"bot-news", "bot"}, 30},
		{"one group, no rule between", "User-agent: bot\nCrawl-delay: 1\n\nUser-agent: bot-news\nCrawl-delay: 30\n", []string{"bot-news", "bot"}, 1},
		{"the * group, obeyed by none", "User-agent: bot-news\nCrawl-delay: 1\nDisallow: /b\n\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n", []string{"bot-news", "bot"}, 1},
		{"the * group, obeyed by none, the family first", "User-agent: bot-news\nCrawl-delay: 1\nDisallow: /b\n\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n", []string{"bot", "bot-news"}, 1},
		{"the * group, obeyed by all", "User-agent: *\nCrawl-delay: 5\nCrawl-delay: 9\n", []string{"bot-news", "bot"}, 5},
		{"one group for both", "User-agent: bot-news\nUser-agent: bot\nCrawl-delay: 3\nCrawl-delay: 7\n", []string{"bot-news", "bot"}, 3},
		{"one token, its first", "User-agent: bot\nCrawl-delay: 2\nCrawl-delay: 9\n", []string{"bot"}, 2},
		{"none given", "User-agent: bot\nDisallow: /x\n", []string{"bot-news", "bot"}, -1},
	} {
		r := Parse([]byte(tc.body))
		d, ok := r.agentRules(tc.tokens...).crawlDelayOf(r, tc.tokens)
		if got := map[bool]float64{true: d.Seconds(), false: -1}[ok]; got != tc.want {
			t.Errorf("%s: %v (%v), want %v s", tc.name, d, ok, tc.want)
		}
	}
}

// splitKey is target.Split with the key as a string.
func splitKey(rawURL string) (key, path string, err error) {
	k, path, err := target.Split(rawURL, nil)
	return string(k), path, err
}

// usage returns the preferences that the Content-Usage rules of the
// groups state for path, as [Robots.Usage] reads them.
func (a *agentRules) usage(path string) Usage {
	return usageOf(a.t, a.mode, selected, a.t.SelectedRuns(), path, a.contentSignal())
}

// TestParseKeepsTheLargestBody: a body of the largest limit a Client
// reads (WithBodyLimit), read as the Client reads it and every byte of
// its patterns grown the most it can (Windows-1252 made UTF-8, then
// escaped), is kept whole: its last rule still decides.
func TestParseKeepsTheLargestBody(t *testing.T) {
	longtest.Gate(t)
	line := "Disallow: /" + strings.Repeat("\x80", 1000) + "\n"
	last := "Disallow: /secret\n"
	raw := make([]byte, 0, maxBodyLimit)
	raw = append(raw, "User-agent: *\n"...)
	for len(raw)+len(line)+len(last) <= maxBodyLimit {
		raw = append(raw, line...)
	}
	raw = append(raw, last...)
	b, err := body.Read(bytes.NewReader(raw), nil, maxBodyLimit)
	if err != nil || b.Truncated || b.Charset != "windows-1252" {
		t.Fatalf("Read: %s, truncated %v, %v", b.Charset, b.Truncated, err)
	}
	if r := Parse(b.Text); r.Allowed("bot", "/secret") {
		t.Errorf("a body of %d bytes, %d as read: its last rule was dropped", len(raw), len(b.Text))
	}
}

var rangeRE = regexp.MustCompile(`^(?i:bytes) ([0-9]+)-([0-9]+)/([0-9]+|\*)$`)

// FuzzContentRange: a 206's Content-Range is the whole page only when it
// reads, as RFC 9110 §14.4 writes it, "bytes 0-N/N+1"; anything else
// (a part, a length not known, a value that does not parse) leaves the
// page cut short, so that a receipt never calls a part the whole.
func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-9/10", "bytes 0-9/*", "BYTES 0-0/1", "bytes 1-9/10", "bytes 0-9/9", " bytes 0-9/10 ", "bytes +0-9/10", "bytes 0-9/010"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		size, whole := rangeWhole(http.Header{"Content-Range": {v}})
		m := rangeRE.FindStringSubmatch(strings.TrimSpace(v))
		want := false
		if m != nil && m[3] != "*" {
			first, e1 := strconv.ParseUint(m[1], 10, 62)
			last, e2 := strconv.ParseUint(m[2], 10, 62)
			n, e3 := strconv.ParseUint(m[3], 10, 62)
			want = e1 == nil && e2 == nil && e3 == nil && first == 0 && last+1 == n
		}
		if whole != want {
			t.Fatalf("rangeWhole(%q) = %d, %v; want whole %v", v, size, whole, want)
		}
		if whole && rangeShort(map[string][]string{"Content-Range": {v}}, size) {
			t.Fatalf("%q: whole, yet %d bytes short", v, size)
		}
		// A second field line: the same value reads alike, another as
		// no range, which of the two tells the part sent not known.
		if _, twice := rangeWhole(http.Header{"Content-Range": {v, " " + v}}); twice != whole {
			t.Fatalf("%q twice: whole %v, once %v", v, twice, whole)
		}
		if _, other := rangeWhole(http.Header{"Content-Range": {v, v + "0"}}); other {
			t.Fatalf("%q and %q: whole", v, v+"0")
		}
	})
}

// FuzzRobotsExtensions reads the crawl-delay, sitemaps and licenses of
// any body: CrawlDelay is the first crawl-delay of the agent's groups
// that parses, both modes agree on it, and every sitemap is a line's
// value.
func FuzzRobotsExtensions(f *testing.F) {
	f.Add([]byte("User-agent: *\nCrawl-delay: x\nCrawl-delay: 2.5\nSitemap: https://e/s.xml\n"), "FooBot")
	f.Add([]byte("user-agent: foobot\ncrawl-delay: 1e400\nlicense: https://l\n"), "foobot")
	f.Fuzz(func(t *testing.T, body []byte, agent string) {
		if len(body) > 1<<16 {
			return
		}
		r := Parse(body)
		d, ok := r.CrawlDelay(agent)
		if d < 0 || d > 24*60*60*1e9 || !ok && d != 0 {
			t.Fatalf("CrawlDelay = %v, %v", d, ok)
		}
		for _, s := range r.Sitemaps() {
			if !strings.Contains(string(body), s) {
				t.Fatalf("sitemap %q is in no line", s)
			}
		}
		for _, s := range r.Licenses() {
			if !strings.Contains(string(body), s) {
				t.Fatalf("license %q is in no line", s)
			}
		}
	})
}

// refFileRecords reads the Sitemap and License lines of body as
// SPEC.md §1 and §8 describe them, line by line and nothing more: a
// byte-order mark skipped, lines ended by LF, CR or CRLF, each cut at
// 16,663 bytes, at a NUL and at '#', key and value split at the first
// ':' (or two tokens split by blanks), trimmed of white space; a
// sitemap's key begins, ignoring ASCII case, with "sitemap" or
// "site-map", a License's is "license". It returns their values and
// line numbers.
func refFileRecords(body []byte) (sitemaps, licenses []parse.Record) {
	s := string(body)
	for _, b := range []byte{0xEF, 0xBB, 0xBF} {
		if s == "" || s[0] != b {
			break
		}
		s = s[1:]
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lower := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	const space = " \t\n\v\f\r"
	for i, line := range strings.Split(s, "\n") {
		line = line[:min(len(line), 16663)]
		line, _, _ = strings.Cut(line, "\x00")
		line, _, _ = strings.Cut(line, "#")
		line = strings.Trim(line, space)
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			tokens := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
			if len(tokens) != 2 {
				continue
			}
			key, value = tokens[0], tokens[1]
		}
		key, value = strings.Trim(key, space), strings.Trim(value, space)
		rec := parse.Record{Key: lower(key), Value: value, Line: i + 1}
		switch k := lower(key); {
		case strings.HasPrefix(k, "sitemap"), strings.HasPrefix(k, "site-map"):
			rec.Key = "sitemap"
			sitemaps = append(sitemaps, rec)
		case k == "license":
			licenses = append(licenses, rec)
		}
	}
	return sitemaps, licenses
}

// FuzzSitemapsAndLicenses: Sitemaps and Licenses of any body, in both
// modes, are the values of its Sitemap and License lines as a plain
// line-by-line reader (refFileRecords) finds them, in file order, the
// Licenses only those that are absolute http or https URLs with a host;
// package parser reports the same records on the same lines.
func FuzzSitemapsAndLicenses(f *testing.F) {
	f.Add([]byte("Sitemap: https://e.test/s.xml\nUser-agent: *\nSITE-MAP https://e.test/2.xml\nDisallow: /\nLicense: https://e.test/license.xml\n"))
	f.Add([]byte("\xEF\xBBsitemaps:\thttps://e.test/a # comment\r\nlicense:  /relative\rLicense: ftp://e.test/l\r\nlicense: https://\n"))
	f.Add([]byte("sitemap: https://e.test/\x00cut\nlicense https://e.test/l extra\nsitemap\v https://e.test/v\n#sitemap: https://no\n"))
	f.Add([]byte("Sitemap:\nlicence: https://e.test/l\nLICENSE: HTTPS://E.TEST/L\nsite map: https://e.test/s\n"))
	f.Add([]byte("sitemap: " + strings.Repeat("x", 16663) + "\nsitemap: https://e.test/é\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		maps, lics := refFileRecords(body)
		var wantMaps, wantLics []string
		for _, r := range maps {
			wantMaps = append(wantMaps, r.Value)
		}
		for _, r := range lics {
			if u, err := url.Parse(r.Value); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Hostname() != "" {
				wantLics = append(wantLics, r.Value)
			}
		}
		for _, mode := range []Mode{ModeGoogle, ModeRFC9309} {
			r := ParseMode(body, mode)
			if got := r.Sitemaps(); !slices.Equal(got, wantMaps) {
				t.Fatalf("mode %v: Sitemaps() = %q, want %q", mode, got, wantMaps)
			}
			if got := r.Licenses(); !slices.Equal(got, wantLics) {
				t.Fatalf("mode %v: Licenses() = %q, want %q", mode, got, wantLics)
			}
		}
		file := parser.Parse(body)
		for _, c := range []struct {
			name string
			got  []parser.Record
			want []parse.Record
		}{{"sitemaps", file.Sitemaps, maps}, {"licenses", file.Licenses, lics}} {
			if len(c.got) != len(c.want) {
				t.Fatalf("parser.Parse: %d %s, want %d", len(c.got), c.name, len(c.want))
			}
			for i, g := range c.got {
				if w := c.want[i]; g.Value != w.Value || g.Line != w.Line {
					t.Fatalf("parser.Parse: %s %d: %q on line %d, want %q on line %d", c.name, i, g.Value, g.Line, w.Value, w.Line)
				}
			}
		}
	})
}
