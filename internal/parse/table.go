package parse

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/match"
)

// A Table is a parsed robots.txt laid out for checking URLs: one text
// that holds every kept string back to back, and arrays of fixed-size
// records that point into it, so that it holds a handful of pointers
// whatever the file's size. A check may index its rules (see
// [Table.Select]); it is otherwise immutable, and safe for concurrent use.
type Table struct {
	text  string
	rules []rule
	grams []uint16 // each rule's gram once indexed (see noteGrams), or nil
	file  *fileParts
	more  *tableMore
	// state is how the rules are ordered (see index.go): it changes, and
	// the rules are sorted in place, under mu, which Select holds to
	// read them.
	state atomic.Uint32
	mu    sync.Mutex
}

// tableMore holds what six of seven tables the Client keeps lack, apart,
// so that such a table takes 32 bytes fewer; they share noMore.
type tableMore struct {
	records []record    // extension records: those before any group, then each group's
	usage   *usageRules // nil when there is none
}

var noMore = new(tableMore)

func newMore(records []record, usage *usageRules) *tableMore {
	if len(records) == 0 && usage == nil {
		return noMore
	}
	return &tableMore{records, usage}
}

// fileParts is what a Table holds of the whole file beyond its rules.
// Every table made by Select shares one, selectedFile.
type fileParts struct {
	agentsOnce sync.Once   // see Table.agents
	agentIndex *agentIndex // set by agentsOnce
	groups     []group
	agents     []agent
	sitemaps   []record
	licenses   []record
	lines      int
}

// group holds where a group's agents, rules and records start.
type group struct {
	agents, rules, records uint32
}

// agent is a user-agent line and the length of its product token.
type agent struct {
	off    uint32
	n, tok uint16
	line   uint32
	global bool
}

// rule is an allow or disallow line in 12 bytes: most of what a Client
// keeps of a rule-dense file is its rules.
type rule struct {
	// bits is where the pattern starts in the text << ruleShift, its kind
	// (how it is matched, see Table.match) << 1, and ruleAllow.
	bits uint32
	line uint32
	n    uint16 // the pattern's length, which precedence weighs
	pre  uint16 // the length of its literal prefix (see match.Prefix)
}

// A pattern or Content-Usage path, a line escaped, fits the 16 bits of
// rule.n and usageRule.n.
const _ = uint16(3 * MaxLineLength)

const (
	ruleAllow = 1 // an allow rule
	ruleShift = 4 // ruleAllow and a kind below
)

func (r *rule) off() uint32  { return r.bits >> ruleShift }
func (r *rule) allow() bool  { return r.bits&ruleAllow != 0 }
func (r *rule) kind() uint32 { return r.bits >> 1 & (1<<(ruleShift-1) - 1) }

// wild reports whether r has a '*' after its prefix, and is no kindDir.
func (r *rule) wild() bool { k := r.kind(); return k == kindOne || k == kindWild }

// move sets where r's pattern starts in the text.
func (r *rule) move(off uint32) { r.bits = off<<ruleShift | r.bits&(1<<ruleShift-1) }

// The kinds of rule.
const (
	kindPlain uint32 = iota // the prefix is the whole pattern
	kindEnd                 // the prefix and a final '$'
	kindOne                 // the prefix, a '*', a run with no '*' and maybe a final '$'
	kindWild                // the prefix and more '*'
	// kindDir is an allow of …/index.htm*, which also matches its
	// directory (see match.MatchRule).
	kindDir
)

// maxText bounds the end of a kept string: a rule addresses no further.
const maxText = 1<<(32-ruleShift) - 1

// newRule returns the rule of pattern p, kept in the text at off.
func newRule(p string, off uint32, line int, allow bool) rule {
	pre := len(match.Prefix(p, allow))
	kind := kindWild
	switch rest := p[pre:]; {
	case allow && match.IndexDir(p) > 0:
		kind = kindDir
	case rest == "":
		kind = kindPlain
	case rest == "$":
		kind = kindEnd
	case strings.IndexByte(rest[1:], '*') < 0:
		kind = kindOne
	}
	r := rule{bits: off<<ruleShift | kind<<1, line: uint32(line), n: uint16(len(p)), pre: uint16(pre)}
	if allow {
		r.bits |= ruleAllow
	}
	return r
}

// record is a sitemap, license or extension record. A known key
// (keyN == 0) is knownKeys[key]; any other is text[key:key+keyN].
type record struct {
	off  uint32
	key  uint32
	line uint32
	n    uint16
	keyN uint16
}

// knownKeys are the keys that records store as a number: "sitemap", the
// known extensions from 1 on (see extensionKey), and "license".
var knownKeys = append(append([]string{"sitemap"}, knownExtensions[:]...), "license")

// The numbers of "sitemap" and "license" in knownKeys.
const (
	sitemapKey = 0
	licenseKey = len(knownExtensions) + 1
)

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

func (t *Table) pattern(r *rule) string { return t.str(r.off(), int(r.n)) }

func (t *Table) prefix(r *rule) string { return t.str(r.off(), int(r.pre)) }

func (t *Table) rule(i int) Rule {
	r := &t.rules[i]
	return Rule{Pattern: t.pattern(r), Line: int(r.line), Allow: r.allow()}
}

// span returns the bounds of group g's agents, rules and records.
func (t *Table) span(g int) (start, end group) {
	f := t.file
	start = f.groups[g]
	end = group{uint32(len(f.agents)), uint32(len(t.rules)), uint32(len(t.more.records))}
	if g+1 < len(f.groups) {
		end = f.groups[g+1]
	}
	return start, end
}

// groupRules returns the rules of group g and the index of the first.
func (t *Table) groupRules(g int) ([]rule, int) {
	s, e := t.span(g)
	return t.rules[s.rules:e.rules], int(s.rules)
}

// Rules returns the rules of the given groups, in file order.
func (t *Table) Rules(groups []int) []Rule {
	t.index() // so that no sort moves them meanwhile
	var out []Rule
	for _, g := range groups {
		start := len(out)
		s, e := t.span(g)
		for i := s.rules; i < e.rules; i++ {
			out = append(out, t.rule(int(i)))
		}
		slices.SortFunc(out[start:], func(a, b Rule) int { return a.Line - b.Line })
	}
	return out
}

// Extensions returns the extension records of the given groups, in file
// order.
func (t *Table) Extensions(groups []int) []Record {
	var out []Record
	for _, g := range groups {
		s, e := t.span(g)
		out = t.appendRecords(out, t.more.records[s.records:e.records])
	}
	return out
}

// FileExtensions returns the extension records that stand before the
// first group, in file order. A table made by [Table.Select] has none.
func (t *Table) FileExtensions() []Record {
	f := t.file
	head := t.more.records
	if len(f.groups) > 0 {
		head = head[:f.groups[0].records] // none in a selected table, whose group starts them
	}
	return t.appendRecords(nil, head)
}

// Sitemaps returns the sitemap records in file order.
func (t *Table) Sitemaps() []Record { return t.appendRecords(nil, t.file.sitemaps) }

// Licenses returns the License records in file order. A table made by
// [Table.Select] has none.
func (t *Table) Licenses() []Record { return t.appendRecords(nil, t.file.licenses) }

func (t *Table) appendRecords(out []Record, records []record) []Record {
	for i := range records {
		out = append(out, t.record(&records[i]))
	}
	return out
}

// File returns the rich form of the table, without diagnostics.
func (t *Table) File() *File {
	f := t.file
	out := &File{Lines: f.lines, Sitemaps: t.Sitemaps(), Licenses: t.Licenses(), Extensions: t.FileExtensions()}
	if u := t.more.usage; u != nil {
		for _, l := range u.cut {
			out.Cut = append(out.Cut, int(l))
		}
	}
	if len(f.groups) == 0 {
		return out
	}
	out.Groups = make([]Group, len(f.groups))
	agents := make([]UserAgent, len(f.agents))
	for i := range f.agents {
		a := &f.agents[i]
		v := t.str(a.off, int(a.n))
		agents[i] = UserAgent{Value: v, Token: v[:a.tok], Global: a.global, Line: int(a.line)}
	}
	all := make([]int, len(f.groups))
	for g := range all {
		all[g] = g
	}
	rules := t.Rules(all)
	for g := range all {
		s, e := t.span(g)
		out.Groups[g] = Group{
			Agents:     agents[s.agents:e.agents:e.agents],
			Rules:      rules[s.rules:e.rules:e.rules],
			Extensions: t.Extensions(all[g : g+1]),
			Usage:      t.usageOf(g),
			Speakers:   t.speakers(g),
		}
	}
	return out
}

// Size returns the bytes the Table retains. That of a table
// [Table.Select] makes never changes; another is indexed first.
func (t *Table) Size() int {
	if t.file != selectedFile {
		t.index()
		if u := t.more.usage; u != nil {
			u.index(t) // and its runs (see RunsOf)
		}
	}
	n := int(unsafe.Sizeof(*t)) + len(t.text) + cap(t.rules)*int(unsafe.Sizeof(rule{})) +
		cap(t.grams)*2 + t.more.usage.size()
	if m := t.more; m != noMore {
		n += int(unsafe.Sizeof(*m)) + cap(m.records)*int(unsafe.Sizeof(record{}))
	}
	if f := t.file; f != selectedFile {
		n += int(unsafe.Sizeof(*f)) + (cap(f.sitemaps)+cap(f.licenses))*int(unsafe.Sizeof(record{})) +
			cap(f.agents)*int(unsafe.Sizeof(agent{})) + t.agents().size() +
			cap(f.groups)*int(unsafe.Sizeof(group{}))
	}
	return n
}
