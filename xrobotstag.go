package robotstxt

import (
	"bytes"
	"mime"
	"net/http"
	"strings"

	"github.com/robotsgate/robotstxt/meta"
)

// headerDirectives reads the X-Robots-Tag headers of resp for the
// Client's product tokens (see [meta.FromHeader]); a nil resp gives the
// zero Directives, which allow everything.
func (t *Transport) headerDirectives(resp *http.Response) meta.Directives {
	if resp == nil {
		return meta.Directives{}
	}
	return meta.FromHeader(resp.Header, t.c.tokens...)
}

// PageDirectives reads what a page allows a crawler to do with it: the
// X-Robots-Tag headers of resp, a response the Transport returned, and the
// robots META tags of body, the page's body the caller has read, merged
// with the most restrictive reading winning (see [meta.Directives.Merge]),
// each read for the generic "robots" name and every product token of the
// Client (for XBot, <meta name="XBot" ...> and "XBot: noindex").
//
// META tags are read only from an HTML body (Content-Type text/html or
// application/xhtml+xml, or none and a body that sniffs as HTML), up to
// the end of its head, its <body> or its first mebibyte. body is neither
// kept nor changed. A nil resp gives the zero Directives, which allow
// everything.
func (t *Transport) PageDirectives(resp *http.Response, body []byte) meta.Directives {
	d := t.headerDirectives(resp)
	if resp == nil || !isHTML(resp.Header.Get("Content-Type"), body) {
		return d
	}
	m, _ := meta.FromHTML(bytes.NewReader(body), t.c.tokens...) // a bytes.Reader cannot fail
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

// isImage reports whether ctype is the media type of an image.
func isImage(ctype string) bool {
	mt, _, err := mime.ParseMediaType(ctype)
	return err == nil && strings.HasPrefix(mt, "image/")
}
