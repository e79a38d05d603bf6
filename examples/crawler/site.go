package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// A sitePage is a page of a demo site: the pages it links to, and the
// robots directives it carries, in a META tag or an X-Robots-Tag header.
type sitePage struct {
	links   []string
	meta    string // content of <meta name="robots">, if any
	xRobots string // X-Robots-Tag header, if any
}

// A siteSpec describes a demo site.
type siteSpec struct {
	name   string
	robots string // %s is replaced by the site's base URL, for sitemap lines
	// unavailable is how many robots.txt requests are answered 503 with
	// Retry-After: 1 before robots is served, to show deferral.
	unavailable int
	pages       map[string]sitePage
	sitemap     []string // paths the sitemap.xml lists
}

// mainSite is the demo's main site: rules, a crawl-delay of 50 ms, a
// sitemap, and pages with robots directives of their own.
var mainSite = siteSpec{
	name: "main",
	robots: `# robots.txt of the demo site
User-agent: *
Disallow: /private/
Allow: /private/press.html
Disallow: /*?session=
Crawl-delay: 0.05

User-agent: BadBot
Disallow: /

Sitemap: %s/sitemap.xml
`,
	pages: map[string]sitePage{
		"/":                       {links: []string{"/about.html", "/blog/", "/private/", "/cart?session=42"}},
		"/about.html":             {links: []string{"/", "/private/press.html", "/archive/"}},
		"/blog/":                  {links: []string{"/blog/first.html", "/blog/second.html", "/private/drafts.html", "/blog/print.html"}},
		"/blog/first.html":        {links: []string{"/blog/", "/blog/second.html#comments"}},
		"/blog/second.html":       {links: []string{"/blog/", "https://example.com/elsewhere"}},
		"/blog/print.html":        {links: []string{"/blog/"}, xRobots: "noindex"},
		"/archive/":               {links: []string{"/archive/old.html"}, meta: "noindex, nofollow"},
		"/archive/old.html":       {links: []string{"/"}}, // linked only from a nofollow page
		"/private/":               {links: []string{"/private/drafts.html"}},
		"/private/drafts.html":    {links: []string{"/"}},
		"/private/press.html":     {links: []string{"/", "/about.html"}},
		"/cart?session=42":        {links: []string{"/"}},
		"/never-linked/page.html": {links: []string{"/"}},
	},
	sitemap: []string{"/", "/blog/first.html", "/never-linked/page.html"},
}

// newsSite asks for a longer crawl-delay, 200 ms: its pages come in slowly
// while the other sites are crawled.
var newsSite = siteSpec{
	name:   "news",
	robots: "User-agent: *\nCrawl-delay: 0.2\n",
	pages: map[string]sitePage{
		"/":       {links: []string{"/1.html", "/2.html", "/3.html"}},
		"/1.html": {links: []string{"/"}},
		"/2.html": {links: []string{"/"}},
		"/3.html": {links: []string{"/"}},
	},
}

// flakySite answers its first robots.txt request with 503 and
// Retry-After: 1: its URLs are deferred for a second, then crawled.
var flakySite = siteSpec{
	name:        "flaky",
	robots:      "User-agent: *\nDisallow: /tmp/\n",
	unavailable: 1,
	pages: map[string]sitePage{
		"/":           {links: []string{"/hello.html", "/tmp/x.html"}},
		"/hello.html": {links: []string{"/"}},
	},
}

// site is a demo site on loopback that records every request it serves,
// so the demo and its test can see what the crawler fetched.
type site struct {
	spec siteSpec
	srv  *httptest.Server

	mu   sync.Mutex
	hits map[string]int // request URI → requests
	log  []hit          // page requests in order (robots.txt excluded)
}

// hit is one page request.
type hit struct {
	uri string
	at  time.Time
}

// newSite starts a site on 127.0.0.1 with an ephemeral port. Close stops
// it.
func newSite(spec siteSpec) *site {
	s := &site{spec: spec, hits: make(map[string]int)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the site's base URL, such as http://127.0.0.1:41234.
func (s *site) URL() string { return s.srv.URL }

// Close stops the site.
func (s *site) Close() { s.srv.Close() }

// Hits returns how many times uri (path and query) was requested.
func (s *site) Hits(uri string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[uri]
}

// Log returns the page requests in the order they arrived.
func (s *site) Log() []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]hit(nil), s.log...)
}

func (s *site) serve(w http.ResponseWriter, r *http.Request) {
	uri := r.URL.RequestURI()
	s.mu.Lock()
	s.hits[uri]++
	n := s.hits[uri]
	if uri != "/robots.txt" {
		s.log = append(s.log, hit{uri, time.Now()})
	}
	s.mu.Unlock()

	base := "http://" + r.Host
	switch uri {
	case "/robots.txt":
		if n <= s.spec.unavailable {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "max-age=3600")
		_, _ = io.WriteString(w, strings.ReplaceAll(s.spec.robots, "%s", base))
		return
	case "/sitemap.xml":
		if s.spec.sitemap != nil {
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintln(w, `<?xml version="1.0" encoding="UTF-8"?>`)
			fmt.Fprintln(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, p := range s.spec.sitemap {
				fmt.Fprintf(w, "  <url><loc>%s%s</loc></url>\n", base, p)
			}
			fmt.Fprintln(w, "</urlset>")
			return
		}
	}
	p, ok := s.spec.pages[uri]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if p.xRobots != "" {
		w.Header().Set("X-Robots-Tag", p.xRobots)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html>\n<html><head><title>%s</title>\n", uri)
	if p.meta != "" {
		fmt.Fprintf(w, "<meta name=\"robots\" content=%q>\n", p.meta)
	}
	fmt.Fprintln(w, "</head><body>")
	for _, l := range p.links {
		fmt.Fprintf(w, "<a href=\"%s\">%s</a>\n", l, strings.TrimPrefix(l, "/"))
	}
	fmt.Fprintln(w, "</body></html>")
}
