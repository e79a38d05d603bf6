package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// A site is a small web site on 127.0.0.1 that records every path it is
// asked for.
type site struct {
	*httptest.Server
	name string

	mu    sync.Mutex
	got   []string
	pages map[string]page
}

// page is one path of a site: HTML with links, a redirect, or a status.
type page struct {
	links    []string // hrefs, for an HTML page
	location string   // for a 302
	status   int      // for anything else; 200 when zero
	body     string   // for a non-HTML answer
}

func newSite(name string, pages map[string]page) *site {
	s := &site{name: name, pages: pages}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.URL.Path)
		p, ok := s.pages[r.URL.Path]
		s.mu.Unlock()
		switch {
		case !ok:
			http.NotFound(w, r)
		case p.location != "":
			http.Redirect(w, r, p.location, http.StatusFound)
		case p.links == nil:
			w.WriteHeader(max(p.status, http.StatusOK))
			fmt.Fprint(w, p.body)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			var b strings.Builder
			b.WriteString("<!doctype html><title>" + r.URL.Path + "</title>\n")
			for _, l := range p.links {
				fmt.Fprintf(&b, "<a href=%q>%s</a>\n", l, l)
			}
			fmt.Fprint(w, b.String())
		}
	}))
	return s
}

// set makes p the page at path.
func (s *site) set(path string, p page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = p
}

// requested returns the paths the site was asked for, in order.
func (s *site) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// A web is the three sites the demo crawls: the start site, a partner it
// links and redirects to, and a site whose robots.txt answers 503.
type web struct {
	start, partner, down *site
}

// newWeb starts the sites. The start page links to disallowed pages
// directly, through a same-host redirect and through a cross-host
// redirect, to allowed pages the same three ways, and to a second page of
// the partner, which its Crawl-delay paces.
func newWeb() *web {
	partner := newSite("partner", map[string]page{
		"/robots.txt":       {body: "User-agent: *\nDisallow: /hidden/\nCrawl-delay: 1\n"},
		"/welcome.html":     {links: []string{}},
		"/contact.html":     {links: []string{}},
		"/hidden/page.html": {links: []string{}},
		"/hidden/link.html": {links: []string{}},
		"/account.html":     {links: []string{}},
	})
	down := newSite("down", map[string]page{
		"/robots.txt": {status: http.StatusServiceUnavailable, body: "maintenance"},
		"/news.html":  {links: []string{}},
	})
	start := newSite("start", map[string]page{
		"/robots.txt": {body: "User-agent: *\nDisallow: /private/\nDisallow: /go/out\n"},
		"/": {links: []string{
			"/about.html",
			"/private/secret.html",            // disallowed, linked directly
			"/go/inside",                      // same-host redirect to a disallowed page
			"/go/partner",                     // cross-host redirect to a disallowed page
			"/go/welcome",                     // cross-host redirect to an allowed page
			"/go/out",                         // disallowed redirect: not even asked
			partner.URL + "/hidden/link.html", // disallowed on another host
			partner.URL + "/contact.html",     // within the partner's Crawl-delay: paced
			down.URL + "/news.html",           // robots.txt unreachable: deferred
			partner.URL + "/login",            // back to the partner through start: paced
		}},
		"/about.html":          {links: []string{"/blog/"}},
		"/blog/":               {links: []string{"/about.html"}},
		"/private/secret.html": {links: []string{}},
		"/private/inside.html": {links: []string{}},
		"/go/inside":           {location: "/private/inside.html"},
		"/go/partner":          {location: partner.URL + "/hidden/page.html"},
		"/go/welcome":          {location: partner.URL + "/welcome.html"},
		"/go/out":              {location: partner.URL + "/welcome.html"},
		"/sso":                 {location: partner.URL + "/account.html"},
	})
	partner.set("/login", page{location: start.URL + "/sso"})
	return &web{start: start, partner: partner, down: down}
}

func (w *web) sites() []*site { return []*site{w.start, w.partner, w.down} }

// name replaces a site's address in u by its name, so output does not
// depend on ports.
func (w *web) name(u string) string {
	for _, s := range w.sites() {
		u = strings.Replace(u, s.URL, s.name, 1)
	}
	return u
}

func (w *web) Close() {
	for _, s := range w.sites() {
		s.Close()
	}
}
