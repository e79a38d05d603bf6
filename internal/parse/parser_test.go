package parse

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// agentsOf lists the product tokens (or "*") of each group.
func agentsOf(f *File) [][]string {
	var out [][]string
	for _, g := range f.Groups {
		var as []string
		for _, a := range g.Agents {
			if a.Global {
				as = append(as, "*")
			} else {
				as = append(as, a.Token)
			}
		}
		out = append(out, as)
	}
	return out
}

// rulesOf renders each group's rules as "A /x@3" or "D /y@4".
func rulesOf(f *File) [][]string {
	var out [][]string
	for _, g := range f.Groups {
		rs := []string{}
		for _, r := range g.Rules {
			k := "D"
			if r.Allow {
				k = "A"
			}
			rs = append(rs, k+" "+r.Pattern+"@"+itoa(int(r.Line)))
		}
		out = append(out, rs)
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func diagsOf(f *File) []string {
	var out []string
	for _, d := range f.Diagnostics {
		out = append(out, itoa(d.Line)+":"+d.Kind.String())
	}
	return out
}

func TestParseGroups(t *testing.T) {
	for _, c := range []struct {
		name   string
		body   string
		agents [][]string
		rules  [][]string
	}{
		{"one group", "User-agent: a\nDisallow: /x\nAllow: /y",
			[][]string{{"a"}}, [][]string{{"D /x@2", "A /y@3"}}},
		{"several agents share a group", "User-agent: a\nUser-agent: b\nDisallow: /x",
			[][]string{{"a", "b"}}, [][]string{{"D /x@3"}}},
		{"user-agent after a rule starts a group", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y",
			[][]string{{"a"}, {"b"}}, [][]string{{"D /x@2"}, {"D /y@4"}}},
		{"blank lines do not end a group", "User-agent: a\n\nUser-agent: b\n\nDisallow: /x\n\nDisallow: /y",
			[][]string{{"a", "b"}}, [][]string{{"D /x@5", "D /y@7"}}},
		{"sitemap does not end a group", "User-agent: a\nSitemap: http://s\nUser-agent: b\nDisallow: /x",
			[][]string{{"a", "b"}}, [][]string{{"D /x@4"}}},
		{"unknown line does not end a group", "User-agent: a\nfoo: bar\nUser-agent: b\nDisallow: /x\nfoo: baz\nDisallow: /y",
			[][]string{{"a", "b"}}, [][]string{{"D /x@4", "D /y@6"}}},
		{"crawl-delay does not end a group", "User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /x",
			[][]string{{"a", "b"}}, [][]string{{"D /x@4"}}},
		{"rules before any group are dropped", "Disallow: /x\nAllow: /y\nUser-agent: a\nDisallow: /z",
			[][]string{{"a"}}, [][]string{{"D /z@4"}}},
		{"empty group at the end", "User-agent: a\nDisallow: /x\nUser-agent: b\n",
			[][]string{{"a"}, {"b"}}, [][]string{{"D /x@2"}, {}}},
		{"global agent", "User-agent: *\nUser-agent: * # c\nUser-agent: *  x\nDisallow: /",
			[][]string{{"*", "*", "*"}}, [][]string{{"D /@4"}}},
		{"agent values are cut", "User-agent: Googlebot/2.1\nUser-agent: bot1\nUser-agent: *bot\nDisallow: /",
			[][]string{{"Googlebot", "bot", ""}}, [][]string{{"D /@4"}}},
		{"rule values are normalised", "User-agent: a\nDisallow: /ä\nAllow: /%aa",
			[][]string{{"a"}}, [][]string{{"D /%C3%A4@2", "A /%AA@3"}}},
		{"empty rule value kept", "User-agent: a\nDisallow:",
			[][]string{{"a"}}, [][]string{{"D @2"}}},
		{"no groups", "Sitemap: http://s\n# nothing", nil, nil},
	} {
		f := Parse([]byte(c.body))
		if got := agentsOf(f); !equal2(got, c.agents) {
			t.Errorf("%s: agents %q, want %q", c.name, got, c.agents)
		}
		if got := rulesOf(f); !equal2(got, c.rules) {
			t.Errorf("%s: rules %q, want %q", c.name, got, c.rules)
		}
	}
}

func equal2(a, b [][]string) bool {
	return slices.EqualFunc(a, b, func(x, y []string) bool { return slices.Equal(x, y) })
}

func TestParseRecords(t *testing.T) {
	body := "Host: pre.example\n" + // 1: before any group
		"Sitemap: http://a/1.xml\n" + // 2
		"User-agent: a\n" + // 3
		"Crawl-delay: 2.5\n" + // 4
		"Sitemap: http://a/2.xml\n" + // 5
		"X-Thing: Some Value\n" + // 6
		"Disallow: /x\n" + // 7
		"User-agent: b\n" + // 8
		"Request-rate: 1/10\n" + // 9
		"site-map: http://a/3.xml\n" // 10
	f := Parse([]byte(body))
	var sm []string
	for _, s := range f.Sitemaps {
		if s.Key != "sitemap" {
			t.Errorf("sitemap record key %q", s.Key)
		}
		sm = append(sm, s.Value+"@"+itoa(s.Line))
	}
	if want := []string{"http://a/1.xml@2", "http://a/2.xml@5", "http://a/3.xml@10"}; !slices.Equal(sm, want) {
		t.Errorf("sitemaps %q, want %q", sm, want)
	}
	if want := []Record{{"host", "pre.example", 1, false}}; !slices.Equal(f.Extensions, want) {
		t.Errorf("file extensions %v, want %v", f.Extensions, want)
	}
	if len(f.Groups) != 2 {
		t.Fatalf("%d groups", len(f.Groups))
	}
	if want := []Record{{"crawl-delay", "2.5", 4, false}, {"x-thing", "Some Value", 6, false}}; !slices.Equal(f.Groups[0].Extensions, want) {
		t.Errorf("group a extensions %v, want %v", f.Groups[0].Extensions, want)
	}
	if want := []Record{{"request-rate", "1/10", 9, false}}; !slices.Equal(f.Groups[1].Extensions, want) {
		t.Errorf("group b extensions %v, want %v", f.Groups[1].Extensions, want)
	}
	if f.Lines != 11 {
		t.Errorf("Lines = %d, want 11", f.Lines)
	}
}

// TestParseLicenses: License records of RSL 1.0 are file-wide, as
// sitemaps are: kept in file order with their lines, whatever the case of
// the key, wherever they stand, relative URLs too; they never end a group
// and belong to none; a table Select makes has none.
func TestParseLicenses(t *testing.T) {
	body := "License: https://example.com/license.xml\n" + // 1: before any user-agent
		"User-agent: a\n" + // 2
		"Disallow: /x\n" + // 3
		"LICENSE: /relative/license.xml\n" + // 4: between a group's rules
		"Disallow: /y\n" + // 5
		"license: http://other.example/terms\n" + // 6: between two user-agent lines
		"User-agent: b\n" + // 7: a new group, after the rules of a
		"Licenses: https://not-a-license/\n" + // 8: another key
		"User-agent: c\n" + // 9: still group b
		"Allow: /\n" // 10
	want := []Record{
		{"license", "https://example.com/license.xml", 1, false},
		{"license", "/relative/license.xml", 4, false},
		{"license", "http://other.example/terms", 6, false},
	}
	f := Parse([]byte(body))
	if !slices.Equal(f.Licenses, want) {
		t.Errorf("Licenses = %v, want %v", f.Licenses, want)
	}
	if got, want := agentsOf(f), [][]string{{"a"}, {"b", "c"}}; !equal2(got, want) {
		t.Errorf("groups %q, want %q", got, want)
	}
	if got, want := rulesOf(f), [][]string{{"D /x@3", "D /y@5"}, {"A /@10"}}; !equal2(got, want) {
		t.Errorf("rules %q, want %q", got, want)
	}
	if len(f.Extensions) != 0 || len(f.Groups[0].Extensions) != 0 || len(f.Groups[1].Extensions) != 1 {
		t.Errorf("extensions %v, %v, %v: want the Licenses line of group b alone", f.Extensions, f.Groups[0].Extensions, f.Groups[1].Extensions)
	}
	if got := diagsOf(f); !slices.Equal(got, []string{"8:" + UnknownKey.String()}) {
		t.Errorf("diagnostics %q, want the Licenses key unknown", got)
	}
	tb := Compile([]byte(body))
	if got := tb.Licenses(); !slices.Equal(got, want) {
		t.Errorf("Table.Licenses = %v, want %v", got, want)
	}
	if got := tb.Select([]int{0, 1}, nil).Licenses(); got != nil {
		t.Errorf("a selected table has licenses %v", got)
	}
}

func TestParseDiagnostics(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		want []string
	}{
		{"clean file", "User-agent: a\nDisallow: /x\n# comment\n\nSitemap: http://s\nCrawl-delay: 1", nil},
		{"not a key-value line", "User-agent: a\nthis is junk\n<html>", []string{"2:" + NoKey.String(), "3:" + NoKey.String()}},
		{"unknown key", "User-agent: a\nunicorns: /x", []string{"2:" + UnknownKey.String()}},
		{"rule outside group", "Disallow: /x\nUser-agent: a", []string{"1:" + RuleOutsideGroup.String()}},
		{"missing colon", "User-agent a\nDisallow /x", []string{"1:" + MissingColon.String(), "2:" + MissingColon.String()}},
		{"misspelt key", "useragent: a\ndissallow: /x", []string{"1:" + MisspeltKey.String(), "2:" + MisspeltKey.String()}},
		{"too long", "User-agent: a\nDisallow: /" + strings.Repeat("x", MaxLineLength), []string{"2:" + LineTooLong.String()}},
		{"NUL byte", "User-agent: a\nDisallow: /x\x00y", []string{"2:" + NULByte.String()}},
		{"invalid UTF-8", "User-agent: a\nDisallow: /\xff", []string{"2:" + InvalidUTF8.String()}},
		{"agent cut", "User-agent: Googlebot/2.1", []string{"1:" + AgentCut.String()}},
		{"empty agent", "User-agent: *bot\nUser-agent:", []string{"1:" + EmptyAgent.String(), "2:" + EmptyAgent.String()}},
		{"no leading slash", "User-agent: a\nDisallow: x\nDisallow: *x\nDisallow: /x", []string{"2:" + NoLeadingSlash.String()}},
		{"bad crawl-delay", "User-agent: a\nCrawl-delay: soon\nCrawl-delay: -1\nCrawl-delay: 0.5", []string{"2:" + BadValue.String(), "3:" + BadValue.String()}},
	} {
		f := Parse([]byte(c.body))
		if got := diagsOf(f); !slices.Equal(got, c.want) {
			t.Errorf("%s: diagnostics %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{Line: 3, Kind: UnknownKey, Text: "unicorns"}
	if got, want := d.String(), `line 3: unknown key: "unicorns"`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	d = Diagnostic{Line: 7, Kind: NoKey}
	if got, want := d.String(), "line 7: not a key-value line"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := Kind(200).String(); got != "Kind(200)" {
		t.Errorf("Kind(200).String() = %q", got)
	}
	seen := map[string]Kind{}
	for k := NoKey; k <= BadValue; k++ {
		s := k.String()
		if strings.HasPrefix(s, "Kind(") {
			t.Errorf("kind %d has no name", k)
		}
		if o, dup := seen[s]; dup {
			t.Errorf("kinds %d and %d share the name %q", o, k, s)
		}
		seen[s] = k
	}
}

func TestAgentToken(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Googlebot", "Googlebot"},
		{"Googlebot/2.1", "Googlebot"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"foo_bar", "foo_bar"},
		{"Foo Bar", "Foo"},
		{"bot1", "bot"},
		{"*", ""},
		{"", ""},
		{"ツbot", ""},
		{"Jävla", "J"},
		{"a*b", "a"},
	} {
		if got := AgentToken(c.in); got != c.want {
			t.Errorf("AgentToken(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestValidToken(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"Foobot", true}, {"Foobot-Bar", true}, {"Foo_Bar", true}, {"-_", true},
		{"", false}, {"ツ", false}, {"Foobot*", false}, {" Foobot ", false},
		{"Foobot/2.1", false}, {"Foobot Bar", false}, {"bot1", false}, {"*", false},
	} {
		if got := ValidToken(c.in); got != c.want {
			t.Errorf("ValidToken(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestParserRFC9309 checks the parser's RFC 9309 setting: rule patterns
// have escaped unreserved characters decoded.
func TestParserRFC9309(t *testing.T) {
	body := []byte("User-agent: a\nDisallow: /%7efred/%2f/ä")
	if got := Parse(body).Groups[0].Rules[0].Pattern; got != "/%7Efred/%2F/%C3%A4" {
		t.Errorf("default pattern %q", got)
	}
	if got := (Parser{RFC9309: true}).Parse(body).Groups[0].Rules[0].Pattern; got != "/~fred/%2F/%C3%A4" {
		t.Errorf("RFC 9309 pattern %q", got)
	}
}

// TestPropertyParseNeverLosesLines: every diagnostic points at a real
// line, Lines counts what Lines yields, and rules and records carry real
// line numbers, on random bodies made of robots.txt fragments and noise.
func TestPropertyParseNeverLosesLines(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	frags := []string{
		"User-agent: a", "user-agent *", "Disallow: /x", "allow /y", "Sitemap: s",
		"crawl-delay: z", "# c", "", " ", ":", "#", "\xEF\xBB\xBF", "\x00", "\xff",
		"\n", "\r", "\r\n", "disallow", "a b c", "User-agent: b1",
	}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(frags[r.IntN(len(frags))])
		}
		body := b.String()
		f := Parse([]byte(body))
		n := 0
		for l := range Lines(body) {
			n++
			if l.Num != n {
				t.Fatalf("%q: line %d numbered %d", body, n, l.Num)
			}
		}
		if f.Lines != n {
			t.Fatalf("%q: File.Lines = %d, Lines yields %d", body, f.Lines, n)
		}
		last := 0
		for _, d := range f.Diagnostics {
			if d.Line < 1 || d.Line > f.Lines || d.Line < last {
				t.Fatalf("%q: diagnostic %v out of range or order (lines %d)", body, d, f.Lines)
			}
			last = d.Line
		}
		for _, g := range f.Groups {
			for _, ru := range g.Rules {
				if ru.Line < 1 || int(ru.Line) > f.Lines {
					t.Fatalf("%q: rule on line %d of %d", body, ru.Line, f.Lines)
				}
			}
			for _, a := range g.Agents {
				if a.Line < 1 || a.Line > f.Lines {
					t.Fatalf("%q: agent on line %d of %d", body, a.Line, f.Lines)
				}
			}
		}
	}
}
