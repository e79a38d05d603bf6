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

// A robots.txt fetch that is redirected sends a request to wherever the
// server points, under the crawler's name: a hop is a request like any
// other. admitHop lets through the hops that stay on the site (http to
// https, a host to its www. twin, /robots.txt to another path of the same
// authority) and those to another authority's own /robots.txt; any other
// hop must be allowed by its authority's robots.txt and wait for its turn
// in the pacing of that authority's pages. A hop that may not be sent
// leaves the robots.txt unreachable: never allow-all.

// chainKey keys, in the context of a robots.txt fetch, the authorities
// whose fetches led to it through redirect hops, outermost first (a
// []string); see hopChain.
type chainKey struct{}

// hopChain returns the authorities whose robots.txt fetches are under
// way on ctx's behalf, outermost first: nil for a crawler's own check,
// the fetch's authority within a fetch, and more when a hop's check
// fetches another robots.txt.
func hopChain(ctx context.Context) []string {
	chain, _ := ctx.Value(chainKey{}).([]string)
	return chain
}

// maxHopDepth bounds how deep the checks of hops nest: a hop's check may
// fetch its authority's robots.txt, whose hops are checked in turn, but
// the check of a hop of that one's is refused. Two levels cover a site
// that redirects its robots.txt to a CDN that redirects again; more would
// only serve a chain built to tie the Client up.
const maxHopDepth = 2

// admitHop decides whether the redirect hop to next of the robots.txt
// fetch of key may be sent, and takes its pacing turn when it must: done
// ends that turn once the hop's response has arrived. Its error, wrapping
// errRedirects, leaves the robots.txt unreachable. ctx is the fetch's.
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
// for c (see NewTransport), or, when a hop comes first, one with c's own
// memPacer, which the Transports made without WithPacer share. Its counts
// are its own, and nobody reads them.
func (c *Client) hopPacing() *Transport {
	if t := c.hops.Load(); t != nil {
		return t
	}
	cfg := defaultTransportConfig()
	cfg.pacer = c.sharedPacer()
	c.hops.CompareAndSwap(nil, &Transport{c: c, cfg: cfg})
	return c.hops.Load()
}

// sameSite reports whether the authorities a and b are one site: the same
// host but for a leading "www.", under http or https, on the same port or
// on each scheme's default one.
func sameSite(a, b string) bool {
	ha, pa := siteOf(a)
	hb, pb := siteOf(b)
	return ha == hb && pa == pb
}

// siteOf returns the host of the authority key without a leading "www.",
// and its port, "" when it is its scheme's default.
func siteOf(key string) (host, port string) {
	scheme, rest, _ := strings.Cut(key, "://")
	i := strings.LastIndexByte(rest, ':')
	host, port = rest[:i], rest[i+1:]
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	return strings.TrimPrefix(host, "www."), port
}
