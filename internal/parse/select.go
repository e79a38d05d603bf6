package parse

// Select returns a table that holds only the rules, Content-Usage rules
// and extension records of the given groups, merged into group 0: what
// one crawler obeys, without user-agent lines, sitemaps or licenses. It
// shares nothing with t, and does not index t.
func (t *Table) Select(groups []int) *Table {
	f := t.file
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
	f.mu.Lock()
	for _, g := range groups {
		rs, _ := t.groupRules(g)
		rules = append(rules, rs...)
	}
	f.mu.Unlock()
	for i := range rules {
		size += int(rules[i].n)
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
	sortRules(view(text), rules)
	sel := &Table{text: view(text), rules: rules, file: selectedFile, more: newMore(records, t.selectUsage(groups))}
	sel.grams = sel.noteGrams()
	return sel
}

// selectedFile is the fileParts of every table that Select makes: one
// group, and nothing else.
var selectedFile = func() *fileParts {
	f := &fileParts{groups: []group{{}}}
	f.indexed.Store(true)
	return f
}()
