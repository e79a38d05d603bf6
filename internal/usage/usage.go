// Package usage reads statements of preference about the use of content
// in the vocabulary of the IETF AIPREF drafts and Cloudflare's
// Content-Signal records. It keeps a statement as its members:
// label=value, each label once, joined by ", " (no label or Token holds
// ',', ' ' or '=', so the form reads back unambiguously).
package usage

import (
	"fmt"
	"iter"
	"strings"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/quote"
	"github.com/robotsgate/robotstxt/internal/sfv"
)

// MaxLen bounds the members of a statement. Any statement [Parse]
// accepts fits: its members take at least four bytes each with their ','
// ("k=v,"), and each ',' may gain a space.
const MaxLen = sfv.MaxLength + (sfv.MaxLength+1)/4 - 1

// Parse reads a Content-Usage statement of preference: a Dictionary of
// RFC 9651 such as "train-ai=n, search=y", whose keys are the labels.
// Only the Tokens y and n state a preference; any other value (Boolean
// true, the String "n", an inner list) leaves its label unknown, and
// parameters are ignored. A repeated key counts once, with its last
// value, at the place of its first. A statement that is not a Dictionary
// states no preference: Parse then returns "" and the *sfv.SyntaxError
// or sfv.ErrTooLong of [sfv.Scanner.Err]. It takes linear time.
func Parse(value string) (string, error) {
	var t table
	sc := sfv.Scan(value)
	for sc.Next() {
		m := sc.Member()
		if !m.Token {
			m.Value = ""
		}
		t.set(m.Key, m.Value)
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return t.members(), nil
}

// signalLabels maps the keys of Cloudflare's Content Signals Policy,
// which take the values yes and no, to the labels of the AIPREF
// vocabulary (draft-ietf-aipref-vocab §4); ai-input, the use of content
// as input to an AI's answers, has no label there and keeps its name.
var signalLabels = map[string]string{"ai-train": "train-ai", "search": "search", "ai-input": "ai-input"}

// Read reports whether crawlers read label: train-ai, search or
// ai-input, those of Cloudflare's Content Signals.
func Read(label string) bool { return read[label] }

// read holds the labels crawlers read: those signalLabels maps to.
var read = func() map[string]bool {
	m := make(map[string]bool, len(signalLabels))
	for _, label := range signalLabels {
		m[label] = true
	}
	return m
}()

// ParseContentSignal reads the value of a Content-Signal record of
// Cloudflare's Content Signals Policy, such as "search=yes, ai-train=no",
// into the members of a statement in the AIPREF vocabulary
// ("search=y, train-ai=n"; see signalLabels): comma-separated key=value
// pairs, read leniently pair by pair (see signalPair), empty pairs
// ignored. A pair without '=', whose key is not a Dictionary key or whose
// value is not a Token is malformed: of it, only the refusals among its
// fragments between ';' and blanks are read ("ai-train=no" of
// "/ ai-train=no" or of "search=yes; ai-train=no", blanks around '='
// binding a key to its value as in a pair alone), never a yes, which
// may have been meant for some paths only, and which no other pair
// undoes. A record that starts with a path other than "/" ("/blog/
// search=yes, ai-train=no") speaks of that path alone: of every pair,
// and of every pair after it, only the refusals are read. A repeated key counts with all its values, as records combine
// (any n, else any y), so that the lines of a header field a proxy joins
// into one (RFC 9110, section 5.3) read as they did apart; so does a
// label two keys name (ai-train and train-ai). A value longer than
// sfv.MaxLength bytes states no preference at all.
//
// The error, for lint, names the first pair that states no preference,
// or only its refusals, though it was meant to (one malformed, or
// "ai-train=nope"), and how many more there are. The members are those
// read all the same.
func ParseContentSignal(value string) (string, error) {
	if len(value) > sfv.MaxLength {
		return "", sfv.ErrTooLong
	}
	var raw, refused table // by key as written; refused: read from pairs that are not ones
	var first error
	bad := 0
	scoped := false
	for rest := value; rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, ",")
		// A record that starts with a path other than "/" speaks of
		// that path alone: none of its pairs gives a yes for every
		// path, nor do the pairs after it (of records a proxy joined
		// into one header line after it, which may be that path's).
		if lead := strings.TrimLeft(pair, " \t"); strings.HasPrefix(lead, "/") && !strings.HasPrefix(lead, "/ ") && !strings.HasPrefix(lead, "/\t") {
			scoped = true
		}
		key, val, why := signalPair(pair)
		if key == "" && why == "" {
			continue // an empty pair
		}
		if scoped && val != "n" {
			if why == "" {
				why = "the record names a path: only its refusals are read"
			}
			val = ""
		}
		_, known := signalLabels[key]
		kept := why == "" || known && sfv.IsToken(val)
		if !kept && refusals(&refused, pair) {
			why += "; only its refusals are read"
			for i := range refused.n {
				m := refused.at(i)
				if _, ok := raw.find(m.label); !ok {
					raw.set(m.label, m.value) // in the order labels come
				}
			}
		}
		if why != "" {
			if bad++; first == nil {
				first = fmt.Errorf("pair %q: %s", quote.Cut(strings.Trim(pair, " \t"), quote.Max), why)
			}
		}
		if i, ok := raw.find(key); kept && ok {
			raw.at(i).value = stricter(raw.at(i).value, val)
		} else if kept {
			raw.set(key, val)
		}
	}
	if bad > 1 {
		first = fmt.Errorf("%w (and %d more)", first, bad-1)
	}
	for i := range refused.n {
		m := refused.at(i)
		raw.set(m.label, m.value) // a later pair's yes does not undo it
	}
	// Two keys may name one label (ai-train, and train-ai kept by name):
	// it takes both values, as statements combine.
	var t table
	for i := range raw.n {
		m := raw.at(i)
		label, ok := signalLabels[m.label]
		if !ok {
			label = m.label
		}
		if j, ok := t.find(label); ok {
			t.at(j).value = stricter(t.at(j).value, m.value)
		} else {
			t.set(label, m.value)
		}
	}
	return t.members(), first
}

// signalPair reads a key=value pair of a Content-Signal record: blanks
// around the key and value are ignored, the key is lower-cased (ASCII),
// and yes and no, in any case, become y and n, other values are kept. It
// returns why the pair states no preference though it was meant to; ""
// and no key for an empty pair.
func signalPair(pair string) (key, val, why string) {
	key, val, ok := strings.Cut(pair, "=")
	key, val = ascii.LowerString(strings.Trim(key, " \t")), strings.Trim(val, " \t")
	_, known := signalLabels[key]
	switch {
	case !ok && key == "":
	case !ok:
		why = "no '='"
	case !sfv.IsKey(key):
		why = "not a key of lower-case letters, digits, '_', '-', '.' and '*'"
	case ascii.EqualFold(val, "yes"):
		val = "y"
	case ascii.EqualFold(val, "no"):
		val = "n"
	case known:
		why = key + " takes yes or no"
	case !sfv.IsToken(val):
		why = "the value is not a Token"
	}
	return key, val, why
}

// refusals sets in raw each key of the policy that pair refuses (reads
// as n) at one of its '=': the word before it (after blanks, ';' or '='),
// blanks around it, and the word after it, as in a pair alone ("ai-train
// = no"); it reports whether any does. Only a refusal is read, so that no
// reading of a pair that is not one can state a yes.
func refusals(raw *table, pair string) bool {
	const stops = " \t;="
	found := false
	for i := range len(pair) {
		if pair[i] != '=' {
			continue
		}
		left := strings.TrimRight(pair[:i], " \t")
		right := strings.TrimLeft(pair[i+1:], " \t")
		if end := strings.IndexAny(right, stops); end >= 0 {
			right = right[:end]
		}
		key := left[strings.LastIndexAny(left, stops)+1:]
		if key, val, _ := signalPair(key + "=" + right); val == "n" && signalLabels[key] != "" {
			raw.set(key, val)
			found = true
		}
	}
	return found
}

// Value returns the value members hold for label, and whether they hold
// label.
func Value(members, label string) (string, bool) {
	for m, rest := next(members); m != ""; m, rest = next(rest) {
		if len(m) > len(label) && m[len(label)] == '=' && m[:len(label)] == label {
			return m[len(label)+1:], true
		}
	}
	return "", false
}

// All yields each label members hold and its value, in order.
func All(members string) iter.Seq2[string, string] {
	return func(yield func(label, value string) bool) {
		for m, rest := next(members); m != ""; m, rest = next(rest) {
			label, value, _ := strings.Cut(m, "=")
			if !yield(label, value) {
				return
			}
		}
	}
}

// next splits the first label=value member off members.
func next(members string) (member, rest string) {
	if i := strings.IndexByte(members, ','); i >= 0 {
		return members[:i], members[i+len(", "):]
	}
	return members, ""
}

// Combine returns the members u and v together, as the AIPREF vocabulary
// combines statements (draft-ietf-aipref-vocab §5.1; see stricter). It
// keeps u's labels in order, then those of v that u lacks; past [MaxLen]
// it drops members as table.members does. It takes linear time.
func Combine(u, v string) string {
	var c Combiner
	c.Add(u)
	c.Add(v)
	return c.Members()
}

// Agree returns the members u and v state for one resource both speak
// of, failing closed: a label's n if either says n, else its value where
// both give it the same; a label one leaves out, or gives another value,
// counts only as an n. It keeps u's labels in order, then v's, and takes
// linear time.
func Agree(u, v string) string {
	if u == v {
		return u
	}
	var tu, tv, out table
	for label, value := range All(u) {
		tu.set(label, value)
	}
	for label, value := range All(v) {
		tv.set(label, value)
	}
	for i := range tu.n {
		m := tu.at(i)
		j, ok := tv.find(m.label)
		switch {
		case m.value == "n" || ok && tv.at(j).value == "n":
			out.set(m.label, "n")
		case ok && tv.at(j).value == m.value:
			out.set(m.label, m.value)
		}
	}
	for i := range tv.n {
		if m := tv.at(i); m.value == "n" {
			if _, ok := tu.find(m.label); !ok {
				out.set(m.label, "n")
			}
		}
	}
	return out.members()
}

// A Combiner combines the members of any number of statements, as
// [Combine] does two, in time linear in them all. The zero Combiner holds
// none.
type Combiner struct {
	members string // the first statement added
	t       table  // the statements added, once a second one is
	changed bool   // whether t holds more than members
}

// Add combines the members v with those added before.
func (c *Combiner) Add(v string) {
	switch {
	case v == "" || v == c.members:
		return
	case c.members == "":
		c.members = v
		return
	}
	if c.t.n == 0 {
		for m, rest := next(c.members); m != ""; m, rest = next(rest) {
			label, value, _ := strings.Cut(m, "=")
			c.t.set(label, value)
		}
	}
	for m, rest := next(v); m != ""; m, rest = next(rest) {
		label, value, _ := strings.Cut(m, "=")
		i, ok := c.t.find(label)
		if !ok {
			c.t.set(label, value)
			c.changed = true
			continue
		}
		cur := c.t.at(i)
		if s := stricter(cur.value, value); s != cur.value {
			cur.value, c.changed = s, true
		}
	}
}

// Members returns the members of the statements added, combined: the
// first one's labels in order, then those each later one adds; past
// [MaxLen] it drops members as table.members does.
func (c *Combiner) Members() string {
	if !c.changed {
		return c.members
	}
	return c.t.members()
}

// stricter returns the value of one label in two statements combined: n
// if either is n, else y if either is y, else a if there is one, else b.
func stricter(a, b string) string {
	switch {
	case a == "n" || b == "n":
		return "n"
	case a == "y" || b == "y":
		return "y"
	case a != "":
		return a
	}
	return b
}

// table holds a statement's labels in the order they first appear, each
// with the last value set ("" for one that is not a Token). Past the
// first few, a map finds a label, so that filling it takes linear time.
type table struct {
	n     int
	small [8]member
	more  []member       // the labels past small
	index map[string]int // label → position, made past small
}

// A member is a label of a table and its value.
type member struct{ label, value string }

// goesIn reports whether m is among the members a table past MaxLen
// drops in the given pass (see members).
func (m *member) goesIn(pass int) bool {
	switch pass {
	case 0:
		return m.value != "y" && m.value != "n"
	case 1:
		return m.value == "y"
	case 2:
		return !read[m.label]
	}
	return true
}

// at returns the member at position i < t.n.
func (t *table) at(i int) *member {
	if i < len(t.small) {
		return &t.small[i]
	}
	return &t.more[i-len(t.small)]
}

// find returns the position of label, and whether the table holds it.
func (t *table) find(label string) (int, bool) {
	if t.index != nil {
		i, ok := t.index[label]
		return i, ok
	}
	for i := range t.n {
		if t.small[i].label == label {
			return i, true
		}
	}
	return 0, false
}

// set gives label the value, in its place or else at the end.
func (t *table) set(label, value string) {
	if i, ok := t.find(label); ok {
		t.at(i).value = value
		return
	}
	if t.n < len(t.small) {
		t.small[t.n] = member{label, value}
	} else {
		t.more = append(t.more, member{label, value})
	}
	t.n++
	switch {
	case t.index != nil:
		t.index[label] = t.n - 1
	case t.n > len(t.small):
		t.index = make(map[string]int, 2*t.n)
		for i := range t.n {
			t.index[t.at(i).label] = i
		}
	}
}

// members returns the members of the labels that have a value, in
// order, in one allocation. Past MaxLen, members are dropped from the
// last: first those that state no preference, then the y ones, then the
// n ones of labels a crawler does not read, so that no other member can
// crowd a "no" out; an n of train-ai, search or ai-input goes last.
func (t *table) members() string {
	size, kept := 0, 0
	for i := range t.n {
		if m := t.at(i); m.value != "" {
			size += len(m.label) + 1 + len(m.value)
			kept++
		}
	}
	size += max(kept-1, 0) * len(", ")
	for pass := 0; size > MaxLen; pass++ {
		for i := t.n - 1; i >= 0 && size > MaxLen; i-- {
			if m := t.at(i); m.value != "" && m.goesIn(pass) {
				size -= len(m.label) + 1 + len(m.value) + min(kept-1, 1)*len(", ")
				kept--
				m.value = ""
			}
		}
	}
	if size == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(size)
	for i := range t.n {
		m := t.at(i)
		if m.value == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m.label)
		b.WriteByte('=')
		b.WriteString(m.value)
	}
	return b.String()
}
