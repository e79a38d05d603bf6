// Package parser reads a robots.txt body leniently, as Google's reference
// parser and the robotstxt package read it, into its groups of rules,
// sitemaps, licences and extension records, and reports every line it
// skipped, tolerated or cut, for a linter or an editor; [Lines] gives each
// line as written, [Read] the text of a body as crawlers read it, and
// [Preferences] what a statement of preference says. Parsing never fails.
// To decide whether a crawler may fetch a URL, use the robotstxt package,
// which merges the groups that name a crawler.
package parser

import (
	"slices"
	"time"

	"github.com/robotsgate/robotstxt/internal/parse"
)

// internal/parse holds twins of these types: Rule(r) converts them, and
// does not compile if they drift apart; File, Group, Record and UsageRule
// are copied.

// A File is a parsed robots.txt body.
type File struct {
	// Groups in file order, not merged when they name the same crawler.
	Groups []Group
	// Sitemaps in file order; they belong to no group.
	Sitemaps []Record
	// Licenses holds the License records of RSL 1.0 in file order, with
	// their values as written; they belong to no group.
	Licenses []Record
	// Extensions holds the records that stand before the first group.
	Extensions []Record
	// Diagnostics, in line order, report the lines read other than as
	// written: at most 1,000, then one of kind [TooManyDiagnostics] that
	// counts the rest. Beside them, one of kind [UnknownRecordsDropped]
	// counts the unknown records not kept, past the 1,000 too.
	Diagnostics []Diagnostic
	// Lines is the number of lines (see [Line.Num]).
	Lines int
}

// A Group is one or more user-agent lines and the records that follow
// them, up to the next user-agent line that follows an allow or disallow
// rule. The yes of its Content-Usage rules and Content-Signal records
// speaks only for some of its user-agent lines, their refusals for all:
// see [UsageRule].Agents.
type Group struct {
	Agents     []UserAgent // the user-agent lines, in file order
	Rules      []Rule      // the allow and disallow lines, in file order
	Extensions []Record    // crawl-delay, request-rate, … in file order
	Usage      []UsageRule // the Content-Usage lines, in file order
}

// A UserAgent is one user-agent line of a group.
type UserAgent struct {
	Value string // as written, white space trimmed
	// Token is the product token crawlers are compared with, ignoring
	// case: the leading run of letters, '-' and '_' of Value
	// ("Googlebot/2.1" gives "Googlebot"); empty for the global agent.
	Token  string
	Global bool // "*", alone or followed by white space
	Line   int  // 1-based line number
}

// A Rule is one allow or disallow line.
type Rule struct {
	// Pattern is the path pattern, normalised as matching reads it (see
	// [github.com/robotsgate/robotstxt/matcher.Escape]; [ParseRFC9309]
	// also decodes it).
	Pattern string
	Line    int  // 1-based line number
	Allow   bool // an allow rule, not a disallow
}

// A Record is a key-value line other than a rule or user-agent: a
// sitemap, a licence or an extension such as crawl-delay.
type Record struct {
	Key string // lower case, such as "crawl-delay"
	// Value is the value as written, white space trimmed. For a
	// Content-Signal record whose line was cut short (at a NUL byte, past
	// MaxLineLength, or by the limit of a body [Read] cut) it is the
	// refusals before the cut (key=no) and ai-train=no, such as
	// "search=no, ai-train=no": what was cut may have been a refusal, or
	// taken a yes back.
	Value string
	Line  int // 1-based line number
	// Agents are, for a Content-Signal record of a group, the user-agent
	// lines it speaks for, as a [UsageRule]'s; nil for any other record.
	Agents []UserAgent
	// Cut reports, for a Content-Signal record, that its line was cut
	// short: its Value is then what it is read as (see Value).
	Cut bool
}

// A UsageRule is a Content-Usage line of a group (IETF AIPREF): a
// statement of preference about the use of the paths it matches, such as
// "Content-Usage: /photos/ train-ai=n". Unlike an allow or disallow rule,
// it does not end its group's user-agent lines, but its yes speaks only
// for those before it (see Agents). A value that starts with '/' has a path,
// up to the first blank, and the statement after the blanks that follow;
// any other value is all statement, and the rule matches every path.
type UsageRule struct {
	// Path is the path pattern, normalised as a [Rule]'s, or "" when the
	// rule has none.
	Path string
	// Statement is the statement of preference as written, such as
	// "train-ai=n"; "" when the value has none. When the line was cut
	// short (at a NUL byte, past MaxLineLength, or by the limit of a body
	// [Read] cut) it is the refusals before the cut (label=n) and
	// train-ai=n, such as "search=n, train-ai=n": what was cut may have
	// been a refusal, or taken a yes back; and the rule keeps its path (a
	// prefix of it, for a cut within it), where a shorter rule's
	// statement would otherwise answer.
	Statement string
	Line      int // 1-based line number
	// Agents are the user-agent lines of its group the rule speaks for:
	// the last one before it, and those before that back to a line of
	// another key (a rule, a record such as crawl-delay, a sitemap), as
	// a file whose groups each end in a rule is read. Those after it may
	// join its group, since only an allow or disallow rule ends one, but
	// a statement made for one crawler is not made for the next one
	// named. A crawler reads the rules whose Agents name it, or when no
	// group names it, those whose Agents hold "*", as the robotstxt
	// package does; and of the other rules of the groups it obeys, those
	// of each run of lines apart, it takes the refusals (label=n) that
	// decide for a path: the crawlers of a group obey its rules, and a
	// no must not fail open for those named after it (Google's grouping
	// may be what the author meant).
	Agents []UserAgent
	// Cut reports that the line was cut short: its Statement is then what
	// it is read as (see Statement).
	Cut bool
}

// MaxLineLength is how many bytes of a line are kept, as by Google's
// parser: the rest of a longer line is dropped, and the cut line read.
const MaxLineLength = 2083*8 - 1

// Parse parses body as Google's parser does, with diagnostics. The File
// does not refer to body.
func Parse(body []byte) *File { return fromParse(parse.Parse(body)) }

// ParseRFC9309 is like Parse but normalises patterns as RFC 9309 reads
// them, as the robotstxt package's ModeRFC9309 does: percent-escaped
// unreserved characters are decoded (/%7Efred is /~fred; %2F stays
// encoded), and a '$' a pattern does not end with, which stands for
// itself, is written %24, as [github.com/robotsgate/robotstxt/matcher.UnescapePath]
// writes a path's.
func ParseRFC9309(body []byte) *File {
	return fromParse(parse.Parser{RFC9309: true}.Parse(body))
}

func fromParse(f *parse.File) *File {
	cut := func(line int) bool {
		_, found := slices.BinarySearch(f.Cut, line)
		return found
	}
	return &File{
		Groups:      each(f.Groups, func(g parse.Group) Group { return fromGroup(g, cut) }),
		Sitemaps:    each(f.Sitemaps, fromRecord),
		Licenses:    each(f.Licenses, fromRecord),
		Extensions:  each(f.Extensions, func(r parse.Record) Record { return fromSignal(r, nil, cut) }),
		Diagnostics: each(f.Diagnostics, fromDiagnostic),
		Lines:       f.Lines,
	}
}

func fromGroup(g parse.Group, cut func(line int) bool) Group {
	agents := each(g.Agents, func(a parse.UserAgent) UserAgent { return UserAgent(a) })
	speakers := func(line int) []UserAgent {
		b := g.Speakers[line]
		return agents[b[0]:b[1]:b[1]]
	}
	return Group{
		Agents:     agents,
		Rules:      each(g.Rules, func(r parse.Rule) Rule { return Rule(r) }),
		Extensions: each(g.Extensions, func(r parse.Record) Record { return fromSignal(r, speakers, cut) }),
		Usage: each(g.Usage, func(u parse.UsageRule) UsageRule {
			return UsageRule{Path: u.Path, Statement: u.Statement, Line: u.Line, Agents: speakers(u.Line), Cut: cut(u.Line)}
		}),
	}
}

func fromRecord(r parse.Record) Record { return Record{Key: r.Key, Value: r.Value, Line: r.Line} }

// fromSignal converts an extension record, telling for a Content-Signal
// record whom it speaks for (speakers, of its group's; nil before the
// first group) and whether its line was cut short.
func fromSignal(r parse.Record, speakers func(line int) []UserAgent, cut func(line int) bool) Record {
	out := fromRecord(r)
	if r.Key == "content-signal" {
		if speakers != nil {
			out.Agents = speakers(r.Line)
		}
		out.Cut = cut(r.Line)
	}
	return out
}

// each returns s with every element converted by to; nil for nil.
func each[F, T any](s []F, to func(F) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = to(v)
	}
	return out
}

// CrawlDelay reads the value of a crawl-delay record as the robotstxt
// package does: a number of seconds, fractions kept, clamped to a day,
// the longest the robotstxt package keeps a robots.txt (ignoring a longer
// one would leave the site with no pacing). A value that is not a number,
// or is negative or NaN, is an error, which Parse reports as a [BadValue]
// diagnostic.
func CrawlDelay(value string) (time.Duration, error) { return parse.CrawlDelay(value) }
