package robotstxt

import (
	"context"
	"math"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRetryInStaysWithinTheBackoff: the wait after n failures doubles from
// the base to the cap and stays there, for every n, even when the cap is
// math.MaxInt64 and the doubling would pass it.
func TestRetryInStaysWithinTheBackoff(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, limit := range []time.Duration{time.Hour, math.MaxInt64} {
		cfg := defaultConfig()
		cfg.backoff, cfg.maxBackoff = time.Minute, limit
		last := time.Duration(0)
		for failures := 1; failures <= 200; failures++ {
			d := cfg.retryIn(now, http.Header{}, failures)
			if d < last || d > limit {
				t.Fatalf("cap %v: wait after %d failures %v, after %d %v", limit, failures, d, failures-1, last)
			}
			last = d
		}
		if last != limit {
			t.Errorf("cap %v: wait after 200 failures %v, want the cap", limit, last)
		}
	}
}

// TestRetryInHonoursRetryAfter: a Retry-After replaces the back-off, up
// to the longer of its limit and the freshness cap; past the first
// failure it waits at least the back-off of the failures before: 0, or a
// date past, is no reason to ask a failing host every second.
func TestRetryInHonoursRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	cfg := defaultConfig()
	cfg.backoff, cfg.maxBackoff, cfg.maxFresh = time.Minute, time.Hour, 10*time.Minute
	for _, tc := range []struct {
		retryAfter string
		failures   int
		want       time.Duration
	}{
		{"", 1, time.Minute},
		{"", 3, 4 * time.Minute},
		{"0", 1, time.Second},
		{"0", 2, time.Minute},
		{"0", 4, 4 * time.Minute},
		{"Sat, 01 Mar 2025 11:00:00 GMT", 3, 2 * time.Minute},
		{"30", 1, 30 * time.Second},
		{"30", 2, time.Minute},
		{"600", 1, 10 * time.Minute},
		{"600", 3, 10 * time.Minute},
		{"3600", 1, time.Hour},
		{"86400", 1, time.Hour},
	} {
		h := http.Header{}
		if tc.retryAfter != "" {
			h.Set("Retry-After", tc.retryAfter)
		}
		if got := cfg.retryIn(now, h, tc.failures); got != tc.want {
			t.Errorf("Retry-After %q after %d failures: %v, want %v", tc.retryAfter, tc.failures, got, tc.want)
		}
	}
	cfg.maxFresh = 24 * time.Hour
	if got := cfg.retryIn(now, http.Header{"Retry-After": {"7200"}}, 1); got != 2*time.Hour {
		t.Errorf("Retry-After 7200 under a 24 h freshness cap: %v, want 2h", got)
	}
}

// TestCoarseClockStopsWhenIdle: a warm check starts the coarse clock, which
// stops once a tick finds it unread, leaving no timer; the next check
// starts it again, and Close stops it for good.
func TestCoarseClockStopsWhenIdle(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t)
	ctx := context.Background()
	running := func() bool { return c.clock.now.Load() != 0 }
	if _, err := c.Allowed(ctx, s.URL+"/"); err != nil || running() {
		t.Fatalf("after a cold check: running %v, %v; want stopped", running(), err)
	}
	if _, err := c.Allowed(ctx, s.URL+"/"); err != nil || !running() {
		t.Fatalf("after a warm check: running %v, %v; want running", running(), err)
	}
	for deadline := time.Now().Add(5 * time.Second); running(); time.Sleep(clockTick) {
		if time.Now().After(deadline) {
			t.Fatal("the clock of an idle Client still runs after 5 s")
		}
	}
	if ok, err := c.Allowed(ctx, s.URL+"/private"); ok || err != nil || !running() {
		t.Fatalf("a check after idling: %v, %v, running %v; want disallowed, running", ok, err, running())
	}
	_ = c.Close()
	if ok, err := c.Allowed(ctx, s.URL+"/private"); ok || err != nil || running() {
		t.Errorf("a check after Close: %v, %v, running %v; want disallowed from memory, stopped", ok, err, running())
	}
}

// TestCoarseClockMarginReadsTheExactClock: an entry within exactMargin
// of its expiry is judged on the exact clock, so a freshness shorter than
// a tick still expires on time.
func TestCoarseClockMarginReadsTheExactClock(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t, WithMinFreshness(0), WithMaxFreshness(time.Millisecond))
	ctx := context.Background()
	for range 3 {
		if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if n := s.hits.Load(); n != 3 {
		t.Errorf("three checks 2 ms apart of an entry fresh for 1 ms fetched %d times, want 3", n)
	}
}

// TestFreshnessReadsALongListInBoundedMemory: a Cache-Control of a
// mebibyte of commas costs about its copy, not the tens of mebibytes the
// parser would keep of it.
func TestFreshnessReadsALongListInBoundedMemory(t *testing.T) {
	cfg := defaultConfig()
	h := http.Header{"Cache-Control": {strings.Repeat("a,", 512<<10)}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, _, _ := cfg.freshness(time.Now(), h)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 || d != cfg.minFresh {
		t.Errorf("freshness of a 1 MiB list: %v, allocating %d bytes; want the floor, %v, in at most 4 MiB", d, grew, cfg.minFresh)
	}
}

// TestRetryAfter reads Retry-After as seconds or an HTTP date: a number of
// seconds too large for int64 holds as long as any, not at all.
func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		v, date string
		want    time.Duration
		ok      bool
	}{
		{"120", "", 120 * time.Second, true},
		{" 0 ", "", 0, true},
		{"9223372036854775807", "", (1 << 33) * time.Second, true},
		{"99999999999999999999", "", (1 << 33) * time.Second, true},
		{"-5", "", 0, false},
		{"-99999999999999999999", "", 0, false},
		{"soon", "", 0, false},
		{"", "", 0, false},
		{"Tue, 01 Dec 2026 12:02:00 GMT", "", 2 * time.Minute, true},
		{"Tue, 01 Dec 2026 12:02:00 GMT", "Tue, 01 Dec 2026 12:01:00 GMT", time.Minute, true},
	} {
		h := http.Header{"Retry-After": {tc.v}}
		if tc.date != "" {
			h.Set("Date", tc.date)
		}
		if got, ok := retryAfter(now, h); got != tc.want || ok != tc.ok {
			t.Errorf("Retry-After %q (Date %q): %v, %v; want %v, %v", tc.v, tc.date, got, ok, tc.want, tc.ok)
		}
	}
	// Several values, as proxies pass them on: the longest counts.
	for _, tc := range []struct {
		lines []string
		want  time.Duration
	}{
		{[]string{"x", "3600"}, time.Hour},
		{[]string{"3600", "x"}, time.Hour},
		{[]string{"3600, 3600"}, time.Hour},
		{[]string{"60, 3600"}, time.Hour},
		{[]string{"120", "Tue, 01 Dec 2026 13:00:00 GMT"}, time.Hour},
		{[]string{"Tue, 01 Dec 2026 12:02:00 GMT, 7200"}, 2 * time.Hour},
		// A date before other values, read with its own comma.
		{[]string{"Tue, 01 Dec 2026 14:00:00 GMT, 120"}, 2 * time.Hour},
		{[]string{"Tuesday, 01-Dec-26 14:00:00 GMT, 120"}, 2 * time.Hour},
		{[]string{"120, Tue, 01 Dec 2026 14:00:00 GMT, 60"}, 2 * time.Hour},
	} {
		if got, ok := retryAfter(now, http.Header{"Retry-After": tc.lines}); got != tc.want || !ok {
			t.Errorf("Retry-After lines %q: %v; want %v", tc.lines, got, tc.want)
		}
	}
}

// TestFreshnessPastExpires: an Expires in the past is stale, the floor,
// however far past: on 1 January of year 1 (.NET's DateTime.MinValue,
// Go's zero Time), and beyond what a Duration spans, less an Age.
func TestFreshnessPastExpires(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, h := range []http.Header{
		{"Expires": {"Thu, 01 Jan 1970 00:00:00 GMT"}},
		{"Expires": {"Mon, 01 Jan 0001 00:00:00 GMT"}},
		{"Expires": {"Mon, 01 Jan 0001 00:00:01 GMT"}, "Age": {"1"}},
		{"Expires": {"Mon, 01 Jan 1990 00:00:00 GMT"}, "Date": {"Thu, 01 Jan 2026 00:00:00 GMT"}, "Age": {"9999999999"}},
	} {
		if d, _, explicit := cfg.freshness(now, h); d != cfg.minFresh || !explicit {
			t.Errorf("freshness(%v) = %v, %v; want the floor %v", h, d, explicit, cfg.minFresh)
		}
	}
}

// TestRetryAfterBounded: a hostile server's megabyte of Retry-After values,
// on one line or on many, is read in a bounded number of steps (each
// value cost a few allocations, and a fetch seconds); the values read
// still count.
func TestRetryAfterBounded(t *testing.T) {
	now := time.Now()
	for name, h := range map[string]http.Header{
		"one line":   {"Retry-After": {"120, " + strings.Repeat("x,", 1<<19)}},
		"many lines": {"Retry-After": append([]string{"120"}, slices.Repeat([]string{"x"}, 1<<16)...)},
		"one value":  {"Retry-After": {"120", strings.Repeat("9", 1<<20)}, "Date": {strings.Repeat("x", 1<<20)}},
	} {
		var d time.Duration
		var ok bool
		if allocs := testing.AllocsPerRun(3, func() { d, ok = retryAfter(now, h) }); allocs > 1000 {
			t.Errorf("%s: %v allocations", name, allocs)
		}
		if !ok || d != 120*time.Second {
			t.Errorf("%s: %v, %v; want 120s", name, d, ok)
		}
	}
}

// FuzzFreshnessHeaders reads the caching headers of a robots.txt response
// (Cache-Control, Expires, Date, Age, Retry-After), which the site sends.
// Beyond not panicking: the freshness stays between the floor and the
// cap, the lifetime is never negative, an Age never lengthens it, a
// no-store gives the floor; a Retry-After's wait stays within
// [1 s, max(maxBackoff, maxFresh)], and of two Retry-After lines the
// longer counts (retryAfter doc).
func FuzzFreshnessHeaders(f *testing.F) {
	f.Add("max-age=3600", "", "", "", "120", "", int64(1767225600), uint8(1))
	f.Add("private, s-maxage=60, max-age=600", "Thu, 01 Jan 2026 01:00:00 GMT", "Thu, 01 Jan 2026 00:00:00 GMT", "30", "Thu, 01 Jan 2026 00:10:00 GMT", "60, 7200", int64(1767225600), uint8(3))
	f.Add(`no-cache="set-cookie", max-age=100`, "0", "", "5", "soon", "-1", int64(0), uint8(2))
	f.Add("max-age=10, max-age=20", "-1", "garbage", "99999999999999999999", "Tuesday, 01-Dec-26 14:00:00 GMT, 120", "", int64(-62135596800), uint8(9))
	f.Fuzz(func(t *testing.T, cc, expires, date, agev, ra1, ra2 string, nowUnix int64, failures uint8) {
		if len(cc)+len(expires)+len(date)+len(agev)+len(ra1)+len(ra2) > 1<<12 {
			return
		}
		now := time.Unix(nowUnix%(1<<35), 0).UTC()
		cfg := defaultConfig()
		h := http.Header{}
		for _, kv := range [][2]string{{"Cache-Control", cc}, {"Expires", expires}, {"Date", date}} {
			if kv[1] != "" {
				h.Set(kv[0], kv[1])
			}
		}
		d, lifetime, _ := cfg.freshness(now, h)
		low := min(cfg.minFresh, cfg.maxFresh)
		if d < low || d > cfg.maxFresh {
			t.Fatalf("freshness %v outside [%v, %v] for %v", d, low, cfg.maxFresh, h)
		}
		if lifetime < 0 {
			t.Fatalf("lifetime %v < 0 for %v", lifetime, h)
		}
		if agev != "" {
			ha := h.Clone()
			ha.Set("Age", agev)
			if da, _, _ := cfg.freshness(now, ha); da > d {
				t.Fatalf("Age %q lengthens freshness %v -> %v for %v", agev, d, da, h)
			}
		}
		for dir := range directives(cc, false) {
			if strings.EqualFold(dir, "no-store") && d != low {
				t.Fatalf("no-store in %q: freshness %v, want the floor %v", cc, d, low)
			}
		}
		hr := http.Header{}
		if date != "" {
			hr.Set("Date", date)
		}
		hr["Retry-After"] = []string{ra1}
		n := int(failures%12) + 1
		w := cfg.retryIn(now, hr, n)
		if w < min(time.Second, cfg.backoff) || w > max(cfg.maxBackoff, cfg.maxFresh) {
			t.Fatalf("retryIn(%q, %d) = %v", ra1, n, w)
		}
		// Of two lines, the longer counts; one it cannot read counts for none.
		if strings.Count(ra1, ",")+strings.Count(ra2, ",") < 6 {
			d1, ok1 := retryAfter(now, http.Header{"Retry-After": {ra1}, "Date": hr["Date"]})
			d2, ok2 := retryAfter(now, http.Header{"Retry-After": {ra2}, "Date": hr["Date"]})
			d12, ok12 := retryAfter(now, http.Header{"Retry-After": {ra1, ra2}, "Date": hr["Date"]})
			want, wok := d1, ok1
			if ok2 && (!ok1 || d2 > d1) {
				want, wok = d2, true
			}
			if d12 != want || ok12 != wok {
				t.Fatalf("Retry-After %q, %q: %v %v; apart %v %v and %v %v", ra1, ra2, d12, ok12, d1, ok1, d2, ok2)
			}
		}
	})
}

// TestFreshnessInvalidExpiresBeforeAnEarlyDate: an Expires that does not
// parse ("0") or lies before 1970 means "already expired" (RFC 9111
// §5.3), whatever the Date: a Date before 1970 made the stand-in for
// such an Expires (1 January 1970) decades after it, and the file fresh
// for the whole cap.
func TestFreshnessInvalidExpiresBeforeAnEarlyDate(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, h := range []http.Header{
		{"Expires": {"0"}, "Date": {"Mon, 01 Jan 1900 00:00:00 GMT"}},
		{"Expires": {"-1"}, "Date": {"Sun, 31 Dec 1969 23:00:00 GMT"}},
		{"Expires": {"Mon, 01 Jan 0001 00:00:00 GMT"}, "Date": {"Mon, 01 Jan 1900 00:00:00 GMT"}},
	} {
		if d, _, explicit := cfg.freshness(now, h); d != cfg.minFresh || !explicit {
			t.Errorf("freshness(%v) = %v, %v; want the floor %v", h, d, explicit, cfg.minFresh)
		}
	}
}

// TestFreshnessIgnoresAMalformedExtensionDirective (cache79): a
// Cache-Control whose max-age is well formed keeps it when an extension
// directive the Client does not use (RFC 5861's stale-if-error and
// stale-while-revalidate, an argument to public) is malformed: RFC 9111
// §5.2.3 has caches ignore directives they do not recognise, and §4.2.1
// reads as stale only invalid freshness information (a max-age that is
// no integer). The whole list was read as unparseable: the floor, a
// minute, where the site asked for a day.
func TestFreshnessIgnoresAMalformedExtensionDirective(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		cc   string
		want time.Duration
	}{
		{"max-age=86400, stale-if-error", 24 * time.Hour},
		{"max-age=86400, stale-while-revalidate", 24 * time.Hour},
		{"public=1, max-age=86400", 24 * time.Hour},
		{"max-age=86400, immutable=true", 24 * time.Hour},
		// Passed over, not with the directive a blank joins to it.
		{"stale-if-error max-age=3600", time.Hour},
		{"private=Set-Cookie max-age=3600", time.Hour},
		{"stale-if-error, no-store", time.Minute},
	} {
		if d, _, _ := cfg.freshness(now, http.Header{"Cache-Control": {c.cc}}); d != c.want {
			t.Errorf("freshness(Cache-Control: %s) = %v, want %v", c.cc, d, c.want)
		}
	}
}

// TestFreshnessNoStoreGluedToASeparator: a no-store (or a bare private
// beside an s-maxage) written with a separator glued on, "no-store;" (a
// common slip), is a directive freshness reads, not one it passes over:
// the list does not parse, and the response is stale (the floor), not
// kept for its max-age, Expires or the cap. noCache reads "no-cache;" as
// no-cache; "no-store;" is no weaker.
func TestFreshnessNoStoreGluedToASeparator(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Cache-Control": {"no-store;"}}, time.Minute},
		{http.Header{"Cache-Control": {"max-age=86400, no-store;"}}, time.Minute},
		{http.Header{"Cache-Control": {"no-store:"}}, time.Minute},
		{http.Header{"Cache-Control": {"NO-STORE)"}}, time.Minute},
		{http.Header{"Cache-Control": {"no-store;"}, "Date": {"Thu, 01 Jan 2026 00:00:00 GMT"}, "Expires": {"Fri, 02 Jan 2026 00:00:00 GMT"}}, time.Minute},
		// A response for one user: the shorter, max-age, reading counts.
		{http.Header{"Cache-Control": {"private; s-maxage=86400, max-age=60"}}, time.Minute},
	} {
		if d, _, _ := cfg.freshness(now, c.h); d != c.want {
			t.Errorf("freshness(%v) = %v, want %v", c.h, d, c.want)
		}
	}
}

// TestFreshnessNoStoreAfterAnOpenQuote: an extension whose quoted
// argument is never closed takes the rest of the list into it, a
// no-store after it too; passed over, the list would read as one without
// Cache-Control, or by its max-age. It is kept: the list does not parse,
// and the response is stale. So is a no-store glued to an extension's
// closing quote.
func TestFreshnessNoStoreAfterAnOpenQuote(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, cc := range []string{
		`ext="x, no-store`,
		`max-age=3600, ext="x, no-store`,
		`ext="x"no-store`,
	} {
		if d, _, _ := cfg.freshness(now, http.Header{"Cache-Control": {cc}}); d != time.Minute {
			t.Errorf("freshness(Cache-Control: %s) = %v, want %v", cc, d, time.Minute)
		}
	}
}

// TestFreshnessMaxAgeWithUnicodeSpaceIsStale: "max-age=86400" followed by
// a no-break space (U+00A0, UTF-8 C2 A0, obs-text net/http accepts in a
// header value) or another Unicode space is no delta-seconds: RFC 9111
// §1.2.2/§4.2.1 read an invalid max-age as stale: the floor, not a day.
func TestFreshnessMaxAgeWithUnicodeSpaceIsStale(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, cc := range []string{
		"max-age=86400\u00a0",         // NBSP pasted after the number
		"max-age=86400\u0085",         // NEL
		"max-age=86400\u3000",         // ideographic space
		"s-maxage=86400\u2028",        // line separator
		"max-age=86400\u00a0, public", // a comma after it
	} {
		if d, _, _ := cfg.freshness(now, http.Header{"Cache-Control": {cc}}); d != time.Minute {
			t.Errorf("freshness(Cache-Control: %q) = %v, want %v (an invalid max-age is stale)", cc, d, time.Minute)
		}
	}
}

// TestFreshnessEmptyPrivateFieldListIsUnqualified: private="" names no
// field, so it is no qualified private (RFC 9111 §5.2.2.7 qualifies it
// with "one or more field names"): the response is for one user, and
// the Client, private and shared alike, takes the shorter, max-age,
// reading, as it does for a bare private (and as noCache reads
// no-cache="" as an unqualified no-cache).
func TestFreshnessEmptyPrivateFieldListIsUnqualified(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	bare, _, _ := cfg.freshness(now, http.Header{"Cache-Control": {"private, s-maxage=86400, max-age=60"}})
	for _, cc := range []string{
		`private="", s-maxage=86400, max-age=60`,
		`private=" ", s-maxage=86400, max-age=60`,
	} {
		if d, _, _ := cfg.freshness(now, http.Header{"Cache-Control": {cc}}); d != bare {
			t.Errorf("freshness(Cache-Control: %s) = %v, want %v as for a bare private", cc, d, bare)
		}
	}
}

// TestFreshnessAgeAfterAnEmptyListMember: Age is a list whose empty
// members a recipient ignores (RFC 9110 §5.6.1.2); RFC 9111 §5.1 has a
// cache use its first member. "Age: , 86000" (or an empty Age line
// before "Age: 86000") is an age of 86000 s, which leaves a max-age of a
// day 400 s.
func TestFreshnessAgeAfterAnEmptyListMember(t *testing.T) {
	cfg := defaultConfig()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, age := range [][]string{{", 86000"}, {"", "86000"}} {
		h := http.Header{"Cache-Control": {"max-age=86400"}, "Age": age}
		if d, _, _ := cfg.freshness(now, h); d > 400*time.Second {
			t.Errorf("freshness(Age: %q) = %v, want at most 400s", age, d)
		}
	}
}
