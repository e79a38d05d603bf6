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
// with the most restrictive reading winning (see [meta.Directives.Merge]).
// Both are read for every product token of the Client and for the generic
// "robots" name, so that a crawler whose User-Agent is
// "Mozilla/5.0 (compatible; XBot/1.0)" obeys <meta name="XBot" ...> and
// "XBot: noindex" alike.
//
// META tags are read only from an HTML body (Content-Type text/html or
// application/xhtml+xml, or none and a body that looks like HTML), and
// only from its head: reading stops at the end of the head, at the <body>,
// or after the first mebibyte of body, whichever comes first. PageDirectives neither keeps nor changes body. A nil resp gives
// the zero Directives, which allow everything.
func (t *Transport) PageDirectives(resp *http.Response, body []byte) meta.Directives {
	d := t.headerDirectives(resp)
	if resp == nil || !isHTML(resp.Header.Get("Content-Type"), body) {
		return d
	}
	// A bytes.Reader cannot fail, so neither can FromHTML.
	m, _ := meta.FromHTML(bytes.NewReader(body), t.c.tokens...)
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
// response the Transport returned: whether the Client's crawler may train
// AI models on it, use it for search, and so on (see [Usage]). It
// combines, label by label (n if any says n, else y if any says y, else
// unknown, the rule of draft-ietf-aipref-vocab §5.1):
//
//   - what robots.txt's Content-Usage rules say of the URL of
//     resp.Request, checked as the Transport checks a request (the
//     robots.txt of the site that serves it, every spelling): the
//     [Decision]'s Usage;
//   - the response's Content-Usage header field, its lines joined with
//     ", " and read as one statement (see [Usage]);
//   - the signals that came before the AIPREF vocabulary, which map to
//     "train-ai=n" and to nothing else: the X-Robots-Tag directive noai,
//     read for the Client's product tokens as [Transport.PageDirectives]
//     reads the headers (no training on the content); noimageai, on a response
//     whose Content-Type is an image only, since it asks that images not
//     be trained on and a page's images come in responses of their own
//     (on a page it stays in the Directives' Other, for a crawler that
//     takes images from a page to read); and the header
//     "tdm-reservation: 1" of the W3C's TDMRep, which reserves the rights
//     of text and data mining, the machine-readable opt-out of the EU's
//     exception for it. No signal maps to y, and none to search.
//
// Cloudflare's Content-Signal records are another vocabulary, which
// Usage does not read: see [Robots.ContentSignal], with the Robots of
// [Decision.Robots]. When robots.txt must be fetched again, the wait is
// bounded by the request's context; a robots.txt that cannot be read, or
// that disallows the request, adds no preference, and neither does a
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

// headerUsage returns the preferences that the headers of resp state:
// its Content-Usage field, and the older signals that map to train-ai=n
// (see Transport.Usage).
func (t *Transport) headerUsage(resp *http.Response) Usage {
	u := parseUsage(strings.Join(resp.Header.Values("Content-Usage"), ", "))
	other := t.headerDirectives(resp).Other
	if slices.Contains(other, "noai") || slices.Contains(other, "noimageai") && isImage(resp.Header.Get("Content-Type")) ||
		tdmReserved(resp.Header) {
		u = u.combine(noTraining)
	}
	return u
}

// isImage reports whether ctype is the media type of an image.
func isImage(ctype string) bool {
	mt, _, err := mime.ParseMediaType(ctype)
	return err == nil && strings.HasPrefix(mt, "image/")
}

// tdmReserved reports whether h holds the TDMRep header
// "tdm-reservation: 1": the rights of text and data mining are reserved.
func tdmReserved(h http.Header) bool {
	for _, v := range h.Values("Tdm-Reservation") {
		if strings.TrimSpace(v) == "1" {
			return true
		}
	}
	return false
}
