package parse

// Select returns a table that holds only the rules and extension records
// of the given groups and the Content-Usage rules of the given runs of
// theirs (see [Table.UsageRuns]), merged into group 0 and run 0: what one
// crawler obeys. It shares nothing with t, and does not index t. Its
// first check tries each rule, unless that could take long (see
// eachWork), and its second indexes it: a crawler checks many sites
// once, and indexing the corpus took more than parsing it.
func (t *Table) Select(groups, runs []int) *Table {
	size, nr, nrec := 0, 0, 0
	for _, g := range groups {
		s, e := t.span(g)
		nr += int(e.rules - s.rules)
		nrec += int(e.records - s.records)
		for _, r := range t.more.records[s.records:e.records] {
			size += int(r.n) + int(r.keyN)
		}
	}
	// The rules are read under the lock: index sorts them in place.
	rules := make([]rule, 0, nr)
	t.mu.Lock()
	for _, g := range groups {
		rs, _ := t.groupRules(g)
		rules = append(rules, rs...)
	}
	t.mu.Unlock()
	wild := 0
	for i := range rules {
		size += int(rules[i].n)
		if rules[i].wild() {
			wild++
		}
	}
	text := make([]byte, 0, size)
	for i := range rules {
		p := t.pattern(&rules[i])
		rules[i].move(uint32(len(text)))
		text = append(text, p...)
	}
	records := make([]record, 0, nrec)
	for _, g := range groups {
		s, e := t.span(g)
		for _, r := range t.more.records[s.records:e.records] {
			v := t.str(r.off, int(r.n))
			r.off = uint32(len(text))
			text = append(text, v...)
			if r.keyN > 0 {
				k := t.str(r.key, int(r.keyN))
				r.key = uint32(len(text))
				text = append(text, k...)
			}
			records = append(records, r)
		}
	}
	sel := &Table{text: view(text), rules: rules, file: selectedFile, more: newMore(records, t.selectUsage(runs))}
	if len(rules) > smallGroup && wild >= filteredBlock {
		// The grams its index may note, made now so that Size never changes.
		sel.grams = make([]uint16, len(rules))
	}
	sel.state.Store(once)
	return sel
}

// selectedFile is the fileParts of every table that Select makes: one
// group, and nothing else.
var selectedFile = &fileParts{groups: []group{{}}}
