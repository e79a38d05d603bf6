package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// maxPage bounds how much of a page is read.
const maxPage = 1 << 20

// get fetches u with the crawler's User-Agent and returns the body of a
// 2xx response.
func (c *crawler) get(ctx context.Context, u *url.URL) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("new request: %w", err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	resp, err := c.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("get %s: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", u, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", fmt.Errorf("get %s: %s", u, resp.Status)
	}
	return string(body), nil
}
