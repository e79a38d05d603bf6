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
// deferred or paced; redirected reports that the request was sent, and
// redirected, all the same (the refusal was of a redirect's).
func (c *crawler) get(ctx context.Context, u *url.URL) (_ page, redirected bool, _ error) {
	var hops atomic.Bool // set by followRedirect
	req, err := http.NewRequestWithContext(context.WithValue(ctx, hopsKey{}, &hops), http.MethodGet, u.String(), nil)
	if err != nil {
		return page{}, false, fmt.Errorf("new request: %w", err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	resp, err := c.http.Do(req)
	if err != nil {
		return page{}, hops.Load(), err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	if err != nil {
		return page{}, true, fmt.Errorf("read %s: %w", u, err)
	}
	return page{url: resp.Request.URL, code: resp.StatusCode, body: body,
		directives: c.rt.PageDirectives(resp, body)}, hops.Load(), nil
}

// hopsKey keys, in a request's context, the flag followRedirect sets.
type hopsKey struct{}

// followRedirect is the crawler's http.Client's CheckRedirect: it notes
// in the request's context that a redirect was followed, and stops after
// ten, as the default does.
func followRedirect(req *http.Request, via []*http.Request) error {
	if hops, ok := req.Context().Value(hopsKey{}).(*atomic.Bool); ok {
		hops.Store(true)
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}
