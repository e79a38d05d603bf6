package robotstxt

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt/parser"
)

// ErrProductToken is wrapped by the error of every check made by a Client
// that has no usable product token: one could not be derived from its
// User-Agent header (see [ProductToken]), or [WithProductTokens] was given
// one that is not a token. Such a Client decides nothing rather than
// silently obey another crawler's group.
var ErrProductToken = errors.New("robotstxt: no usable product token")

// browserProducts are the products of browser User-Agent strings that
// crawlers copy before their own product: none of them names a crawler.
var browserProducts = []string{
	"Mozilla", "AppleWebKit", "KHTML", "Gecko", "Chrome", "Chromium", "Safari",
	"Version", "Mobile", "Firefox", "Edg", "Edge", "OPR", "Opera", "HeadlessChrome",
}

// ProductToken returns the product token that a crawler sending userAgent
// as its User-Agent header is known by in robots.txt, the way such headers
// are written:
//
//   - "ExampleBot/1.0 (+https://example.com/bot)" gives "ExampleBot": the
//     first product's name;
//   - "Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)" gives
//     "XBot": the product named after "compatible;" in a comment, as for
//     Googlebot and bingbot;
//   - browser products (Mozilla, AppleWebKit, Chrome, Safari, …) are
//     skipped, so "Mozilla/5.0 (X11) Gecko/20100101 XBot/2" gives "XBot".
//
// A product token has only the characters robots.txt user-agent lines can
// name ([A-Za-z_-], RFC 9309 §2.2.1). When no product qualifies, as in
// "123bot/1.0" or a plain browser string, the error wraps
// [ErrProductToken]: name the tokens with [WithProductTokens] instead.
func ProductToken(userAgent string) (string, error) {
	if tok, ok := compatibleProduct(userAgent); ok {
		return tok, nil
	}
	depth := 0
	for _, field := range strings.Fields(userAgent) {
		// Skip comments, which may nest and hold spaces.
		if depth > 0 || strings.HasPrefix(field, "(") {
			depth += strings.Count(field, "(") - strings.Count(field, ")")
			depth = max(depth, 0)
			continue
		}
		name, _, _ := strings.Cut(field, "/")
		name = strings.TrimRight(name, ";,")
		// "compatible;" outside a comment, as in GPTBot's header, is the
		// marker before the crawler's product, not a product.
		if isBrowserProduct(name) || strings.EqualFold(name, "compatible") {
			continue
		}
		if parser.ValidToken(name) {
			return name, nil
		}
	}
	return "", fmt.Errorf("%w: none can be derived from User-Agent %q; name it with WithProductTokens", ErrProductToken, userAgent)
}

// compatibleProduct finds the product named after "compatible;" in a
// comment of a User-Agent header.
func compatibleProduct(ua string) (string, bool) {
	i := strings.Index(strings.ToLower(ua), "compatible;")
	if i < 0 || strings.LastIndexByte(ua[:i], '(') < strings.LastIndexByte(ua[:i], ')') {
		return "", false
	}
	rest := strings.TrimLeft(ua[i+len("compatible;"):], " ")
	end := strings.IndexAny(rest, "/; )")
	if end < 0 {
		end = len(rest)
	}
	name := rest[:end]
	return name, parser.ValidToken(name)
}

func isBrowserProduct(name string) bool {
	for _, b := range browserProducts {
		if strings.EqualFold(name, b) {
			return true
		}
	}
	return false
}

// checkTokens returns an error wrapping ErrProductToken unless every token
// is a product token.
func checkTokens(tokens []string) error {
	if len(tokens) == 0 {
		return fmt.Errorf("%w: no token given", ErrProductToken)
	}
	for _, t := range tokens {
		if !parser.ValidToken(t) {
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

// withAgent returns req as the Transport sends it: with the Client's
// User-Agent when it carries none (a copy: req is the caller's), or req
// itself when its User-Agent names one of the Client's product tokens
// (see ProductToken). Any other User-Agent is refused with an error
// wrapping ErrAgentMismatch that says which option to set.
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
	tok, err := ProductToken(ua[0])
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
