package main

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

func TestEmptyGroups(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // line:code of agent-without-rules and disallow-all findings
	}{
		{"named group without rules", "User-agent: *\nDisallow: /x\n\nUser-agent: FooBot\n", []string{"4:agent-without-rules"}},
		{"reported on its named line", "User-agent: *\nDisallow: /x\n\nUser-agent: 123\nUser-agent: FooBot\n", []string{"5:agent-without-rules"}},
		{"on the line of the crawler without rules", "User-agent: *\nDisallow: /x\n\nUser-agent: BarBot\nDisallow: /y\n\nUser-agent: BarBot\nUser-agent: FooBot\n", []string{"8:agent-without-rules"}},
		{"once per crawler, on its line", "User-agent: *\nDisallow: /x\n\nUser-agent: FooBot\nUser-agent: BazBot\nUser-agent: foobot\n", []string{"4:agent-without-rules", "5:agent-without-rules"}},
		{"no * rules to escape", "User-agent: *\nCrawl-delay: 1\n\nUser-agent: FooBot\n", nil},
		{"rules in another group naming it", "User-agent: *\nDisallow: /x\n\nUser-agent: FooBot\nDisallow: /y\n\nUser-agent: FooBot\n", nil},
		{"* disallows all", "User-agent: *\nDisallow: /\n", []string{"2:disallow-all"}},
		{"* disallows all with a star", "User-agent: *\nAllow: /x\nDisallow: /*\n", []string{"3:disallow-all"}},
		{"allow wins the tie for /", "User-agent: *\nDisallow: /\nAllow: /\n", nil},
		{"a longer allow decides /", "User-agent: *\nDisallow: /\nAllow: /$\n", nil},
		{"only / is disallowed", "User-agent: *\nDisallow: /$\n", nil},
		{"only paths ending in / are", "User-agent: *\nDisallow: */$\n", nil},
		{"* disallows all, anchored", "User-agent: *\nDisallow: /*$\n", []string{"2:disallow-all"}},
		{"* disallows all from *", "User-agent: *\nDisallow: *\n", []string{"2:disallow-all"}},
		{"/ anchored, the rest by another rule", "User-agent: *\nDisallow: /$\nDisallow: /\n", []string{"3:disallow-all"}},
		{"a comment ends the pattern", "User-agent: *\nDisallow: /#x\n", []string{"2:disallow-all"}},
		{"merged * groups", "User-agent: *\nAllow: /x\n\nUser-agent: FooBot\nDisallow: /y\n\nUser-agent: *\nDisallow: /\n", []string{"8:disallow-all"}},
		{"a named group may disallow all", "User-agent: FooBot\nDisallow: /\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codesAt(lintText(t, tc.body), codeNoRules, codeDisallowAll)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestJoinedGroups: a user-agent line after a group's records, with no
// Allow or Disallow between, joins that group, as the library reads it:
// joined-group, or usage-group when Content-Usage rules stand between;
// the message names the first line between.
func TestJoinedGroups(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"after a Crawl-delay", "User-agent: Slurp\nCrawl-delay: 10\n\nUser-agent: BadBot\nDisallow: /\n", []string{"4:joined-group"}},
		{"after a Content-Signal", "User-agent: GPTBot\nContent-Signal: ai-train=no\nUser-agent: CCBot\nDisallow: /\n", []string{"3:joined-group"}},
		{"after an unknown key", "User-agent: A\nNoindex: /x\nUser-agent: B\nDisallow: /\n", []string{"3:joined-group"}},
		{"Content-Usage first", "User-agent: A\nContent-Usage: train-ai=n\nCrawl-delay: 1\nUser-agent: B\nDisallow: /\n", []string{"4:usage-group"}},
		{"once per line above", "User-agent: A\nCrawl-delay: 1\nUser-agent: B\nUser-agent: C\nHost: x\nUser-agent: D\n", []string{"3:joined-group", "6:joined-group"}},
		{"into the * group", "User-agent: SemrushBot\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /tmp/\n", []string{"4:joined-group"}},
		{"a rule ends the group", "User-agent: A\nCrawl-delay: 1\nDisallow: /x\nUser-agent: B\nDisallow: /\n", nil},
		{"records after the rules", "User-agent: A\nDisallow: /x\nCrawl-delay: 1\nUser-agent: B\nDisallow: /\n", nil},
		{"agents together", "User-agent: A\nUser-agent: B\nCrawl-delay: 1\nDisallow: /\n", nil},
		{"its own group", "User-agent: *\nSitemap: https://example.com/s.xml\nUser-agent: *\nDisallow: /x\n", nil},
		{"its own crawler", "User-agent: FooBot\nCrawl-delay: 1\nUser-agent: foobot/2.0\nDisallow: /x\n", nil},
		{"another after its own, adjacent", "User-agent: FooBot\nCrawl-delay: 10\nUser-agent: FooBot\nUser-agent: BarBot\nDisallow: /\n", []string{"4:joined-group"}},
		{"Content-Usage, then its own", "User-agent: *\nContent-Usage: train-ai=n\nUser-agent: *\nUser-agent: GoodBot\nAllow: /\n", []string{"4:usage-group"}},
		{"another after its own", "User-agent: FooBot\nCrawl-delay: 1\nUser-agent: foobot/2.0\nHost: x\nUser-agent: BarBot\nDisallow: /x\n", []string{"5:joined-group"}},
		{"across a Sitemap", "User-agent: *\nSitemap: https://example.com/s.xml\n\nUser-agent: BadBot\nDisallow: /\n", []string{"4:joined-group"}},
		{"the first line between named", "User-agent: A\nLicense: https://example.com/l\nCrawl-delay: 1\nUser-agent: B\nDisallow: /\n", []string{"4:joined-group"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := lintText(t, tc.body)
			if got := codesAt(fs, codeJoinedGroup, codeUsageGroup); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	fs := lintText(t, "User-agent: Slurp\nCrawl-delay: 10\nUser-agent: BadBot\nDisallow: /\n")
	if i := slices.IndexFunc(fs, func(f finding) bool { return f.Code == codeJoinedGroup }); i < 0 || !strings.Contains(fs[i].Message, "past line 2 (Crawl-delay: 10)") {
		t.Errorf("findings %+v; want joined-group naming line 2 as written", fs)
	}
}

// TestDisallowAllSaysWhatIsAllowed: disallow-all says the whole site only
// when no Allow rule of the * groups can decide a path; else it names one.
func TestDisallowAllSaysWhatIsAllowed(t *testing.T) {
	const some = "every crawler without a group of its own is disallowed every path but what Allow rules allow, such as "
	for _, tc := range []struct{ body, want string }{
		{"User-agent: *\nDisallow: /\n", "every crawler without a group of its own is disallowed the whole site"},
		{"User-agent: *\nDisallow: /\nAllow: /public/\n", some + "line 3 (Allow: /public/)"},
		{"User-agent: *\nAllow: /x\nDisallow: /*\n", some + "line 2 (Allow: /x)"},
		// The rule that disallows every path outranks an Allow: /.
		{"User-agent: *\nDisallow: /*\nAllow: /\n", "every crawler without a group of its own is disallowed the whole site"},
	} {
		var got []string
		for _, f := range lintText(t, tc.body) {
			if f.Code == codeDisallowAll {
				got = append(got, f.Message)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q: disallow-all %q, want %q", tc.body, got, tc.want)
		}
	}
}

// TestRuleSetsOnce: crawlers that obey the same groups make one set, so
// that a group naming thousands of tokens is linted once, not once for
// each (8 s for 2,000 of them and as many rules).
func TestRuleSetsOnce(t *testing.T) {
	f := parser.Parse([]byte("User-agent: a\nUser-agent: b\nUser-agent: *\nDisallow: /x\n\nUser-agent: c\nUser-agent: d\nDisallow: /y\n\nUser-agent: a\nAllow: /z\n"))
	sets, global := ruleSets(f)
	if want := [][]int{{0}, {0, 2}, {1}}; !slices.EqualFunc(sets, want, slices.Equal) || !slices.Equal(global, []int{0}) {
		t.Errorf("ruleSets = %v, %v; want %v, [0]", sets, global, want)
	}
}

// crowdToken returns a distinct product token (letters only: a digit
// would end the token) for i.
func crowdToken(i int) string {
	b := []byte("bot")
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

// crowdFile is a robots.txt whose first group is named by n
// crawlers and holds r rules, and in which each of those crawlers also
// has a group of its own with one rule: n crawlers, each obeying a
// different set of groups, every set holding the first group's r rules.
func crowdFile(n, r int) []byte {
	var b strings.Builder
	for i := range n {
		b.WriteString("User-agent: " + crowdToken(i) + "\n")
	}
	for j := range r {
		fmt.Fprintf(&b, "Disallow: /%d\n", j)
	}
	for i := range n {
		b.WriteString("User-agent: " + crowdToken(i) + "\nAllow: /z\n")
	}
	return []byte(b.String())
}

// lintAllocs runs "lint -q -" on body and returns the bytes allocated.
func lintAllocs(t *testing.T, body []byte) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var out, errb bytes.Buffer
	code := runIO([]string{"lint", "-q", "-"}, bytes.NewReader(body), &out, &errb)
	runtime.ReadMemStats(&after)
	if code != exitOK {
		t.Fatalf("lint exit %d, stderr %q", code, errb.String())
	}
	return after.TotalAlloc - before.TotalAlloc
}

// crowdUsageFile is crowdFile with r Content-Usage rules in the
// shared group instead of r Disallow rules (one Disallow ends its
// user-agent lines).
func crowdUsageFile(n, r int) []byte {
	var b strings.Builder
	for i := range n {
		b.WriteString("User-agent: " + crowdToken(i) + "\n")
	}
	for j := range r {
		fmt.Fprintf(&b, "Content-Usage: /%d train-ai=n\n", j)
	}
	b.WriteString("Disallow: /x\n")
	for i := range n {
		b.WriteString("User-agent: " + crowdToken(i) + "\nAllow: /z\n")
	}
	return []byte(b.String())
}

// TestLintCrowdBounded: a file of n crawlers that share one group of r
// rules, each crawler also in a group of its own (so that every crawler
// obeys another set of groups), cost lint n×r: a 109 KB robots.txt
// allocated about a gigabyte and spun for seconds, a 27 KB one of
// Content-Usage rules over 100 MB. Measured in bytes allocated, for n
// and 2n: past maxSetRules crawlers are left unchecked, and said so.
func TestLintCrowdBounded(t *testing.T) {
	for _, c := range []struct {
		name       string
		small, big []byte
	}{
		{"disallow rules (findShadows)", crowdFile(500, 2000), crowdFile(1000, 4000)},
		{"content-usage rules (usageConflicts)", crowdUsageFile(125, 250), crowdUsageFile(250, 500)},
	} {
		t.Run(c.name, func(t *testing.T) {
			a1 := lintAllocs(t, c.small)
			a2 := lintAllocs(t, c.big)
			in := float64(len(c.big)) / float64(len(c.small))
			ratio := float64(a2) / float64(a1)
			t.Logf("file %d bytes: %d MB allocated; file %d bytes: %d MB allocated; x%.2f for x%.2f the input",
				len(c.small), a1>>20, len(c.big), a2>>20, ratio, in)
			if ratio > 1.5*in {
				t.Errorf("lint's allocation grows super-linearly: x%.2f for x%.2f the input", ratio, in)
			}
			if a2 > 100<<20 {
				t.Errorf("lint of a %d-byte robots.txt allocated %d MB (%dx the file), more than 100 MB", len(c.big), a2>>20, a2/uint64(len(c.big)))
			}
		})
	}
	var out, errb bytes.Buffer
	runIO([]string{"lint", "-json", "-"}, bytes.NewReader(crowdFile(1000, 4000)), &out, &errb)
	if !strings.Contains(out.String(), `"not-checked"`) {
		t.Errorf("lint of crawlers past its budget: no not-checked finding in\n%.2000s", out.String())
	}
}

// TestLintBudgetShadowsNoUncheckedRule: group 0 is named by 140 crawlers
// and by lastbot, and holds "Disallow: /p" and 1000 filler rules; each
// of the 140 also has a group of its own with "Allow: /p", which
// outranks the Disallow for them. For lastbot, whose set falls past
// maxSetRules, "Disallow: /p" decides: lint must not call it shadowed
// (it did, counting only the sets it checked).
func TestLintBudgetShadowsNoUncheckedRule(t *testing.T) {
	var b strings.Builder
	const n = 140
	for i := range n {
		b.WriteString("User-agent: " + crowdToken(i) + "\n")
	}
	b.WriteString("User-agent: lastbot\nDisallow: /p\n")
	for j := range 1000 {
		fmt.Fprintf(&b, "Disallow: /f%d\n", j)
	}
	for i := range n {
		b.WriteString("\nUser-agent: " + crowdToken(i) + "\nAllow: /p\n")
	}
	var out, errb bytes.Buffer
	runIO([]string{"lint", "-"}, strings.NewReader(b.String()), &out, &errb)
	t.Logf("lint output:\n%s%s", out.String(), errb.String())
	if strings.Contains(out.String()+errb.String(), "[shadowed-rule]") {
		t.Errorf("lint reports line %d (Disallow: /p) as a shadowed rule that never decides; it decides for lastbot, "+
			"whose set lint did not check (past maxSetRules): a rule of a group shared with unchecked crawlers cannot be called shadowed", n+2)
	}
}

// TestLintJoinedAcrossSkippedLine: a group whose only line the crawlers
// skip (Crawl delay 10, Request rate 1/10, Disallow /a /b) has no rule, so
// the next user-agent line joins it, as it joins across a record; the
// crawler above then gets the next group's Disallow: / and may fetch
// nothing. lint must say so on that user-agent line, as joined-group does
// across "Host: a.test" or "Request-rate: 1/5".
func TestLintJoinedAcrossSkippedLine(t *testing.T) {
	for _, line := range []string{"Crawl delay 10", "Crawl-delay 10 seconds", "Request rate 1/10", "Disallow /a /b"} {
		body := "User-agent: Googlebot\n" + line + "\n\nUser-agent: BadBot\nDisallow: /\n"
		if robotstxt.Parse([]byte(body)).Allowed("Googlebot", "/index.html") {
			t.Fatalf("%q: the Client allows Googlebot; the test assumes it joins BadBot's group", line)
		}
		var got []string
		joined := false
		for _, f := range lintText(t, body) {
			got = append(got, fmt.Sprintf("%d:%s %s", f.Line, f.Severity, f.Code))
			joined = joined || f.Line == 4 && (f.Code == codeJoinedGroup || f.Severity == sevError)
		}
		if !joined {
			t.Errorf("%q: Googlebot joins BadBot's group and is disallowed every URL, but lint says %q; want joined-group on line 4", line, got)
		}
	}
}
