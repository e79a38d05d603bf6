package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/robotsgate/robotstxt"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// crawled is what one crawl of fresh demo sites did.
type crawled struct {
	demo      *demo
	res       result
	out       string
	transport robotstxt.TransportStats
	client    robotstxt.Stats
}

// crawlDemo crawls fresh demo sites with workers workers and at most
// maxPages page requests.
func crawlDemo(t *testing.T, maxPages, workers int) crawled {
	t.Helper()
	d := newDemo()
	t.Cleanup(d.Close)
	return crawlSites(t, d, maxPages, workers)
}

// crawlSites crawls from the seeds of d's sites, as crawlDemo does.
func crawlSites(t *testing.T, d *demo, maxPages, workers int) crawled {
	t.Helper()
	var out bytes.Buffer
	c, closeCrawler := newCrawler(d, &out, maxPages, workers)
	t.Cleanup(closeCrawler)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := c.crawl(ctx, d.seeds())
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, out.String())
	}
	return crawled{d, res, out.String(), c.rt.Stats(), c.robots.Stats()}
}

// crawlFrom crawls from seed alone, with at most maxPages page requests,
// and returns what it printed; it fails after 20 s.
func crawlFrom(seed string, maxPages, workers int) (string, error) {
	var out bytes.Buffer
	c, closeCrawler := newCrawler(&demo{}, &out, maxPages, workers)
	defer closeCrawler()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	u, err := url.Parse(seed)
	if err == nil {
		_, err = c.crawl(ctx, []*url.URL{u})
	}
	return out.String(), err
}

func TestCrawlHonoursRobots(t *testing.T) {
	cr := crawlDemo(t, 100, 4)
	main, news, flaky := cr.demo.sites[0], cr.demo.sites[1], cr.demo.sites[2]

	fetched := map[*site][]string{
		main: {"/", "/about.html", "/blog/", "/blog/first.html", "/blog/second.html", "/blog/print.html",
			"/archive/", "/private/press.html", "/sitemap.xml", "/never-linked/page.html"},
		news:  {"/", "/1.html", "/2.html", "/3.html"},
		flaky: {"/", "/hello.html"},
	}
	n := 0
	for s, pages := range fetched {
		for _, p := range pages {
			if got := s.Hits(p); got != 1 {
				t.Errorf("%s%s fetched %d times, want once", s.spec.name, p, got)
			}
		}
		n += len(pages)
	}
	if len(cr.res.Fetched) != n {
		t.Errorf("fetched %q, want the %d allowed pages", cr.res.Fetched, n)
	}
	// Disallowed pages, and a page linked only from a nofollow page,
	// never reach a server.
	for s, pages := range map[*site][]string{
		main:  {"/private/", "/private/drafts.html", "/cart?session=42", "/archive/old.html"},
		flaky: {"/tmp/x.html"},
	} {
		for _, p := range pages {
			if got := s.Hits(p); got != 0 {
				t.Errorf("%s%s fetched %d times", s.spec.name, p, got)
			}
		}
	}
	want := []string{"main/private/", "main/private/drafts.html", "main/cart?session=42", "flaky/tmp/x.html"}
	if got := slices.Sorted(slices.Values(cr.res.Disallowed)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("disallowed %q, want %q", got, want)
	}
	if got := slices.Sorted(slices.Values(cr.res.NoIndex)); !slices.Equal(got, []string{"main/archive/", "main/blog/print.html"}) {
		t.Errorf("noindex %q, want the archive (META) and the print page (X-Robots-Tag)", got)
	}
	for s, want := range map[*site]int{main: 1, news: 1, flaky: 2} {
		if got := s.Hits("/robots.txt"); got != want {
			t.Errorf("%s: robots.txt fetched %d times, want %d", s.spec.name, got, want)
		}
	}
	for _, line := range []string{
		"DISALLOW  main/private/drafts.html      (line 3: Disallow: /private/)",
		"DISALLOW  main/cart?session=42          (line 5: Disallow: /*?session=)",
		"FETCH     main/archive/                 (200, no rule matches, noindex, nofollow: links not followed)",
		"FETCH     main/blog/print.html          (200, no rule matches, noindex)",
		"FETCH     main/private/press.html       (200, line 4: Allow: /private/press.html)",
		"DEFER     flaky/                        (robots.txt unreachable; back in 1s)",
	} {
		if !strings.Contains(cr.out, line) {
			t.Errorf("output lacks %q:\n%s", line, cr.out)
		}
	}
}

// TestCrawlFinishesWithoutWaiting checks that the frontier crawl finishes
// although every site makes it come back later, without a worker ever
// waiting in RoundTrip, and keeping every site's crawl-delay as its server
// sees it.
func TestCrawlFinishesWithoutWaiting(t *testing.T) {
	cr := crawlDemo(t, 100, 8)
	tr := cr.transport
	if tr.Waited != 0 || tr.Paced == 0 || tr.Deferred == 0 {
		t.Errorf("transport %+v: want requests paced and deferred, and no wait", tr)
	}
	if cr.res.Requeued < int(tr.Paced+tr.Deferred) || len(cr.res.GivenUp) != 0 {
		t.Errorf("requeued %d, gave up %q; want every paced and deferred URL requeued", cr.res.Requeued, cr.res.GivenUp)
	}
	// The crawl counts what the Transport counts.
	if int64(len(cr.res.Disallowed)) != tr.Disallowed || int64(cr.res.Deferred) != tr.Deferred || int64(cr.res.Paced) != tr.Paced {
		t.Errorf("crawl: %d disallowed, %d deferred, %d paced; transport %+v", len(cr.res.Disallowed), cr.res.Deferred, cr.res.Paced, tr)
	}
	if want := int64(len(cr.res.Fetched)); tr.Sent != want {
		t.Errorf("transport sent %d, want the %d pages fetched", tr.Sent, want)
	}
	// RetryAt spreads a site's paced URLs over its coming turns, so that
	// the frontier does not bring them back all at once to be paced again.
	if limit := int64(3 * len(cr.res.Fetched) / 2); tr.Paced > limit {
		t.Errorf("%d requests paced for %d pages, want at most %d", tr.Paced, len(cr.res.Fetched), limit)
	}
	for _, s := range cr.demo.sites {
		delay := map[string]time.Duration{"main": 50 * time.Millisecond, "news": 200 * time.Millisecond}[s.spec.name]
		log := s.Log()
		for i := 1; i < len(log); i++ {
			// The library paces from one response to the next request,
			// so arrivals are at least the crawl-delay apart.
			if gap := log[i].at.Sub(log[i-1].at); gap < delay {
				t.Errorf("%s: %s followed %s after %s, less than the crawl-delay %s", s.spec.name, log[i].uri, log[i-1].uri, gap, delay)
			}
		}
	}
}

func TestCrawlMaxPages(t *testing.T) {
	cr := crawlDemo(t, 3, 4)
	requests := 0
	for _, s := range cr.demo.sites {
		requests += len(s.Log())
	}
	if len(cr.res.Fetched) != 3 || requests != 3 {
		t.Errorf("fetched %q (%d requests), want 3 pages", cr.res.Fetched, requests)
	}
}

func TestRunPrintsStats(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, 50, 4); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"crawl: 16 pages fetched (2 noindex), 4 disallowed, 1 deferred (0 given up),",
		"transport: sent 16, disallowed 4, deferred 1, paced ",
		"robots.txt fetches: 4 (rules 3, allow-all 0, disallow-all 0, unreachable 1,",
		"client cache: hits ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestLinks(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:8080/blog/")
	page := `<a href="first.html#top">x</a> <a href="/about.html">y</a>
<a href="https://example.com/elsewhere">z</a> <a href="mailto:a@b">m</a> <a href="%zz">bad</a>
<loc> http://127.0.0.1:8080/s.html </loc> <a href="unterminated`
	var got []string
	for _, u := range links(base, page) {
		got = append(got, u.String())
	}
	want := []string{
		"http://127.0.0.1:8080/blog/first.html",
		"http://127.0.0.1:8080/about.html",
		"http://127.0.0.1:8080/s.html",
	}
	if !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
}

// TestCrawlReadsRedirectedPage: a page reached through a redirect has its
// relative links read where it was served from.
func TestCrawlReadsRedirectedPage(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
		case "/":
			_, _ = io.WriteString(w, `<a href="/docs">docs</a>`)
		case "/docs":
			http.Redirect(w, r, "/docs/v2/", http.StatusMovedPermanently)
		case "/docs/v2/":
			_, _ = io.WriteString(w, `<a href="intro.html">intro</a>`)
		default:
			_, _ = io.WriteString(w, "page")
		}
	}))
	defer s.Close()
	out, err := crawlFrom(s.URL+"/", 20, 1)
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["/docs/v2/intro.html"] != 1 || hits["/intro.html"] != 0 {
		t.Errorf("server hits %v; want /docs/v2/intro.html once, the link read where the page was served\n%s", hits, out)
	}
}

// TestCrawlMaxPagesCountsPacedRedirects: a page request refused at its
// redirect, paced at the other site, was sent all the same, and spends
// the budget: given back, -max bounded nothing where every link leads
// through such a redirect.
func TestCrawlMaxPagesCountsPacedRedirects(t *testing.T) {
	var mu sync.Mutex
	pages := 0
	count := func(r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			mu.Lock()
			pages++
			mu.Unlock()
		}
	}
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.2\n")
			return
		}
		_, _ = io.WriteString(w, "page")
	}))
	defer b.Close()
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count(r)
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
		case "/":
			_, _ = io.WriteString(w, `<a href="/go/1">1</a> <a href="/go/2">2</a> <a href="/go/3">3</a> <a href="/go/4">4</a>`)
		default:
			http.Redirect(w, r, b.URL+"/p"+strings.TrimPrefix(r.URL.Path, "/go"), http.StatusFound)
		}
	}))
	defer a.Close()
	out, err := crawlFrom(a.URL+"/", 3, 4)
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if pages > 3 { // the first request of each page: a's
		t.Errorf("%d pages asked for, want at most 3\n%s", pages, out)
	}
}

// TestCrawlEndsOnPacedRedirectLoop: a redirect loop through two sites
// with a Crawl-delay is paced at every turn, naming the URL it loops
// back to: the crawl gives that URL up after maxPaced turns, where it
// put it back for ever. So it does when the chain names a new URL at
// every hop (?n=1, ?n=2, ...), as a hostile site's can: the crawl
// counted paces by URL, each was paced once, and the chain went on until
// the page budget or the crawl's deadline ended it (nested90).
func TestCrawlEndsOnPacedRedirectLoop(t *testing.T) {
	for _, fresh := range []bool{false, true} {
		var mu sync.Mutex
		asked := 0
		var a, b *httptest.Server
		loop := func(to func() string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.05\n")
					return
				}
				mu.Lock()
				asked++
				mu.Unlock()
				next := to()
				if fresh {
					n, _ := strconv.Atoi(r.URL.Query().Get("n"))
					next += "?n=" + strconv.Itoa(n+1)
				}
				http.Redirect(w, r, next, http.StatusFound)
			}
		}
		a = httptest.NewServer(loop(func() string { return b.URL + "/y" }))
		b = httptest.NewServer(loop(func() string { return a.URL + "/x" }))
		out, err := crawlFrom(a.URL+"/x", 1000, 2)
		a.Close()
		b.Close()
		if err != nil {
			t.Fatalf("fresh URLs %v: crawl: %v\n%s", fresh, err, out)
		}
		mu.Lock()
		if asked > 4*maxPaced {
			t.Errorf("fresh URLs %v: the loop was asked for %d times", fresh, asked)
		}
		mu.Unlock()
	}
}

// TestCrawlNamesRefusedRedirect: a page whose redirect robots.txt
// disallows was served; what was kept from the crawler, and is printed
// and recorded with the rule that matched it, is where the redirect led,
// whole.
func TestCrawlNamesRefusedRedirect(t *testing.T) {
	long := "/private/" + strings.Repeat("x", 600) // longer than an error's text shows
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case "/":
			_, _ = io.WriteString(w, `<a href="/old.html">old</a> <a href="/older.html">older</a>`)
		case "/old.html":
			http.Redirect(w, r, "/private/new.html", http.StatusMovedPermanently)
		case "/older.html":
			http.Redirect(w, r, long, http.StatusMovedPermanently)
		default:
			_, _ = io.WriteString(w, "page")
		}
	}))
	defer s.Close()
	out, err := crawlFrom(s.URL+"/", 20, 1)
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	var refused []string
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "DISALLOW" {
			refused = append(refused, strings.TrimPrefix(f[1], s.URL))
		}
	}
	if !slices.Equal(refused, []string{"/private/new.html", long}) {
		t.Errorf("DISALLOW lines name %q, want the redirect's target alone\n%s", refused, out)
	}
}

// TestCrawlTakesFollowedRedirectTargetOnce: a page fetched where a
// redirect led is not fetched again for a link to it, also when the
// redirect's Location has a fragment (net/http keeps it).
func TestCrawlTakesFollowedRedirectTargetOnce(t *testing.T) {
	for _, location := range []string{"/p.html", "/p.html#top"} {
		var mu sync.Mutex
		asked := 0
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
			case "/":
				_, _ = io.WriteString(w, `<a href="/go">go</a> <a href="/p.html">p</a>`)
			case "/go":
				http.Redirect(w, r, location, http.StatusFound)
			default:
				mu.Lock()
				asked++
				mu.Unlock()
				_, _ = io.WriteString(w, "page")
			}
		}))
		out, err := crawlFrom(s.URL+"/", 20, 1)
		s.Close()
		if err != nil {
			t.Fatalf("crawl: %v\n%s", err, out)
		}
		mu.Lock()
		if asked != 1 {
			t.Errorf("to %s: /p.html asked for %d times, want once\n%s", location, asked, out)
		}
		mu.Unlock()
	}
}

// TestCrawlTakesRedirectTargetOnce: a redirect to a paced site puts its
// target in the frontier, without the fragment of its Location; a link
// to the same target found meanwhile does not fetch it a second time.
func TestCrawlTakesRedirectTargetOnce(t *testing.T) {
	var mu sync.Mutex
	asked := 0
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.3\n")
		case "/":
			_, _ = io.WriteString(w, `<a href="/p.html">p</a>`)
		default:
			mu.Lock()
			asked++
			mu.Unlock()
			_, _ = io.WriteString(w, "page")
		}
	}))
	defer b.Close()
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
		case "/":
			_, _ = io.WriteString(w, `<a href="/go">go</a>`)
		default:
			http.Redirect(w, r, b.URL+"/p.html#top", http.StatusFound)
		}
	}))
	defer a.Close()
	var out bytes.Buffer
	c, closeCrawler := newCrawler(&demo{}, &out, 50, 2)
	defer closeCrawler()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var seeds []*url.URL
	for _, s := range []string{b.URL + "/", a.URL + "/"} {
		u, _ := url.Parse(s)
		seeds = append(seeds, u)
	}
	if _, err := c.crawl(ctx, seeds); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if asked != 1 {
		t.Errorf("b's /p.html asked for %d times, want once\n%s", asked, out.String())
	}
}

// TestCrawlComesBackForBusyPage: a page answered 503 or 429 with a
// Retry-After (a site shedding load), the home page too, is not recorded
// as fetched: the crawl comes back for it once the site's hold has
// passed, as the README's loop does.
func TestCrawlComesBackForBusyPage(t *testing.T) {
	for _, tc := range []struct {
		busy   string
		status int
	}{{"/p.html", http.StatusServiceUnavailable}, {"/", http.StatusTooManyRequests}} {
		var mu sync.Mutex
		served, busy := map[string]int{}, false
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.05\n")
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if r.URL.Path == tc.busy && !busy {
				busy = true
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(tc.status)
				return
			}
			served[r.URL.Path]++
			_, _ = io.WriteString(w, `<a href="/p.html">p</a> <a href="/q.html">q</a>`)
		}))
		out, err := crawlFrom(s.URL+"/", 20, 2)
		s.Close()
		if err != nil {
			t.Fatalf("crawl: %v\n%s", err, out)
		}
		mu.Lock()
		for _, p := range []string{"/", "/p.html", "/q.html"} {
			if served[p] != 1 {
				t.Errorf("%s answered %d once: %s served %d times, want 1\n%s", tc.busy, tc.status, p, served[p], out)
			}
		}
		mu.Unlock()
	}
}

// TestCutPageShowsNoPassword: a crawl whose seed carries credentials
// (http://crawler:s3cret@site/members), whose page is cut off mid-body,
// printed the URL's password in its ERROR line.
func TestCutPageShowsNoPassword(t *testing.T) {
	s := &site{spec: siteSpec{name: "main"}, hits: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		w.Header().Set("Content-Length", "1000")
		_, _ = io.WriteString(w, "<a href=\"/x\">") // then the connection ends: cut off
	}))
	defer s.Close()
	d := &demo{sites: []*site{s}}
	var out bytes.Buffer
	c, closeCrawler := newCrawler(d, &out, 10, 1)
	defer closeCrawler()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	u, _ := url.Parse(strings.Replace(s.URL(), "http://", "http://crawler:s3cret@", 1) + "/members")
	if _, err := c.crawl(ctx, []*url.URL{u}); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "s3cret") {
		t.Errorf("the crawler's output holds the URL's password:\n%s", out.String())
	}
}

// TestPacedPastDeadlineGivenUp: a page answered 503 with a Retry-After
// past the crawl's deadline (a site shedding load for a minute) comes
// back as a PacedError whose RetryAt is past the deadline too: given up,
// as a URL deferred that far is, where the crawl idled until its
// deadline and failed with it.
func TestPacedPastDeadlineGivenUp(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
		case "/":
			_, _ = io.WriteString(w, `<a href="/p.html">p</a>`)
		default:
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer s.Close()
	var out bytes.Buffer
	c, closeCrawler := newCrawler(&demo{}, &out, 10, 2)
	defer closeCrawler()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	u, _ := url.Parse(s.URL + "/")
	start := time.Now()
	_, err := c.crawl(ctx, []*url.URL{u})
	if took := time.Since(start); err != nil || took > 2*time.Second {
		t.Errorf("crawl returned %v after %v, with nothing it could fetch before its deadline; want it given up and nil at once\n%s",
			err, took.Round(time.Millisecond), out.String())
	}
}

// TestRedirectHopShowsNoPassword: a redirect to another site whose
// Location holds a password, refused by the Transport (disallowed, or
// deferred: its robots.txt is down), is named in the crawler's DISALLOW
// or DEFER line and its result without it, as the library names URLs.
func TestRedirectHopShowsNoPassword(t *testing.T) {
	for _, tc := range []struct{ name, want string }{{"disallowed", "DISALLOW"}, {"deferred", "DEFER"}} {
		t.Run(tc.name, func(t *testing.T) {
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" && tc.name == "disallowed" {
					_, _ = io.WriteString(w, "User-agent: *\nDisallow: /members/\n")
					return
				}
				if r.URL.Path == "/robots.txt" {
					w.Header().Set("Retry-After", "3600")
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				_, _ = io.WriteString(w, "members")
			}))
			defer other.Close()
			s := &site{spec: siteSpec{name: "main"}, hits: map[string]int{}}
			s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/robots.txt":
					_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
				case "/":
					_, _ = io.WriteString(w, `<a href="/go">members</a>`)
				default:
					w.Header().Set("Location", strings.Replace(other.URL, "http://", "http://crawler:s3cret@", 1)+"/members/x")
					w.WriteHeader(http.StatusFound)
				}
			}))
			defer s.Close()
			cr := crawlSites(t, &demo{sites: []*site{s}}, 10, 1)
			if !strings.Contains(cr.out, tc.want) {
				t.Fatalf("no %s line:\n%s", tc.want, cr.out)
			}
			if strings.Contains(cr.out, "s3cret") || strings.Contains(fmt.Sprint(cr.res), "s3cret") {
				t.Errorf("the crawler's output holds the redirect's password:\n%s\nresult: %+v", cr.out, cr.res)
			}
		})
	}
}
