package parser_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/parse"
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
		!reflect.DeepEqual(g.Extensions[0], parser.Record{Key: "crawl-delay", Value: "3", Line: 7}) {
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
	want := []struct {
		kind parser.Kind
		text string
	}{
		{parser.RuleOutsideGroup, "rule outside any group"}, {parser.MissingColon, "missing colon accepted"},
		{parser.MisspeltKey, "misspelt key accepted"}, {parser.NoKey, "not a key-value line"},
		{parser.BadValue, "value does not parse"}, {parser.NoLeadingSlash, "pattern does not start with / or *"},
		{parser.EmptyAgent, "user-agent names no crawler"}, {parser.NULByte, "NUL byte ends line"},
		{parser.UnknownKey, "unknown key"},
	}
	if len(f.Diagnostics) != len(want) {
		t.Fatalf("diagnostics %v, want kinds %v", f.Diagnostics, want)
	}
	for i, d := range f.Diagnostics {
		if d.Kind != want[i].kind || d.Kind.String() != want[i].text {
			t.Errorf("diagnostic %d: %v, want kind %q", i, d, want[i].text)
		}
	}

	// The other five documented kinds: a cut line, bytes that are not
	// UTF-8, a cut user-agent, and more than a thousand unknown records.
	body := "User-agent: Googlebot/2.1\nDisallow: /" + strings.Repeat("a", parser.MaxLineLength) +
		"\nDisallow: /\xff\n" + strings.Repeat("Foo: bar\n", 1000+1)
	seen := map[parser.Kind]string{}
	for _, d := range parser.Parse([]byte(body)).Diagnostics {
		seen[d.Kind] = d.Kind.String()
	}
	for _, k := range []struct {
		kind parser.Kind
		text string
	}{
		{parser.LineTooLong, "line truncated"}, {parser.InvalidUTF8, "invalid UTF-8"},
		{parser.AgentCut, "user-agent cut to product token"},
		{parser.TooManyDiagnostics, "further diagnostics not reported"},
		{parser.UnknownRecordsDropped, "further unknown records not kept"},
	} {
		if seen[k.kind] != k.text {
			t.Errorf("no %q diagnostic; saw %v", k.text, seen)
		}
	}
}

func ExampleLines() {
	body := []byte("User-agent: FooBot\n" +
		"disallow /private # no colon\n" +
		"just some words here\n")
	for l := range parser.Lines(body) {
		fmt.Printf("%d %q %q colon=%v\n", l.Num, l.Key, l.Value, l.Colon)
	}
	// Output:
	// 1 "User-agent" "FooBot" colon=true
	// 2 "disallow" "/private" colon=false
	// 3 "" "" colon=false
	// 4 "" "" colon=false
}

// TestLinesText: the Text of the lines, joined by line ends, is the body
// as written after its byte-order mark, comments, white space and lines
// longer than MaxLineLength kept whole.
func TestLinesText(t *testing.T) {
	long := "Disallow: /" + strings.Repeat("a", parser.MaxLineLength)
	for _, body := range []string{
		"",
		"\xef\xbb\xbfUser-agent: *\r\nDisallow: /a  # old\rAllow:/b\n\n  Disallow /c\nnothing",
		"\xef\xbbUser-agent: a\n\r\n\r" + long + "\n",
	} {
		var texts []string
		for l := range parser.Lines([]byte(body)) {
			texts = append(texts, l.Text)
		}
		want := body
		for _, b := range []byte("\xef\xbb\xbf") { // the mark, or its start
			if len(want) == 0 || want[0] != b {
				break
			}
			want = want[1:]
		}
		want = strings.ReplaceAll(strings.ReplaceAll(want, "\r\n", "\n"), "\r", "\n")
		if got := strings.Join(texts, "\n"); got != want {
			t.Errorf("the lines of %.40q joined: %.40q", body, got)
		}
	}
}

// TestUnknownKeyText: an UnknownKey diagnostic names the key as the
// record keeps it, lower-cased ASCII and every other byte as written.
func TestUnknownKeyText(t *testing.T) {
	for _, key := range []string{"X-Robots", "x-\u00c4rger", "k\xff", "Kelvin\u212a"} {
		f := parser.Parse([]byte("User-agent: *\n" + key + ": v\n"))
		i := slices.IndexFunc(f.Diagnostics, func(d parser.Diagnostic) bool { return d.Kind == parser.UnknownKey })
		if len(f.Groups) != 1 || len(f.Groups[0].Extensions) != 1 || i < 0 {
			t.Fatalf("%q: %+v", key, f)
		}
		if rec, dg := f.Groups[0].Extensions[0].Key, f.Diagnostics[i]; dg.Text != rec {
			t.Errorf("%q: the record's key %q, the diagnostic's %q", key, rec, dg.Text)
		}
	}
}

// TestParseRFC9309: RFC 9309 decodes the escapes of unreserved
// characters in patterns, Google's parser only upper-cases them.
func TestParseRFC9309(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /%7efred/%2f\nContent-Usage: /%7Ejo train-ai=n\n")
	for _, tc := range []struct {
		f            *parser.File
		pattern, use string
	}{
		{parser.Parse(body), "/%7Efred/%2F", "/%7Ejo"},
		{parser.ParseRFC9309(body), "/~fred/%2F", "/~jo"},
	} {
		if g := tc.f.Groups[0]; g.Rules[0].Pattern != tc.pattern || g.Usage[0].Path != tc.use {
			t.Errorf("rule %q, usage path %q; want %q, %q", g.Rules[0].Pattern, g.Usage[0].Path, tc.pattern, tc.use)
		}
	}
}

func TestCrawlDelay(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"1.5", 1500 * time.Millisecond, true},
		{"0", 0, true},
		{"1e9", 24 * time.Hour, true},
		{"soon", 0, false},
		{"-1", 0, false},
		{"NaN", 0, false},
	} {
		d, err := parser.CrawlDelay(tc.value)
		if d != tc.want || (err == nil) != tc.ok {
			t.Errorf("CrawlDelay(%q) = %v, %v; want %v, ok %v", tc.value, d, err, tc.want, tc.ok)
		}
	}
}

// TestParseKeepsEverything: over the corpus and a body with every kind
// of line, in both readings, the File holds everything its twin in
// internal/parse holds, field for field, and each Content-Usage rule and
// Content-Signal record speaks for the user-agent lines its twin says.
func TestParseKeepsEverything(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/files/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	bodies := [][]byte{[]byte("Crawl-delay: 1\nUser-agent: FooBot/1\nContent-Usage: /a train-ai=n\nUser-agent: *\nContent-Signal: search=yes\nDisallow: /%7ex\n" +
		"Allow: /y\nCrawl-delay: 2\nSitemap: https://e.test/s\nLicense: https://e.test/l\nfoo\n" +
		"Content-Usage: /c search=n\x00cut\nContent-Signal: search=no\x00cut\n")}
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, body)
	}
	for i, body := range bodies {
		for _, rfc := range []bool{false, true} {
			f := parser.Parse(body)
			if rfc {
				f = parser.ParseRFC9309(body)
			}
			twin := parse.Parser{RFC9309: rfc}.Parse(body)
			// The lines a statement speaks for, which the twin gives by
			// their bounds, then the rest field for field.
			for gi, g := range f.Groups {
				speakers := twin.Groups[gi].Speakers
				check := func(line int, agents []parser.UserAgent) {
					b, ok := speakers[line]
					if !ok || !reflect.DeepEqual(agents, g.Agents[b[0]:b[1]]) {
						t.Fatalf("body %d (RFC 9309 %v): line %d speaks for %v, its twin for %v", i, rfc, line, agents, b)
					}
				}
				for j, u := range g.Usage {
					check(u.Line, u.Agents)
					if _, cut := slices.BinarySearch(twin.Cut, u.Line); u.Cut != cut {
						t.Fatalf("body %d: rule %+v Cut %v, its twin %v", i, u, u.Cut, cut)
					}
					g.Usage[j].Agents, g.Usage[j].Cut = nil, false
				}
				for j, r := range g.Extensions {
					if _, cut := slices.BinarySearch(twin.Cut, r.Line); r.Cut != cut {
						t.Fatalf("body %d: record %+v Cut %v, its twin %v", i, r, r.Cut, cut)
					}
					if r.Key == "content-signal" {
						check(r.Line, r.Agents)
					} else if r.Agents != nil {
						t.Fatalf("body %d: record %+v speaks for user-agent lines", i, r)
					}
					g.Extensions[j].Agents, g.Extensions[j].Cut = nil, false
				}
				twin.Groups[gi].Speakers = nil
			}
			twin.Cut = nil
			got, _ := json.Marshal(f)
			want, _ := json.Marshal(twin)
			trim := strings.NewReplacer(`,"Agents":null`, "", `,"Cut":false`, "", `,"Speakers":null`, "", `,"Cut":null`, "", `,"Theirs":false`, "")
			if trim.Replace(string(got)) != trim.Replace(string(want)) {
				t.Fatalf("body %d (RFC 9309 %v): the File differs from its twin", i, rfc)
			}
		}
	}
}
