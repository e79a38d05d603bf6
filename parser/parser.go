// Package parser reads robots.txt bodies leniently, as Google's reference
// parser does, into groups of rules, sitemaps and extension records, and
// reports every line it skipped, tolerated or cut.
//
// Parsing never fails: any sequence of bytes gives a File.
package parser

import (
	"strconv"
	"strings"

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
	Line    int32
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
// reported in the File's Diagnostics. The File does not refer to body.
func (p Parser) Parse(body []byte) *File {
	s := view(body)
	b := builder{p: p, f: new(File)}
	// Reserving room for every line that may be a rule costs less than
	// growing the slice many times over. Allow and disallow keys contain
	// "llow" in any common spelling; a miscount only means growing.
	// Likewise every group and agent has a user-agent line.
	rules := strings.Count(s, "llow") + strings.Count(s, "LLOW") + 1
	agents := strings.Count(s, "ser-agent") + strings.Count(s, "SER-AGENT") +
		strings.Count(s, "ser-Agent") + 1
	b.rules = make([]Rule, 0, rules)
	b.agents = make([]Agent, 0, agents)
	b.f.Groups = make([]Group, 0, agents)
	sc := newScanner(s)
	for {
		l, ok := sc.next()
		if !ok {
			break
		}
		b.left = len(sc.s) - sc.start
		b.line(l)
	}
	return b.finish(sc.num)
}

// builder collects the records of a file. Rules and agents go to flat
// slices that the groups slice at the end, which keeps allocations few.
// The Lines it is given are views of the caller's body: every string it
// stores goes through keep first.
type builder struct {
	p      Parser
	f      *File
	arena  arena
	left   int // body bytes from the current line to the end
	agents []Agent
	rules  []Rule
	starts []int // per group: index of its first agent, then of its first rule
	inRule bool  // the current group has a rule, so a user-agent starts a new one
}

func (b *builder) keep(s string) string { return b.arena.keep(s, b.left) }

func (b *builder) line(l Line) {
	b.flag(l)
	switch l.Key {
	case KeyUserAgent:
		if len(b.f.Groups) == 0 || b.inRule {
			b.starts = append(b.starts, len(b.agents), len(b.rules))
			b.f.Groups = append(b.f.Groups, Group{})
			b.inRule = false
		}
		b.agents = append(b.agents, b.agent(l))
	case KeyAllow, KeyDisallow:
		if len(b.f.Groups) == 0 {
			b.diag(l.Num, RuleOutsideGroup, b.keep(l.Value))
			return
		}
		b.inRule = true
		b.rules = append(b.rules, b.rule(l))
	case KeySitemap:
		b.f.Sitemaps = append(b.f.Sitemaps, Record{Key: "sitemap", Value: b.keep(l.Value), Line: l.Num})
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
		b.diag(l.Num, MissingColon, b.keep(l.RawKey))
	}
	if l.Flags&FlagTypo != 0 {
		b.diag(l.Num, MisspeltKey, b.keep(l.RawKey))
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
	v := b.keep(l.Value)
	a := Agent{Value: v, Line: l.Num}
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
	p := matcher.Escape(b.keep(l.Value))
	if b.p.RFC9309 {
		p = matcher.Unescape(p)
	}
	if p != "" && p[0] != '/' && p[0] != '*' {
		b.diag(l.Num, NoLeadingSlash, p)
	}
	allow := l.Key == KeyAllow
	return Rule{
		Pattern: p,
		Line:    int32(l.Num),
		Allow:   allow,
		shape:   matcher.ShapeOf(p),
		dir:     allow && matcher.IndexDir(p) > 0,
	}
}

func (b *builder) extension(l Line) {
	key, known := extensionKey(l.RawKey)
	if !known {
		key = b.arena.keepLower(l.RawKey, b.left)
		b.diag(l.Num, UnknownKey, key)
	}
	r := Record{Key: key, Value: b.keep(l.Value), Line: l.Num}
	if key == "crawl-delay" {
		if d, err := strconv.ParseFloat(r.Value, 64); err != nil || d < 0 {
			b.diag(l.Num, BadValue, r.Value)
		}
	}
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
	f := b.f
	f.Lines = lines
	for i := range f.Groups {
		a, r := b.starts[2*i], b.starts[2*i+1]
		a2, r2 := len(b.agents), len(b.rules)
		if 2*i+2 < len(b.starts) {
			a2, r2 = b.starts[2*i+2], b.starts[2*i+3]
		}
		f.Groups[i].Agents = b.agents[a:a2:a2]
		f.Groups[i].Rules = b.rules[r:r2:r2]
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
