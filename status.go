package robotstxt

// An Outcome is what a robots.txt response means for crawling its
// authority.
type Outcome uint8

const (
	// OutcomeNone is the zero Outcome: no decision was made, as in the
	// Decision returned with an error for a bad URL, a closed Client or a
	// caller's context that ended.
	OutcomeNone Outcome = iota
	// OutcomeRules means the body was parsed and its rules apply (2xx).
	OutcomeRules
	// OutcomeAllowAll means robots.txt is unavailable (most 4xx, too many
	// redirects): everything may be crawled.
	OutcomeAllowAll
	// OutcomeDisallowAll means nothing may be crawled, and the answer is
	// final for as long as it is fresh (401 and 403 under
	// LegacyStatusPolicy).
	OutcomeDisallowAll
	// OutcomeUnreachable means robots.txt could not be obtained (429, 5xx,
	// network errors, timeouts): the last good copy is used if there is
	// one, otherwise nothing may be crawled and the caller is told to come
	// back later.
	OutcomeUnreachable
)

// String returns the outcome's name.
func (o Outcome) String() string {
	switch o {
	case OutcomeNone:
		return "none"
	case OutcomeRules:
		return "rules"
	case OutcomeAllowAll:
		return "allow-all"
	case OutcomeDisallowAll:
		return "disallow-all"
	case OutcomeUnreachable:
		return "unreachable"
	}
	return "unknown"
}

// An ErrorPolicy maps a robots.txt fetch that got no response at all (a
// DNS failure, a refused or reset connection, a TLS failure, a timeout) to
// an outcome. The error is the one the HTTP client returned; errors.As
// finds a *net.DNSError or *net.OpError in it. OutcomeRules, which has no
// body to read, counts as OutcomeUnreachable, and so does any outcome for
// a connection [PublicOnly] refused.
type ErrorPolicy func(err error) Outcome

// DefaultErrorPolicy reads every network error as OutcomeUnreachable, as
// RFC 9309 §2.3.1.4 asks. An archiver that wants a host that no longer
// resolves to count as having no robots.txt can install its own policy
// with [WithErrorPolicy].
func DefaultErrorPolicy(error) Outcome { return OutcomeUnreachable }

// A StatusPolicy maps the HTTP status of a final (non-redirect) robots.txt
// response to an outcome. The Client handles redirects and 304 Not
// Modified itself before consulting the policy; a fetch that got no
// response at all is read by the [ErrorPolicy] instead.
type StatusPolicy func(status int) Outcome

// DefaultStatusPolicy follows RFC 9309: 2xx parses the body, 4xx other
// than 429 (401 and 403 included) allows everything, and 429, 5xx and any
// other code are unreachable.
func DefaultStatusPolicy(status int) Outcome {
	switch {
	case status >= 200 && status <= 299:
		return OutcomeRules
	case status == 429:
		return OutcomeUnreachable
	case status >= 400 && status <= 499:
		return OutcomeAllowAll
	}
	return OutcomeUnreachable
}

// LegacyStatusPolicy is DefaultStatusPolicy except that 401 Unauthorized
// and 403 Forbidden disallow everything, as the 1996 draft and many older
// crawlers read them.
func LegacyStatusPolicy(status int) Outcome {
	if status == 401 || status == 403 {
		return OutcomeDisallowAll
	}
	return DefaultStatusPolicy(status)
}
