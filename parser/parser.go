// Package parser reads robots.txt bodies leniently, as Google's reference
// parser does, into groups of rules, sitemaps and extension records, and
// reports every line it skipped, tolerated or cut.
//
// Parsing never fails: any sequence of bytes gives a File.
package parser

import (
	"strconv"

	"github.com/robotsgate/robotstxt/matcher"
)

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
	Agents     []Agent
	Rules      []Rule
	Extensions []Record // crawl-delay, request-rate, … in file order
}

// An Agent is one user-agent line of a group.
type Agent struct {
	// Value is the value as written.
	Value string
	// Token is the product token compared with a crawler's name: the
	// leading run of [A-Za-z_-] of Value. It is empty for the global agent.
	Token string
	// Global is set for "*" (alone or followed by white space).
	Global bool
	Line   int
}

// A Rule is one allow or disallow line.
type Rule struct {
	// Pattern is the normalised pattern (see matcher.Escape).
	Pattern string
	Line    int
	Allow   bool
	shape   matcher.Shape
	dir     bool // an allow of …/index.htm*, which also allows its directory
}

// Match reports whether the rule's pattern matches path, and the length
// of the pattern that matched for precedence. An allow of …/index.html
// that does not match may still match its directory, with the length of
// the directory pattern "…/$".
func (r *Rule) Match(path string) (length int, ok bool) {
	if r.shape.Match(r.Pattern, path) {
		return len(r.Pattern), true
	}
	if r.dir {
		n := matcher.IndexDir(r.Pattern)
		if matcher.MatchDir(r.Pattern[:n], path) {
			return n + 1, true
		}
	}
	return 0, false
}

// A Record is a key-value line other than a rule or user-agent: a sitemap
// or an extension such as crawl-delay. Key is lower case.
type Record struct {
	Key   string
	Value string
	Line  int
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
// reported in the File's Diagnostics.
func (p Parser) Parse(body []byte) *File {
	b := builder{p: p}
	b.f.Groups = make([]Group, 0, 4)
	sc := newScanner(string(body))
	for {
		l, ok := sc.next()
		if !ok {
			break
		}
		b.line(l)
	}
	return b.finish(sc.num)
}

// builder collects the records of a file. Rules and agents go to flat
// slices that the groups slice at the end, which keeps allocations few.
type builder struct {
	p      Parser
	f      File
	agents []Agent
	rules  []Rule
	bounds []bounds
	inRule bool // the current group has a rule, so a user-agent starts a new one
}

type bounds struct{ agents, rules int }

func (b *builder) line(l Line) {
	b.flag(l)
	switch l.Key {
	case KeyUserAgent:
		if len(b.bounds) == 0 || b.inRule {
			b.bounds = append(b.bounds, bounds{len(b.agents), len(b.rules)})
			b.f.Groups = append(b.f.Groups, Group{})
			b.inRule = false
		}
		b.agents = append(b.agents, b.agent(l))
	case KeyAllow, KeyDisallow:
		if len(b.bounds) == 0 {
			b.diag(l.Num, RuleOutsideGroup, l.Value)
			return
		}
		b.inRule = true
		b.rules = append(b.rules, b.rule(l))
	case KeySitemap:
		b.f.Sitemaps = append(b.f.Sitemaps, Record{Key: "sitemap", Value: l.Value, Line: l.Num})
	case KeyOther:
		b.extension(l)
	}
}

// flag turns the scanner's line flags into diagnostics.
func (b *builder) flag(l Line) {
	switch {
	case l.Flags&FlagNoKey != 0:
		b.diag(l.Num, NoKey, "")
	case l.Flags&FlagMissingColon != 0:
		b.diag(l.Num, MissingColon, l.RawKey)
	}
	if l.Flags&FlagTypo != 0 {
		b.diag(l.Num, MisspeltKey, l.RawKey)
	}
	if l.Flags&FlagTooLong != 0 {
		b.diag(l.Num, LineTooLong, "")
	}
	if l.Flags&FlagNUL != 0 {
		b.diag(l.Num, NULByte, "")
	}
	if l.Flags&FlagInvalidUTF8 != 0 {
		b.diag(l.Num, InvalidUTF8, "")
	}
}

func (b *builder) agent(l Line) Agent {
	a := Agent{Value: l.Value, Line: l.Num}
	v := l.Value
	if v != "" && v[0] == '*' && (len(v) == 1 || isSpace(v[1])) {
		a.Global = true
		return a
	}
	a.Token = Token(v)
	switch n := len(a.Token); {
	case n == 0:
		b.diag(l.Num, EmptyAgent, v)
	case n < len(v):
		b.diag(l.Num, AgentCut, v)
	}
	return a
}

func (b *builder) rule(l Line) Rule {
	p := matcher.Escape(l.Value)
	if b.p.RFC9309 {
		p = matcher.Unescape(p)
	}
	if p != "" && p[0] != '/' && p[0] != '*' {
		b.diag(l.Num, NoLeadingSlash, p)
	}
	allow := l.Key == KeyAllow
	return Rule{
		Pattern: p,
		Line:    l.Num,
		Allow:   allow,
		shape:   matcher.ShapeOf(p),
		dir:     allow && matcher.IndexDir(p) > 0,
	}
}

func (b *builder) extension(l Line) {
	key, known := extensionKey(l.RawKey)
	if !known {
		b.diag(l.Num, UnknownKey, l.RawKey)
	}
	if key == "crawl-delay" {
		if d, err := strconv.ParseFloat(l.Value, 64); err != nil || d < 0 {
			b.diag(l.Num, BadValue, l.Value)
		}
	}
	r := Record{Key: key, Value: l.Value, Line: l.Num}
	if len(b.f.Groups) == 0 {
		b.f.Extensions = append(b.f.Extensions, r)
		return
	}
	g := &b.f.Groups[len(b.f.Groups)-1]
	g.Extensions = append(g.Extensions, r)
}

func (b *builder) diag(line int, k Kind, text string) {
	b.f.Diagnostics = append(b.f.Diagnostics, Diagnostic{Line: line, Kind: k, Text: text})
}

func (b *builder) finish(lines int) *File {
	f := &b.f
	f.Lines = lines
	for i := range f.Groups {
		lo, hi := b.bounds[i], bounds{len(b.agents), len(b.rules)}
		if i+1 < len(b.bounds) {
			hi = b.bounds[i+1]
		}
		f.Groups[i].Agents = b.agents[lo.agents:hi.agents:hi.agents]
		f.Groups[i].Rules = b.rules[lo.rules:hi.rules:hi.rules]
	}
	return f
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
