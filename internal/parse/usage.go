package parse

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/internal/usage"
)

// A UsageRule is one Content-Usage rule of a group (IETF AIPREF,
// draft-ietf-aipref-attach §4; see parser.UsageRule). It never ends a
// group's user-agent lines, so that it cannot change which rules a
// crawler obeys, but its yes speaks only for those of its run (see
// usageRun).
type UsageRule struct {
	Path      string // normalised; "" matches every path, with length 0
	Statement string // as written
	Line      int
}

// refusals returns what a Content-Usage statement, or a Content-Signal
// value when signal is set, cut short (at a NUL byte or past
// MaxLineLength; a body limit's cut is made a NUL's, see body.Read)
// reads as: the refusals before the cut, read as the whole statement's
// would be (see usage.Parse, usage.ParseContentSignal), for what was cut
// may have taken back a yes, and a refusal of training, for it may have
// been one; and a cut rule keeps its path, which would take a shorter
// rule's refusal from the paths it names were it to state nothing. It is written in the statement's vocabulary ("search=n,
// train-ai=n"; "search=no, ai-train=no"). [Table.Cut] tells such lines.
func refusals(stmt string, signal bool) string {
	var r refused
	if signal {
		m, _ := usage.ParseContentSignal(stmt)
		r.add(m)
	} else {
		// The members before the cut, or before one that does not
		// parse, as the whole statement's scan reads them.
		for sc := sfv.Scan(stmt); sc.Next(); {
			if m := sc.Member(); m.Token && m.Value == "n" {
				r.add(m.Key + "=n")
			}
		}
	}
	r.add("train-ai=n")
	return r.text(signal)
}

// noes returns the refusals (label=n) of a whole Content-Usage
// statement, or a Content-Signal value when signal is set, read as the
// statement is, written as refusals writes them; "" when it refuses
// nothing. They are what it says to the crawlers of its group it does
// not speak for (see usageRun).
func noes(stmt string, signal bool) string {
	var r refused
	var m string
	if signal {
		m, _ = usage.ParseContentSignal(stmt)
	} else {
		m, _ = usage.Parse(stmt)
	}
	r.add(m)
	return r.text(signal)
}

// refused gathers the labels of refusals, each once, in order.
type refused []string

// add adds the labels members refuse.
func (r *refused) add(members string) {
	for label, v := range usage.All(members) {
		if v == "n" && !slices.Contains(*r, label) {
			*r = append(*r, label)
		}
	}
}

// text writes the refusals in the vocabulary of a Content-Usage
// statement, or of a Content-Signal value when signal is set.
func (r refused) text(signal bool) string {
	var b strings.Builder
	for i, label := range r {
		if i > 0 {
			b.WriteString(", ")
		}
		switch {
		case !signal:
			b.WriteString(label + "=n")
		case label == "train-ai":
			b.WriteString("ai-train=no") // Content Signals' key for it
		default:
			b.WriteString(label + "=no")
		}
	}
	return b.String()
}

// splitUsage splits the value of a Content-Usage rule into its path, up
// to a blank, and its statement, or all statement unless it starts '/'.
func splitUsage(value string) (path, statement string) {
	if value == "" || value[0] != '/' {
		return "", value
	}
	i := strings.IndexAny(value, " \t")
	if i < 0 {
		return value, ""
	}
	return value[:i], strings.TrimLeft(value[i:], " \t")
}

// usageRule is a Content-Usage rule, its path and statement back to back
// in the text of its usageRules.
type usageRule struct {
	off   uint32 // where the path starts; the statement follows it
	run   uint32 // the run it speaks for; 0 in a table Select makes
	line  uint32
	n, sn uint16 // the lengths of the path and of the statement
}

// A usageRun is the user-agent lines a Content-Usage rule or a
// Content-Signal record speaks for: those of its group since the last
// line of another key (a rule, a record such as a crawl-delay, a
// sitemap), as a file whose groups each end in a rule is read. Google's
// grouping, which the allow and disallow rules keep, lets only those end
// a group, so a group may hold several runs, and a yes made for one
// crawler must not reach the others named after it; its refusals do (see
// builder.spread).
type usageRun struct {
	group  uint32
	lo, hi uint32 // its user-agent lines, [lo, hi) of the file's
	// spread marks the run of the other lines of its group, those after
	// or before a run, that reads the refusals of that run's statements
	// (see builder.spread): the crawlers of a group obey its rules, and
	// a no made for some of them must not fail open for the others.
	spread bool
	from   uint32 // the run whose refusals it reads, when spread
}

// mine reports whether run r, of those a crawler reads (runs), is to be
// read: not one that spreads to it the refusals of a run it reads whole.
func (u *usageRules) mine(runs []int, r int) bool {
	return !u.runs[r].spread || !slices.Contains(runs, int(u.runs[r].from))
}

// A signalRecord is a Content-Signal record of a group and its run.
type signalRecord struct {
	record uint32 // its index in the table's records
	run    uint32
}

// usageRules are a table's Content-Usage rules and the runs of its
// Content-Signal records, in run order; the runs are in file order.
type usageRules struct {
	text    string
	rules   []usageRule
	runs    []usageRun
	signals []signalRecord
	cut     []uint32 // the lines of statements cut short, in order
	// selected holds every run, for a table Select makes (see
	// Table.SelectedRuns).
	selected []int

	indexOnce sync.Once // see index
	runIndex  *runIndex
}

// run returns the number of the run of user-agent lines the current
// line, which ended it, speaks for.
func (b *builder) run() uint32 {
	if n := len(b.runs); n > 0 && b.runs[n-1].lo == b.runLo {
		return uint32(n - 1)
	}
	b.runs = append(b.runs, usageRun{group: uint32(len(b.groups) - 1), lo: b.runLo, hi: uint32(len(b.agents))})
	return uint32(len(b.runs) - 1)
}

// spread gives the refusals of the statements of the group that ends,
// the last, to its user-agent lines their runs do not hold, in runs that
// follow the group's own: those lines obey the group's rules (Google's
// grouping), and a statement's yes speaks only for its run, but its no
// for every crawler of the group.
func (b *builder) spread() {
	g := uint32(len(b.groups) - 1)
	end := len(b.runs)
	first := end
	for first > 0 && b.runs[first-1].group == g {
		first--
	}
	lo, hi := b.groups[g].agents, uint32(len(b.agents))
	rule, signal := 0, 0 // the first of the group's rules and signals
	for rule < len(b.usage) && b.usage[rule].run < uint32(first) {
		rule++
	}
	for signal < len(b.signals) && b.signals[signal].run < uint32(first) {
		signal++
	}
	for r := first; r < end; r++ {
		run := b.runs[r]
		for _, others := range [...][2]uint32{{lo, run.lo}, {run.hi, hi}} {
			if others[0] == others[1] {
				continue
			}
			to := uint32(len(b.runs))
			added := false
			// The run's rules decide apart, whole (see RunUsage): a yes
			// at a longer path takes a shorter path's no back.
			refuses := false
			for i := rule; i < len(b.usage) && b.usage[i].run == uint32(r); i++ {
				u := b.usage[i]
				refuses = refuses || noes(string(b.usageText[u.off+uint32(u.n):u.off+uint32(u.n)+uint32(u.sn)]), false) != ""
			}
			for i := rule; refuses && i < len(b.usage) && b.usage[i].run == uint32(r); i++ {
				u := b.usage[i]
				u.run = to // its text shared
				b.usage = append(b.usage, u)
				added = true
			}
			for i := signal; i < len(b.signals) && b.signals[i].run == uint32(r); i++ {
				rec := b.records[b.signals[i].record]
				if noes(string(b.text[rec.off:rec.off+uint32(rec.n)]), true) != "" {
					b.signals = append(b.signals, signalRecord{record: b.signals[i].record, run: to})
					added = true
				}
			}
			if added {
				b.runs = append(b.runs, usageRun{group: g, lo: others[0], hi: others[1], spread: true, from: uint32(r)})
			}
		}
		for rule < len(b.usage) && b.usage[rule].run == uint32(r) {
			rule++
		}
		for signal < len(b.signals) && b.signals[signal].run == uint32(r) {
			signal++
		}
	}
}

func (b *builder) usageRule(l *Line) {
	if len(b.groups) == 0 {
		b.diag(l.Num, RuleOutsideGroup, l.Value)
		return
	}
	run := b.run()
	path, stmt := splitUsage(l.Value)
	if l.Flags&(FlagTooLong|FlagNUL) != 0 {
		stmt = refusals(stmt, false)
		b.cut = append(b.cut, uint32(l.Num))
	}
	if path != "" {
		path = b.pattern(path)
	}
	if b.usageFull || uint64(len(b.usageText)+len(path)+len(stmt)) > maxText {
		b.usageFull = true
		return
	}
	off := uint32(len(b.usageText))
	b.usageText = append(append(b.usageText, path...), stmt...)
	b.usage = append(b.usage, usageRule{off: off, run: run, line: uint32(l.Num),
		n: uint16(len(path)), sn: uint16(len(stmt))})
}

// size returns the bytes s retains; 0 for nil.
func (s *usageRules) size() int {
	if s == nil {
		return 0
	}
	n := int(unsafe.Sizeof(*s)) + len(s.text) + cap(s.rules)*int(unsafe.Sizeof(usageRule{})) +
		cap(s.runs)*int(unsafe.Sizeof(usageRun{})) + cap(s.signals)*int(unsafe.Sizeof(signalRecord{})) + cap(s.cut)*4 + cap(s.selected)*int(unsafe.Sizeof(0))
	if ix := s.runIndex; ix != nil { // built (see index)
		n += int(unsafe.Sizeof(*ix)) + cap(ix.global)*int(unsafe.Sizeof(0))
		for tok, runs := range ix.named {
			// A map entry: its key's string header and bytes, its slice's
			// header and array.
			n += int(unsafe.Sizeof(tok)+unsafe.Sizeof(runs)) + len(tok) + cap(runs)*int(unsafe.Sizeof(0))
		}
	}
	return n
}

func (s *usageRules) rule(r *usageRule) UsageRule {
	path := s.text[r.off : r.off+uint32(r.n)]
	stmt := s.text[r.off+uint32(r.n) : r.off+uint32(r.n)+uint32(r.sn)]
	return UsageRule{Path: path, Statement: stmt, Line: int(r.line)}
}

// UsageRuns appends to dst the runs Content-Usage rules or Content-Signal
// records speak for that a crawler known by tokens reads: those with a
// user-agent line naming one of tokens when named (some group does, as
// [Table.AppendGroups] reports), else those with a "*" line; in order.
func (t *Table) UsageRuns(dst []int, named bool, tokens ...string) []int {
	if !named || len(tokens) == 0 {
		return append(dst, t.RunsOf("", false)...)
	}
	n := len(dst)
	for _, tok := range tokens {
		dst = append(dst, t.RunsOf(tok, true)...)
	}
	if len(tokens) > 1 {
		slices.Sort(dst[n:])
		dst = dst[:n+len(slices.Compact(dst[n:]))]
	}
	return dst
}

// RunsOf is UsageRuns(nil, named, token) without copying: the result is
// the table's own, which the caller must not change.
func (t *Table) RunsOf(token string, named bool) []int {
	u := t.more.usage
	if u == nil {
		return nil
	}
	ix := u.index(t)
	if !named {
		return ix.global
	}
	if token == "" {
		return nil
	}
	return ix.named[ascii.LowerString(token)]
}

// A runIndex lists the runs of a table's statements by the product
// tokens their user-agent lines name, lower-cased, and those with a "*"
// line, so that finding a crawler's takes a lookup: reading the lines at
// each check of a hostile file of many runs took 250 µs, a crawler not
// the first checked reading it at every check.
type runIndex struct {
	named  map[string][]int
	global []int
}

// index returns u's runIndex, built once.
func (u *usageRules) index(t *Table) *runIndex {
	u.indexOnce.Do(func() {
		ix := &runIndex{named: make(map[string][]int)}
		for i, r := range u.runs {
			star := false
			for _, a := range t.file.agents[r.lo:r.hi] {
				star = star || a.global
				if a.tok == 0 {
					continue
				}
				tok := ascii.LowerString(t.str(a.off, int(a.tok)))
				if runs := ix.named[tok]; len(runs) == 0 || runs[len(runs)-1] != i {
					ix.named[tok] = append(runs, i)
				}
			}
			if star {
				ix.global = append(ix.global, i)
			}
		}
		u.runIndex = ix
	})
	return u.runIndex
}

// runUsage returns the Content-Usage rules of run r.
func (t *Table) runUsage(r int) []usageRule {
	if t.more.usage == nil {
		return nil
	}
	rules := t.more.usage.rules
	lo := sort.Search(len(rules), func(i int) bool { return rules[i].run >= uint32(r) })
	hi := lo + sort.Search(len(rules)-lo, func(i int) bool { return rules[lo+i].run > uint32(r) })
	return rules[lo:hi]
}

// HasUsage reports whether the given runs have Content-Usage rules; for a
// table without any it only tests a pointer.
func (t *Table) HasUsage(runs []int) bool {
	if t.more.usage == nil {
		return false
	}
	return slices.ContainsFunc(runs, func(r int) bool { return len(t.runUsage(r)) > 0 })
}

// Signals returns the Content-Signal records of the given runs (see
// [Table.UsageRuns]), in file order for runs in order; not those before
// the first group (see [Table.FileExtensions]).
func (t *Table) Signals(runs []int) []Record {
	if t.more.usage == nil {
		return nil
	}
	signals := t.more.usage.signals
	var out []Record
	for _, r := range runs {
		if !t.more.usage.mine(runs, r) {
			continue
		}
		for i := sort.Search(len(signals), func(i int) bool { return signals[i].run >= uint32(r) }); i < len(signals) && signals[i].run == uint32(r); i++ {
			rec := t.record(&t.more.records[signals[i].record])
			if t.more.usage.runs[r].spread { // its refusals alone, which spread kept it for
				rec.Value = noes(rec.Value, true)
			}
			out = append(out, rec)
		}
	}
	return out
}

// groupRules returns the Content-Usage rules and the Content-Signal
// records of group g's runs: they are in run order, and the runs in
// group order.
func (u *usageRules) groupRules(g int) ([]usageRule, []signalRecord) {
	lo := uint32(sort.Search(len(u.runs), func(i int) bool { return u.runs[i].group >= uint32(g) }))
	hi := uint32(sort.Search(len(u.runs), func(i int) bool { return u.runs[i].group > uint32(g) }))
	rs := sort.Search(len(u.rules), func(i int) bool { return u.rules[i].run >= lo })
	re := sort.Search(len(u.rules), func(i int) bool { return u.rules[i].run >= hi })
	ss := sort.Search(len(u.signals), func(i int) bool { return u.signals[i].run >= lo })
	se := sort.Search(len(u.signals), func(i int) bool { return u.signals[i].run >= hi })
	return u.rules[rs:re], u.signals[ss:se]
}

// speakers returns the bounds, in group g's user-agent lines, of those
// each Content-Usage rule and Content-Signal record of g speaks for, by
// its line (see Group.Speakers); nil when there is none.
func (t *Table) speakers(g int) map[int][2]int {
	u := t.more.usage
	if u == nil {
		return nil
	}
	rules, signals := u.groupRules(g)
	if len(rules)+len(signals) == 0 {
		return nil
	}
	out := make(map[int][2]int, len(rules)+len(signals))
	first := int(t.file.groups[g].agents)
	note := func(line, run uint32) {
		if r := u.runs[run]; !r.spread { // their refusals reach the rest of the group
			out[int(line)] = [2]int{int(r.lo) - first, int(r.hi) - first}
		}
	}
	for _, r := range rules {
		note(r.line, r.run)
	}
	for _, s := range signals {
		note(t.more.records[s.record].line, s.run)
	}
	return out
}

// Cut reports whether the Content-Usage rule or Content-Signal record on
// line was cut short, at a NUL byte or past MaxLineLength: its statement
// reads as a refusal (train-ai=n, ai-train=no), whatever was written. A
// table [Table.Select] makes tells none.
func (t *Table) Cut(line int) bool {
	if t.more.usage == nil {
		return false
	}
	_, found := slices.BinarySearch(t.more.usage.cut, uint32(line))
	return found
}

// usageOf returns the Content-Usage rules of group g, in file order.
func (t *Table) usageOf(g int) []UsageRule {
	u := t.more.usage
	if u == nil {
		return nil
	}
	rules, _ := u.groupRules(g)
	var out []UsageRule
	for i := range rules {
		if !u.runs[rules[i].run].spread { // the refusals of another (see spread)
			out = append(out, u.rule(&rules[i]))
		}
	}
	return out
}

// DecideUsage appends to dst the Content-Usage rules of the given runs
// (see [Table.UsageRuns]) whose path matches path, as for [Table.Decide],
// with the greatest length: rules that tie decide together. It tries
// every rule of the runs, each in linear time, but that past smallGroup
// rules it passes
// over those with a four-byte piece the path lacks (see lacks), and
// allocates only when dst has no room.
func (t *Table) DecideUsage(dst []UsageRule, runs []int, path string) []UsageRule {
	dst, _ = t.RunUsage(dst, runs, path)
	return dst
}

// RunUsage is DecideUsage, and returns the number of rules it matched
// against path, each at a cost linear in path. A run that spreads
// refusals (see builder.spread) decides apart, as its own run's crawlers
// read it, and gives its refusals alone, but for a line the crawler's
// own runs, or another such run, decide by already.
func (t *Table) RunUsage(dst []UsageRule, runs []int, path string) (_ []UsageRule, tried int) {
	start := len(dst)
	dst, tried = t.decideRuns(dst, runs, path, false)
	u := t.more.usage
	if u == nil {
		return dst, tried
	}
	for i, run := range runs {
		if !u.runs[run].spread || !u.mine(runs, run) {
			continue
		}
		n := len(dst)
		var more int
		dst, more = t.decideRuns(dst, runs[i:i+1], path, true)
		tried += more
		kept := dst[:n]
		for _, r := range dst[n:] {
			if r.Statement = noes(r.Statement, false); r.Statement != "" &&
				!slices.ContainsFunc(kept[start:], func(o UsageRule) bool { return o.Line == r.Line }) {
				kept = append(kept, r)
			}
		}
		dst = kept
	}
	if len(dst) == 0 {
		return nil, tried // none, as when none matched
	}
	return dst, tried
}

// decideRuns appends to dst the rules of those of runs that spread
// refusals, or of the others, that decide for path, for RunUsage.
func (t *Table) decideRuns(dst []UsageRule, runs []int, path string, spread bool) (_ []UsageRule, tried int) {
	start, best := len(dst), -1
	ours := func(r int) bool { return t.more.usage.runs[r].spread == spread }
	var grams *gramSet // the path's, once the rules are many
	if n := 0; len(runs) > 1 {
		// Counted over the runs, as a table of them selected as one
		// counts them, so that both pass over the same rules.
		for _, r := range runs {
			if !ours(r) {
				continue
			}
			if n += len(t.runUsage(r)); n > smallGroup {
				grams = new(gramSet)
				grams.add(path)
				break
			}
		}
	}
	for _, run := range runs {
		if t.more.usage == nil || !ours(run) {
			continue
		}
		rules := t.runUsage(run)
		if grams == nil && len(rules) > smallGroup {
			grams = new(gramSet)
			grams.add(path)
		}
		for i := range rules {
			r := &rules[i]
			n := int(r.n)
			if n < best {
				continue
			}
			p := t.more.usage.text[r.off : r.off+uint32(n)]
			if p != "" && grams != nil && lacks(grams, p) {
				continue
			}
			if p != "" {
				if tried++; !match.Match(p, path) {
					continue
				}
			}
			if n > best {
				dst, best = dst[:start], n
			}
			dst = append(dst, t.more.usage.rule(r))
		}
	}
	return dst, tried
}

// selectUsage returns the Content-Usage rules of the given runs as run
// 0, but those of each run that spreads refusals (see builder.spread),
// which decides apart, as a run of its own after it, for Select; nil
// when they have none.
func (t *Table) selectUsage(runs []int) *usageRules {
	n, size := 0, 0
	for _, run := range runs {
		for _, r := range t.runUsage(run) {
			n++
			size += int(r.n) + int(r.sn)
		}
	}
	if n == 0 {
		return nil
	}
	rules := make([]usageRule, 0, n)
	text := make([]byte, 0, size)
	sel := []usageRun{{}}
	for _, spread := range [...]bool{false, true} {
		for _, run := range runs {
			if t.more.usage.runs[run].spread != spread || !t.more.usage.mine(runs, run) {
				continue
			}
			to := uint32(0)
			if spread {
				to = uint32(len(sel))
				sel = append(sel, usageRun{spread: true, from: math.MaxUint32}) // of no run of its table
			}
			for _, r := range t.runUsage(run) {
				end := r.off + uint32(r.n) + uint32(r.sn)
				off := uint32(len(text))
				text = append(text, t.more.usage.text[r.off:end]...)
				r.off, r.run = off, to
				rules = append(rules, r)
			}
		}
	}
	if len(sel) == 1 {
		return &usageRules{text: view(text), rules: rules, runs: ownRun, selected: ownRunIndex} // the common case
	}
	all := make([]int, len(sel))
	for i := range all {
		all[i] = i
	}
	return &usageRules{text: view(text), rules: rules, runs: sel, selected: all}
}

// ownRun and ownRunIndex are the runs of a table Select makes when no
// run spreads refusals to its crawler, shared.
var (
	ownRun      = []usageRun{{}}
	ownRunIndex = []int{0}
)

// SelectedRuns returns the runs of a table [Table.Select] made, to read
// its Content-Usage rules by: the crawler's, and those that spread
// refusals to it; the table's own, which the caller must not change.
func (t *Table) SelectedRuns() []int {
	if t.more.usage == nil {
		return nil
	}
	return t.more.usage.selected
}

// lacks reports whether pattern holds a four-byte piece of a literal run
// whose gram is not in grams, a path's: then it cannot match the path.
// Every fourth piece and the last of each run are looked at, which
// keeps it a small part of a match: 490 KiB of hostile Content-Usage rules against an 8 KiB path
// took 110 ms a check, and the same rules as Disallow lines, indexed
// by their grams, 0.13 ms.
func lacks(grams *gramSet, pattern string) bool {
	for run := range strings.SplitSeq(strings.TrimSuffix(pattern, "$"), "*") {
		if len(run) >= 4 && !grams.has(gramHash(run[len(run)-4:])) {
			return true
		}
		for k := 0; k+4 <= len(run); k += 4 {
			if !grams.has(gramHash(run[k:])) {
				return true
			}
		}
	}
	return false
}
