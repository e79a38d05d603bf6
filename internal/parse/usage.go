package parse

import (
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
	// Theirs marks a rule of a run whose refusals alone reach the
	// crawler (see Table.Theirs): its yes is not for it.
	Theirs bool
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

// refuses reports whether a Content-Usage statement, or a Content-Signal
// value when signal is set, refuses a use, read as the statement is.
func refuses(stmt string, signal bool) bool {
	var m string
	if signal {
		m, _ = usage.ParseContentSignal(stmt)
	} else {
		m, _ = usage.Parse(stmt)
	}
	for _, v := range usage.All(m) {
		if v == "n" {
			return true
		}
	}
	return false
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
// Table.Theirs).
type usageRun struct {
	group  uint32
	lo, hi uint32 // its user-agent lines, [lo, hi) of the file's
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
	return slices.ContainsFunc(runs, func(r int) bool { return len(t.runUsage(max(r, ^r))) > 0 }) // ^r: see Theirs
}

// Signals returns the Content-Signal records of the given runs (see
// [Table.UsageRuns], and [Table.Theirs]), in line order; not those before
// the first group (see [Table.FileExtensions]).
func (t *Table) Signals(runs []int) []Record {
	if t.more.usage == nil {
		return nil
	}
	signals := t.more.usage.signals
	var out []Record
	for _, r := range runs {
		theirs := r < 0
		if theirs {
			r = ^r
		}
		for i := sort.Search(len(signals), func(i int) bool { return signals[i].run >= uint32(r) }); i < len(signals) && signals[i].run == uint32(r); i++ {
			rec := t.record(&t.more.records[signals[i].record])
			if rec.Theirs = theirs; !theirs || refuses(rec.Value, true) { // else it says nothing to the crawler
				out = append(out, rec)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Record) int { return a.Line - b.Line }) // runs given as ^r come last
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
		r := u.runs[run]
		out[int(line)] = [2]int{int(r.lo) - first, int(r.hi) - first}
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
		out = append(out, u.rule(&rules[i]))
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
// against path, each at a cost linear in path. A run given as ^r, whose
// refusals alone reach the crawler (see [Table.Theirs]), decides apart,
// as its own crawlers read it, and its rules come marked Theirs.
func (t *Table) RunUsage(dst []UsageRule, runs []int, path string) (_ []UsageRule, tried int) {
	dst, tried = t.decideRuns(dst, runs, path, false)
	for i, r := range runs {
		if r < 0 {
			n := len(dst)
			var more int
			dst, more = t.decideRuns(dst, runs[i:i+1], path, true)
			tried += more
			kept := dst[:n]
			for _, u := range dst[n:] {
				if refuses(u.Statement, false) { // else it says nothing to the crawler
					u.Theirs = true
					kept = append(kept, u)
				}
			}
			dst = kept
		}
	}
	if len(dst) == 0 {
		return nil, tried // none, as when none matched
	}
	return dst, tried
}

// decideRuns appends to dst the rules of runs that decide for path, for
// RunUsage: of those given as ^r when theirs is set, else of the others.
func (t *Table) decideRuns(dst []UsageRule, runs []int, path string, theirs bool) (_ []UsageRule, tried int) {
	if t.more.usage == nil {
		return dst, 0
	}
	start, best := len(dst), -1
	var grams *gramSet // the path's, once the rules are many
	if n := 0; len(runs) > 1 {
		// Counted over the runs, as a table of them selected as one
		// counts them, so that both pass over the same rules.
		for _, r := range runs {
			if r < 0 != theirs {
				continue
			}
			if n += len(t.runUsage(max(r, ^r))); n > smallGroup {
				grams = new(gramSet)
				grams.add(path)
				break
			}
		}
	}
	for _, run := range runs {
		if run < 0 != theirs {
			continue
		}
		rules := t.runUsage(max(run, ^run))
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

// Theirs appends to dst, as ^r, each run r of groups (those a crawler
// obeys, sorted) that own (the runs that speak for it, sorted) does not
// hold: the crawler is named in the group by other lines, or is a "*" of
// it, and obeys its rules; a statement's yes does not speak for it, but
// its refusals do (see usageRun). Found as they are asked for, not
// listed in the table: a group of thousands of runs and lines would
// list millions.
func (t *Table) Theirs(dst []int, groups, own []int) []int {
	u := t.more.usage
	if u == nil {
		return dst
	}
	for _, g := range groups {
		for r := sort.Search(len(u.runs), func(i int) bool { return u.runs[i].group >= uint32(g) }); r < len(u.runs) && u.runs[r].group == uint32(g); r++ {
			if _, found := slices.BinarySearch(own, r); !found {
				dst = append(dst, ^r)
			}
		}
	}
	return dst
}

// selectUsage returns the Content-Usage rules of the given runs as run
// 0, but those of each run given as ^r (see [Table.Theirs]), which
// decides apart, as a run of its own after it, for Select; nil when they
// have none.
func (t *Table) selectUsage(runs []int) *usageRules {
	n, size := 0, 0
	for _, run := range runs {
		for _, r := range t.runUsage(max(run, ^run)) {
			n++
			size += int(r.n) + int(r.sn)
		}
	}
	if n == 0 {
		return nil
	}
	rules := make([]usageRule, 0, n)
	text := make([]byte, 0, size)
	selected := []int{0}
	for _, theirs := range [...]bool{false, true} {
		for _, run := range runs {
			if run < 0 != theirs {
				continue
			}
			to := 0
			if theirs {
				to = len(selected)
				selected = append(selected, ^to)
			}
			for _, r := range t.runUsage(max(run, ^run)) {
				end := r.off + uint32(r.n) + uint32(r.sn)
				off := uint32(len(text))
				text = append(text, t.more.usage.text[r.off:end]...)
				r.off, r.run = off, uint32(to)
				rules = append(rules, r)
			}
		}
	}
	if len(selected) == 1 {
		return &usageRules{text: view(text), rules: rules, runs: ownRun, selected: ownRunIndex} // the common case
	}
	sel := make([]usageRun, len(selected))
	for i := 1; i < len(sel); i++ {
		sel[i].group = 1 // of no group of the table's: its group 0 holds the crawler's own statements
	}
	return &usageRules{text: view(text), rules: rules, runs: sel, selected: selected}
}

// ownRun and ownRunIndex are the runs of a table Select makes when no
// run gives its crawler refusals alone, shared.
var (
	ownRun      = []usageRun{{}}
	ownRunIndex = []int{0}
)

// SelectedRuns returns the runs of a table [Table.Select] made, to read
// its Content-Usage rules by: the crawler's, and as ^r those whose
// refusals alone reach it; the table's own, which the caller must not
// change.
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
