package parser

import (
	"strconv"
	"sync"

	"github.com/robotsgate/robotstxt/matcher"
)

// builder collects the records of a file. Agents, rules, groups and
// diagnostics go to scratch slices that are reused from parse to parse;
// finish copies them into slices of the exact size, so a File costs no
// more memory than it holds and growing slices costs no garbage. The
// groups' agents and rules are slices of two flat arrays.
//
// The Lines a builder is given are views of the caller's body: every
// string it stores goes through keep first.
type builder struct {
	*scratch
	p      Parser
	plain  bool // no rule needs escaping (see scanner.plain)
	f      *File
	arena  arena
	left   int  // body bytes from the current line to the end
	inRule bool // the current group has a rule, so a user-agent starts a new one
}

type scratch struct {
	agents []UserAgent
	rules  []Rule
	groups []Group
	diags  []Diagnostic
	starts []int // per group: index of its first agent, then of its first rule
}

// scratchPool holds scratch slices between parses. It is the parser's
// only shared state and holds no data of a finished parse.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooled bounds the scratch kept in the pool, so that one huge file
// does not pin its memory.
const maxPooled = 1 << 17

func newBuilder(p Parser) builder {
	return builder{scratch: scratchPool.Get().(*scratch), p: p, f: new(File)}
}

// release returns the scratch slices to the pool, cleared so they keep
// nothing of this parse alive.
func (b *builder) release() {
	s := b.scratch
	b.scratch = nil
	if max(cap(s.agents), cap(s.rules), cap(s.groups), cap(s.diags)) > maxPooled {
		return
	}
	clear(s.agents)
	clear(s.rules)
	clear(s.groups)
	clear(s.diags)
	s.agents, s.rules, s.groups, s.diags, s.starts = s.agents[:0], s.rules[:0], s.groups[:0], s.diags[:0], s.starts[:0]
	scratchPool.Put(s)
}

func (b *builder) keep(s string) string { return b.arena.keep(s, b.left) }

func (b *builder) line(l *Line) {
	b.flag(l)
	switch l.Key {
	case KeyUserAgent:
		if len(b.groups) == 0 || b.inRule {
			b.starts = append(b.starts, len(b.agents), len(b.rules))
			b.groups = append(b.groups, Group{})
			b.inRule = false
		}
		b.agents = append(b.agents, b.agent(l))
	case KeyAllow, KeyDisallow:
		if len(b.groups) == 0 {
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
func (b *builder) flag(l *Line) {
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

func (b *builder) agent(l *Line) UserAgent {
	v := b.keep(l.Value)
	a := UserAgent{Value: v, Line: l.Num}
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

func (b *builder) rule(l *Line) Rule {
	p := b.keep(l.Value)
	if !b.plain {
		p = matcher.Escape(p)
	}
	if b.p.RFC9309 {
		p = matcher.Unescape(p)
	}
	if p != "" && p[0] != '/' && p[0] != '*' {
		b.diag(l.Num, NoLeadingSlash, p)
	}
	shape, star := matcher.Analyze(p)
	r := Rule{Pattern: p, Line: int32(l.Num), Allow: l.Key == KeyAllow, shape: shape, star: 255}
	if star >= 0 && star < 255 {
		r.star = uint8(star)
	}
	if r.Allow && matcher.IndexDir(p) > 0 {
		r.flags |= ruleDir
	}
	if len(p) >= 2 && p[0] != '*' && p[1] != '*' && (r.shape != matcher.Exact || len(p) >= 3) {
		r.flags |= ruleQuick
	}
	return r
}

func (b *builder) extension(l *Line) {
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
	if len(b.groups) == 0 {
		b.f.Extensions = append(b.f.Extensions, r)
		return
	}
	g := &b.groups[len(b.groups)-1]
	g.Extensions = append(g.Extensions, r)
}

func (b *builder) diag(line int, k Kind, text string) {
	b.diags = append(b.diags, Diagnostic{Line: line, Kind: k, Text: text})
}

func (b *builder) finish(lines int) *File {
	f := b.f
	f.Lines = lines
	f.Diagnostics = clone(b.diags)
	if len(b.groups) == 0 {
		return f
	}
	f.Groups = clone(b.groups)
	agents, rules := clone(b.agents), clone(b.rules)
	for i := range f.Groups {
		a, r := b.starts[2*i], b.starts[2*i+1]
		a2, r2 := len(agents), len(rules)
		if 2*i+2 < len(b.starts) {
			a2, r2 = b.starts[2*i+2], b.starts[2*i+3]
		}
		f.Groups[i].Agents = agents[a:a2:a2]
		f.Groups[i].Rules = rules[r:r2:r2]
	}
	return f
}

// clone copies s into a new slice of its exact length; nil when empty.
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}
