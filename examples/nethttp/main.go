// Command nethttp fetches pages of a small web site on 127.0.0.1 with a
// plain http.Client whose transport is a robotstxt.Transport:
//
//	rc, rt := robotstxt.NewClientTransport(nil, []robotstxt.Option{robotstxt.WithUserAgent(userAgent)})
//	hc := &http.Client{Transport: rt}
//
// Pages robots.txt disallows are not fetched, whether asked for directly
// or reached through a same-host or a cross-host redirect; requests to the
// site are kept its Crawl-delay apart; the X-Robots-Tag of each page is
// read. It prints what was fetched, what was refused and why, and needs no
// network access.
//
//	go run ./examples/nethttp
package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/robotsgate/robotstxt"
)

// userAgent is the demo crawler's User-Agent; it matches robots.txt groups
// as "DemoCrawler".
const userAgent = "DemoCrawler/1.0 (+https://github.com/robotsgate/robotstxt)"

func main() {
	s := newSites()
	defer s.Close()
	if _, err := run(os.Stdout, s); err != nil {
		fmt.Fprintln(os.Stderr, "nethttp:", err)
		os.Exit(1)
	}
}

// sites are the demo's two sites on loopback; they record what they are
// asked for.
type sites struct {
	main, other *httptest.Server

	mu  sync.Mutex
	got map[*httptest.Server][]arrival
}

// arrival is one request as a site received it.
type arrival struct {
	path string
	at   time.Time
}

func newSites() *sites {
	s := &sites{got: map[*httptest.Server][]arrival{}}
	s.other = s.serve(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /members/\n")
		default:
			fmt.Fprint(w, "other page")
		}
	})
	s.main = s.serve(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\n")
		case "/old/report.html":
			http.Redirect(w, r, "/private/report.html", http.StatusMovedPermanently)
		case "/members":
			http.Redirect(w, r, s.other.URL+"/members/list.html", http.StatusFound)
		case "/draft.html":
			w.Header().Set("X-Robots-Tag", "noindex, nofollow")
			fmt.Fprint(w, "draft")
		default:
			fmt.Fprint(w, "page")
		}
	})
	return s
}

func (s *sites) serve(h http.HandlerFunc) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		s.mu.Lock()
		s.got[srv] = append(s.got[srv], arrival{r.URL.Path, now})
		s.mu.Unlock()
		h(w, r)
	}))
	return srv
}

// requested returns the paths srv was asked for, in order.
func (s *sites) requested(srv *httptest.Server) []string {
	var paths []string
	for _, a := range s.arrivals(srv) {
		paths = append(paths, a.path)
	}
	return paths
}

// arrivals returns the requests srv received, in order.
func (s *sites) arrivals(srv *httptest.Server) []arrival {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]arrival(nil), s.got[srv]...)
}

// name replaces the sites' addresses in u by "main" and "other".
func (s *sites) name(u string) string {
	return strings.NewReplacer(s.main.URL, "main", s.other.URL, "other").Replace(u)
}

func (s *sites) Close() {
	s.main.Close()
	s.other.Close()
}

// result is what run did, with site addresses replaced by names.
type result struct {
	Fetched    []string
	Disallowed []string // the URL refused, after any redirects
}

// run fetches a fixed list of URLs through the Transport and prints one
// line for each to out.
func run(out io.Writer, s *sites) (result, error) {
	var res result
	// The demo's sites are on loopback, which robotstxt.PublicOnly(nil),
	// the transport a crawler of the web builds on, refuses.
	next := &http.Transport{}
	defer next.CloseIdleConnections()
	// One RoundTripper for everything: the Client fetches robots.txt
	// through the Transport too, which knows those fetches as its own.
	rc, rt := robotstxt.NewClientTransport(next, []robotstxt.Option{robotstxt.WithUserAgent(userAgent)})
	defer rc.Close()
	hc := &http.Client{Transport: rt, Timeout: 10 * time.Second}

	for _, u := range []string{
		s.main.URL + "/",
		s.main.URL + "/private/report.html", // disallowed
		s.main.URL + "/old/report.html",     // same-host redirect to a disallowed page
		s.main.URL + "/members",             // cross-host redirect to a disallowed page
		s.main.URL + "/draft.html",          // allowed, with X-Robots-Tag
		s.other.URL + "/about.html",         // another authority: not held by main's crawl-delay
	} {
		start := time.Now()
		resp, err := hc.Get(u)
		var de *robotstxt.DisallowedError
		switch {
		case errors.As(err, &de):
			refused := s.name(de.URL)
			res.Disallowed = append(res.Disallowed, refused)
			fmt.Fprintf(out, "REFUSED  %-28s %s by robots.txt line %d (Disallow: %s)\n",
				s.name(u), refused, de.Decision.Rule.Line, de.Decision.Rule.Pattern)
		case err != nil:
			// A crawler requeues what robots.txt defers or pacing holds
			// (a DeferredError, a PacedError: see examples/crawler);
			// the demo's sites give neither.
			return res, err
		default:
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			_ = resp.Body.Close()
			res.Fetched = append(res.Fetched, s.name(u))
			d := rt.PageDirectives(resp, body)
			fmt.Fprintf(out, "FETCHED  %-28s %s, index %v, follow %v (after %.1f s)\n",
				s.name(u), resp.Status, d.Index(), d.Follow(), time.Since(start).Seconds())
		}
	}
	return res, nil
}
