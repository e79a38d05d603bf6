package robotstxt

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// TestStatusTable checks how the Client reads each HTTP status of a
// robots.txt response (success, each 4xx, 429 and 5xx, codes outside any
// class) under both policies; 304 after a conditional request and the
// redirects have tests of their own.
func TestStatusTable(t *testing.T) {
	checkLeaks(t)
	type want struct {
		allowed, deferred bool
		outcome           Outcome
	}
	rules := want{false, false, OutcomeRules}
	allow := want{true, false, OutcomeAllowAll}
	deny := want{false, false, OutcomeDisallowAll}
	deferred := want{false, true, OutcomeUnreachable}
	for _, tc := range []struct {
		status         int
		deflt, legacy  want
		wantStatusZero bool
	}{
		{status: 200, deflt: rules, legacy: rules},
		{status: 203, deflt: rules, legacy: rules},
		{status: 206, deflt: deferred, legacy: deferred}, // no Content-Range: a part (see TestFetchPartialContent)
		{status: 400, deflt: allow, legacy: allow},
		{status: 401, deflt: allow, legacy: deny},
		{status: 403, deflt: allow, legacy: deny},
		{status: 404, deflt: allow, legacy: allow},
		{status: 410, deflt: allow, legacy: allow},
		{status: 451, deflt: allow, legacy: allow},
		{status: 429, deflt: deferred, legacy: deferred},
		{status: 500, deflt: deferred, legacy: deferred},
		{status: 502, deflt: deferred, legacy: deferred},
		{status: 503, deflt: deferred, legacy: deferred},
		{status: 504, deflt: deferred, legacy: deferred},
		{status: 304, deflt: deferred, legacy: deferred}, // unconditional 304: any other code
		{status: 300, deflt: deferred, legacy: deferred}, // without a Location
		{status: 305, deflt: deferred, legacy: deferred}, // a proxy is not a redirect
		{status: 600, deflt: deferred, legacy: deferred},
		{status: 999, deflt: deferred, legacy: deferred},
	} {
		for _, pol := range []struct {
			name   string
			policy func(int) Outcome
			want   want
		}{{"default", defaultStatusPolicy, tc.deflt}, {"legacy", LegacyStatusPolicy, tc.legacy}} {
			s := newSite(t, serve(tc.status, privateRules))
			c := newTestClient(t, WithStatusPolicy(pol.policy))
			d, err := c.Check(context.Background(), s.URL+"/private/page")
			if d.Allowed != pol.want.allowed || d.Deferred != pol.want.deferred ||
				d.Outcome != pol.want.outcome || d.Status != tc.status ||
				errors.Is(err, ErrDeferred) != pol.want.deferred {
				t.Errorf("%s policy, status %d: Check = %+v, %v; want %+v", pol.name, tc.status, d, err, pol.want)
			}
			s.Close()
		}
	}
}

func TestStatusNetworkError(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	})
	c := newTestClient(t)
	d, err := c.Check(context.Background(), s.URL+"/x")
	if d.Allowed || !d.Deferred || d.Status != 0 || !errors.Is(err, ErrDeferred) {
		t.Errorf("connection reset: %+v, %v", d, err)
	}
	// Nothing listens on a closed listener's port.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	if ok, err := c.Allowed(context.Background(), "http://"+addr+"/x"); ok || !errors.Is(err, ErrDeferred) {
		t.Errorf("connection refused: %v, %v", ok, err)
	}
}

func TestStatusUnreachableBackoff(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(503, "", "Retry-After", "120"))
	c := newTestClient(t, WithClock(clock.Now), WithBackoff(time.Minute, time.Hour))
	ctx := context.Background()
	_, err := c.Allowed(ctx, s.URL+"/x")
	var de *DeferredError
	if !errors.As(err, &de) || de.Status != 503 || !de.RetryAt.Equal(clock.Now().Add(2*time.Minute)) ||
		de.RetryAt.Sub(clock.Now()) != 2*time.Minute {
		t.Fatalf("first check: %v (%+v)", err, de)
	}
	clock.Advance(time.Minute)
	if _, err := c.Allowed(ctx, s.URL+"/y"); !errors.Is(err, ErrDeferred) || s.hits.Load() != 1 {
		t.Fatalf("within Retry-After: %v after %d fetches, want a cached deferral", err, s.hits.Load())
	}
	clock.Advance(2 * time.Minute)
	s.set(serve(503, "")) // no Retry-After: doubling back-off
	if _, err := c.Allowed(ctx, s.URL+"/y"); !errors.As(err, &de) || s.hits.Load() != 2 ||
		!de.RetryAt.Equal(clock.Now().Add(2*time.Minute)) {
		t.Fatalf("second failure: %v (%+v), %d fetches", err, de, s.hits.Load())
	}
	clock.Advance(3 * time.Minute)
	s.set(serve(200, privateRules))
	if ok, err := c.Allowed(ctx, s.URL+"/y"); !ok || err != nil || s.hits.Load() != 3 {
		t.Fatalf("recovered: %v, %v", ok, err)
	}
	if st := c.Stats(); st.Fetches.Unreachable != 2 || st.Fetches.Rules != 1 || st.Deferred != 3 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestStatusPolicies(t *testing.T) {
	for status, want := range map[int]Outcome{
		200: OutcomeRules, 299: OutcomeRules, 199: OutcomeUnreachable,
		404: OutcomeAllowAll, 401: OutcomeAllowAll, 403: OutcomeAllowAll,
		429: OutcomeUnreachable, 500: OutcomeUnreachable, 599: OutcomeUnreachable,
		302: OutcomeUnreachable, 0: OutcomeUnreachable, 700: OutcomeUnreachable,
	} {
		if got := defaultStatusPolicy(status); got != want {
			t.Errorf("defaultStatusPolicy(%d) = %v, want %v", status, got, want)
		}
	}
	if LegacyStatusPolicy(401) != OutcomeDisallowAll || LegacyStatusPolicy(403) != OutcomeDisallowAll ||
		LegacyStatusPolicy(404) != OutcomeAllowAll {
		t.Error("LegacyStatusPolicy")
	}
	c := newTestClient(t, WithStatusPolicy(func(int) Outcome { return OutcomeDisallowAll }))
	s := newSite(t, serve(200, ""))
	if ok, err := c.Allowed(context.Background(), s.URL+"/"); ok || err != nil {
		t.Errorf("custom policy: %v, %v", ok, err)
	}
}

// TestErrorPolicyCannotGiveRules: an ErrorPolicy that answers
// OutcomeRules for a network error has no body to read; the fetch is
// unreachable, not a file of no rules (which allows everything).
func TestErrorPolicyCannotGiveRules(t *testing.T) {
	checkLeaks(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a refused port
	c := newTestClient(t, WithErrorPolicy(func(error) Outcome { return OutcomeRules }))
	d, err := c.Check(context.Background(), "http://"+addr+"/x")
	if d.Allowed || !errors.Is(err, ErrDeferred) || d.Outcome != OutcomeUnreachable {
		t.Errorf("Check = %+v, %v; want deferred", d, err)
	}
}

// unresolving returns an http.Client over next whose requests fail as a
// name that does not resolve while down is set.
func unresolving(t *testing.T) (hc *http.Client, next *http.Transport, down *atomic.Bool) {
	next, down = &http.Transport{}, new(atomic.Bool)
	t.Cleanup(next.CloseIdleConnections)
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if down.Load() {
			return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
		}
		return next.RoundTrip(r)
	})
	return &http.Client{Transport: rt}, next, down
}
