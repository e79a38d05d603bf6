package robotstxt

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func authorityOf(s *site) string { return s.URL }

func TestCacheStoreSharedBetweenClients(t *testing.T) {
	checkLeaks(t)
	store := newMemStore()
	s := newSite(t, serve(200, privateRules, "ETag", `"e"`))
	a := newTestClient(t, WithStore(store))
	b := newTestClient(t, WithStore(store))
	ctx := context.Background()
	if ok, err := a.Allowed(ctx, s.URL+"/private"); ok || err != nil {
		t.Fatal(ok, err)
	}
	if store.get(authorityOf(s)) == nil {
		t.Fatalf("nothing stored under %q", authorityOf(s))
	}
	if ok, err := b.Allowed(ctx, s.URL+"/private"); ok || err != nil {
		t.Fatal(ok, err)
	}
	if s.hits.Load() != 1 {
		t.Errorf("fetched %d times by two clients sharing a Store", s.hits.Load())
	}
	if st := b.Stats().Store; st.Hits != 1 || st.Misses != 0 || st.Errors != 0 {
		t.Errorf("second client StoreStats = %+v", st)
	}
	if st := a.Stats().Store; st.Misses != 1 || st.Sets != 1 {
		t.Errorf("first client Store stats = %+v", st)
	}
	info, e, _ := held(b, s.URL)
	if info.ETag != `"e"` || info.Status != 200 || string(bodyOf(e)) != privateRules {
		t.Errorf("entry from the Store: %+v", info)
	}
}

func TestCacheStoreCorruptValueIsAMiss(t *testing.T) {
	checkLeaks(t)
	store := newMemStore()
	s := newSite(t, serve(200, privateRules))
	for _, bad := range [][]byte{nil, {0}, {entryVersion + 1, 0, 0}, {entryVersion, 9, 0, 1}, []byte("garbage garbage")} {
		_ = store.Set(context.Background(), authorityOf(s), bad, time.Minute)
		c := newTestClient(t, WithStore(store))
		if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
			t.Fatalf("value %q: %v, %v", bad, ok, err)
		}
		if st := c.Stats().Store; st.Misses != 1 || st.Sets != 1 {
			t.Errorf("value %q: %+v", bad, st)
		}
		if v := store.get(authorityOf(s)); len(v) == 0 || v[0] != entryVersion {
			t.Errorf("value %q not overwritten", bad)
		}
	}
}

func TestCacheStoreErrorsNeverReachCaller(t *testing.T) {
	checkLeaks(t)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	store := newMemStore()
	store.fail = errors.New("connection refused")
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t, WithStore(store), WithLogger(logger))
	ctx := context.Background()
	for i := range 3 {
		forget(c, s.URL)
		if ok, err := c.Allowed(ctx, s.URL+"/private"); ok || err != nil {
			t.Fatalf("check %d with a failing Store: %v, %v", i, ok, err)
		}
	}
	if st := c.Stats().Store; st.Errors != 9 { // Get, Lease, Set per fetch
		t.Errorf("StoreStats = %+v", st)
	}
	if n := strings.Count(logs.String(), "robots.txt store failed"); n != 1 {
		t.Errorf("logged %d store errors, want 1 (rate-limited):\n%s", n, logs.String())
	}
}

func TestCacheStoreTimeout(t *testing.T) {
	checkLeaks(t)
	store := newMemStore()
	store.block = make(chan struct{}) // never closed: every call hangs
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t, WithStore(store), WithStoreTimeout(20*time.Millisecond))
	if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Fatalf("hanging Store: %v, %v", ok, err)
	}
	if st := c.Stats().Store; st.Errors != 3 {
		t.Errorf("StoreStats = %+v", st)
	}
}

// slowGetStore is a memStore whose Get answers after delay: a Store
// slower than the checks' deadlines, though within the Store timeout.
type slowGetStore struct {
	*memStore
	delay time.Duration
}

func (s slowGetStore) Get(ctx context.Context, key string) ([]byte, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.memStore.Get(ctx, key)
}

// TestCacheSlowStoreStaleCopy: checks whose deadlines come before the
// Store answers answer, stale, from the expired copy the Store call
// they left running found, while its fetch runs (as WithStoreTimeout
// says): each asked the Store again and failed at its deadline, for as
// long as the fetch took.
func TestCacheSlowStoreStaleCopy(t *testing.T) {
	checkLeaks(t)
	for _, delay := range []time.Duration{0, 150 * time.Millisecond} {
		clock := newTestClock()
		mem, release := newMemStore(), make(chan struct{})
		store := slowGetStore{mem, delay}
		s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
		a := newTestClient(t, WithStore(store), WithClock(clock.Now))
		if ok, err := a.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
			t.Fatal(ok, err)
		}
		s.set(func(w http.ResponseWriter, r *http.Request) { // slow to answer now
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
		clock.Advance(10 * time.Minute) // expired, within the stale window
		b := newTestClient(t, WithStore(store), WithClock(clock.Now), WithFetchTimeout(3*time.Second))
		failed := 0
		var last error
		for range 10 {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			d, err := b.Check(ctx, s.URL+"/public")
			cancel()
			if err != nil || !d.Allowed || !d.Stale {
				failed, last = failed+1, err
			}
			time.Sleep(100 * time.Millisecond)
		}
		if failed > 1 { // the first check's Store call may outlast it
			t.Errorf("Get taking %v, checks of 100ms while the fetch runs: %d of 10 failed (last: %v); want all but the first answered from the expired copy",
				delay, failed, last)
		}
		close(release)
	}
}

// gatedStore is a Store (no Leaser) over a memStore: its first Get
// reads at once but answers late (a slow Store's latency), its second
// waits for gate, then reads.
type gatedStore struct {
	m     *memStore
	n     atomic.Int32
	delay time.Duration
	gate  chan struct{}
	first chan struct{} // closed as the first Get returns
}

func (s *gatedStore) Get(ctx context.Context, key string) ([]byte, error) {
	switch s.n.Add(1) {
	case 1:
		b, err := s.m.Get(ctx, key)
		time.Sleep(s.delay)
		close(s.first)
		return b, err
	case 2:
		select {
		case <-s.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.m.Get(ctx, key)
}

func (s *gatedStore) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	return s.m.Set(ctx, key, value, ttl)
}

// TestCacheSlowStoreCopyGivesWayToFresh: the expired copy a short
// check's Store call keeps in memory for the checks that cannot wait (see
// TestCacheSlowStoreStaleCopy) gives way to another process's fresh copy
// that a check finds in the Store: the site now disallows /private.
func TestCacheSlowStoreCopyGivesWayToFresh(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	mem := newMemStore()
	release := make(chan struct{})
	defer close(release)
	s := newSite(t, serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=60"))
	a := newTestClient(t, WithStore(mem), WithClock(clock.Now))
	if ok, err := a.Allowed(context.Background(), s.URL+"/private"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	clock.Advance(10 * time.Minute) // v1 expired, well within the stale window
	var served atomic.Int32
	s.set(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) == 1 { // A's fetch: the site now disallows /private
			serve(200, privateRules, "Cache-Control", "max-age=3600")(w, r)
			return
		}
		select { // B's own fill: slow
		case <-release:
		case <-r.Context().Done():
		}
	})
	gs := &gatedStore{m: mem, delay: 300 * time.Millisecond, gate: make(chan struct{}), first: make(chan struct{})}
	b := newTestClient(t, WithStore(gs), WithClock(clock.Now), WithStoreTimeout(2*time.Second))

	// Check 1: a deadline shorter than the Store timeout; its Store call
	// reads v1 (expired) and answers after the check gave up.
	done1 := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := b.Check(ctx, s.URL+"/public")
		done1 <- err
	}()
	for gs.n.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	// Check 2: no deadline; memory is still empty, so it asks the Store.
	type res struct {
		d   Decision
		err error
	}
	done2 := make(chan res, 1)
	go func() {
		d, err := b.Check(context.Background(), s.URL+"/private")
		done2 <- res{d, err}
	}()
	for gs.n.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	// Process A fetches the new robots.txt and stores it.
	if ok, err := a.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Fatalf("A: %v %v, want disallowed", ok, err)
	}
	<-done1
	<-gs.first
	authority := "http://" + s.Listener.Addr().String()
	deadline := time.Now().Add(200 * time.Millisecond)
	for b.robots.cache.peek(authority) == nil && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(gs.gate) // check 2's Get now reads A's fresh copy
	r := <-done2
	if r.err != nil || r.d.Allowed || r.d.Stale {
		t.Errorf("B's check of /private, with A's fresh copy (Disallow: /private) in the Store: Allowed=%v Stale=%v Outcome=%v err=%v; want disallowed, fresh",
			r.d.Allowed, r.d.Stale, r.d.Outcome, r.err)
	}
}

// TestCacheSlowStoreCopyNoHopStandIn: such a copy, kept while a hop's
// fill fetches the site's robots.txt, gives way to that fill's 503: the
// copy, past the stale window, may not stand in, and the redirect to the
// site is refused (the check deferred), not allowed by it.
func TestCacheSlowStoreCopyNoHopStandIn(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	mem := newMemStore()
	x := newSite(t, serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=60"))
	a := newTestClient(t, WithStore(mem), WithClock(clock.Now))
	if ok, err := a.Allowed(context.Background(), x.URL+"/rules.txt"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	clock.Advance(10 * time.Minute) // X's copy: expired, past B's stale window of 5 minutes
	arrived, release := make(chan struct{}, 4), make(chan struct{})
	x.set(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			arrived <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/rules.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		}
	})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, x.URL+"/rules.txt", http.StatusMovedPermanently)
	})
	b := newTestClient(t, WithStore(mem), WithClock(clock.Now), WithStaleWindow(5*time.Minute))

	type res struct {
		d   Decision
		err error
	}
	done := make(chan res, 1)
	go func() {
		d, err := b.Check(context.Background(), s.URL+"/page")
		done <- res{d, err}
	}()
	<-arrived // the hop's fetch of X's robots.txt is under way
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, _ = b.Check(ctx, x.URL+"/page") // its Store call keeps X's expired copy
	cancel()
	authority := "http://" + x.Listener.Addr().String()
	for deadline := time.Now().Add(2 * time.Second); b.robots.cache.peek(authority) == nil && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	close(release) // X answers 503
	r := <-done
	var de *DeferredError
	if !errors.As(r.err, &de) {
		t.Errorf("check of S, whose robots.txt redirects to X's /rules.txt while X's robots.txt answers 503 and its only copy is past the stale window: Allowed=%v Stale=%v Outcome=%v err=%v; want a DeferredError (the hop refused)",
			r.d.Allowed, r.d.Stale, r.d.Outcome, r.err)
	}
}

// TestCacheStoreCutByClose: a Store call Close cuts is no Store failure:
// neither counted nor logged.
func TestCacheStoreCutByClose(t *testing.T) {
	checkLeaks(t)
	store := newMemStore()
	store.block = make(chan struct{}) // never closed: every call hangs
	s := newSite(t, serve(200, privateRules))
	var logs bytes.Buffer
	c := NewClient(WithStore(store), WithStoreTimeout(time.Minute), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	done := make(chan error, 1)
	go func() {
		_, err := c.Allowed(context.Background(), s.URL+"/x")
		done <- err
	}()
	for store.calls() == 0 {
		time.Sleep(time.Millisecond)
	}
	_ = c.Close()
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("the check Close cut: %v, want ErrClosed", err)
	}
	if st := c.Stats().Store; st.Errors != 0 || strings.Contains(logs.String(), "store failed") {
		t.Errorf("StoreStats %+v, log %q: want no failure", st, logs.String())
	}
}

func TestCacheStoreLeaseWait(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules))
	key := authorityOf(s)

	t.Run("holder delivers", func(t *testing.T) {
		store := newMemStore()
		release, ok, _ := store.Lease(context.Background(), key, time.Minute)
		if !ok {
			t.Fatal("could not take the lease")
		}
		defer release()
		c := newTestClient(t, WithStore(store), WithClock(clock.Now), WithLeaseWait(time.Minute, 5*time.Millisecond))
		done := make(chan error, 1)
		go func() {
			ok, err := c.Allowed(context.Background(), s.URL+"/private")
			if err == nil && ok {
				err = errors.New("/private allowed")
			}
			done <- err
		}()
		for c.Stats().Store.LeaseWaits == 0 {
			time.Sleep(time.Millisecond)
		}
		if n := c.Stats().InFlight; n != 0 {
			t.Errorf("waiting on another's lease: InFlight %d; want 0, no fetch", n)
		}
		other := withBody(&entry{key: key, persisted: persisted{outcome: OutcomeRules, status: 200,
			fetched: stampOf(clock.Now()), checked: stampOf(clock.Now()), expires: stampOf(clock.Now().Add(time.Hour))}}, privateRules)
		_ = store.Set(context.Background(), key, encodeTest(other), time.Hour)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if s.hits.Load() != 0 {
			t.Errorf("fetched %d times though the lease holder delivered", s.hits.Load())
		}
		if st := c.Stats().Store; st.LeaseWaits != 1 || st.Hits != 1 {
			t.Errorf("StoreStats = %+v", st)
		}
	})
	t.Run("holder never delivers", func(t *testing.T) {
		store := newMemStore()
		_, _, _ = store.Lease(context.Background(), key, time.Minute)
		c := newTestClient(t, WithStore(store), WithClock(clock.Now), WithLeaseWait(20*time.Millisecond, 5*time.Millisecond))
		if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
			t.Fatalf("Allowed = %v, %v", ok, err)
		}
		if s.hits.Load() != 1 || store.get(key) == nil {
			t.Errorf("after the wait: %d fetches, stored %v", s.hits.Load(), store.get(key) != nil)
		}
	})
	t.Run("poll longer than the wait", func(t *testing.T) {
		// The wait bounds the poll's sleep: a check waits 20 ms for a
		// lease never given, not the hour between polls.
		store := newMemStore()
		_, _, _ = store.Lease(context.Background(), key, time.Minute)
		c := newTestClient(t, WithStore(store), WithClock(clock.Now), WithLeaseWait(20*time.Millisecond, time.Hour))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if ok, err := c.Allowed(ctx, s.URL+"/private"); ok || err != nil {
			t.Fatalf("Allowed = %v, %v; want false, the robots.txt fetched after the wait", ok, err)
		}
	})
	t.Run("the lease outlives the fill", func(t *testing.T) {
		// A look in the Store, the fetch, and the write of its result:
		// a slow Store's calls no longer outlast the lease, which a
		// second process would take to fetch too.
		store := newMemStore()
		c := newTestClient(t, WithStore(store), WithClock(clock.Now), WithStoreTimeout(10*time.Second), WithFetchTimeout(time.Second))
		if _, err := c.Allowed(context.Background(), s.URL+"/private"); err != nil {
			t.Fatal(err)
		}
		store.mu.Lock()
		defer store.mu.Unlock()
		if store.ttl < 21*time.Second {
			t.Errorf("lease TTL %v; want at least two Store timeouts and the fetch timeout, 21s", store.ttl)
		}
	})
	t.Run("holder gives up", func(t *testing.T) {
		// A holder that releases without a result (a failed hop, a
		// Close): the waiter takes the lease and fetches, not waiting
		// out the lease wait.
		store := newMemStore()
		release, ok, _ := store.Lease(context.Background(), key, time.Minute)
		if !ok {
			t.Fatal("could not take the lease")
		}
		c := newTestClient(t, WithStore(store), WithClock(clock.Now), WithLeaseWait(time.Hour, 5*time.Millisecond))
		before := s.hits.Load()
		done := make(chan error, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		go func() {
			_, err := c.Allowed(ctx, s.URL+"/private")
			done <- err
		}()
		for c.Stats().Store.LeaseWaits == 0 {
			time.Sleep(time.Millisecond)
		}
		release()
		if err := <-done; err != nil {
			t.Fatalf("after the holder gave the lease up: %v", err)
		}
		if n := s.hits.Load() - before; n != 1 {
			t.Errorf("fetched %d times, want 1", n)
		}
	})
}

// TestStoreDeadHolderNoHerd: a process that died holding the lease on a
// site (SIGKILLed mid-fetch) leaves it to lapse; the processes waiting
// for its result, under the default lease wait, fetch the robots.txt
// once between them (one takes the lease over, the others find its
// result), not each at the end of its wait.
func TestStoreDeadHolderNoHerd(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	key := authorityOf(s)
	store := newMemStore()
	opts := []Option{WithStore(store), WithFetchTimeout(100 * time.Millisecond), WithStoreTimeout(50 * time.Millisecond)}
	// The dead holder's lease, as its Client took it.
	ttl := leaseMargin + 200*time.Millisecond
	if _, ok, _ := store.Lease(context.Background(), key, ttl); !ok {
		t.Fatal("could not take the lease")
	}
	const waiters = 3
	errs := make(chan error, waiters)
	for range waiters {
		c := newTestClient(t, opts...)
		go func() {
			ok, err := c.Allowed(context.Background(), s.URL+"/private")
			if err == nil && ok {
				err = errors.New("/private allowed")
			}
			errs <- err
		}()
	}
	for range waiters {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("the %d processes waiting for a dead holder's lease fetched robots.txt %d times; want 1", waiters, n)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.ttl != ttl {
		t.Errorf("the Clients' lease TTL is %v, the dead holder's %v: want the same", store.ttl, ttl)
	}
}

func TestCacheStoreStaleCopyRevalidated(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	store := newMemStore()
	s := newSite(t, serve(503, ""))
	key := authorityOf(s)
	old := withBody(&entry{key: key, persisted: persisted{outcome: OutcomeRules, status: 200,
		fetched: stampOf(clock.Now().Add(-48 * time.Hour)), checked: stampOf(clock.Now().Add(-48 * time.Hour)),
		expires: stampOf(clock.Now().Add(-24 * time.Hour)), etag: `"old"`}}, privateRules)
	_ = store.Set(context.Background(), key, encodeTest(old), time.Hour)
	c := newTestClient(t, WithStore(store), WithClock(clock.Now))
	d, err := c.Check(context.Background(), s.URL+"/private")
	if d.Allowed || !d.Stale || err != nil {
		t.Fatalf("unreachable with an expired Store copy: %+v, %v", d, err)
	}
	if st := c.Stats().Store; st.Misses != 1 || st.Sets != 1 {
		t.Errorf("StoreStats = %+v", st)
	}
}

// TestCacheStoreDeferralKeepsLocalGoodCopy: another process that could
// not reach the host writes a deferral to the Store; this process still
// holds a good copy inside the stale window and keeps using it.
func TestCacheStoreDeferralKeepsLocalGoodCopy(t *testing.T) {
	checkLeaks(t)
	var down atomic.Bool
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", "max-age=600")
		_, _ = w.Write([]byte(privateRules))
	})
	store := newMemStore()
	clock := newTestClock()
	a := newTestClient(t, WithStore(store), WithClock(clock.Now))
	b := newTestClient(t, WithStore(store), WithClock(clock.Now))
	ctx := context.Background()
	if ok, err := a.Allowed(ctx, s.URL+"/public"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	store.clearValues() // Redis restarted, or the key evicted
	down.Store(true)
	clock.Advance(11 * time.Minute)
	if d, err := b.Check(ctx, s.URL+"/public"); !d.Deferred || err == nil {
		t.Fatalf("cold client, host down: %+v, %v; want deferred", d, err)
	}
	d, err := a.Check(ctx, s.URL+"/public")
	if err != nil || !d.Allowed || !d.Stale || d.Deferred {
		t.Fatalf("client with a good copy: %+v, %v; want the stale good copy", d, err)
	}
	if d, _ := a.Check(ctx, s.URL+"/private"); d.Allowed {
		t.Fatalf("stale good copy lost its rules: %+v", d)
	}
}

// TestCacheStoreImplausibleEntryIsAMiss: a stored value that this Client
// could not have written (a huge body, or fresh for years) is a miss.
func TestCacheStoreImplausibleEntryIsAMiss(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	store := newMemStore()
	clock := newTestClock()
	c := newTestClient(t, WithStore(store), WithClock(clock.Now), WithBodyLimit(1000))
	now := clock.Now()
	for name, e := range map[string]*entry{
		"huge body": withBody(&entry{key: s.URL, persisted: persisted{outcome: OutcomeRules, status: 200,
			fetched: stampOf(now), checked: stampOf(now), expires: stampOf(now.Add(time.Hour))}}, strings.Repeat("#", 5000)),
		"fresh for years": {key: s.URL, persisted: persisted{outcome: OutcomeAllowAll, status: 404,
			fetched: stampOf(now), checked: stampOf(now), expires: stampOf(now.Add(5 * 365 * 24 * time.Hour))}},
	} {
		store.put(s.URL, encodeTest(e), time.Hour)
		forget(c, s.URL)
		before := s.hits.Load()
		if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
			t.Errorf("%s: Allowed = %v, %v; want the fetched rules", name, ok, err)
		}
		if s.hits.Load() != before+1 {
			t.Errorf("%s: the stored value was used instead of fetching", name)
		}
	}
}

// TestStoreKeepGoodTakesTheStoredStreak checks that a good copy standing
// in for another process's deferral counts the outage from when that
// process saw it begin, not from an outage of its own long over.
func TestStoreKeepGoodTakesTheStoredStreak(t *testing.T) {
	clock := newTestClock()
	c := newTestClient(t, WithStore(newMemStore()), WithClock(clock.Now))
	now := clock.Now()
	prev := withBody(&entry{key: "http://a:80", persisted: persisted{outcome: OutcomeRules, status: 200,
		fetched: stampOf(now.Add(-time.Hour)), checked: stampOf(now.Add(-time.Hour)), expires: stampOf(now),
		since: stampOf(now.Add(-20 * time.Hour))}}, privateRules).derive()
	stored := (&entry{key: "http://a:80", persisted: persisted{outcome: OutcomeUnreachable, status: 503, failStatus: 503,
		failures: 2, fetched: stampOf(now), checked: stampOf(now), expires: stampOf(now.Add(time.Minute)),
		since: stampOf(now.Add(-5 * time.Minute))}}).derive()
	got := c.tier.keepGood(stored, prev)
	if !got.stale || got.since != stored.since || got.failures != 2 {
		t.Errorf("keepGood: stale %v, since %v, failures %d; want the stored streak from %v",
			got.stale, got.since, got.failures, stored.since)
	}
}

// TestStoreOlderStandInKeepsTheNewerCopy: in an outage, another
// process's stand-in (its last good copy) older than this process's own
// leaves this one's standing: a Client that read the site's newer rules
// answered from the older copy, which allowed what the newer disallows.
func TestStoreOlderStandInKeepsTheNewerCopy(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	store := newMemStore()
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=86400"))
	b := newTestClient(t, WithClock(clock.Now), WithStore(store))
	a := newTestClient(t, WithClock(clock.Now), WithStore(store))
	ctx := context.Background()
	if ok, err := b.Allowed(ctx, s.URL+"/x"); !ok || err != nil {
		t.Fatalf("B, the old rules: %v, %v; want /x allowed", ok, err)
	}
	store.clearValues() // the Store loses B's value (a restart)
	clock.Advance(time.Hour)
	s.set(serve(200, "User-agent: *\nDisallow: /x\n", "Cache-Control", "max-age=86400"))
	if ok, err := a.Allowed(ctx, s.URL+"/x"); ok || err != nil {
		t.Fatalf("A, the new rules: %v, %v; want /x disallowed", ok, err)
	}
	store.clearValues() // and A's
	s.set(serve(503, "down"))
	clock.Advance(23 * time.Hour) // B's copy expires: its fetch fails, and it stores its copy standing in
	if d, _ := b.Check(ctx, s.URL+"/x"); !d.Stale {
		t.Fatalf("B in the outage: %+v; want its copy standing in", d)
	}
	clock.Advance(2 * time.Hour) // A's copy has expired too
	if d, err := a.Check(ctx, s.URL+"/x"); d.Allowed || err != nil || !d.Stale {
		t.Errorf("A in the outage: %+v, %v; want its own newer copy standing in, /x disallowed", d, err)
	}
}

// TestStoreOlderDisallowAllStandInKeepsTheNewerCopy: so too where the
// older copy is a disallow-all (a 401 under LegacyStatusPolicy): only an
// error policy's disallow-all, a failure, stands over a newer copy.
func TestStoreOlderDisallowAllStandInKeepsTheNewerCopy(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	store := newMemStore()
	s := newSite(t, serve(401, "", "Cache-Control", "max-age=86400"))
	opts := []Option{WithClock(clock.Now), WithStore(store), WithStatusPolicy(LegacyStatusPolicy)}
	b, a := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	if ok, err := b.Allowed(ctx, s.URL+"/x"); ok || err != nil {
		t.Fatalf("B, the 401: %v, %v; want disallowed", ok, err)
	}
	store.clearValues()
	clock.Advance(time.Hour)
	s.set(serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=86400"))
	if ok, err := a.Allowed(ctx, s.URL+"/x"); !ok || err != nil {
		t.Fatalf("A, the rules: %v, %v; want /x allowed", ok, err)
	}
	store.clearValues()
	s.set(serve(503, "down"))
	clock.Advance(23 * time.Hour)
	if d, _ := b.Check(ctx, s.URL+"/x"); !d.Stale || d.Outcome != OutcomeDisallowAll {
		t.Fatalf("B in the outage: %+v; want its 401 standing in", d)
	}
	clock.Advance(2 * time.Hour)
	if d, err := a.Check(ctx, s.URL+"/x"); !d.Allowed || err != nil || !d.Stale {
		t.Errorf("A in the outage: %+v, %v; want its own newer copy standing in, /x allowed", d, err)
	}
}

// TestStoreEntriesFromTheFuture checks that a Store entry written by a
// fleet member whose clock runs ten years ahead is not trusted as fresh:
// a reader with a true clock asks the server itself, and then serves
// what the server says.
func TestStoreEntriesFromTheFuture(t *testing.T) {
	checkLeaks(t)
	var rules atomic.Value
	rules.Store("User-agent: *\nDisallow: /\n")
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, rules.Load().(string)) })
	store := newMemStore()
	ahead := newTestClock()
	ahead.Advance(10 * 365 * 24 * time.Hour)
	skewed := newTestClient(t, WithStore(store), WithClock(ahead.Now))
	if ok, _ := skewed.Allowed(context.Background(), s.URL+"/x"); ok {
		t.Fatal("disallow-all read as allowed")
	}
	// The site changes its rules; a reader with the true clock must see it.
	rules.Store("User-agent: *\nAllow: /\n")
	reader := newTestClient(t, WithStore(store), WithClock(newTestClock().Now))
	before := s.hits.Load()
	if ok, err := reader.Allowed(context.Background(), s.URL+"/x"); !ok || err != nil {
		t.Errorf("reader trusted the entry from the future: %v, %v", ok, err)
	}
	if s.hits.Load() != before+1 {
		t.Errorf("reader did not ask the server")
	}
	// A skew within a minute is a fleet's ordinary drift: trusted.
	near := newTestClock()
	near.Advance(30 * time.Second)
	store2 := newMemStore()
	w := newTestClient(t, WithStore(store2), WithClock(near.Now))
	_, _ = w.Allowed(context.Background(), s.URL+"/x")
	before = s.hits.Load()
	r := newTestClient(t, WithStore(store2), WithClock(newTestClock().Now))
	_, _ = r.Allowed(context.Background(), s.URL+"/x")
	if s.hits.Load() != before {
		t.Error("an entry 30 s ahead was not trusted")
	}
}

// TestStoreFreshnessBeyondCap checks that a stored entry claiming a
// freshness beyond what this Client keeps is a miss.
func TestStoreFreshnessBeyondCap(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	store := newMemStore()
	clock := newTestClock()
	now := clock.Now()
	key := authorityOf(s)
	for name, p := range map[string]persisted{
		"allow-all for a year": {outcome: OutcomeAllowAll, status: 404, fetched: stampOf(now), checked: stampOf(now), expires: stampOf(now.Add(365 * 24 * time.Hour))},
		"rules for two days":   {outcome: OutcomeRules, status: 200, fetched: stampOf(now), checked: stampOf(now), expires: stampOf(now.Add(48 * time.Hour))},
		"deferral for a week":  {outcome: OutcomeUnreachable, status: 503, failStatus: 503, failures: 1, fetched: stampOf(now), checked: stampOf(now), expires: stampOf(now.Add(7 * 24 * time.Hour))},
	} {
		e := &entry{key: key, persisted: p}
		if p.outcome == OutcomeRules {
			withBody(e, "User-agent: *\nAllow: /\n")
		}
		store.put(key, encodeTest(e), time.Hour)
		c := newTestClient(t, WithStore(store), WithClock(clock.Now))
		before := s.hits.Load()
		if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
			t.Errorf("%s: Allowed = %v, %v; want the server's rules", name, ok, err)
		}
		if s.hits.Load() != before+1 {
			t.Errorf("%s: the stored entry was trusted", name)
		}
	}
}

// TestStoreValidatorNoServerSends checks that a stored entry whose ETag
// or Last-Modified net/http would refuse to send is a miss: served, it
// stood in as unreachable at each revalidation (the request never left)
// for the 30-day stale window, and the site was never asked again.
func TestStoreValidatorNoServerSends(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	clock := newTestClock()
	now := clock.Now()
	key := authorityOf(s)
	for _, tc := range []struct {
		name, etag, lastMod string
		trusted             bool
	}{
		{name: "control byte in ETag", etag: "\"a\x01b\""},
		{name: "line break in Last-Modified", lastMod: "Mon, 02 Jan 2006\r\nX: y"},
		{name: "valid validators", etag: `W/"a b"`, lastMod: "Mon, 02 Jan 2006 15:04:05 GMT", trusted: true},
	} {
		e := withBody(&entry{key: key, persisted: persisted{outcome: OutcomeRules, status: 200,
			fetched: stampOf(now), checked: stampOf(now), expires: stampOf(now.Add(time.Minute)),
			etag: tc.etag, lastMod: tc.lastMod}}, "User-agent: *\nAllow: /\n")
		store := newMemStore()
		store.put(key, encodeTest(e), time.Hour)
		c := newTestClient(t, WithStore(store), WithClock(clock.Now))
		before := s.hits.Load()
		ok, err := c.Allowed(context.Background(), s.URL+"/private")
		if asked := s.hits.Load() != before; asked == tc.trusted || ok != tc.trusted || err != nil {
			t.Errorf("%s: Allowed = %v, %v, server asked %v; want the stored entry trusted %v", tc.name, ok, err, asked, tc.trusted)
		}
	}
}

// TestStoreEntryBoundToItsKey copies one authority's stored entry under
// another authority's key, as anyone who can write to the Store can:
// the other authority's rules are its own, fetched from its server.
func TestStoreEntryBoundToItsKey(t *testing.T) {
	checkLeaks(t)
	open := newSite(t, serve(200, "User-agent: *\nAllow: /\n"))
	closed := newSite(t, serve(200, "User-agent: *\nDisallow: /\n"))
	store := newMemStore()
	c := newTestClient(t, WithStore(store))
	if ok, _ := c.Allowed(context.Background(), open.URL+"/x"); !ok {
		t.Fatal("open site disallowed")
	}
	store.put(authorityOf(closed), store.get(authorityOf(open)), time.Hour)
	d := newTestClient(t, WithStore(store))
	if ok, err := d.Allowed(context.Background(), closed.URL+"/x"); ok || err != nil {
		t.Errorf("the copied entry answered for %s: %v, %v", authorityOf(closed), ok, err)
	}
	if closed.hits.Load() != 1 {
		t.Errorf("the closed site was asked %d times, want 1", closed.hits.Load())
	}
}

// TestStoreEntryBoundToItsCrawler: a server may answer crawlers by their
// User-Agent: its 403 to BlockedBot, an allow-all for it, does not answer
// for OtherBot, which fetches the rules it is given itself; nor does a
// Client of other product tokens take OtherBot's value.
func TestStoreEntryBoundToItsCrawler(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.UserAgent(), "BlockedBot") {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		serve(200, privateRules)(w, r)
	})
	store := newMemStore()
	ctx := context.Background()
	blocked := newTestClient(t, WithStore(store), WithUserAgent("BlockedBot/1.0"))
	if ok, err := blocked.Allowed(ctx, s.URL+"/private/x"); !ok || err != nil {
		t.Fatalf("BlockedBot, answered 403: %v, %v; want allowed", ok, err)
	}
	other := newTestClient(t, WithStore(store), WithUserAgent("OtherBot/1.0"))
	if ok, err := other.Allowed(ctx, s.URL+"/private/x"); ok || err != nil {
		t.Errorf("OtherBot after BlockedBot's 403: %v, %v; want disallowed by its own rules", ok, err)
	}
	tokens := newTestClient(t, WithStore(store), WithUserAgent("OtherBot/1.0"), WithProductTokens("otherbot", "extra"))
	if _, err := tokens.Allowed(ctx, s.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	if n := s.hits.Load(); n != 3 {
		t.Errorf("%d fetches, want one a crawler", n)
	}
	if st := other.Stats().Store; st.Hits != 0 {
		t.Errorf("OtherBot took %d values from the Store", st.Hits)
	}
}

// TestStoreEntryBoundToItsGuard: a Client that fetches through
// PublicOnly does not take an unguarded Client's answer for a site whose
// name leads to an internal address (loopback here): it defers with
// ErrNonPublic, as alone, where the other read the 404 as allow-all.
func TestStoreEntryBoundToItsGuard(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(404, "not found"))
	ctx := context.Background()
	store := newMemStore()
	unguarded := newTestClient(t, WithStore(store))
	if ok, err := unguarded.Allowed(ctx, s.URL+"/x"); !ok || err != nil {
		t.Fatalf("unguarded: %v, %v; want the 404's allow-all", ok, err)
	}
	guarded := newTestClient(t, WithStore(store), WithHTTPClient(&http.Client{Transport: PublicOnly(nil)}))
	if ok, err := guarded.Allowed(ctx, s.URL+"/x"); ok || !errors.Is(err, ErrNonPublic) {
		t.Errorf("guarded, after the unguarded one's allow-all: %v, %v; want ErrNonPublic", ok, err)
	}
	if st := guarded.Stats().Store; st.Hits != 0 {
		t.Errorf("the guarded Client took %d values from the Store", st.Hits)
	}
}

// TestCacheStoreLookupInCallersGoroutine: a memory miss looks in the
// Store under the caller's context as well as the Store timeout. A hit
// is served to a caller whose context can end; a caller whose deadline
// passes while the Store hangs gets its context's error and starts no
// fetch, and the Store's call runs on to the Store timeout, which alone
// tells whether the Store failed; after Close a miss is ErrClosed, not a
// Store failure.
func TestCacheStoreLookupInCallersGoroutine(t *testing.T) {
	checkLeaks(t)
	store, s := storedSite(t)
	b := newTestClient(t, WithStore(store), WithStoreTimeout(time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if ok, err := b.Allowed(ctx, s.URL+"/private"); ok || err != nil {
		t.Fatalf("Store hit under a cancellable context: %v, %v", ok, err)
	}
	if st := b.Stats().Store; st.Hits != 1 || st.Misses != 0 || st.Errors != 0 {
		t.Errorf("after the hit: StoreStats = %+v", st)
	}
	// A caller whose context has ended gets its error, not the Store's
	// answer, every time.
	ended, cancelEnded := context.WithCancel(context.Background())
	cancelEnded()
	past, cancelPast := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelPast()
	for range 50 {
		e := newTestClient(t, WithStore(store))
		if _, err := e.Check(ended, s.URL+"/private"); !errors.Is(err, context.Canceled) {
			t.Fatalf("a caller whose context ended: %v, want context.Canceled", err)
		}
		if _, err := e.Check(past, s.URL+"/private"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a caller whose deadline has passed: %v, want context.DeadlineExceeded", err)
		}
	}

	store.hang()
	c := newTestClient(t, WithStore(store), WithStoreTimeout(time.Minute))
	short, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelShort()
	if ok, err := c.Allowed(short, s.URL+"/private"); ok || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("caller gave up on a hanging Store: %v, %v; want DeadlineExceeded", ok, err)
	}
	if st := c.Stats(); st.Store.Errors != 0 || fetches(st) != 0 || s.hits.Load() != 1 {
		t.Errorf("after giving up: %+v, %d fetches by the site", st, s.hits.Load())
	}
	if ended := store.release(); ended != nil {
		t.Errorf("the Store's call ended with the caller's deadline: %v", ended)
	}
	// The call, which the Store timeout alone bounds, fails when it
	// passes: a Client whose Store hangs past it counts a failure.
	slow := newTestClient(t, WithStore(store), WithStoreTimeout(50*time.Millisecond))
	store.hang()
	short, cancelShort = context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancelShort()
	if _, err := slow.Allowed(short, s.URL+"/private"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("caller gave up on a hanging Store: %v", err)
	}
	for deadline := time.Now().Add(10 * time.Second); slow.Stats().Store.Errors == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the Store's call past its timeout was not counted a failure")
		}
	}
	if ended := store.release(); !errors.Is(ended, context.DeadlineExceeded) {
		t.Errorf("the Store's call ended with %v, want its own deadline", ended)
	}

	d := newTestClient(t, WithStore(store))
	_ = d.Close()
	if _, err := d.Check(ctx, s.URL+"/private"); !errors.Is(err, ErrClosed) {
		t.Errorf("closed Client, memory miss: %v, want ErrClosed", err)
	}
	if st := d.Stats().Store; st.Errors != 0 {
		t.Errorf("closed Client: StoreStats = %+v", st)
	}
}

// TestStoreStaleCopyPastWindow: a stored last good copy that claims to
// stand in past the stale window is not used: it is the failure it
// stands for (another member's window may be longer), deferred until
// its expiry; then the Client asks the server.
func TestStoreStaleCopyPastWindow(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	store := newMemStore()
	clock := newTestClock()
	now := clock.Now()
	key := authorityOf(s)
	old := withBody(&entry{key: key, persisted: persisted{outcome: OutcomeRules, status: 200, stale: true,
		failures: 3, failStatus: 503,
		fetched: stampOf(now.Add(-40 * 24 * time.Hour)), checked: stampOf(now), expires: stampOf(now.Add(time.Minute)), since: stampOf(now.Add(-time.Hour))}},
		"User-agent: *\nAllow: /\n")
	store.put(key, encodeTest(old), time.Hour)
	c := newTestClient(t, WithStore(store), WithClock(clock.Now))
	var de *DeferredError
	if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || !errors.As(err, &de) || de.Failures != 3 || de.Status != 503 {
		t.Errorf("Allowed = %v, %v; want the stored copy's failure, deferred, not the copy from 40 days ago", ok, err)
	}
	if s.hits.Load() != 0 {
		t.Errorf("the server was asked %d times before the failure's back-off ended, want 0", s.hits.Load())
	}
	clock.Advance(time.Minute)
	if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Errorf("Allowed = %v, %v; want the server's rules", ok, err)
	}
	if s.hits.Load() != 1 {
		t.Errorf("the server was asked %d times, want 1", s.hits.Load())
	}
}

// TestStoreExpiredCopyWhenNoSlot: memory empty, the Store's copy expired,
// every fetch slot taken: a check answers from the Store's copy, stale,
// rather than fail for want of a slot.
func TestStoreExpiredCopyWhenNoSlot(t *testing.T) {
	checkLeaks(t)
	site := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	entered, release := make(chan struct{}), make(chan struct{})
	slow := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
	})
	clock := newTestClock()
	store := newMemStore()
	a := newTestClient(t, WithClock(clock.Now), WithStore(store))
	if _, err := a.Allowed(context.Background(), site.URL+"/private/x"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute)
	b := newTestClient(t, WithClock(clock.Now), WithStore(store), WithMaxFetches(1))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = b.Allowed(context.Background(), slow.URL+"/")
	}()
	<-entered
	d, err := b.Check(context.Background(), site.URL+"/private/x")
	if err != nil || !d.Stale || d.Allowed || d.Rule.Line == 0 {
		t.Errorf("no slot free, the Store's copy expired: %+v, %v; want its rules, stale", d, err)
	}
	close(release)
	<-done
}

// TestStoreKeepsNonPublic: a guard's refusal read from the Store still
// matches ErrNonPublic, so that every process of a fleet gives the site up.
func TestStoreKeepsNonPublic(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	store := newMemStore()
	for i := range 2 {
		c, _ := NewClientTransport(PublicOnly(nil), []Option{WithUserAgent(testUA), WithStore(store)})
		t.Cleanup(func() { _ = c.Close() })
		if _, err := c.Check(context.Background(), s.URL+"/"); !errors.Is(err, ErrNonPublic) || !errors.Is(err, ErrDeferred) {
			t.Errorf("Client %d: %v; want a deferral matching ErrNonPublic", i, err)
		}
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("the site got %d requests", n)
	}
}

// TestStoreRedirectLimitIsTheReaders: the allow-all of "too many
// redirects" that a Client following fewer stored is not the answer of
// one that follows more: it fetches, follows the redirect and reads the
// rules. One that follows as few takes it.
func TestStoreRedirectLimitIsTheReaders(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/real-robots.txt", http.StatusMovedPermanently)
			return
		}
		_, _ = w.Write([]byte(privateRules))
	})
	store := newMemStore()
	if ok, err := newTestClient(t, WithStore(store), WithMaxRedirects(0)).Allowed(ctx, s.URL+"/private/x"); !ok || err != nil {
		t.Fatalf("a Client that follows no redirect: %v, %v; want allowed", ok, err)
	}
	hits := s.hits.Load()
	if ok, err := newTestClient(t, WithStore(store), WithMaxRedirects(0)).Allowed(ctx, s.URL+"/private/x"); !ok || err != nil || s.hits.Load() != hits {
		t.Errorf("another that follows none: %v, %v, %d fetches; want the Store's allow-all", ok, err, s.hits.Load()-hits)
	}
	if ok, err := newTestClient(t, WithStore(store)).Allowed(ctx, s.URL+"/private/x"); ok || err != nil {
		t.Errorf("a default Client after it: %v, %v; want disallowed by the rules the redirect leads to", ok, err)
	}
	// A loop runs to the limit, a Client's own: one that follows more
	// redirects fetches again; one that follows as few takes it.
	loop := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, map[string]string{"/robots.txt": "/a", "/a": "/robots.txt"}[r.URL.Path], http.StatusFound)
	})
	store = newMemStore()
	for _, tc := range []struct{ limit, asked int64 }{{3, 4}, {5, 10}, {1, 10}, {5, 10}} {
		if ok, err := newTestClient(t, WithStore(store), WithMaxRedirects(int(tc.limit))).Allowed(ctx, loop.URL+"/x"); !ok || err != nil {
			t.Errorf("a Client following %d redirects: %v, %v; want the loop's allow-all", tc.limit, ok, err)
		}
		if hits := loop.hits.Load(); hits != tc.asked {
			t.Errorf("after a Client following %d redirects, the looping site was asked %d times, want %d", tc.limit, hits, tc.asked)
		}
	}
}

// TestStoreCheckedHopIsTheReaders: an answer reached through a hop to
// another site, which the writer checked against that site's robots.txt
// with its own policies, is not a reader's whose policies refuse the hop
// (LegacyStatusPolicy reads that site's 403 as disallow-all): it fetches,
// and defers as its own fetch does, where the Store said allow all.
func TestStoreCheckedHopIsTheReaders(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("x.test/robots.txt", serve(403, "forbidden"))
	w.on("x.test/site-rules.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("x.test/a", redirectTo("http://loop.test/robots.txt"))
	w.on("rules.test/robots.txt", redirectTo("http://x.test/site-rules.txt"))
	w.on("loop.test/robots.txt", redirectTo("http://x.test/a"))
	hc := &http.Client{Transport: w.transport(t)}
	ctx := context.Background()
	store := newMemStore()
	// A chain of more redirects than an entry lists, whose checked hop
	// the list lost.
	w.on("long.test/robots.txt", redirectTo("http://long.test/r1"))
	for i := 1; i < 9; i++ {
		w.on(fmt.Sprintf("long.test/r%d", i), redirectTo(fmt.Sprintf("http://long.test/r%d", i+1)))
	}
	w.on("long.test/r9", redirectTo("http://x.test/b"))
	w.on("x.test/b", redirectTo("http://long.test/final.txt"))
	w.on("long.test/final.txt", serve(200, "User-agent: *\nAllow: /\n"))
	writer := newTestClient(t, WithHTTPClient(hc), WithUserAgent(testUA), WithStore(store), WithMaxRedirects(12))
	reader := newTestClient(t, WithHTTPClient(hc), WithUserAgent(testUA), WithStore(store), WithStatusPolicy(LegacyStatusPolicy), WithMaxRedirects(12))
	for _, site := range []string{"rules.test", "loop.test", "long.test"} {
		if d, err := writer.Check(ctx, "http://"+site+"/page"); err != nil || !d.Allowed {
			t.Fatalf("%s, the writer: %+v, %v; want allowed through the hop", site, d, err)
		}
		if d, err := reader.Check(ctx, "http://"+site+"/page"); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Errorf("%s, a reader that refuses the hop: %+v, %v; want deferred, as its own fetch is", site, d, err)
		}
	}
}

// TestStoreTDMRepIsTheReaders: a stored tdmrep.json is held to the
// reader's rules as a robots.txt is. One reached through a hop another
// site's robots.txt let the writer make (a 403 there is allow-all to the
// default policy, disallow-all to LegacyStatusPolicy), and a writer's
// "no file" for too many redirects under WithMaxRedirects(0), each lost
// the reader's train-ai=n: its receipt through the Store is the one its
// own fetch gives.
func TestStoreTDMRepIsTheReaders(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	for _, h := range []string{"a.test", "b.test"} {
		w.on(h+"/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on(h+"/page", serve(200, "page", "Content-Type", "text/plain"))
	}
	w.on("a.test"+tdmrepPath, redirectTo("http://x.test/tdm.json"))
	w.on("x.test/robots.txt", serve(403, "forbidden"))
	w.on("x.test/tdm.json", serve(200, `[{"location": "/", "tdm-reservation": 0}]`))
	w.on("b.test"+tdmrepPath, redirectTo("/tdm2.json"))
	w.on("b.test/tdm2.json", serve(200, `[{"location": "/", "tdm-reservation": 1}]`))
	receipt := func(store Store, url string, opts ...Option) Receipt { return tdmReceipt(t, w, store, url, opts...) }
	for _, tc := range []struct {
		url            string
		writer, reader []Option
	}{
		{"http://a.test/page", nil, []Option{WithStatusPolicy(LegacyStatusPolicy)}},
		{"http://b.test/page", []Option{WithMaxRedirects(0)}, nil},
	} {
		own := receipt(nil, tc.url, tc.reader...)
		if own.Usage.statement() != "train-ai=n" {
			t.Fatalf("%s: the reader's own receipt says %q, want train-ai=n", tc.url, own.Usage.statement())
		}
		store := newMemStore()
		receipt(store, tc.url, tc.writer...)
		if shared := receipt(store, tc.url, tc.reader...); shared.Usage.statement() != own.Usage.statement() {
			t.Errorf("%s: the reader's receipt through the Store says %q %q, its own fetch %q", tc.url,
				shared.Usage.statement(), sigs(shared.Signals), own.Usage.statement())
		}
	}
}

// TestStoreTDMRepDisallowAllIsAMiss: a stored tdmrep.json whose outcome
// is disallow-all, which no Client writes (the default status policy
// gives none), is a miss: read, it would say the site has no file, where
// a robots.txt's disallow-all only says more than a Client would.
func TestStoreTDMRepDisallowAllIsAMiss(t *testing.T) {
	c := newTestClient(t, WithStore(newMemStore()), WithTDMRep())
	now := stampOf(time.Now())
	e := &entry{key: "http://a.test:80", persisted: persisted{outcome: OutcomeDisallowAll, status: 503,
		fetched: now, checked: now, expires: now.add(time.Hour)}}
	if err := c.tier.plausible(key{e.key, c.tdm}, e); err == nil {
		t.Error("a stored tdmrep.json disallow-all is plausible; want a miss")
	}
	if err := c.tier.plausible(key{e.key, &c.robots}, e); err != nil {
		t.Errorf("a stored robots.txt disallow-all: %v; want it taken", err)
	}
}

// TestStoreOwnEntriesAccepted: what one Client writes, another Client of
// the same configuration takes from the Store, whatever its times round
// to: a freshness cap that is not a whole millisecond (the encoding's
// unit), and the allow-all of WithUnreachableAllowAfter, whose expiry is
// a back-off longer than the cap. Rejected, they were fetched again and
// the fleet's count of failures started over.
func TestStoreOwnEntriesAccepted(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	t.Run("freshness cap not in whole milliseconds", func(t *testing.T) {
		store := newMemStore()
		opts := []Option{WithStore(store), WithMaxFreshness(time.Hour / 7)}
		a, b := newTestClient(t, opts...), newTestClient(t, opts...)
		for i := range 20 {
			s := newSite(t, serve(200, privateRules))
			if _, err := a.Allowed(ctx, s.URL+"/private"); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Allowed(ctx, s.URL+"/private"); err != nil {
				t.Fatal(err)
			}
			if s.hits.Load() != 1 {
				t.Fatalf("site %d: fetched %d times by two Clients sharing a Store", i, s.hits.Load())
			}
		}
	})
	// "As long as there is" (see TestOptionsAtTheirLimits) is no bound
	// to check a stored entry against: no sum may wrap.
	for name, opt := range map[string]Option{
		"freshness for ever": WithMaxFreshness(math.MaxInt64),
		"back-off for ever":  WithBackoff(time.Minute, math.MaxInt64),
		"stale for ever":     WithStaleWindow(math.MaxInt64),
	} {
		t.Run(name, func(t *testing.T) {
			for _, status := range []int{200, 503} {
				store, clock := newMemStore(), newTestClock()
				s := newSite(t, serve(status, privateRules))
				opts := []Option{opt, WithStore(store), WithClock(clock.Now)}
				_, _ = newTestClient(t, opts...).Allowed(ctx, s.URL+"/private")
				if status == 200 {
					clock.Advance(25 * time.Hour) // then a failure: the good copy stands in
					s.set(serve(503, "down"))
					_, _ = newTestClient(t, opts...).Allowed(ctx, s.URL+"/private")
				}
				hits := s.hits.Load()
				b := newTestClient(t, opts...)
				if _, _ = b.Allowed(ctx, s.URL+"/private"); s.hits.Load() != hits {
					t.Errorf("status %d: another process fetched again; Store %+v", status, b.Stats().Store)
				}
			}
		})
	}
	t.Run("allow-all after an outage", func(t *testing.T) {
		store := newMemStore()
		clock := newTestClock()
		s := newSite(t, serve(503, "down"))
		opts := []Option{WithStore(store), WithClock(clock.Now), WithMaxFreshness(30 * time.Minute), WithUnreachableAllowAfter(time.Hour)}
		a := newTestClient(t, opts...)
		d := outageAllowed(t, a, clock, s.URL+"/x")
		if d.Failures < 2 {
			t.Fatalf("after an hour of failures: %+v; want allowed", d)
		}
		hits := s.hits.Load()
		b := newTestClient(t, opts...)
		if d2, err := b.Check(ctx, s.URL+"/x"); !d2.Allowed || err != nil || d2.Failures != d.Failures || s.hits.Load() != hits {
			t.Errorf("another process: %+v, %v, %d fetches; want the Store's allow-all after %d failures", d2, err, s.hits.Load()-hits, d.Failures)
		}
	})
}

// TestStoreOneFetchOneTime: every process that reads a fetch from the
// Store tells it by the FetchedAt of the one that made it, which a
// receipt keeps as evidence.
func TestStoreOneFetchOneTime(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	s := newSite(t, serve(200, privateRules))
	store := newMemStore()
	a, _ := newTestClient(t, WithStore(store)).Check(ctx, s.URL+"/x")
	b, _ := newTestClient(t, WithStore(store)).Check(ctx, s.URL+"/x")
	if s.hits.Load() != 1 || !a.FetchedAt.Equal(b.FetchedAt) {
		t.Errorf("one fetch (%d made) read as fetched at %v and at %v", s.hits.Load(), a.FetchedAt, b.FetchedAt)
	}
}

// TestStoreOutageAllowAllNotRoundedAway: the allow-all of an outage
// WithUnreachableAllowAfter gave stands for a Client of the same
// configuration, though times are kept in milliseconds, rounded down,
// which can make the outage read shorter than a bound finer than that.
func TestStoreOutageAllowAllNotRoundedAway(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	clock := newTestClock()
	s := newSite(t, serve(503, "down"))
	opts := []Option{WithStore(newMemStore()), WithClock(clock.Now), WithBackoff(time.Second, time.Second),
		WithUnreachableAllowAfter(time.Second + 500*time.Microsecond)}
	a := newTestClient(t, opts...)
	if d, _ := a.Check(ctx, s.URL+"/x"); d.Allowed {
		t.Fatalf("first failure: %+v", d)
	}
	clock.Advance(time.Second + 1700*time.Microsecond)
	if d, _ := a.Check(ctx, s.URL+"/x"); !d.Allowed {
		t.Fatalf("after the bound: %+v; want the outage's allow-all", d)
	}
	hits := s.hits.Load()
	if d, _ := newTestClient(t, opts...).Check(ctx, s.URL+"/x"); !d.Allowed || s.hits.Load() != hits {
		t.Errorf("another process: %+v after %d fetches; want the Store's allow-all", d, s.hits.Load()-hits)
	}
}

// TestStoreFailureOutlivesItsBackoff: a failure stays in the Store past
// its back-off, so that the next fetch, in whichever process, carries its
// count and start on; it went when the back-off ended, just when the next
// fetch needed it, and every process counted one failure for ever.
func TestStoreFailureOutlivesItsBackoff(t *testing.T) {
	checkLeaks(t)
	store := newMemStore()
	clock := newTestClock()
	s := newSite(t, serve(503, "down"))
	opts := []Option{WithStore(store), WithClock(clock.Now), WithBackoff(time.Second, time.Second)}
	if d, _ := newTestClient(t, opts...).Check(context.Background(), s.URL+"/x"); d.Failures != 1 {
		t.Fatalf("first failure: %+v", d)
	}
	time.Sleep(1100 * time.Millisecond) // the Store keeps values by the wall clock
	clock.Advance(1100 * time.Millisecond)
	if d, _ := newTestClient(t, opts...).Check(context.Background(), s.URL+"/x"); d.Failures != 2 {
		t.Errorf("a new process after the back-off: %d failures; want 2", d.Failures)
	}
}

// TestStoreOutageAllowAllDoesNotStandIn: the allow-all of
// WithUnreachableAllowAfter, expired, does not answer a check that does
// not wait for the next fetch, as a good copy may: the fetch decides it
// anew. It answered, however old.
func TestStoreOutageAllowAllDoesNotStandIn(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	clock := newTestClock()
	s := newSite(t, serve(503, "down"))
	c := newTestClient(t, WithClock(clock.Now), WithBackoff(time.Second, time.Minute), WithUnreachableAllowAfter(time.Hour))
	d := outageAllowed(t, c, clock, s.URL+"/x")
	release := make(chan struct{})
	defer close(release)
	s.set(func(w http.ResponseWriter, r *http.Request) { <-release })
	clock.Advance(d.Expires.Sub(clock.Now()) + time.Minute)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if d, err := c.Check(short, s.URL+"/x"); d.Allowed || err == nil {
		t.Errorf("the expired allow-all, a caller that cannot wait: %+v, %v; want an error", d, err)
	}
}

// TestStoreOtherPolicyIsAMiss: a Store's allow-all that another
// Client's policy gave is not this one's answer: it fetches and answers
// by its own. An archiver's error policy that allows a host that refuses
// connections does not make a polite crawler allow its pages; the
// allow-all of a 401 and of an outage hold only for Clients configured
// so. A stricter answer stands.
func TestStoreOtherPolicyIsAMiss(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	allowAll := WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll })

	down := newSite(t, serve(200, privateRules))
	down.Close() // refuses connections
	store := newMemStore()
	if ok, err := newTestClient(t, WithStore(store), allowAll).Allowed(ctx, down.URL+"/private/x"); !ok || err != nil {
		t.Fatalf("the archiver: %v, %v; want allowed", ok, err)
	}
	if ok, err := newTestClient(t, WithStore(store)).Allowed(ctx, down.URL+"/private/x"); ok || !errors.Is(err, ErrDeferred) {
		t.Errorf("a default Client after the archiver: %v, %v; want deferred", ok, err)
	}
	if ok, err := newTestClient(t, WithStore(store), allowAll).Allowed(ctx, down.URL+"/private/x"); ok || !errors.Is(err, ErrDeferred) {
		t.Errorf("an archiver after the default Client: %v, %v; want its stricter deferral", ok, err)
	}
	// A policy that allows only a name that does not resolve does not take
	// the archiver's allow-all, whose error the Store does not keep.
	store = newMemStore()
	if ok, _ := newTestClient(t, WithStore(store), allowAll).Allowed(ctx, down.URL+"/private/x"); !ok {
		t.Fatal("the archiver: not allowed")
	}
	if ok, err := newTestClient(t, WithStore(store), dnsOnly).Allowed(ctx, down.URL+"/private/x"); ok || !errors.Is(err, ErrDeferred) {
		t.Errorf("a DNS-only policy after the archiver: %v, %v; want deferred", ok, err)
	}

	// A 305, which no Client follows, is the status policy's to read, not
	// "too many redirects".
	proxy := newSite(t, serve(305, "use a proxy"))
	store = newMemStore()
	lenient := WithStatusPolicy(func(status int) Outcome {
		if status/100 == 3 {
			return OutcomeAllowAll
		}
		return defaultStatusPolicy(status)
	})
	if d, _ := newTestClient(t, WithStore(store), lenient).Check(ctx, proxy.URL+"/x"); !d.Allowed {
		t.Fatalf("305 under a lenient policy: %+v", d)
	}
	if d, err := newTestClient(t, WithStore(store)).Check(ctx, proxy.URL+"/x"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("305, default, after a lenient Client: %+v, %v; want deferred", d, err)
	}

	s := newSite(t, serve(401, "who are you"))
	store = newMemStore()
	if d, _ := newTestClient(t, WithStore(store)).Check(ctx, s.URL+"/x"); d.Outcome != OutcomeAllowAll {
		t.Fatalf("401, default: %v", d.Outcome)
	}
	if d, _ := newTestClient(t, WithStore(store), WithStatusPolicy(LegacyStatusPolicy)).Check(ctx, s.URL+"/x"); d.Outcome != OutcomeDisallowAll {
		t.Errorf("401 under LegacyStatusPolicy after a default Client: %v, want disallow-all", d.Outcome)
	}
	if d, _ := newTestClient(t, WithStore(store)).Check(ctx, s.URL+"/x"); d.Outcome != OutcomeDisallowAll || s.hits.Load() != 2 {
		t.Errorf("401, default, after a legacy Client: %v after %d fetches, want the stricter disallow-all, 2", d.Outcome, s.hits.Load())
	}

	// Rules another policy read from an error page are not this one's.
	errPage := newSite(t, serve(503, "<html>down</html>"))
	store = newMemStore()
	parses := WithStatusPolicy(func(status int) Outcome {
		if status >= 500 {
			return OutcomeRules
		}
		return defaultStatusPolicy(status)
	})
	if d, _ := newTestClient(t, WithStore(store), parses).Check(ctx, errPage.URL+"/private"); !d.Allowed || d.Outcome != OutcomeRules {
		t.Fatalf("503 read as rules: %+v", d)
	}
	if d, err := newTestClient(t, WithStore(store)).Check(ctx, errPage.URL+"/private"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("503, default, after a Client that reads its page: %+v, %v; want deferred", d, err)
	}

	clock := newTestClock()
	out := newSite(t, serve(503, "down"))
	store = newMemStore()
	opts := []Option{WithStore(store), WithClock(clock.Now), WithMaxFreshness(30 * time.Minute)}
	a := newTestClient(t, append(opts, WithUnreachableAllowAfter(time.Hour))...)
	outageAllowed(t, a, clock, out.URL+"/x")
	if d, err := newTestClient(t, opts...).Check(ctx, out.URL+"/x"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("a Client without WithUnreachableAllowAfter: %+v, %v; want deferred", d, err)
	}
}

// TestStoreExpiredStreakCarriedOn: a process whose good copy is older
// than another's expired failures carries their count on at its next
// fetch, as it does while they are fresh; it counted from 1, so the
// back-off began again and the fleet's count of the outage was lost.
func TestStoreExpiredStreakCarriedOn(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	clock := newTestClock()
	store := newMemStore()
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=1"))
	opts := []Option{WithStore(store), WithClock(clock.Now), WithBackoff(time.Second, time.Hour), WithMinFreshness(time.Second)}
	a, b := newTestClient(t, opts...), newTestClient(t, opts...)
	if _, err := a.Check(ctx, s.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	store.clearValues()
	s.set(serve(503, "down"))
	var d Decision
	for range 3 {
		d, _ = b.Check(ctx, s.URL+"/x")
		clock.Advance(d.Expires.Sub(clock.Now()))
	}
	if d.Failures != 3 {
		t.Fatalf("b: %d failures, want 3", d.Failures)
	}
	if d, _ = a.Check(ctx, s.URL+"/x"); !d.Stale || d.Failures != 4 {
		t.Errorf("a after b's failures expired: stale %v, %d failures; want its copy standing in after 4", d.Stale, d.Failures)
	}
}

// TestStoreOwnPolicyEntriesStand: what a Client's own policies wrote
// stands for another of the same configuration: a 404's allow-all
// standing in, stale, for an outage, and an error policy's unreachable.
func TestStoreOwnPolicyEntriesStand(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	clock := newTestClock()
	s := newSite(t, serve(404, "no robots.txt", "Cache-Control", "max-age=60"))
	store := newMemStore()
	opts := []Option{WithStore(store), WithClock(clock.Now)}
	a, b := newTestClient(t, opts...), newTestClient(t, opts...)
	if d, _ := a.Check(ctx, s.URL+"/x"); d.Outcome != OutcomeAllowAll {
		t.Fatalf("404: %v", d.Outcome)
	}
	clock.Advance(2 * time.Minute)
	s.set(serve(503, "down"))
	if d, _ := a.Check(ctx, s.URL+"/x"); !d.Allowed || !d.Stale {
		t.Fatalf("a, 503 after a 404: %+v; want the allow-all standing in", d)
	}
	hits := s.hits.Load()
	if d, _ := b.Check(ctx, s.URL+"/x"); !d.Allowed || !d.Stale || s.hits.Load() != hits {
		t.Errorf("b: %+v after %d more fetches; want a's copy standing in, none", d, s.hits.Load()-hits)
	}

	down := newSite(t, serve(200, privateRules))
	down.Close()
	opts = []Option{WithStore(newMemStore()), dnsOnly}
	c1, c2 := newTestClient(t, opts...), newTestClient(t, opts...)
	if _, err := c1.Check(ctx, down.URL+"/x"); !errors.Is(err, ErrDeferred) {
		t.Fatalf("a refused connection: %v, want deferred", err)
	}
	if _, err := c2.Check(ctx, down.URL+"/x"); !errors.Is(err, ErrDeferred) || c2.Stats().Store.Hits != 1 {
		t.Errorf("another process: %v, store %+v; want the Store's deferral", err, c2.Stats().Store)
	}
}

// dnsOnly is the error policy WithErrorPolicy's doc suggests: allow all
// for a host that no longer resolves, defer otherwise.
var dnsOnly = WithErrorPolicy(func(err error) Outcome {
	if dns := (*net.DNSError)(nil); errors.As(err, &dns) && dns.IsNotFound {
		return OutcomeAllowAll
	}
	return OutcomeUnreachable
})

// outageAllowed checks u with c, moving clock to each retry, until the
// allow-all of WithUnreachableAllowAfter answers, and fails the test if
// it does not within 200 checks.
func outageAllowed(t *testing.T, c *Client, clock *testClock, u string) Decision {
	t.Helper()
	var d Decision
	for range 200 {
		if d, _ = c.Check(context.Background(), u); d.Allowed {
			return d
		}
		clock.Advance(d.Expires.Sub(clock.Now()))
	}
	t.Fatalf("after an hour of failures: %+v; want allowed", d)
	return d
}

// TestStoreFreshGetSkipsExpired: what a lease's waiter polls for is a
// fresh entry, and an expired one is passed over before its body is
// decompressed or parsed (a poll every leasePoll parsed an expired 500
// KiB file each time): here a body that does not decompress, which a
// look that reads the expired entry logs.
func TestStoreFreshGetSkipsExpired(t *testing.T) {
	checkLeaks(t)
	var logs bytes.Buffer
	store := newMemStore()
	c := newTestClient(t, WithStore(store), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	const authority = "http://a.test:80"
	now := time.Now()
	e := &entry{key: authority, persisted: persisted{outcome: OutcomeRules, status: 200,
		fetched: stampOf(now.Add(-time.Hour)), checked: stampOf(now.Add(-time.Hour)), expires: stampOf(now.Add(-time.Minute))}}
	e.body = []byte("not a compressed body")
	store.put(authority, encodeTest(e), time.Hour)
	k := robotsKey(authority)
	if got, failed := c.tier.get(context.Background(), k, true); got != nil || failed || logs.Len() != 0 {
		t.Fatalf("a fresh-only look: %v, %v, logged %q; want nil, nothing read", got, failed, logs.String())
	}
	if got, _ := c.tier.get(context.Background(), k, false); got != nil || !strings.Contains(logs.String(), "op=decode") {
		t.Fatalf("a look at the expired entry: %v, logged %q; want the body read, and refused", got, logs.String())
	}
}

// TestStoreLookupSharedAndKept: checks that cannot wait the Store timeout
// share one Store call a key, however many give up while it runs, and
// the fresh entry it finds after they left answers the next check from
// memory: a Store slower than every caller's deadline failed them all.
// It is counted once, a Store hit, though no caller was left to count it.
func TestStoreLookupSharedAndKept(t *testing.T) {
	checkLeaks(t)
	store, s := storedSite(t)
	began := store.calls()
	store.hang()
	c := newTestClient(t, WithStore(store), WithStoreTimeout(time.Minute))
	for range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		_, err := c.Allowed(ctx, s.URL+"/private")
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a check while the Store hangs: %v", err)
		}
	}
	if n := store.calls() - began; n != 1 {
		t.Errorf("20 checks of one site made %d Store calls, want 1", n)
	}
	store.release()
	deadline := time.Now().Add(10 * time.Second)
	for c.robots.cache.peek(authorityOf(s)) == nil {
		if time.Now().After(deadline) {
			t.Fatal("the Store's answer was not kept")
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if ok, err := c.Allowed(ctx, s.URL+"/private"); ok || err != nil || s.hits.Load() != 1 {
		t.Errorf("after the Store answered: %v, %v, %d fetches; want the kept answer", ok, err, s.hits.Load())
	}
	if st := c.Stats().Store; st.Hits != 1 || st.Misses != 0 {
		t.Errorf("Stats().Store = %+v; want the one Get that found the entry, after its callers left, a hit", st)
	}
}

// TestStoreLookupMissFetches: when the shared Store call of checks that
// cannot wait the Store timeout finds no fresh entry (a miss, or its own
// timeout), it fetches robots.txt, as a check's fill runs on past its
// caller: a Store slower than every caller's deadline left every check
// of a new site failing, for ever, and robots.txt never fetched.
func TestStoreLookupMissFetches(t *testing.T) {
	checkLeaks(t)
	for _, answers := range []bool{true, false} {
		store := newMemStore()
		s := newSite(t, serve(200, privateRules))
		store.hang()
		c := newTestClient(t, WithStore(store), WithStoreTimeout(200*time.Millisecond))
		for range 5 {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
			_, err := c.Allowed(ctx, s.URL+"/private")
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("a check while the Store hangs: %v", err)
			}
		}
		if answers {
			store.release() // a miss; else the call times out
		}
		deadline := time.Now().Add(10 * time.Second)
		for c.robots.cache.peek(authorityOf(s)) == nil {
			if time.Now().After(deadline) {
				t.Fatalf("Store answering %v: robots.txt was not fetched (%d fetches)", answers, s.hits.Load())
			}
			time.Sleep(time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		ok, err := c.Allowed(ctx, s.URL+"/private")
		cancel()
		if ok || err != nil || s.hits.Load() != 1 {
			t.Errorf("Store answering %v, then a check: %v, %v, %d fetches; want the fetched answer", answers, ok, err, s.hits.Load())
		}
		if st := c.Stats().Store; st.Hits != 0 || st.Misses != 1 {
			t.Errorf("Store answering %v: Stats().Store = %+v; want the one Get, after its callers left, a miss", answers, st)
		}
		if !answers {
			store.release()
		}
	}
}

// TestStoreLookupLeavesNoWaiter: the Store call that runs on past checks
// that cannot wait the Store timeout tries to fill once: with no fetch
// slot free it leaves, so that checks of ever new sites leave nothing
// waiting for a slot behind them.
func TestStoreLookupLeavesNoWaiter(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(newMemStore()), WithMaxFetches(1))
	c.slots <- struct{}{} // a fill elsewhere holds the only slot
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			defer cancel()
			_, _ = c.Allowed(ctx, fmt.Sprintf("http://s%d.test/p", i))
		})
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+20 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left behind by 200 checks that ended", runtime.NumGoroutine()-before)
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.freeSlot()
}

// TestStoreLookupJoinsTheFill: checks of one site that cannot wait the
// Store timeout, made again and again while its robots.txt is fetched,
// leave nothing behind them: each Store call that misses joins the fill
// under way, one goroutine for the site, not one more for each check
// (a thousand checks of a millisecond left a thousand).
func TestStoreLookupJoinsTheFill(t *testing.T) {
	checkLeaks(t)
	release := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	c := newTestClient(t, WithStore(newMemStore()), WithFetchTimeout(30*time.Second))
	before := runtime.NumGoroutine()
	for range 1000 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		_, _ = c.Allowed(ctx, s.URL+"/x")
		cancel()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+50 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left behind by 1000 checks during one fetch", runtime.NumGoroutine()-before)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Errorf("Allowed(/private) after the fetch = %v, %v; want false", ok, err)
	}
}

// TestStoreLookupOfAHop: a redirect hop's check, whose fetch has less
// time left than the Store timeout, is filled within its fetch (needing
// no slot, within its chain's bounds), not by the Store call that runs
// on past checks: that fill waited for the slot its own fetch held.
func TestStoreLookupOfAHop(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("http://cdn.test/files/a-robots.txt"))
	w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("cdn.test/files/a-robots.txt", serve(200, privateRules))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(newMemStore()),
		WithMaxFetches(1), WithFetchTimeout(2*time.Second), WithStoreTimeout(5*time.Second))
	start := time.Now()
	d, err := c.Check(context.Background(), "http://a.test/private")
	if err != nil || d.Allowed || d.Outcome != OutcomeRules {
		t.Errorf("after %v: %+v, %v; want a.test's rules, which disallow", time.Since(start), d, err)
	}
}

// TestStoreLookupStaleAnswers: a check that cannot wait the Store
// timeout, of a site whose copy in the Store has expired but stands, is
// answered from that copy while a hung server holds the fetch, as a copy
// in memory answers: the Store call that runs on past checks must not
// make them wait for its fetch.
func TestStoreLookupStaleAnswers(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	store, release := newMemStore(), make(chan struct{})
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	a := newTestClient(t, WithStore(store), WithClock(clock.Now))
	if ok, err := a.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Fatal(ok, err)
	}
	s.set(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	clock.Advance(10 * time.Minute) // expired, well within the stale window
	b := newTestClient(t, WithStore(store), WithClock(clock.Now), WithFetchTimeout(2*time.Second))
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		d, err := b.Check(ctx, s.URL+"/private")
		cancel()
		if err != nil || d.Allowed || !d.Stale {
			t.Errorf("check %d: %+v, %v; want the stale copy's no", i, d, err)
		}
	}
}

// TestStoreLookupFillPanicLogged: a panic in the fill of the Store call
// that runs on past its callers, who cannot raise it, is logged.
func TestStoreLookupFillPanicLogged(t *testing.T) {
	checkLeaks(t)
	var logs syncBuffer
	store := newMemStore()
	store.hang()
	c := newTestClient(t, WithStore(store), WithStoreTimeout(50*time.Millisecond),
		WithHTTPClient(&http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { panic("boom") })}), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	_, _ = c.Allowed(ctx, "http://panics.test/x")
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "robots.txt fill panicked") {
		if time.Now().After(deadline) {
			t.Fatalf("no panic logged: %q", logs.String())
		}
		time.Sleep(time.Millisecond)
	}
	store.release()
}

// storedSite returns a Store holding the robots.txt of a site, which one
// Client fetched, and the site.
func storedSite(t *testing.T) (*memStore, *site) {
	t.Helper()
	store := newMemStore()
	s := newSite(t, serve(200, privateRules))
	a := newTestClient(t, WithStore(store))
	if ok, err := a.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Fatal(ok, err)
	}
	return store, s
}

// hopUnderLease returns a Client on a Store in which another process (a
// killed one) holds the lease on x.test, where rules.test's robots.txt
// redirects; and that lease's release.
func hopUnderLease(t *testing.T) (*Client, func()) {
	w := newHosts(t)
	w.on("x.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("x.test/site-rules.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("rules.test/robots.txt", redirectTo("http://x.test/site-rules.txt"))
	store := newMemStore()
	release, ok, _ := store.Lease(context.Background(), "http://x.test:80", time.Minute)
	if !ok {
		t.Fatal("could not take the lease")
	}
	hc := &http.Client{Transport: w.transport(t)}
	return newTestClient(t, WithHTTPClient(hc), WithStore(store), WithFetchTimeout(2*time.Second)), release
}

// TestCacheStoreHopSkipsLeaseWait: a redirect hop that needs another
// site's robots.txt, whose lease a killed process holds, fetches it at
// once: waiting, its fetch's deadline would pass first, and the site that
// redirected be stored as unreachable for the fleet.
func TestCacheStoreHopSkipsLeaseWait(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	c, release := hopUnderLease(t)
	defer release()
	if d, err := c.Check(ctx, "http://rules.test/page"); err != nil || !d.Allowed {
		t.Errorf("Check(rules.test/page) = %+v, %v; want allowed, x.test fetched for the hop", d, err)
	}
	if d, err := c.Check(ctx, "http://rules.test/private"); err != nil || d.Allowed {
		t.Errorf("Check(rules.test/private) = %+v, %v; want disallowed by the file the redirect led to", d, err)
	}
	if n := c.Stats().Store.LeaseWaits; n != 0 {
		t.Errorf("LeaseWaits = %d, want 0: a hop does not wait", n)
	}
}

// TestCacheStoreHopSkipsWaitingFill: nor does a hop join the crawler's
// own fill of the site it needs while that fill waits for another
// process's lease.
func TestCacheStoreHopSkipsWaitingFill(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	c, release := hopUnderLease(t)
	own := make(chan error, 1)
	go func() { _, err := c.Check(ctx, "http://x.test/page"); own <- err }()
	for c.Stats().Store.LeaseWaits == 0 {
		time.Sleep(time.Millisecond)
	}
	if d, err := c.Check(ctx, "http://rules.test/private"); err != nil || d.Allowed {
		t.Errorf("Check(rules.test/private) = %+v, %v; want disallowed by the file the redirect led to", d, err)
	}
	release()
	if err := <-own; err != nil {
		t.Errorf("the crawler's own check of x.test: %v", err)
	}
}

// TestStoreOutageIsTheReaders: a writer's allow-all for a name that does
// not resolve, kept past a reader's WithUnreachableAllowAfter, is not
// the answer of a reader whose error policy disallows all for such a
// failure: it reads a miss and fetches, and disallows as its own fetch
// does.
func TestStoreOutageIsTheReaders(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	gone := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
	})
	store := newMemStore()
	hc := &http.Client{Transport: gone}
	writer := newTestClient(t, WithStore(store), WithHTTPClient(hc), WithClock(clock.Now),
		WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll }), WithBackoff(time.Minute, 10*time.Minute))
	ctx := context.Background()
	for i := range 10 {
		if i > 0 {
			clock.Advance(10 * time.Minute) // past each back-off
		}
		if ok, err := writer.Allowed(ctx, "http://gone.test/x"); !ok || err != nil {
			t.Fatalf("the writer: %v, %v; want its policy's allow-all", ok, err)
		}
	}
	clock.Advance(time.Second)
	reader := newTestClient(t, WithStore(store), WithHTTPClient(hc), WithClock(clock.Now),
		WithErrorPolicy(func(error) Outcome { return OutcomeDisallowAll }), WithUnreachableAllowAfter(time.Hour))
	if d, err := reader.Check(ctx, "http://gone.test/x"); d.Allowed || err != nil {
		t.Errorf("the reader: %+v, %v; want its own policy's disallow-all", d, err)
	}
}

// strict5xx is a status policy reading a 5xx as disallow-all, as the 1996
// draft's "assume complete disallow" reading of a failing server has it.
func strict5xx(status int) Outcome {
	if status >= 500 {
		return OutcomeDisallowAll
	}
	return defaultStatusPolicy(status)
}

// failing answers with h until down is set, then with no response (a
// name that no longer resolves) for 1, or a 503 for 2.
func failing(h http.Handler, down *atomic.Int32) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		switch down.Load() {
		case 1:
			return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
		case 2:
			return &http.Response{StatusCode: 503, Status: "503 Service Unavailable", Header: http.Header{}, Body: http.NoBody, Request: r}, nil
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		resp := rec.Result()
		resp.Request = r
		return resp, nil
	})
}

// TestStoreFailureIsTheReaders: a failure another process stored, with
// its last good copy standing in, is not the answer of a reader whose
// policy reads that failure as disallow-all: the reader fetches, and
// disallows all as it does alone.
func TestStoreFailureIsTheReaders(t *testing.T) {
	checkLeaks(t)
	strictErr := WithErrorPolicy(func(error) Outcome { return OutcomeDisallowAll })
	for _, c := range []struct {
		name   string
		first  http.HandlerFunc // what the site serves before it fails
		down   int32            // then: 1, no response; 2, a 503
		reader Option
		path   string
	}{
		{"rules standing in for no response", serve(200, privateRules, "Cache-Control", "max-age=60"), 1, strictErr, "/public"},
		{"rules standing in for a 503", serve(200, privateRules, "Cache-Control", "max-age=60"), 2, WithStatusPolicy(strict5xx), "/public"},
		{"a 404 standing in for no response", serve(404, "", "Cache-Control", "max-age=60"), 1, strictErr, "/private/x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			clock := newTestClock()
			var down atomic.Int32
			hc := &http.Client{Transport: failing(c.first, &down)}
			store := newMemStore()
			u := "http://site.test" + c.path
			writer := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), WithStore(store))
			if ok, err := writer.Allowed(ctx, u); !ok || err != nil {
				t.Fatalf("the writer, the site up: %v, %v", ok, err)
			}
			clock.Advance(2 * time.Minute)
			down.Store(c.down)
			if d, err := writer.Check(ctx, u); !d.Stale || !d.Allowed {
				t.Fatalf("the writer, the site down: %+v, %v; want its copy standing in", d, err)
			}
			reader := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), WithStore(store), c.reader)
			if d, err := reader.Check(ctx, u); d.Allowed || d.Outcome != OutcomeDisallowAll {
				t.Errorf("the reader: %+v, %v; want its own policy's disallow-all", d, err)
			}
		})
	}
	t.Run("an outage of 503s", func(t *testing.T) {
		// The allow-all of WithUnreachableAllowAfter.
		s := newSite(t, serve(503, "down"))
		clock := newTestClock()
		opts := []Option{WithStore(newMemStore()), WithClock(clock.Now), WithMaxFreshness(30 * time.Minute), WithUnreachableAllowAfter(time.Hour)}
		outageAllowed(t, newTestClient(t, opts...), clock, s.URL+"/private/x")
		reader := newTestClient(t, append(opts, WithStatusPolicy(strict5xx))...)
		if d, err := reader.Check(context.Background(), s.URL+"/private/x"); d.Allowed || d.Outcome != OutcomeDisallowAll {
			t.Errorf("the reader: %+v, %v; want its own policy's disallow-all", d, err)
		}
	})
	t.Run("an outage of 503s, then no response", func(t *testing.T) {
		// The Store keeps the last failure's status, not the 503s.
		var down atomic.Int32
		down.Store(2)
		clock := newTestClock()
		opts := []Option{WithHTTPClient(&http.Client{Transport: failing(serve(200, privateRules), &down)}), WithStore(newMemStore()),
			WithClock(clock.Now), WithMaxFreshness(30 * time.Minute), WithUnreachableAllowAfter(time.Hour)}
		writer := newTestClient(t, opts...)
		const u = "http://site.test/private/x"
		for start := clock.Now(); clock.Now().Sub(start) < 50*time.Minute; {
			d, _ := writer.Check(context.Background(), u)
			clock.Advance(d.Expires.Sub(clock.Now()))
		}
		down.Store(1)
		outageAllowed(t, writer, clock, u)
		reader := newTestClient(t, append(opts, WithStatusPolicy(strict5xx))...)
		if d, err := reader.Check(context.Background(), u); d.Allowed {
			t.Errorf("the reader: %+v, %v; want no allow-all: its outage began with the DNS failure", d, err)
		}
	})
	t.Run("the reader's copy for another's 503", func(t *testing.T) {
		s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
		clock := newTestClock()
		store := newMemStore()
		ctx := context.Background()
		reader := newTestClient(t, WithClock(clock.Now), WithStore(store), WithStatusPolicy(strict5xx))
		if ok, err := reader.Allowed(ctx, s.URL+"/public"); !ok || err != nil {
			t.Fatalf("the reader, the site up: %v, %v", ok, err)
		}
		clock.Advance(2 * time.Minute)
		s.set(serve(503, "down"))
		store.clearValues() // the writer has no copy to stand in
		writer := newTestClient(t, WithClock(clock.Now), WithStore(store))
		if d, err := writer.Check(ctx, s.URL+"/public"); !d.Deferred {
			t.Fatalf("the writer: %+v, %v; want deferred", d, err)
		}
		if d, err := reader.Check(ctx, s.URL+"/public"); d.Allowed || d.Outcome != OutcomeDisallowAll {
			t.Errorf("the reader: %+v, %v; want its own policy's disallow-all", d, err)
		}
	})
}

// panicAfterLease is a Store whose Get panics once, the first time after
// a lease was taken.
type panicAfterLease struct {
	*memStore
	leased, armed atomic.Bool
}

func (p *panicAfterLease) Get(ctx context.Context, key string) ([]byte, error) {
	if p.leased.Load() && p.armed.CompareAndSwap(true, false) {
		panic("boom in the caller's Store, after the lease")
	}
	return p.memStore.Get(ctx, key)
}

func (p *panicAfterLease) Lease(ctx context.Context, key string, ttl time.Duration) (func(), bool, error) {
	release, got, err := p.memStore.Lease(ctx, key, ttl)
	if got {
		p.leased.Store(true)
	}
	return release, got, err
}

// TestLeaseGivenBackAfterLookPanics: a panic in the Store's look that
// follows the taking of a lease gives the lease back: it was held for its
// TTL, and every process's check of the site waited the lease wait.
func TestLeaseGivenBackAfterLookPanics(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	ms := newMemStore()
	st := &panicAfterLease{memStore: ms}
	st.armed.Store(true)
	a := newTestClient(t, WithStore(st))
	func() {
		defer func() {
			if v := recover(); v == nil {
				t.Error("the Store's panic did not reach the check")
			}
		}()
		_, _ = a.Allowed(context.Background(), s.URL+"/x")
	}()
	ms.mu.Lock()
	n := len(ms.leases)
	ms.mu.Unlock()
	if n != 0 {
		t.Errorf("%d leases held after the panic, want none", n)
	}
}

// TestStoreFailureKeepsItsClasses: a process that reads a failure from
// the Store tells it apart with errors.Is and errors.As as the process
// that fetched it does (a timeout, a refused connection, a name not
// found), so that two processes of one fleet act alike on it.
func TestStoreFailureKeepsItsClasses(t *testing.T) {
	store := newMemStore()

	// A robots.txt that answers after the fetch timeout: the fetch times out.
	slow := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	// A port nobody listens on: the connection is refused.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	_ = ln.Close()

	// A name that does not resolve, as a resolver says it (no name
	// reaches the system's resolver: the dialer answers for it).
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		switch host, _, _ := net.SplitHostPort(addr); host {
		case "gone.test":
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		case "bare.test": // a dialer that wraps the errno in no *net.OpError
			return nil, fmt.Errorf("dial %s: %w", addr, syscall.ECONNREFUSED)
		}
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	opts := []Option{WithHTTPClient(&http.Client{Transport: tr}), WithStore(store), WithFetchTimeout(300 * time.Millisecond)}
	a := NewClient(opts...)
	b := NewClient(opts...)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	ctx := context.Background()

	type probe struct {
		name string
		is   func(error) bool
	}
	timeout := probe{"a timeout (errors.Is context.DeadlineExceeded, or a net.Error with Timeout)", func(err error) bool {
		var ne net.Error
		return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
	}}
	conn := probe{"a refused connection (errors.Is syscall.ECONNREFUSED, errors.As *net.OpError)", func(err error) bool {
		var op *net.OpError
		return errors.Is(err, syscall.ECONNREFUSED) && errors.As(err, &op)
	}}
	gone := probe{"a name not found (errors.As *net.DNSError with IsNotFound)", func(err error) bool {
		var dns *net.DNSError
		return errors.As(err, &dns) && dns.IsNotFound
	}}
	for _, tc := range []struct {
		url string
		p   probe
		is  bool // what the fetching process's copy answers
	}{
		{slow.URL + "/page", timeout, true},
		{refused + "/page", conn, true},
		{"http://gone.test/page", gone, true},
		{"http://bare.test/page", conn, false},
	} {
		da, errA := a.Check(ctx, tc.url)
		var de *DeferredError
		if !errors.As(errA, &de) || !da.Deferred {
			t.Fatalf("%s: fetching process: %+v, %v; want a deferral", tc.url, da, errA)
		}
		if tc.p.is(de.Err) != tc.is {
			t.Fatalf("%s: the fetching process's DeferredError.Err %v is %s: %v", tc.url, de.Err, tc.p.name, !tc.is)
		}
		db, errB := b.Check(ctx, tc.url)
		var deB *DeferredError
		if !errors.As(errB, &deB) || !db.Deferred {
			t.Fatalf("%s: reading process: %+v, %v; want a deferral", tc.url, db, errB)
		}
		if st := b.Stats().Store; st.Hits == 0 {
			t.Fatalf("%s: the reading process did not take the Store's entry: %+v", tc.url, st)
		}
		if tc.p.is(deB.Err) != tc.is || tc.p.is(db.Err) != tc.is {
			t.Errorf("%s: the process that read the failure from the Store has DeferredError.Err %q (%T), Decision.Err %T, which answers otherwise than the process that fetched it, %q (%T), whether it is %s",
				tc.url, deB.Err, deB.Err, db.Err, de.Err, de.Err, tc.p.name)
		}
	}
}

// TestStoreKeepsOutageStart: an outage counts from the first failure any
// process sharing the Store recorded (WithUnreachableAllowAfter), however
// far apart the fetches: the Store keeps a robots.txt failure for that
// limit, not only its back-off, so that another process, or this one
// restarted, asking first 30 days on does not start the outage anew.
func TestStoreKeepsOutageStart(t *testing.T) {
	checkLeaks(t)
	const day = 24 * time.Hour
	ctx := context.Background()
	store := newMemStore() // expires by the wall clock
	clock := newTestClock()
	s := newSite(t, serve(503, "down"))
	opts := []Option{WithStore(store), WithClock(clock.Now),
		WithBackoff(50*time.Millisecond, 100*time.Millisecond), // the Store keeps a failure 1 s (the least TTL)
		WithUnreachableAllowAfter(30 * day)}
	a := newTestClient(t, opts...)
	u := s.URL + "/x"
	if d, _ := a.Check(ctx, u); d.Allowed || !d.Deferred {
		t.Fatalf("first failure: %+v; want deferred", d)
	}
	clock.Advance(15 * day)
	if d, _ := a.Check(ctx, u); d.Allowed || !d.Deferred {
		t.Fatalf("after 15 days: %+v; want deferred", d)
	}
	time.Sleep(1200 * time.Millisecond) // the Store's TTL of the failure passes
	clock.Advance(15*day + time.Hour)
	b := newTestClient(t, opts...) // another process, or this one restarted
	db, errB := b.Check(ctx, u)    // b asks first, then a, which recorded the first failure
	da, errA := a.Check(ctx, u)
	t.Logf("process a: allowed %v outcome %v failures %d err %v", da.Allowed, da.Outcome, da.Failures, errA)
	t.Logf("process b: allowed %v outcome %v failures %d err %v", db.Allowed, db.Outcome, db.Failures, errB)
	// Alone (no Store), a answers allow-all here (as when a asks first).
	if !da.Allowed || !db.Allowed {
		t.Errorf("30 days and an hour after the first failure, which a stored: a allowed=%v (%d failures), b allowed=%v (%d failures); want both allowed",
			da.Allowed, da.Failures, db.Allowed, db.Failures)
	}
}

// TestStoreLeaseWaitersOfSiteNoLongerRedirecting: the Store holds
// a.test's expired result from when its robots.txt redirected to a CDN
// path (a hop checked with the writer's policies, which no Client reads).
// a.test now serves its own robots.txt, slowly. Four processes miss it at
// once: the lease holder fetches and publishes a result all read, which
// the others wait for, rather than each fetching as they do while the
// stored result is one none reads.
func TestStoreLeaseWaitersOfSiteNoLongerRedirecting(t *testing.T) {
	checkLeaks(t)
	var redirecting atomic.Bool
	redirecting.Store(true)
	var own atomic.Int32
	w := newHosts(t)
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if redirecting.Load() {
			http.Redirect(rw, r, "http://cdn.test/a-robots.txt", http.StatusMovedPermanently)
			return
		}
		own.Add(1)
		time.Sleep(500 * time.Millisecond)
		_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /private\n")
	})
	w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("cdn.test/a-robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	store := newMemStore()
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	first := newTestClient(t, WithStore(store), WithClock(clock), WithMaxFreshness(time.Hour),
		WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	if ok, err := first.Allowed(context.Background(), "http://a.test/private"); ok || err != nil {
		t.Fatalf("first: %v, %v", ok, err)
	}
	// Two hours on, the site serves its robots.txt itself.
	offset.Store(int64(2 * time.Hour))
	redirecting.Store(false)
	var wg sync.WaitGroup
	for i := range 4 {
		c := newTestClient(t, WithStore(store), WithClock(clock), WithMaxFreshness(time.Hour),
			WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		wg.Go(func() {
			if i > 0 {
				time.Sleep(100 * time.Millisecond) // the first one takes the lease
			}
			if ok, err := c.Allowed(context.Background(), "http://a.test/private"); ok || err != nil {
				t.Errorf("process %d: %v, %v; want disallowed", i, ok, err)
			}
		})
	}
	wg.Wait()
	if n := own.Load(); n != 1 {
		t.Errorf("a.test's own robots.txt fetched %d times by 4 processes, want the lease holder's alone", n)
	}
}

// goneDisallows is an error policy that reads a name that no longer
// resolves as "crawl nothing", and any other failure with no response as
// the default, unreachable: a policy that tells failures apart with
// errors.As, as WithErrorPolicy's doc describes.
func goneDisallows(err error) Outcome {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return OutcomeDisallowAll
	}
	return OutcomeUnreachable
}

// disallowsOn returns an error policy that reads as disallow-all a
// failure of which is reports true, and any other as the default,
// unreachable: a policy that tells failures apart with errors.As.
func disallowsOn(is func(error) bool) func(error) Outcome {
	return func(err error) Outcome {
		if is(err) {
			return OutcomeDisallowAll
		}
		return OutcomeUnreachable
	}
}

// policyFailures are failures with no response, each with an error
// policy that reads exactly it as disallow-all: a name gone, a
// certificate of an unknown authority (an interception proxy, say), one
// expired, a TLS alert the server sent, and failures of no class the
// Store keeps but of a kind, as net/http reports them in a dial's
// *net.OpError: a resolver that fails (not a name not found), a dial
// that timed out, a name not found read as a dial's failure, a dial of
// the HTTP client's proxy that timed out, its name not found or its
// certificate of an unknown authority, a read that timed out and a
// write to a closed connection.
func policyFailures() []struct {
	name   string
	err    func(host string) error
	policy func(error) Outcome
} {
	return []struct {
		name   string
		err    func(host string) error
		policy func(error) Outcome
	}{
		{"name gone", func(host string) error { return &net.DNSError{Err: "no such host", Name: host, IsNotFound: true} }, goneDisallows},
		{"unknown authority",
			func(string) error { return &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}} },
			disallowsOn(func(err error) bool { var ua x509.UnknownAuthorityError; return errors.As(err, &ua) })},
		{"expired",
			func(string) error {
				return &tls.CertificateVerificationError{Err: x509.CertificateInvalidError{Reason: x509.Expired}}
			},
			disallowsOn(func(err error) bool {
				var ie x509.CertificateInvalidError
				return errors.As(err, &ie) && ie.Reason == x509.Expired
			})},
		{"alert", // as crypto/tls reports one over TCP
			func(string) error { return &net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")} },
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "remote error" })},
		{"resolver failing",
			func(host string) error {
				return &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: host, IsTemporary: true}}
			},
			disallowsOn(func(err error) bool { var dns *net.DNSError; return errors.As(err, &dns) && dns.IsTemporary })},
		{"dial timeout",
			func(string) error {
				return &net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{errors.New("i/o timeout")}}
			},
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "dial" })},
		{"name not found in a dial",
			func(host string) error {
				return &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
			},
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "dial" })},
		{"proxy dial timeout", // as net/http reports a dial of its proxy
			func(string) error {
				return &net.OpError{Op: "proxyconnect", Net: "tcp",
					Err: &net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{errors.New("i/o timeout")}}}
			},
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "proxyconnect" })},
		{"proxy not found", // the proxy's name, as net/http reports it
			func(string) error {
				return &net.OpError{Op: "proxyconnect", Net: "tcp",
					Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "proxy.test", IsNotFound: true}}}
			},
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "proxyconnect" })},
		{"proxy of an unknown authority", // an https proxy's handshake
			func(string) error {
				return &net.OpError{Op: "proxyconnect", Net: "tcp", Err: &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}}
			},
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "proxyconnect" })},
		{"read timed out",
			func(string) error {
				return fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w",
					&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ETIMEDOUT)})
			},
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) })},
		{"write broken pipe",
			func(string) error {
				return fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w",
					&net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EPIPE)})
			},
			disallowsOn(func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "write" })},
	}
}

// TestStoreErrorPolicyOfStoredStandIn: a writer of the default error
// policy stores a last good copy standing in for a failure with no
// response. A reader whose error policy reads exactly that failure as
// disallow-all answers, alone, disallow-all, and sharing the Store too:
// its policy is asked of what the Store keeps of the failure, its
// classes and its kind (TLS, resolver, dial); asked of an error holding
// neither, the reader took the stand-in, /public allowed.
func TestStoreErrorPolicyOfStoredStandIn(t *testing.T) {
	ctx := context.Background()
	const u = "http://site.test/public"
	for _, tc := range policyFailures() {
		run := func(shared bool) Decision {
			clock := newTestClock()
			var down atomic.Bool
			up := serve(200, privateRules, "Cache-Control", "max-age=60")
			hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				if down.Load() {
					return nil, tc.err(r.URL.Hostname())
				}
				rec := httptest.NewRecorder()
				up.ServeHTTP(rec, r)
				resp := rec.Result()
				resp.Request = r
				return resp, nil
			})}
			reader := []Option{WithHTTPClient(hc), WithClock(clock.Now), WithErrorPolicy(tc.policy)}
			if shared {
				store := newMemStore()
				writer := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), WithStore(store))
				if ok, err := writer.Allowed(ctx, u); !ok || err != nil {
					t.Fatalf("%s: the writer, the site up: %v, %v", tc.name, ok, err)
				}
				clock.Advance(2 * time.Minute)
				down.Store(true)
				if d, err := writer.Check(ctx, u); !d.Stale || !d.Allowed {
					t.Fatalf("%s: the writer, the site failing: %+v, %v; want its copy standing in", tc.name, d, err)
				}
				d, _ := newTestClient(t, append(reader, WithStore(store))...).Check(ctx, u)
				return d
			}
			// The reader alone: it fetched the file itself, then the site failed.
			alone := newTestClient(t, reader...)
			if ok, err := alone.Allowed(ctx, u); !ok || err != nil {
				t.Fatalf("%s: the reader alone, the site up: %v, %v", tc.name, ok, err)
			}
			clock.Advance(2 * time.Minute)
			down.Store(true)
			d, _ := alone.Check(ctx, u)
			return d
		}
		alone := run(false)
		if alone.Allowed || alone.Outcome != OutcomeDisallowAll {
			t.Fatalf("%s: control: the reader alone answers %+v; want its policy's disallow-all", tc.name, alone)
		}
		if d := run(true); d.Allowed || d.Outcome != OutcomeDisallowAll {
			t.Errorf("%s: the reader sharing the Store: allowed=%v outcome=%v stale=%v err=%v; alone it answers disallow-all",
				tc.name, d.Allowed, d.Outcome, d.Stale, d.Err)
		}
	}
}

// TestStoreErrorPolicyOfStoredOutage: with WithUnreachableAllowAfter,
// a writer of the default error policy whose site has failed for an
// hour allows all. A reader with the same limit whose error policy reads
// such a failure as disallow-all does not take that allow-all from the
// Store, as alone it disallows all: of the kind of a failure too (TLS,
// resolver, dial), which the Store keeps of the outage's last failure
// only.
func TestStoreErrorPolicyOfStoredOutage(t *testing.T) {
	ctx := context.Background()
	const u = "http://gone.test/private/x"
	for _, tc := range policyFailures() {
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return nil, tc.err(r.URL.Hostname())
		})}
		clock := newTestClock()
		alone := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), WithUnreachableAllowAfter(time.Hour),
			WithErrorPolicy(tc.policy))
		if d, _ := alone.Check(ctx, u); d.Allowed || d.Outcome != OutcomeDisallowAll {
			t.Fatalf("%s: control: the reader alone answers %+v; want its policy's disallow-all", tc.name, d)
		}
		store := newMemStore()
		opts := []Option{WithHTTPClient(hc), WithStore(store), WithClock(clock.Now), WithMaxFreshness(30 * time.Minute), WithUnreachableAllowAfter(time.Hour)}
		outageAllowed(t, newTestClient(t, opts...), clock, u)
		reader := newTestClient(t, append(opts, WithErrorPolicy(tc.policy))...)
		if d, err := reader.Check(ctx, u); d.Allowed || d.Outcome != OutcomeDisallowAll {
			t.Errorf("%s: the reader sharing the Store: allowed=%v outcome=%v err=%v; alone it disallows all", tc.name, d.Allowed, d.Outcome, err)
		}
	}
}

// TestStoreOutageEarlierFailureKind: an outage's last failure, which the
// Store keeps, is a name not found; an earlier one may have been an
// expired certificate, or a timeout, which the reader's policy reads as
// disallow-all: the reader does not take the writer's outage allow-all,
// as it asks its policy of every class and kind of failure the Store
// does not keep.
func TestStoreOutageEarlierFailureKind(t *testing.T) {
	const u = "http://gone.test/private/x"
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
	})}
	for name, disallows := range map[string]func(error) bool{
		"an expired certificate": func(err error) bool {
			var ie x509.CertificateInvalidError
			return errors.As(err, &ie) && ie.Reason == x509.Expired
		},
		"a timeout": func(err error) bool { var ne net.Error; return errors.As(err, &ne) && ne.Timeout() },
	} {
		clock := newTestClock()
		opts := []Option{WithHTTPClient(hc), WithStore(newMemStore()), WithClock(clock.Now),
			WithMaxFreshness(30 * time.Minute), WithUnreachableAllowAfter(time.Hour)}
		outageAllowed(t, newTestClient(t, opts...), clock, u)
		reader := newTestClient(t, append(opts, WithErrorPolicy(disallowsOn(disallows)))...)
		if d, err := reader.Check(context.Background(), u); d.Allowed {
			t.Errorf("the reader took the stored outage allow-all: %+v, %v; its policy disallows all for %s", d, err, name)
		}
	}
}

// TestStoreOutageStartOutlivesAStricterMember: a member whose error
// policy reads some failure as disallow-all does not take the fleet's
// outage allow-all (see TestStoreOutageEarlierFailureKind) and counts
// from its own first failure; but what it writes to the Store keeps the
// fleet's start, which it once replaced with its own: a member joining,
// or restarted, with the options of every other, made them all defer
// the site for another WithUnreachableAllowAfter (store86).
func TestStoreOutageStartOutlivesAStricterMember(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(503, "down"))
	u := s.URL + "/x"
	clock := newTestClock()
	opts := []Option{WithClock(clock.Now), WithStore(newMemStore()), WithUnreachableAllowAfter(time.Hour),
		WithErrorPolicy(disallowsOn(func(err error) bool {
			var ie x509.CertificateInvalidError
			return errors.As(err, &ie) && ie.Reason == x509.Expired
		}))}
	if d := joinTwoHoursIn(t, clock, u, newTestClient(t, opts...), newTestClient(t, opts...)); d.Allowed {
		t.Errorf("the member joining took the fleet's allow-all: %+v", d)
	}
}

// joinTwoHoursIn has a check u through the first two hours of an outage
// of a one-hour WithUnreachableAllowAfter, until it allows all; then
// joiner joins, whose first Decision it returns: for the next 84
// minutes, joiner checking beside it, a must go on allowing all, the
// outage having begun when the fleet saw it.
func joinTwoHoursIn(t *testing.T, clock *testClock, u string, a, joiner *Client) Decision {
	t.Helper()
	ctx := context.Background()
	start := clock.Now()
	for clock.Now().Sub(start) < 2*time.Hour {
		d, _ := a.Check(ctx, u)
		clock.Advance(d.Expires.Sub(clock.Now()))
	}
	if d, _ := a.Check(ctx, u); !d.Allowed {
		t.Fatalf("two hours into a one-hour outage: %+v; want allowed", d)
	}
	joined, _ := joiner.Check(ctx, u)
	for range 12 {
		clock.Advance(7 * time.Minute)
		_, _ = joiner.Check(ctx, u)
		if d, err := a.Check(ctx, u); !d.Allowed {
			t.Fatalf("%v into the outage, after a member joined: deferred, %d failures (%v); want allowed", clock.Now().Sub(start), d.Failures, err)
		}
	}
	return joined
}

// TestStoreOutageStartAfterAnAnswer: the stricter member remembers an
// outage begun at 0; the site then answers another member (rules at
// 10m) and fails anew at 20m, with a failure the stricter member's
// policy does not take from the Store. Its next failure, at 25m, goes on
// from the outage begun at 20m, in the Store and in its own answer, not
// from its own at 0, which let every member allow all 41 minutes into a
// one-hour WithUnreachableAllowAfter (review154, review155); so too when
// its write at 25m failed, its memory then newer than the Store's
// record, though it heard no answer.
func TestStoreOutageStartAfterAnAnswer(t *testing.T) {
	for _, tc := range []struct {
		setFails bool
		window   time.Duration // 2 h: the copy another member stood in still stands in the Store (review156)
	}{{false, 15 * time.Minute}, {true, 15 * time.Minute}, {false, 2 * time.Hour}} {
		setFails := tc.setFails
		checkLeaks(t)
		ctx := context.Background()
		var mode atomic.Value
		mode.Store("503")
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			switch mode.Load().(string) {
			case "ok":
				return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/plain"}},
					Body: io.NopCloser(strings.NewReader(privateRules)), Request: r}, nil
			case "cert":
				return nil, &tls.CertificateVerificationError{Err: x509.CertificateInvalidError{Reason: x509.Expired}}
			}
			return &http.Response{StatusCode: 503, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("down")), Request: r}, nil
		})}
		clock := newTestClock()
		start := clock.Now()
		store := &failingSets{memStore: newMemStore()}
		opts := []Option{WithHTTPClient(hc), WithClock(clock.Now), WithStore(store), WithUnreachableAllowAfter(time.Hour),
			WithMaxFreshness(5 * time.Minute), WithStaleWindow(tc.window)}
		a := newTestClient(t, opts...)
		strict := newTestClient(t, append(opts, WithErrorPolicy(disallowsOn(func(err error) bool {
			var ie x509.CertificateInvalidError
			return errors.As(err, &ie) && ie.Reason == x509.Expired
		})))...)
		const u = "http://a.test/private/x"
		at := func(d time.Duration, m string, c *Client) Decision {
			clock.Advance(start.Add(d).Sub(clock.Now()))
			mode.Store(m)
			d2, _ := c.Check(ctx, u)
			return d2
		}
		at(0, "503", strict)
		at(10*time.Minute, "ok", a)
		at(20*time.Minute, "cert", a)
		store.failing.Store(setFails)
		at(25*time.Minute, "503", strict)
		store.failing.Store(false)
		at(30*time.Minute, "503", strict)
		for _, m := range []time.Duration{40, 50, 61, 70} {
			members := map[string]*Client{"another member": a, "the stricter member": strict}
			if tc.window > 15*time.Minute {
				delete(members, "another member") // whose own fetches would renew the Store's record
			}
			for name, c := range members {
				if d := at(m*time.Minute, "503", c); d.Allowed {
					t.Errorf("Set failing %v, stale window %v: %s: %v into an outage begun at 20m, the site's rules seen at 10m: allowed all; want deferred until 80m",
						setFails, tc.window, name, m*time.Minute-20*time.Minute)
				}
			}
		}
	}
}

// failingSets is a memStore whose Sets fail while failing is set.
type failingSets struct {
	*memStore
	failing atomic.Bool
}

func (s *failingSets) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	if s.failing.Load() {
		return errors.New("test: the Store timed out")
	}
	return s.memStore.Set(ctx, key, v, ttl)
}

// TestStoreStandInOutlivesAStricterMember: a member that does not take
// the fleet's last good copy, standing in through an outage (its error
// policy reads the copy's failure as disallow-all), fetches itself and
// fails: what it writes keeps that copy standing in, which it once
// replaced with its bare failure, an outage's allow-all once it went on
// from the fleet's start: every member without the copy in memory then
// allowed what it disallows (cache87); so does a member whose stale
// window no longer covers the copy, which once wrote its bare failure
// (review156).
func TestStoreStandInOutlivesAStricterMember(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://site.test/private/x"
	for name, strict := range map[string][]Option{
		"an error policy stricter": {WithErrorPolicy(goneDisallows)},
		"a shorter stale window":   {WithStaleWindow(10 * time.Minute)},
	} {
		var mode atomic.Value
		mode.Store("up")
		rt := siteFailing(&mode, false)
		clock := newTestClock()
		opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithStore(newMemStore()), WithClock(clock.Now),
			WithUnreachableAllowAfter(time.Hour)}
		r := newTestClient(t, opts...)
		goneFor(t, clock, &mode, r, u, 2*time.Hour)
		mode.Store("503")
		_, _ = newTestClient(t, append(opts, strict...)...).Check(ctx, u)
		for range 3 { // new members, an hour apart, the site still failing
			if d, _ := newTestClient(t, opts...).Check(ctx, u); d.Allowed || !d.Stale {
				t.Errorf("%s: a new member after the stricter one: allowed %v, stale %v; want the fleet's copy standing in", name, d.Allowed, d.Stale)
			}
			clock.Advance(time.Hour)
		}
	}
}

// TestStoreStandInPastItsWindow: once the last good copy is past the
// stale window, a member's answer is the outage's allow-all, and so is
// what it writes: the copy written back standing in, which every reader
// refuses as older than its window, made a member joining count the
// outage from its first failure (review155).
func TestStoreStandInPastItsWindow(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://site.test/private/x"
	var mode atomic.Value
	mode.Store("up")
	rt := siteFailing(&mode, false)
	clock := newTestClock()
	opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithStore(newMemStore()), WithClock(clock.Now),
		WithStaleWindow(time.Hour), WithUnreachableAllowAfter(30 * time.Minute)}
	r := newTestClient(t, opts...)
	goneFor(t, clock, &mode, r, u, 3*time.Hour)
	if d, _ := r.Check(ctx, u); !d.Allowed {
		t.Fatalf("3 h into the outage, the copy past its 1 h window: %+v; want allowed", d)
	}
	if d, err := newTestClient(t, opts...).Check(ctx, u); !d.Allowed {
		t.Errorf("a member joining 3 h into the outage: %+v, %v; want the fleet's allow-all", d, err)
	}
}

// TestStoreStandInOfALongerWindow: a member whose stale window (3 h)
// is longer than the fleet's (1 h) writes the fleet's copy standing in
// past the fleet's window, which every fleet reader once refused as a
// miss: a member joining 90 minutes into the outage (allow-all after
// 30 minutes) counted it from its own first failure and deferred, as
// the fleet allowed all (review156). A reader takes such a copy as the
// failure it stands for.
func TestStoreStandInOfALongerWindow(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://site.test/private/x"
	var mode atomic.Value
	mode.Store("up")
	rt := siteFailing(&mode, false)
	clock := newTestClock()
	opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithStore(newMemStore()), WithClock(clock.Now),
		WithStaleWindow(time.Hour), WithUnreachableAllowAfter(30 * time.Minute)}
	r := newTestClient(t, opts...)
	start := goneFor(t, clock, &mode, r, u, 50*time.Minute)
	if d, _ := newTestClient(t, append(opts, WithStaleWindow(3*time.Hour))...).Check(ctx, u); d.Allowed || !d.Stale {
		t.Fatalf("the longer window's member: %+v; want the copy standing in", d)
	}
	clock.Advance(start.Add(90 * time.Minute).Sub(clock.Now()))
	if d, err := newTestClient(t, opts...).Check(ctx, u); !d.Allowed {
		t.Errorf("a member joining 90m into the outage: %+v, %v; want the fleet's allow-all", d, err)
	}
	if d, _ := r.Check(ctx, u); !d.Allowed {
		t.Errorf("the fleet member with memory, 90m in: %+v; want allowed", d)
	}
}

// TestStoreStandInPastTheWindowByErrorPolicy: a copy standing in past
// the reader's stale window for a failure with no response is the
// failure as the reader's own error policy reads it: a name gone, which
// a fleet's policy reads as allow-all, allows all, as the reader does
// alone, where it once deferred (review157).
func TestStoreStandInPastTheWindowByErrorPolicy(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://site.test/private/x"
	var mode atomic.Value
	mode.Store("up")
	rt := siteFailing(&mode, false)
	clock := newTestClock()
	start := clock.Now()
	nameGoneAllows := func(err error) Outcome {
		if dns := (*net.DNSError)(nil); errors.As(err, &dns) && dns.IsNotFound {
			return OutcomeAllowAll
		}
		return OutcomeUnreachable
	}
	opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithStore(newMemStore()), WithClock(clock.Now),
		WithErrorPolicy(nameGoneAllows), WithStaleWindow(time.Hour)}
	long := newTestClient(t, append(opts, WithStaleWindow(3*time.Hour))...)
	if ok, err := long.Allowed(ctx, u); ok || err != nil {
		t.Fatalf("the site up: %v, %v; want disallowed", ok, err)
	}
	mode.Store("dns")
	for _, m := range []time.Duration{2, 70} {
		clock.Advance(start.Add(m * time.Minute).Sub(clock.Now()))
		if d, _ := long.Check(ctx, u); d.Allowed || !d.Stale {
			t.Fatalf("%v: the longer window's member: %+v; want its copy standing in", m*time.Minute, d)
		}
	}
	clock.Advance(30 * time.Second)
	if d, err := newTestClient(t, opts...).Check(ctx, u); !d.Allowed {
		t.Errorf("a member of a 1 h window, its copy past it: %+v, %v; want allowed, as its error policy reads a name gone", d, err)
	}
}

// TestStoreStandInPastTheWindowAsAlone: a 1 h member joining reads a
// 3 h member's copy standing in (past its window by the failure's
// back-off) as it would answer alone (review160): a refusal (an address
// not public, an answer not read) is unreachable whatever its error
// policy says; a copy younger than its window stands in for an error
// policy's allow-all to the window's end; a failure with no response
// names no redirect of the copy's.
func TestStoreStandInPastTheWindowAsAlone(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://site.test/private/x"
	for _, tc := range []struct {
		failure   string
		policy    func(error) Outcome
		joinAfter time.Duration // from the failure, at 30m
		allowed   bool
	}{
		{"nonpublic", func(error) Outcome { return OutcomeAllowAll }, 40 * time.Minute, false},
		{"badstatus", func(error) Outcome { return OutcomeAllowAll }, 40 * time.Minute, false},
		{"dns", func(error) Outcome { return OutcomeAllowAll }, time.Minute, false},     // the copy, 31m old
		{"dns", func(error) Outcome { return OutcomeAllowAll }, 40 * time.Minute, true}, // past its window
		// review161: an answer cut after its first byte is no failure
		// with no response; one kept by its kind alone is.
		{"cut", func(error) Outcome { return OutcomeAllowAll }, 40 * time.Minute, false},
		{"noroute", func(error) Outcome { return OutcomeAllowAll }, 40 * time.Minute, true},
		{"dnstemp", func(error) Outcome { return OutcomeAllowAll }, 40 * time.Minute, true},
	} {
		var mode atomic.Value
		mode.Store("up")
		rt := siteFailing(&mode, true)
		clock := newTestClock()
		opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithClock(clock.Now), WithStore(newMemStore()),
			WithErrorPolicy(tc.policy), WithBackoff(45*time.Minute, 2*time.Hour), WithStaleWindow(time.Hour)}
		long := newTestClient(t, append(opts, WithStaleWindow(3*time.Hour))...)
		if ok, err := long.Allowed(ctx, u); ok || err != nil {
			t.Fatalf("the site up: %v, %v", ok, err)
		}
		clock.Advance(30 * time.Minute)
		mode.Store(tc.failure)
		_, _ = long.Check(ctx, u)
		clock.Advance(tc.joinAfter)
		d, err := newTestClient(t, opts...).Check(ctx, u)
		if d.Allowed != tc.allowed {
			t.Errorf("%s, joining %v after: %+v, %v; want allowed %v", tc.failure, tc.joinAfter, d, err, tc.allowed)
		}
		if d.Allowed && (d.FinalURL != "" || len(d.Redirects()) != 0) {
			t.Errorf("%s: the failure names the copy's redirects: %q, %v", tc.failure, d.FinalURL, d.Redirects())
		}
	}
}

// TestStoreStandInOutlivesAShorterWindowFirst: under an error policy
// that allows all for a name gone, a member of a 1 h window, first to
// ask the site again at the failure's back-off's end, wrote its bare
// allow-all over the fleet's copy: a 3 h member joining then allowed
// what its copy, alone, disallows (review161).
func TestStoreStandInOutlivesAShorterWindowFirst(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://site.test/private/x"
	var mode atomic.Value
	mode.Store("up")
	rt := siteFailing(&mode, false)
	clock := newTestClock()
	start := clock.Now()
	opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithClock(clock.Now), WithStore(newMemStore()),
		WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll }), WithBackoff(45*time.Minute, 2*time.Hour)}
	long := newTestClient(t, append(opts, WithStaleWindow(3*time.Hour))...)
	if ok, err := long.Allowed(ctx, u); ok || err != nil {
		t.Fatalf("the site up: %v, %v", ok, err)
	}
	clock.Advance(30 * time.Minute)
	mode.Store("dns")
	_, _ = long.Check(ctx, u)
	clock.Advance(time.Minute)
	short := newTestClient(t, append(opts, WithStaleWindow(time.Hour))...)
	_, _ = short.Check(ctx, u)
	clock.Advance(start.Add(75 * time.Minute).Sub(clock.Now()))
	_, _ = short.Check(ctx, u) // first at the back-off's end
	clock.Advance(time.Minute)
	if d, err := newTestClient(t, append(opts, WithStaleWindow(3*time.Hour))...).Check(ctx, u); d.Allowed || !d.Stale {
		t.Errorf("a 3 h member joining after the 1 h one asked again: %+v, %v; want the fleet's copy standing in", d, err)
	}
}

// TestStoreOutageJoinedWhileTheStoreWasDown: a member joining an
// outage begun at 0 while the Store fails for a minute counts its own
// from 30m; its next failure, the Store back, goes on from the fleet's
// start: an outage of its own begun after the Store's record is no
// answer the Store missed, and once deferred every member to 90m
// (review156).
func TestStoreOutageJoinedWhileTheStoreWasDown(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	store := newMemStore()
	down := func(on bool) {
		store.mu.Lock()
		defer store.mu.Unlock()
		store.fail = nil
		if on {
			store.fail = errors.New("test: the Store is down")
		}
	}
	clock := newTestClock()
	start := clock.Now()
	opts := []Option{WithHTTPClient(&http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 503, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("down")), Request: r}, nil
	})}), WithClock(clock.Now), WithStore(store), WithUnreachableAllowAfter(time.Hour), WithBackoff(time.Minute, 5*time.Minute)}
	a, j := newTestClient(t, opts...), newTestClient(t, opts...)
	const u = "http://a.test/private/x"
	at := func(d time.Duration, c *Client) Decision {
		clock.Advance(start.Add(d).Sub(clock.Now()))
		d2, _ := c.Check(ctx, u)
		return d2
	}
	for m := time.Duration(0); m <= 25; m += 5 {
		at(m*time.Minute, a)
	}
	down(true)
	at(30*time.Minute, j)
	down(false)
	at(40*time.Minute, j)
	for _, m := range []time.Duration{61, 70} {
		// In this order: the member that joined, asking first, answers
		// by its own count, from 30m (left open: it takes the Store's
		// start only when that is the later).
		for _, c := range []struct {
			name string
			c    *Client
		}{{"the first member", a}, {"a member joining", newTestClient(t, opts...)}, {"the member that joined", j}} {
			if d := at(m*time.Minute, c.c); !d.Allowed {
				t.Errorf("%s, %v into an outage begun at 0: %+v; want allowed, after an hour", c.name, m*time.Minute, d)
			}
		}
	}
}

// goneFor has r read u's site up (u disallowed), then, two minutes on,
// its name gone for d, r asking again at each expiry, and returns when
// the outage began.
func goneFor(t *testing.T, clock *testClock, mode *atomic.Value, r *Client, u string, d time.Duration) time.Time {
	t.Helper()
	ctx := context.Background()
	if ok, err := r.Allowed(ctx, u); ok || err != nil {
		t.Fatalf("the site up: %v, %v; want disallowed", ok, err)
	}
	clock.Advance(2 * time.Minute)
	mode.Store("dns")
	start := clock.Now()
	for clock.Now().Sub(start) < d {
		dd, _ := r.Check(ctx, u)
		clock.Advance(dd.Expires.Sub(clock.Now()) + time.Second)
	}
	return start
}

// siteFailing answers robots.txt with privateRules, fresh for a minute
// (through a redirect to /r.txt when redirect is set), or, as mode
// says, fails: "dns" (a name gone), "503", "nonpublic" (a guard's
// refusal), "badstatus" (an answer that cannot be read), "cut" (an
// answer cut after its first byte), "noroute", "dnstemp" (a resolver
// that fails).
func siteFailing(mode *atomic.Value, redirect bool) roundTripFunc {
	return func(r *http.Request) (*http.Response, error) {
		switch mode.Load().(string) {
		case "dns":
			return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
		case "503":
			return &http.Response{StatusCode: 503, Request: r, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("down"))}, nil
		case "nonpublic":
			return nil, fmt.Errorf("dial tcp 10.0.0.7:80: %w", ErrNonPublic)
		case "badstatus":
			return &http.Response{StatusCode: 1000, Request: r, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}, nil
		case "cut":
			if tr := httptrace.ContextClientTrace(r.Context()); tr != nil && tr.GotFirstResponseByte != nil {
				tr.GotFirstResponseByte()
			}
			return nil, io.ErrUnexpectedEOF
		case "noroute":
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.EHOSTUNREACH}}
		case "dnstemp":
			return nil, &net.DNSError{Err: "server misbehaving", Name: r.URL.Hostname(), IsTemporary: true}
		}
		if redirect && r.URL.Path == "/robots.txt" {
			return &http.Response{StatusCode: 301, Request: r, Header: http.Header{"Location": {"/r.txt"}}, Body: io.NopCloser(strings.NewReader(""))}, nil
		}
		return &http.Response{StatusCode: 200, Request: r, Header: http.Header{"Cache-Control": {"max-age=60"}},
			Body: io.NopCloser(strings.NewReader(privateRules))}, nil
	}
}

// TestStoreStandInAfterARetryAfter: a 503 whose Retry-After outlasts
// the last good copy's stale window lets the failure stand, in the
// Store as in memory: the copy written back standing in, to expire with
// its window, had a member joining ask the site before the Retry-After
// ended (review156).
func TestStoreStandInAfterARetryAfter(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://site.test/private/x"
	var mode atomic.Value
	var asked atomic.Int32
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		asked.Add(1)
		switch mode.Load().(string) {
		case "dns":
			return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
		case "503":
			return &http.Response{StatusCode: 503, Request: r, Header: http.Header{"Retry-After": {"3600"}}, Body: io.NopCloser(strings.NewReader("down"))}, nil
		}
		return &http.Response{StatusCode: 200, Request: r, Header: http.Header{"Cache-Control": {"max-age=60"}},
			Body: io.NopCloser(strings.NewReader(privateRules))}, nil
	})
	clock := newTestClock()
	start := clock.Now()
	opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithStore(newMemStore()), WithClock(clock.Now),
		WithStaleWindow(time.Hour), WithUnreachableAllowAfter(2 * time.Hour)}
	a := newTestClient(t, opts...)
	at := func(d time.Duration, m string, c *Client) {
		clock.Advance(start.Add(d).Sub(clock.Now()))
		mode.Store(m)
		_, _ = c.Check(ctx, u)
	}
	at(0, "up", a)
	at(10*time.Minute, "dns", a)
	at(50*time.Minute, "503", a)
	n := asked.Load()
	at(61*time.Minute, "503", newTestClient(t, opts...))
	if asked.Load() != n {
		t.Errorf("a member joining at 61m asked the site, whose Retry-After, given at 50m, runs to 110m")
	}
}

// TestStoreHopOutageStartOutlivesAMember: a site whose robots.txt is a
// file on another site, reached through a checked hop, fails for hours:
// a member joining with the options of the one that reached the
// outage's allow-all writes its failure going on from the fleet's start,
// as for a site's own file (cache87).
func TestStoreHopOutageStartOutlivesAMember(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("http://cdn.test/r/a.txt"))
	w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("cdn.test/r/a.txt", serve(500, "down")) // not a 503, whose hold of a second each fetch would wait out
	const u = "http://a.test/private/x"
	clock := newTestClock()
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithStore(newMemStore()), WithUnreachableAllowAfter(time.Hour)}
	joinTwoHoursIn(t, clock, u, newTestClient(t, opts...), newTestClient(t, opts...))
}

// TestStoreOutagePolicyAskedOnce: a reader of outages' allow-alls asks
// its error policy of every kind of failure once, not at each read (some
// 1,600 calls), and a panic of the policy is not kept as its answer: the
// next read asks again.
func TestStoreOutagePolicyAskedOnce(t *testing.T) {
	ctx := context.Background()
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
	})}
	clock := newTestClock()
	opts := []Option{WithHTTPClient(hc), WithStore(newMemStore()), WithClock(clock.Now), WithMaxFreshness(30 * time.Minute),
		WithUnreachableAllowAfter(time.Hour)}
	writer := newTestClient(t, opts...)
	sites := []string{"http://a.test/x", "http://b.test/x", "http://c.test/x"}
	for _, u := range sites {
		outageAllowed(t, writer, clock, u)
	}
	var calls atomic.Int32
	var panicked atomic.Bool
	reader := newTestClient(t, append(opts, WithErrorPolicy(func(err error) Outcome {
		calls.Add(1)
		var ua x509.UnknownAuthorityError // asked of the outage's every kind only
		if errors.As(err, &ua) && panicked.CompareAndSwap(false, true) {
			panic("the policy's first question of a kind")
		}
		return OutcomeUnreachable
	}))...)
	func() {
		defer func() { _ = recover() }()
		_, _ = reader.Check(ctx, sites[0])
	}()
	if !panicked.Load() {
		t.Fatal("the policy was not asked of the outage")
	}
	if d, err := reader.Check(ctx, sites[1]); !d.Allowed {
		t.Fatalf("after the policy panicked once: %+v, %v; want the stored allow-all, as the policy reads every failure as unreachable", d, err)
	}
	before := calls.Load()
	if d, err := reader.Check(ctx, sites[2]); !d.Allowed {
		t.Fatalf("a third site: %+v, %v", d, err)
	}
	if n := calls.Load() - before; n > 2 {
		t.Errorf("a third site's outage asked the policy %d times; want its answer kept", n)
	}
}

// TestStoreErrorPolicyDisallowAllShared: an error policy's disallow-all,
// a failure, is taken from the Store by a process of the same policy,
// with its failure and back-off, rather than refused as another policy's
// and fetched again; and no good copy of the reader's stands in for it.
func TestStoreErrorPolicyDisallowAllShared(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const u = "http://gone.test/private/x"
	var down atomic.Bool
	var attempts atomic.Int32
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		attempts.Add(1)
		if down.Load() {
			return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
		}
		return &http.Response{StatusCode: http.StatusOK, Request: r, Header: http.Header{"Cache-Control": {"max-age=60"}},
			Body: io.NopCloser(strings.NewReader("User-agent: *\nAllow: /\n"))}, nil
	})
	clock := newTestClock()
	opts := []Option{WithHTTPClient(&http.Client{Transport: rt}), WithStore(newMemStore()), WithClock(clock.Now),
		WithErrorPolicy(goneDisallows), WithBackoff(time.Minute, time.Hour)}
	writer, reader, holder := newTestClient(t, opts...), newTestClient(t, opts...), newTestClient(t, opts...)
	if ok, err := holder.Allowed(ctx, u); !ok || err != nil {
		t.Fatalf("the site up: %v, %v", ok, err)
	}
	clock.Advance(2 * time.Minute) // the holder's copy expired
	down.Store(true)
	if d, _ := writer.Check(ctx, u); d.Allowed || d.Outcome != OutcomeDisallowAll || d.Failures != 1 {
		t.Fatalf("the writer: %+v; want its policy's disallow-all, a failure", d)
	}
	before := attempts.Load()
	for name, c := range map[string]*Client{"a reader": reader, "a reader with a good copy": holder} {
		if d, err := c.Check(ctx, u); d.Allowed || d.Outcome != OutcomeDisallowAll || d.Failures != 1 || d.Stale {
			t.Errorf("%s: %+v, %v; want the stored disallow-all, a failure", name, d, err)
		}
	}
	if n := attempts.Load() - before; n != 0 {
		t.Errorf("the readers sent %d requests within the writer's back-off; want none", n)
	}
}

// TestStoreCutBodyNotRenewedWhole: a writer of a small WithBodyLimit
// stores the first part of a robots.txt. A reader of the default limit
// takes the stored copy as the one to revalidate once it expires: a cut
// body keeps no validators, so the reader's fetch reads the file whole,
// and the Disallow past the writer's limit, as alone it does at its
// first fetch (it sent the ETag, was told 304, and renewed the cut body
// as the file, every day).
func TestStoreCutBodyNotRenewedWhole(t *testing.T) {
	checkLeaks(t)
	h := cutRobots
	ctx := context.Background()
	{
		s := newSite(t, h)
		clock := newTestClock()
		alone := newTestClient(t, WithClock(clock.Now))
		if ok, err := alone.Allowed(ctx, s.URL+"/late"); ok || err != nil {
			t.Fatalf("control: the reader alone: %v, %v; want /late disallowed", ok, err)
		}
	}
	s := newSite(t, h)
	clock := newTestClock()
	store := newMemStore()
	writer := newTestClient(t, WithClock(clock.Now), WithStore(store), WithBodyLimit(100))
	if ok, err := writer.Allowed(ctx, s.URL+"/late"); !ok || err != nil {
		t.Fatalf("the writer of limit 100: %v, %v; want /late allowed (cut)", ok, err)
	}
	reader := newTestClient(t, WithClock(clock.Now), WithStore(store))
	for day := 1; day <= 3; day++ {
		clock.Advance(24 * time.Hour) // far past the writer's copy, and each of the reader's
		d, err := reader.Check(ctx, s.URL+"/late")
		if d.Allowed {
			t.Errorf("day %d: the reader of the default limit: allowed=%v status=%d err=%v (site hits %d); alone it disallows /late",
				day, d.Allowed, d.LastStatus, err, s.hits.Load())
		}
	}
}

// TestStoreTDMRepHopInTheReadersMode: a tdmrep.json that redirects
// within its own site had its hop's path checked with the writer's Mode,
// which a reader's may refuse. Under
//
//	Allow: /$x
//	Disallow: /*x*
//
// ModeRFC9309 allows /$x (the Allow weighs five bytes, /%24x) and Google's
// reading disallows it. A default (Google) reader alone refuses the hop,
// and its receipt reads the site as reserved (train-ai=n); sharing a Store
// with a ModeRFC9309 writer, it does not take the file the writer's hop
// reached (which lifted the reservation): the hop is marked checked.
func TestStoreTDMRepHopInTheReadersMode(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nAllow: /$x\nDisallow: /*x*\n"))
	w.on("b.test/page", serve(200, "page", "Content-Type", "text/plain"))
	w.on("b.test"+tdmrepPath, redirectTo("/$x"))
	w.on("b.test/$x", serve(200, `[{"location": "/", "tdm-reservation": 0}]`))
	receipt := func(store Store, url string, opts ...Option) Receipt { return tdmReceipt(t, w, store, url, opts...) }
	const u = "http://b.test/page"
	own := receipt(nil, u)
	if own.Usage.statement() != "train-ai=n" {
		t.Fatalf("control: the reader's own receipt says %q %q, want train-ai=n", own.Usage.statement(), sigs(own.Signals))
	}
	writerOwn := receipt(nil, u, WithMode(ModeRFC9309))
	store := newMemStore()
	receipt(store, u, WithMode(ModeRFC9309))
	if shared := receipt(store, u); shared.Usage.statement() != own.Usage.statement() {
		t.Errorf("the reader's receipt through the Store says %q %q, its own fetch %q (the RFC 9309 writer's own: %q)",
			shared.Usage.statement(), sigs(shared.Signals), own.Usage.statement(), writerOwn.Usage.statement())
	}
}

// tdmReceipt is the receipt of url fetched through a Transport of a
// Client under WithTDMRep and opts, sharing store unless it is nil.
func tdmReceipt(t *testing.T, w *hosts, store Store, url string, opts ...Option) Receipt {
	t.Helper()
	opts = append([]Option{WithUserAgent(testUA), WithTDMRep()}, opts...)
	if store != nil {
		opts = append(opts, WithStore(store))
	}
	c, tr := NewClientTransport(w.transport(t), opts)
	t.Cleanup(func() { _ = c.Close() })
	resp, body := fetchPage(t, &http.Client{Transport: tr}, url)
	return tr.Receipt(resp, body)
}

// oldCutValue is the Store value a Client of version 11, before a cut
// robots.txt stopped keeping validators, wrote for http://cut.test:80
// after fetching cutSite's robots.txt with WithBodyLimit(100) at
// newTestClock's time: the body cut at 100 bytes, with the file's ETag.
const oldCutValue = "0b12687474703a2f2f6375742e746573743a3830294e8351941958d6010000c8010000e0d40380f89e99aa6580f89e99aa65c0a1a699aa6500042276312200000081808893071e0164150004002a2edb0028610a232070616464696e67ee0a000c0a23207054dc8946"

// cutRobots serves a robots.txt whose "Disallow: /late" lies past byte
// 100, with an ETag it honours.
func cutRobots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("ETag", `"v1"`)
	w.Header().Set("Cache-Control", "max-age=60")
	if r.Header.Get("If-None-Match") == `"v1"` {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write([]byte("User-agent: *\nDisallow: /a\n" + strings.Repeat("# padding\n", 50) + "Disallow: /late\n"))
}

// cutSite is a client whose every host is a site serving cutRobots.
func cutSite(t *testing.T) *http.Client {
	s := newSite(t, cutRobots)
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, s.Listener.Addr().String())
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// TestStoreOldVersionCutCopy: a fleet in a rolling deploy shares a Store
// holding an older build's value, a cut copy with its ETag: of another
// version, it is a miss, and the reader fetches the file whole and obeys
// the Disallow past the old writer's limit, rather than renewing the part
// by 304s as the whole file.
func TestStoreOldVersionCutCopy(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	old, err := hex.DecodeString(oldCutValue)
	if err != nil {
		t.Fatal(err)
	}
	hc := cutSite(t)
	clock := newTestClock()
	store := newMemStore()
	if err := store.Set(ctx, "http://cut.test:80", old, 31*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	reader := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), WithStore(store))
	clock.Advance(24 * time.Hour)
	if d, err := reader.Check(ctx, "http://cut.test/late"); d.Allowed || err != nil || d.ETag != `"v1"` {
		t.Errorf("/late: %+v, %v; want disallowed by the file read whole", d, err)
	}
}

// TestStoreTDMRepReadPastBodyLimit: WithTDMRep reads a tdmrep.json
// whole up to 256 KiB, "whatever WithBodyLimit says of robots.txt", and
// so does a Store's copy: under WithBodyLimit(4 KiB) a tdmrep.json of
// 20 KB that one process stored is read by another, not taken for
// corrupt and fetched again.
func TestStoreTDMRepReadPastBodyLimit(t *testing.T) {
	checkLeaks(t)
	var b strings.Builder
	b.WriteString("[")
	for i := range 200 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"location": "/section-%d/*", "tdm-reservation": 1, "tdm-policy": "https://a.test/policies/%d.json"}`, i, i)
	}
	b.WriteString("]")
	file := b.String()
	w := newHosts(t)
	w.on("a.test/.well-known/tdmrep.json", serve(200, file, "Cache-Control", "max-age=3600"))
	store := newMemStore()
	hc := &http.Client{Transport: w.transport(t)}
	opts := []Option{WithHTTPClient(hc), WithStore(store), WithTDMRep(), WithBodyLimit(4 << 10)}
	c := newTestClient(t, opts...)
	ctx := context.Background()
	if e, err := c.tdmrep(ctx, "http://a.test:80"); err != nil || e.outcome != OutcomeRules {
		t.Fatalf("a.test: %+v, %v; want the file", e, err)
	}
	other := newTestClient(t, opts...)
	if e, err := other.tdmrep(ctx, "http://a.test:80"); err != nil || e.outcome != OutcomeRules {
		t.Fatalf("another Client: %+v, %v; want the file", e, err)
	}
	if n := w.count("http://a.test/.well-known/tdmrep.json"); n != 1 {
		t.Errorf("with the Store, a.test's tdmrep.json of %d bytes fetched %d times, want once: the Store's copy was read under robots.txt's WithBodyLimit", len(file), n)
	}
}

// valueStore is a Store whose every Get returns the value value makes
// for the key asked, and which keeps nothing.
type valueStore struct {
	value func(key string) []byte
	gets  atomic.Int32
}

func (s *valueStore) Get(_ context.Context, key string) ([]byte, error) {
	s.gets.Add(1)
	return s.value(key), nil
}

func (s *valueStore) Set(context.Context, string, []byte, time.Duration) error { return nil }

// storedPrefix is what a value for the robots.txt of authority begins
// with for testCrawler: the version, the key and the crawler.
func storedPrefix(authority string) []byte {
	return binary.LittleEndian.AppendUint64(appendString([]byte{entryVersion}, authority), testCrawler)
}

// FuzzStoreValue gives a Client a Store holding, under the key of a site
// serving privateRules, any value (raw, or the version, key and crawler
// of this Client followed by any bytes, sealed with their checksum: see
// sealed), as a hostile or broken Store may: a value decodeEntry does not
// take is a miss, and the Client fetches the site and answers by its
// rules, with no error; one it takes answers, if the Client does not
// fetch, as its allow-all, disallow-all or rules say; Check and Allowed
// agree, and nothing panics.
func FuzzStoreValue(f *testing.F) {
	s := newSite(f, serve(200, privateRules))
	clock := newTestClock()
	now := clock.Now()
	fresh := func(e *entry) *entry {
		e.fetched, e.checked, e.expires = stampOf(now), stampOf(now), stampOf(now.Add(time.Hour))
		return e
	}
	for _, e := range append(sampleEntries(),
		fresh(&entry{persisted: persisted{outcome: OutcomeDisallowAll, status: 401}}),
		fresh(&entry{persisted: persisted{outcome: OutcomeAllowAll, status: 404}}),
		fresh(withBody(&entry{persisted: persisted{outcome: OutcomeRules, status: 200}}, "User-agent: *\nDisallow: /open\n")),
	) {
		b := encodeEntry(robotsKey(s.URL), e, testCrawler)
		f.Add(false, b[len(storedPrefix(s.URL)):len(b)-4])
	}
	f.Add(true, []byte("garbage"))
	f.Add(true, []byte{})
	f.Add(true, []byte{entryVersion})
	f.Fuzz(func(t *testing.T, raw bool, b []byte) {
		value := func(key string) []byte {
			if raw {
				return b
			}
			return sealed(append(storedPrefix(key), b...))
		}
		store := &valueStore{value: value}
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		c := NewClient(WithHTTPClient(&http.Client{Transport: tr}), WithStore(store), WithClock(clock.Now))
		defer c.Close()
		e, err := decodeEntry(robotsKey(s.URL), value(s.URL), testCrawler)
		before := s.hits.Load()
		ctx := context.Background()
		got := map[string]bool{}
		for _, path := range []string{"/private", "/open"} {
			ok, aerr := c.Allowed(ctx, s.URL+path)
			d, cerr := c.Check(ctx, s.URL+path)
			if (aerr == nil) != (cerr == nil) || aerr == nil && d.Allowed != ok {
				t.Fatalf("%s: Allowed = %v, %v; Check = %+v, %v", path, ok, aerr, d, cerr)
			}
			if aerr != nil && ok {
				t.Fatalf("%s: allowed, with the error %v", path, aerr)
			}
			got[path] = ok
			if err != nil && aerr != nil {
				t.Fatalf("value not decoded (%v): %s: %v", err, path, aerr)
			}
		}
		if store.gets.Load() == 0 {
			t.Fatal("the Store was not asked")
		}
		fetched := s.hits.Load() - before
		if err != nil {
			if fetched != 1 || got["/private"] || !got["/open"] {
				t.Fatalf("value not decoded (%v): fetched %d times; /private %v, /open %v", err, fetched, got["/private"], got["/open"])
			}
			return
		}
		if fetched != 0 || e.stale || e.failures > 0 {
			return
		}
		for path, ok := range got {
			want := ok
			switch e.outcome {
			case OutcomeAllowAll:
				want = true
			case OutcomeDisallowAll:
				want = false
			case OutcomeRules:
				text, terr := e.text()
				if terr != nil {
					t.Fatalf("answered by a body that does not decompress: %v", terr)
				}
				want = Parse(text).Allowed("robotstxt", path)
			}
			if ok != want {
				t.Fatalf("entry %+v (body %d bytes): %s allowed %v, want %v", e.persisted, len(e.body), path, ok, want)
			}
		}
	})
}
