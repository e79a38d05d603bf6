package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/longtest"
)

func TestCacheFreshness(t *testing.T) {
	checkLeaks(t)
	date := time.Now().UTC()
	for _, tc := range []struct {
		name    string
		headers []string
		opts    []Option
		want    time.Duration
	}{
		{"max-age", []string{"Cache-Control", "max-age=3600"}, nil, time.Hour},
		{"s-maxage wins", []string{"Cache-Control", "max-age=60, s-maxage=7200"}, nil, 2 * time.Hour},
		{"Expires against Date", []string{"Date", date.Format(http.TimeFormat),
			"Expires", date.Add(2 * time.Hour).Format(http.TimeFormat)}, nil, 2 * time.Hour},
		{"max-age over Expires", []string{"Cache-Control", "max-age=600",
			"Expires", date.Add(2 * time.Hour).Format(http.TimeFormat)}, nil, 10 * time.Minute},
		{"capped at 24 h", []string{"Cache-Control", "max-age=604800"}, nil, 24 * time.Hour},
		{"no header", nil, nil, 24 * time.Hour},
		{"Last-Modified alone", []string{"Last-Modified", date.Add(-1000 * time.Hour).Format(http.TimeFormat)}, nil, 24 * time.Hour},
		{"cap option", []string{"Cache-Control", "max-age=7200"}, []Option{WithMaxFreshness(time.Hour)}, time.Hour},
		{"no header, cap option", nil, []Option{WithMaxFreshness(3 * time.Hour)}, 3 * time.Hour},
		{"max-age=0 floored", []string{"Cache-Control", "max-age=0"}, nil, time.Minute},
		{"no-store floored", []string{"Cache-Control", "no-store"}, nil, time.Minute},
		{"no-cache floored", []string{"Cache-Control", "no-cache, max-age=3600"}, nil, time.Minute},
		// no-cache naming fields speaks of them alone (RFC 9111 §5.2.2.4);
		// an argument as a token ends at a comma.
		{"no-cache of a field", []string{"Cache-Control", `no-cache="Set-Cookie", max-age=3600`}, nil, time.Hour},
		{"private=token, max-age", []string{"Cache-Control", "private=Set-Cookie,max-age=600"}, nil, 10 * time.Minute},
		{"private=token, no-store", []string{"Cache-Control", "private=Set-Cookie,no-store"}, nil, time.Minute},
		{"a comma quoted", []string{"Cache-Control", `private="a,b",max-age=600`}, nil, 10 * time.Minute},
		{"no-cache of a field and of all", []string{"Cache-Control", `no-cache="Set-Cookie", max-age=3600`, "Cache-Control", "no-cache"}, nil, time.Minute},
		{"no-cache of no field", []string{"Cache-Control", `no-cache="", max-age=3600`}, nil, time.Minute},
		{"no-cache quoted", []string{"Cache-Control", `private="Set-Cookie, no-cache, X", max-age=3600`}, nil, time.Hour},
		{"max-age quoted", []string{"Cache-Control", `private="max-age=1", max-age=3600`}, nil, time.Hour},
		{"a stray quote", []string{"Cache-Control", `x=a"b, no-cache, max-age=3600`}, nil, time.Minute},
		{"a stray quote, max-age twice", []string{"Cache-Control", `foo"bar, max-age=1, max-age=86400`}, nil, time.Minute},
		{"Expires in the past", []string{"Expires", "0"}, nil, time.Minute},
		{"Expires empty", []string{"Expires", ""}, nil, time.Minute}, // a date that does not parse (RFC 9111 §5.3)
		// Directives the parser splits at blanks or a ';' are read so
		// here too.
		{"no-cache, blank-separated", []string{"Cache-Control", "no-cache max-age=86400"}, nil, time.Minute},
		{"no-cache after a tab", []string{"Cache-Control", "max-age=86400\tno-cache"}, nil, time.Minute},
		{"no-cache; max-age", []string{"Cache-Control", "no-cache; max-age=86400"}, nil, time.Minute},
		{"max-age twice, blank-separated", []string{"Cache-Control", "max-age=0 max-age=86400"}, nil, time.Minute},
		{"no-cache of a field, blank-separated", []string{"Cache-Control", `no-cache="Set-Cookie X" max-age=3600`}, nil, time.Hour},
		// A ';' splits no list for the parser: "86400;" is no age.
		{"max-age glued to a ';'", []string{"Cache-Control", "max-age=86400; public, must-revalidate"}, nil, time.Minute},
		{"s-maxage glued to a ';'", []string{"Cache-Control", "s-maxage=86400;public, max-age=60"}, nil, time.Minute},
		// RFC 9111 §4.2.1: an invalid freshness value makes the
		// response stale, so it is kept for the floor only.
		{"garbage Cache-Control", []string{"Cache-Control", `max-age="`}, nil, time.Minute},
		{"negative max-age", []string{"Cache-Control", "max-age=-5"}, nil, time.Minute},
		{"a list too long to read", []string{"Cache-Control", "max-age=600, " + strings.Repeat("a,", 4<<10)}, nil, time.Minute},
		{"max-age below the floor", []string{"Cache-Control", "max-age=2"}, nil, time.Minute},
		{"floor option", []string{"Cache-Control", "max-age=2"}, []Option{WithMinFreshness(2 * time.Second)}, 2 * time.Second},
		{"floor option, invalid", []string{"Cache-Control", "max-age=-5"}, []Option{WithMinFreshness(5 * time.Second)}, 5 * time.Second},
		// Every line counts, as one list (RFC 9110 §5.3); an age given
		// twice is stale.
		{"max-age in a second line", []string{"Cache-Control", "public", "Cache-Control", "max-age=600"}, nil, 10 * time.Minute},
		{"no-store in a second line", []string{"Cache-Control", "max-age=86400", "Cache-Control", "no-store"}, nil, time.Minute},
		{"max-age twice", []string{"Cache-Control", "max-age=600, max-age=86400"}, nil, time.Minute},
		{"max-age in two lines", []string{"Cache-Control", "max-age=600", "Cache-Control", "Max-Age=86400"}, nil, time.Minute},
		// The Age a cache on the way spent counts (RFC 9111 §4.2.3).
		{"max-age less Age", []string{"Cache-Control", "max-age=7200", "Age", "7000"}, nil, 200 * time.Second},
		{"s-maxage less Age", []string{"Cache-Control", "s-maxage=7200", "Age", "3600"}, nil, time.Hour},
		{"Expires less Age", []string{"Date", date.Format(http.TimeFormat),
			"Expires", date.Add(2 * time.Hour).Format(http.TimeFormat), "Age", "3600"}, nil, time.Hour},
		{"Age past max-age", []string{"Cache-Control", "max-age=3600", "Age", "999999"}, nil, time.Minute},
		{"Age past int64", []string{"Cache-Control", "max-age=3600", "Age", "99999999999999999999"}, nil, time.Minute},
		{"Age not a number", []string{"Cache-Control", "max-age=3600", "Age", "soon"}, nil, time.Hour},
		{"Age without freshness", []string{"Age", "3600"}, nil, 24 * time.Hour},
		{"Age as a list", []string{"Cache-Control", "max-age=3600", "Age", "3000, 3000"}, nil, 10 * time.Minute},
		// An unqualified private is read as a shared and as a private
		// cache would, the shorter counting.
		{"private, s-maxage longer", []string{"Cache-Control", "private, max-age=600, s-maxage=86400"}, nil, 10 * time.Minute},
		{"private, s-maxage shorter", []string{"Cache-Control", "s-maxage=600, private"}, nil, 10 * time.Minute},
		{"private alone", []string{"Cache-Control", "private"}, nil, 24 * time.Hour},
		{"private=field, s-maxage", []string{"Cache-Control", "private=Set-Cookie, max-age=600, s-maxage=7200"}, nil, 2 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newTestClock()
			s := newSite(t, serve(200, privateRules, tc.headers...))
			c := newTestClient(t, append([]Option{WithClock(clock.Now)}, tc.opts...)...)
			d, err := c.Check(context.Background(), s.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Expires.Sub(clock.Now()); got != tc.want {
				t.Errorf("fresh for %v, want %v", got, tc.want)
			}
			clock.Advance(tc.want - time.Second)
			_, _ = c.Allowed(context.Background(), s.URL+"/")
			if s.hits.Load() != 1 {
				t.Errorf("refetched before expiry")
			}
			clock.Advance(time.Second)
			_, _ = c.Allowed(context.Background(), s.URL+"/")
			if s.hits.Load() != 2 {
				t.Errorf("not refetched at expiry")
			}
		})
	}
}

// TestCacheRevalidation checks that an expired entry is revalidated with
// its validators and that a 304 keeps the rules and renews freshness.
func TestCacheRevalidation(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	lastMod := "Sat, 01 Mar 2025 10:00:00 GMT"
	var mu sync.Mutex
	var conditional []string
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conditional = append(conditional, r.Header.Get("If-None-Match")+"|"+r.Header.Get("If-Modified-Since"))
		mu.Unlock()
		w.Header().Set("Cache-Control", "max-age=3600")
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", lastMod)
		_, _ = w.Write([]byte(privateRules))
	})
	var logs syncBuffer // WithLogger: every fetch, a 304 too
	c := newTestClient(t, WithClock(clock.Now), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ctx := context.Background()
	if ok, _ := c.Allowed(ctx, s.URL+"/private"); ok {
		t.Fatal("first fetch: /private allowed")
	}
	clock.Advance(time.Hour)
	d, err := c.Check(ctx, s.URL+"/private")
	if d.Allowed || err != nil || d.Status != 200 || !d.Expires.Equal(clock.Now().Add(time.Hour)) || d.Stale {
		t.Fatalf("after 304: %+v, %v", d, err)
	}
	if got := strings.Count(logs.String(), "robots.txt fetched"); got != 2 || !strings.Contains(logs.String(), "status=304") {
		t.Errorf("%d fetches logged, want 2, the 304's too:\n%s", got, logs.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(conditional) != 2 || conditional[0] != "|" || conditional[1] != `"v1"|`+lastMod {
		t.Errorf("requests carried validators %q", conditional)
	}
	if st := c.Stats(); st.Fetches.NotModified != 1 || st.Fetches.Rules != 1 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestCacheRevalidationLifetime: a 304 renews the rules for as long as
// the response they rest on, its fields updated by the 304's (RFC 9111
// §4.3.4): its own Cache-Control sets the lifetime; without one, the
// stored lifetime holds, less the 304's Age, no longer than an Expires it
// brings, and after an outage as before it.
func TestCacheRevalidationLifetime(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name    string
		first   string // the 200's Cache-Control, and Age after a blank
		outage  bool   // a 503 between the 200 and the 304
		notMod  []string
		expires time.Duration // from the 304's time, for its Expires
		want    time.Duration
	}{
		{"no caching field", "max-age=3600", false, nil, 0, time.Hour},
		{"an Age", "max-age=3600", false, []string{"Age", "3000"}, 0, 10 * time.Minute},
		{"an Expires a max-age outranks", "max-age=120", false, nil, 48 * time.Hour, 2 * time.Minute},
		{"an Expires sooner", "max-age=3600", false, nil, 30 * time.Minute, 30 * time.Minute},
		{"its own Cache-Control", "max-age=120", false, []string{"Cache-Control", "max-age=600"}, 0, 10 * time.Minute},
		{"its own Cache-Control, with no lifetime but an Expires", "max-age=120", false, []string{"Cache-Control", "public"}, time.Hour, time.Hour},
		{"an Age on the 200", "max-age=3600 3000", false, nil, 0, time.Hour},
		{"an Age on the 200 and the 304", "max-age=3600 3000", false, []string{"Age", "3100"}, 0, 500 * time.Second},
		{"an Age on the 304 past the lifetime", "max-age=3600", false, []string{"Age", "4000"}, 0, time.Minute}, // the floor
		{"after an outage", "max-age=600", true, nil, 0, 10 * time.Minute},
		{"an Age after an outage", "max-age=600", true, []string{"Age", "300"}, 0, 5 * time.Minute},
	} {
		clock := newTestClock()
		n := 0
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			n++
			switch {
			case tc.outage && n == 2:
				w.WriteHeader(http.StatusServiceUnavailable)
			case r.Header.Get("If-None-Match") == `"v1"`:
				for i := 0; i+1 < len(tc.notMod); i += 2 {
					w.Header().Set(tc.notMod[i], tc.notMod[i+1])
				}
				if tc.expires > 0 {
					w.Header().Set("Date", clock.Now().UTC().Format(http.TimeFormat))
					w.Header().Set("Expires", clock.Now().Add(tc.expires).UTC().Format(http.TimeFormat))
				}
				w.WriteHeader(http.StatusNotModified)
			default:
				cc, age, _ := strings.Cut(tc.first, " ")
				w.Header().Set("Cache-Control", cc)
				if age != "" {
					w.Header().Set("Age", age)
				}
				w.Header().Set("ETag", `"v1"`)
				_, _ = w.Write([]byte(privateRules))
			}
		})
		c := newTestClient(t, WithClock(clock.Now))
		ctx := context.Background()
		if ok, _ := c.Allowed(ctx, s.URL+"/private"); ok {
			t.Fatal("first fetch: /private allowed")
		}
		clock.Advance(3 * time.Hour)
		if tc.outage {
			if d, err := c.Check(ctx, s.URL+"/private"); err != nil || !d.Stale {
				t.Fatalf("%s: during the outage: %+v, %v; want the stale copy", tc.name, d, err)
			}
			clock.Advance(time.Hour)
		}
		d, err := c.Check(ctx, s.URL+"/private")
		if err != nil || d.Stale || d.Status != 200 {
			t.Fatalf("%s: after the 304: %+v, %v", tc.name, d, err)
		}
		if got := d.Expires.Sub(clock.Now()); got != tc.want {
			t.Errorf("%s: fresh for %v after the 304, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCacheStaleOnError(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if ok, _ := c.Allowed(ctx, s.URL+"/private"); ok {
		t.Fatal("/private allowed")
	}
	fetched := clock.Now()
	for _, fail := range []http.HandlerFunc{serve(503, ""), serve(429, ""), func(w http.ResponseWriter, r *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		_ = conn.Close()
	}} {
		s.set(fail)
		clock.Advance(time.Hour) // within the longest back-off: one outage
		d, err := c.Check(ctx, s.URL+"/private")
		if d.Allowed || err != nil || !d.Stale || d.Deferred || d.Status != 200 || !matched(d) {
			t.Fatalf("unreachable with a good copy: %+v, %v", d, err)
		}
		if ok, err := c.Allowed(ctx, s.URL+"/public"); !ok || err != nil {
			t.Fatalf("/public from the stale copy: %v, %v", ok, err)
		}
	}
	info, _, _ := held(c, s.URL)
	if !info.Stale || info.Failures != 3 || info.Err == nil || !info.FetchedAt.Equal(fetched) {
		t.Errorf("Info = %+v", info)
	}
	// The copy stays usable up to 30 days after it was fetched.
	clock.Advance(30*24*time.Hour - 4*time.Hour)
	if d, err := c.Check(ctx, s.URL+"/public"); !d.Stale || err != nil {
		t.Fatalf("29 days on: %+v, %v", d, err)
	}
	clock.Advance(2 * time.Hour)
	d, err := c.Check(ctx, s.URL+"/public")
	if d.Allowed || !d.Deferred || !errors.Is(err, ErrDeferred) {
		t.Fatalf("past 30 days: %+v, %v; want deferred", d, err)
	}
	s.set(serve(200, "User-agent: *\nDisallow: /public\n"))
	clock.Advance(2 * time.Hour)
	if d, err := c.Check(ctx, s.URL+"/public"); d.Allowed || d.Stale || err != nil || !matched(d) {
		t.Fatalf("recovered: %+v, %v", d, err)
	}
}

// heldRefresh returns a Client that has cached s's rules for a minute,
// and s now holding every fetch until gate closes (arrived closes at the
// first), then serving a disallow-all.
func heldRefresh(t *testing.T, clock *testClock) (c *Client, s *site, arrived, gate chan struct{}) {
	t.Helper()
	s = newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	c = newTestClient(t, WithClock(clock.Now))
	if _, err := c.Allowed(context.Background(), s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	arrived, gate = make(chan struct{}), make(chan struct{})
	var once sync.Once
	s.set(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(arrived) })
		<-gate
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /\n"))
	})
	return c, s, arrived, gate
}

// TestCacheStaleWhileRefreshing checks that while an expired entry is
// being fetched again, other callers get the old copy at once.
func TestCacheStaleWhileRefreshing(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	c, s, arrived, gate := heldRefresh(t, clock)
	ctx := context.Background()
	clock.Advance(time.Minute)
	refreshed := make(chan Decision)
	go func() {
		d, _ := c.Check(ctx, s.URL+"/public")
		refreshed <- d
	}()
	<-arrived
	d, err := c.Check(ctx, s.URL+"/public")
	if !d.Allowed || !d.Stale || err != nil {
		t.Errorf("during refresh: %+v, %v; want the old rules, marked stale", d, err)
	}
	close(gate)
	if d := <-refreshed; d.Allowed || d.Stale {
		t.Errorf("refreshing caller: %+v; want the new rules", d)
	}
	if ok, _ := c.Allowed(ctx, s.URL+"/public"); ok {
		t.Error("after refresh: old rules")
	}
}

// TestCacheTooOldToStandWhileRefreshing: a copy older than the stale
// window does not answer while it is fetched again; other callers wait
// for the fetch, as the first does.
func TestCacheTooOldToStandWhileRefreshing(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	c, s, arrived, gate := heldRefresh(t, clock)
	ctx := context.Background()
	clock.Advance(31 * 24 * time.Hour)
	first := make(chan Decision)
	go func() {
		d, _ := c.Check(ctx, s.URL+"/public")
		first <- d
	}()
	<-arrived
	second := make(chan Decision)
	go func() {
		d, _ := c.Check(ctx, s.URL+"/public")
		second <- d
	}()
	waits := []chan Decision{first, second}
	select {
	case d := <-second:
		t.Errorf("during the fetch, a copy 31 days old answered: %+v", d)
		waits = waits[:1]
	case <-time.After(50 * time.Millisecond):
	}
	close(gate)
	for _, ch := range waits {
		if d := <-ch; d.Allowed || d.Stale {
			t.Errorf("after the fetch: %+v; want the new rules", d)
		}
	}
}

func TestCacheLRUEviction(t *testing.T) {
	checkLeaks(t)
	c := newTestClient(t, WithCacheSize(2))
	var sites []*site
	for range 3 {
		sites = append(sites, newSite(t, serve(200, privateRules)))
	}
	ctx := context.Background()
	for _, s := range sites {
		if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, ok := held(c, sites[0].URL); ok {
		t.Error("least recently used authority still cached")
	}
	if st := c.Stats(); st.Evictions != 1 || st.Entries != 2 {
		t.Errorf("Stats = %+v", st)
	}
	_, _ = c.Allowed(ctx, sites[0].URL+"/")
	if sites[0].hits.Load() != 2 {
		t.Errorf("evicted authority fetched %d times, want 2", sites[0].hits.Load())
	}
}

// TestCacheRealClockExpiry checks expiry with the real clock.
func TestCacheRealClockExpiry(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t, WithMaxFreshness(20*time.Millisecond))
	ctx := context.Background()
	_, _ = c.Allowed(ctx, s.URL+"/")
	for deadline := time.Now().Add(5 * time.Second); s.hits.Load() < 2; {
		if time.Now().After(deadline) {
			t.Fatal("an entry fresh for 20 ms was still used 5 s later")
		}
		if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st := c.Stats(); st.Fetches.Rules < 2 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestCacheAuthorityKeys(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t)
	ctx := context.Background()
	port := s.URL[len("http://127.0.0.1:"):]
	for _, u := range []string{
		s.URL + "/a", "HTTP://127.0.0.1:" + port + "/b", "http://user:pw@127.0.0.1:" + port + "/c",
		"http://127.0.0.1:0" + port + "/d#frag",
	} {
		if _, err := c.Allowed(ctx, u); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	if s.hits.Load() != 1 {
		t.Errorf("one authority fetched %d times", s.hits.Load())
	}
	if _, err := strconv.Atoi(port); err != nil {
		t.Fatal(err)
	}
}

// memEntry returns an entry for key retaining size bytes, fresh for an
// hour by the real clock.
func memEntry(key string, size int64) *entry {
	e := &entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, expires: stampOf(time.Now().Add(time.Hour))}}
	e.derive()
	e.base = size
	return e
}

func TestMemCacheBounds(t *testing.T) {
	m := newMemCache(4, 1000, true)
	for i := range 6 {
		m.put(memEntry(fmt.Sprintf("http://h%d:80", i), 100))
	}
	if n, _, _, evicted := m.counts(); n != 4 || evicted != 2 {
		t.Errorf("count bound: %d entries, %d evictions; want 4, 2", n, evicted)
	}
	for _, k := range []string{"http://h0:80", "http://h1:80"} {
		if m.peek(k) != nil {
			t.Errorf("%s kept, want the oldest evicted", k)
		}
	}
	// The byte budget: 1000 bytes hold two entries of 400 and two of 100,
	// and a third of 400 evicts the two small ones.
	m.put(memEntry("http://big1:80", 400))
	m.put(memEntry("http://big2:80", 400))
	m.put(memEntry("http://big3:80", 400))
	if n, b, _, _ := m.counts(); b > 1000 || n != 2 || m.peek("http://big1:80") != nil {
		t.Errorf("byte bound: %d entries retaining %d bytes; want big2 and big3 within 1000", n, b)
	}
	// An entry over the whole budget is still kept, alone.
	m.put(memEntry("http://huge:80", 5000))
	if n, _, _, _ := m.counts(); n != 1 || m.peek("http://huge:80") == nil {
		t.Errorf("an entry over the budget: %d entries, want it alone", n)
	}
	// Replacing an entry accounts for the old one's size.
	m.put(memEntry("http://huge:80", 10))
	if _, b, _, _ := m.counts(); b != 10 {
		t.Errorf("after replacement retained %d bytes, want 10", b)
	}
}

func TestMemCacheForgetIsNotEviction(t *testing.T) {
	m := newMemCache(10, 1<<20, true)
	m.put(memEntry("http://a:80", 100))
	m.forget("http://a:80")
	m.forget("http://never:80")
	if n, b, _, evicted := m.counts(); n != 0 || b != 0 || evicted != 0 || m.peek("http://a:80") != nil {
		t.Errorf("after forget: %d entries, %d bytes, %d evictions", n, b, evicted)
	}
}

// TestMemCacheRecency checks the LRU: an entry used survives the eviction
// of one that was not, and peek does not count as a use.
func TestMemCacheRecency(t *testing.T) {
	m := newMemCache(8, 1<<20, true)
	for i := range 8 {
		m.put(memEntry(fmt.Sprintf("http://h%d:80", i), 1))
	}
	// h0 is the oldest; use it, then fill the cache anew.
	if m.get([]byte("http://h0:80")) == nil {
		t.Fatal("h0 missing")
	}
	m.peek("http://h1:80")
	for i := 8; i < 15; i++ {
		m.put(memEntry(fmt.Sprintf("http://h%d:80", i), 1))
	}
	if m.peek("http://h0:80") == nil {
		t.Error("h0, used, was evicted before entries never used")
	}
	if m.peek("http://h1:80") != nil {
		t.Error("h1, only peeked at, survived")
	}
}

// TestMemCacheFreezesBeforeEvicting: over its byte budget the cache
// freezes the least recently used entries with rules, all but the most
// recent, before it evicts any; a frozen entry used again is thawed into
// the hot entries, and one without rules in the cold ones is used as it
// is and moves back.
func TestMemCacheFreezesBeforeEvicting(t *testing.T) {
	probe := rulesEntry("http://probe:80", ruleBodies[2])
	whole, frozen := probe.cost(), probe.base
	m := newMemCache(100, 3*whole+3*frozen, true)
	for i := range 6 {
		m.put(rulesEntry(fmt.Sprintf("http://h%d:80", i), ruleBodies[2]))
	}
	n, bytes, nfrozen, evicted := m.counts()
	if n != 6 || nfrozen != 3 || evicted != 0 || bytes > m.budget {
		t.Fatalf("%d entries, %d frozen, %d evicted, %d bytes; want 6, 3 frozen, none evicted, within %d", n, nfrozen, evicted, bytes, m.budget)
	}
	for i := range 6 {
		if e := m.peek(fmt.Sprintf("http://h%d:80", i)); e.frozen() != (i < 3) {
			t.Errorf("h%d frozen: %v", i, e.frozen())
		}
	}
	e := m.get([]byte("http://h0:80"))
	cr, err := e.rebuild(ModeGoogle, []string{"ExampleBot"})
	if err != nil {
		t.Fatal(err)
	}
	if m.thawed(e, cr) != cr || e.frozen() {
		t.Fatal("the thaw was not kept")
	}
	if m.peek("http://h3:80").frozen() != true {
		t.Error("the thaw did not freeze the least recently used hot entry")
	}
	if again, _ := e.rebuild(ModeGoogle, []string{"ExampleBot"}); m.thawed(e, again) != cr {
		t.Error("a second thaw replaced the first")
	}
	// An allow-all entry in the cold LRU is used as it is.
	m.put(memEntry("http://plain:80", 1))
	m.mu.Lock()
	m.budget = 0
	m.shrink(nil)
	m.budget = 1 << 40
	m.mu.Unlock()
	if m.get([]byte("http://plain:80")) == nil {
		t.Fatal("the plain entry was evicted")
	}
	if _, ok := m.hot.Peek("http://plain:80"); !ok {
		t.Error("a plain entry used from the cold LRU stays there")
	}
}

func TestMemCacheConcurrent(t *testing.T) {
	m := newMemCache(50, 1<<20, true)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				k := fmt.Sprintf("http://h%d:80", (i*7+g)%80)
				if e := m.get([]byte(k)); e != nil && e.key != k {
					t.Errorf("get(%s) = entry of %s", k, e.key)
					return
				}
				if i%3 == g%3 {
					m.put(memEntry(k, 10))
				}
				if i%97 == 0 {
					m.forget(k)
				}
			}
		})
	}
	wg.Wait()
	checkCache(t, m)
}

// TestMemCacheConcurrentThaws puts, uses and thaws entries from several
// goroutines under a budget that freezes them, and checks the counts
// against the entries (run it with -race).
func TestMemCacheConcurrentThaws(t *testing.T) {
	probe := rulesEntry("http://h0:80", ruleBodies[2])
	m := newMemCache(60, 12*probe.base+6*probe.cost(), true)
	var wg sync.WaitGroup
	thaws := 0
	var mu sync.Mutex
	for g := range 4 {
		wg.Go(func() {
			for i := range 600 {
				k := fmt.Sprintf("http://h%d:80", (i*7+g)%50)
				e := m.get([]byte(k))
				switch {
				case g < 2 || e == nil:
					m.put(rulesEntry(k, ruleBodies[(i+g)%len(ruleBodies)]))
				case e.frozen():
					cr, err := e.rebuild(ModeGoogle, []string{"ExampleBot"})
					if err != nil {
						t.Error(err)
						return
					}
					m.thawed(e, cr)
					mu.Lock()
					thaws++
					mu.Unlock()
				default:
					body, err := e.text()
					if err != nil || !slices.Contains(ruleBodies, string(body)) {
						t.Errorf("%s: body %q, %v", k, body, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	checkCache(t, m)
	if thaws == 0 {
		t.Error("nothing thawed: the budget did not bind")
	}
}

// checkCache checks the invariants of m: every entry in one LRU only,
// under its own key, hot entries with their rules and cold ones without,
// the byte count the sum of the entries' costs, the frozen count theirs,
// and the bounds.
func checkCache(t *testing.T, m *memCache) {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	var bytes int64
	frozen := 0
	for _, k := range m.hot.Keys() {
		e, _ := m.hot.Peek(k)
		if e.key != k || e.frozen() || m.cold.Contains(k) {
			t.Fatalf("hot %s: entry of %s, frozen %v, also cold %v", k, e.key, e.frozen(), m.cold.Contains(k))
		}
		bytes += e.cost()
	}
	for _, k := range m.cold.Keys() {
		e, _ := m.cold.Peek(k)
		if e.key != k || e.rules.Load() != nil {
			t.Fatalf("cold %s: entry of %s, with rules %v", k, e.key, e.rules.Load() != nil)
		}
		if e.frozen() {
			frozen++
		}
		bytes += e.cost()
	}
	for i := range m.front {
		if e := m.front[i].Load(); e != nil {
			if h, ok := m.hot.Peek(e.key); !ok || h != e || m.slot(e.key) != &m.front[i] {
				t.Fatalf("front slot %d holds %s, which is not hot there", i, e.key)
			}
		}
	}
	n := m.hot.Len() + m.cold.Len()
	if bytes != m.bytes || frozen != m.frozen || n > m.max || m.bytes > m.budget && n > 1 {
		t.Fatalf("%d entries (max %d) retaining %d bytes, %d frozen; counted %d bytes (budget %d), %d frozen",
			n, m.max, bytes, frozen, m.bytes, m.budget, m.frozen)
	}
}

// TestCacheNotModifiedUnasked: a layer below the Client (a caching
// RoundTripper) that makes the request conditional itself and passes its
// 304 through gives the Client no copy to keep: the 304 is a status like
// any other, and the site is deferred. It was taken for "keep your copy"
// and, with none cached, crashed the process.
func TestCacheNotModifiedUnasked(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write([]byte(privateRules))
	})
	next := s.Client().Transport
	hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		req = req.Clone(req.Context())
		req.Header.Set("If-None-Match", `"its own"`)
		return next.RoundTrip(req)
	})}
	c := newTestClient(t, WithHTTPClient(hc))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := c.Check(ctx, s.URL+"/private")
	if d.Allowed || !errors.Is(err, ErrDeferred) || d.Outcome != OutcomeUnreachable || d.Status != http.StatusNotModified {
		t.Errorf("Check = %+v, %v; want deferred on status 304", d, err)
	}
}

// TestCacheNotModifiedEndsOutage checks that a 304 after an outage ends
// it: the next outage counts from its own start.
func TestCacheNotModifiedEndsOutage(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules, "ETag", `"v1"`, "Cache-Control", "max-age=60"))
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	u := s.URL + "/"
	if _, err := c.Allowed(ctx, u); err != nil {
		t.Fatal(err)
	}
	key, _, _ := splitKey(u)
	clock.Advance(2 * time.Minute)
	s.set(serve(503, ""))
	if d, err := c.Check(ctx, u); err != nil || !d.Stale {
		t.Fatalf("during the outage: %+v, %v; want the stale copy", d, err)
	}
	if e := c.robots.cache.peek(key); e.failures != 1 || e.since == 0 {
		t.Fatalf("outage not recorded: failures %d since %v", e.failures, e.since)
	}
	clock.Advance(2 * time.Minute)
	s.set(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != `"v1"` {
			t.Errorf("revalidation without the ETag")
		}
		w.WriteHeader(http.StatusNotModified)
	})
	if d, err := c.Check(ctx, u); err != nil || d.Stale {
		t.Fatalf("after a 304: %+v, %v", d, err)
	}
	if e := c.robots.cache.peek(key); e.failures != 0 || e.since != 0 {
		t.Errorf("after a 304: failures %d, since %v; want the outage ended", e.failures, e.since)
	}
}

// web is many sites served by one loopback server: the robots.txt of
// host h is body(h), fresh for a day. Its client dials that server
// whatever host a URL names.
type web struct {
	srv     *httptest.Server
	mu      sync.Mutex
	fetches map[string]int // by host
}

func newWeb(t testing.TB, body func(host string) string) *web {
	t.Helper()
	w := &web{fetches: map[string]int{}}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		w.mu.Lock()
		w.fetches[host]++
		w.mu.Unlock()
		rw.Header().Set("Cache-Control", "max-age=86400")
		_, _ = io.WriteString(rw, body(host))
	}))
	t.Cleanup(w.srv.Close)
	return w
}

// client returns an HTTP client for w, its idle connections closed when
// the test ends.
func (w *web) client(t testing.TB) *http.Client {
	var d net.Dialer
	addr := w.srv.Listener.Addr().String()
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// total returns the number of robots.txt requests w has served.
func (w *web) total() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, f := range w.fetches {
		n += f
	}
	return n
}

// siteRules is the robots.txt of host in the budget tests: 40 rules under
// a directory named for the host, so that an answer from another site's
// rules is caught (see checkSite).
func siteRules(host string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 40 {
		fmt.Fprintf(&b, "Disallow: /%s/private-%d/\n", host, i)
	}
	fmt.Fprintf(&b, "Crawl-delay: %d\n", len(host))
	return b.String()
}

// checkSite checks that c answers by host's own rules: its private
// directory disallowed, another host's allowed.
func checkSite(t *testing.T, c *Client, host string) {
	t.Helper()
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, "http://"+host+"/"+host+"/private-7/x"); ok || err != nil {
		t.Errorf("%s: its private directory: %v, %v; want disallowed", host, ok, err)
	}
	if ok, err := c.Allowed(ctx, "http://"+host+"/other.test/private-7/x"); !ok || err != nil {
		t.Errorf("%s: another site's directory: %v, %v; want allowed", host, ok, err)
	}
}

// TestCacheBytesBudget fills a Client whose byte budget holds all its
// entries frozen but only four with their rules: the least recently used
// are frozen rather than evicted, answer by their own rules without a
// fetch, and a crawler whose sites fit in the budget never thaws; more
// sites than the budget holds frozen are evicted, least recently used
// first. Stats reports what is retained and frozen throughout.
func TestCacheBytesBudget(t *testing.T) {
	checkLeaks(t)
	w := newWeb(t, siteRules)
	var hosts []string
	for i := range 24 {
		hosts = append(hosts, fmt.Sprintf("h%d.test", 10+i)) // keys of one length, entries of one size
	}
	// Measure an entry, frozen and whole, in a Client without a budget.
	probe := newTestClient(t, WithHTTPClient(w.client(t)))
	checkSite(t, probe, hosts[0])
	e := probe.robots.cache.peek("http://" + hosts[0] + ":80")
	frozen, rules := e.base, e.cost()-e.base
	budget := 12*frozen + 4*rules + rules/2

	c := newTestClient(t, WithHTTPClient(w.client(t)), WithCacheBytes(budget))
	for _, h := range hosts[:12] {
		checkSite(t, c, h)
	}
	st := c.Stats()
	if st.Entries != 12 || st.Frozen != 8 || st.Evictions != 0 || st.Bytes > budget || st.Thaws != 0 {
		t.Fatalf("after 12 sites: %+v; want 12 entries, 8 frozen, none evicted, within %d bytes", st, budget)
	}
	for _, h := range hosts[:8] {
		if e := c.robots.cache.peek("http://" + h + ":80"); !e.frozen() {
			t.Errorf("%s, among the least recently used, is not frozen", h)
		}
	}
	// The four most recent sites, checked again and again, never thaw.
	for range 50 {
		for _, h := range hosts[8:12] {
			checkSite(t, c, h)
		}
	}
	if st := c.Stats(); st.Thaws != 0 || st.Frozen != 8 {
		t.Fatalf("checking the sites that fit: %+v; want no thaws", st)
	}
	// Every site answers by its own rules, from memory.
	for _, h := range hosts[:12] {
		checkSite(t, c, h)
	}
	st = c.Stats()
	if st.Thaws < 8 || st.Frozen != 8 || st.Evictions != 0 || st.Bytes > budget || w.total() != 13 {
		t.Fatalf("after checking every site again: %+v, %d fetches; want 8 thaws or more, none evicted, no fetch", st, w.total())
	}
	// More sites than the budget holds frozen: the least recently used go.
	for _, h := range hosts[12:] {
		checkSite(t, c, h)
	}
	st = c.Stats()
	if st.Evictions == 0 || st.Entries+int(st.Evictions) != 24 || st.Bytes > budget || st.Bytes <= 0 {
		t.Fatalf("after 24 sites: %+v; want some evicted, within %d bytes", st, budget)
	}
	if _, _, ok := held(c, "http://"+hosts[0]); ok {
		t.Error("the least recently used site was kept")
	}
	if e := c.robots.cache.peek("http://" + hosts[23] + ":80"); e == nil || e.frozen() {
		t.Error("the most recent site was evicted or frozen")
	}
	if frozen := countFrozen(c); frozen != st.Frozen {
		t.Errorf("Stats.Frozen = %d, the cache holds %d frozen entries", st.Frozen, frozen)
	}
}

// TestCacheEntryOverBudget: a site whose rules alone take more than the
// byte budget is answered by its rules, parsed again for each check, and
// keeps only its body: checking it does not push out the other sites.
func TestCacheEntryOverBudget(t *testing.T) {
	checkLeaks(t)
	var big strings.Builder
	big.WriteString("User-agent: *\n")
	for i := range 3000 {
		fmt.Fprintf(&big, "Disallow: /big.test/private-%d/\n", i)
	}
	w := newWeb(t, func(host string) string {
		if host == "big.test" {
			return big.String()
		}
		return siteRules(host)
	})
	hosts := []string{"h10.test", "h11.test", "h12.test"}
	probe := newTestClient(t, WithHTTPClient(w.client(t)))
	checkSite(t, probe, "big.test")
	checkSite(t, probe, hosts[0])
	be := probe.robots.cache.peek("http://big.test:80")
	small := probe.robots.cache.peek("http://" + hosts[0] + ":80").cost()
	budget := be.base + 4*small // the big site's body and the small sites whole, not its rules
	if be.cost() <= budget {
		t.Fatalf("the big site costs %d bytes, within the budget %d", be.cost(), budget)
	}

	c := newTestClient(t, WithHTTPClient(w.client(t)), WithCacheBytes(budget))
	for _, h := range hosts {
		checkSite(t, c, h)
	}
	for range 3 {
		checkSite(t, c, "big.test")
		for _, h := range hosts {
			checkSite(t, c, h)
		}
	}
	st := c.Stats()
	if st.Evictions != 0 || st.Entries != 4 || st.Bytes > budget || w.total() != 4+2 {
		t.Errorf("%+v, %d fetches; want 4 entries within %d bytes, none evicted or fetched again", st, w.total(), budget)
	}
	if e := c.robots.cache.peek("http://big.test:80"); e == nil || !e.frozen() {
		t.Error("the big site's rules were kept over the budget")
	}
	for _, h := range hosts {
		if e := c.robots.cache.peek("http://" + h + ":80"); e == nil || e.frozen() {
			t.Errorf("%s was evicted or frozen", h)
		}
	}
	// A body alone over the budget is still kept, alone, and not fetched
	// again at each check.
	tiny := newTestClient(t, WithHTTPClient(w.client(t)), WithCacheBytes(be.base-1))
	before := w.total()
	checkSite(t, tiny, hosts[0])
	for range 3 {
		checkSite(t, tiny, "big.test")
	}
	if st := tiny.Stats(); w.total() != before+2 || st.Entries != 1 {
		t.Errorf("under a budget below the big site's body: %+v, %d fetches; want 2, the big site kept", st, w.total()-before)
	}
}

// countFrozen counts the frozen entries of c's cache.
func countFrozen(c *Client) int {
	m := c.robots.cache
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, e := range append(m.hot.Values(), m.cold.Values()...) {
		if e.frozen() {
			n++
		}
	}
	return n
}

// TestCacheFreezingKeepsDecisions drives two Clients of the same sites
// (the corpus sample) with the same random checks of every kind: one
// without a budget, one whose byte budget changes at random, from all it
// needs down to less than its entries retain frozen, so that entries are
// frozen, thawed and evicted throughout. Every answer must be the
// unbounded Client's, to the deciding rule, the crawl-delay and the
// expiry (the clock stands still, so that an evicted site fetched again
// gets the same).
func TestCacheFreezingKeepsDecisions(t *testing.T) {
	longtest.Gate(t)
	checkLeaks(t)
	// The sample's bodies under 32 KiB, in name order: a larger one's
	// rules alone would exceed many of the budgets.
	all := corpusBodies(t)
	var bodies []string
	for _, name := range slices.Sorted(maps.Keys(all)) {
		if strings.HasPrefix(name, corpusSample) && len(all[name]) < 32<<10 {
			bodies = append(bodies, string(all[name]))
		}
	}
	const sites = 80
	host := func(i int) string { return fmt.Sprintf("s%d.test", i) }
	w := newWeb(t, func(h string) string {
		var i int
		fmt.Sscanf(h, "s%d.test", &i)
		return bodies[i%len(bodies)]
	})
	clock := newTestClock()
	opts := []Option{WithHTTPClient(w.client(t)), WithClock(clock.Now), WithProductTokens("Googlebot")}
	whole := newTestClient(t, append(opts, WithCacheBytes(1<<40))...)
	bounded := newTestClient(t, append(opts, WithCacheBytes(1<<40))...)

	// Paths to check on each site: fixed ones and its own rules'.
	paths := make([][]string, sites)
	for i := range sites {
		paths[i] = []string{"/", "/index.html", "/search?q=x", "/wp-admin/x"}
		for _, agent := range []string{"Googlebot", "Bingbot"} {
			for _, r := range Parse([]byte(bodies[i%len(bodies)])).Rules(agent) {
				p := strings.ReplaceAll(strings.TrimSuffix(r.Pattern, "$"), "*", "x")
				if strings.HasPrefix(p, "/") && len(paths[i]) < 24 {
					paths[i] = append(paths[i], p, p+"y/z.html")
				}
			}
		}
	}
	ctx := context.Background()
	for i := range sites {
		if _, err := whole.Check(ctx, "http://"+host(i)+"/"); err != nil {
			t.Fatal(err)
		}
	}
	// What the sites retain with their rules, and frozen.
	full, floor := whole.Stats().Bytes, int64(0)
	for i := range sites {
		floor += whole.robots.cache.peek("http://" + host(i) + ":80").base
	}
	rng := rand.New(rand.NewPCG(3, 4))
	maxFrozen := 0
	for step := range 6000 {
		i := rng.IntN(sites)
		u := "http://" + host(i) + paths[i][rng.IntN(len(paths[i]))]
		switch op := rng.IntN(10); op {
		case 0, 1, 2:
			a, errA := whole.Check(ctx, u)
			b, errB := bounded.Check(ctx, u)
			a.e, b.e = nil, nil // the two Clients' entries
			if !reflect.DeepEqual(a, b) || fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Fatalf("step %d: Check(%s) = %+v, %v; without a budget %+v, %v", step, u, b, errB, a, errA)
			}
		case 3, 4:
			a, errA := whole.Allowed(ctx, u)
			b, errB := bounded.Allowed(ctx, u)
			if a != b || fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Fatalf("step %d: Allowed(%s) = %v, %v; without a budget %v, %v", step, u, b, errB, a, errA)
			}
		case 5, 6, 7:
			a, errA := whole.Check(ctx, u)
			b, errB := bounded.Check(ctx, u)
			if fmt.Sprint(errA) != fmt.Sprint(errB) || a.CrawlDelay != b.CrawlDelay || a.Expires != b.Expires ||
				!slices.Equal(sitemapsOf(a), sitemapsOf(b)) {
				t.Fatalf("step %d: Check(%s): %v, crawl-delay %v, expires %v, sitemaps %q; without a budget %v, %v, %v, %q",
					step, u, errB, b.CrawlDelay, b.Expires, sitemapsOf(b), errA, a.CrawlDelay, a.Expires, sitemapsOf(a))
			}
		case 8:
			m := bounded.robots.cache
			m.mu.Lock()
			m.budget = floor*4/5 + rng.Int64N(full*3/2-floor*4/5)
			m.shrink(nil)
			m.mu.Unlock()
		case 9:
			st := bounded.Stats()
			if st.Frozen != countFrozen(bounded) || st.Frozen > st.Entries {
				t.Fatalf("step %d: %+v; the cache holds %d frozen entries", step, st, countFrozen(bounded))
			}
			maxFrozen = max(maxFrozen, st.Frozen)
		}
	}
	st := bounded.Stats()
	if maxFrozen == 0 || st.Thaws == 0 || st.Evictions == 0 {
		t.Errorf("%+v, at most %d frozen: the budget froze, thawed or evicted nothing", st, maxFrozen)
	}
	t.Logf("bounded: %+v; at most %d frozen; floor %d full %d", st, maxFrozen, floor, full)
}

// rulesEntry returns an entry for key with the rules of body for
// ExampleBot, made as a fetch makes one, fresh for an hour by the real
// clock.
func rulesEntry(key, body string) *entry {
	e := &entry{key: key, persisted: persisted{outcome: OutcomeRules, status: 200, expires: stampOf(time.Now().Add(time.Hour))}}
	e.setRules([]byte(body), compress([]byte(body)), ModeGoogle, []string{"ExampleBot"})
	return e.derive()
}

// ruleBodies are robots.txt bodies of a few sizes for rulesEntry.
var ruleBodies = func() []string {
	var bs []string
	for _, n := range []int{1, 8, 40} {
		var b strings.Builder
		b.WriteString("User-agent: ExampleBot\n")
		for i := range n {
			fmt.Fprintf(&b, "Disallow: /private-%d/*.php$\nAllow: /private-%d/open\n", i, i)
		}
		bs = append(bs, b.String())
	}
	return bs
}()

// TestMemCacheInvariants puts, replaces, uses, thaws and forgets entries
// at random, and changes the byte budget, and checks the cache's
// invariants after each step (see checkCache).
func TestMemCacheInvariants(t *testing.T) {
	m := newMemCache(20, 3000, true)
	rng := rand.New(rand.NewPCG(1, 2))
	froze, thawed := 0, 0
	for step := range 20000 {
		key := fmt.Sprintf("http://h%d:80", rng.IntN(40))
		switch rng.IntN(7) {
		case 0:
			m.put(memEntry(key, int64(1+rng.IntN(400))))
		case 1:
			m.put(rulesEntry(key, ruleBodies[rng.IntN(len(ruleBodies))]))
		case 2:
			m.get([]byte(key))
		case 3:
			if e := m.get([]byte(key)); e != nil && e.frozen() {
				cr, err := e.rebuild(ModeGoogle, []string{"ExampleBot"})
				if err != nil {
					t.Fatal(err)
				}
				if m.thawed(e, cr) != cr {
					t.Fatalf("step %d: a thaw of a frozen entry kept another Crawler", step)
				}
				thawed++
			}
		case 4:
			m.forget(key)
		case 5:
			m.mu.Lock()
			m.budget = int64(500 + rng.IntN(20000))
			m.shrink(nil)
			m.mu.Unlock()
		case 6:
			// A frozen entry revalidated: its copy is put frozen.
			if e := m.peek(key); e != nil && e.frozen() {
				m.put(e.clone().derive())
			}
		}
		checkCache(t, m)
		_, _, frozen, _ := m.counts()
		froze = max(froze, frozen)
	}
	if froze == 0 || thawed == 0 {
		t.Errorf("at most %d entries frozen at once, %d thawed: the test did not freeze", froze, thawed)
	}
}

// forget removes key's entry, if any; it is not an eviction.
func (m *memCache) forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(key)
}

// TestCacheClockStepsBack: after the clock steps back two days, an entry
// fetched with max-age=3600 is dated in the future, and is fetched again
// at once rather than kept for the 49 hours its expiry now seems away.
func TestCacheClockStepsBack(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=3600"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(-48 * time.Hour)
	if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	if n := s.hits.Load(); n != 2 {
		t.Errorf("after the clock stepped back, robots.txt was fetched %d times, want 2", n)
	}
	// Fetched again at the stepped clock, it keeps its hour from there.
	clock.Advance(59 * time.Minute)
	_, _ = c.Allowed(ctx, s.URL+"/")
	clock.Advance(2 * time.Minute)
	_, _ = c.Allowed(ctx, s.URL+"/")
	if n := s.hits.Load(); n != 3 {
		t.Errorf("an hour on, robots.txt was fetched %d times in all, want 3", n)
	}
}

// TestMemCacheNotesBeyondMaxUses: more uses than the cache notes between
// two changes are all learnt: entries used since are not evicted before
// entries never used.
func TestMemCacheNotesBeyondMaxUses(t *testing.T) {
	const n = 3 * maxUses
	m := newMemCache(n, 1<<40, true)
	for i := range n {
		m.put(memEntry(fmt.Sprintf("http://h%d:80", i), 1))
	}
	for i := range 2 * maxUses {
		if m.get([]byte(fmt.Sprintf("http://h%d:80", i))) == nil {
			t.Fatalf("h%d missing", i)
		}
	}
	for i := range maxUses {
		m.put(memEntry(fmt.Sprintf("http://new%d:80", i), 1))
	}
	for i := range 2 * maxUses {
		if m.peek(fmt.Sprintf("http://h%d:80", i)) == nil {
			t.Fatalf("h%d, used since, was evicted before entries never used", i)
		}
	}
}

// TestMemCacheBodiesOnly: a cache of bodies alone (tdmrep.json) keeps its
// entries by recency: one with a body, in use, outlives entries without
// one that were not used since.
func TestMemCacheBodiesOnly(t *testing.T) {
	m := newMemCache(4, 1<<30, false)
	file := &entry{key: "http://file.test:80", persisted: persisted{outcome: OutcomeRules,
		expires: stampOf(time.Now().Add(time.Hour))}, body: compress([]byte(`[]`))}
	m.put(file.derive())
	for i := range 3 {
		m.put(memEntry(fmt.Sprintf("http://none%d:80", i), 1))
	}
	m.get([]byte("http://file.test:80"))
	m.put(memEntry("http://new:80", 1))
	if m.peek("http://file.test:80") == nil || m.peek("http://none0:80") != nil {
		t.Error("the file in use was evicted before entries without one, not used since")
	}
}

// TestCacheBytesTDMRepShare: WithCacheBytes bounds robots.txt entries to
// n, and under WithTDMRep the tdmrep.json cache to a further eighth, as
// the option says.
func TestCacheBytesTDMRepShare(t *testing.T) {
	c := newTestClient(t, WithTDMRep(), WithCacheBytes(8000))
	if c.robots.cache.budget != 8000 || c.tdm.cache.budget != 1000 {
		t.Errorf("budgets %d and %d, want 8000 and 1000", c.robots.cache.budget, c.tdm.cache.budget)
	}
}

// TestCacheFullOfFrozenKeepsWorkingSet: once frozen bodies fill the
// budget, the sites in use keep their rules. shrink froze every hot
// entry but the newest before it evicted a frozen body, and each thaw
// froze the one before: two sites checked in turn were parsed again at
// every check (a crawl over more sites than the budget holds frozen,
// some 90,000 at the default, thawed at every check of any site but the
// newest).
func TestCacheFullOfFrozenKeepsWorkingSet(t *testing.T) {
	checkLeaks(t)
	w := newWeb(t, siteRules)
	var hosts []string
	for i := range 40 {
		hosts = append(hosts, fmt.Sprintf("h%d.test", 10+i))
	}
	probe := newTestClient(t, WithHTTPClient(w.client(t)))
	checkSite(t, probe, hosts[0])
	e := probe.robots.cache.peek("http://" + hosts[0] + ":80")
	frozen, rules := e.base, e.cost()-e.base
	budget := 12*frozen + 4*rules + rules/2 // as TestCacheBytesBudget: four sites whole fit beside eight frozen
	c := newTestClient(t, WithHTTPClient(w.client(t)), WithCacheBytes(budget))
	for _, h := range hosts { // more sites than the budget holds frozen
		checkSite(t, c, h)
	}
	before := c.Stats()
	for range 50 { // the two most recent, which fit whole many times over
		checkSite(t, c, hosts[38])
		checkSite(t, c, hosts[39])
	}
	if st := c.Stats(); st.Thaws-before.Thaws > 2 || st.Bytes > budget {
		t.Errorf("two sites checked in turn 50 times each, under a budget that holds four whole: %d thaws (each a parse), want at most 2; %d bytes held of a budget of %d",
			st.Thaws-before.Thaws, st.Bytes, budget)
	}
}
