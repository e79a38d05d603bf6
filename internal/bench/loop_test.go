package bench

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	robotsgate "github.com/robotsgate/robotstxt"
)

// The README's crawler loop ("Every request checked: the Transport") over
// a loopback site with a Crawl-delay: a frontier that puts a paced URL
// back for its PacedError's RetryAt, through a Transport made WithNoWait
// (with a plain transport where the README has PublicOnly, which refuses
// loopback).

// loopDelay is the site's Crawl-delay: long against loopback's latency and
// a busy machine's timers, short enough that a crawl takes about a second.
const loopDelay = 40 * time.Millisecond

// loopLatencies are the times the site takes to answer a page: none, and
// a quarter of the Crawl-delay, as a distant server's would be.
var loopLatencies = []time.Duration{0, loopDelay / 4}

// loopSite is a site of 1 + 4 + 4×5 = 25 pages: the home page links to four
// sections, each section to five pages, every page back home; perhaps
// each link through a redirect within the site (/go/s1/ to /s1/), as a
// link tracker's or a moved path's, which takes a turn of its own.
type loopSite struct {
	*httptest.Server
	mu       sync.Mutex
	arrivals []time.Time // of page requests, robots.txt excluded
}

// newLoopSite starts a loopSite that answers each page after latency,
// its links through redirects if redirect.
func newLoopSite(tb testing.TB, latency time.Duration, redirect bool) *loopSite {
	s := &loopSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprintf(w, "User-agent: *\nCrawl-delay: %g\n", loopDelay.Seconds())
			return
		}
		s.mu.Lock()
		s.arrivals = append(s.arrivals, time.Now())
		s.mu.Unlock()
		time.Sleep(latency)
		if to, ok := strings.CutPrefix(r.URL.Path, "/go"); ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		links := []string{"/"}
		switch p := r.URL.Path; {
		case p == "/":
			links = []string{"/s1/", "/s2/", "/s3/", "/s4/"}
		case strings.Count(p, "/") == 2 && strings.HasSuffix(p, "/"):
			for i := range 5 {
				links = append(links, fmt.Sprintf("%sp%d.html", p, i+1))
			}
		}
		if redirect {
			for i := range links {
				links[i] = "/go" + links[i]
			}
		}
		fmt.Fprintln(w, strings.Join(links, "\n"))
	}))
	tb.Cleanup(s.Close)
	return s
}

// minGap returns the shortest time between two page requests' arrivals.
func (s *loopSite) minGap() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	gap := time.Duration(1<<63 - 1)
	for i := 1; i < len(s.arrivals); i++ {
		gap = min(gap, s.arrivals[i].Sub(s.arrivals[i-1]))
	}
	return gap
}

// loopFrontier is the README's f: the URL due first, FIFO among URLs due
// together, each URL added once.
type loopFrontier struct {
	items loopHeap
	seen  map[string]bool
	seq   int
}

func (f *loopFrontier) Add(urls ...string) {
	for _, u := range urls {
		if !f.seen[u] {
			f.seen[u] = true
			f.Retry(u, time.Time{})
		}
	}
}

func (f *loopFrontier) Retry(u string, at time.Time) {
	f.seq++
	heap.Push(&f.items, loopItem{u, at, f.seq})
}

// Next waits until the URL due first is due and returns it, or false when
// none is left.
func (f *loopFrontier) Next(ctx context.Context) (string, bool) {
	if len(f.items) == 0 {
		return "", false
	}
	if wait := time.Until(f.items[0].at); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return "", false
		}
	}
	return heap.Pop(&f.items).(loopItem).u, true
}

type loopItem struct {
	u   string
	at  time.Time
	seq int
}

type loopHeap []loopItem

func (h loopHeap) Len() int { return len(h) }
func (h loopHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h loopHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *loopHeap) Push(x any)   { *h = append(*h, x.(loopItem)) }
func (h *loopHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// crawlLoop crawls a fresh loopSite with the README's loop and returns
// the pages fetched, the PacedErrors met and the shortest gap between two
// page requests' arrivals.
func crawlLoop(tb testing.TB, latency time.Duration, redirect bool) (fetched, paced int, gap time.Duration) {
	s := newLoopSite(tb, latency, redirect)
	next := &http.Transport{}
	defer next.CloseIdleConnections()
	rc, rt := robotsgate.NewClientTransport(next,
		[]robotsgate.Option{robotsgate.WithUserAgent("ExampleBot/1.0")},
		robotsgate.WithNoWait())
	defer rc.Close()
	hc := &http.Client{Transport: rt, Timeout: 30 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	f := &loopFrontier{seen: map[string]bool{}}
	if redirect {
		f.Add(s.URL + "/go/") // as the pages link home
	} else {
		f.Add(s.URL + "/")
	}
	for u, ok := f.Next(ctx); ok; u, ok = f.Next(ctx) {
		resp, err := hc.Get(u)
		var pe *robotsgate.PacedError
		var de *robotsgate.DeferredError
		switch {
		case errors.As(err, &pe):
			paced++
			// Where a redirect led, if one did: the README's pe.URL, as
			// the *url.Error net/http wraps it in says it, which builds
			// against commits before PacedError.URL too (see compare.sh).
			var ue *url.Error
			if !errors.As(err, &ue) {
				tb.Fatalf("a PacedError outside a *url.Error: %v", err)
			}
			f.Retry(ue.URL, pe.RetryAt)
		case errors.As(err, &de):
			f.Retry(u, de.RetryAt)
		case err != nil:
			tb.Fatalf("%s: %v", u, err)
		default:
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			fetched++
			for l := range strings.FieldsSeq(string(body)) {
				f.Add(s.URL + l)
			}
		}
	}
	if ctx.Err() != nil {
		tb.Fatalf("the crawl did not end: %d pages fetched", fetched)
	}
	return fetched, paced, s.minGap()
}

// TestCrawlLoopConverges runs the README's loop over a site with a
// Crawl-delay, answering at once or after a quarter of it, its links
// plain or through redirects within the site: every page is fetched
// once, no two requests reach the site closer than the Crawl-delay, and a
// frontier that requeues by RetryAt meets at most 1.5 PacedErrors per
// page fetched.
func TestCrawlLoopConverges(t *testing.T) {
	for _, redirect := range []bool{false, true} {
		for _, latency := range loopLatencies {
			fetched, paced, gap := crawlLoop(t, latency, redirect)
			if fetched != 25 {
				t.Errorf("latency %v, redirects %v: fetched %d pages, want 25", latency, redirect, fetched)
			}
			if gap < loopDelay {
				t.Errorf("latency %v, redirects %v: two requests reached the site %v apart, less than the Crawl-delay %v", latency, redirect, gap, loopDelay)
			}
			if r := float64(paced) / float64(fetched); r > 1.5 {
				t.Errorf("latency %v, redirects %v: %d PacedErrors for %d pages: %.2f a page, want at most 1.5", latency, redirect, paced, fetched, r)
			}
			t.Logf("latency %v, redirects %v: %d pages, %d PacedErrors, shortest gap %v", latency, redirect, fetched, paced, gap)
		}
	}
}

// BenchmarkCrawlLoop runs the README's loop over a site of 25 pages with a
// Crawl-delay of 40 ms, answering at once or after 10 ms, and reports the
// most PacedErrors met per page fetched over its crawls (paced/page,
// target ≤ 1.5) and the shortest gap between two requests' arrivals over
// the Crawl-delay (gap/delay, which must be ≥ 1).
func BenchmarkCrawlLoop(b *testing.B) {
	for _, latency := range loopLatencies {
		b.Run(fmt.Sprintf("latency=%v", latency), func(b *testing.B) {
			var ratios, gaps []float64
			for b.Loop() {
				fetched, paced, gap := crawlLoop(b, latency, false)
				ratios = append(ratios, float64(paced)/float64(fetched))
				gaps = append(gaps, gap.Seconds()/loopDelay.Seconds())
			}
			b.ReportMetric(slices.Max(ratios), "paced/page")
			b.ReportMetric(slices.Min(gaps), "gap/delay")
		})
	}
}
