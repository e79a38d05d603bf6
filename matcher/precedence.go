package matcher

// Best keeps the deciding rule among those that match one path, by the
// precedence of RFC 9309 §2.2.2 as Google's parser applies it: the longest
// pattern (in bytes of the normalised pattern, '*' and '$' included) wins,
// on a tie between an allow and a disallow the allow wins, and between
// rules of the same length and kind the first in file order wins. The
// zero Best has seen no rule.
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
// Callers test it before matching (with the rule's [Rule.Len], an upper
// bound of what its match weighs), so that rules that cannot win are
// never matched, and again with the length the match weighs.
func (b *Best) Beats(length int, allow bool, order int) bool {
	switch {
	case !b.Found || length > b.Len:
		return true
	case length < b.Len:
		return false
	case allow != b.Allow:
		return allow
	}
	return order < b.Order
}

// Take records a matching rule that Beats the best so far.
func (b *Best) Take(length int, allow bool, order int) {
	*b = Best{Len: length, Allow: allow, Found: true, Order: order}
}

// Allowed reports the decision: allowed when no rule matched or when the
// deciding rule is an allow.
func (b *Best) Allowed() bool { return !b.Found || b.Allow }
