package robotstxt

import (
	"slices"
	"strconv"
	"strings"

	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/parser"
)

// usageLabels are the usage categories the AIPREF vocabulary defines, by
// label: the one list that UsageLabels, the package documentation and the
// robotstxt command's lint read.
var usageLabels = [...]string{"train-ai", "search"}

// UsageLabels returns the labels of the usage categories that the AIPREF
// vocabulary defines (draft-ietf-aipref-vocab §4), in its order:
// "train-ai", training AI models, and "search", search applications. A
// [Usage] holds whatever labels a statement names; these are the ones
// whose meaning is agreed.
func UsageLabels() []string { return slices.Clone(usageLabels[:]) }

// A Pref is a preference about one use of content: allowed, disallowed
// or unknown.
type Pref uint8

// The preferences. The vocabulary writes PrefYes as the Token y and
// PrefNo as n; anything else, or nothing, leaves the preference unknown.
const (
	PrefUnknown Pref = iota // no preference stated (the zero value)
	PrefYes                 // the use is allowed ("y")
	PrefNo                  // the use is disallowed ("n")
)

// String returns "y" for [PrefYes], "n" for [PrefNo] and "unknown" for
// [PrefUnknown].
func (p Pref) String() string {
	switch p {
	case PrefUnknown:
		return "unknown"
	case PrefYes:
		return "y"
	case PrefNo:
		return "n"
	}
	return "Pref(" + strconv.Itoa(int(p)) + ")"
}

// A Usage is a statement of preference about what may be done with
// content a crawler fetches, in the vocabulary of the IETF AIPREF drafts:
// for each usage label, such as "train-ai" (training AI models) or
// "search" (search applications), whether the use is allowed, disallowed
// or unknown. A site states its preferences in Content-Usage rules of
// robots.txt and in the Content-Usage response header; [ParseUsage] reads
// one statement. Call [Usage.Pref] for the preference about one use, and
// [Usage.String] to show the statement.
//
// A Usage keeps what the site wrote: each label once, known today or not,
// with its value if that is a Token. The Tokens y and n are the
// preferences; another Token, such as reference in "use=reference", is
// kept to be shown but states no preference. Labels are case-sensitive.
//
// The zero Usage states no preference: every label is unknown. A Usage is
// one string, cheap to copy, and comparable: two are == when they hold the
// same labels and values in the same order. It holds what the longest
// statement can say, in at most about 20 KiB.
type Usage struct {
	// members is the String form: label=value members, each label once
	// and each value a Token, joined by ", ". Neither a label nor a Token
	// holds ',', ' ' or '=', so that the form reads back unambiguously.
	members string
}

// maxUsageLen bounds the String form of a Usage. Any statement
// ParseUsage accepts fits: a member kept takes no more bytes than it was
// written in, and at least four with the ',' after it ("k=v,"), so that a
// statement of sfv.MaxLength bytes keeps at most (sfv.MaxLength+1)/4
// members, and each ',' between them may gain a space.
const maxUsageLen = sfv.MaxLength + (sfv.MaxLength+1)/4 - 1

// ParseUsage reads a statement of preference as the Content-Usage header
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
// robots.txt line, 16,663 bytes ([parser.MaxLineLength]), with as many
// members as fit, far more than the 1,024 RFC 9651 asks parsers to
// accept; a longer one states no preference. Reading a statement takes
// time linear in its length, however many of its keys repeat.
func ParseUsage(value string) Usage {
	u, _ := parseStatement(value)
	return u
}

// parseStatement is [ParseUsage] with the reason a statement states no
// preference: a *sfv.SyntaxError or sfv.ErrTooLong.
func parseStatement(value string) (Usage, error) {
	var t usageTable
	sc := sfv.Scan(value)
	for sc.Next() {
		m := sc.Member()
		if m.Kind != sfv.Token {
			m.Value = ""
		}
		t.set(m.Key, m.Value)
	}
	if err := sc.Err(); err != nil {
		return Usage{}, err
	}
	return t.usage(), nil
}

// parseContentSignal reads the value of a Content-Signal record, which
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
// As from a statement, the Usage keeps every label read with its Token
// value, such as use=reference, which states no preference. A value
// longer than sfv.MaxLength bytes states no preference at all, as a
// statement does.
func parseContentSignal(value string) Usage {
	if len(value) > sfv.MaxLength {
		return Usage{}
	}
	var t usageTable
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
	return t.usage()
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

// Pref returns the preference about the use that label names, such as
// "train-ai": [PrefYes] or [PrefNo] if the Usage holds the label with the
// value y or n, else [PrefUnknown].
func (u Usage) Pref(label string) Pref {
	switch v, _ := u.value(label); v {
	case "y":
		return PrefYes
	case "n":
		return PrefNo
	}
	return PrefUnknown
}

// String returns the labels and values the Usage holds as a Dictionary of
// RFC 9651, in the order the statement wrote them, such as
// "train-ai=n, search=y"; "" for the zero Usage. [ParseUsage] reads it
// back to the same Usage.
func (u Usage) String() string { return u.members }

// value returns the value u holds for label, and whether it holds label.
func (u Usage) value(label string) (string, bool) {
	for m, rest := nextMember(u.members); m != ""; m, rest = nextMember(rest) {
		if len(m) > len(label) && m[len(label)] == '=' && m[:len(label)] == label {
			return m[len(label)+1:], true
		}
	}
	return "", false
}

// nextMember splits the first label=value member off the String form of
// a Usage.
func nextMember(members string) (member, rest string) {
	if i := strings.IndexByte(members, ','); i >= 0 {
		return members[:i], members[i+len(", "):]
	}
	return members, ""
}

// combine returns the preferences of u and v together, as the AIPREF
// vocabulary combines statements (draft-ietf-aipref-vocab §5.1): for each
// label, n if either says n, else y if either says y, else unknown. It
// keeps the labels of both, u's in their order and then those of v that
// u lacks; a label with no preference in either keeps u's value if u has
// one, else v's. Labels of v beyond the bounds of a Usage (maxUsageLen)
// are dropped, never those of u. It takes time linear in the lengths of
// u and v.
func (u Usage) combine(v Usage) Usage {
	switch {
	case v.members == "" || v == u:
		return u
	case u.members == "":
		return v
	}
	var t usageTable
	for m, rest := nextMember(u.members); m != ""; m, rest = nextMember(rest) {
		label, value, _ := strings.Cut(m, "=")
		t.set(label, value)
	}
	changed := false
	for m, rest := nextMember(v.members); m != ""; m, rest = nextMember(rest) {
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
	return t.usage()
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

// usageTable holds a statement's labels in the order they first appear,
// each with the last value written for it: RFC 9651's rule for a repeated
// key. A value is a Token, or "" for one that is not. The first labels are
// held in the table itself; past them, an index finds a label, so that a
// statement of n members fills a table in time linear in n.
type usageTable struct {
	n     int
	small [8]usageMember
	more  []usageMember  // the labels past small
	index map[string]int // label → position, made past small
}

// A usageMember is a label of a usageTable and its value.
type usageMember struct{ label, value string }

// at returns the member at position i < t.n.
func (t *usageTable) at(i int) *usageMember {
	if i < len(t.small) {
		return &t.small[i]
	}
	return &t.more[i-len(t.small)]
}

// find returns the position of label, and whether the table holds it.
func (t *usageTable) find(label string) (int, bool) {
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
func (t *usageTable) set(label, value string) {
	if i, ok := t.find(label); ok {
		t.at(i).value = value
		return
	}
	if t.n < len(t.small) {
		t.small[t.n] = usageMember{label, value}
	} else {
		t.more = append(t.more, usageMember{label, value})
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

// usage returns the Usage of the labels that have a value, in order,
// allocating its string once. A label that would take the String form
// past maxUsageLen is dropped, and the ones after it still fit if they
// can.
func (t *usageTable) usage() Usage {
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
		if size+need > maxUsageLen {
			m.value = "" // dropped
			continue
		}
		size += need
	}
	if size == 0 {
		return Usage{}
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
	return Usage{b.String()}
}

// noTraining is the Usage that disallows training AI models, which the
// signals older than the AIPREF vocabulary map to (see Transport.Usage).
var noTraining = Usage{"train-ai=n"}

// usage returns the preferences that the Content-Usage rules of groups in
// t, read in mode, state for path when those rules allow path, and the
// zero Usage otherwise (see Robots.Usage). A table without Content-Usage
// rules answers at the first test.
func usage(t *parser.Table, mode Mode, groups []int, path string) Usage {
	if !t.HasUsage(groups) || !allowed(t, mode, groups, path) {
		return Usage{}
	}
	return stated(t, mode, groups, path)
}

// stated returns the preferences of the Content-Usage rules of groups in
// t, read in mode, that decide for path (see parser.Table.DecideUsage),
// combined; whether the rules allow path is for the caller to ask.
func stated(t *parser.Table, mode Mode, groups []int, path string) Usage {
	path, _ = rulesPath(mode, path)
	var buf [4]parser.UsageRule
	var u Usage
	for _, r := range t.DecideUsage(buf[:0], groups, path) {
		u = u.combine(ParseUsage(r.Statement))
	}
	return u
}

// contentSignal returns the preferences of the Content-Signal records
// among records, combined (see Robots.ContentSignal).
func contentSignal(records []Record) Usage {
	var u Usage
	for _, r := range records {
		if r.Key == "content-signal" {
			u = u.combine(parseContentSignal(r.Value))
		}
	}
	return u
}
