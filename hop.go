package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt/internal/target"
)

// chainKey keys the []string of hopChain in a fetch's context.
type chainKey struct{}

// hopChain returns the authorities whose robots.txt fetches ctx serves,
// outermost first: nil for a crawler's own check.
func hopChain(ctx context.Context) []string {
	chain, _ := ctx.Value(chainKey{}).([]string)
	return chain
}

// maxHopDepth bounds how deep the checks of hops nest: two levels cover a
// robots.txt redirected to a CDN that redirects again; more would only
// serve a chain built to tie the Client up.
const maxHopDepth = 2

// admitHop decides whether the hop to next of key's fetch may be sent and
// takes its pacing turn, which done ends; its error wraps errRedirects.
func (c *Client) admitHop(ctx context.Context, key string, next *url.URL) (done func(), err error) {
	dest := next.String()
	refused := func(why error) error {
		return fmt.Errorf("%w: hop to %s refused: %w", errRedirects, capQuote(dest), why)
	}
	var buf [128]byte
	nextKey, path, err := target.Split(dest, buf[:0])
	if err != nil {
		return nil, refused(err)
	}
	if sameSite(key, string(nextKey)) || path == "/robots.txt" {
		return func() {}, nil
	}
	chain := hopChain(ctx)
	if len(chain) > maxHopDepth || slices.Contains(chain, string(nextKey)) {
		return nil, refused(fmt.Errorf("its check would fetch robots.txt files %d deep", len(chain)))
	}
	d, err := c.decide(ctx, nextKey, path, c.cache.get(nextKey))
	switch {
	case err != nil:
		return nil, refused(err)
	case !d.Allowed:
		return nil, refused(errors.New("its robots.txt disallows it"))
	}
	t := c.hopPacing()
	tu, _, err := t.awaitTurn(ctx, d.Authority, t.interval(d))
	if err != nil {
		return nil, refused(err)
	}
	return func() { t.done(ctx, tu, 0) }, nil
}

// hopPacing returns the Transport whose pacer and intervals pace the hops
// admitHop checks: one with the configuration of the first Transport made
// for c, or, when a hop comes first, a default one. Its counts go unread.
func (c *Client) hopPacing() *Transport {
	if c.hops.Load() == nil {
		newTransport(c, nil, nil) // lends c.hops its configuration
	}
	return c.hops.Load()
}

// sameSite reports whether the authorities a and b are one site: the same
// host but for "www.", on the same port or each scheme's default.
func sameSite(a, b string) bool { return siteOf(a) == siteOf(b) }

func siteOf(key string) (hostPort [2]string) {
	scheme, rest, _ := strings.Cut(key, "://")
	i := strings.LastIndexByte(rest, ':')
	host, port := rest[:i], rest[i+1:]
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	return [2]string{strings.TrimPrefix(host, "www."), port}
}
