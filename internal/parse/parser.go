// Package parse reads robots.txt bodies leniently, as Google's reference
// parser does, into groups of rules, sitemaps, licenses and extension
// records, and reports every line it skipped, tolerated or cut; and lays
// them out as a Table, indexed for checking URLs, for the robotstxt
// package. Package parser exports what a tool needs of it.
//
// Parsing never fails: any sequence of bytes gives a File.
package parse

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unsafe"
)

// A File is a parsed robots.txt body.
type File struct {
	// Groups in file order. Groups that name the same crawler are not
	// merged here; the robotstxt package merges them.
	Groups []Group
	// Sitemaps in file order. Sitemap records belong to no group.
	Sitemaps []Record
	// Licenses holds the License records of RSL 1.0 in file order, with
	// their values as written, relative URLs too. Like sitemaps, they
	// belong to no group.
	Licenses []Record
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
	Usage      []UsageRule // the Content-Usage lines, in file order
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

// A Rule is one allow or disallow line.
type Rule struct {
	// Pattern is the normalised pattern (see match.Escape).
	Pattern string
	// Line is the 1-based line number.
	Line int
	// Allow is true for an allow rule, false for a disallow.
	Allow bool
}

// A Record is a key-value line other than a rule or user-agent: a
// sitemap, a license or an extension such as crawl-delay.
type Record struct {
	Key   string // lower case, such as "crawl-delay"
	Value string // as written, white space trimmed
	Line  int    // 1-based line number
}

// A Parser holds the settings for reading a robots.txt body. The zero
// value reads as Google's parser does.
type Parser struct {
	// RFC9309 makes rule patterns decode percent-escaped unreserved
	// characters, as RFC 9309 §2.2.2 reads them (see match.Unescape).
	RFC9309 bool
}

// Parse parses body with the zero Parser.
func Parse(body []byte) *File { return Parser{}.Parse(body) }

// Parse parses body into the rich form, with the diagnostics (at most
// [MaxDiagnostics] of them, and one that counts the rest). It never fails:
// lines it cannot use are skipped and reported. The File does not refer to
// body.
func (p Parser) Parse(body []byte) *File {
	t, diags := p.build(body, true)
	f := t.File()
	f.Diagnostics = diags
	return f
}

// Compile parses body into a Table, without diagnostics. It never fails.
// The Table does not refer to body.
func (p Parser) Compile(body []byte) *Table {
	t, _ := p.build(body, false)
	return t
}

func (p Parser) build(body []byte, lint bool) (*Table, []Diagnostic) {
	b := newBuilder(p, lint, len(body))
	defer b.release()
	sc := newScanner(view(body))
	b.plain = sc.plain
	var l Line
	for sc.next(&l) {
		b.line(&l)
	}
	return b.finish(sc.num)
}

// view returns body as a string without copying it. The parser reads the
// view and keeps nothing of it beyond Parse except through copies.
func view(body []byte) string {
	return unsafe.String(unsafe.SliceData(body), len(body))
}

// MaxCrawlDelay is the longest crawl-delay [CrawlDelay] gives: a day,
// the longest a robots.txt is kept before it is asked for again. Longer
// values are read as MaxCrawlDelay: ignoring them would leave the site
// with no pacing at all.
const MaxCrawlDelay = 24 * time.Hour

// ErrBadValue is returned for an extension value that cannot be used.
var ErrBadValue = errors.New("parser: bad value")

// CrawlDelay reads the value of a crawl-delay record: a number of seconds,
// fractional ones kept, and values beyond [MaxCrawlDelay] (1e9, +Inf)
// clamped to it. A value that does not parse as a number, or is negative
// or not a number, is an error that wraps [ErrBadValue]; the parser
// reports it as a [BadValue] diagnostic.
func CrawlDelay(value string) (time.Duration, error) {
	s, err := strconv.ParseFloat(value, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || s < 0 || math.IsNaN(s) {
		return 0, fmt.Errorf("%w: crawl-delay %q is not a number of seconds", ErrBadValue, value)
	}
	if s >= MaxCrawlDelay.Seconds() {
		return MaxCrawlDelay, nil
	}
	return time.Duration(s * float64(time.Second)), nil
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

// AgentToken returns the product token that the value of a robots.txt
// user-agent line names, as Google's parser reads it: the value's leading
// run of [A-Za-z_-] characters ("Googlebot/2.1" gives "Googlebot", "*"
// gives ""). It is how the parser reads user-agent lines (see
// [UserAgent.Token]); a crawler's own token, from the User-Agent header
// it sends, is [github.com/robotsgate/robotstxt/internal/agent.ProductToken]'s.
func AgentToken(value string) string {
	n := 0
	for n < len(value) && isTokenByte(value[n]) {
		n++
	}
	return value[:n]
}

// ValidToken reports whether s is a product token a crawler can be known
// by: not empty, and only [A-Za-z_-].
func ValidToken(s string) bool {
	return s != "" && AgentToken(s) == s
}
