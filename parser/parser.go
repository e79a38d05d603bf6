// Package parser reads a robots.txt body leniently, as Google's reference
// parser and the robotstxt package read it, into its groups of rules,
// sitemaps, licences and extension records, and reports every line it
// skipped, tolerated or cut, for a linter or an editor. Parsing never
// fails. To decide whether a crawler may fetch a URL, use the robotstxt
// package, which merges the groups that name a crawler.
package parser

import "github.com/robotsgate/robotstxt/internal/parse"

// MaxLineLength is how many bytes of a line are kept, as by Google's
// parser: the rest of a longer line is dropped, and the cut line read.
const MaxLineLength = parse.MaxLineLength

// The parsed form of a body.
type (
	// A File is a parsed robots.txt body: its groups, sitemaps, licences
	// and extension records in file order, its number of lines, and the
	// diagnostics of the lines read other than as written.
	File = parse.File
	// A Group is one or more user-agent lines and the records that follow
	// them, up to the next user-agent line that follows a rule.
	Group = parse.Group
	// A UserAgent is one user-agent line of a group, with the product
	// token crawlers are compared by.
	UserAgent = parse.UserAgent
	// A Rule is one allow or disallow line, its pattern normalised as
	// matching reads it.
	Rule = parse.Rule
	// A Record is a key-value line other than a rule or user-agent: a
	// sitemap, a licence or an extension such as crawl-delay.
	Record = parse.Record
	// A UsageRule is a Content-Usage line: its path and its statement of
	// preference.
	UsageRule = parse.UsageRule
	// A Diagnostic says what was noticed on one line: skipped, tolerated
	// or cut. Its Kind's String, stable across releases, tells them
	// apart: "not a key-value line", "unknown key" (kept as an extension
	// record), "rule outside any group", "missing colon accepted",
	// "misspelt key accepted", "line truncated" (at MaxLineLength bytes),
	// "NUL byte ends line", "invalid UTF-8", "user-agent cut to product
	// token", "user-agent names no crawler", "pattern does not start with
	// / or *", "value does not parse", and, after a thousand of either,
	// "further diagnostics not reported" and "further unknown records not
	// kept", whose Text counts them.
	Diagnostic = parse.Diagnostic
)

// Parse parses body as Google's parser does, with diagnostics.
func Parse(body []byte) *File { return parse.Parse(body) }
