package parse

import (
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/match"
)

// A UsageRule is one Content-Usage rule of a group (IETF AIPREF,
// draft-ietf-aipref-attach §4; see parser.UsageRule). It never ends a
// group's user-agent lines, so that it cannot change which rules a
// crawler obeys.
type UsageRule struct {
	Path      string // normalised; "" matches every path, with length 0
	Statement string // as written
	Line      int
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
	group uint32 // the group it stands in; 0 in a table Select makes
	line  uint32
	n, sn uint16 // the lengths of the path and of the statement
}

// usageRules are a table's Content-Usage rules, in group order.
type usageRules struct {
	text  string
	rules []usageRule
}

func (b *builder) usageRule(l *Line) {
	if len(b.groups) == 0 {
		b.diag(l.Num, RuleOutsideGroup, l.Value)
		return
	}
	path, stmt := splitUsage(l.Value)
	if l.Flags&(FlagTooLong|FlagNUL) != 0 {
		// What the scanner cut may have said no: the statement states
		// nothing, as an over-long or unparsable header field does.
		stmt = ""
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
	b.usage = append(b.usage, usageRule{off: off, group: uint32(len(b.groups) - 1), line: uint32(l.Num),
		n: uint16(len(path)), sn: uint16(len(stmt))})
}

// size returns the bytes s retains; 0 for nil.
func (s *usageRules) size() int {
	if s == nil {
		return 0
	}
	return int(unsafe.Sizeof(*s)) + len(s.text) + cap(s.rules)*int(unsafe.Sizeof(usageRule{}))
}

func (s *usageRules) rule(r *usageRule) UsageRule {
	path := s.text[r.off : r.off+uint32(r.n)]
	stmt := s.text[r.off+uint32(r.n) : r.off+uint32(r.n)+uint32(r.sn)]
	return UsageRule{Path: path, Statement: stmt, Line: int(r.line)}
}

// groupUsage returns the Content-Usage rules of group g.
func (t *Table) groupUsage(g int) []usageRule {
	if t.more.usage == nil {
		return nil
	}
	rules := t.more.usage.rules
	lo := sort.Search(len(rules), func(i int) bool { return rules[i].group >= uint32(g) })
	hi := lo + sort.Search(len(rules)-lo, func(i int) bool { return rules[lo+i].group > uint32(g) })
	return rules[lo:hi]
}

// HasUsage reports whether the given groups have Content-Usage rules;
// for a table without any it only tests a pointer.
func (t *Table) HasUsage(groups []int) bool {
	if t.more.usage == nil {
		return false
	}
	return slices.ContainsFunc(groups, func(g int) bool { return len(t.groupUsage(g)) > 0 })
}

// usageOf returns the Content-Usage rules of group g, in file order.
func (t *Table) usageOf(g int) []UsageRule {
	var out []UsageRule
	for _, r := range t.groupUsage(g) {
		out = append(out, t.more.usage.rule(&r))
	}
	return out
}

// DecideUsage appends to dst the Content-Usage rules of the given groups
// whose path matches path, as for [Table.Decide], with the greatest
// length: rules that tie decide together. It tries every rule of the
// groups, each in linear time, but that past smallGroup rules it passes
// over those with a four-byte piece the path lacks (see lacks), and
// allocates only when dst has no room.
func (t *Table) DecideUsage(dst []UsageRule, groups []int, path string) []UsageRule {
	dst, _ = t.RunUsage(dst, groups, path)
	return dst
}

// RunUsage is DecideUsage, and returns the number of rules it matched
// against path, each at a cost linear in path.
func (t *Table) RunUsage(dst []UsageRule, groups []int, path string) (_ []UsageRule, tried int) {
	start, best := len(dst), -1
	var grams *gramSet // the path's, once the rules are many
	if n := 0; len(groups) > 1 {
		// Counted over the groups, as a table of them selected as one
		// counts them, so that both pass over the same rules.
		for _, g := range groups {
			if n += len(t.groupUsage(g)); n > smallGroup {
				grams = new(gramSet)
				grams.add(path)
				break
			}
		}
	}
	for _, g := range groups {
		rules := t.groupUsage(g)
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

// selectUsage returns the Content-Usage rules of the given groups as
// group 0, for Select; nil when they have none.
func (t *Table) selectUsage(groups []int) *usageRules {
	n, size := 0, 0
	for _, g := range groups {
		for _, r := range t.groupUsage(g) {
			n++
			size += int(r.n) + int(r.sn)
		}
	}
	if n == 0 {
		return nil
	}
	rules := make([]usageRule, 0, n)
	text := make([]byte, 0, size)
	for _, g := range groups {
		for _, r := range t.groupUsage(g) {
			end := r.off + uint32(r.n) + uint32(r.sn)
			off := uint32(len(text))
			text = append(text, t.more.usage.text[r.off:end]...)
			r.off, r.group = off, 0
			rules = append(rules, r)
		}
	}
	return &usageRules{text: view(text), rules: rules}
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
