package boltstore

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// TestRestartWarm: a Client fills 300 authorities through a Store; both
// close, as a crawler does when it stops for a deploy. A new Client on
// the reopened file gives every URL the same decision without fetching a
// single robots.txt.
func TestRestartWarm(t *testing.T) {
	const sites = 300
	w := crawltest.NewWeb(t)
	path := filepath.Join(t.TempDir(), "robots.db")
	addr := w.Addr()

	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, st, addr)
	before := decide(t, c, sites)
	_ = c.Close()
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n := w.Fetches(""); n != sites {
		t.Fatalf("filling: %d fetches, want %d", n, sites)
	}

	st, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c = newClient(t, st, addr)
	defer c.Close()
	after := decide(t, c, sites)
	for url, d := range before {
		if !same(d, after[url]) {
			t.Errorf("%s: before the restart %+v, after %+v", url, d, after[url])
		}
	}
	if n := w.Fetches(""); n != sites {
		t.Errorf("after the restart: %d more fetches, want none", n-sites)
	}
	if st := c.Stats(); st.Fetches.Rules != 0 || st.Store.Hits != sites {
		t.Errorf("after the restart: %d fetches and %d Store hits, want 0 and %d", st.Fetches.Rules, st.Store.Hits, sites)
	}
}

// decide checks every probe of the first n sites with c, failing the
// test on a wrong answer, and returns the decisions by URL.
func decide(t *testing.T, c *robotstxt.Client, n int) map[string]robotstxt.Decision {
	t.Helper()
	ds := map[string]robotstxt.Decision{}
	for i := range n {
		for _, p := range crawltest.Probes(site(i)) {
			d, err := c.Check(t.Context(), p.URL)
			if err != nil || d.Allowed != p.Want {
				t.Fatalf("Check(%s) = %v, %v; want allowed %v", p.URL, d.Allowed, err, p.Want)
			}
			ds[p.URL] = d
		}
	}
	return ds
}

// same reports whether two decisions are the same, the expiry to the
// millisecond (the Client stores times to the millisecond).
func same(a, b robotstxt.Decision) bool {
	a.Expires, b.Expires = a.Expires.Truncate(time.Millisecond), b.Expires.Truncate(time.Millisecond)
	return a.Expires.Equal(b.Expires) && a.Allowed == b.Allowed && a.Status == b.Status && a.Outcome == b.Outcome &&
		a.Rule == b.Rule && a.Deferred == b.Deferred && a.Stale == b.Stale && a.Authority == b.Authority
}
