package main

import (
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

func TestShadowedRules(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // line:code of shadowed-rule and duplicate-rule findings
	}{
		{"same pattern, allow wins the tie", "User-agent: *\nDisallow: /x\nAllow: /x\n", []string{"2:shadowed-rule"}},
		{"allow first", "User-agent: *\nAllow: /x\nDisallow: /x\n", []string{"3:shadowed-rule"}},
		{"longer prefix with a star", "User-agent: *\nAllow: /d/\nDisallow: /d/*\n", []string{"2:shadowed-rule"}},
		{"shorter pattern of the same paths loses", "User-agent: *\nDisallow: /a/b\nAllow: /a*\n", nil},
		{"equal length, disallow does not win a tie", "User-agent: *\nAllow: /ab\nDisallow: /a*\n", nil},
		{"equal length, allow wins a tie", "User-agent: *\nDisallow: /ab\nAllow: /a*\n", []string{"2:shadowed-rule"}},
		{"wildcard in the middle", "User-agent: *\nDisallow: /*.pdf\nAllow: /*.pdf\n", []string{"2:shadowed-rule"}},
		{"same kind is no shadow", "User-agent: *\nDisallow: /a\nDisallow: /a*\n", nil},
		{"anchored patterns differ", "User-agent: *\nDisallow: /a$\nAllow: /a\n", nil},
		{"duplicate", "User-agent: *\nDisallow: /a\nDisallow: /a\n", []string{"3:duplicate-rule"}},
		{"duplicate across merged groups", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /a\n", []string{"5:duplicate-rule"}},
		{"not across crawlers", "User-agent: A\nDisallow: /a\n\nUser-agent: B\nDisallow: /a\nAllow: /a\n", []string{"5:shadowed-rule"}},
		{"only for one of the group's crawlers", "User-agent: A\nUser-agent: B\nDisallow: /a\n\nUser-agent: B\nAllow: /a\n", nil},
		{"for each of the group's crawlers", "User-agent: A\nUser-agent: B\nDisallow: /a\n\nUser-agent: B\nUser-agent: A\nAllow: /a\n", []string{"3:shadowed-rule"}},
		{"an index page also decides for its directory", "User-agent: *\nAllow: /d/index.html\nDisallow: /d/index.html*\n", nil},
		{"an index page's allow is its directory's too", "User-agent: *\nDisallow: /d/$\nAllow: /d/index.html\n", []string{"2:shadowed-rule"}},
		{"and wins the tie in any order", "User-agent: *\nAllow: /*/index.htm\nDisallow: /*/$\n", []string{"3:shadowed-rule"}},
		{"another directory's index page", "User-agent: *\nDisallow: /d/$\nAllow: /e/index.html\nAllow: /d/e/index.html\n", nil},
		{"a directory rule that is no index page's", "User-agent: *\nDisallow: /d/x$\nAllow: /d/index.html\n", nil},
		{"empty patterns match nothing", "User-agent: *\nDisallow:\nAllow:\n", nil},
		{"a short literal of many stars outranks", "User-agent: *\nDisallow: /aaaaaaa\nAllow: /a*******\n", []string{"2:shadowed-rule"}},
		{"past keys of other lengths", "User-agent: *\nDisallow: /aaaaaaa\nAllow: /aaaa\nDisallow: /aa*\nAllow: /a*******\n", []string{"2:shadowed-rule", "4:shadowed-rule"}},
		{"stars short of outranking", "User-agent: *\nDisallow: /aaaaaaa\nAllow: /a*****\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codesAt(lintText(t, tc.body), codeShadowed, codeDuplicate)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestShadowedByIndexPage: the allow of an index page beats its
// directory's disallow at the directory's own length, by the tie.
func TestShadowedByIndexPage(t *testing.T) {
	found := 0
	for _, f := range lintText(t, "User-agent: *\nDisallow: /d/$\nAllow: /d/index.html\n") {
		if f.Code == codeShadowed {
			found++
			if !strings.HasSuffix(f.Message, "(allow wins a tie)") {
				t.Errorf("%s, want it to say allow wins a tie", f.Message)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d shadowed-rule findings, want 1", found)
	}
}

// TestShadowedRuleNeverDecides checks the claim of every shadowed-rule
// finding on the corpus: for paths the rule matches, another rule decides.
func TestShadowedRuleNeverDecides(t *testing.T) {
	longTest(t)
	for _, d := range corpusDocuments(t) {
		f := d.name
		r := robotstxt.Parse(d.body.Text)
		p := parser.Parse(d.body.Text)
		for _, x := range lintDocument(d, robotstxt.ModeGoogle) {
			if x.Code != codeShadowed {
				continue
			}
			for gi := range p.Groups {
				for _, ru := range p.Groups[gi].Rules {
					if ru.Line != x.Line {
						continue
					}
					path := literalStart(&ru) + "probe"
					for _, a := range p.Groups[gi].Agents {
						agent := a.Token
						if agent == "" && !a.Global {
							continue // names no crawler
						}
						if a.Global {
							agent = "NoSuchCrawlerAtAll"
						}
						if v := r.Check(agent, path); v.Rule.Line == ru.Line {
							t.Errorf("%s:%d: reported as never deciding, but decides %s for %s", f, x.Line, path, agent)
						}
					}
				}
			}
		}
	}
}

// BenchmarkLintLongRulesOfManyCrawlers lints a hostile robots.txt under
// the 500 KiB crawlers read (cli84): 500 crawlers in one group of long
// rules and a rule of 16,000 '*'s, each crawler in a group of its own too,
// so lint checks 500 sets of long rules for shadows; parsing the file
// is the baseline. Looking up every prefix of a long rule took lint a
// minute for 8,500 crawlers.
func BenchmarkLintLongRulesOfManyCrawlers(b *testing.B) {
	const crawlers, long = 500, 16000
	name := func(i int) string { // a product token holds no digit
		return string([]byte{'a' + byte(i%26), 'a' + byte(i/26%26), 'a' + byte(i/676%26)})
	}
	var f strings.Builder
	for i := range crawlers {
		f.WriteString("User-agent: " + name(i) + "bot\n")
	}
	f.WriteString("Disallow: /" + strings.Repeat("*", long) + "\n")
	for _, c := range "abcdefghij" {
		f.WriteString("Disallow: /" + strings.Repeat(string(c), long) + "\n")
	}
	for i := range crawlers {
		f.WriteString("User-agent: " + name(i) + "bot\nAllow: /\n")
	}
	d := &document{name: "hostile"}
	if err := d.decode([]byte(f.String()), nil); err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			parser.Parse(d.body.Text)
		}
	})
	b.Run("lint", func(b *testing.B) {
		for b.Loop() {
			lintDocument(d, robotstxt.ModeGoogle)
		}
	})
}
