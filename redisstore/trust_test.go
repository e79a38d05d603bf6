package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// TestFleetMemberFromTheFuture shares a real Redis between a fleet member
// whose clock runs ten years ahead and one whose clock is right: the
// entries the first writes claim a fetch in the future, and the second
// does not trust them as fresh but asks the server itself.
func TestFleetMemberFromTheFuture(t *testing.T) {
	_, rdb := newRedis(t)
	w := newWeb(t)
	ahead := func() time.Time { return time.Now().Add(10 * 365 * 24 * time.Hour) }
	skewed := robotstxt.NewClient(robotstxt.WithStore(New(rdb, WithLogger(quietLogger))),
		robotstxt.WithHTTPClient(w.HTTPClient()), robotstxt.WithClock(ahead))
	defer skewed.Close()
	right := robotstxt.NewClient(robotstxt.WithStore(New(rdb, WithLogger(quietLogger))),
		robotstxt.WithHTTPClient(w.HTTPClient()))
	defer right.Close()
	ctx := context.Background()
	for _, h := range crawltest.Hosts("skew", 5) {
		for _, p := range crawltest.Probes(h) {
			if ok, err := skewed.Allowed(ctx, p.URL); ok != p.Want || err != nil {
				t.Fatalf("skewed member: %s = %v, %v", p.URL, ok, err)
			}
		}
		before := w.Fetches(h)
		for _, p := range crawltest.Probes(h) {
			if ok, err := right.Allowed(ctx, p.URL); ok != p.Want || err != nil {
				t.Errorf("%s = %v, %v; want %v", p.URL, ok, err, p.Want)
			}
		}
		if got := w.Fetches(h) - before; got != 1 {
			t.Errorf("%s: the member with the right clock fetched %d times, want 1 (it trusted an entry from the future)", h, got)
		}
	}
}

// TestEntryCopiedToAnotherKey copies one site's value in Redis under
// another site's key, as anyone who can write to Redis can: the other
// site's answers are its own.
func TestEntryCopiedToAnotherKey(t *testing.T) {
	srv, rdb := newRedis(t)
	admin := newAdmin(t, srv)
	w := newWeb(t)
	c := robotstxt.NewClient(robotstxt.WithStore(New(rdb, WithLogger(quietLogger))), robotstxt.WithHTTPClient(w.HTTPClient()))
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Allowed(ctx, "http://open.test/"); err != nil {
		t.Fatal(err)
	}
	v, err := admin.Get(ctx, "robotstxt:{http://open.test:80}").Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.Set(ctx, "robotstxt:{http://closed.test:80}", v, time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	d := robotstxt.NewClient(robotstxt.WithStore(New(rdb, WithLogger(quietLogger))), robotstxt.WithHTTPClient(w.HTTPClient()))
	defer d.Close()
	for _, p := range crawltest.Probes("closed.test") {
		if ok, err := d.Allowed(ctx, p.URL); ok != p.Want || err != nil {
			t.Errorf("%s = %v, %v; want %v", p.URL, ok, err, p.Want)
		}
	}
	if n := w.Fetches("closed.test"); n != 1 {
		t.Errorf("closed.test fetched %d times, want 1: the copied value answered for it", n)
	}
}
