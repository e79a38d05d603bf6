package match

// Precedence is [github.com/robotsgate/robotstxt/matcher.Precedence]:
// the one definition of precedence, which [Best] and indexes apply.
func Precedence(aLen int, aAllow bool, bLen int, bAllow bool) int {
	p := 2 * (bLen - aLen) // the kinds, worth one, decide between equal lengths
	if aAllow {
		p--
	}
	if bAllow {
		p++
	}
	return p
}

// Best keeps the deciding rule among those that match one path, by
// [Precedence], the first in file order winning a tie. The zero Best has
// seen no rule.
type Best struct {
	Len   int  // the length the deciding rule's match weighs
	Allow bool // the kind of the deciding rule
	Found bool // whether any rule has been taken
	Order int  // the deciding rule's place in file order, such as its line
}

// Beats reports whether a matching rule of the given length, kind and
// place in file order would take precedence over the best rule so far.
// Callers test it before matching, with the pattern's length (an upper
// bound), so that rules that cannot win are never matched.
func (b *Best) Beats(length int, allow bool, order int) bool {
	if !b.Found {
		return true
	}
	c := Precedence(length, allow, b.Len, b.Allow)
	return c < 0 || c == 0 && order < b.Order
}

// Take records a matching rule that Beats the best so far.
func (b *Best) Take(length int, allow bool, order int) {
	*b = Best{Len: length, Allow: allow, Found: true, Order: order}
}
