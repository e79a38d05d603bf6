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
// than the one its Client obeys robots.txt for: robots.txt was read for
// one product token and the site would see another.
var ErrAgentMismatch = errors.New("robotstxt: the request's User-Agent names another crawler")

// withAgent returns req as the Transport sends it: a copy with the
// Client's User-Agent when it carries none, or req itself when its
// User-Agent names one of the Client's product tokens. Any other is
// refused with an error wrapping ErrAgentMismatch.
func (t *Transport) withAgent(req *http.Request) (*http.Request, error) {
	ua, ok := req.Header["User-Agent"]
	if !ok || len(ua) == 0 {
		r := req.Clone(req.Context())
		if r.Header == nil {
			r.Header = make(http.Header)
		}
		r.Header.Set("User-Agent", t.c.cfg.userAgent)
		return r, nil
	}
	if p := t.agent.Load(); p != nil && *p == ua[0] {
		return req, nil // the User-Agent checked last time
	}
	tok, err := agent.ProductToken(ua[0])
	if err == nil && slices.ContainsFunc(t.c.tokens, func(s string) bool { return strings.EqualFold(s, tok) }) {
		t.agent.Store(&ua[0])
		return req, nil
	}
	named := "no product token"
	if err == nil {
		named = fmt.Sprintf("%q", capQuote(tok))
	}
	return req, fmt.Errorf("%w: User-Agent %q names %s, but the Client obeys robots.txt as %q; "+
		"send the Client's User-Agent (WithUserAgent), or none, which the Transport then sets, "+
		"or name the token with WithProductTokens",
		ErrAgentMismatch, capQuote(ua[0]), named, t.c.tokens)
}
