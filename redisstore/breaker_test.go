package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// unusedStore returns a Store whose client is never called.
func unusedStore(t *testing.T, l *slog.Logger) *Store {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	t.Cleanup(func() { _ = rdb.Close() })
	return New(rdb, WithLogger(l))
}

// TestBreakerPerNode: failures of one node open its breaker only, and the
// log names the node.
func TestBreakerPerNode(t *testing.T) {
	var out lockedBuffer
	s := unusedStore(t, slog.New(slog.NewTextHandler(&out, nil)))
	a, b := s.breaker("10.0.0.1:6379"), s.breaker("10.0.0.2:6379")
	if s.breaker("10.0.0.1:6379") != a {
		t.Fatal("a second get of a node gave another breaker")
	}
	for range tripAfter {
		if ok, _, _ := a.allow(false); !ok {
			t.Fatal("a closed breaker refused a call")
		}
		a.done(false, false, failed, errors.New("connection refused"))
	}
	if ok, _, _ := a.allow(false); ok {
		t.Errorf("after %d failures the node's breaker let a call through", tripAfter)
	}
	for _, other := range []*breaker{b, s.breaker("")} {
		if ok, _, _ := other.allow(false); !ok {
			t.Errorf("breaker of %q refused a call after another node failed", other.node)
		}
	}
	if want := "node=10.0.0.1:6379"; !strings.Contains(out.await(t, want), want) {
		t.Errorf("log %q does not name the node (%s)", out.String(), want)
	}
}

// TestBreakerSetBounded: a Store that has met more node addresses than
// maxBreakers keeps no more breakers than that.
func TestBreakerSetBounded(t *testing.T) {
	s := unusedStore(t, quietLogger)
	for i := range 3 * maxBreakers {
		s.breaker(fmt.Sprintf("10.0.%d.%d:6379", i/256, i%256))
		if n := len(s.breakers); n > maxBreakers {
			t.Fatalf("%d breakers after %d nodes, want at most %d", n, i+1, maxBreakers)
		}
	}
}

// replyError is an error reply of Redis, as go-redis gives one.
type replyError string

func (e replyError) Error() string { return string(e) }
func (replyError) RedisError()     {}

// TestClassify: what says nothing of a node's health does not count
// against it: a caller gone before the call had its time, and a slot
// moving between nodes (TRYAGAIN, which any multi-key call may meet).
func TestClassify(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want outcome
	}{
		{context.Background(), nil, healthy},
		{context.Background(), redis.Nil, healthy},
		{context.Background(), replyError("WRONGTYPE Operation against a key holding the wrong kind of value"), healthy},
		{context.Background(), replyError("TRYAGAIN Multiple keys request during rehashing of slot"), unjudged},
		{canceled, context.Canceled, unjudged},
		{context.Background(), replyError("LOADING Redis is loading the dataset in memory"), failed},
		{context.Background(), errors.New("dial tcp: connection refused"), failed},
	} {
		if got := classify(c.ctx, c.err, time.Second, time.Second, time.Second); got != c.want {
			t.Errorf("classify(%v) = %d, want %d", c.err, got, c.want)
		}
	}
	// A caller's deadline: a failure given the Store's timeout (within
	// minJudged); under it, short (the Store asks Redis itself); under
	// minJudged of running, nothing said of Redis.
	expired, stop := context.WithDeadline(context.Background(), time.Now())
	defer stop()
	for _, c := range []struct {
		had  time.Duration
		want outcome
	}{
		{2 * time.Second, failed}, {2*time.Second - minJudged/2, failed},
		{2*time.Second - 2*minJudged, short}, {200 * time.Millisecond, short}, {minJudged / 2, unjudged},
	} {
		if got := classify(expired, context.DeadlineExceeded, c.had, c.had, 2*time.Second); got != c.want {
			t.Errorf("classify of a call given %v of a 2 s timeout that ran out of its caller's deadline = %d, want %d", c.had, got, c.want)
		}
	}
}

// tripBreaker opens s's breaker as a Redis stall of a few hundred ms
// does: three of s's calls time out while srv is paused. It resumes srv
// and checks that Redis answers again.
func tripBreaker(t *testing.T, srv interface {
	Pause()
	Resume()
}, s *Store, rdb *redis.Client) {
	t.Helper()
	srv.Pause()
	for i := range tripAfter {
		_, err := s.Get(context.Background(), "https://stall"+strconv.Itoa(i)+".test:443")
		if err == nil || errors.Is(err, robotstxt.ErrCacheMiss) {
			srv.Resume()
			t.Fatalf("Get during the stall: %v", err)
		}
	}
	srv.Resume()
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("Redis after the stall: %v", err)
	}
}

// faultHook makes every command of a go-redis client fail (mode 1) or
// panic (mode 2; mode 3 with a value that panics when printed), as an
// instrumentation hook or go-redis itself may on an odd reply; mode 0
// passes commands through.
type faultHook struct{ mode *atomic.Int32 }

// unprintable is a panic value whose String method panics with such a
// value again, which makes fmt panic while printing it.
type unprintable struct{}

func (unprintable) String() string { panic(unprintable{}) }

func (h faultHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h faultHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		switch h.mode.Load() {
		case 1:
			return errors.New("test: connection reset")
		case 2:
			panic("test: hook panicked")
		case 3:
			panic(unprintable{})
		}
		return next(ctx, cmd)
	}
}
func (h faultHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestBreakerProbePanicDoesNotWedge: a probe call of an open breaker
// that panics (a go-redis hook, go-redis itself) must not leave the
// breaker waiting for that probe's end for ever: once Redis answers
// again, a later probe closes it. The panic reaches the caller (a Client
// recovers it), whether the call ran in the caller's goroutine or not.
func TestBreakerProbePanicDoesNotWedge(t *testing.T) {
	srv := redistest.Start(t)
	for _, direct := range []bool{true, false} {
		t.Run(fmt.Sprintf("direct=%v", direct), func(t *testing.T) {
			rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: direct})
			t.Cleanup(func() { _ = rdb.Close() })
			var mode atomic.Int32
			rdb.AddHook(faultHook{&mode})
			s := New(rdb, WithLogger(quietLogger), WithTimeout(generous))
			if s.direct != direct {
				t.Fatalf("Store.direct = %v, want %v", s.direct, direct)
			}
			const key = "https://a.test:443"
			mode.Store(1)
			for range tripAfter {
				if _, err := s.Get(context.Background(), key); err == nil || errors.Is(err, robotstxt.ErrCacheMiss) {
					t.Fatalf("Get with a failing hook: %v", err)
				}
			}
			if _, err := s.Get(context.Background(), key); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("breaker not open after %d failures: %v", tripAfter, err)
			}
			time.Sleep(retryAfter + 50*time.Millisecond)
			mode.Store(2)
			var recovered any
			func() {
				defer func() { recovered = recover() }()
				_, _ = s.Get(context.Background(), key) // the probe, which panics
			}()
			if recovered == nil {
				t.Error("the probe's panic did not reach the caller")
			}
			mode.Store(0) // Redis and the hook are fine from now on
			deadline := time.Now().Add(3 * retryAfter)
			var err error
			for time.Now().Before(deadline) {
				if _, err = s.Get(context.Background(), key); errors.Is(err, robotstxt.ErrCacheMiss) {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
			t.Fatalf("%v after a probe panicked, Redis answering again: the breaker stays open (last Get: %v)", 3*retryAfter, err)
		})
	}
}

// TestUndoPanicDoesNotEndProcess: the undo sent in the background after
// a failed Lease (the release of a lease the cut call may have taken)
// runs its command through the same go-redis hooks as the call; a hook
// that panics there has no caller to reach, and must neither end the
// process nor keep the undo's slot. Run in a child process, as the panic
// would kill it; the child reports that the panic was raised and logged,
// so that a child that skips, runs no test or never panics fails it.
func TestUndoPanicDoesNotEndProcess(t *testing.T) {
	if os.Getenv("ROBOTSTXT_TEST_UNDO_PANIC_CHILD") == "1" {
		srv := redistest.Start(t)
		rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
		defer rdb.Close()
		var mode atomic.Int32
		rdb.AddHook(faultHook{&mode})
		var out lockedBuffer
		s := New(rdb, WithLogger(slog.New(slog.NewTextHandler(&out, nil))), WithTimeout(generous))
		mode.Store(1) // the Lease fails: its release is sent in the background
		if _, _, err := s.Lease(context.Background(), "https://a.test:443", time.Minute); err == nil {
			t.Fatal("Lease with a failing hook succeeded")
		}
		mode.Store(2) // the hook panics on the next command, the undo's retry
		deadline := time.Now().Add(retryAfter + 2*time.Second)
		for (!strings.Contains(out.String(), "sending again panicked") || len(s.releases) != 0) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if !strings.Contains(out.String(), "sending again panicked") {
			t.Fatalf("the undo's panic was not logged; log:\n%s", out.String())
		}
		if len(s.releases) != 0 {
			t.Fatalf("the panicked undo kept its slot: %d held", len(s.releases))
		}
		os.Stdout.WriteString("CHILD-UNDO-PANIC-RECOVERED\n")
		return
	}
	redistest.Start(t) // skip (or fail, under ROBOTSTXT_REQUIRE_REDIS) as the child would
	cmd := exec.Command(os.Args[0], "-test.run=^TestUndoPanicDoesNotEndProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "ROBOTSTXT_TEST_UNDO_PANIC_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "CHILD-UNDO-PANIC-RECOVERED") {
		t.Fatalf("the undo's panic ended the process, or was never raised: %v\n%.2000s", err, out)
	}
}

// TestClusterWarmUpPanicDoesNotEndProcess: New starts, for a
// ClusterClient, a warm-up goroutine that reads a key through the
// client's hooks; a hook that panics there, with a value that panics
// when printed, has no caller to reach and must not end the process. No
// Redis is needed: the hook panics before any dial.
func TestClusterWarmUpPanicDoesNotEndProcess(t *testing.T) {
	if os.Getenv("ROBOTSTXT_TEST_WARMUP_PANIC_CHILD") == "1" {
		cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:1"}})
		defer cc.Close()
		var mode atomic.Int32
		mode.Store(3) // every command panics, and so does printing its panic
		cc.AddHook(faultHook{&mode})
		var out lockedBuffer
		s := New(cc, WithLogger(slog.New(slog.NewTextHandler(&out, nil))), WithTimeout(generous))
		deadline := time.Now().Add(warmTimeout + time.Second)
		for s.cluster.warming() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if !strings.Contains(out.String(), "slot map panicked") || !strings.Contains(out.String(), "panics when printed") {
			t.Fatalf("the warm-up's panic was not logged; log:\n%s", out.String())
		}
		os.Stdout.WriteString("CHILD-WARMUP-PANIC-RECOVERED\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestClusterWarmUpPanicDoesNotEndProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "ROBOTSTXT_TEST_WARMUP_PANIC_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "CHILD-WARMUP-PANIC-RECOVERED") {
		t.Fatalf("a hook's panic in the cluster warm-up ended the process, or was never raised: %v\n%.1500s", err, out)
	}
}

// slowPanicHook panics in every command once it has slept past the
// caller's deadline.
type slowPanicHook struct{ on *atomic.Bool }

func (h slowPanicHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h slowPanicHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if h.on.Load() {
			time.Sleep(200 * time.Millisecond)
			panic("test: hook panicked after the caller left")
		}
		return next(ctx, cmd)
	}
}
func (h slowPanicHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestRunPanicAfterCallerLeftIsLogged: a call run in a goroutine of its
// own (a client that does not honour deadlines) whose caller gave up
// before it panicked has no caller to raise the panic in: it is logged,
// as the Store's other goroutines log theirs, not dropped unseen.
func TestRunPanicAfterCallerLeftIsLogged(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	var on atomic.Bool
	rdb.AddHook(slowPanicHook{&on})
	var out lockedBuffer
	s := New(rdb, WithLogger(slog.New(slog.NewTextHandler(&out, nil))), WithTimeout(50*time.Millisecond))
	if s.direct {
		t.Fatal("want a Store that runs calls in a goroutine of their own")
	}
	on.Store(true)
	_, _ = s.Get(context.Background(), "https://a.test:443")
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(out.String(), "panic") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // the call panics 200 ms after its caller left
	}
	if !strings.Contains(out.String(), "panic") {
		t.Errorf("a panic of a call whose caller left was neither raised nor logged; log:\n%s", out.String())
	}
}

// slowRedis is a TCP proxy to addr that holds each of Redis's answers
// for delay before passing it on, as a Redis that answers slowly does;
// it returns the proxy's address.
func slowRedis(t *testing.T, addr string, delay time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r, err := net.Dial("tcp", addr)
			if err != nil {
				_ = c.Close()
				continue
			}
			stop := context.AfterFunc(t.Context(), func() { _ = c.Close(); _ = r.Close() })
			wg.Go(func() { _, _ = io.Copy(r, c); _ = r.Close() })
			wg.Go(func() {
				defer stop()
				defer c.Close()
				buf := make([]byte, 32<<10)
				for {
					n, err := r.Read(buf)
					if err != nil {
						return
					}
					time.Sleep(delay)
					if _, err := c.Write(buf[:n]); err != nil {
						return
					}
				}
			})
		}
	})
	return ln.Addr().String()
}

// slowRedisCrawl returns an http.Client over a Transport paced through a
// Store whose timeout is raised for its Pacer (2 s), under a Client with
// the default 200 ms WithStoreTimeout, on a Redis that answers each call
// in 300 ms (a real redis-server behind slowRedis); every site's
// robots.txt is what robots writes for its request, or, with robots nil,
// has a Crawl-delay of 0.1 s.
func slowRedisCrawl(t *testing.T, robots http.HandlerFunc) *http.Client {
	if robots == nil {
		robots = func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.1\n")
		}
	}
	rs := redistest.Start(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robots(w, r)
			return
		}
		_, _ = io.WriteString(w, "page")
	}))
	t.Cleanup(srv.Close)
	rdb := redis.NewClient(&redis.Options{Addr: slowRedis(t, rs.Addr(), 300*time.Millisecond), ContextTimeoutEnabled: true, PoolSize: 64})
	t.Cleanup(func() { _ = rdb.Close() })
	store := New(rdb, WithLogger(quietLogger), WithTimeout(2*time.Second))
	var d net.Dialer
	next := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, srv.Listener.Addr().String()) // every name to srv
	}}
	t.Cleanup(next.CloseIdleConnections)
	rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"),
		robotstxt.WithHTTPClient(&http.Client{Transport: next}), robotstxt.WithStore(store))
	t.Cleanup(func() { _ = rc.Close() })
	return &http.Client{Transport: robotstxt.NewTransport(rc, next, robotstxt.WithPacer(store))}
}

// crawlRefused has 8 workers send hc a page of a new site each, one after
// another, for run, as a crawler does (backing off 100 ms from a
// refusal), and fails t when any page is refused with ErrUnavailable.
func crawlRefused(t *testing.T, hc *http.Client, run time.Duration, what string) {
	const workers = 8
	var sent, refused, other, site atomic.Int64
	end := time.Now().Add(run)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for time.Now().Before(end) {
				err := sendAs(hc, fmt.Sprintf("http://s%d.test/page", site.Add(1)), "")
				switch {
				case err == nil:
					sent.Add(1)
				case errors.Is(err, ErrUnavailable):
					refused.Add(1)
					time.Sleep(100 * time.Millisecond) // a crawler's back-off
				default:
					other.Add(1)
					t.Log(err)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%s, %d workers over %v: %d pages sent; %d refused with ErrUnavailable; %d other errors",
		what, workers, run, sent.Load(), refused.Load(), other.Load())
	if n := refused.Load(); n > 0 {
		t.Errorf("%s: %d pages refused with ErrUnavailable; Redis answers every call in 300 ms", what, n)
	}
}

// TestShortDeadlinesOpenNoBreakerForTakes: on slowRedisCrawl's Redis, the
// Client's Store calls miss their 200 ms deadlines, which opens no
// breaker: the Takes, given 2 s, are answered, and paced requests are
// sent, not refused with ErrUnavailable.
func TestShortDeadlinesOpenNoBreakerForTakes(t *testing.T) {
	hc := slowRedisCrawl(t, nil)
	const sites = 4
	for i := range sites {
		if err := sendAs(hc, fmt.Sprintf("http://s%d.test/page", i), ""); err != nil {
			t.Errorf("s%d.test's page, its Take given 2 s by a Redis answering in 300 ms: %v", i, err)
		}
	}
}

// TestShortDeadlinesOpenNoBreakerForConcurrentTakes: the same with 8
// workers each fetching a page of a new site at a time, as a crawler
// does: no page is refused with ErrUnavailable.
func TestShortDeadlinesOpenNoBreakerForConcurrentTakes(t *testing.T) {
	crawlRefused(t, slowRedisCrawl(t, nil), 5*time.Second, "a crawl")
}

// TestHungRedisOpensBreakerUnderShortStoreTimeout: while Redis hangs,
// once calls have reached the Client's Store timeout the Store stops
// calling Redis, so that cold checks fetch for themselves: with the
// Client's WithStoreTimeout shorter than the Store's timeout (50 ms
// against the default 200 ms, or 200 ms against 2 s) too, once the
// Store's own call has reached its timeout; checks with a 40 ms deadline
// are answered then. The control is the Client's default 200 ms.
func TestHungRedisOpensBreakerUnderShortStoreTimeout(t *testing.T) {
	for _, tc := range []struct {
		name                string
		client, storeTimout time.Duration
	}{
		{"control: Client 200ms, Store 200ms", 200 * time.Millisecond, 200 * time.Millisecond},
		{"Client 50ms, Store 200ms", 50 * time.Millisecond, 200 * time.Millisecond},
		{"Client 200ms, Store 2s (raised for a Pacer)", 200 * time.Millisecond, 2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := redistest.Start(t)
			web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\n")
			}))
			t.Cleanup(web.Close)
			var d net.Dialer
			tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return d.DialContext(ctx, network, web.Listener.Addr().String()) // every name to web
			}}
			t.Cleanup(tr.CloseIdleConnections)
			rdb := redis.NewClient(&redis.Options{Addr: rs.Addr(), ContextTimeoutEnabled: true})
			t.Cleanup(func() { _ = rdb.Close() })
			store := New(rdb, WithLogger(quietLogger), WithTimeout(tc.storeTimout))
			if _, err := store.Get(t.Context(), "warm"); !errors.Is(err, robotstxt.ErrCacheMiss) {
				t.Fatalf("warm-up Get: %v", err)
			}
			c := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"), robotstxt.WithStore(store),
				robotstxt.WithHTTPClient(&http.Client{Transport: tr}), robotstxt.WithStoreTimeout(tc.client))
			t.Cleanup(func() { _ = c.Close() })
			rs.Pause() // Redis hangs: it accepts, and never answers
			resumed := false
			t.Cleanup(func() {
				if !resumed {
					rs.Resume()
				}
			})
			end := time.Now().Add(max(2*time.Second, tc.storeTimout+time.Second)) // a Store call of its own would have reached its timeout by then
			for i := 0; time.Now().Before(end); i++ {
				ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
				_, _ = c.Allowed(ctx, fmt.Sprintf("http://warmup%d.test/page", i))
				cancel()
				time.Sleep(10 * time.Millisecond)
			}
			const late = 10
			failed := 0
			var last error
			for i := range late {
				ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
				ok, err := c.Allowed(ctx, fmt.Sprintf("http://late%d.test/page", i))
				cancel()
				if err != nil || !ok {
					failed++
					last = err
				}
				time.Sleep(10 * time.Millisecond)
			}
			_, brErr := store.Get(t.Context(), "probe")
			rs.Resume()
			resumed = true
			if failed > 0 {
				t.Errorf("after %v of a hung Redis, %d of %d cold checks with a 40 ms deadline failed (last: %v); Store.Get then: %v (want ErrUnavailable: the breaker open)",
					max(2*time.Second, tc.storeTimout+time.Second), failed, late, last, brErr)
			}
		})
	}
}

// TestShortDeadlinesOpenNoBreakerForTakesAfterIdle: the crawl resumed
// after a pause longer than the Store's timeout, as a crawler's pause
// between batches: the pause is no silence of Redis's, and no page is
// refused with ErrUnavailable.
func TestShortDeadlinesOpenNoBreakerForTakesAfterIdle(t *testing.T) {
	hc := slowRedisCrawl(t, nil)
	if err := sendAs(hc, "http://first.test/page", ""); err != nil {
		t.Fatalf("first page, before the pause: %v", err)
	}
	time.Sleep(2500 * time.Millisecond) // the crawler pauses; Redis is as slow as ever
	crawlRefused(t, hc, 3*time.Second, "after a 2.5 s pause")
}

// TestShortDeadlinesOpenNoBreakerAfterIdleEndingInAMiss: as
// TestShortDeadlinesOpenNoBreakerForTakesAfterIdle, but the last page
// before the pause is one robots.txt disallows, so that the last Redis
// calls before it are the Client's 200 ms ones (which miss on a Redis
// answering in 300 ms) and no Take follows them: the calls after the
// pause open no breaker either.
func TestShortDeadlinesOpenNoBreakerAfterIdleEndingInAMiss(t *testing.T) {
	hc := slowRedisCrawl(t, func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.1\nDisallow: /private\n")
	})
	if err := sendAs(hc, "http://first.test/page", ""); err != nil {
		t.Fatalf("first page, before the pause: %v", err)
	}
	// The batch's last URL is disallowed: the check's Store calls miss
	// their 200 ms, and no Take is made.
	if err := sendAs(hc, "http://second.test/private", ""); !errors.Is(err, robotstxt.ErrDisallowed) {
		t.Fatalf("second.test/private: %v, want ErrDisallowed", err)
	}
	time.Sleep(2500 * time.Millisecond) // the crawler pauses; Redis is as slow as ever
	crawlRefused(t, hc, 3*time.Second, "after a 2.5 s pause that followed a disallowed page")
}

// TestShortDeadlinesOpenNoBreakerWhenRobotsTxtIsSlow: as
// TestShortDeadlinesOpenNoBreakerForConcurrentTakes, but each site's
// robots.txt takes 1.7 s to come, as a distant or loaded site's does. No
// worker makes a Take before its fetch ends, so for over 2 s every Redis
// call is a Client's 200 ms one (its Get and lease before the fetch, its
// write after): none opens the breaker, and the Takes that follow are
// answered.
func TestShortDeadlinesOpenNoBreakerWhenRobotsTxtIsSlow(t *testing.T) {
	hc := slowRedisCrawl(t, func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(1700 * time.Millisecond)
		_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.1\n")
	})
	crawlRefused(t, hc, 6*time.Second, "a crawl of sites whose robots.txt takes 1.7 s")
}

// TestShortDeadlinesOpenNoBreakerAfterDisallowedRun: the same Store and
// Redis as TestShortDeadlinesOpenNoBreakerForConcurrentTakes; the crawl's
// first 2.5 s meet only new sites that disallow the crawler (as many do
// an AI crawler's token), so no Take is made, and every Redis call is a
// Client's 200 ms one, with no pause: none opens the breaker, and the
// allowed pages that follow are sent.
func TestShortDeadlinesOpenNoBreakerAfterDisallowedRun(t *testing.T) {
	hc := slowRedisCrawl(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Host, "no") {
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /\n")
			return
		}
		_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.1\n")
	})
	var site atomic.Int64
	end := time.Now().Add(2500 * time.Millisecond)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(end) {
				if err := sendAs(hc, fmt.Sprintf("http://no%d.test/page", site.Add(1)), ""); !errors.Is(err, robotstxt.ErrDisallowed) {
					t.Errorf("a disallowing site's page: %v, want ErrDisallowed", err)
				}
			}
		})
	}
	wg.Wait()
	crawlRefused(t, hc, 3*time.Second, "after 2.5 s of disallowed pages")
}

// TestShortCallsHaveTheStoreProbe: an open breaker hands a short call (a
// Client's 200 ms, under a Store timeout of 2 s) no probe, which a Redis
// answering in 300 ms could never pass: the Store probes in its stead,
// and the breaker closes.
func TestShortCallsHaveTheStoreProbe(t *testing.T) {
	checkLeaks(t)
	rs := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: slowRedis(t, rs.Addr(), 300*time.Millisecond), ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = rdb.Close() })
	s := New(rdb, WithLogger(quietLogger), WithTimeout(2*time.Second))
	b := s.breaker("")
	for range tripAfter { // as a stall of Redis, now over, left it
		b.done(false, false, failed, errors.New("test: connection reset"))
	}
	time.Sleep(retryAfter)
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		_, _ = s.Get(ctx, "https://a.test:443")
		cancel()
	}
	b.mu.Lock()
	open := !b.openedAt.IsZero()
	b.mu.Unlock()
	if open {
		t.Error("after 2 s of short calls to a Redis answering in 300 ms, its breaker is still open")
	}
}

// TestShortDeadlinesOpenNoBreakerUnderATimeoutRaisedLessThanTwice: the
// Store's timeout raised for its Pacer to 350 ms, less than twice a
// Client's default 200 ms WithStoreTimeout, and Redis answering each
// call in 250 ms: the Client's Gets miss their 200 ms, which opens no
// breaker, and a Take, given 350 ms, is answered.
func TestShortDeadlinesOpenNoBreakerUnderATimeoutRaisedLessThanTwice(t *testing.T) {
	rs := redistest.Start(t)
	for _, timeout := range []time.Duration{500 * time.Millisecond, 350 * time.Millisecond} {
		t.Run(timeout.String(), func(t *testing.T) {
			rdb := redis.NewClient(&redis.Options{Addr: slowRedis(t, rs.Addr(), 250*time.Millisecond), ContextTimeoutEnabled: true, PoolSize: 16})
			t.Cleanup(func() { _ = rdb.Close() })
			s := New(rdb, WithLogger(quietLogger), WithTimeout(timeout))
			// A pool of open connections, and the pacing script loaded, as
			// in a running crawler.
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() { _ = rdb.Ping(context.Background()).Err() })
			}
			wg.Wait()
			if err := paceTakeScript.Load(context.Background(), rdb).Err(); err != nil {
				t.Fatal(err)
			}
			for i := range tripAfter + 1 { // a Client's look-ups of new sites
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
				_, _ = s.Get(ctx, "https://s"+strconv.Itoa(i)+".test:443")
				cancel()
			}
			st := time.Now()
			_, _, err := s.Take(context.Background(), "https://a.test:443", 100*time.Millisecond)
			if err != nil {
				t.Errorf("Take, under a Store timeout of %v, on a Redis answering in 250 ms, after the Client's 200 ms Gets missed: %v (after %v)", timeout, err, time.Since(st).Round(time.Millisecond))
			}
		})
	}
}

// TestAskAfterClientCloseLogsNoOutage: a short call's miss sends the
// Store's own call (Store.ask) in the background; a crawler that shuts
// down then closes its redis client, as it should, while that call is in
// flight. The call fails with the client closed, which says nothing of
// Redis: no breaker opens, and no Warn says Redis is unavailable.
func TestAskAfterClientCloseLogsNoOutage(t *testing.T) {
	rs := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: slowRedis(t, rs.Addr(), 300*time.Millisecond), ContextTimeoutEnabled: true})
	var out lockedBuffer
	s := New(rdb, WithLogger(slog.New(slog.NewTextHandler(&out, nil))), WithTimeout(2*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, _ = s.Get(ctx, "https://a.test:443") // short: misses, and the Store asks Redis itself
	cancel()
	_ = rdb.Close() // the crawler shuts down
	time.Sleep(500 * time.Millisecond)
	b := s.breaker("")
	b.mu.Lock()
	open := !b.openedAt.IsZero()
	b.mu.Unlock()
	if open || strings.Contains(out.String(), "redis unavailable") {
		t.Errorf("closing the client under the Store's own call opened the breaker (%v) and logged:\n%s", open, out.String())
	}
}
