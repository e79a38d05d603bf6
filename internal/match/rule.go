package match

import "strings"

// A Rule is a compiled allow or disallow rule: where its pattern lies in
// a text that the Rule's owner keeps, and what matching the pattern needs
// to know. It holds no pointer and takes 8 bytes, so that the rules of a
// file are one array beside one text, which the garbage collector does
// not have to walk. Every method that reads the pattern takes that text,
// which must be the one the Rule was made from (see [NewRule]).
//
// The zero Rule is an empty disallow pattern, which matches nothing.
type Rule struct {
	off uint32 // where the pattern starts in the text << 2 | ruleAllow | ruleDir
	n   uint16 // the pattern's length
	pre uint16 // the length of its literal prefix (see Prefix)
}

const (
	ruleAllow = 1 << 0 // an allow rule
	ruleDir   = 1 << 1 // an allow of …/index.htm*, which also allows its directory
	offShift  = 2

	// MaxPatternLen bounds the length of the pattern of a Rule. The
	// longest line a parser keeps, escaped, is shorter.
	MaxPatternLen = 1<<16 - 1
	// MaxTextLen bounds the offset of the end of a Rule's pattern in its
	// text: 1 GiB.
	MaxTextLen = 1<<(32-offShift) - 1
)

// NewRule compiles the pattern text[start:end], which has been normalised
// (see [Escape]), as an allow rule when allow is set and as a disallow rule
// otherwise. It panics when the pattern is longer than [MaxPatternLen] or
// ends beyond [MaxTextLen].
func NewRule(text string, start, end int, allow bool) Rule {
	if end-start > MaxPatternLen || uint64(end) > MaxTextLen {
		panic("matcher: pattern too long or too far into its text")
	}
	p := text[start:end]
	r := Rule{off: uint32(start) << offShift, n: uint16(len(p))}
	if allow {
		r.off |= ruleAllow
		if d := IndexDir(p); d > 0 {
			r.off |= ruleDir
			p = p[:d]
		}
	}
	switch star := strings.IndexByte(p, '*'); {
	case star >= 0:
		r.pre = uint16(star)
	case r.off&ruleDir == 0 && p != "" && p[len(p)-1] == '$':
		r.pre = uint16(len(p) - 1)
	default:
		r.pre = uint16(len(p))
	}
	return r
}

// pattern returns the rule's pattern, a substring of text.
func (r Rule) pattern(text string) string {
	off := r.off >> offShift
	return text[off : off+uint32(r.n)]
}

// Prefix returns the literal start of the pattern, a substring of text:
// every path the rule matches begins with it. It is the pattern up to its
// first '*' or a final '$'; for an allow of …/index.html, which also
// matches its directory, it is at most that directory.
func (r Rule) Prefix(text string) string {
	off := r.off >> offShift
	return text[off : off+uint32(r.pre)]
}

// Match reports whether the rule matches path, and the length its match
// weighs in precedence: the length of the pattern, or for an allow of
// …/index.html that matches only its directory (as if "Allow: …/$" were
// there), the length of that directory pattern.
func (r Rule) Match(text, path string) (length int, ok bool) {
	p := r.pattern(text)
	pre := int(r.pre)
	switch {
	case p == "":
		return 0, false
	case r.off&ruleDir != 0:
		if Match(p, path) {
			return len(p), true
		}
		n := IndexDir(p)
		if matchDir(p[:n], path) {
			return n + 1, true
		}
		return 0, false
	}
	pat, end := cutEnd(p)
	star := -1 // the prefix ends at the end of pat, or at its first '*'
	if pre < len(pat) {
		star = pre
	}
	if match(pat, star, path, end, nil) {
		return len(p), true
	}
	return 0, false
}
