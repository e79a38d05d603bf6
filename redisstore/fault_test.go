package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// ceiling is the generous bound on any one Store call during a fault; a
// normal call takes well under a millisecond.
const ceiling = 2 * time.Second

// timed runs fn and fails the test if it took longer than ceiling.
func timed(t *testing.T, what string, fn func() error) error {
	t.Helper()
	start := time.Now()
	err := fn()
	if d := time.Since(start); d > ceiling {
		t.Fatalf("%s took %v, over the %v ceiling", what, d, ceiling)
	}
	return err
}

// TestRedisDownFailsFastThenOpens: with Redis killed, calls return errors
// (not misses, not panics) within the ceiling, and after a few failures
// the Store stops calling Redis and answers ErrUnavailable.
func TestRedisDownFailsFastThenOpens(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(defaultTimeout))
	srv.Kill()
	for i := range tripAfter {
		err := timed(t, "Get on a killed Redis", func() error {
			_, err := s.Get(t.Context(), authority)
			return err
		})
		if err == nil || errors.Is(err, robotstxt.ErrCacheMiss) {
			t.Fatalf("call %d on a killed Redis: err = %v, want a Redis error", i, err)
		}
	}
	err := timed(t, "Set with the breaker open", func() error {
		return s.Set(t.Context(), authority, []byte("v"), time.Minute)
	})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("after %d failures: err = %v, want ErrUnavailable", tripAfter, err)
	}
	_, ok, err := s.Lease(t.Context(), authority, time.Minute)
	if ok || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Lease with the breaker open: ok=%v err=%v, want false, ErrUnavailable", ok, err)
	}
}

// TestRedisHungTimesOut: a server that accepts but never answers (SIGSTOP)
// costs each call its timeout, not go-redis' 3 s read timeout.
func TestRedisHungTimesOut(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(50*time.Millisecond))
	srv.Pause()
	defer srv.Resume()
	err := timed(t, "Get on a hung Redis", func() error {
		_, err := s.Get(t.Context(), authority)
		return err
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Get on a hung Redis: err = %v, want DeadlineExceeded", err)
	}
}

// TestRedisRestartResumes: after Redis comes back (empty, on the same
// port) the same Store uses it again without being recreated.
func TestRedisRestartResumes(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(defaultTimeout))
	srv.Kill()
	for range tripAfter + 1 {
		_, _ = s.Get(t.Context(), authority)
	}
	srv.Restart()
	deadline := time.Now().Add(10 * time.Second) // the breaker retries every second
	for {
		err := s.Set(t.Context(), authority, []byte("back"), time.Minute)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis restarted, Store still failing: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got, err := s.Get(t.Context(), authority); err != nil || string(got) != "back" {
		t.Fatalf("Get after restart = %q, %v", got, err)
	}
}

// TestCallerCancelDoesNotOpen: callers giving up say nothing about Redis
// and must not make the Store stop using it.
func TestCallerCancelDoesNotOpen(t *testing.T) {
	s, _, _ := newStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for range 3 * tripAfter {
		if _, err := s.Get(ctx, authority); err == nil {
			t.Fatal("Get with a cancelled context: no error")
		}
	}
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Fatalf("Get after cancelled calls: err = %v, want ErrCacheMiss", err)
	}
}

// TestHungRedisOpensUnderCallerDeadline: a caller (like the robotstxt
// Client) that bounds each call with the same timeout as the Store still
// makes a hung Redis count as failing, so later calls return at once.
func TestHungRedisOpensUnderCallerDeadline(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(50*time.Millisecond))
	srv.Pause()
	defer srv.Resume()
	for range tripAfter {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		_, _ = s.Get(ctx, authority)
		cancel()
	}
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("after %d timeouts: err = %v, want ErrUnavailable", tripAfter, err)
	}
}

// TestExpiredCallerDoesNotOpen: calls made with an already expired
// deadline give Redis no chance and must not count against it.
func TestExpiredCallerDoesNotOpen(t *testing.T) {
	s, _, _ := newStore(t)
	ctx, cancel := context.WithTimeout(t.Context(), -time.Second)
	defer cancel()
	for range 3 * tripAfter {
		_, _ = s.Get(ctx, authority)
	}
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Fatalf("after expired-deadline calls: err = %v, want ErrCacheMiss", err)
	}
}

// TestHungRedisWithoutSocketDeadlines: go-redis documents ReadTimeout and
// WriteTimeout -2 as "disables SetReadDeadline calls completely". A user
// who follows the package doc (ContextTimeoutEnabled: true) and also sets
// ReadTimeout: -2 gets a Store that takes the direct path (New's doc:
// "a call runs in the caller's goroutine and ends at its context's
// deadline or the Store's timeout"), but go-redis then sets no deadline
// on the socket at all, the context's included. A Redis that hangs
// (SIGSTOP, a black-holed network) then hangs every Store call, past
// WithTimeout, past the Client's WithStoreTimeout and past the caller's
// own deadline:
//   - Store.Get with a 200 ms context;
//   - Client.Allowed with a 3 s deadline on a site that answers at once;
//   - the response body's Close of a paced request (Store.Done).
//
// Such a client's calls run in a goroutine of their own, as without
// ContextTimeoutEnabled (redis6); so do those of the control, with
// go-redis's default timeouts, in the caller's.
func TestHungRedisWithoutSocketDeadlines(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts redis.Options
	}{
		{"control: default timeouts", redis.Options{ContextTimeoutEnabled: true}},
		{"ReadTimeout -2", redis.Options{ContextTimeoutEnabled: true, ReadTimeout: -2}},
		{"WriteTimeout -2", redis.Options{ContextTimeoutEnabled: true, WriteTimeout: -2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := redistest.Start(t)
			resumed := false
			resume := func() {
				if !resumed {
					resumed = true
					srv.Resume()
				}
			}
			t.Cleanup(resume) // lets the hung calls end, so the test can end

			web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/robots.txt":
					fmt.Fprint(w, "User-agent: *\nCrawl-delay: 1\nDisallow: /private\n")
				default:
					fmt.Fprint(w, "page")
				}
			}))
			t.Cleanup(web.Close)

			newStoreOn := func() *Store {
				o := tc.opts
				o.Addr = srv.Addr()
				rdb := redis.NewClient(&o)
				t.Cleanup(func() { _ = rdb.Close() })
				return New(rdb, WithLogger(quietLogger))
			}
			// Each probe gets its own Store, so that one probe's failures
			// do not open the breaker another's call would meet.
			sGet, sCheck, sPace := newStoreOn(), newStoreOn(), newStoreOn()

			// Warm every pool and load the scripts while Redis answers.
			for _, s := range []*Store{sGet, sCheck, sPace} {
				if _, err := s.Get(t.Context(), "warm"); err == nil {
					t.Fatal("warm-up Get found a value")
				}
			}
			pc := newClient(t, sPace, http.DefaultClient)
			hc := &http.Client{Transport: robotstxt.NewTransport(pc, http.DefaultTransport, robotstxt.WithPacer(sPace))}
			resp, err := hc.Get(web.URL + "/page")
			if err != nil {
				t.Fatal(err)
			}

			srv.Pause() // Redis hangs: it accepts, and never answers

			type result struct {
				took time.Duration
				err  error
			}
			probe := func(what string, bound time.Duration, fn func() error) {
				t.Helper()
				done := make(chan result, 1)
				start := time.Now()
				go func() {
					err := fn()
					done <- result{time.Since(start), err}
				}()
				select {
				case r := <-done:
					if r.took > bound {
						t.Errorf("%s returned after %v, want within %v (err %v)", what, r.took.Round(time.Millisecond), bound, r.err)
					} else {
						t.Logf("%s returned after %v: %v", what, r.took.Round(time.Millisecond), r.err)
					}
				case <-time.After(bound + 3*time.Second):
					t.Errorf("%s still hung %v after it began; want it to end within %v (its deadline, or the Store's 200 ms timeout)",
						what, (bound + 3*time.Second).Round(time.Second), bound)
				}
			}

			probe("Store.Get with a 200ms context", time.Second, func() error {
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
				defer cancel()
				_, err := sGet.Get(ctx, "https://example.com:443")
				return err
			})

			cc := newClient(t, sCheck, http.DefaultClient)
			probe("Client.Allowed with a 3s deadline (the site answers at once)", 3*time.Second, func() error {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancel()
				ok, err := cc.Allowed(ctx, web.URL+"/private")
				if err == nil && ok {
					return fmt.Errorf("/private allowed")
				}
				return err
			})

			probe("a paced page's Body.Close (Store.Done)", time.Second, func() error {
				_, _ = io.Copy(io.Discard, resp.Body)
				return resp.Body.Close()
			})
			resume()
		})
	}
}

// fillUp makes the Redis of admin full: maxmemory 1 under noeviction, as
// a crawl storing a new site now and then reaches in time.
func fillUp(t *testing.T, admin *redis.Client) {
	t.Helper()
	for _, kv := range [][2]string{{"maxmemory-policy", "noeviction"}, {"maxmemory", "1"}} {
		if err := admin.ConfigSet(t.Context(), kv[0], kv[1]).Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFullRedisServesWhatItHolds: a Redis over its maxmemory under
// noeviction refuses writes but serves reads (store84): a Get of a key it
// lacks is a miss, not an error (a transaction, which a full Redis
// refuses whole, read it), and its -OOM refusals of writes open no
// breaker, which refused the reads of every file it held.
func TestFullRedisServesWhatItHolds(t *testing.T) {
	s, rdb, _ := newStore(t)
	ctx := t.Context()
	if err := s.Set(ctx, "https://kept.test:443", []byte("kept"), time.Hour); err != nil {
		t.Fatal(err)
	}
	fillUp(t, rdb)
	for range 4 {
		if _, err := s.Get(ctx, "https://absent.test:443"); !errors.Is(err, robotstxt.ErrCacheMiss) {
			t.Errorf("Get of a key a full Redis lacks: %v, want ErrCacheMiss", err)
		}
		if err := s.Set(ctx, "https://new.test:443", []byte("v"), time.Hour); err == nil || !strings.Contains(err.Error(), "OOM") {
			t.Errorf("Set on a full Redis: %v, want its OOM refusal", err)
		}
	}
	if got, err := s.Get(ctx, "https://kept.test:443"); string(got) != "kept" || err != nil {
		t.Errorf("Get of a key a full Redis holds: %q, %v; want it read", got, err)
	}
}

// TestFullRedisFleetKeepsSharing: process A stored 30 sites' files, then
// Redis filled up; process B, meeting new sites between them, reads each
// of the 30 from Redis and fetches none again (store84: it fetched all 30,
// 120 Store errors).
func TestFullRedisFleetKeepsSharing(t *testing.T) {
	srv, _ := newRedis(t)
	w := newWeb(t)
	kept, fresh := crawltest.Hosts("kept", 30), crawltest.Hosts("fresh", 10)
	checkAll(t, newDefaultProcess(t, srv.Addr(), w), kept)
	fillUp(t, newAdmin(t, srv))
	b := newDefaultProcess(t, srv.Addr(), w)
	for i, h := range kept {
		if i%3 == 0 {
			checkAll(t, b, fresh[i/3:i/3+1])
		}
		checkAll(t, b, []string{h})
	}
	for _, h := range kept {
		if n := w.Fetches(h); n != 1 {
			t.Errorf("%s fetched %d times, want once: Redis holds its file", h, n)
		}
	}
	if st := b.Stats().Store; st.Hits != uint64(len(kept)) {
		t.Errorf("B's Store: %+v, want %d hits", st, len(kept))
	}
}
