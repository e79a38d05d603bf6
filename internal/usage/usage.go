// Package usage reads statements of preference about what may be done
// with content, in the vocabulary of the IETF AIPREF drafts: the
// Content-Usage rule of robots.txt and Content-Usage header field, as
// Dictionaries of RFC 9651, and Cloudflare's Content-Signal records. It
// keeps a statement as its members, label=value each label once, joined
// by ", " (neither a label nor a Token holds ',', ' ' or '=', so that the
// form reads back unambiguously): the form the robotstxt package's Usage
// holds and its command shows. The vocabulary, the reading and the
// combining are written here once.
package usage

import (
	"strings"

	"github.com/robotsgate/robotstxt/internal/sfv"
)

// Labels are the usage categories the AIPREF vocabulary defines, by
// label: the one list that the robotstxt package's documentation and its
// command's lint read.
var Labels = [...]string{"train-ai", "search"}

// MaxLen bounds the members of a statement. Any statement Parse accepts
// fits: a member kept takes no more bytes than it was written in, and at
// least four with the ',' after it ("k=v,"), so that a statement of
// sfv.MaxLength bytes keeps at most (sfv.MaxLength+1)/4 members, and each
// ',' between them may gain a space.
const MaxLen = sfv.MaxLength + (sfv.MaxLength+1)/4 - 1

// Parse reads a statement of preference as the Content-Usage header
// field and the robots.txt Content-Usage rule write it: a Dictionary of
// RFC 9651 such as "train-ai=n, search=y", whose keys are the labels.
//
// Only the Tokens y and n state a preference. Any other value (a key
// written alone, which is Boolean true, the String "n", the Token yes, an
// inner list) leaves its label unknown, and parameters are ignored. A
// repeated key counts once, with its last value, at the place where it
// first appears. A statement that is not a Dictionary (an upper-case key,
// white space around '=', a ',' at the end, bad syntax anywhere) states no
// preference: every label is unknown. A statement may be as long as a
// robots.txt line, 16,663 bytes (the parser's MaxLineLength), with as many
// members as fit, far more than the 1,024 RFC 9651 asks parsers to
// accept; a longer one states no preference. Reading a statement takes
// time linear in its length, however many of its keys repeat. It returns
// the statement's members, and when it states nothing, why: a
// *sfv.SyntaxError or sfv.ErrTooLong.
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

// ParseContentSignal reads the value of a Content-Signal record, which
// Cloudflare's Content Signals Policy puts in robots.txt, such as
// "search=yes, ai-train=no": a comma-separated list of key=value pairs
// with the keys search, ai-input and ai-train and the values yes and no.
// It is not a Structured Field, and it is read leniently, pair by pair:
//   - spaces and tabs around pairs, keys and values are ignored, and so
//     are empty pairs;
//   - keys are put in lower case (ASCII), as the policy writes them;
//   - the values yes and no, in any case, become y and n; other values
//     are kept as written (so y and n mean the same);
//   - a pair without '=', whose key is not a Dictionary key or whose
//     value is not a Token is skipped, and the others still count;
//   - a repeated key counts once, with its last value, as in a
//     Dictionary.
//
// As from a statement, the members keep every label read with its Token
// value, such as use=reference, which states no preference. A value
// longer than sfv.MaxLength bytes states no preference at all, as a
// statement does.
func ParseContentSignal(value string) string {
	if len(value) > sfv.MaxLength {
		return ""
	}
	var t table
	for rest := value; rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, ",")
		key, val, ok := strings.Cut(pair, "=")
		key, val = lowerASCII(strings.Trim(key, " \t")), strings.Trim(val, " \t")
		switch {
		case !ok || !sfv.IsKey(key):
			continue
		case strings.EqualFold(val, "yes"):
			val = "y"
		case strings.EqualFold(val, "no"):
			val = "n"
		case !sfv.IsToken(val):
			continue
		}
		t.set(key, val)
	}
	return t.members()
}

// lowerASCII returns s with its ASCII upper-case letters in lower case,
// without allocating when there are none.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Value returns the value members hold for label, and whether they hold
// label. Only the values y and n state a preference: see Stated.
func Value(members, label string) (string, bool) {
	for m, rest := next(members); m != ""; m, rest = next(rest) {
		if len(m) > len(label) && m[len(label)] == '=' && m[:len(label)] == label {
			return m[len(label)+1:], true
		}
	}
	return "", false
}

// Stated reports whether members state a preference about the use that
// label names, and whether that preference allows it: only the Tokens y
// (yes) and n (no) state one. Any other value, such as reference in
// "use=reference", and a label members do not hold leave the preference
// unknown (stated is false).
func Stated(members, label string) (yes, stated bool) {
	switch v, _ := Value(members, label); v {
	case "y":
		return true, true
	case "n":
		return false, true
	}
	return false, false
}

// next splits the first label=value member off members.
func next(members string) (member, rest string) {
	if i := strings.IndexByte(members, ','); i >= 0 {
		return members[:i], members[i+len(", "):]
	}
	return members, ""
}

// Combine returns the preferences of the members u and v together, as the AIPREF
// vocabulary combines statements (draft-ietf-aipref-vocab §5.1): for each
// label, n if either says n, else y if either says y, else unknown. It
// keeps the labels of both, u's in their order and then those of v that
// u lacks; a label with no preference in either keeps u's value if u has
// one, else v's. Labels of v beyond MaxLen
// are dropped, never those of u. It takes time linear in the lengths of
// u and v.
func Combine(u, v string) string {
	switch {
	case v == "" || v == u:
		return u
	case u == "":
		return v
	}
	var t table
	for m, rest := next(u); m != ""; m, rest = next(rest) {
		label, value, _ := strings.Cut(m, "=")
		t.set(label, value)
	}
	changed := false
	for m, rest := next(v); m != ""; m, rest = next(rest) {
		label, value, _ := strings.Cut(m, "=")
		i, ok := t.find(label)
		if !ok {
			t.set(label, value)
			changed = true
			continue
		}
		cur := t.at(i)
		if s := stricter(cur.value, value); s != cur.value {
			cur.value, changed = s, true
		}
	}
	if !changed {
		return u
	}
	return t.members()
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

// table holds a statement's labels in the order they first appear,
// each with the last value written for it: RFC 9651's rule for a repeated
// key. A value is a Token, or "" for one that is not. The first labels are
// held in the table itself; past them, an index finds a label, so that a
// statement of n members fills a table in time linear in n.
type table struct {
	n     int
	small [8]member
	more  []member       // the labels past small
	index map[string]int // label → position, made past small
}

// A member is a label of a table and its value.
type member struct{ label, value string }

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

// set gives label the value, in its place if the table holds it, else
// at the end.
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
// order, allocating their string once. A label that would take them past
// MaxLen is dropped, and the ones after it still fit if they can.
func (t *table) members() string {
	size := 0
	for i := range t.n {
		m := t.at(i)
		if m.value == "" {
			continue
		}
		need := len(m.label) + 1 + len(m.value)
		if size > 0 {
			need += len(", ")
		}
		if size+need > MaxLen {
			m.value = "" // dropped
			continue
		}
		size += need
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
