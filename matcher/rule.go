package matcher

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
	off  uint32 // where the pattern starts in the text
	info uint32 // the pattern's length << infoShift | ruleAllow | ruleDir | shape
}

const (
	infoShift = 8
	shapeMask = 7
	ruleAllow = 1 << 3 // an allow rule
	ruleDir   = 1 << 4 // an allow of …/index.htm*, which also allows its directory

	// MaxPatternLen bounds the length of the pattern of a Rule.
	MaxPatternLen = 1<<(32-infoShift) - 1
	// MaxTextLen bounds the offset of the end of a Rule's pattern.
	MaxTextLen = 1<<32 - 1
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
	s, _ := analyze(p)
	info := uint32(len(p))<<infoShift | uint32(s)
	if allow {
		info |= ruleAllow
		if indexDir(p) > 0 {
			info |= ruleDir
		}
	}
	return Rule{off: uint32(start), info: info}
}

// Pattern returns the rule's pattern, a substring of text.
func (r Rule) Pattern(text string) string { return text[r.off : r.off+r.info>>infoShift] }

// Len returns the length of the pattern, which is what precedence weighs
// (see [Best]).
func (r Rule) Len() int { return int(r.info >> infoShift) }

// Allow reports whether the rule is an allow rule.
func (r Rule) Allow() bool { return r.info&ruleAllow != 0 }

// Prefix returns the literal start of the pattern, a substring of text:
// every path the rule matches begins with it. It is the pattern up to its
// first '*' or a final '$'; for an allow of …/index.html, which also
// matches its directory, it is at most that directory.
func (r Rule) Prefix(text string) string {
	p := r.Pattern(text)
	if r.info&ruleDir != 0 {
		p = p[:indexDir(p)]
	} else if shape(r.info&shapeMask) == shapeExact {
		return p[:len(p)-1]
	}
	if i := indexStar(p); i >= 0 {
		return p[:i]
	}
	return p
}

// Match reports whether the rule matches path, and the length its match
// weighs in precedence: the length of the pattern, or for an allow of
// …/index.html that matches only its directory (as if "Allow: …/$" were
// there), the length of that directory pattern.
func (r Rule) Match(text, path string) (length int, ok bool) {
	p := r.Pattern(text)
	s := shape(r.info & shapeMask)
	if s == shapePrefix {
		if strings.HasPrefix(path, p) {
			return len(p), true
		}
	} else if s.match(p, path) {
		return len(p), true
	}
	if r.info&ruleDir != 0 {
		n := indexDir(p)
		if matchDir(p[:n], path) {
			return n + 1, true
		}
	}
	return 0, false
}
