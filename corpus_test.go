package robotstxt

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus parses every real-world body of the shared corpus once and
// checks a few decisions on each: no panic, diagnostics on real lines,
// deciding rules that agree with the decision, and the line-end
// independence of the decisions.
func TestCorpus(t *testing.T) {
	dir := sharedDir(t, "corpus")
	idx, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var names []string
	sc := bufio.NewScanner(idx)
	sc.Scan() // header
	for sc.Scan() {
		name, _, _ := strings.Cut(sc.Text(), "\t")
		names = append(names, name)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(names) != 3224 {
		t.Fatalf("index lists %d files, want 3224", len(names))
	}
	agents := []string{"Googlebot", "GPTBot", "bingbot", ""}
	urls := []string{"/", "https://example.com/admin/", "/search?q=x", "/index.html", "/wp-admin/admin-ajax.php"}
	var withRules, disallowed, sitemaps int
	for _, name := range names {
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		r := Parse(body)
		lines := r.File().Lines
		last := 0
		for _, d := range lint(body, ModeGoogle) {
			if d.Line < 1 || d.Line > lines || d.Line < last {
				t.Errorf("%s: diagnostic %v out of 1..%d or out of order", name, d, lines)
				break
			}
			last = d.Line
		}
		if len(r.Rules("Googlebot")) > 0 {
			withRules++
		}
		sitemaps += len(r.Sitemaps())
		crlf := Parse(lineEndings(body, "\r\n"))
		for _, agent := range agents {
			for _, u := range urls {
				v := r.Check(agent, u)
				if !v.Allowed {
					disallowed++
				}
				if !v.Matched() && !v.Allowed || v.Matched() && (v.Rule.Allow != v.Allowed || v.Rule.Line < 1 || v.Rule.Line > lines) {
					t.Errorf("%s: Check(%q, %q) = %+v (lines %d)", name, agent, u, v, lines)
				}
				if v2 := crlf.Check(agent, u); !sameVerdict(v, v2) {
					t.Errorf("%s: Check(%q, %q) = %+v, with CRLF line ends %+v", name, agent, u, v, v2)
				}
			}
		}
	}
	// The corpus is mostly real robots.txt files: a parser that read
	// nothing would pass the checks above trivially.
	if withRules < 2000 || disallowed == 0 || sitemaps < 500 {
		t.Errorf("only %d files with rules for Googlebot, %d disallowed checks, %d sitemaps", withRules, disallowed, sitemaps)
	}
	t.Logf("%d files, %d with rules for Googlebot, %d disallowed checks, %d sitemaps", len(names), withRules, disallowed, sitemaps)
}
