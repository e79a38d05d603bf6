// Package parse reads robots.txt bodies leniently, as Google's reference
// parser does, into a File with diagnostics or a Table indexed for
// checking URLs. Package parser declares public twins of File and its
// parts, documented there, and package robotstxt of Rule.
package parse

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unsafe"
)

// A File is a parsed robots.txt body (see parser.File).
type File struct {
	Groups      []Group
	Sitemaps    []Record
	Licenses    []Record
	Extensions  []Record // those before the first group
	Diagnostics []Diagnostic
	Lines       int
	// Cut holds the lines of the Content-Usage rules and Content-Signal
	// records cut short, in order (see Table.Cut).
	Cut []int
}

// A Group is one or more user-agent lines and the records that follow
// them, up to the next user-agent line that follows a rule.
type Group struct {
	Agents     []UserAgent // the user-agent lines, in file order
	Rules      []Rule      // the allow and disallow lines, in file order
	Extensions []Record    // crawl-delay, request-rate, … in file order
	Usage      []UsageRule // the Content-Usage lines, in file order
	// Speakers gives, by the line of each Content-Usage rule and
	// Content-Signal record, the bounds [lo, hi) in Agents of the
	// user-agent lines it speaks for (see usageRun).
	Speakers map[int][2]int
}

// A UserAgent is one user-agent line of a group.
type UserAgent struct {
	Value  string // as written
	Token  string // [AgentToken] of Value; empty for the global agent
	Global bool   // "*", alone or followed by white space
	Line   int    // 1-based line number
}

// A Rule is one allow or disallow line.
type Rule struct {
	Pattern string // normalised (see match.Escape)
	Line    int    // 1-based line number
	Allow   bool   // an allow rule, not a disallow
}

// A Record is a key-value line other than a rule or user-agent: a
// sitemap, a license or an extension such as crawl-delay.
type Record struct {
	Key   string // lower case, such as "crawl-delay"
	Value string // as written, white space trimmed
	Line  int    // 1-based line number
	// Theirs marks a Content-Signal record of a run whose refusals alone
	// reach the crawler (see Table.Theirs): its yes is not for it.
	Theirs bool
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

// Parse parses body into the rich form, with diagnostics. It never
// fails. The File does not refer to body.
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

// view returns body as a string without copying it.
func view(body []byte) string {
	return unsafe.String(unsafe.SliceData(body), len(body))
}

// MaxCrawlDelay is the longest crawl-delay [CrawlDelay] gives: a day,
// the longest a robots.txt is kept (see parser.CrawlDelay).
const MaxCrawlDelay = 24 * time.Hour

// ErrBadValue is returned for an extension value that cannot be used.
var ErrBadValue = errors.New("parser: bad value")

// CrawlDelay is parser.CrawlDelay, clamping to [MaxCrawlDelay]; its
// error wraps [ErrBadValue].
func CrawlDelay(value string) (time.Duration, error) {
	s, err := strconv.ParseFloat(value, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || s < 0 || math.IsNaN(s) {
		return 0, fmt.Errorf("%w: crawl-delay %q is not a number of seconds", ErrBadValue, value)
	}
	if s >= MaxCrawlDelay.Seconds() {
		return MaxCrawlDelay, nil
	}
	d := time.Duration(math.Round(s * float64(time.Second)))
	if d == 0 && s > 0 {
		d = 1 // a delay is none only when it is 0
	}
	return d, nil
}

// AgentToken returns the product token that the value of a robots.txt
// user-agent line names, as Google's parser reads it: its leading run of
// [A-Za-z_-] ("Googlebot/2.1" gives "Googlebot", "*" gives "").
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

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}
