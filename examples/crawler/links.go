package main

import (
	"net/url"
	"strings"
)

// links returns the links of a page: the targets of its href="…"
// attributes (HTML) and <loc>…</loc> elements (a sitemap), resolved against
// base, without fragments, keeping only those on base's host. It is
// deliberately simple: the demo site writes plain markup.
func links(base *url.URL, page string) []*url.URL {
	var out []*url.URL
	for _, raw := range between(page, `href="`, `"`) {
		out = appendLink(out, base, raw)
	}
	for _, raw := range between(page, "<loc>", "</loc>") {
		out = appendLink(out, base, strings.TrimSpace(raw))
	}
	return out
}

// between returns every substring of s that follows open and ends at the
// next close.
func between(s, open, close string) []string {
	var out []string
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return out
		}
		s = s[i+len(open):]
		end := strings.Index(s, close)
		if end < 0 {
			return out
		}
		out = append(out, s[:end])
		s = s[end+len(close):]
	}
}

// appendLink resolves raw against base and appends it to out if it is an
// http(s) URL on base's host.
func appendLink(out []*url.URL, base *url.URL, raw string) []*url.URL {
	ref, err := url.Parse(raw)
	if err != nil {
		return out // not a URL: skip it, as a browser would
	}
	u := base.ResolveReference(ref)
	u.Fragment, u.RawFragment = "", ""
	if u.Host != base.Host || (u.Scheme != "http" && u.Scheme != "https") {
		return out
	}
	return append(out, u)
}
