package redisstore

import (
	"context"
	"net/http"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// newWeb returns a crawltest.Web with pages: paths other than robots.txt
// are answered and their arrivals recorded, for the fleet's paced
// requests.
func newWeb(tb testing.TB, opts ...crawltest.WebOption) *crawltest.Web {
	tb.Helper()
	return crawltest.NewWeb(tb, append([]crawltest.WebOption{crawltest.WithPages()}, opts...)...)
}

// newProcess returns a Client as one crawler process would set it up: its
// own Redis connection pool and Store on the server at addr, fetching from
// w, with generous Store timeouts. Extra options are applied last.
func newProcess(t testing.TB, addr string, w *crawltest.Web, opts ...robotstxt.Option) *robotstxt.Client {
	t.Helper()
	opts = append([]robotstxt.Option{robotstxt.WithStoreTimeout(generous)}, opts...)
	return newClient(t, dialStore(t, addr, WithTimeout(generous)), w.HTTPClient(), opts...)
}

// newDefaultProcess is newProcess with the library's default timeouts, for
// fault tests.
func newDefaultProcess(t testing.TB, addr string, w *crawltest.Web, opts ...robotstxt.Option) *robotstxt.Client {
	t.Helper()
	return newClient(t, dialStore(t, addr), w.HTTPClient(), opts...)
}

// dialStore returns a Store on its own connection pool to addr, closed
// when the test ends.
func dialStore(t testing.TB, addr string, opts ...Option) *Store {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = rdb.Close() })
	return New(rdb, append([]Option{WithLogger(quietLogger)}, opts...)...)
}

// newClient returns a Client on store fetching through hc, closed when the
// test ends.
func newClient(t testing.TB, store *Store, hc *http.Client, opts ...robotstxt.Option) *robotstxt.Client {
	t.Helper()
	c := robotstxt.NewClient(append([]robotstxt.Option{
		robotstxt.WithStore(store),
		robotstxt.WithHTTPClient(hc),
		robotstxt.WithUserAgent("fleettest/1.0"),
	}, opts...)...)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// checkAll checks every probe of every host with c and reports wrong
// answers and errors.
func checkAll(t testing.TB, c *robotstxt.Client, hs []string) {
	t.Helper()
	for _, h := range hs {
		for _, p := range crawltest.Probes(h) {
			if err := checkOne(c, p); err != nil {
				t.Error(err)
			}
		}
	}
}

// checkOne checks one probe, within crawltest.CheckTimeout, and returns
// an error if the answer is wrong or Allowed failed.
func checkOne(c *robotstxt.Client, p crawltest.Probe) error {
	ctx, cancel := context.WithTimeout(context.Background(), crawltest.CheckTimeout)
	defer cancel()
	return p.Check(ctx, c)
}

// TestFleetSharesFetches: a second process finds in Redis what the first
// fetched, and fetches nothing itself.
func TestFleetSharesFetches(t *testing.T) {
	srv, _ := newRedis(t)
	w := newWeb(t)
	hs := crawltest.Hosts("share", 5)
	a := newProcess(t, srv.Addr(), w)
	b := newProcess(t, srv.Addr(), w)
	checkAll(t, a, hs)
	checkAll(t, b, hs)
	for _, h := range hs {
		if n := w.Fetches(h); n != 1 {
			t.Errorf("%s: %d robots.txt fetches, want 1", h, n)
		}
	}
	if got := b.Stats().Store.Hits; got != uint64(len(hs)) {
		t.Errorf("second process: %d Store hits, want %d", got, len(hs))
	}
}
