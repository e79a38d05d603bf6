package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// robotsTxt is the demo site's robots.txt. %s is replaced by the site's
// base URL, for the sitemap line.
const robotsTxt = `# robots.txt of the demo site
User-agent: *
Disallow: /private/
Allow: /private/press.html
Disallow: /*?session=
Crawl-delay: 0.05

User-agent: BadBot
Disallow: /

Sitemap: %s/sitemap.xml
`

// pages maps each page of the demo site to the pages it links to.
var pages = map[string][]string{
	"/":                       {"/about.html", "/blog/", "/private/", "/cart?session=42"},
	"/about.html":             {"/", "/private/press.html"},
	"/blog/":                  {"/blog/first.html", "/blog/second.html", "/private/drafts.html"},
	"/blog/first.html":        {"/blog/", "/blog/second.html#comments"},
	"/blog/second.html":       {"/blog/", "https://example.com/elsewhere"},
	"/private/":               {"/private/drafts.html"},
	"/private/drafts.html":    {"/"},
	"/private/press.html":     {"/", "/about.html"},
	"/cart?session=42":        {"/"},
	"/never-linked/page.html": {"/"},
}

// sitemap lists the pages the site wants crawled, one of them linked from
// nowhere else. %[1]s is replaced by the site's base URL.
const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>%[1]s/</loc></url>
  <url><loc>%[1]s/blog/first.html</loc></url>
  <url><loc>%[1]s/never-linked/page.html</loc></url>
</urlset>
`

// site is a small web site on loopback that records every request it
// serves, so the demo and its test can see what the crawler fetched.
type site struct {
	srv *httptest.Server

	mu   sync.Mutex
	hits map[string]int // request URI → requests
	log  []hit          // page requests in order (robots.txt excluded)
}

// hit is one page request.
type hit struct {
	uri string
	at  time.Time
}

// newSite starts the demo site on 127.0.0.1 with an ephemeral port. Close
// stops it.
func newSite() *site {
	s := &site{hits: make(map[string]int)}
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
	if uri != "/robots.txt" {
		s.log = append(s.log, hit{uri, time.Now()})
	}
	s.mu.Unlock()

	switch uri {
	case "/robots.txt":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "max-age=3600")
		fmt.Fprintf(w, robotsTxt, "http://"+r.Host)
		return
	case "/sitemap.xml":
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, sitemap, "http://"+r.Host)
		return
	}
	links, ok := pages[uri]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html>\n<title>%s</title>\n", uri)
	for _, l := range links {
		fmt.Fprintf(w, "<a href=\"%s\">%s</a>\n", l, strings.TrimPrefix(l, "/"))
	}
}
