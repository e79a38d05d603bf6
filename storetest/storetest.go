// Package storetest checks that a [robotstxt.Store] keeps the contract the
// robotstxt Client relies on. Every Store in this module runs it, and so
// should a Store written for another backend (memcached, a SQL table, a
// cache shared inside one process): its tests call [Run] with a function
// that makes a new, empty Store.
//
//	func TestStoreContract(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) robotstxt.Store {
//			return mystore.New(newTestBackend(t))
//		})
//	}
//
// Run checks misses, exact bytes under unusual keys and values, overwrites,
// that values are copies, a value kept until its TTL ends and gone after
// it, TTLs of a month (which a Client writes), calls whose context is
// already done, calls whose context ends while they run (as the Client's
// Store timeout ends them: no reply left for a later call), and
// concurrent use. When the Store is also a [robotstxt.Leaser], Run checks
// its leases as well: exclusive per key, freed by release, not freed by a
// former holder's late release, held until their TTL ends (though the
// context Lease was called with is done, as the Client's is) and expiring
// after it, and none kept by a Lease whose context ended while it ran.
//
// Run checks leases through one handle on a Store: that they exclude
// across processes too (a lease token no other process makes, so that
// one's late release frees no other's lease) is, like a long TTL, the
// author's to check.
//
// Run waits out a few short TTLs, so it takes about five seconds for a Store
// with precise expiry; [WithTTLResolution] tells it about a coarser one.
// It cannot wait out a long one: that a Store keeps a value for the whole
// TTL a Client asks, a month by default (longer under a longer
// WithUnreachableAllowAfter or WithStaleWindow), is the author's to
// check. A backend that caps TTLs, say at an hour, passes Run, and loses
// the last good copy of a robots.txt that stands in while its site is
// down, and the start of its outage.
// Run it with -race: the concurrency checks rely on the race detector to
// find unsynchronised state.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

// An Option adjusts Run to a Store's limits.
type Option func(*suite)

// WithTTLResolution tells Run how precisely the Store expires entries: it
// may keep a value or lease up to d past its TTL, because it rounds TTLs up
// to whole seconds, say, or deletes expired entries on a timer. The expiry
// checks then use a TTL of at least 2d and wait d past it. The default, 10
// ms, suits a Store that expires to the millisecond, as Redis does.
func WithTTLResolution(d time.Duration) Option {
	return func(s *suite) {
		if d > 0 {
			s.resolution = d
		}
	}
}

const (
	// defaultResolution is the expiry precision assumed without
	// WithTTLResolution.
	defaultResolution = 10 * time.Millisecond
	// minShortTTL is the least TTL the expiry checks use: long enough
	// that the calls made inside it finish well before it ends.
	minShortTTL = 300 * time.Millisecond
	// longTTL outlives the whole suite.
	longTTL = time.Hour
	// endMargin is how long before its TTL ends endOfTTL reads a value:
	// far longer than a Get takes on an unloaded machine.
	endMargin = 150 * time.Millisecond
	// hangLimit is how long a call with a done context may take before
	// Run calls it hung. It is a bound on a hang, not on speed.
	hangLimit = 10 * time.Second
	// workers is the number of goroutines sharing one Store in the
	// concurrency checks.
	workers = 8
)

type suite struct {
	newStore   func(t *testing.T) robotstxt.Store
	resolution time.Duration
}

// Run checks the Store contract with stores made by newStore, which must
// return a new, empty Store each time it is called: nothing written to one
// may show through another (a fresh key prefix or database on a shared
// server will do). newStore may register cleanups on t. Each check is a
// subtest of t; the lease checks are skipped when the Store is not a
// [robotstxt.Leaser].
func Run(t *testing.T, newStore func(t *testing.T) robotstxt.Store, opts ...Option) {
	s := &suite{newStore: newStore, resolution: defaultResolution}
	for _, o := range opts {
		o(s)
	}
	for _, c := range []struct {
		name string
		run  func(*testing.T, robotstxt.Store)
	}{
		{"Miss", s.miss},
		{"Values", s.values},
		{"Keys", s.keys},
		{"Overwrite", s.overwrite},
		{"Copies", s.copies},
		{"Expiry", s.expiry},
		{"LongTTL", s.longTTL},
		{"EndOfTTL", s.endOfTTL},
		{"ContextCanceled", s.contextCanceled},
		{"ContextDeadline", s.contextDeadline},
		{"CutCalls", s.cutCalls},
		{"Concurrent", s.concurrent},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, s.newStore(t)) })
	}
	if _, ok := s.newStore(t).(robotstxt.Leaser); !ok {
		return // the lease checks are for Leasers only
	}
	for _, c := range []struct {
		name string
		run  func(*testing.T, robotstxt.Leaser)
	}{
		{"LeaseExclusive", s.leaseExclusive},
		{"LeaseRelease", s.leaseRelease},
		{"LeaseStaleRelease", s.leaseStaleRelease},
		{"LeaseExpiry", s.leaseExpiry},
		{"LeaseEndOfTTL", s.leaseEndOfTTL},
		{"LeaseApartFromValues", s.leaseApartFromValues},
		{"LeaseConcurrent", s.leaseConcurrent},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, s.newStore(t).(robotstxt.Leaser))
		})
	}
}

// shortTTL is the TTL of the entries the expiry checks wait out.
func (s *suite) shortTTL() time.Duration { return max(minShortTTL, 2*s.resolution) }

// key is the authority most checks store under.
const key = "https://example.com:443"

// miss: Get of a key never set is ErrCacheMiss, also when other keys are
// set, and the value is empty.
func (s *suite) miss(t *testing.T, st robotstxt.Store) {
	wantMiss(t, st, key)
	set(t, st, "https://other.example:443", []byte("v"), longTTL)
	set(t, st, "https://example.com:4430", []byte("v"), longTTL)
	wantMiss(t, st, key)
}

// values: every value comes back byte for byte, including empty ones
// (which are values, not misses), binary ones and a large one.
func (s *suite) values(t *testing.T, st robotstxt.Store) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	big := make([]byte, 1<<20)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(big)
	for _, v := range []struct {
		name  string
		value []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"text", []byte("User-agent: *\nDisallow: /private\n")},
		{"NULs", []byte{0, 0, 'a', 0}},
		{"every byte", all},
		{"invalid UTF-8", []byte{0xff, 0xfe, 0xc3, 0x28, '\r', '\n'}},
		{"1 MiB", big},
	} {
		set(t, st, key, v.value, longTTL)
		if got := get(t, st, key); !bytes.Equal(got, v.value) {
			t.Errorf("value %s: Get returned %d bytes that differ from the %d set", v.name, len(got), len(v.value))
		}
	}
}

// keys: keys are exact strings, whatever characters they hold: each keeps
// its own value, with no folding of case and no special meaning for
// braces, colons, glob characters or control bytes.
func (s *suite) keys(t *testing.T, st robotstxt.Store) {
	keys := []string{
		"https://example.com:443",
		"HTTPS://EXAMPLE.COM:443",
		"http://example.com:80",
		"https://xn--bcher-kva.example:443",
		"https://bücher.example:443",
		"http://[::1]:8080",
		"http://127.0.0.1:8080",
		"https://example.com:443/.well-known/tdmrep.json",
		"{braces}", "braces", "{", "}", "}{", "{}",
		"a", "a:lease", "{a}", "{a}:lease",
		"*", "?", "[a-z]", "%s", `\`,
		"with space\tand tab",
		"line\r\nbreak",
		"nul\x00byte",
		string(bytes.Repeat([]byte("k"), 2000)),
		// Long keys alike but for their ends: an authority runs to about
		// 270 bytes, and a Store that cut keys (memcached's hold 250)
		// would give them one value.
		string(bytes.Repeat([]byte("k"), 300)) + "a",
		string(bytes.Repeat([]byte("k"), 300)) + "b",
	}
	for i, k := range keys {
		set(t, st, k, fmt.Appendf(nil, "value %d", i), longTTL)
	}
	for i, k := range keys {
		want := fmt.Sprintf("value %d", i)
		if got, err := st.Get(t.Context(), k); err != nil || string(got) != want {
			t.Errorf("Get(%q) = %q, %v; want %q", k, got, err, want)
		}
	}
}

// overwrite: a Set replaces the whole value, a shorter one included.
func (s *suite) overwrite(t *testing.T, st robotstxt.Store) {
	for _, v := range []string{"a long first value", "short", "", "a value longer than the last"} {
		set(t, st, key, []byte(v), longTTL)
		if got := get(t, st, key); string(got) != v {
			t.Fatalf("after Set(%q): Get = %q", v, got)
		}
	}
}

// copies: the Store keeps its own copy of a value. Changing the slice
// given to Set, or the one Get returned, changes nothing stored.
func (s *suite) copies(t *testing.T, st robotstxt.Store) {
	const want = "User-agent: *\nDisallow: /\n"
	v := []byte(want)
	set(t, st, key, v, longTTL)
	copy(v, "XXXX")
	got := get(t, st, key)
	if string(got) != want {
		t.Fatalf("after the caller changed the slice given to Set: Get = %q, want %q", got, want)
	}
	copy(got, "YYYY")
	if again := get(t, st, key); string(again) != want {
		t.Fatalf("after the caller changed the slice Get returned: Get = %q, want %q", again, want)
	}
}

// expiry: a value is there for its TTL and gone after it; a value with a
// long TTL stays; and the TTL of the latest Set is the one that counts,
// shorter or longer.
func (s *suite) expiry(t *testing.T, st robotstxt.Store) {
	const (
		short       = "https://short.example:443"
		long        = "https://long.example:443"
		overwritten = "https://overwritten.example:443"
		lengthened  = "https://lengthened.example:443"
	)
	ttl := s.shortTTL()
	set(t, st, long, []byte("long"), longTTL)
	set(t, st, overwritten, []byte("first"), longTTL)
	start := time.Now()
	set(t, st, short, []byte("short"), ttl)
	set(t, st, overwritten, []byte("second"), ttl)
	set(t, st, lengthened, []byte("first"), ttl)
	set(t, st, lengthened, []byte("second"), longTTL)
	setDone := time.Now()

	got, err := st.Get(t.Context(), short)
	// The Store may drop the value only once ttl has passed since its
	// Set, which began at start; judge the Get only if it was inside.
	if time.Since(start) < ttl && (err != nil || string(got) != "short") {
		t.Fatalf("Get within the TTL of %v = %q, %v; want the value", ttl, got, err)
	}

	time.Sleep(time.Until(setDone.Add(ttl + s.resolution)))
	wantMiss(t, st, short)
	wantMiss(t, st, overwritten)
	if got := get(t, st, long); string(got) != "long" {
		t.Fatalf("value with a TTL of %v: Get = %q", longTTL, got)
	}
	if got := get(t, st, lengthened); string(got) != "second" {
		t.Fatalf("value set with a TTL of %v, then of %v: Get = %q", ttl, longTTL, got)
	}
}

// monthTTL is the longest TTL a Client writes by default: a good copy is
// kept for its freshness (at most a day) and the stale window (30 days);
// a failure, for its back-off and the longest back-off (an hour each).
const monthTTL = 31 * 24 * time.Hour

// longTTL: a value set with the longest TTL a Client writes is there. A
// backend that reads a TTL over 30 days as a Unix time (memcached's
// protocol does) expires it at once, as a date in 1970.
func (s *suite) longTTL(t *testing.T, st robotstxt.Store) {
	set(t, st, key, []byte("kept for a month"), monthTTL)
	if got := get(t, st, key); string(got) != "kept for a month" {
		t.Fatalf("Get after a Set with a TTL of %v = %q", monthTTL, got)
	}
}

// endOfTTL: a value is there until its TTL ends, not only just after its
// Set: a Store must not round a TTL down (1.5 s to 1 s, say). The value is
// read endMargin before the TTL ends.
func (s *suite) endOfTTL(t *testing.T, st robotstxt.Store) {
	ttl := 1500*time.Millisecond + 2*s.resolution
	start := time.Now()
	set(t, st, key, []byte("v"), ttl)
	time.Sleep(time.Until(start.Add(ttl - endMargin)))
	got, err := st.Get(t.Context(), key)
	if late := time.Since(start); late < ttl && (err != nil || string(got) != "v") {
		t.Fatalf("Get %v into a TTL of %v = %q, %v; want the value", late.Round(time.Millisecond), ttl, got, err)
	}
}

// contextCanceled: calls under a cancelled context return, with an error
// that wraps context.Canceled or having done their work; either way the
// Store is left consistent. Callers giving up (a Client closing while
// others share the Store) do not spoil the Store for later calls.
func (s *suite) contextCanceled(t *testing.T, st robotstxt.Store) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s.doneContext(t, st, ctx)
	set(t, st, key, []byte("live"), longTTL)
	if got := get(t, st, key); string(got) != "live" {
		t.Fatalf("after cancelled calls: Get = %q, want %q", got, "live")
	}
	if l, ok := st.(robotstxt.Leaser); ok {
		release := lease(t, l, key, longTTL)
		release()
	}
}

// contextDeadline: as contextCanceled, for a deadline already passed.
func (s *suite) contextDeadline(t *testing.T, st robotstxt.Store) {
	ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	s.doneContext(t, st, ctx)
}

// doneContext makes each call of st under ctx, which is done. A call must
// return (not wait for a backend that may never answer); its error, if
// any, must wrap ctx.Err(); if it reports success, it must have done its
// work.
func (s *suite) doneContext(t *testing.T, st robotstxt.Store, ctx context.Context) {
	t.Helper()
	set(t, st, key, []byte("old"), longTTL)

	var got []byte
	var err error
	returns(t, "Get", func() { got, err = st.Get(ctx, key) })
	switch {
	case err != nil && !errors.Is(err, ctx.Err()):
		t.Errorf("Get under a done context: err = %v, want one wrapping %v", err, ctx.Err())
	case err == nil && string(got) != "old":
		t.Errorf("Get under a done context succeeded with %q, want %q", got, "old")
	}

	returns(t, "Set", func() { err = st.Set(ctx, key, []byte("new"), longTTL) })
	now := string(get(t, st, key))
	switch {
	case err != nil && !errors.Is(err, ctx.Err()):
		t.Errorf("Set under a done context: err = %v, want one wrapping %v", err, ctx.Err())
	case err == nil && now != "new":
		t.Errorf("Set under a done context succeeded, but Get = %q, want %q", now, "new")
	case now != "old" && now != "new":
		t.Errorf("Set under a done context left %q, want %q or %q", now, "old", "new")
	}

	l, ok := st.(robotstxt.Leaser)
	if !ok {
		return
	}
	var release func()
	var taken bool
	returns(t, "Lease", func() { release, taken, err = l.Lease(ctx, key, longTTL) })
	switch {
	case err != nil && !errors.Is(err, ctx.Err()):
		t.Errorf("Lease under a done context: err = %v, want one wrapping %v", err, ctx.Err())
	case err != nil && (taken || release != nil):
		t.Errorf("Lease under a done context failed with %v, yet ok = %v, release = %v", err, taken, release != nil)
	case err == nil && taken != (release != nil):
		t.Errorf("Lease under a done context: ok = %v but release = %v", taken, release != nil)
	case taken:
		// It says it took the lease: it holds it until released.
		wantHeld(t, l, key)
		release()
	case err == nil:
		// It says another holds the lease, which none does: a Client
		// believing it waits out the whole lease wait before it fetches
		// (25.8 s by default), where an error would have it fetch at once.
		if release, ok, err := l.Lease(t.Context(), key, longTTL); ok {
			release()
			t.Errorf("Lease under a done context said another held the lease, which none held: want an error wrapping %v", ctx.Err())
		} else if err != nil {
			t.Errorf("Lease of a free key: %v", err)
		}
	}
}

// cutCalls: calls whose context ends while they run, as the Client's
// Store timeout ends them, fail with an error wrapping ctx.Err(), if
// they fail, and leave nothing behind that a later call sees: a
// Get answers with its own key's value, not the reply of a cut call (a
// connection put back out of step), and a Lease that failed holds no
// lease, or gives it back within cutGrace (a reply cut after the backend
// took it would leave a lease no process releases, which every Client
// waits out). The deadlines run from none to cutMax, so that some end
// inside a call.
func (s *suite) cutCalls(t *testing.T, st robotstxt.Store) {
	const a, b = "https://a.example:443", "https://b.example:443"
	set(t, st, a, []byte("value of a"), longTTL)
	set(t, st, b, []byte("value of b"), longTTL)
	l, isLeaser := st.(robotstxt.Leaser)
	for d := time.Duration(0); d <= cutMax; d = max(d*5/4, d+20*time.Microsecond) {
		ctx, cancel := context.WithTimeout(t.Context(), d)
		cut := func(what string, err error) {
			if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
				t.Fatalf("%s cut at %v: err = %v, want one wrapping %v", what, d, err, ctx.Err())
			}
		}
		_, err := st.Get(ctx, a)
		cut("Get", err)
		cut("Set", st.Set(ctx, a, []byte("value of a"), longTTL))
		var leaseErr error
		if isLeaser {
			release, ok, err := l.Lease(ctx, key, longTTL)
			if ok && release != nil {
				release()
			}
			leaseErr = err
			cut("Lease", err)
		}
		cancel()
		if got, err := st.Get(t.Context(), b); err != nil || string(got) != "value of b" {
			t.Fatalf("Get(%q) after calls cut at %v = %q, %v; want %q", b, d, got, err, "value of b")
		}
		if got, err := st.Get(t.Context(), a); err != nil || string(got) != "value of a" {
			t.Fatalf("Get(%q) after calls cut at %v = %q, %v; want %q", a, d, got, err, "value of a")
		}
		if !isLeaser {
			continue
		}
		for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
			release, ok, err := l.Lease(t.Context(), key, longTTL)
			if ok {
				release()
				break
			}
			if err != nil || time.Since(start) > cutGrace+s.resolution {
				t.Fatalf("after a Lease cut at %v (%v), Lease = %v, %v for %v: the cut call left a lease no one releases", d, leaseErr, ok, err, time.Since(start).Round(time.Millisecond))
			}
		}
	}
}

const (
	// cutMax is the longest deadline cutCalls gives its calls: a call
	// to a backend on loopback, as tests run one, takes well under it,
	// and a Store may count a deadline missed past a few milliseconds
	// against its backend (redisstore's breaker does, past 10 ms).
	cutMax = 5 * time.Millisecond
	// cutGrace is how long a Lease cut by its context may keep what it
	// took before the Store gives it back.
	cutGrace = time.Second
)

// concurrent: workers share one Store, each writing and reading its own
// key and one key they all write. Reads of the shared key return whole
// values, never a mix of two writes; the race detector checks the rest.
func (s *suite) concurrent(t *testing.T, st robotstxt.Store) {
	const rounds = 20 // workers*rounds < 256 distinct fill bytes
	const shared = "https://shared.example:443"
	set(t, st, shared, fill(255), longTTL)
	l, isLeaser := st.(robotstxt.Leaser)
	ctx := t.Context()
	var wg sync.WaitGroup
	for w := range workers {
		own := fmt.Sprintf("https://worker%d.example:443", w)
		wg.Go(func() {
			for i := range rounds {
				v := fill(byte(w*rounds + i))
				if err := st.Set(ctx, shared, v, longTTL); err != nil {
					t.Errorf("worker %d: Set(shared): %v", w, err)
					return
				}
				if got, err := st.Get(ctx, shared); err != nil || !filled(got) {
					t.Errorf("worker %d: Get(shared) = %d bytes (%v), want a whole value", w, len(got), err)
					return
				}
				if err := st.Set(ctx, own, v, longTTL); err != nil {
					t.Errorf("worker %d: Set(own): %v", w, err)
					return
				}
				if got, err := st.Get(ctx, own); err != nil || !bytes.Equal(got, v) {
					t.Errorf("worker %d: Get(own) = %d bytes (%v), want the %d just set", w, len(got), err, len(v))
					return
				}
				if !isLeaser {
					continue
				}
				release, ok, err := l.Lease(ctx, own, longTTL)
				if err != nil || !ok {
					t.Errorf("worker %d: Lease(own) = %v, %v; want it taken", w, ok, err)
					return
				}
				release()
			}
		})
	}
	wg.Wait()
}

// fill returns a value of 100+b bytes, all b, so that a read can tell a
// whole value from a mix of two.
func fill(b byte) []byte { return bytes.Repeat([]byte{b}, 100+int(b)) }

// filled reports whether v is a whole value made by fill.
func filled(v []byte) bool {
	return len(v) > 0 && len(v) == 100+int(v[0]) && bytes.Count(v, v[:1]) == len(v)
}

// leaseExclusive: a held lease is refused to every other taker with
// (nil, false, nil), and leases on other keys are independent.
func (s *suite) leaseExclusive(t *testing.T, l robotstxt.Leaser) {
	release := lease(t, l, key, longTTL)
	defer release()
	for range 3 {
		wantHeld(t, l, key)
	}
	other := lease(t, l, "https://example.com:8443", longTTL)
	other()
	wantHeld(t, l, key) // another key's release leaves this one's lease alone
}

// leaseRelease: release frees the lease for the next taker, also after
// the context given to Lease is done, as the Client calls it; calling it
// again does no harm.
func (s *suite) leaseRelease(t *testing.T, l robotstxt.Leaser) {
	for i := range 3 {
		release := lease(t, l, key, longTTL)
		wantHeld(t, l, key)
		release()
		if i == 1 {
			release()
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	release, ok, err := l.Lease(ctx, key, longTTL)
	cancel()
	if !ok || err != nil {
		t.Fatalf("Lease = %v, %v; want it taken", ok, err)
	}
	release()
	lease(t, l, key, longTTL)()
}

// leaseStaleRelease: once a holder has released, calling its release
// again after another took the lease leaves the new holder's lease alone.
func (s *suite) leaseStaleRelease(t *testing.T, l robotstxt.Leaser) {
	first := lease(t, l, key, longTTL)
	first()
	second := lease(t, l, key, longTTL)
	first()
	wantHeld(t, l, key)
	second()
	lease(t, l, key, longTTL)()
}

// leaseExpiry: a lease never released is held for its TTL and free after
// it, and the release of the holder whose lease expired does not free the
// lease of the one who took it next.
func (s *suite) leaseExpiry(t *testing.T, l robotstxt.Leaser) {
	ttl := s.shortTTL()
	start := time.Now()
	expired := lease(t, l, key, ttl)
	taken := time.Now()
	probe, ok, err := l.Lease(t.Context(), key, longTTL)
	if time.Since(start) < ttl && (ok || err != nil) {
		t.Fatalf("Lease within the TTL of %v of the holder's lease = %v, %v; want false, nil", ttl, ok, err)
	}
	if ok {
		probe() // taken past the TTL, on a slow machine: the next lease is to be free
	}

	time.Sleep(time.Until(taken.Add(ttl + s.resolution)))
	next := lease(t, l, key, longTTL)
	expired()
	wantHeld(t, l, key)
	next()
	lease(t, l, key, longTTL)()
}

// leaseEndOfTTL: a lease is still held shortly before its TTL ends, as
// a value is (see endOfTTL): a Store that cut leases short would let a
// second process fetch while the first still does.
func (s *suite) leaseEndOfTTL(t *testing.T, l robotstxt.Leaser) {
	ttl := 1500*time.Millisecond + 2*s.resolution
	start := time.Now()
	release := lease(t, l, key, ttl)
	defer release()
	time.Sleep(time.Until(start.Add(ttl - endMargin)))
	other, ok, err := l.Lease(t.Context(), key, longTTL)
	if other != nil {
		defer other()
	}
	if late := time.Since(start); late < ttl && (ok || err != nil) {
		t.Fatalf("Lease %v into the holder's TTL of %v = %v, %v; want false, nil", late.Round(time.Millisecond), ttl, ok, err)
	}
}

// leaseApartFromValues: a lease and a value under the same key do not
// touch: a lease is not a value, Set does not free a lease, and release
// does not delete the value.
func (s *suite) leaseApartFromValues(t *testing.T, l robotstxt.Leaser) {
	release := lease(t, l, key, longTTL)
	wantMiss(t, l, key)
	wantMiss(t, l, key+":lease")
	set(t, l, key, []byte("v"), longTTL)
	set(t, l, key+":lease", []byte("w"), longTTL)
	wantHeld(t, l, key)
	release()
	if got := get(t, l, key); string(got) != "v" {
		t.Fatalf("after release: Get = %q, want %q", got, "v")
	}
	if got := get(t, l, key+":lease"); string(got) != "w" {
		t.Fatalf("after release: Get(%q) = %q, want %q", key+":lease", got, "w")
	}
}

// leaseConcurrent: of workers racing for one lease, exactly one gets it,
// round after round.
func (s *suite) leaseConcurrent(t *testing.T, l robotstxt.Leaser) {
	for round := range 5 {
		var (
			wg       sync.WaitGroup
			winners  atomic.Int32
			releases = make(chan func(), workers)
			start    = make(chan struct{})
		)
		for range workers {
			wg.Go(func() {
				<-start
				release, ok, err := l.Lease(t.Context(), key, longTTL)
				if err != nil {
					t.Errorf("round %d: Lease: %v", round, err)
					return
				}
				if ok {
					winners.Add(1)
					releases <- release
				}
			})
		}
		close(start)
		wg.Wait()
		close(releases)
		for release := range releases {
			release()
		}
		if n := winners.Load(); n != 1 {
			t.Fatalf("round %d: %d of %d racing takers got the lease, want 1", round, n, workers)
		}
	}
}

// set stores v under k or fails the test.
func set(t *testing.T, st robotstxt.Store, k string, v []byte, ttl time.Duration) {
	t.Helper()
	if err := st.Set(t.Context(), k, v, ttl); err != nil {
		t.Fatalf("Set(%q, %d bytes, %v): %v", k, len(v), ttl, err)
	}
}

// get returns the value under k or fails the test.
func get(t *testing.T, st robotstxt.Store, k string) []byte {
	t.Helper()
	v, err := st.Get(t.Context(), k)
	if err != nil {
		t.Fatalf("Get(%q): %v", k, err)
	}
	return v
}

// wantMiss fails the test unless Get of k is an empty ErrCacheMiss.
func wantMiss(t *testing.T, st robotstxt.Store, k string) {
	t.Helper()
	v, err := st.Get(t.Context(), k)
	if !errors.Is(err, robotstxt.ErrCacheMiss) || len(v) != 0 {
		t.Fatalf("Get(%q) = %q, %v; want a miss (robotstxt.ErrCacheMiss)", k, v, err)
	}
}

// lease takes the lease on k or fails the test, as the Client does:
// under a context done as Lease returns, which must not end the lease.
func lease(t *testing.T, l robotstxt.Leaser, k string, ttl time.Duration) (release func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	release, ok, err := l.Lease(ctx, k, ttl)
	cancel()
	if err != nil || !ok || release == nil {
		t.Fatalf("Lease(%q, %v) = release %v, %v, %v; want it taken", k, ttl, release != nil, ok, err)
	}
	return release
}

// wantHeld fails the test unless Lease of k reports another holder with
// (nil, false, nil).
func wantHeld(t *testing.T, l robotstxt.Leaser, k string) {
	t.Helper()
	release, ok, err := l.Lease(t.Context(), k, longTTL)
	if ok && release != nil {
		release()
	}
	if ok || err != nil || release != nil {
		t.Fatalf("Lease(%q) while held = release %v, %v, %v; want nil, false, nil", k, release != nil, ok, err)
	}
}

// returns runs fn and fails the test if it has not returned within
// hangLimit.
func returns(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(hangLimit):
		t.Fatalf("%s under a done context had not returned after %v", what, hangLimit)
	}
}
