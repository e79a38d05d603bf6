package robotstxt

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt/internal/agent"
	"github.com/robotsgate/robotstxt/internal/parse"
)

// ErrProductToken is wrapped by the error of every check made by a Client
// without a usable product token (see [WithUserAgent] and
// [WithProductTokens]): it decides nothing rather than obey another
// crawler's group.
var ErrProductToken = agent.ErrProductToken

// checkTokens returns an error wrapping ErrProductToken unless every token
// is a product token.
func checkTokens(tokens []string) error {
	if len(tokens) == 0 {
		return fmt.Errorf("%w: no token given", ErrProductToken)
	}
	for _, t := range tokens {
		if !parse.ValidToken(t) {
			return fmt.Errorf("%w: %q is not a product token ([A-Za-z_-]+)", ErrProductToken, t)
		}
	}
	return nil
}

// ErrAgentMismatch is wrapped by the error a [Transport] returns, before
// anything is sent, for a request whose User-Agent names a crawler other
// than the one its Client obeys robots.txt for, or that carries several
// User-Agent values (under one key or spellings of it, such as
// "user-agent"): robots.txt was read for one product token and the site
// would see another.
var ErrAgentMismatch = errors.New("robotstxt: the request's User-Agent names another crawler")

// withAgent returns req as the Transport sends it: req itself when its
// one User-Agent names one of the Client's product tokens, or a copy that
// carries it, or the Client's User-Agent when req has none, under the
// canonical key alone. net/http writes every key of req.Header, so a
// "user-agent" key would go out beside the "User-Agent" one: every
// spelling of the field is read, and a request with several values, or
// one that names another crawler, is refused with an error wrapping
// ErrAgentMismatch.
func (t *Transport) withAgent(req *http.Request) (*http.Request, error) {
	var ua string
	n, canonical := 0, true
	for k, vv := range req.Header {
		if isField(k, "User-Agent") {
			n += len(vv)
			canonical = canonical && k == "User-Agent"
			if len(vv) > 0 {
				ua = vv[0]
			}
		}
	}
	switch {
	case n > 1:
		return req, fmt.Errorf("%w: the request carries %d User-Agent values; send one, the Client's (WithUserAgent)",
			ErrAgentMismatch, n)
	case n == 0:
		ua = t.c.cfg.userAgent
	case canonical:
		if p := t.agent.Load(); p != nil && *p == ua {
			return req, nil // the User-Agent checked last time
		}
		fallthrough
	default:
		if err := t.namesClient(ua); err != nil {
			return req, err
		}
		if canonical {
			checked := ua // only this branch lets a string escape
			t.agent.Store(&checked)
			return req, nil
		}
	}
	r := req.Clone(req.Context())
	if !canonical {
		for k := range r.Header {
			if isField(k, "User-Agent") {
				delete(r.Header, k)
			}
		}
	}
	if r.Header == nil {
		r.Header = make(http.Header, 1)
	}
	r.Header["User-Agent"] = []string{ua}
	return r, nil
}

// namesClient returns nil when the User-Agent ua names one of the
// Client's product tokens, and an error wrapping ErrAgentMismatch if not.
func (t *Transport) namesClient(ua string) error {
	tok, err := agent.ProductToken(ua)
	if err == nil && slices.ContainsFunc(t.c.tokens, func(s string) bool { return strings.EqualFold(s, tok) }) {
		return nil
	}
	named := "no product token"
	if err == nil {
		named = fmt.Sprintf("%q", capQuote(tok))
	}
	return fmt.Errorf("%w: User-Agent %q names %s, but the Client obeys robots.txt as %q; "+
		"send the Client's User-Agent (WithUserAgent), or none, which the Transport then sets, "+
		"or name the token with WithProductTokens",
		ErrAgentMismatch, capQuote(ua), named, t.c.tokens)
}

// isField reports whether the header key k is a spelling of the field
// name: the same but for case and surrounding blanks, which net/http
// writes as they are or refuses.
func isField(k, name string) bool {
	return len(k) >= len(name) && strings.EqualFold(strings.Trim(k, " \t"), name)
}
