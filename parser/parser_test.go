package parser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/parser"
)

func ExampleParse() {
	// Parse reports what it skipped, tolerated or cut, for a linter.
	f := parser.Parse([]byte("Disallow: /early\n" +
		"User-agent FooBot\n" +
		"dissallow: /tmp\n" +
		"<html>\n" +
		"Crawl-delay: soon\n"))
	for _, d := range f.Diagnostics {
		fmt.Println(d)
	}
	// Output:
	// line 1: rule outside any group: "/early"
	// line 2: missing colon accepted: "User-agent"
	// line 3: misspelt key accepted: "dissallow"
	// line 4: not a key-value line
	// line 5: value does not parse: "soon"
}

// TestParseGroups: the parsed form keeps groups, rules, sitemaps and
// licences in file order, with their lines.
func TestParseGroups(t *testing.T) {
	f := parser.Parse([]byte("User-agent: *\nDisallow: /a\nSitemap: https://e.test/s.xml\nLicense: https://e.test/l.xml\n" +
		"User-agent: FooBot\nAllow: /b\nCrawl-delay: 3\n"))
	if len(f.Groups) != 2 || f.Lines != 8 {
		t.Fatalf("%d groups, %d lines", len(f.Groups), f.Lines)
	}
	g := f.Groups[1]
	if g.Agents[0].Token != "FooBot" || g.Rules[0] != (parser.Rule{Pattern: "/b", Line: 6, Allow: true}) ||
		g.Extensions[0] != (parser.Record{Key: "crawl-delay", Value: "3", Line: 7}) {
		t.Errorf("second group %+v", g)
	}
	if f.Sitemaps[0].Line != 3 || f.Licenses[0].Value != "https://e.test/l.xml" || len(f.Diagnostics) != 0 {
		t.Errorf("sitemaps %+v, licences %+v, diagnostics %v", f.Sitemaps, f.Licenses, f.Diagnostics)
	}
}

// TestDiagnosticKinds: a linter tells diagnostics apart by their Kind's
// String, whose texts the Diagnostic documentation lists.
func TestDiagnosticKinds(t *testing.T) {
	f := parser.Parse([]byte("Disallow: /early\nUser-agent FooBot\ndissallow: /tmp\n<html>\nCrawl-delay: soon\n" +
		"Disallow: tmp\nUser-agent: /\nAllow: /x\x00y\nFoo: bar\n"))
	want := []string{"rule outside any group", "missing colon accepted", "misspelt key accepted",
		"not a key-value line", "value does not parse", "pattern does not start with / or *",
		"user-agent names no crawler", "NUL byte ends line", "unknown key"}
	if len(f.Diagnostics) != len(want) {
		t.Fatalf("diagnostics %v, want kinds %q", f.Diagnostics, want)
	}
	for i, d := range f.Diagnostics {
		if d.Kind.String() != want[i] {
			t.Errorf("diagnostic %d: %v, want kind %q", i, d, want[i])
		}
	}

	// The other five documented kinds: a cut line, bytes that are not
	// UTF-8, a cut user-agent, and more than a thousand unknown records.
	body := "User-agent: Googlebot/2.1\nDisallow: /" + strings.Repeat("a", parser.MaxLineLength) +
		"\nDisallow: /\xff\n" + strings.Repeat("Foo: bar\n", 1001)
	seen := map[string]bool{}
	for _, d := range parser.Parse([]byte(body)).Diagnostics {
		seen[d.Kind.String()] = true
	}
	for _, k := range []string{"line truncated", "invalid UTF-8", "user-agent cut to product token",
		"further diagnostics not reported", "further unknown records not kept"} {
		if !seen[k] {
			t.Errorf("no %q diagnostic; saw %v", k, seen)
		}
	}
}
