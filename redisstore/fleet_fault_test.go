package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// faultFleet starts Redis, a web of 20 sites and three processes with the
// default timeouts whose in-memory caches hold only two sites, so most
// checks go to Redis.
func faultFleet(t *testing.T, tag string) (*redistest.Server, *crawltest.Web, []*robotstxt.Client, []string) {
	t.Helper()
	srv, _ := newRedis(t)
	w := newWeb(t)
	var clients []*robotstxt.Client
	for range 3 {
		clients = append(clients, newDefaultProcess(t, srv.Addr(), w,
			robotstxt.WithCacheSize(2)))
	}
	return srv, w, clients, crawltest.Hosts(tag, 20)
}

// TestFleetRedisKilledMidRun: Redis dies under load; every check still
// gets the right answer, no error, within the latency ceiling.
func TestFleetRedisKilledMidRun(t *testing.T) {
	longtest.Gate(t)
	srv, _, clients, hs := faultFleet(t, "killed")
	r := startRun(clients, hs, 10)
	r.await(t, 1000)
	srv.Kill()
	r.await(t, 3000)
	r.finish(t)
}

// TestFleetRedisHungMidRun: Redis stops answering (SIGSTOP) under load;
// checks stay right and error-free, each within the latency ceiling.
func TestFleetRedisHungMidRun(t *testing.T) {
	longtest.Gate(t)
	srv, _, clients, hs := faultFleet(t, "hung")
	r := startRun(clients, hs, 10)
	r.await(t, 1000)
	srv.Pause()
	defer srv.Resume()
	r.await(t, 3000)
	r.finish(t)
}

// TestFleetRedisErrors: Redis refuses every write (maxmemory reached);
// checks stay right and error-free, and the refusals were really met.
func TestFleetRedisErrors(t *testing.T) {
	srv, _, clients, hs := faultFleet(t, "oom")
	rdb := newAdmin(t, srv)
	if err := rdb.ConfigSet(t.Context(), "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	r := startRun(clients, hs, 10)
	r.await(t, 2000)
	r.finish(t)
	var errs uint64
	for _, c := range clients {
		errs += c.Stats().Store.Errors
	}
	if errs == 0 {
		t.Error("no Store errors counted: the fault was not exercised")
	}
}

// TestFleetRedisHungTightDeadlines: Redis stops answering, and every
// check is given less time than the Store timeout (200 ms) but ample for
// a fetch. The Store's calls go on to their own timeout, which the
// breaker counts: after its three failures the checks fetch for
// themselves, within their deadlines.
func TestFleetRedisHungTightDeadlines(t *testing.T) {
	srv, _ := newRedis(t)
	w := newWeb(t)
	c := newDefaultProcess(t, srv.Addr(), w)
	srv.Pause()
	defer srv.Resume()
	const deadline = 100 * time.Millisecond
	check := func(h string) (time.Duration, error) {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		start := time.Now()
		err := crawltest.Probes(h)[0].Check(ctx, c)
		return time.Since(start), err
	}
	hs := crawltest.Hosts("tight", tripAfter+10)
	for _, h := range hs[:tripAfter] {
		if d, err := check(h); d > deadline+ceiling {
			t.Fatalf("a check with a %v deadline took %v (%v)", deadline, d, err)
		}
		time.Sleep(2 * deadline) // its Store call reaches the Store timeout
	}
	// The breaker is open for a second; the checks made within it fetch.
	for _, h := range hs[tripAfter:] {
		if _, err := check(h); err != nil {
			t.Fatalf("after %d timeouts of the Store: %v", tripAfter, err)
		}
	}
	if c.Stats().Store.Errors < tripAfter {
		t.Errorf("%+v: want the Store's timeouts counted", c.Stats().Store)
	}
}
