package robotstxt

// The examples of RFC 9309, checked in both modes. Where Google's parser
// and the RFC differ (see the conformance README, "Disagreements"), the
// default mode must give Google's answer and RFC9309 mode the RFC's.

import "testing"

// bothModes checks decisions that the RFC and Google agree on, in both
// modes.
func bothModes(t *testing.T, ds []decision) {
	t.Helper()
	checkDecisions(t, ModeGoogle, ds)
	checkDecisions(t, ModeRFC9309, ds)
}

func TestRFC9309_2_2_1_MergedGroups(t *testing.T) {
	const fig2 = "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n"
	const fig3 = "user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n"
	bothModes(t, []decision{
		{"fig2", fig2, "ExampleBot", "https://www.example.com/foo", false, 2},
		{"fig2", fig2, "ExampleBot", "https://www.example.com/bar", false, 3},
		{"fig2", fig2, "ExampleBot", "https://www.example.com/baz", false, 6},
		{"fig2 case-insensitive", fig2, "examplebot", "https://www.example.com/baz", false, 6},
		{"fig2", fig2, "ExampleBot", "https://www.example.com/qux", true, 0},
		{"fig3 * group", fig3, "ExampleBot", "https://www.example.com/foo", false, 2},
		{"fig3 * group", fig3, "ExampleBot", "https://www.example.com/bar", false, 3},
		{"fig3 * group", fig3, "ExampleBot", "https://www.example.com/baz", true, 0},
		{"fig3 own group", fig3, "BazBot", "https://www.example.com/baz", false, 6},
		{"fig3 own group, * ignored", fig3, "BazBot", "https://www.example.com/foo", true, 0},
	})
}

func TestRFC9309_2_2_2_Encoding(t *testing.T) {
	// The table of §2.2.2: rule path, and the URL it must match.
	bothModes(t, []decision{
		{"plain query", "user-agent: *\ndisallow: /foo/bar?baz=quz", "ExampleBot", "https://www.example.com/foo/bar?baz=quz", false, 2},
		{"URL in a query", "user-agent: *\ndisallow: /foo/bar?baz=https://foo.bar", "ExampleBot", "https://www.example.com/foo/bar?baz=https://foo.bar", false, 2},
		{"encoded URL in a query", "user-agent: *\ndisallow: /foo/bar?baz=https%3A%2F%2Ffoo.bar", "ExampleBot", "https://www.example.com/foo/bar?baz=https%3A%2F%2Ffoo.bar", false, 2},
		{"UTF-8 rule", "user-agent: *\ndisallow: /foo/bar/ツ", "ExampleBot", "https://www.example.com/foo/bar/%E3%83%84", false, 2},
		{"encoded UTF-8 rule", "user-agent: *\ndisallow: /foo/bar/%E3%83%84", "ExampleBot", "https://www.example.com/foo/bar/%E3%83%84", false, 2},
		{"encoded unreserved, same encoding", "user-agent: *\ndisallow: /foo/bar/%62%61%7A", "ExampleBot", "https://www.example.com/foo/bar/%62%61%7A", false, 2},
	})
	// Last row: /foo/bar/%62%61%7A is /foo/bar/baz for the RFC, not for
	// Google.
	const baz = "user-agent: *\ndisallow: /foo/bar/%62%61%7A"
	checkDecisions(t, ModeGoogle, []decision{{"decoded unreserved (google)", baz, "ExampleBot", "https://www.example.com/foo/bar/baz", true, 0}})
	checkDecisions(t, ModeRFC9309, []decision{{"decoded unreserved (rfc)", baz, "ExampleBot", "https://www.example.com/foo/bar/baz", false, 2}})
	const plain = "user-agent: *\ndisallow: /foo/bar/baz"
	checkDecisions(t, ModeGoogle, []decision{{"encoded URL (google)", plain, "ExampleBot", "https://www.example.com/foo/bar/%62%61%7a", true, 0}})
	checkDecisions(t, ModeRFC9309, []decision{{"encoded URL (rfc)", plain, "ExampleBot", "https://www.example.com/foo/bar/%62%61%7a", false, 2}})
}

func TestRFC9309_2_2_2_Precedence(t *testing.T) {
	bothModes(t, []decision{
		{"most octets", "user-agent: *\nallow: /example/page/\ndisallow: /example/page/x", "a", "/example/page/xy", false, 3},
		{"most octets", "user-agent: *\ndisallow: /example/\nallow: /example/page/", "a", "/example/page/x", true, 3},
		{"equivalent: allow", "user-agent: *\ndisallow: /example\nallow: /example", "a", "/example", true, 3},
		{"no match: allowed", "user-agent: *\ndisallow: /example", "a", "/other", true, 0},
		{"no rules: allowed", "user-agent: *\n", "a", "/example", true, 0},
	})
	// /robots.txt is implicitly allowed by the RFC; Google's matcher
	// leaves that to the crawler.
	const all = "user-agent: *\ndisallow: /\n"
	checkDecisions(t, ModeGoogle, []decision{{"robots.txt (google)", all, "a", "https://www.example.com/robots.txt", false, 2}})
	checkDecisions(t, ModeRFC9309, []decision{{"robots.txt (rfc)", all, "a", "https://www.example.com/robots.txt", true, 0}})
}

func TestRFC9309_2_2_3_SpecialCharacters(t *testing.T) {
	// Figure 5: '#', '$' and '*'.
	const dollar = "user-agent: ExampleBot\ndisallow: /\nallow: /this/path/exactly$\n"
	const star = "user-agent: ExampleBot\ndisallow: /\nallow: /this/*/exactly\n"
	const hash = "user-agent: ExampleBot\ndisallow: /\nallow: / # comment in line\n# comment on its own line\n"
	bothModes(t, []decision{
		{"$ exact", dollar, "ExampleBot", "https://www.example.com/this/path/exactly", true, 3},
		{"$ longer path", dollar, "ExampleBot", "https://www.example.com/this/path/exactly/more", false, 2},
		{"$ longer name", dollar, "ExampleBot", "https://www.example.com/this/path/exactlyx", false, 2},
		{"$ query", dollar, "ExampleBot", "https://www.example.com/this/path/exactly?x", false, 2},
		{"* several segments", star, "ExampleBot", "https://www.example.com/this/a/b/exactly", true, 3},
		{"* nothing", star, "ExampleBot", "https://www.example.com/this//exactly", true, 3},
		{"* needs both slashes", star, "ExampleBot", "https://www.example.com/this/exactly", false, 2},
		{"# comment", hash, "ExampleBot", "https://www.example.com/anything", true, 3},
	})
}

// TestRFC9309_2_2_3_PercentEncodedSpecials covers figure 6 of §2.2.3: an
// encoded '*' or '$' in a pattern is a literal, never a wildcard or an
// anchor; the RFC further says it matches the raw character in the URL,
// which Google's matcher does not do.
func TestRFC9309_2_2_3_PercentEncodedSpecials(t *testing.T) {
	const star = "user-agent: *\ndisallow: /path/file-with-a-%2A.html\n"
	const dollar = "user-agent: *\ndisallow: /path/foo-%24\n"
	bothModes(t, []decision{
		{"%2A is literal", star, "ExampleBot", "https://www.example.com/path/file-with-a-%2A.html", false, 2},
		{"%2A is not a wildcard", star, "ExampleBot", "https://www.example.com/path/file-with-a-foo.html", true, 0},
		{"%24 is literal", dollar, "ExampleBot", "https://www.example.com/path/foo-%24", false, 2},
		{"%24 is not an anchor", dollar, "ExampleBot", "https://www.example.com/path/foo-", true, 0},
		{"%24 is not an anchor", dollar, "ExampleBot", "https://www.example.com/path/foo-%24x", false, 2},
	})
	checkDecisions(t, ModeGoogle, []decision{
		{"raw * in the URL (google)", star, "ExampleBot", "https://www.example.com/path/file-with-a-*.html", true, 0},
		{"raw $ in the URL (google)", dollar, "ExampleBot", "https://www.example.com/path/foo-$", true, 0},
	})
}

// TestRFC9309_2_2_3_PercentEncodedSpecialsRFCMode is the RFC's reading of
// figure 6: the encoded pattern matches the URI with the raw character.
func TestRFC9309_2_2_3_PercentEncodedSpecialsRFCMode(t *testing.T) {
	const star = "user-agent: *\ndisallow: /path/file-with-a-%2A.html\n"
	const dollar = "user-agent: *\ndisallow: /path/foo-%24\n"
	checkDecisions(t, ModeRFC9309, []decision{
		{"raw * in the URL (rfc)", star, "ExampleBot", "https://www.example.com/path/file-with-a-*.html", false, 2},
		{"raw $ in the URL (rfc)", dollar, "ExampleBot", "https://www.example.com/path/foo-$", false, 2},
	})
}

// TestRFC9309_2_2_3_DollarWithin: a '$' a pattern does not end with is
// the character itself, in both modes (RFC 9309 §2.2.3), though RFC
// 9309's reading matches the URL's '$' escaped.
func TestRFC9309_2_2_3_DollarWithin(t *testing.T) {
	const body = "user-agent: *\ndisallow: /a$b\ndisallow: /shop/$sort=\ndisallow: /x$/abc$\n"
	bothModes(t, []decision{
		{"$ within", body, "ExampleBot", "https://www.example.com/a$b", false, 2},
		{"$ within, longer path", body, "ExampleBot", "https://www.example.com/shop/$sort=price", false, 3},
		{"$ within and at the end", body, "ExampleBot", "https://www.example.com/x$/abc", false, 4},
		{"$ within and at the end, longer path", body, "ExampleBot", "https://www.example.com/x$/abcdef", true, 0},
		{"no $", body, "ExampleBot", "https://www.example.com/ab", true, 0},
	})
}

// TestRFC9309_DollarWithinWeight: RFC 9309's reading compares a '$' that
// stands for itself escaped, as %24, so its rule weighs the escaped bytes
// in precedence (and reports them), where Google's parser weighs the '$'
// as one byte.
func TestRFC9309_DollarWithinWeight(t *testing.T) {
	const body = "user-agent: *\nallow: /$x\ndisallow: /*x*\n"
	const u = "https://www.example.com/$x"
	checkDecisions(t, ModeGoogle, []decision{{"$ weighs 1 (google)", body, "ExampleBot", u, false, 3}})
	checkDecisions(t, ModeRFC9309, []decision{{"$ weighs as %24 (rfc)", body, "ExampleBot", u, true, 2}})
	for mode, want := range map[Mode]string{ModeGoogle: "/$x", ModeRFC9309: "/%24x"} {
		if got := ParseMode([]byte(body), mode).Rules("ExampleBot")[0].Pattern; got != want {
			t.Errorf("mode %d: rule 1 reads as %q, want %q", mode, got, want)
		}
	}
}

func TestRFC9309_2_2_4_OtherRecords(t *testing.T) {
	const body = "user-agent: ExampleBot\nsitemap: https://example.com/sitemap.xml\nfoo: bar\nuser-agent: OtherBot\ndisallow: /x\n"
	bothModes(t, []decision{
		{"records do not end the group", body, "ExampleBot", "/x", false, 5},
		{"records do not end the group", body, "OtherBot", "/x", false, 5},
	})
}

const rfc5_1 = "User-Agent: *\n" + // 1
	"Disallow: *.gif$\n" + // 2
	"Disallow: /example/\n" + // 3
	"Allow: /publications/\n" + // 4
	"\n" + // 5
	"User-Agent: foobot\n" + // 6
	"Disallow:/\n" + // 7
	"Allow:/example/page.html\n" + // 8
	"Allow:/example/allowed.gif\n" + // 9
	"\n" + // 10
	"User-Agent: barbot\n" + // 11
	"User-Agent: bazbot\n" + // 12
	"Disallow: /example/page.html\n" + // 13
	"\n" + // 14
	"User-Agent: quxbot\n" // 15

func TestRFC9309_5_1_SimpleExample(t *testing.T) {
	const u = "https://www.example.com"
	bothModes(t, []decision{
		{"* allow", rfc5_1, "otherbot", u + "/publications/doc.html", true, 4},
		{"* disallow", rfc5_1, "otherbot", u + "/example/page.html", false, 3},
		{"* gif", rfc5_1, "otherbot", u + "/images/logo.gif", false, 2},
		{"* gif with query", rfc5_1, "otherbot", u + "/images/logo.gif?size=2", true, 0},
		{"* root", rfc5_1, "otherbot", u + "/", true, 0},
		{"* longest match", rfc5_1, "otherbot", u + "/publications/cover.gif", true, 4},
		{"foobot page", rfc5_1, "foobot", u + "/example/page.html", true, 8},
		{"foobot gif", rfc5_1, "foobot", u + "/example/allowed.gif", true, 9},
		{"foobot root", rfc5_1, "foobot", u + "/", false, 7},
		{"foobot other", rfc5_1, "foobot", u + "/example/other.html", false, 7},
		{"foobot not *", rfc5_1, "foobot", u + "/publications/doc.html", false, 7},
		{"FooBot", rfc5_1, "FooBot", u + "/example/page.html", true, 8},
		{"barbot", rfc5_1, "barbot", u + "/example/page.html", false, 13},
		{"bazbot", rfc5_1, "bazbot", u + "/example/page.html", false, 13},
		{"barbot other", rfc5_1, "barbot", u + "/example/other.html", true, 0},
		{"bazbot not *", rfc5_1, "bazbot", u + "/images/logo.gif", true, 0},
		{"quxbot", rfc5_1, "quxbot", u + "/example/page.html", true, 0},
		{"quxbot not *", rfc5_1, "quxbot", u + "/images/logo.gif", true, 0},
	})
}

func TestRFC9309_5_2_LongestMatch(t *testing.T) {
	const body = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
	const u = "https://www.example.com"
	bothModes(t, []decision{
		{"longer disallow", body, "foobot", u + "/example/page/disallowed.gif", false, 3},
		{"directory", body, "foobot", u + "/example/page/", true, 2},
		{"other file", body, "foobot", u + "/example/page/index.html", true, 2},
		{"the RFC's literal URI", body, "foobot", u + "/example/page/disallow.gif", true, 2},
	})
}
