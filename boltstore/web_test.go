package boltstore

import (
	"context"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// newClient returns a Client on store fetching from the crawltest.Web at
// addr, with a generous Store timeout (a loaded test machine must not
// turn a slow Store call into a fetch). The caller closes the Client;
// its idle connections are closed when the test ends.
func newClient(t testing.TB, store robotstxt.Store, addr string) *robotstxt.Client {
	hc := crawltest.HTTPClient(addr)
	t.Cleanup(hc.CloseIdleConnections)
	return robotstxt.NewClient(
		robotstxt.WithStore(store),
		robotstxt.WithHTTPClient(hc),
		robotstxt.WithUserAgent("bolttest/1.0"),
		robotstxt.WithStoreTimeout(5*time.Second),
	)
}

// site is the name of the i-th test site.
func site(i int) string { return crawltest.Host("site", i) }

// check checks every probe of host with c and returns the first wrong
// answer or error.
func check(c *robotstxt.Client, host string) error {
	ctx, cancel := context.WithTimeout(context.Background(), crawltest.CheckTimeout)
	defer cancel()
	for _, p := range crawltest.Probes(host) {
		if err := p.Check(ctx, c); err != nil {
			return err
		}
	}
	return nil
}
