package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"

	"github.com/robotsgate/robotstxt/meta"
)

// maxPage bounds how much of a page is read.
const maxPage = 1 << 20

// page is a fetched page.
type page struct {
	url        *url.URL // where it was served from: the URL asked for, or where redirects led
	code       int
	body       []byte
	directives meta.Directives // from its X-Robots-Tag and robots META tags
}

// ok reports whether the page was served (a 2xx status).
func (p page) ok() bool { return p.code >= 200 && p.code <= 299 }

// get fetches u with the crawler's User-Agent through the Transport. The
// error of a request the Transport did not send says why: disallowed,
// deferred or paced; hop, when not nil, is the URL of the last redirect
// followed: the request was sent, and the refusal, if any, was of hop.
func (c *crawler) get(ctx context.Context, u *url.URL) (_ page, hop *url.URL, _ error) {
	var last atomic.Pointer[url.URL] // set by followRedirect
	req, err := http.NewRequestWithContext(context.WithValue(ctx, hopsKey{}, &last), http.MethodGet, u.String(), nil)
	if err != nil {
		return page{}, nil, fmt.Errorf("new request: %w", err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	resp, err := c.http.Do(req)
	if err != nil {
		return page{}, last.Load(), err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	if err != nil {
		return page{}, withoutFragment(resp.Request.URL), fmt.Errorf("read %s: %w", u.Redacted(), err)
	}
	return page{url: withoutFragment(resp.Request.URL), code: resp.StatusCode, body: body,
		directives: c.rt.PageDirectives(resp, body)}, last.Load(), nil
}

// withoutFragment returns u without its fragment, as the frontier keys
// URLs: net/http keeps the one a redirect's Location carries.
func withoutFragment(u *url.URL) *url.URL {
	v := *u
	v.Fragment, v.RawFragment = "", ""
	return &v
}

// hopsKey keys, in a request's context, where followRedirect notes the
// URL of the last redirect followed.
type hopsKey struct{}

// followRedirect is the crawler's http.Client's CheckRedirect: it notes
// in the request's context the redirect followed, and stops after ten,
// as the default does.
func followRedirect(req *http.Request, via []*http.Request) error {
	if last, ok := req.Context().Value(hopsKey{}).(*atomic.Pointer[url.URL]); ok {
		last.Store(withoutFragment(req.URL))
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}
