package parser

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
// whose prefix starts the path; a table of [Table.SelectUnindexed] is
// never sorted.
//
// A Table is immutable and safe for concurrent use. [Parser.Compile] makes
// one, [Table.Select] and [Table.SelectUnindexed] a smaller one for some
// groups, and [Table.File] the
// rich form with strings.
type Table struct {
	text  string
	rules []rule
	// notes holds the parent links of blocks and the grams of rules of
	// indexed groups, or is nil when there is none.
	notes notes
	// grams indexes the large blocks by gram, or is nil when there is
	// none.
	grams *gramIndex
	// file holds the rest; a table that Select makes without extension
	// records or long line numbers has none.
	file *fileParts
	// usage holds the Content-Usage rules, or is nil when there is none.
	usage *usageRules
	// unsorted marks a table of SelectUnindexed whose group has more than
	// smallGroup rules: they are in the order of the table it was selected
	// from (file order, unless that one was indexed), with no notes, and a
	// check tries every one.
	unsorted bool
}

// fileParts is what a Table holds beyond its rules.
type fileParts struct {
	// indexed is set once the rules need no sort: each group's are in
	// index order, or the table is a draft of SelectUnindexed, which is
	// never sorted. Everything that reads rules in index order calls
	// Table.index first, which sorts them under mu. Select reads them
	// under mu too, in whichever order they are.
	indexed atomic.Bool
	mu      sync.Mutex
	// agentIndex indexes the user-agent lines by product token, or is nil
	// when they are few (see newAgentIndex).
	agentIndex *agentIndex
	groups     []group
	agents     []agent
	records    []record // extension records: those before any group, then each group's
	sitemaps   []record
	// lines holds the line of each rule when some line does not fit
	// rule.line; nil otherwise.
	lines []uint32
	// body is the number of lines of the body.
	body int
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

// rule is an allow or disallow line: where its pattern lies in the text,
// its kind, and its line. Its literal prefix (see [matcher.Rule.Prefix])
// is not stored: the pattern tells it (see Table.prefix).
type rule struct {
	off  uint32 // offset << ruleShift | kind | ruleAllow
	n    uint16 // the pattern's length
	line uint16 // the line, or wideLine when fileParts.lines holds it
}

const (
	ruleAllow = 1 << 0 // an allow rule
	// ruleKind masks the kind of the pattern (see kindOf), which says how
	// it is matched.
	ruleKind = 3 << 1
	// kindWild is a pattern with two '*' or more, or the empty pattern.
	kindWild = 0 << 1
	// kindPlain is a non-empty pattern with no '*' and no final '$' that
	// is not an allow of …/index.htm*: its prefix is the whole pattern.
	kindPlain = 1 << 1
	// kindOne is a pattern with one '*', or none and a final '$', that is
	// not an allow of …/index.htm*.
	kindOne = 2 << 1
	// kindDir is an allow of …/index.htm*, which also matches its
	// directory (see matcher.Rule.Match) and whose prefix may stop there.
	kindDir   = 3 << 1
	ruleShift = 3
	// maxText bounds the offset of the end of a kept string in the text.
	maxText = min(1<<(32-ruleShift)-1, matcher.MaxTextLen)
	// wideLine is rule.line for a line number that does not fit it.
	wideLine = 1<<16 - 1
)

func (r *rule) allow() bool { return r.off&ruleAllow != 0 }

func (r *rule) kind() uint32 { return r.off & ruleKind }

// kindOf returns the kind of a rule with pattern p.
func kindOf(p string, allow bool) uint32 {
	if allow && matcher.IndexDir(p) > 0 {
		return kindDir
	}
	if p == "" {
		return kindWild
	}
	star := strings.IndexByte(p, '*')
	switch {
	case star < 0 && p[len(p)-1] != '$':
		return kindPlain
	case star < 0 || strings.IndexByte(p[star+1:], '*') < 0:
		return kindOne
	}
	return kindWild
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

func (t *Table) pattern(r *rule) string       { return patternOf(t.text, r) }
func (t *Table) matcher(r *rule) matcher.Rule { return matcherOf(t.text, r) }
func (t *Table) prefix(r *rule) string        { return prefixOf(t.text, r) }

// prefixLen returns the length of the literal prefix of a pattern that is
// not an allow of a directory's index page: up to its first '*' or its
// final '$'.
func prefixLen(p string) int {
	if i := strings.IndexByte(p, '*'); i >= 0 {
		return i
	}
	if p != "" && p[len(p)-1] == '$' {
		return len(p) - 1
	}
	return len(p)
}

// comparePrefix compares the literal prefix of r with s, as
// strings.Compare does, and returns the length of their common start too.
// The caller knows that the prefix starts with s[:from], which it does not
// read again, and that s has no '*' before noStar (a '*' in a path is
// rare): where the pattern agrees with s up to there, it looks only past
// there for the '*' that ends the prefix.
func (t *Table) comparePrefix(r *rule, s string, from, noStar int) (cmp, common int) {
	p := t.pattern(r)
	if r.kind() == kindDir {
		p = t.prefix(r)
	}
	d := from + commonPrefix(p[from:], s[from:])
	// The prefix ends at the first '*', or before a final '$'; only where
	// it ends at or before d does that change the outcome.
	end := len(p)
	if k := r.kind(); k == kindOne || k == kindWild {
		// p[:d] is s[:d], whose first noStar bytes hold no '*'.
		skip := max(from, min(d, noStar))
		if i := strings.IndexByte(p[skip:min(d+1, len(p))], '*'); i >= 0 {
			end = skip + i
		} else if p != "" && p[len(p)-1] == '$' {
			end = len(p) - 1
		}
	}
	switch {
	case end <= d:
		// The prefix is p[:end], which starts s.
		if end == len(s) {
			return 0, end
		}
		return -1, end
	case d == len(s):
		return 1, d
	case p[d] < s[d]:
		return -1, d
	}
	return 1, d
}

// isPrefix reports whether the literal prefix of r is key, itself the
// literal prefix of a rule (so without a '*').
func (t *Table) isPrefix(r *rule, key string) bool {
	p := t.pattern(r)
	if len(p) < len(key) || p[:len(key)] != key {
		return false
	}
	switch r.kind() {
	case kindDir:
		return len(t.prefix(r)) == len(key)
	case kindPlain:
		return len(p) == len(key)
	}
	// Not plain: the prefix ends at a '*' or before a final '$', or the
	// pattern is empty.
	rest := p[len(key):]
	return rest == "" && p == "" || rest != "" && rest[0] == '*' || rest == "$"
}

// line returns the line of rules[i].
func (t *Table) line(i int) int {
	if l := t.rules[i].line; l != wideLine || t.file == nil || t.file.lines == nil {
		return int(l)
	}
	return int(t.file.lines[i])
}

func (t *Table) rule(i int) Rule {
	r := &t.rules[i]
	return Rule{Pattern: t.pattern(r), Line: t.line(i), Allow: r.allow()}
}

// index sorts the rules of each group into index order and indexes the
// user-agent lines, once. A table made by Select is sorted already, one of
// SelectUnindexed is never sorted, and neither has user-agent lines.
func (t *Table) index() {
	if f := t.file; f != nil && !f.indexed.Load() {
		t.indexSlow()
	}
}

// indexSlow is the work of index, under the table's lock.
func (t *Table) indexSlow() {
	f := t.file
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.indexed.Load() {
		t.build()
		f.indexed.Store(true)
	}
}

// build sorts the rules of each group into index order and notes what the
// index needs.
func (t *Table) build() {
	var all notes
	ix := new(gramIndex)
	sc := getSortScratch()
	defer sc.release()
	for g := range t.file.groups {
		s, e := t.span(g)
		rules := t.rules[s.rules:e.rules]
		indexed := len(rules) > smallGroup
		if indexed && all == nil {
			all = make(notes, len(t.rules))
		}
		var lines []uint32
		if t.file.lines != nil {
			lines = t.file.lines[s.rules:e.rules]
		}
		sc.items = orderItems(sc.items[:0], t.text, rules, lines, indexed)
		sc.order(indexed)
		for i := range sc.items {
			rules[i] = sc.items[i].r
			if lines != nil {
				lines[i] = sc.items[i].line
			}
		}
		if indexed {
			sc.noteRules(t.text, rules, all[s.rules:e.rules], ix, int(s.rules))
		}
	}
	if !all.empty() {
		t.notes = all
	}
	if len(ix.blocks) > 0 {
		t.grams = ix
	}
	t.file.agentIndex = newAgentIndex(t)
}

// span returns the bounds of group g's agents, rules and records.
func (t *Table) span(g int) (start, end group) {
	if t.file == nil {
		return group{}, group{0, uint32(len(t.rules)), 0}
	}
	f := t.file
	start = f.groups[g]
	end = group{uint32(len(f.agents)), uint32(len(t.rules)), uint32(len(f.records))}
	if g+1 < len(f.groups) {
		end = f.groups[g+1]
	}
	return start, end
}

// groupRules returns the rules of group g and the index of the first.
func (t *Table) groupRules(g int) ([]rule, int) {
	if t.file == nil {
		return t.rules, 0
	}
	groups := t.file.groups
	s, e := groups[g].rules, uint32(len(t.rules))
	if g+1 < len(groups) {
		e = groups[g+1].rules
	}
	return t.rules[s:e], int(s)
}

// Lines returns the number of lines of the body; 0 for a table made by
// [Table.Select] or [Table.SelectUnindexed].
func (t *Table) Lines() int {
	if t.file == nil {
		return 0
	}
	return t.file.body
}

// Groups returns the number of groups.
func (t *Table) Groups() int {
	if t.file == nil {
		return 1
	}
	return len(t.file.groups)
}

// AppendGroups appends to dst the indices of the groups that apply to a
// crawler known by any of tokens: every group with a user-agent line whose
// product token equals one of them, ignoring ASCII case, or when there is
// none, every group with a "*" line, in file order. named reports whether
// some group names a token. Empty tokens name no group. A table made by
// [Table.Select] or [Table.SelectUnindexed] has no user-agent lines.
//
// A table that nothing has checked yet is not indexed for this: its
// user-agent lines are compared with the tokens one by one, which costs
// less than indexing them for one look-up.
func (t *Table) AppendGroups(dst []int, tokens ...string) (_ []int, named bool) {
	f := t.file
	if f == nil {
		return dst, false
	}
	var ix *agentIndex
	if f.indexed.Load() {
		ix = f.agentIndex
	}
	if ix == nil {
		return t.scanGroups(dst, tokens)
	}
	n := len(dst)
	for _, tok := range tokens {
		if tok != "" {
			dst = append(dst, ix.named(t, tok)...)
		}
	}
	if len(tokens) > 1 {
		slices.Sort(dst[n:])
		dst = dst[:n+len(slices.Compact(dst[n:]))]
	}
	if len(dst) > n {
		return dst, true
	}
	return append(dst, ix.global()...), false
}

// GroupsOf returns the groups that apply to a crawler known by token, as
// AppendGroups(dst, token) does, but without copying them when the table
// indexes its user-agent lines: the result is then the table's own, which
// the caller must not change.
func (t *Table) GroupsOf(dst []int, token string) (_ []int, named bool) {
	if t.file == nil {
		return dst, false
	}
	t.index()
	ix := t.file.agentIndex
	if ix == nil {
		return t.scanGroups(dst, []string{token})
	}
	if token != "" {
		if groups := ix.named(t, token); groups != nil {
			return groups, true
		}
	}
	return ix.global(), false
}

// scanGroups is AppendGroups for a table without an agent index: it
// compares tokens with each user-agent line.
func (t *Table) scanGroups(dst []int, tokens []string) (_ []int, named bool) {
	n := len(dst)
	for g := range t.file.groups {
		if t.names(g, tokens) {
			dst = append(dst, g)
		}
	}
	if len(dst) > n {
		return dst, true
	}
	for g := range t.file.groups {
		s, e := t.span(g)
		for _, a := range t.file.agents[s.agents:e.agents] {
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
	for i := s.agents; i < e.agents; i++ {
		for _, tok := range tokens {
			if tok != "" && t.agentNames(&t.file.agents[i], tok) {
				return true
			}
		}
	}
	return false
}

// agentNames reports whether the user-agent line a names token, a token
// that is not empty.
func (t *Table) agentNames(a *agent, token string) bool {
	tok := t.str(a.off, int(a.tok))
	return len(tok) == len(token) && (tok == token || strings.EqualFold(tok, token))
}

// Rules returns the rules of the given groups, in file order.
func (t *Table) Rules(groups []int) []Rule {
	t.index()
	var out []Rule
	t.eachGroup(groups, func(s, e group) {
		start := len(out)
		for i := s.rules; i < e.rules; i++ {
			out = append(out, t.rule(int(i)))
		}
		slices.SortFunc(out[start:], func(a, b Rule) int { return a.Line - b.Line })
	})
	return out
}

// records returns the extension records.
func (t *Table) records() []record {
	if t.file == nil {
		return nil
	}
	return t.file.records
}

// Extensions returns the extension records of the given groups, in file
// order. Records that stand before any group belong to none; File holds
// them.
func (t *Table) Extensions(groups []int) []Record {
	var out []Record
	records := t.records()
	t.eachGroup(groups, func(s, e group) {
		for i := s.records; i < e.records; i++ {
			out = append(out, t.record(&records[i]))
		}
	})
	return out
}

// FileExtensions returns the extension records that stand before the
// first group, in file order: they belong to no group (see
// [File.Extensions]). A table made by [Table.Select] has none.
func (t *Table) FileExtensions() []Record {
	records := t.records()
	head := len(records)
	if t.file == nil {
		head = 0
	} else if len(t.file.groups) > 0 {
		head = int(t.file.groups[0].records)
	}
	var out []Record
	for i := range head {
		out = append(out, t.record(&records[i]))
	}
	return out
}

// Sitemaps returns the sitemap records in file order.
func (t *Table) Sitemaps() []Record {
	if t.file == nil {
		return nil
	}
	out := make([]Record, len(t.file.sitemaps))
	for i := range t.file.sitemaps {
		out[i] = t.record(&t.file.sitemaps[i])
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
	f := &File{Lines: t.Lines(), Sitemaps: t.Sitemaps(), Extensions: t.FileExtensions()}
	groups := t.Groups()
	if groups == 0 {
		return f
	}
	f.Groups = make([]Group, groups)
	var agents []UserAgent
	if t.file != nil {
		agents = make([]UserAgent, len(t.file.agents))
		for i := range t.file.agents {
			a := &t.file.agents[i]
			v := t.str(a.off, int(a.n))
			agents[i] = UserAgent{Value: v, Token: v[:a.tok], Global: a.global, Line: int(a.line)}
		}
	}
	all := make([]int, groups)
	for g := range all {
		all[g] = g
	}
	rules := t.Rules(all) // calls t.index
	for g := range groups {
		s, e := t.span(g)
		f.Groups[g] = Group{
			Agents:     agents[s.agents:e.agents:e.agents],
			Rules:      rules[s.rules:e.rules:e.rules],
			Extensions: t.Extensions([]int{g}),
			Usage:      t.UsageRules([]int{g}),
		}
	}
	return f
}

// Size returns the bytes the Table retains: its text and records.
func (t *Table) Size() int {
	s := t.sizes()
	return s.text + s.rules + s.notes + s.grams + s.records + s.lines + s.agents + s.usage + s.fixed
}

// tableSizes is where the bytes a Table retains go (see Table.Size).
type tableSizes struct {
	text    int // patterns, agents, keys and values
	rules   int // rule records
	notes   int // parent links and grams (see notes)
	grams   int // gram lists (see gramIndex)
	records int // extension and sitemap records
	lines   int // the lines that do not fit rule.line
	agents  int // user-agent lines, groups and their index
	usage   int // Content-Usage rules and their text
	fixed   int // the Table and its fileParts
}

// sizes returns where the bytes t retains go.
func (t *Table) sizes() tableSizes {
	t.index() // what the index adds counts too, and is not written meanwhile
	s := tableSizes{
		text:  len(t.text),
		rules: cap(t.rules) * int(unsafe.Sizeof(rule{})),
		notes: cap(t.notes) * int(unsafe.Sizeof(uint16(0))),
		grams: t.grams.size(),
		usage: t.usage.size(),
		fixed: int(unsafe.Sizeof(*t)),
	}
	if f := t.file; f != nil {
		s.fixed += int(unsafe.Sizeof(*f))
		s.records = (cap(f.records) + cap(f.sitemaps)) * int(unsafe.Sizeof(record{}))
		s.lines = cap(f.lines) * int(unsafe.Sizeof(uint32(0)))
		s.agents = cap(f.agents)*int(unsafe.Sizeof(agent{})) + f.agentIndex.size()
		if unsafe.SliceData(f.groups) != unsafe.SliceData(selectedGroups) { // shared
			s.agents += cap(f.groups) * int(unsafe.Sizeof(group{}))
		}
	}
	return s
}
