package matcher

// Best keeps the deciding rule among those that match one path, by the
// precedence of RFC 9309 §2.2.2: the longest pattern (in bytes of the
// normalised pattern, '*' and '$' included) wins, and on a tie between an
// allow and a disallow the allow wins. The zero Best has seen no rule.
type Best struct {
	// Len is the length of the deciding pattern.
	Len int
	// Allow is the kind of the deciding rule.
	Allow bool
	// Found reports whether any rule has been taken.
	Found bool
}

// Beats reports whether a matching rule of the given pattern length and
// kind would take precedence over the best rule so far. Callers test it
// before matching, so that rules that cannot win are never matched.
func (b *Best) Beats(length int, allow bool) bool {
	if !b.Found || length > b.Len {
		return true
	}
	return length == b.Len && allow && !b.Allow
}

// Take records a matching rule that Beats the best so far.
func (b *Best) Take(length int, allow bool) {
	*b = Best{Len: length, Allow: allow, Found: true}
}

// Allowed reports the decision: allowed when no rule matched or when the
// deciding rule is an allow.
func (b *Best) Allowed() bool { return !b.Found || b.Allow }
