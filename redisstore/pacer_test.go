package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/pacing"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// checkLeaks fails the test if it leaves goroutines behind; call it first
// so it runs after every other cleanup. An undo may outlive its test by
// design, bounded by maxUndos and a lease (see Store.undo), when the
// test stops Redis under a Take or a Lease; so may the Store's own call
// after a short one (see Store.ask), by up to the Store's timeout.
func checkLeaks(t *testing.T) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() {
		goleak.VerifyNone(t, ignore, goleak.IgnoreAnyFunction("github.com/robotsgate/robotstxt/redisstore.(*Store).undo.func1"),
			goleak.IgnoreAnyFunction("github.com/robotsgate/robotstxt/redisstore.(*Store).ask"))
	})
}

// turn is what the tests keep of a turn a Pacer gave, for its Done.
type turn struct {
	authority string
	interval  time.Duration
	id        uint64
}

// take asks p once for a turn at a, as a Transport does; ok reports that
// it was given.
func take(ctx context.Context, p robotstxt.Pacer, a string, interval time.Duration) (turn, time.Duration, bool, error) {
	id, wait, err := p.Take(ctx, a, interval)
	if err != nil || wait > 0 {
		return turn{}, wait, false, err
	}
	return turn{a, max(interval, 0), id}, 0, true, nil
}

// done ends tu with p.
func done(ctx context.Context, p robotstxt.Pacer, tu turn, hold time.Duration) error {
	return p.Done(ctx, tu.authority, tu.id, tu.interval, hold)
}

// takeTurn asks p for a turn at a until it gets one, sleeping as long as
// Take says in between, as a Transport does. It fails the test when Take
// fails, or gives no turn within a minute.
func takeTurn(t *testing.T, p robotstxt.Pacer, a string, interval time.Duration) turn {
	t.Helper()
	giveUp := time.Now().Add(time.Minute)
	for {
		tu, wait, ok, err := take(context.Background(), p, a, interval)
		if err != nil {
			t.Fatalf("Take(%s, %v): %v", a, interval, err)
		}
		if ok {
			return tu
		}
		if time.Now().Add(wait).After(giveUp) {
			t.Fatalf("Take(%s, %v): no turn within a minute", a, interval)
		}
		time.Sleep(wait)
	}
}

// pagedSite is a loopback site with a crawl-delay that records when each
// page request arrives.
type pagedSite struct {
	*httptest.Server
	mu    sync.Mutex
	pages []time.Time
}

func newPagedSite(t *testing.T, robots string) *pagedSite {
	t.Helper()
	s := &pagedSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, robots)
			return
		}
		now := time.Now()
		s.mu.Lock()
		s.pages = append(s.pages, now)
		s.mu.Unlock()
		_, _ = io.WriteString(w, "page")
	}))
	t.Cleanup(s.Close)
	return s
}

// arrivals returns the page arrival times, sorted.
func (s *pagedSite) arrivals() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := slices.Clone(s.pages)
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	return at
}

// fleetMember is one crawler process of a fleet: its own Redis client and
// Store, Client and Transport, with the Transport's options. The Store
// keeps its values under prefix, and paces the Transport unless the
// options give it another Pacer.
func fleetMember(t *testing.T, addr, prefix string, opts ...robotstxt.TransportOption) *http.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = rdb.Close() })
	store := New(rdb, WithPrefix(prefix), WithLogger(quietLogger), WithTimeout(generous))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"),
		robotstxt.WithHTTPClient(&http.Client{Transport: next}), robotstxt.WithStore(store))
	t.Cleanup(func() { _ = rc.Close() })
	opts = append([]robotstxt.TransportOption{robotstxt.WithPacer(store)}, opts...)
	return &http.Client{Transport: robotstxt.NewTransport(rc, next, opts...)}
}

// TestPacerPrefixes: a Store's pacing state lives under its prefix, as
// its values do. Processes of one crawler that keep their values under
// two prefixes (those that sign requests and those that do not, as
// robotstxt.Store advises) keep a site's crawl-delay together when they
// pace through one Store; crawlers of their own prefixes pace apart.
func TestPacerPrefixes(t *testing.T) {
	srv, _ := newRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	shared := New(rdb, WithLogger(quietLogger), WithTimeout(generous))
	for _, tc := range []struct {
		name  string
		opts  []robotstxt.TransportOption
		paced bool
	}{
		{"one pacing Store", []robotstxt.TransportOption{robotstxt.WithPacer(shared)}, true},
		{"each its own", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := newPagedSite(t, "User-agent: *\nCrawl-delay: 5\n")
			opts := append(tc.opts, robotstxt.WithNoWait())
			signed := fleetMember(t, srv.Addr(), "signed:"+tc.name+":", opts...)
			unsigned := fleetMember(t, srv.Addr(), "unsigned:"+tc.name+":", opts...)
			for i, hc := range []*http.Client{signed, unsigned} {
				resp, err := hc.Get(fmt.Sprintf("%s/p%d.html", site.URL, i))
				if err == nil {
					_ = resp.Body.Close()
				}
				if wantPaced := i == 1 && tc.paced; wantPaced && !errors.Is(err, robotstxt.ErrPaced) || !wantPaced && err != nil {
					t.Errorf("process %d: %v, want paced %v", i, err, wantPaced)
				}
			}
		})
	}
}

// TestPacerFleetKeepsCrawlDelay: three Clients, each with its own
// Transport and its own Store on one Redis, send all their requests to one
// authority at once; the server sees them at least the crawl-delay apart.
func TestPacerFleetKeepsCrawlDelay(t *testing.T) {
	longtest.Gate(t)
	checkLeaks(t)
	srv, _ := newRedis(t)
	const delay = 250 * time.Millisecond
	site := newPagedSite(t, "User-agent: *\nCrawl-delay: 0.25\n")
	const members, each = 3, 3
	var wg sync.WaitGroup
	for m := range members {
		hc := fleetMember(t, srv.Addr(), "robotstxt:")
		for i := range each {
			wg.Go(func() {
				resp, err := hc.Get(fmt.Sprintf("%s/m%d/p%d.html", site.URL, m, i))
				if err != nil {
					t.Error(err)
					return
				}
				_ = resp.Body.Close()
			})
		}
	}
	wg.Wait()
	at := site.arrivals()
	if len(at) != members*each {
		t.Fatalf("server got %d pages, want %d", len(at), members*each)
	}
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < delay {
			t.Errorf("pages %d and %d reached the server %v apart, want >= %v", i-1, i, gap, delay)
		}
	}
}

// TestPacerHoldShared: a hold one Store records holds the others.
func TestPacerHoldShared(t *testing.T) {
	checkLeaks(t)
	a, _, srv := newStore(t)
	b := New(newAdmin(t, srv), WithLogger(quietLogger), WithTimeout(generous))
	ctx := context.Background()
	turn := takeTurn(t, a, authority, 0)
	if turn.id != 0 {
		t.Fatalf("turn with interval 0 = %+v, want ID 0", turn)
	}
	const hold = 300 * time.Millisecond
	held := time.Now()
	if err := done(ctx, a, turn, hold); err != nil {
		t.Fatal(err)
	}
	// The other Store is told to wait for the rest of the hold.
	_, wait, ok, err := take(ctx, b, authority, 0)
	if err != nil || ok || wait > hold || wait < hold-time.Since(held)-time.Millisecond {
		t.Errorf("Take during the hold = %v, %v, %v; want the rest of %v", wait, ok, err, hold)
	}
	takeTurn(t, b, authority, 0)
	if waited := time.Since(held); waited < hold {
		t.Errorf("turn %v after the hold began, want >= %v", waited, hold)
	}
}

// TestPacerHoldWhileBusy: a hold set while a turn is in flight is what
// Take tells the next to wait, not the interval, as memPacer tells it.
func TestPacerHoldWhileBusy(t *testing.T) {
	checkLeaks(t)
	a, _, _ := newStore(t)
	ctx := context.Background()
	takeTurn(t, a, authority, time.Second)
	if err := done(ctx, a, turn{authority: authority, interval: time.Second}, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, wait, ok, err := take(ctx, a, authority, time.Second); err != nil || ok || wait < time.Hour-time.Minute {
		t.Errorf("an hour's hold set while a turn is in flight: Take = %v, %v, %v; want the hour", wait, ok, err)
	}
}

// TestPacerLateDoneLeavesNextTurn: a turn whose lease ran out and which
// ends late does not end the turn that began after it.
func TestPacerLateDoneLeavesNextTurn(t *testing.T) {
	checkLeaks(t)
	s, admin, _ := newStore(t)
	ctx := context.Background()
	const interval = 50 * time.Millisecond
	stuck := takeTurn(t, s, authority, interval)
	k := s.paceKey(authority)
	if busy, err := admin.HGet(ctx, k, "busy").Result(); err != nil || busy == "" {
		t.Fatalf("key %s: busy = %q, %v; want the turn's token", k, busy, err)
	}
	// Let the stuck turn's lease run out.
	if err := admin.HSet(ctx, k, "until", "0").Err(); err != nil {
		t.Fatal(err)
	}
	next := takeTurn(t, s, authority, interval)
	if next.id == stuck.id {
		t.Fatalf("turn after the lease = %+v, the stuck turn's ID", next)
	}
	if err := done(ctx, s, stuck, 0); err != nil {
		t.Fatal(err)
	}
	// Once the interval after that late end has passed, only the next
	// turn, still in flight, keeps a third from starting.
	time.Sleep(2 * interval)
	// A turn in flight, far from its lease's end, is waited for an
	// interval at a time: the third comes at least that long after it.
	if _, wait, ok, err := take(ctx, s, authority, interval); err != nil || ok || wait != interval {
		t.Errorf("Take while the next turn is in flight = %v, %v, %v; want a wait of %v", wait, ok, err, interval)
	}
	ended := time.Now()
	if err := done(ctx, s, next, 0); err != nil {
		t.Fatal(err)
	}
	third := takeTurn(t, s, authority, interval)
	if gap := time.Since(ended); gap < interval {
		t.Errorf("third turn %v after the second ended, want >= %v", gap, interval)
	}
	_ = done(ctx, s, third, 0)
}

// TestPacerKeyExpires: the pacing state expires once it holds nothing back.
func TestPacerKeyExpires(t *testing.T) {
	checkLeaks(t)
	s, admin, _ := newStore(t)
	ctx := context.Background()
	turn := takeTurn(t, s, authority, 100*time.Millisecond)
	k := s.paceKey(authority)
	if want := defaultPrefix + "{" + authority + "}:pace"; k != want {
		t.Errorf("pace key %q, want %q", k, want)
	}
	if ttl := admin.PTTL(ctx, k).Val(); ttl < pacing.TurnTimeout-time.Second || ttl > pacing.TurnTimeout {
		t.Errorf("TTL during a turn = %v, want the flight lease %v", ttl, pacing.TurnTimeout)
	}
	if err := done(ctx, s, turn, 0); err != nil {
		t.Fatal(err)
	}
	// The key outlives the interval by the lease: a Take whose site
	// raised its Crawl-delay must find when the last turn ended.
	if ttl := admin.PTTL(ctx, k).Val(); ttl < pacing.TurnTimeout-time.Second || ttl > pacing.TurnTimeout {
		t.Errorf("TTL after the turn = %v, want the lease %v", ttl, pacing.TurnTimeout)
	}
	admin.Del(ctx, k)
	// A zero interval and no hold write nothing.
	turn = takeTurn(t, s, authority, 0)
	if err := done(ctx, s, turn, 0); err != nil {
		t.Fatal(err)
	}
	if n := admin.Exists(ctx, k).Val(); n != 0 {
		t.Error("a zero-interval turn wrote pacing state")
	}
}

// TestPacerOnePacePerSite: a site has one pace, the longest interval a
// turn was taken or ended with while its key lives. A Take with a shorter
// one (another crawler's Crawl-delay, or none, where a Transport no
// longer knows the site's) waits as long, while the turn is in flight and
// after it ends, and the key outlives that interval; where no key lives,
// an interval of 0 takes no slot and writes nothing.
func TestPacerOnePacePerSite(t *testing.T) {
	checkLeaks(t)
	s, admin, _ := newStore(t)
	ctx := context.Background()
	first := takeTurn(t, s, authority, 3*time.Second)
	for _, when := range []string{"while a 3s turn is in flight", "after it ends"} {
		for _, iv := range []time.Duration{0, 10 * time.Millisecond} {
			if _, wait, ok, err := take(ctx, s, authority, iv); err != nil || ok || wait < 2*time.Second {
				t.Errorf("Take(%v) %s = %v, %v, %v; want a wait of about 3s", iv, when, wait, ok, err)
			}
		}
		if err := done(ctx, s, first, 0); err != nil {
			t.Fatal(err)
		}
		first = turn{}
	}
	if ttl := admin.PTTL(ctx, s.paceKey(authority)).Val(); ttl < 2*time.Second {
		t.Errorf("TTL after the turn = %v, want about 3s", ttl)
	}
	// The pace lapses once it has passed since the last turn ended.
	const lapsing = "http://lapsing.example:80"
	if err := done(ctx, s, takeTurn(t, s, lapsing, 50*time.Millisecond), 0); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond)
	if tu, wait, ok, err := take(ctx, s, lapsing, 0); err != nil || !ok || wait != 0 || tu.id != 0 {
		t.Errorf("Take(0) after the pace passed = %+v, %v, %v, %v; want a turn with ID 0", tu, wait, ok, err)
	}
	const other = "http://other.example:80"
	if tu, wait, ok, err := take(ctx, s, other, 0); err != nil || !ok || wait != 0 || tu.id != 0 {
		t.Errorf("Take(0) at a site of no pace = %+v, %v, %v, %v; want a turn with ID 0", tu, wait, ok, err)
	}
	if n := admin.Exists(ctx, s.paceKey(other)).Val(); n != 0 {
		t.Errorf("Take(0) at a site of no pace wrote its key")
	}
}

// TestPacerRaisedInterval: a Take whose interval is longer than any
// before (its site raised its Crawl-delay) waits that long after the last
// turn ended, though the shorter interval has passed, and is not told to
// wait and then given the turn early; as memPacer does.
func TestPacerRaisedInterval(t *testing.T) {
	checkLeaks(t)
	s, _, _ := newStore(t)
	ctx := context.Background()
	if err := done(ctx, s, takeTurn(t, s, authority, 20*time.Millisecond), 0); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond)
	for range 2 {
		if _, wait, ok, err := take(ctx, s, authority, 400*time.Millisecond); err != nil || ok || wait < 200*time.Millisecond {
			t.Errorf("Take(400ms) 60ms after a 20ms turn: wait %v, turn %v, %v; want a wait of about 340ms", wait, ok, err)
		}
		time.Sleep(60 * time.Millisecond)
	}
}

// TestPacerReplacesGarbage: a key of another type is replaced.
func TestPacerReplacesGarbage(t *testing.T) {
	checkLeaks(t)
	s, admin, _ := newStore(t)
	ctx := context.Background()
	k := s.paceKey(authority)
	for _, put := range []func() error{
		func() error { return admin.Set(ctx, k, "garbage", 0).Err() },
		func() error { return admin.RPush(ctx, k, "x").Err() },
		func() error { return admin.HSet(ctx, k, "end", "not a number", "until", "x").Err() },
	} {
		if err := put(); err != nil {
			t.Fatal(err)
		}
		turn := takeTurn(t, s, authority, 10*time.Millisecond)
		if err := done(ctx, s, turn, 0); err != nil {
			t.Fatal(err)
		}
		admin.Del(ctx, k)
	}
}

// TestPacerFailsClosed: with Redis down a Transport paced by the Store
// sends nothing and returns the Store's error, at once.
func TestPacerFailsClosed(t *testing.T) {
	checkLeaks(t)
	s, _, srv := newStore(t, WithTimeout(defaultTimeout))
	site := newPagedSite(t, "User-agent: *\nAllow: /\n")
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	rc := robotstxt.NewClient(robotstxt.WithHTTPClient(&http.Client{Transport: next}))
	t.Cleanup(func() { _ = rc.Close() })
	hc := &http.Client{Transport: robotstxt.NewTransport(rc, next, robotstxt.WithPacer(s))}
	if _, err := rc.Check(context.Background(), site.URL+"/"); err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	for i := range tripAfter + 1 {
		err := timed(t, "a paced request with Redis down", func() error {
			resp, err := hc.Get(site.URL + "/page.html")
			if err == nil {
				_ = resp.Body.Close()
			}
			return err
		})
		if err == nil {
			t.Fatalf("request %d with Redis down was sent", i)
		}
		if i == tripAfter && !errors.Is(err, ErrUnavailable) {
			t.Errorf("after %d failures: err = %v, want ErrUnavailable", tripAfter, err)
		}
	}
	if n := len(site.arrivals()); n != 0 {
		t.Errorf("server got %d pages with Redis down, want 0", n)
	}
}

// TestPacerGarbageFailsClosed: pacing state with fields that are not
// numbers, or lie absurdly far ahead, never gives a turn the state does
// not allow, never an error, and never a wait that is not positive or
// past maxAhead; a hold or a turn in the past is none. Garbage in the
// previous turn's end holds the next turn back for one interval, after
// which the repaired state gives it.
func TestPacerGarbageFailsClosed(t *testing.T) {
	checkLeaks(t)
	s, admin, _ := newStore(t)
	ctx := context.Background()
	k := s.paceKey(authority)
	const interval = 50 * time.Millisecond
	garbage := []string{"9e18", "1e17", "nan", "-nan", "inf", "1e400", "abc", "", "0x7fffffffffffffff"}
	type state map[string]string
	var cases []struct {
		state state
		turn  bool          // the state allows a turn now
		heals time.Duration // when no turn: it comes after this, or 0 for not within the test
	}
	add := func(s state, turn bool, heals time.Duration) {
		cases = append(cases, struct {
			state state
			turn  bool
			heals time.Duration
		}{s, turn, heals})
	}
	for _, g := range garbage {
		add(state{"hold": g}, false, 0)
		add(state{"end": g, "iv": "50000"}, false, interval)
		add(state{"busy": "other", "until": g}, false, 0)
		add(state{"iv": g}, true, 0)   // only says how long to keep the key
		add(state{"pace": g}, true, 0) // no turn ended: no pace to keep
		add(state{"end": g, "pace": g}, false, 0)
	}
	add(state{"busy": "other"}, false, 0) // a turn in flight without an end
	for _, past := range []string{"-5", "-inf", "-1e400", "0"} {
		add(state{"hold": past}, true, 0)
		add(state{"busy": "other", "until": past}, true, 0)
		add(state{"end": past}, true, 0)
	}
	for _, c := range cases {
		admin.Del(ctx, k)
		if err := admin.HSet(ctx, k, map[string]string(c.state)).Err(); err != nil {
			t.Fatal(err)
		}
		turn, wait, ok, err := take(ctx, s, authority, interval)
		switch {
		case err != nil:
			t.Errorf("%v: Take: %v", c.state, err)
			continue
		case ok && !c.turn:
			t.Errorf("%v: Take gave a turn the state does not allow", c.state)
		case !ok && c.turn:
			t.Errorf("%v: Take = wait %v, want a turn", c.state, wait)
		case !ok && (wait <= 0 || wait > maxAhead):
			t.Errorf("%v: Take = wait %v, want within (0, %v]", c.state, wait, maxAhead)
		}
		if !ok && c.heals > 0 {
			if wait > c.heals {
				t.Errorf("%v: Take = wait %v, want at most %v", c.state, wait, c.heals)
			}
			turn = takeTurn(t, s, authority, interval)
			ok = true
		}
		if ok {
			if err := done(ctx, s, turn, 0); err != nil {
				t.Errorf("%v: Done: %v", c.state, err)
			}
		}
		if ttl := admin.PTTL(ctx, k).Val(); ttl == -1 || ttl > maxAhead+time.Second {
			t.Errorf("%v: pace key TTL %v after Take and Done, want one within %v", c.state, ttl, maxAhead)
		}
	}
}

// TestPacerGarbageWaitBounded: random garbage in every field of the
// pacing state, and random holds given to Done, never make Take fail or
// answer a wait outside (0, maxAhead].
func TestPacerGarbageWaitBounded(t *testing.T) {
	checkLeaks(t)
	s, admin, _ := newStore(t)
	ctx := context.Background()
	k := s.paceKey(authority)
	rng := rand.New(rand.NewPCG(1, 2))
	values := []string{"9e18", "-9e18", "1e17", "nan", "inf", "-inf", "abc", "", "0", "1", "-1", "1.5",
		"17e14", "3e15", "0x10", " 12 ", "1e308", "4e-300"}
	pick := func() string {
		if rng.IntN(4) == 0 { // near the server's clock, ahead or behind
			return strconv.FormatInt(time.Now().UnixMicro()+rng.Int64N(2e11)-1e11, 10)
		}
		return values[rng.IntN(len(values))]
	}
	for range 300 {
		admin.Del(ctx, k)
		fields := map[string]string{}
		for _, f := range []string{"busy", "until", "end", "iv", "hold", "pace"} {
			if rng.IntN(2) == 0 {
				fields[f] = pick()
			}
		}
		if len(fields) > 0 {
			if err := admin.HSet(ctx, k, fields).Err(); err != nil {
				t.Fatal(err)
			}
		}
		interval := time.Duration(rng.Int64N(int64(2 * maxAhead)))
		turn, wait, ok, err := take(ctx, s, authority, interval)
		if err != nil {
			t.Fatalf("%v, interval %v: Take: %v", fields, interval, err)
		}
		if !ok && (wait <= 0 || wait > maxAhead) {
			t.Fatalf("%v, interval %v: wait %v, want within (0, %v]", fields, interval, wait, maxAhead)
		}
		if ok {
			hold := time.Duration(rng.Int64N(int64(2 * maxAhead)))
			if err := done(ctx, s, turn, hold); err != nil {
				t.Fatalf("%v: Done(hold %v): %v", fields, hold, err)
			}
		}
	}
}

// busyScript keeps Redis busy for ARGV[1] µs: the commands of other
// clients wait, and run once it ends, their clients gone or not.
const busyScript = `
local t0 = redis.call('TIME')
local from = tonumber(t0[1]) * 1000000 + tonumber(t0[2])
repeat
	local t = redis.call('TIME')
until tonumber(t[1]) * 1000000 + tonumber(t[2]) - from > tonumber(ARGV[1])
return 0`

// TestPacerAbandonedTakeFreesTurn: a Take whose caller gives up while
// Redis is slow (its context ends, or the Store's timeout) sends no
// request, so the turn its script takes once Redis answers must not hold
// the site for the lease: the next Take after the Crawl-delay gets it,
// whether the client obeys context deadlines or not. Nor does Take wait
// on Redis past its caller, or open the breaker for the next site's
// Take, however many Takes Redis stalled.
func TestPacerAbandonedTakeFreesTurn(t *testing.T) {
	for _, deadlines := range []bool{false, true} {
		t.Run(fmt.Sprintf("ContextTimeoutEnabled=%v", deadlines), func(t *testing.T) {
			srv := redistest.Start(t)
			rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: deadlines})
			t.Cleanup(func() { _ = rdb.Close() })
			s := New(rdb, WithLogger(quietLogger), WithTimeout(time.Second))
			admin := newAdmin(t, srv)
			const iv = 200 * time.Millisecond
			sites := []string{"https://a.example:443", "https://b.example:443", "https://c.example:443"}
			// Another site's turn loads the script, which a Take then runs
			// by its hash alone.
			takeTurn(t, s, "https://other.example:443", iv)
			busy := make(chan error, 1)
			go func() { busy <- admin.Eval(context.Background(), busyScript, nil, 500_000).Err() }()
			time.Sleep(50 * time.Millisecond) // the script has begun
			for _, a := range sites {
				ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
				start := time.Now()
				_, _, ok, err := take(ctx, s, a, iv)
				cancel()
				if ok || err == nil {
					t.Fatalf("Take while Redis is busy: ok %v, err %v; want an error", ok, err)
				}
				if took := time.Since(start); took > 500*time.Millisecond {
					t.Errorf("Take returned %v after its caller gave up at 50 ms; want no wait for Redis (timeout 1 s)", took)
				}
			}
			if err := <-busy; err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Second) // the scripts have run, the breaker probes again
			for _, a := range sites {
				if _, wait, ok, err := take(context.Background(), s, a, iv); !ok {
					t.Errorf("Take %s after Redis answered: wait %v, err %v; want the turn: no request was sent", a, wait, err)
				}
			}
		})
	}
}

// TestPacerVoidBeforeTake: Redis may run an abandoned Take's void before
// the Take's own script; the Take then takes nothing, and its void's
// mark, in the site's one key, expires with the lease.
func TestPacerVoidBeforeTake(t *testing.T) {
	s, rdb, _ := newStore(t)
	ctx := context.Background()
	const a, iv = "https://late.example:443", time.Second
	k := s.paceKey(a)
	args := paceArgs(12345, iv)
	keys := []string{k}
	if err := paceVoidScript.Eval(ctx, rdb, keys, args...).Err(); err != nil {
		t.Fatal(err)
	}
	res, err := paceTakeScript.Run(ctx, rdb, keys, args...).Int64Slice()
	if err != nil || len(res) != 2 || res[0] != 3 {
		t.Fatalf("the voided Take's script: %v, %v; want {3 0}", res, err)
	}
	if busy := rdb.HGet(ctx, k, "busy").Val(); busy != "" {
		t.Errorf("turn %q taken, want none", busy)
	}
	if ttl := rdb.PTTL(ctx, k).Val(); ttl <= 0 || ttl > pacing.TurnTimeout {
		t.Errorf("the void's mark expires in %v, want within the lease", ttl)
	}
	if _, wait, ok, err := take(ctx, s, a, iv); !ok {
		t.Errorf("the next Take: wait %v, err %v; want the turn", wait, err)
	}
}

// TestPacerTakeScriptRepeats: go-redis sends a script again after a cut
// reply, with its token: the second run finds the turn its own, and a
// run after the Take was voided takes nothing.
func TestPacerTakeScriptRepeats(t *testing.T) {
	s, rdb, _ := newStore(t)
	ctx := context.Background()
	const a, iv = "https://again.example:443", time.Second
	k := s.paceKey(a)
	args := paceArgs(777, iv)
	keys := []string{k}
	for range 2 {
		if res, err := paceTakeScript.Run(ctx, rdb, keys, args...).Int64Slice(); err != nil || !slices.Equal(res, []int64{0, 0}) {
			t.Fatalf("the Take's script, run again: %v, %v; want {0 0}, the turn its own", res, err)
		}
	}
	if err := paceVoidScript.Eval(ctx, rdb, keys, args...).Err(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if res, err := paceTakeScript.Run(ctx, rdb, keys, args...).Int64Slice(); err != nil || res[0] != 3 {
			t.Errorf("the Take's script after its void: %v, %v; want {3 0}", res, err)
		}
	}
	if _, wait, ok, err := take(ctx, s, a, iv); !ok {
		t.Errorf("the next Take: wait %v, err %v; want the turn", wait, err)
	}
}

// TestPacerMaybeSent: a void follows a call that may have reached Redis,
// and none a call the breaker or a closed client refused.
func TestPacerMaybeSent(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	read := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	for err, want := range map[error]bool{
		context.DeadlineExceeded: true, context.Canceled: true, io.EOF: true, io.ErrUnexpectedEOF: true,
		read: true, fmt.Errorf("redisstore: pace k: %w", os.ErrDeadlineExceeded): true,
		// The last of go-redis's attempts, which may follow one that ran.
		redis.ErrPoolTimeout: true, dial: true, errors.New("LOADING Redis is loading the dataset in memory"): true,
		fmt.Errorf("redisstore: pace k: %w", ErrUnavailable): false, redis.ErrClosed: false,
	} {
		if got := maybeSent(err); got != want {
			t.Errorf("maybeSent(%v) = %v, want %v", err, got, want)
		}
	}
}

// TestPacerVoidsBounded: a stall that cuts off many Takes sends at most
// maxUndos voids at once.
func TestPacerVoidsBounded(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true, PoolSize: 4 * maxUndos})
	t.Cleanup(func() { _ = rdb.Close() })
	s := New(rdb, WithLogger(quietLogger), WithTimeout(100*time.Millisecond))
	takeTurn(t, s, "https://warm.example:443", time.Second)
	srv.Pause()
	var wg sync.WaitGroup
	for i := range 3 * maxUndos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, _ = s.Take(context.Background(), fmt.Sprintf("https://s%d.example:443", i), time.Hour)
		}()
	}
	wg.Wait()
	if n := len(s.voids); n > maxUndos {
		t.Errorf("%d voids under way, want at most %d", n, maxUndos)
	}
	srv.Resume()
	waitUntil(t, "the voids to end", func() bool { return len(s.voids) == 0 })
}

// TestPacerVoidMarksCleared: a void's mark stays in the site's key for
// the lease; past maxVoidFields fields, a void clears the marks whose time
// has passed, and keeps those still to come.
func TestPacerVoidMarksCleared(t *testing.T) {
	s, rdb, _ := newStore(t)
	ctx := context.Background()
	k := s.paceKey("https://voids.example:443")
	for i := range maxVoidFields {
		rdb.HSet(ctx, k, fmt.Sprintf("void:old%d", i), 1) // long past
	}
	if err := paceVoidScript.Eval(ctx, rdb, []string{k}, paceArgs(1, time.Second)...).Err(); err != nil {
		t.Fatal(err)
	}
	if err := paceVoidScript.Eval(ctx, rdb, []string{k}, paceArgs(2, time.Second)...).Err(); err != nil {
		t.Fatal(err)
	}
	fields := rdb.HKeys(ctx, k).Val()
	slices.Sort(fields)
	defer func() {
		// A vn past the hash's size (inf, say) is garbage, not a
		// threshold no hash reaches.
		rdb.HSet(ctx, k, "vn", "inf")
		for i := range 2 * maxVoidFields {
			rdb.HSet(ctx, k, fmt.Sprintf("void:old%d", i), 1)
		}
		if err := paceVoidScript.Eval(ctx, rdb, []string{k}, paceArgs(3, time.Second)...).Err(); err != nil {
			t.Fatal(err)
		}
		if n := rdb.HLen(ctx, k).Val(); n > 8 {
			t.Errorf("%d fields after a void under vn=inf, want the ended marks cleared", n)
		}
	}()
	if want := []string{"vn", "void:1", "void:2", "voids"}; !slices.Equal(fields, want) {
		t.Errorf("fields %q, want %q", fields, want)
	}
	for _, id := range []uint64{1, 2} {
		if res, err := paceTakeScript.Run(ctx, rdb, []string{k}, paceArgs(id, time.Second)...).Int64Slice(); err != nil || res[0] != 3 {
			t.Errorf("Take %d after its void: %v, %v; want {3 0}", id, res, err)
		}
	}
}

// TestDoneWithBreakerOpen: a turn ends with Done though the process's
// breaker opened while its request was out (three calls timed out in a
// Redis stall) and Redis answers again: the next process's turn comes a
// Crawl-delay after it, not when the turn's 30 s lease runs out.
func TestDoneWithBreakerOpen(t *testing.T) {
	srv, rdb := newRedis(t)
	const site = "https://paced.test:443"
	a := dialStore(t, srv.Addr(), WithTimeout(100*time.Millisecond))
	b := dialStore(t, srv.Addr(), WithTimeout(generous))

	id, wait, err := a.Take(context.Background(), site, time.Second)
	if err != nil || wait != 0 {
		t.Fatalf("A's Take = %v, %v", wait, err)
	}
	// The request is sent; during its response Redis stalls for a moment.
	tripBreaker(t, srv, a, rdb)
	// The response has come: A ends its turn. Redis answers.
	derr := a.Done(context.Background(), site, id, time.Second, 0)
	if derr != nil {
		t.Logf("A's Done: %v", derr)
	}
	busy, _ := rdb.HGet(context.Background(), a.paceKey(site), "busy").Result()
	if busy != "" {
		t.Errorf("after A's Done, with Redis answering, the turn is still in flight in Redis (busy=%q)", busy)
	}
	// Process B, whose Redis works, asks for the next turn: it may come a
	// second after A's response ended.
	start := time.Now()
	_, wait, err = b.Take(context.Background(), site, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var waited time.Duration
	for wait > 0 && waited < 5*time.Second {
		time.Sleep(wait)
		waited = time.Since(start)
		_, wait, err = b.Take(context.Background(), site, time.Second)
		if err != nil {
			t.Fatal(err)
		}
	}
	if wait > 0 {
		t.Errorf("B had no turn at the site %v after A's response ended (Crawl-delay 1s); Take still says to wait %v: A's Done was refused by its open breaker and the turn holds the site for its 30 s lease", waited.Round(time.Millisecond), wait.Round(time.Millisecond))
	}
}

// TestHoldWithBreakerOpen: the Retry-After hold of a 429 reaches the
// fleet through Done though the process that got it had its breaker open
// (a Redis stall while the response was on its way): another process's
// request is paced, not sent.
func TestHoldWithBreakerOpen(t *testing.T) {
	srv, rdb := newRedis(t)

	var storeA *Store
	var once sync.Once
	var mu sync.Mutex
	var pages []string
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		mu.Lock()
		pages = append(pages, r.URL.Path)
		mu.Unlock()
		if r.URL.Path == "/busy" {
			// While this response is on its way, Redis stalls for a
			// moment and A's breaker opens.
			once.Do(func() { tripBreaker(t, srv, storeA, rdb) })
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, "slow down")
			return
		}
		_, _ = io.WriteString(w, "page")
	}))
	t.Cleanup(site.Close)

	member := func(store *Store) *http.Client {
		next := &http.Transport{}
		t.Cleanup(next.CloseIdleConnections)
		rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"),
			robotstxt.WithHTTPClient(&http.Client{Transport: next}), robotstxt.WithStore(store))
		t.Cleanup(func() { _ = rc.Close() })
		return &http.Client{Transport: robotstxt.NewTransport(rc, next, robotstxt.WithPacer(store), robotstxt.WithNoWait())}
	}
	storeA = dialStore(t, srv.Addr(), WithTimeout(100*time.Millisecond))
	a := member(storeA)
	b := member(dialStore(t, srv.Addr(), WithTimeout(generous)))

	resp, err := a.Get(site.URL + "/busy")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("/busy: status %d", resp.StatusCode)
	}
	// Redis answers; B, another process of the fleet, asks for a page of
	// the site that said to come back in 60 s.
	resp, err = b.Get(site.URL + "/next")
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		mu.Lock()
		t.Errorf("B's request was sent (status %d) right after the site answered 429 Retry-After: 60; pages at the site: %v", resp.StatusCode, pages)
		mu.Unlock()
	} else if !errors.Is(err, robotstxt.ErrPaced) {
		t.Errorf("B's request: %v, want ErrPaced", err)
	}
}

// TestDoneBoundedByRequestDeadline: a paced request whose Redis hangs
// once its turn is taken returns by its own deadline (300 ms), not the
// Store's timeout: the end of its turn, which the Transport sends in the
// request's goroutine, waited the Store's whole timeout (here generous)
// with the request's deadline stripped, as a lease's release did
// (TestReleaseBoundedAsLease). What fails is sent again in the
// background.
func TestDoneBoundedByRequestDeadline(t *testing.T) {
	rsrv, _ := newRedis(t)
	var paused atomic.Bool
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 1\n")
			return
		}
		if paused.CompareAndSwap(false, true) {
			rsrv.Pause() // Redis hangs with the page's turn taken
		}
		<-r.Context().Done()
	}))
	defer web.Close()
	defer func() {
		if paused.Load() {
			rsrv.Resume()
		}
	}()
	_, hc := namedFleetMember(t, rsrv.Addr(), web)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://a.test/page", nil)
	start := time.Now()
	resp, err := hc.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a request with a 300 ms deadline, Redis hanging: returned after %v (%v); want about its deadline", took, err)
	}
}

// TestDoneExpiredKeepsHold: a Redis stall of 60 ms, shorter than
// the Store's timeout, while many paced requests whose deadline has
// passed end their turns with a Retry-After hold: every hold is kept, as
// it was when Done waited the Store's timeout.
func TestDoneExpiredKeepsHold(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true, PoolSize: 4 * maxUndos})
	t.Cleanup(func() { _ = rdb.Close() })
	s := New(rdb, WithLogger(quietLogger), WithTimeout(time.Second))
	const n = 2 * maxUndos
	turns := make([]turn, n)
	for i := range n {
		turns[i] = takeTurn(t, s, fmt.Sprintf("https://s%d.example:443", i), time.Second)
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Millisecond))
	defer cancel()
	srv.Pause()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _ = done(expired, s, turns[i], time.Hour) }) // a 503's Retry-After: 3600
	}
	time.Sleep(60 * time.Millisecond)
	srv.Resume()
	wg.Wait()
	waitUntil(t, "the ends sent again", func() bool { return len(s.voids) == 0 })
	lost := 0
	for i := range n {
		_, wait, _, err := take(context.Background(), s, turns[i].authority, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if wait < 30*time.Minute {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d sites held for %v or less after a 60 ms Redis stall, want every site held for its Retry-After hour", lost, n, 30*time.Minute)
	}
}

// TestHoldOutlivesAStallsCutTakes: Redis stalls for a second while a
// crawler's hundred workers ask for turns and a site answers 429
// Retry-After: 3600. The Takes cut off fill every slot for the voids
// sent again; the hold, which ends by no lease, is sent all the same once
// Redis answers: the site is held for about the hour.
func TestHoldOutlivesAStallsCutTakes(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true, PoolSize: 200})
	t.Cleanup(func() { _ = rdb.Close() })
	s := New(rdb, WithLogger(quietLogger))
	held := takeTurn(t, s, "https://held.example:443", time.Second)
	srv.Pause()
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			_, _, _, _ = take(context.Background(), s, fmt.Sprintf("https://s%d.example:443", i), time.Second)
		})
	}
	wg.Wait()
	if len(s.voids) < maxUndos {
		t.Fatalf("%d voids under way of %d slots: the test proves nothing", len(s.voids), maxUndos)
	}
	if err := done(context.Background(), s, held, time.Hour); err == nil {
		t.Fatal("Done answered with Redis stalled: the test proves nothing")
	}
	time.Sleep(time.Second)
	srv.Resume()
	waitUntil(t, "the Store's calls sent again", func() bool { return len(s.voids)+len(s.holds) == 0 })
	if _, wait, _, err := take(context.Background(), s, held.authority, time.Second); err != nil || wait < 50*time.Minute {
		t.Errorf("the site that answered Retry-After: 3600 in a stall: Take waits %v (%v); want about an hour", wait, err)
	}
}

// TestHoldOutlivesALongStall: a hold of an hour whose Done met a stall
// of more than the turn's lease (30 s) is sent again once Redis answers:
// the site is held for the hour still, the fleet's scripts loaded or not.
func TestHoldOutlivesALongStall(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = rdb.Close() })
	s := New(rdb, WithLogger(quietLogger))
	if err := done(context.Background(), s, takeTurn(t, s, "https://before.example:443", time.Second), time.Hour); err != nil {
		t.Fatal(err) // Redis has the script, as a fleet's has
	}
	held := takeTurn(t, s, "https://held.example:443", time.Second)
	srv.Pause()
	if err := done(context.Background(), s, held, time.Hour); err == nil {
		t.Fatal("Done answered with Redis stalled: the test proves nothing")
	}
	time.Sleep(pacing.TurnTimeout + 2*time.Second)
	srv.Resume()
	waitUntil(t, "the hold sent again", func() bool { return len(s.holds) == 0 })
	if _, wait, _, err := take(context.Background(), s, held.authority, time.Second); err != nil || wait < 50*time.Minute {
		t.Errorf("the site that answered Retry-After: 3600, after a %v stall: Take waits %v (%v); want about an hour", pacing.TurnTimeout+2*time.Second, wait, err)
	}
}

// TestRingDoesNotPace: a Store on a redis.Ring refuses to pace, with
// errors.ErrUnsupported, and shares files and leases still. A Ring's
// heartbeat sends a hung shard's keys to another shard, where a site has
// no pacing state: Take gave a second turn half a second after the
// first, still in flight under a 10 s crawl-delay, once the shard holding
// the site was stopped (SIGSTOP).
func TestRingDoesNotPace(t *testing.T) {
	a, b := redistest.Start(t), redistest.Start(t)
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": a.Addr(), "b": b.Addr()}, ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = ring.Close() })
	s := New(ring, WithLogger(quietLogger))
	ctx := context.Background()
	const site = "https://s.example:443"
	if id, wait, err := s.Take(ctx, site, 10*time.Second); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Take on a Ring = %d, %v, %v; want an error matching errors.ErrUnsupported", id, wait, err)
	}
	if err := s.Done(ctx, site, 0, 0, time.Minute); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Done with a hold on a Ring = %v; want an error matching errors.ErrUnsupported", err)
	}
	if err := s.Set(ctx, site, []byte("v"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Get(ctx, site); err != nil || string(v) != "v" {
		t.Errorf("Get on a Ring = %q, %v; want what Set stored", v, err)
	}
	release, ok, err := s.Lease(ctx, site, time.Minute)
	if err != nil || !ok {
		t.Fatalf("Lease on a Ring = %v, %v", ok, err)
	}
	if _, ok, _ := s.Lease(ctx, site, time.Minute); ok {
		t.Error("a second Lease on a Ring was given while the first is held")
	}
	release()
}

// ints reads a reply as go-redis's Int64Slice does: an array of numbers
// or decimal strings.
func ints(val any) ([]int64, bool) {
	a, ok := val.([]any)
	if !ok {
		return nil, false
	}
	out := make([]int64, len(a))
	for i, v := range a {
		switch v := v.(type) {
		case int64:
			out[i] = v
		case string:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, false
			}
			out[i] = n
		default:
			return nil, false
		}
	}
	return out, true
}

// FuzzTakeReply feeds Take any reply value to its script, as go-redis
// hands over what a hostile or broken Redis sent (set in a hook: go-redis's
// own reading of the wire is not under test): Take gives a turn only for {0, _}, sends at once
// with no turn only for {2, _}, waits only for {1, w} with w µs more
// than 0 and at most maxAhead, and otherwise returns an error, with no
// turn and no wait: a reply it does not know never paces open. Never a
// panic.
func FuzzTakeReply(f *testing.F) {
	f.Add(uint8(0), int64(0), int64(0), "", int64(time.Second))
	f.Add(uint8(0), int64(1), int64(1500), "", int64(time.Second))
	f.Add(uint8(0), int64(1), int64(0), "", int64(time.Second))
	f.Add(uint8(0), int64(1), micros(maxAhead)+1, "", int64(time.Second))
	f.Add(uint8(1), int64(2), int64(0), "", int64(0))
	f.Add(uint8(0), int64(3), int64(0), "", int64(time.Second))
	f.Add(uint8(10), int64(0), int64(0), "NOSCRIPT No matching script", int64(time.Second))
	f.Add(uint8(2), int64(1), int64(0), "1e3", int64(-1))
	f.Add(uint8(9), int64(0), int64(0), "", int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, shape uint8, a, b int64, text string, interval int64) {
		h := &replyHook{hostile: map[string]bool{paceTakeScript.Hash(): true}}
		h.val, h.err = hostileReply(shape, a, b, text)
		s, done := newHookedStore(h)
		defer done()
		id, wait, err := s.Take(context.Background(), authority, time.Duration(interval))
		res, ok := ints(h.val)
		ok = ok && h.err == nil && len(res) == 2
		switch {
		case ok && res[0] == 0:
			if err != nil || id == 0 || wait != 0 {
				t.Fatalf("reply %v: Take = %d, %v, %v; want a turn", res, id, wait, err)
			}
		case ok && res[0] == 2:
			if err != nil || id != 0 || wait != 0 {
				t.Fatalf("reply %v: Take = %d, %v, %v; want no turn and no wait", res, id, wait, err)
			}
		case ok && res[0] == 1 && res[1] > 0 && res[1] <= micros(maxAhead):
			if err != nil || id != 0 || wait != time.Duration(res[1])*time.Microsecond {
				t.Fatalf("reply %v: Take = %d, %v, %v; want a wait of %d µs", res, id, wait, err, res[1])
			}
		default:
			if err == nil || id != 0 || wait != 0 {
				t.Fatalf("reply %#v, %v: Take = %d, %v, %v; want an error", h.val, h.err, id, wait, err)
			}
		}
		if wait < 0 || wait > maxAhead {
			t.Fatalf("Take waits %v, out of 0 to %v", wait, maxAhead)
		}
		// Done reads nothing back but an error: it must take any reply.
		_ = s.Done(context.Background(), authority, id, time.Duration(interval), 0)
	})
}
