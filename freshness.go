package robotstxt

import (
	"errors"
	"iter"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pquerna/cachecontrol/cacheobject"
	"github.com/robotsgate/robotstxt/internal/ascii"
)

// freshness returns how long a response with header h may be used, from
// Cache-Control (s-maxage, max-age, no-store, no-cache) and Expires against
// Date, less the Age a cache on the way spent of it (see age), clamped
// between the floor (see WithMinFreshness) and the cap, every Cache-Control
// line read. A Cache-Control whose directives of those (and private) do not
// parse, such as max-age=-5, or with a directive that is not well formed
// (see freshnessDirectives), or longer than maxCacheControl, or that gives
// an age twice, is stale (RFC 9111 §4.2.1): the floor; other directives are
// ignored (§5.2.3). Without such headers it is the cap, and ok is false.
// lifetime is the same before the Age and the clamp, at least 0, which a
// 304 renews (see Client.renew).
func (c *config) freshness(now time.Time, h http.Header) (d, lifetime time.Duration, ok bool) {
	lines := strings.Join(h.Values("Cache-Control"), ", ") // one list (RFC 9110 §5.3)
	cc, err := (*cacheobject.ResponseCacheDirectives)(nil), errLongCacheControl
	if len(lines) <= maxCacheControl {
		cc, err = nil, errMalformedCacheControl
		if read, ok := freshnessDirectives(lines); ok {
			cc, err = cacheobject.ParseResponseCacheControl(read)
		}
	}
	expires := h.Values("Expires") // an empty one is a date that does not parse (RFC 9111 §5.3)
	explicit := lines != "" || len(expires) > 0
	if err == nil && !cc.NoStore && !noCache(lines) && !repeatsAge(lines) {
		obj := cacheobject.Object{RespDirectives: cc, RespHeaders: h, NowUTC: now.UTC()}
		date, derr := http.ParseTime(h.Get("Date"))
		if derr == nil {
			obj.RespDateHeader = date.UTC()
		}
		if len(expires) > 0 {
			t, perr := http.ParseTime(expires[0])
			if perr != nil || t.Before(time.Unix(1, 0)) {
				// "0", "-1", or long past: already expired (year 1,
				// .NET's MinValue, is Go's zero Time, which the
				// parser reads as no Expires).
				t = time.Unix(1, 0)
				if derr == nil && !date.IsZero() && date.Before(t) {
					t = date // expired when sent, whatever the server's clock says
				}
			}
			obj.RespExpiresHeader = t.UTC()
		}
		var rv cacheobject.ObjectResults
		cacheobject.ExpirationObject(&obj, &rv)
		exp := rv.OutExpirationTime
		if cc.PrivatePresent && namesNone(cc.Private) && cc.SMaxAge != -1 {
			// A response for one user's cache: s-maxage speaks to shared
			// caches, which should not keep it at all, and max-age to a
			// private one. The Client is both; the shorter reading counts.
			obj.CacheIsPrivate = true
			cacheobject.ExpirationObject(&obj, &rv)
			if p := rv.OutExpirationTime; !p.IsZero() && p.Before(exp) {
				exp = p
			}
		}
		if exp.IsZero() {
			d, explicit = c.maxFresh, false
			lifetime = d
		} else if d = exp.Sub(now); d > 0 {
			lifetime = d
			d -= age(h) // not from a stale d, which Sub may have saturated
		}
	}
	return c.clampFresh(d), lifetime, explicit
}

// renew returns how long prev, revalidated by a 304 with header h at now,
// stays fresh, and keeps in e, its renewal, the lifetime a later 304
// renews it for. The 304's fields update those of the response prev rests
// on (RFC 9111 §4.3.4): a Cache-Control of its own that gives a lifetime,
// or comes with an Expires, replaces prev's; without one, prev's lifetime
// counts from the 304, less its Age. That lifetime is kept as a length,
// though an Expires gave it: a cache that kept the stored Expires would
// find the copy the 304 has just confirmed still stale, and ask again at
// every check. An Expires on a 304 without a Cache-Control shortens it,
// never lengthens it: a max-age the stored response held would outrank
// it, which an entry does not keep.
func (c *Client) renew(now time.Time, prev *entry, h http.Header, e *entry) time.Duration {
	d, lifetime, explicit := c.cfg.freshness(now, h)
	if explicit && len(h.Values("Cache-Control")) > 0 {
		e.setLifetime(lifetime)
		return d
	}
	kept := c.cfg.clampFresh(time.Duration(prev.lifetime)*storedUnit - age(h))
	if explicit {
		kept = min(kept, d)
	}
	return kept
}

// maxLifetime is the longest persisted.lifetime, 24.8 days in storedUnit:
// a longer one, under a WithMaxFreshness past it, is kept as this, and a
// 304 renews for no longer.
const maxLifetime = math.MaxInt32 * storedUnit

// setLifetime keeps d, a freshness lifetime, in e.lifetime.
func (e *entry) setLifetime(d time.Duration) {
	e.lifetime = int32(min(max(d, 0), maxLifetime) / storedUnit)
}

// freshnessDirectives returns the directives of the Cache-Control list cc
// that freshness reads, ", " between them, passing over the others
// (stale-if-error, public=1), as RFC 9111 §5.2.3 has a cache ignore
// directives it does not use; ok is false when a directive is not well
// formed, a token with a token or quoted-string argument or none
// ("no-store;", one that leaves a quote open): such a list, which may hide
// one freshness reads, does not parse. (The parser read an argument given
// as a token, private=Set-Cookie, up to a blank, and the directives after
// it as field names.)
func freshnessDirectives(cc string) (_ string, ok bool) {
	var keep []string
	for d := range directives(cc, false) {
		rest := strings.TrimLeft(d, tchars)
		name := d[:len(d)-len(rest)]
		if name == "" || rest != "" && (rest[0] != '=' || !isToken(rest[1:]) && !isQuoted(rest[1:])) {
			return "", false
		}
		switch ascii.LowerString(name) {
		case "max-age", "s-maxage", "no-store", "no-cache", "private":
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, ", "), true
}

// tchars are the bytes of an RFC 9110 token.
const tchars = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// isToken reports whether s is an RFC 9110 token.
func isToken(s string) bool { return s != "" && strings.TrimLeft(s, tchars) == "" }

// isQuoted reports whether s is an RFC 9110 quoted-string.
func isQuoted(s string) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		switch s[i] {
		case '\\':
			if i++; i == len(s)-1 {
				return false // the closing quote escaped
			}
		case '"':
			return false
		}
	}
	return true
}

// directives yields the directives of the Cache-Control list cc, split
// at the commas and blanks outside quoted strings (a '"' opens one only
// as an argument, right after '=', as the parser reads it), and with
// semicolons at the semicolons there too: the parser reads
// "no-cache max-age=86400" as two directives, and the scans that may
// only shorten a freshness (noCache, repeatsAge) read "no-cache;" as one,
// while "max-age=86400;" is no age.
func directives(cc string, semicolons bool) iter.Seq[string] {
	return func(yield func(string) bool) {
		quoted, escaped, start := false, false, 0
		for i := 0; i <= len(cc); i++ {
			if i < len(cc) {
				switch c := cc[i]; {
				case escaped:
					escaped = false
					continue
				case quoted && c == '\\':
					escaped = true
					continue
				case c == '"' && (quoted || i > 0 && cc[i-1] == '='):
					quoted = !quoted
					continue
				case quoted || c != ',' && c != ' ' && c != '\t' && (c != ';' || !semicolons):
					continue
				}
			}
			if d := strings.Trim(cc[start:i], " \t"); d != "" && !yield(d) {
				return
			}
			start = i + 1
		}
	}
}

// maxCacheControl bounds the Cache-Control list parsed: the parser keeps
// every directive it does not know, some 40 bytes for each comma (a
// header of 9 MiB, which net/http accepts, took 400 MiB), where real
// lists run under 200 bytes. A longer list reads as one that does not
// parse.
const maxCacheControl = 4 << 10

var (
	errLongCacheControl      = errors.New("Cache-Control too long")
	errMalformedCacheControl = errors.New("Cache-Control malformed")
)

// noCache reports whether the Cache-Control list cc holds a no-cache
// that names no field, which forbids using the response unrevalidated: a
// no-cache that names fields speaks of them alone (RFC 9111 §5.2.2.4).
func noCache(cc string) bool {
	for d := range directives(cc, true) {
		name, fields, _ := strings.Cut(d, "=")
		if ascii.EqualFold(strings.TrimSpace(name), "no-cache") && strings.Trim(fields, "\" \t") == "" {
			return true
		}
	}
	return false
}

// repeatsAge reports whether the Cache-Control list cc gives max-age or
// s-maxage more than once, which makes the response stale (RFC 9111
// §4.2.1): the parser would take the last.
func repeatsAge(cc string) bool {
	var maxAge, sMaxAge int
	for d := range directives(cc, true) {
		name, _, _ := strings.Cut(d, "=")
		switch ascii.LowerString(strings.TrimSpace(name)) {
		case "max-age":
			maxAge++
		case "s-maxage":
			sMaxAge++
		}
	}
	return maxAge > 1 || sMaxAge > 1
}

func (c *config) clampFresh(d time.Duration) time.Duration {
	low := min(c.minFresh, c.maxFresh)
	return min(max(d, low), c.maxFresh)
}

// retryIn returns how long an unreachable result is kept after the
// failures-th consecutive failure: the server's Retry-After if it sent
// one (at least a second, up to the longer of the back-off limit and the
// freshness cap), else the base back-off doubled for each earlier
// failure, up to the limit. Past the first failure a Retry-After waits
// at least the back-off of the failures before: a host that fails again
// when it said to come back (a Retry-After of 0, or a date past) is not
// asked every second.
func (c *config) retryIn(now time.Time, h http.Header, failures int) time.Duration {
	ra, ok := retryAfter(now, h)
	switch {
	case !ok:
		return c.backoffAfter(failures)
	case failures > 1:
		ra = max(ra, c.backoffAfter(failures-1))
	}
	return min(max(ra, time.Second), max(c.maxBackoff, c.maxFresh))
}

// backoffAfter returns the back-off after n consecutive failures: the
// base doubled n-1 times, up to the limit.
func (c *config) backoffAfter(n int) time.Duration {
	d := c.backoff
	for i := 1; i < n && d < c.maxBackoff; i++ {
		d += min(d, c.maxBackoff-d) // min(2*d, c.maxBackoff), without overflow
	}
	return min(d, c.maxBackoff)
}

// outageKept returns how long past a failure's expiry, asked of by no
// check, the outage it belongs to goes on: the longest back-off, and for
// a robots.txt the WithUnreachableAllowAfter limit, which counts from
// the outage's start. A Store keeps the failure so long (see
// sharedTier.set), and a Client's memory carries it no longer (see
// Client.unreachable): a failure after such a gap begins an outage, in
// every process alike, and failures further apart than the limit, with
// nothing seen between, are no one outage long enough to allow all.
func (c *config) outageKept(k key) time.Duration {
	if k.doc.robots {
		return max(c.maxBackoff, c.allowAfter)
	}
	return c.maxBackoff
}

// continues reports whether a failure of k's document at at goes on the
// outage whose last failure is prev (nil for none): asked again within
// outageKept of prev's expiry.
func (c *config) continues(k key, at stamp, prev *entry) bool {
	return prev != nil && prev.failures > 0 && at.sub(prev.expires) <= c.outageKept(k)
}

// outageAllows reports whether an outage of k's document begun at since
// has, at at, lasted long enough to crawl as if there were no robots.txt
// (WithUnreachableAllowAfter).
func (c *config) outageAllows(k key, at, since stamp) bool {
	return k.doc.robots && c.allowAfter > 0 && at.sub(since) >= c.allowAfter
}

// age returns the time a cache on the way held a response, by its Age
// (RFC 9111 §5.1: of a list a proxy joined, the first member), or 0. The
// apparent age from Date is not read, unlike RFC 9111 §4.2.3: a server
// whose clock is behind would have every copy of its file taken as
// stale, and fetched at every check past the floor.
func age(h http.Header) time.Duration {
	for _, line := range h.Values("Age") {
		for v := range strings.SplitSeq(line, ",") {
			if v = strings.TrimSpace(v); v != "" { // an empty member is none (RFC 9110 §5.6.1.2)
				d, _ := deltaSeconds(v)
				return d
			}
		}
	}
	return 0
}

// namesNone reports whether a qualified private's field names, as the
// parser keeps them, name no field: private="" is a bare private.
func namesNone(f map[string]bool) bool {
	for name := range f {
		if name != "" {
			return false
		}
	}
	return true
}

// deltaSeconds reads v as a whole number of seconds, not negative; one
// past int64 reads as 2^33 s, longer than any bound here.
func deltaSeconds(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false // and no error allocated for it
	}
	secs, err := strconv.ParseInt(v, 10, 64)
	if errors.Is(err, strconv.ErrRange) && v[0] != '-' {
		secs, err = 1<<33, nil // all digits, past int64: as long as any
	}
	if err != nil || secs < 0 {
		return 0, false
	}
	return time.Duration(min(secs, 1<<33)) * time.Second, true
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
// Of several values (header lines, or seconds a proxy joined with commas)
// the longest counts, and one it cannot read counts for none: a site
// asking to be left alone is, however a proxy passed it on. It reads the
// first maxRetryValues values, each of at most maxRetryValue bytes.
func retryAfter(now time.Time, h http.Header) (d time.Duration, ok bool) {
	if date := h.Get("Date"); len(date) <= maxRetryValue {
		if t, err := http.ParseTime(date); err == nil {
			now = t // a date is the server's, to be read by its clock
		}
	}
	n := 0
	for _, line := range h.Values("Retry-After") {
		for rest := line; rest != "" && n < maxRetryValues; n++ {
			var v, more string
			vd, vok := retryValue(now, strings.TrimSpace(rest))
			if !vok { // a list: an HTTP date holds a comma, seconds do not
				v, more, _ = strings.Cut(rest, ",")
				vd, vok = retryValue(now, strings.TrimSpace(v))
				if w, after, _ := strings.Cut(more, ","); !vok && len(v)+len(w) < maxRetryValue {
					if wd, wok := retryValue(now, strings.TrimSpace(v+","+w)); wok {
						vd, vok, more = wd, true, after // a date and its own comma
					}
				}
			}
			rest = more
			if vok && (!ok || vd > d) {
				d, ok = vd, true
			}
		}
	}
	return d, ok
}

// The bounds of what retryAfter reads: a proxy folds a few values, and an
// HTTP date or a number of seconds is a few dozen bytes; a hostile server's
// megabytes of values cost seconds of parsing, at every failure.
const (
	maxRetryValues = 16
	maxRetryValue  = 64
)

// retryValue reads one Retry-After value, v, at now by the server's clock.
func retryValue(now time.Time, v string) (time.Duration, bool) {
	if len(v) > maxRetryValue {
		return 0, false
	}
	if d, ok := deltaSeconds(v); ok {
		return d, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return t.Sub(now), true
}

// A coarseClock tells a warm check the time without a clock call, which
// costs 80 ns on the machines this library is measured on, more than the
// rest of a warm check (internal/bench BenchmarkClientWarmPath). A timer
// advances it every clockTick, stopping when a tick finds it unread since
// the last, until a check needs it again: an idle Client, or one never
// closed, leaves no timer running.
type coarseClock struct {
	now    atomic.Int64 // Unix nanoseconds at the last tick; 0 while stopped
	read   atomic.Bool  // read since the last tick
	mu     sync.Mutex   // held to start, tick and stop
	closed atomic.Bool  // set by stop; read without mu by start
	timer  *time.Timer
}

// clockTick is how often the coarse clock advances: a warm check sees
// expiry at most this late, unless the timer itself runs late.
const clockTick = 20 * time.Millisecond

// exactMargin is how close to its expiry an entry must be for a check to
// read the exact clock: two ticks, since the coarse clock lags by one.
const exactMargin = stamp(2 * clockTick)

func newCoarseClock() *coarseClock {
	c := new(coarseClock)
	c.timer = time.AfterFunc(time.Hour, c.tick)
	c.timer.Stop()
	return c
}

// load returns the time of the last tick, or 0 while the clock is stopped.
func (c *coarseClock) load() stamp {
	if !c.read.Load() {
		c.read.Store(true) // once a tick: the line stays shared between cores
	}
	return stamp(c.now.Load())
}

// start starts the stopped clock at now, the exact time.
func (c *coarseClock) start(now stamp) {
	if c.closed.Load() {
		return // checks after Close read the exact clock, and take no lock
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed.Load() && c.now.CompareAndSwap(0, int64(now)) {
		c.timer.Reset(clockTick)
	}
}

// tick advances the clock, or stops it if it was not read since the
// last tick.
func (c *coarseClock) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed.Load() || !c.read.Swap(false) {
		c.now.Store(0)
		return
	}
	c.now.Store(time.Now().UnixNano())
	c.timer.Reset(clockTick)
}

// stop stops the clock for good.
func (c *coarseClock) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed.Store(true)
	c.timer.Stop()
	c.now.Store(0)
}
