package robotstxt

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestClientStaleWhenCallerGivesUpOnRevalidation: the first check after
// expiry waits for the revalidation; if its context ends first it still
// gets the expired copy, marked stale, not an error.
func TestClientStaleWhenCallerGivesUpOnRevalidation(t *testing.T) {
	checkLeaks(t)
	var n atomic.Int32
	release := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 1 {
			<-release // a slow revalidation
		}
		w.Header().Set("Cache-Control", "max-age=60")
		_, _ = w.Write([]byte(privateRules))
	})
	defer close(release)
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	if ok, err := c.Allowed(context.Background(), s.URL+"/private/x"); ok || err != nil {
		t.Fatal(ok, err)
	}
	clock.Advance(2 * time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	d, err := c.Check(ctx, s.URL+"/private/x")
	if err != nil || d.Allowed || !d.Stale || d.Rule == nil {
		t.Fatalf("first check after expiry, caller gave up: %+v, %v; want the stale copy's disallow", d, err)
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
	store.mu.Lock()
	clear(store.vals) // Redis restarted, or the key evicted
	store.mu.Unlock()
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

// TestCharsetBodyCutAtLimit: a UTF-8 body cut in the middle of a character
// by the body limit stays UTF-8, and a non-ASCII rule before the cut
// still matches.
func TestCharsetBodyCutAtLimit(t *testing.T) {
	checkLeaks(t)
	rules := "User-agent: *\nDisallow: /café\n# "
	pad := 1000 - len(rules) - 1 // the limit falls inside the next "é"
	body := rules + strings.Repeat("x", pad) + "é and more\n"
	s := newSite(t, serve(200, body, "Content-Type", "text/plain"))
	c := newTestClient(t, WithBodyLimit(1000))
	d, err := c.Check(context.Background(), s.URL+"/café")
	if err != nil || d.Allowed || d.Rule == nil || d.Rule.Pattern != "/caf%C3%A9" {
		t.Fatalf("Check(/café) = %+v, %v; want disallowed by /caf%%C3%%A9", d, err)
	}
}

func TestCharsetDropCutRune(t *testing.T) {
	for in, want := range map[string]string{
		"a/é\xE2\x82": "a/é", "a/é\xE2": "a/é", "a/é": "a/é", "abc": "abc", "": "",
		"\xF0\x9F\x98": "", "a\x82": "a\x82",
	} {
		if got := string(dropCutRune([]byte(in))); got != want {
			t.Errorf("dropCutRune(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCharsetToUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, body, ctype, want string
	}{
		{"valid UTF-8 kept", "a/é", "", "a/é"},
		{"declared UTF-8 kept with a stray byte", "a/\xE9/é", "text/plain; charset=UTF-8", "a/\xE9/é"},
		{"Latin-1 declared", "a/caf\xE9", "text/plain; charset=iso-8859-1", "a/café"},
		{"Windows-1252 fallback", "a/\x80", "text/plain", "a/€"},
		{"UTF-16LE with BOM", "\xFF\xFEa\x00/\x00", "", "\uFEFFa/"},
	} {
		text, _ := toUTF8([]byte(tc.body), tc.ctype)
		got := string(text)
		got = strings.TrimPrefix(got, "\uFEFF")
		if want := strings.TrimPrefix(tc.want, "\uFEFF"); got != want {
			t.Errorf("%s: toUTF8(%q, %q) = %q, want %q", tc.name, tc.body, tc.ctype, got, want)
		}
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
		"huge body": {key: s.URL, outcome: OutcomeRules, status: 200, body: []byte(strings.Repeat("#", 5000)),
			fetched: now, checked: now, expires: now.Add(time.Hour)},
		"fresh for years": {key: s.URL, outcome: OutcomeAllowAll, status: 404,
			fetched: now, checked: now, expires: now.Add(5 * 365 * 24 * time.Hour)},
	} {
		store.mu.Lock()
		store.vals[s.URL] = encodeEntry(e)
		store.mu.Unlock()
		c.Forget(s.URL)
		before := s.hits.Load()
		if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
			t.Errorf("%s: Allowed = %v, %v; want the fetched rules", name, ok, err)
		}
		if s.hits.Load() != before+1 {
			t.Errorf("%s: the stored value was used instead of fetching", name)
		}
	}
}

// TestClientInfoLastStatus: while a stale copy stands in, Status is the
// copy's and LastStatus the failing server's.
func TestClientInfoLastStatus(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	info, err := c.Lookup(ctx, s.URL)
	if err != nil || info.Status != 200 || info.LastStatus != 200 {
		t.Fatalf("fresh: %+v, %v", info, err)
	}
	s.set(serve(503, "down"))
	clock.Advance(2 * time.Minute)
	if info, err = c.Lookup(ctx, s.URL); err != nil || !info.Stale || info.Status != 200 || info.LastStatus != 503 {
		t.Fatalf("stale: Status %d LastStatus %d Stale %v, %v", info.Status, info.LastStatus, info.Stale, err)
	}
	if (&Info{Expires: time.Now().Add(time.Hour)}).Expired() {
		t.Error("an Info made by hand: Expired() is true an hour before expiry")
	}
}

// TestClientRetryAtNotPastWhileRetrying: while an expired deferral is
// being retried, other callers are told to come back shortly, not at a
// time already past.
func TestClientRetryAtNotPastWhileRetrying(t *testing.T) {
	checkLeaks(t)
	release := make(chan struct{})
	var n atomic.Int32
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 1 {
			<-release // the retry hangs
		}
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if _, err := c.Allowed(ctx, s.URL+"/x"); err == nil {
		t.Fatal("want a deferral")
	}
	clock.Advance(2 * time.Minute)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.Allowed(ctx, s.URL+"/x") // starts the retry and waits for it
	}()
	for n.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	_, err := c.Allowed(ctx, s.URL+"/x")
	var de *DeferredError
	if !errors.As(err, &de) || !de.RetryAt.After(clock.Now()) {
		t.Errorf("while retrying: %v; want a DeferredError with RetryAt after now", err)
	}
	close(release)
	<-done
}
