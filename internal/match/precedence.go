package match

// Precedence compares two matching rules, a of length aLen and kind
// aAllow and b of length bLen and kind bAllow, by the precedence of RFC
// 9309 §2.2.2 as Google's parser applies it: the longer match (in bytes
// of the normalised pattern, '*' and '$' included) wins, and on a tie
// between an allow and a disallow the allow wins. It returns a negative
// number when a takes precedence, a positive one when b does, and 0 when
// they tie, and the first in file order wins. It is the one definition of
// precedence: [Best] applies it, and so do orders of rules that let a
// search stop at the first rule that cannot win.
func Precedence(aLen int, aAllow bool, bLen int, bAllow bool) int {
	// Twice the difference of the lengths, so that the kinds, worth one,
	// decide only between equal lengths.
	p := 2 * (bLen - aLen)
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
	// Len is the length the deciding rule's match weighs.
	Len int
	// Allow is the kind of the deciding rule.
	Allow bool
	// Found reports whether any rule has been taken.
	Found bool
	// Order is the deciding rule's place in file order, such as its line.
	Order int
}

// Beats reports whether a matching rule of the given length, kind and
// place in file order would take precedence over the best rule so far.
// Callers test it before matching (with the length of the rule's
// pattern, an upper bound of what its match weighs), so that rules that
// cannot win are never matched, and again with the length the match
// weighs.
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
