package robotstxt

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/cachecontrol/cacheobject"
)

// freshness returns how long a response with header h may be used, from
// Cache-Control (s-maxage, max-age, no-store, no-cache) and Expires
// against Date, clamped between the floor (see WithMinFreshness) and the
// cap. A Cache-Control that does not parse, such as max-age=-5, is stale
// (RFC 9111 §4.2.1): the floor. Without such headers it is the cap, and
// ok is false.
func (c *config) freshness(now time.Time, h http.Header) (d time.Duration, ok bool) {
	cc, err := cacheobject.ParseResponseCacheControl(h.Get("Cache-Control"))
	explicit := h.Get("Cache-Control") != "" || h.Get("Expires") != ""
	if err == nil && !cc.NoStore && !cc.NoCachePresent {
		obj := cacheobject.Object{RespDirectives: cc, RespHeaders: h, NowUTC: now.UTC()}
		if v := h.Get("Expires"); v != "" {
			t, perr := http.ParseTime(v)
			if perr != nil {
				t = time.Unix(1, 0) // "0", "-1": already expired
			}
			obj.RespExpiresHeader = t.UTC()
		}
		if t, perr := http.ParseTime(h.Get("Date")); perr == nil {
			obj.RespDateHeader = t.UTC()
		}
		var rv cacheobject.ObjectResults
		cacheobject.ExpirationObject(&obj, &rv)
		if rv.OutExpirationTime.IsZero() {
			d, explicit = c.maxFresh, false
		} else {
			d = rv.OutExpirationTime.Sub(now)
		}
	}
	return c.clampFresh(d), explicit
}

func (c *config) clampFresh(d time.Duration) time.Duration {
	low := min(c.minFresh, c.maxFresh)
	return min(max(d, low), c.maxFresh)
}

// retryIn returns how long an unreachable result is kept: the server's
// Retry-After (between one second and the freshness cap) if it sent one,
// else the base back-off doubled for each earlier consecutive failure, up
// to the maximum.
func (c *config) retryIn(now time.Time, h http.Header, failures int) time.Duration {
	if d, ok := retryAfter(now, h); ok {
		return min(max(d, time.Second), c.maxFresh)
	}
	d := c.backoff
	for i := 1; i < failures && d < c.maxBackoff; i++ {
		d = min(2*d, c.maxBackoff)
		if d < 0 { // doubled past math.MaxInt64
			d = c.maxBackoff
		}
	}
	return min(d, c.maxBackoff)
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
func retryAfter(now time.Time, h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, int64(1<<33))) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		return t.Sub(date), true
	}
	return t.Sub(now), true
}
