// Package parser reads robots.txt bodies leniently, as Google's reference
// parser does, into groups of rules, sitemaps and extension records, and
// reports every line it skipped, tolerated or cut.
//
// Parsing never fails: any sequence of bytes gives a File.
package parser

import "github.com/robotsgate/robotstxt/matcher"

// A File is a parsed robots.txt body.
type File struct {
	// Groups in file order. Groups that name the same crawler are not
	// merged here; the matcher merges them.
	Groups []Group
	// Sitemaps in file order. Sitemap records belong to no group.
	Sitemaps []Record
	// Extensions holds the records that stand before the first group.
	Extensions []Record
	// Diagnostics in line order.
	Diagnostics []Diagnostic
	// Lines is the number of lines.
	Lines int
}

// A Group is one or more user-agent lines and the records that follow
// them, up to the next user-agent line that follows a rule.
type Group struct {
	Agents     []UserAgent // the user-agent lines, in file order
	Rules      []Rule      // the allow and disallow lines, in file order
	Extensions []Record    // crawl-delay, request-rate, … in file order
}

// A UserAgent is one user-agent line of a group.
type UserAgent struct {
	// Value is the value as written.
	Value string
	// Token is the product token compared with a crawler's name: the
	// leading run of [A-Za-z_-] of Value. It is empty for the global agent.
	Token string
	// Global is set for "*" (alone or followed by white space).
	Global bool
	// Line is the 1-based line number.
	Line int
}

// A Rule is one allow or disallow line. Rules are made by the parser,
// which prepares them for matching; a Rule built by hand does not match.
type Rule struct {
	// Pattern is the normalised pattern (see matcher.Escape).
	Pattern string
	// Line is the 1-based line number. It is an int32, unlike the other
	// line numbers, to keep a Rule at 24 bytes: files hold many rules, and
	// the smaller Rule parses about 15 % faster.
	Line int32
	// Allow is true for an allow rule, false for a disallow.
	Allow bool
	shape matcher.Shape
	flags uint8 // ruleDir, ruleQuick
	star  uint8 // index of the first '*' (see Match), when under 255
}

const (
	ruleDir   = 1 << iota // an allow of …/index.htm*, which also allows its directory
	ruleQuick             // the first two bytes are literal: compare them before matching
)

// Match reports whether the rule's pattern matches path, and the length
// of the pattern that matched for precedence. An allow of …/index.html
// that does not match may still match its directory, with the length of
// the directory pattern "…/$".
func (r *Rule) Match(path string) (length int, ok bool) {
	// Most rules fail on their first two bytes; test those inline.
	if r.flags&ruleQuick == 0 || len(path) >= 2 && path[0] == r.Pattern[0] && path[1] == r.Pattern[1] {
		if r.match(path) {
			return len(r.Pattern), true
		}
	}
	if r.flags&ruleDir != 0 {
		n := matcher.IndexDir(r.Pattern)
		if matcher.MatchDir(r.Pattern[:n], path) {
			return n + 1, true
		}
	}
	return 0, false
}

func (r *Rule) match(path string) bool {
	if r.star == 255 {
		return r.shape.Match(r.Pattern, path) // '*' too far in to keep
	}
	return r.shape.MatchAt(r.Pattern, int(r.star), path)
}

// A Record is a key-value line other than a rule or user-agent: a sitemap
// or an extension such as crawl-delay.
type Record struct {
	Key   string // lower case, such as "crawl-delay"
	Value string // as written, white space trimmed
	Line  int    // 1-based line number
}

// A Parser holds the settings for reading a robots.txt body. The zero
// value reads as Google's parser does.
type Parser struct {
	// RFC9309 makes rule patterns decode percent-escaped unreserved
	// characters, as RFC 9309 §2.2.2 reads them (see matcher.Unescape).
	RFC9309 bool
}

// Parse parses body with the zero Parser.
func Parse(body []byte) *File { return Parser{}.Parse(body) }

// Parse parses body. It never fails: lines it cannot use are skipped and
// reported in the File's Diagnostics. The File does not refer to body.
func (p Parser) Parse(body []byte) *File {
	b := newBuilder(p)
	defer b.release()
	sc := newScanner(view(body))
	b.plain = sc.plain
	var l Line
	for {
		if !sc.next(&l) {
			break
		}
		b.left = len(sc.s) - sc.start
		b.line(&l)
	}
	return b.finish(sc.num)
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

// Token returns the product token of a user-agent value or header: its
// leading run of [A-Za-z_-] characters ("Googlebot/2.1" gives "Googlebot").
func Token(s string) string {
	n := 0
	for n < len(s) && isTokenByte(s[n]) {
		n++
	}
	return s[:n]
}

// ValidToken reports whether s is a product token a crawler can be known
// by: not empty, and only [A-Za-z_-].
func ValidToken(s string) bool {
	return s != "" && Token(s) == s
}
