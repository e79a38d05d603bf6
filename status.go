package robotstxt

// An Outcome is what a robots.txt response means for crawling its authority.
type Outcome uint8

// The zero Outcome means no decision was made: a Decision returned with an
// error for a bad URL, a closed Client or a caller's context that ended.
const (
	// OutcomeRules means the body was parsed and its rules apply (2xx).
	OutcomeRules Outcome = iota + 1
	// OutcomeAllowAll means robots.txt is unavailable (most 4xx, too many
	// redirects): everything may be crawled.
	OutcomeAllowAll
	// OutcomeDisallowAll means nothing may be crawled, final for as long
	// as it is fresh (401 and 403 under LegacyStatusPolicy).
	OutcomeDisallowAll
	// OutcomeUnreachable means robots.txt could not be obtained (429, 5xx,
	// network errors, timeouts): the last good copy is used if there is
	// one, else nothing may be crawled and the caller is told to come back.
	OutcomeUnreachable
)

// name returns the outcome's name, for logs.
func (o Outcome) name() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

var outcomeNames = [...]string{"none", "rules", "allow-all", "disallow-all", "unreachable"}

// defaultStatusPolicy follows RFC 9309: 2xx parses the body, 4xx other
// than 429 (401 and 403 included) allows everything, and 429, 5xx and any
// other code are unreachable (see [WithStatusPolicy]).
func defaultStatusPolicy(status int) Outcome {
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

// unavailable reports whether a response of status says that robots.txt
// is not there (RFC 9309 §2.3.1.2, §2.3.1.3): a 4xx that the default
// policy reads as allow-all, or a redirect not followed to its end (too
// many); not a 3xx a fetch does not follow (see followed),
// which a status policy reads.
func unavailable(status int) bool {
	return followed(status) || defaultStatusPolicy(status) == OutcomeAllowAll
}

// LegacyStatusPolicy is a status policy for [WithStatusPolicy]: RFC 9309's
// default, but 401 Unauthorized and 403 Forbidden disallow everything, as
// the 1996 draft and many older crawlers read them.
func LegacyStatusPolicy(status int) Outcome {
	if status == 401 || status == 403 {
		return OutcomeDisallowAll
	}
	return defaultStatusPolicy(status)
}

// followed reports whether a fetch follows a response of status to its
// Location: every 3xx, one it does not know read as a 300 (RFC 9110
// §15), but a 304 (see classify) and a 305, a proxy to use.
func followed(status int) bool {
	return status >= 300 && status <= 399 && status != 304 && status != 305
}

// valid returns o, or OutcomeUnreachable when a policy gave an outcome
// that a response cannot have.
func valid(o Outcome) Outcome {
	if o == 0 || o > OutcomeUnreachable {
		return OutcomeUnreachable
	}
	return o
}
