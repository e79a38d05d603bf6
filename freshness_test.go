package robotstxt

import (
	"math"
	"net/http"
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
