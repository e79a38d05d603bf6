package robotstxt

import (
	"bytes"
	"mime"
	"net/http"

	"github.com/robotsgate/robotstxt/meta"
)

// Directives reads the X-Robots-Tag headers of resp, a response the
// Transport returned, for the Client's product tokens: whether the page may be
// indexed, its links followed, and the like (see [meta.FromHeader]). A nil
// resp gives the zero Directives, which allow everything. To read the
// robots META tags of the page as well, use [Transport.PageDirectives].
func (t *Transport) Directives(resp *http.Response) meta.Directives {
	t.mustBeMade()
	if resp == nil {
		return meta.Directives{}
	}
	return meta.FromHeader(resp.Header, t.c.tokens...)
}

// PageDirectives reads what a page allows a crawler to do with it: the
// X-Robots-Tag headers of resp, a response the Transport returned, and the
// robots META tags of body, the page's body the caller has read, merged
// with the most restrictive reading winning (see [meta.Directives.Merge]).
// Both are read for every product token of the Client and for the generic
// "robots" name, so that a crawler whose User-Agent is
// "Mozilla/5.0 (compatible; XBot/1.0)" obeys <meta name="XBot" ...> and
// "XBot: noindex" alike.
//
// META tags are read only from an HTML body (Content-Type text/html or
// application/xhtml+xml, or none and a body that looks like HTML), and
// only from its head: reading stops at the end of the head, at the <body>,
// or after the first [meta.MaxHTMLBytes] bytes of body, whichever comes
// first. PageDirectives neither keeps nor changes body. A nil resp gives
// the zero Directives, which allow everything.
func (t *Transport) PageDirectives(resp *http.Response, body []byte) meta.Directives {
	d := t.Directives(resp)
	if resp == nil || !isHTML(resp.Header.Get("Content-Type"), body) {
		return d
	}
	head := body[:min(len(body), meta.MaxHTMLBytes)]
	// A bytes.Reader cannot fail, so neither can FromHTML.
	m, _ := meta.FromHTML(bytes.NewReader(head), t.c.tokens...)
	return d.Merge(m)
}

// isHTML reports whether a body with Content-Type ctype is HTML: by its
// media type, or, without one, by sniffing body as browsers do.
func isHTML(ctype string, body []byte) bool {
	if ctype == "" {
		ctype = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(ctype)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}
