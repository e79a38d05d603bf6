package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

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
// deferred or paced.
func (c *crawler) get(ctx context.Context, u *url.URL) (page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return page{}, fmt.Errorf("new request: %w", err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	resp, err := c.http.Do(req)
	if err != nil {
		return page{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	if err != nil {
		return page{}, fmt.Errorf("read %s: %w", u, err)
	}
	return page{url: resp.Request.URL, code: resp.StatusCode, body: body,
		directives: c.rt.PageDirectives(resp, body)}, nil
}
