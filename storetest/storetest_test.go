package storetest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/storetest"
)

// A flaw is one way a Store can break the contract.
type flaw string

const (
	flawless         flaw = ""
	keepsSetSlice    flaw = "KeepsSetSlice"    // stores the caller's slice
	sharesGetSlice   flaw = "SharesGetSlice"   // returns its own slice
	neverExpires     flaw = "NeverExpires"     // ignores every TTL
	emptyIsMiss      flaw = "EmptyIsMiss"      // an empty value reads as a miss
	missUnwrapped    flaw = "MissUnwrapped"    // a miss is not ErrCacheMiss
	foldsCase        flaw = "FoldsCase"        // keys are case-insensitive
	ctxErrUnwrapped  flaw = "CtxErrUnwrapped"  // a done context's error is lost
	releaseAnyHolder flaw = "ReleaseAnyHolder" // any release frees the lease
	heldIsError      flaw = "HeldIsError"      // a held lease is an error
	leaseIsValue     flaw = "LeaseIsValue"     // a lease lives among the values
	monthIsDate      flaw = "MonthIsDate"      // a TTL over 30 days is a Unix time, as memcached reads it
	roundsTTLDown    flaw = "RoundsTTLDown"    // a TTL is cut to whole seconds
	releaseNeedsCtx  flaw = "ReleaseNeedsCtx"  // release does nothing once Lease's context is done
	cutsKeys         flaw = "CutsKeys"         // keys are cut to 250 bytes, as memcached's are
	keepsShorterTTL  flaw = "KeepsShorterTTL"  // a Set keeps the shorter of the old TTL and its own
	capsLeases       flaw = "CapsLeases"       // a lease lasts a second at most
	leaseNeedsCtx    flaw = "LeaseNeedsCtx"    // a lease ends with Lease's context, as one on a connection taken with it would
	keepsCutLease    flaw = "KeepsCutLease"    // a Lease cut after it took the lease keeps it, as one whose reply came late would
	repliesOutOfStep flaw = "RepliesOutOfStep" // a cut Get leaves its reply for the next, as a connection put back out of step would
	releaseOtherKeys flaw = "ReleaseOtherKeys" // a release frees the leases of other keys too
	cutErrUnwrapped  flaw = "CutErrUnwrapped"  // a context that ends during a Get gives an error of the Store's own
	failureIsHeld    flaw = "FailureIsHeld"    // a Lease that fails says another holds the lease, as one reading any error of "add" as "there" would
	takenUnheld      flaw = "TakenUnheld"      // a Lease whose context is done says it took the lease, and holds none
)

// replyTime is how long a flawed mapStore's reply takes to come, after
// it did what was asked: a context may end in between.
const replyTime = 200 * time.Microsecond

// mapStore is a Store and Leaser in a map that keeps the contract, unless
// it is given a flaw. Unlike the root package's test store, it checks the
// context before every call.
type mapStore struct {
	flaw flaw

	mu     sync.Mutex
	vals   map[string]mapValue
	leases map[string]mapValue // b is the holder's token
	tokens int
	unread []byte // the reply of a Get cut before it came (repliesOutOfStep)
}

type mapValue struct {
	b       []byte
	expires time.Time
}

func newMapStore(f flaw) *mapStore {
	return &mapStore{flaw: f, vals: map[string]mapValue{}, leases: map[string]mapValue{}}
}

func (m *mapStore) key(k string) string {
	switch {
	case m.flaw == foldsCase:
		return strings.ToLower(k)
	case m.flaw == cutsKeys && len(k) > 250:
		return k[:250]
	}
	return k
}

func (m *mapStore) check(ctx context.Context) error {
	if ctx.Err() != nil && m.flaw == ctxErrUnwrapped {
		return errors.New("mapStore: context done")
	}
	return ctx.Err()
}

func (m *mapStore) live(v mapValue, ok bool) bool {
	return ok && (m.flaw == neverExpires || time.Now().Before(v.expires))
}

func (m *mapStore) Get(ctx context.Context, k string) ([]byte, error) {
	if err := m.check(ctx); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.vals[m.key(k)]
	if m.flaw == cutErrUnwrapped {
		if time.Sleep(replyTime); ctx.Err() != nil {
			return nil, errors.New("mapStore: timed out")
		}
	}
	if m.flaw == repliesOutOfStep {
		if m.unread != nil {
			v, ok, m.unread = mapValue{b: m.unread, expires: time.Now().Add(time.Hour)}, true, nil
		} else if time.Sleep(replyTime); ctx.Err() != nil && m.live(v, ok) {
			m.unread = v.b
			return nil, ctx.Err()
		}
	}
	switch {
	case !m.live(v, ok), m.flaw == emptyIsMiss && len(v.b) == 0:
		if m.flaw == missUnwrapped {
			return nil, errors.New("mapStore: not found")
		}
		return nil, robotstxt.ErrCacheMiss
	case m.flaw == sharesGetSlice:
		return v.b, nil
	}
	return append([]byte{}, v.b...), nil
}

func (m *mapStore) Set(ctx context.Context, k string, b []byte, ttl time.Duration) error {
	if err := m.check(ctx); err != nil {
		return err
	}
	if m.flaw != keepsSetSlice {
		b = append([]byte{}, b...)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	expires := time.Now().Add(ttl)
	switch {
	case m.flaw == monthIsDate && ttl > 30*24*time.Hour:
		expires = time.Unix(int64(ttl/time.Second), 0)
	case m.flaw == roundsTTLDown:
		expires = time.Now().Add(ttl.Truncate(time.Second))
	case m.flaw == keepsShorterTTL:
		if old, ok := m.vals[m.key(k)]; ok && m.live(old, ok) && old.expires.Before(expires) {
			expires = old.expires
		}
	}
	m.vals[m.key(k)] = mapValue{b: b, expires: expires}
	return nil
}

func (m *mapStore) Lease(ctx context.Context, k string, ttl time.Duration) (func(), bool, error) {
	if err := m.check(ctx); err != nil {
		switch m.flaw {
		case failureIsHeld:
			return nil, false, nil
		case takenUnheld:
			return func() {}, true, nil
		}
		return nil, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	leases := m.leases
	if m.flaw == leaseIsValue {
		leases = m.vals
	}
	k = m.key(k)
	if l, ok := leases[k]; m.live(l, ok) {
		if m.flaw == heldIsError {
			return nil, false, errors.New("mapStore: lease held")
		}
		return nil, false, nil
	}
	m.tokens++
	token := strconv.Itoa(m.tokens)
	if m.flaw == capsLeases {
		ttl = min(ttl, time.Second)
	}
	leases[k] = mapValue{b: []byte(token), expires: time.Now().Add(ttl)}
	release := func() {
		if m.flaw == releaseNeedsCtx && ctx.Err() != nil {
			return
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		if string(leases[k].b) == token || m.flaw == releaseAnyHolder {
			delete(leases, k)
		}
		if m.flaw == releaseOtherKeys {
			for o := range leases {
				if o != k {
					delete(leases, o)
				}
			}
		}
	}
	if m.flaw == leaseNeedsCtx {
		context.AfterFunc(ctx, release)
	}
	if m.flaw == keepsCutLease {
		if time.Sleep(replyTime); ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
	}
	return release, true, nil
}

// TestRun: a Store that keeps the contract passes.
func TestRun(t *testing.T) {
	storetest.Run(t, func(*testing.T) robotstxt.Store { return newMapStore(flawless) })
}

// TestRunWithoutLeaser: a Store that is not a Leaser passes, the lease
// checks skipped.
func TestRunWithoutLeaser(t *testing.T) {
	storetest.Run(t, func(*testing.T) robotstxt.Store {
		return struct{ robotstxt.Store }{newMapStore(flawless)}
	})
}

// flawEnv names the flaw TestFlawedStore gives its Store.
const flawEnv = "STORETEST_FLAW"

// TestFlawedStore runs the suite against a Store with the flaw in
// flawEnv, when TestRunFindsFlaws starts this test binary for it.
func TestFlawedStore(t *testing.T) {
	f := flaw(os.Getenv(flawEnv))
	if f == flawless {
		t.Skip("runs only in the subprocess of TestRunFindsFlaws")
	}
	storetest.Run(t, func(*testing.T) robotstxt.Store { return newMapStore(f) },
		storetest.WithTTLResolution(20*time.Millisecond))
}

// TestRunFindsFlaws: for every flaw, the suite fails the checks that
// should catch it.
func TestRunFindsFlaws(t *testing.T) {
	for f, checks := range map[flaw][]string{
		keepsSetSlice:    {"Copies"},
		sharesGetSlice:   {"Copies"},
		neverExpires:     {"Expiry", "LeaseExpiry"},
		emptyIsMiss:      {"Values", "Overwrite"},
		missUnwrapped:    {"Miss", "Expiry", "LeaseApartFromValues"},
		foldsCase:        {"Keys"},
		ctxErrUnwrapped:  {"ContextCanceled", "ContextDeadline"},
		releaseAnyHolder: {"LeaseStaleRelease", "LeaseExpiry"},
		heldIsError:      {"LeaseExclusive", "LeaseRelease", "LeaseStaleRelease", "LeaseApartFromValues"},
		leaseIsValue:     {"LeaseApartFromValues"},
		monthIsDate:      {"LongTTL"},
		roundsTTLDown:    {"EndOfTTL"},
		releaseNeedsCtx:  {"LeaseRelease"},
		cutsKeys:         {"Keys"},
		keepsShorterTTL:  {"Expiry"},
		capsLeases:       {"LeaseEndOfTTL"},
		leaseNeedsCtx:    {"LeaseEndOfTTL"},
		keepsCutLease:    {"CutCalls"},
		repliesOutOfStep: {"CutCalls"},
		releaseOtherKeys: {"LeaseExclusive"},
		cutErrUnwrapped:  {"CutCalls"},
		failureIsHeld:    {"ContextCanceled", "ContextDeadline"},
		takenUnheld:      {"ContextCanceled", "ContextDeadline"},
	} {
		t.Run(string(f), func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestFlawedStore$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), flawEnv+"="+string(f))
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a Store that %s:\n%s", f, out)
			}
			for _, c := range checks {
				if !strings.Contains(string(out), "--- FAIL: TestFlawedStore/"+c+" ") {
					t.Errorf("check %s did not fail for a Store that %s", c, f)
				}
			}
			if t.Failed() {
				t.Logf("suite output:\n%s", out)
			}
		})
	}
}
