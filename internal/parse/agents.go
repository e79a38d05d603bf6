package parse

import (
	"cmp"
	"slices"
	"sort"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// agentIndex lists the user-agent lines of a table by product token, so
// that finding the groups that name a crawler takes a binary search: files
// that shut out hundreds of bots, a group each, are common.
type agentIndex struct {
	// agents[i] is a user-agent line with a token, groups[i] its group,
	// once for each token and group, sorted by lower-case token, group.
	agents []uint32
	groups []int
	global []int // the groups with a "*" line, in file order
}

// agents returns the index of t's user-agent lines, built once.
func (t *Table) agents() *agentIndex {
	f := t.file
	f.agentsOnce.Do(func() { f.agentIndex = newAgentIndex(t) })
	return f.agentIndex
}

func newAgentIndex(t *Table) *agentIndex {
	f := t.file
	type entry struct {
		agent uint32
		group int
	}
	var entries []entry
	ix := new(agentIndex)
	for g := range f.groups {
		s, e := t.span(g)
		star := false
		for i := s.agents; i < e.agents; i++ {
			star = star || f.agents[i].global
			if f.agents[i].tok > 0 {
				entries = append(entries, entry{i, g})
			}
		}
		if star {
			ix.global = append(ix.global, g)
		}
	}
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(compareFold(t.token(a.agent), t.token(b.agent)), cmp.Compare(a.group, b.group))
	})
	entries = slices.CompactFunc(entries, func(a, b entry) bool {
		return a.group == b.group && compareFold(t.token(a.agent), t.token(b.agent)) == 0
	})
	ix.agents = make([]uint32, len(entries))
	ix.groups = make([]int, len(entries))
	for i, e := range entries {
		ix.agents[i], ix.groups[i] = e.agent, e.group
	}
	ix.global = slices.Clip(ix.global)
	return ix
}

// token returns the product token of user-agent line i.
func (t *Table) token(i uint32) string {
	a := &t.file.agents[i]
	return t.str(a.off, int(a.tok))
}

// named returns the groups that name token, not empty, in file order;
// nil when none does.
func (ix *agentIndex) named(t *Table, token string) []int {
	lo := sort.Search(len(ix.agents), func(i int) bool { return compareFold(t.token(ix.agents[i]), token) >= 0 })
	hi := lo + sort.Search(len(ix.agents)-lo, func(i int) bool { return compareFold(t.token(ix.agents[lo+i]), token) > 0 })
	if lo == hi {
		return nil
	}
	return ix.groups[lo:hi:hi]
}

// size returns the bytes ix retains.
func (ix *agentIndex) size() int {
	if ix == nil {
		return 0
	}
	return int(unsafe.Sizeof(*ix)) + cap(ix.agents)*int(unsafe.Sizeof(uint32(0))) +
		(cap(ix.groups)+cap(ix.global))*int(unsafe.Sizeof(0))
}

// compareFold compares a and b as strings.Compare does their ASCII lower
// case.
func compareFold(a, b string) int {
	for i := range min(len(a), len(b)) {
		if c := cmp.Compare(ascii.Lower(a[i]), ascii.Lower(b[i])); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// AppendGroups appends to dst the indices of the groups that apply to a
// crawler known by any of tokens, in file order: every group with a
// user-agent line whose product token equals one of them ignoring ASCII
// case, or when none does, every group with a "*" line. named reports
// whether some group names a token; an empty token names none.
func (t *Table) AppendGroups(dst []int, tokens ...string) (_ []int, named bool) {
	ix := t.agents()
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
	return append(dst, ix.global...), false
}

// SelectFor selects (see [Table.Select]) the groups AppendGroups(nil,
// tokens...) returns and their runs UsageRuns returns, with those whose
// refusals alone reach the crawler (see [Table.Theirs]), and returns those
// runs too, for a table selected from once: reading each user-agent line
// once costs less than indexing them (2 % of BenchmarkClientColdPass).
func (t *Table) SelectFor(tokens ...string) (*Table, []int) {
	var named, global []int
	for g := range t.file.groups {
		s, e := t.span(g)
		agents := t.file.agents[s.agents:e.agents]
		if slices.ContainsFunc(agents, func(a agent) bool {
			return a.tok > 0 && slices.ContainsFunc(tokens, func(tok string) bool { return compareFold(t.str(a.off, int(a.tok)), tok) == 0 })
		}) {
			named = append(named, g)
		} else if slices.ContainsFunc(agents, func(a agent) bool { return a.global }) {
			global = append(global, g)
		}
	}
	groups := named
	if named == nil {
		groups = global
	}
	runs := t.UsageRuns(nil, named != nil, tokens...)
	runs = t.Theirs(runs, groups, runs)
	return t.Select(groups, runs), runs
}

// GroupsOf is AppendGroups(nil, token) without copying: the result is the
// table's own, which the caller must not change.
func (t *Table) GroupsOf(token string) (_ []int, named bool) {
	ix := t.agents()
	if token != "" {
		if groups := ix.named(t, token); groups != nil {
			return groups, true
		}
	}
	return ix.global, false
}
