package robotstxt

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/robotsgate/robotstxt/internal/match"
)

// fuzzSeeds adds the conformance vectors and the corpus sample's
// fuzz-seed files (index.tsv column seed) to f.
func fuzzSeeds(f *testing.F) {
	for _, v := range loadVectors(f) {
		f.Add(v.body(f), v.Agent, v.url())
	}
	for _, r := range readCorpusIndex(f, corpusSample) {
		if !r.seed {
			continue
		}
		body, err := os.ReadFile(filepath.Join(corpusSample, r.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, "Googlebot", "https://example.com/")
	}
}

// lineEndings returns body with every line end (CRLF, CR or LF) written
// as nl.
func lineEndings(body []byte, nl string) []byte {
	b := bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n"))
	b = bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
	return bytes.ReplaceAll(b, []byte("\n"), []byte(nl))
}

// FuzzParseAllowed parses any body in both modes and checks a decision
// for any crawler and URL. Beyond not panicking: diagnostics point at real
// lines in order, the deciding rule agrees with the decision and is one
// of the rules that apply, no rules means allowed, the Crawler decides
// alike, the line-end style
// changes nothing, and small inputs decide as the reference does.
func FuzzParseAllowed(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /\n"), "FooBot", "/")
	f.Add([]byte("user-agent FooBot\r\nallow /a*b$\rdisallow: /\n"), "foobot", "http://x/ab?c#d")
	f.Add([]byte("\xEF\xBBUser-agent: *\nAllow: /d/index.html\nDisallow: /d/\n"), "", "/d/")
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		for _, mode := range []Mode{ModeGoogle, ModeRFC9309} {
			r := ParseMode(body, mode)
			file := fileOf(r)
			last := 0
			for _, d := range lint(body, mode) {
				if d.Line < 1 || d.Line > file.Lines || d.Line < last {
					t.Fatalf("diagnostic %v out of 1..%d or out of order", d, file.Lines)
				}
				last = d.Line
			}
			v := r.Check(agent, url)
			rules := r.Rules(agent)
			if !matched(v) {
				if !v.Allowed {
					t.Fatalf("disallowed with no deciding rule")
				}
			} else {
				if v.Rule.Allow != v.Allowed {
					t.Fatalf("verdict %v decided by a rule with Allow=%v", v.Allowed, v.Rule.Allow)
				}
				if v.Rule.Line < 1 || v.Rule.Line > file.Lines {
					t.Fatalf("deciding rule on line %d of %d", v.Rule.Line, file.Lines)
				}
				found := false
				for i := range rules {
					found = found || rules[i] == v.Rule
				}
				if !found {
					t.Fatalf("deciding rule %+v is not among the %d rules that apply", v.Rule, len(rules))
				}
			}
			if len(rules) == 0 && (!v.Allowed || matched(v)) {
				t.Fatalf("no rules apply, yet %+v", v)
			}
			if r.Allowed(agent, url) != v.Allowed {
				t.Fatalf("Allowed and Check disagree")
			}
			if av := r.agentRules(agent).Check(url); !sameVerdict(av, v) {
				t.Fatalf("Crawler.Check %+v, Check %+v", av, v)
			}
			for _, nl := range []string{"\n", "\r\n", "\r"} {
				if v2 := ParseMode(lineEndings(body, nl), mode).Check(agent, url); !sameVerdict(v2, v) {
					t.Fatalf("with line ends %q: %+v, as given: %+v", nl, v2, v)
				}
			}
			if mode != ModeGoogle || len(url) > 300 || len(rules) > 64 {
				continue
			}
			small := true
			for _, ru := range rules {
				small = small && len(ru.Pattern) <= 300
			}
			if !small {
				continue
			}
			allow, line := refDecide(rules, match.Path(url))
			if err := verdictMismatch(v, allow, line); err != "" {
				t.Fatalf("Check(%q, %q) differs from the reference: %s", agent, url, err)
			}
		}
	})
}
