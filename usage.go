package robotstxt

import (
	"strings"

	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/parser"
)

// usageLabels are the usage categories the AIPREF vocabulary defines, by
// label: the one list that the package documentation and the
// robotstxt command's lint read.
var usageLabels = [...]string{"train-ai", "search"}

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
// [PrefUnknown], as statements write them.
func (p Pref) String() string {
	switch p {
	case PrefYes:
		return "y"
	case PrefNo:
		return "n"
	}
	return "unknown"
}

// A Usage is a statement of preference about what may be done with
// content a crawler fetches, in the vocabulary of the IETF AIPREF drafts:
// for each usage label, such as "train-ai" (training AI models) or
// "search" (search applications), whether the use is allowed, disallowed
// or unknown. A site states its preferences in Content-Usage rules of
// robots.txt and in the Content-Usage response header; [parseUsage] reads
// one statement. Call [Usage.Pref] for the preference about one use; a
// Usage prints as the statement it holds.
//
// A Usage keeps what the site wrote: each label once, known today or not,
// with its value if that is a Token. The Tokens y and n are the
// preferences; another Token, such as reference in "use=reference", is
// kept to be shown but states no preference. Labels are case-sensitive.
//
// The zero Usage states no preference: every label is unknown. A Usage is
// one string, cheap to copy, and comparable: two are == when they hold the
// same labels and values in the same order. It holds at most 64 labels, in
// about 1 KiB.
type Usage struct {
	// members is the String form: label=value members, each label once
	// and each value a Token, joined by ", ". Neither a label nor a Token
	// holds ',', ' ' or '=', so that the form reads back unambiguously.
	members string
}

// The bounds of what a Usage holds. Any statement parseUsage accepts
// fits: a member takes no more bytes than it was written in, and each ','
// between members may gain a space.
const (
	maxUsageMembers = sfv.MaxMembers
	maxUsageLen     = sfv.MaxLength + sfv.MaxMembers - 1
)

// parseUsage reads a statement of preference as the Content-Usage header
// field and the robots.txt Content-Usage rule write it: a Dictionary of
// RFC 9651 such as "train-ai=n, search=y", whose keys are the labels.
//
// Only the Tokens y and n state a preference. Any other value (a key
// written alone, which is Boolean true, the String "n", the Token yes, an
// inner list) leaves its label unknown, and parameters are ignored. A
// repeated key counts once, with its last value, at the place where it
// first appears. A statement that is not a Dictionary (an upper-case key,
// white space around '=', a ',' at the end, bad syntax anywhere) states no
// preference: every label is unknown. So does one longer than 1024 bytes
// or of more than 64 members, far beyond the few labels a statement
// names: a site that writes more only loses its own preferences.
func parseUsage(value string) Usage {
	u, _ := parseStatement(value)
	return u
}

// parseStatement is [parseUsage] with the reason a statement states no
// preference: a *sfv.SyntaxError, sfv.ErrTooLong or sfv.ErrTooManyMembers.
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
// longer than sfv.MaxLength bytes, or of more than sfv.MaxMembers parts
// between commas, states no preference at all, as a statement does.
func parseContentSignal(value string) Usage {
	if len(value) > sfv.MaxLength || strings.Count(value, ",") >= sfv.MaxMembers {
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

// statement returns the labels and values u holds as a Dictionary of RFC
// 9651, in the order the statement wrote them, such as "train-ai=n,
// search=y"; "" for the zero Usage. parseUsage reads it back to the same
// Usage.
func (u Usage) statement() string { return u.members }

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
// one, else v's. Labels of v beyond the bounds of a Usage (64 labels,
// about 1 KiB) are dropped, never those of u.
func (u Usage) combine(v Usage) Usage {
	switch {
	case v.members == "" || v == u:
		return u
	case u.members == "":
		return v
	}
	var b usageBuilder
	for m, rest := nextMember(u.members); m != ""; m, rest = nextMember(rest) {
		label, value, _ := strings.Cut(m, "=")
		if other, ok := v.value(label); ok {
			value = stricter(value, other)
		}
		b.add(label, value)
	}
	for m, rest := nextMember(v.members); m != ""; m, rest = nextMember(rest) {
		label, value, _ := strings.Cut(m, "=")
		if _, ok := u.value(label); !ok {
			b.add(label, value)
		}
	}
	if string(b.buf[:b.n]) == u.members {
		return u
	}
	return b.usage()
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
// key. A value is a Token, or "" for one that is not.
type usageTable struct {
	n      int
	labels [maxUsageMembers]string
	values [maxUsageMembers]string
}

// set gives label the value. A statement has at most maxUsageMembers
// members, so that there is always room.
func (t *usageTable) set(label, value string) {
	for i := range t.n {
		if t.labels[i] == label {
			t.values[i] = value
			return
		}
	}
	t.labels[t.n], t.values[t.n] = label, value
	t.n++
}

// usage returns the Usage of the labels that have a Token value.
func (t *usageTable) usage() Usage {
	var b usageBuilder
	for i := range t.n {
		if t.values[i] != "" {
			b.add(t.labels[i], t.values[i])
		}
	}
	return b.usage()
}

// usageBuilder writes the String form of a Usage within its bounds.
type usageBuilder struct {
	n, members int
	buf        [maxUsageLen]byte
}

// add appends label=value, unless that would pass the bounds: then the
// member is dropped.
func (b *usageBuilder) add(label, value string) {
	need := len(label) + 1 + len(value)
	if b.members > 0 {
		need += len(", ")
	}
	if b.members == maxUsageMembers || b.n+need > len(b.buf) {
		return
	}
	if b.members > 0 {
		b.n += copy(b.buf[b.n:], ", ")
	}
	b.n += copy(b.buf[b.n:], label)
	b.buf[b.n] = '='
	b.n++
	b.n += copy(b.buf[b.n:], value)
	b.members++
}

// usage returns the Usage written, allocating its string once.
func (b *usageBuilder) usage() Usage { return Usage{string(b.buf[:b.n])} }

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
		u = u.combine(parseUsage(r.Statement))
	}
	return u
}

// contentSignal returns the preferences of the Content-Signal records
// among records, combined (see Robots.ContentSignal).
func contentSignal(records []parser.Record) Usage {
	var u Usage
	for _, r := range records {
		if r.Key == "content-signal" {
			u = u.combine(parseContentSignal(r.Value))
		}
	}
	return u
}
