package robotstxt

import (
	"bytes"
	"mime"
	"net/http"
	"slices"
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

// Usage returns the preferences about the use of the content of resp, a
// response the Transport returned (see [Usage]). It combines, label by
// label (n if any says n, else y if any says y, else unknown, as
// draft-ietf-aipref-vocab §5.1 does):
//
//   - the [Decision.Usage] of resp.Request's URL, checked as the Transport
//     checks a request;
//   - the response's Content-Usage header field, its lines joined with
//     ", " and read as one statement;
//   - the signals older than the AIPREF vocabulary, which map to
//     "train-ai=n" and nothing else: the X-Robots-Tag directive noai (read
//     as [Transport.PageDirectives] reads the headers); noimageai, on a
//     response whose Content-Type is an image only (on a page it stays in
//     the Directives' Other); and TDMRep's "tdm-reservation: 1", the
//     machine-readable opt-out of the EU's text and data mining exception.
//
// Content-Signal records are not read: see [Robots.ContentSignal]. The
// request's context bounds a fetch of robots.txt; one that cannot be
// read, or that disallows the request, adds no preference, nor does a
// response without its Request. A nil resp gives the zero Usage.
func (t *Transport) Usage(resp *http.Response) Usage {
	t.mustBeMade()
	if resp == nil {
		return Usage{}
	}
	var u Usage
	if resp.Request != nil {
		if d, _, err := t.check(resp.Request); err == nil {
			u = d.Usage
		}
	}
	return u.combine(t.headerUsage(resp))
}

// headerUsage returns the preferences that the headers of resp state
// (see Transport.Usage).
func (t *Transport) headerUsage(resp *http.Response) Usage {
	u := parseUsage(strings.Join(resp.Header.Values("Content-Usage"), ", "))
	other := t.headerDirectives(resp).Other
	tdm := slices.ContainsFunc(resp.Header.Values("Tdm-Reservation"), // TDMRep's opt-out
		func(v string) bool { return strings.TrimSpace(v) == "1" })
	if slices.Contains(other, "noai") || tdm ||
		slices.Contains(other, "noimageai") && isImage(resp.Header.Get("Content-Type")) {
		u = u.combine(noTraining)
	}
	return u
}

// isImage reports whether ctype is the media type of an image.
func isImage(ctype string) bool {
	mt, _, err := mime.ParseMediaType(ctype)
	return err == nil && strings.HasPrefix(mt, "image/")
}
