package parser

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/robotsgate/robotstxt/matcher"
)

// A Table is a parsed robots.txt laid out for checking URLs: one text that
// holds every kept pattern, agent, key and value back to back, and arrays
// of small fixed-size records that point into it by offset. It holds a
// handful of pointers whatever the size of the file, so it costs the
// garbage collector next to nothing, and it keeps no diagnostics.
//
// The rules of each group are sorted, on the first use of the Table that
// needs them, into the order of an index by their literal prefix
// ([matcher.Rule.Prefix]), so that [Table.Decide] looks only at the rules
// whose prefix starts the path.
//
// A Table is immutable and safe for concurrent use. [Parser.Compile] makes
// one, [Table.Select] a smaller one for some groups, and [Table.File] the
// rich form with strings.
type Table struct {
	// indexed sorts the rules of each group into index order; everything
	// that reads rules calls it first.
	indexed sync.Once

	text     string
	groups   []group
	agents   []agent
	rules    []rule
	records  []record // extension records: those before any group, then each group's
	sitemaps []record
	lines    int
}

// group holds where a group's agents, rules and records start; each ends
// where the next group's start.
type group struct {
	agents, rules, records uint32
}

// agent is a user-agent line: its value and the length of its product
// token.
type agent struct {
	off    uint32
	n, tok uint16
	line   uint32
	global bool
}

// rule is an allow or disallow line in index order (see link).
type rule struct {
	m    matcher.Rule
	line uint32
	link int32
}

// record is a sitemap or extension record. A known key (keyN == 0) is
// knownKeys[key]; any other is text[key:key+keyN].
type record struct {
	off  uint32
	key  uint32
	line uint32
	n    uint16
	keyN uint16
}

// knownKeys are the keys that records store as a number.
var knownKeys = func() []string {
	return append([]string{"sitemap"}, knownExtensions[:]...)
}()

// sitemapKey is the number of "sitemap" in knownKeys.
const sitemapKey = 0

func (t *Table) str(off uint32, n int) string { return t.text[off : off+uint32(n)] }

func (t *Table) record(r *record) Record {
	key := ""
	if r.keyN == 0 {
		key = knownKeys[r.key]
	} else {
		key = t.str(r.key, int(r.keyN))
	}
	return Record{Key: key, Value: t.str(r.off, int(r.n)), Line: int(r.line)}
}

func (t *Table) rule(r *rule) Rule {
	return Rule{Pattern: r.m.Pattern(t.text), Line: int(r.line), Allow: r.m.Allow()}
}

// index sorts the rules of each group into index order, once.
func (t *Table) index() {
	t.indexed.Do(func() {
		for g := range t.groups {
			s, e := t.span(g)
			sortRules(t.text, t.rules[s.rules:e.rules])
		}
	})
}

// span returns the bounds of group g's agents, rules and records.
func (t *Table) span(g int) (start, end group) {
	start = t.groups[g]
	end = group{uint32(len(t.agents)), uint32(len(t.rules)), uint32(len(t.records))}
	if g+1 < len(t.groups) {
		end = t.groups[g+1]
	}
	return start, end
}

// Lines returns the number of lines of the body.
func (t *Table) Lines() int { return t.lines }

// Groups returns the number of groups.
func (t *Table) Groups() int { return len(t.groups) }

// AppendGroups appends to dst the indices of the groups that apply to a
// crawler known by any of tokens: every group with a user-agent line whose
// product token equals one of them, ignoring ASCII case, or when there is
// none, every group with a "*" line. named reports whether some group
// names a token. Empty tokens name no group.
func (t *Table) AppendGroups(dst []int, tokens ...string) (_ []int, named bool) {
	n := len(dst)
	for g := range t.groups {
		if t.names(g, tokens) {
			dst = append(dst, g)
		}
	}
	if len(dst) > n {
		return dst, true
	}
	for g := range t.groups {
		s, e := t.span(g)
		for _, a := range t.agents[s.agents:e.agents] {
			if a.global {
				dst = append(dst, g)
				break
			}
		}
	}
	return dst, false
}

// names reports whether a user-agent line of group g names one of tokens.
func (t *Table) names(g int, tokens []string) bool {
	s, e := t.span(g)
	for _, a := range t.agents[s.agents:e.agents] {
		tok := t.str(a.off, int(a.tok))
		for _, want := range tokens {
			if len(tok) == len(want) && want != "" && (tok == want || strings.EqualFold(tok, want)) {
				return true
			}
		}
	}
	return false
}

// Rules returns the rules of the given groups, in file order.
func (t *Table) Rules(groups []int) []Rule {
	t.index()
	var out []Rule
	t.eachGroup(groups, func(s, e group) {
		start := len(out)
		for i := s.rules; i < e.rules; i++ {
			out = append(out, t.rule(&t.rules[i]))
		}
		slices.SortFunc(out[start:], func(a, b Rule) int { return a.Line - b.Line })
	})
	return out
}

// Extensions returns the extension records of the given groups, in file
// order. Records that stand before any group belong to none; File holds
// them.
func (t *Table) Extensions(groups []int) []Record {
	var out []Record
	t.eachGroup(groups, func(s, e group) {
		for i := s.records; i < e.records; i++ {
			out = append(out, t.record(&t.records[i]))
		}
	})
	return out
}

// Sitemaps returns the sitemap records in file order.
func (t *Table) Sitemaps() []Record {
	out := make([]Record, len(t.sitemaps))
	for i := range t.sitemaps {
		out[i] = t.record(&t.sitemaps[i])
	}
	return out
}

func (t *Table) eachGroup(groups []int, f func(s, e group)) {
	for _, g := range groups {
		f(t.span(g))
	}
}

// File returns the rich form of the table, with strings that share the
// table's text. Its Diagnostics are empty: [Parser.Parse] reports them.
func (t *Table) File() *File {
	f := &File{Lines: t.lines, Sitemaps: t.Sitemaps()}
	head := len(t.records)
	if len(t.groups) > 0 {
		head = int(t.groups[0].records)
	}
	for i := range head {
		f.Extensions = append(f.Extensions, t.record(&t.records[i]))
	}
	if len(t.groups) == 0 {
		return f
	}
	f.Groups = make([]Group, len(t.groups))
	agents := make([]UserAgent, len(t.agents))
	for i := range t.agents {
		a := &t.agents[i]
		v := t.str(a.off, int(a.n))
		agents[i] = UserAgent{Value: v, Token: v[:a.tok], Global: a.global, Line: int(a.line)}
	}
	all := make([]int, len(t.groups))
	for g := range all {
		all[g] = g
	}
	rules := t.Rules(all) // calls t.index
	for g := range t.groups {
		s, e := t.span(g)
		f.Groups[g] = Group{
			Agents:     agents[s.agents:e.agents:e.agents],
			Rules:      rules[s.rules:e.rules:e.rules],
			Extensions: t.Extensions([]int{g}),
		}
	}
	return f
}

// Size returns the bytes the Table retains: its text and records.
func (t *Table) Size() int {
	return int(unsafe.Sizeof(*t)) + len(t.text) +
		cap(t.groups)*int(unsafe.Sizeof(group{})) + cap(t.agents)*int(unsafe.Sizeof(agent{})) +
		cap(t.rules)*int(unsafe.Sizeof(rule{})) +
		(cap(t.records)+cap(t.sitemaps))*int(unsafe.Sizeof(record{}))
}
