package crawltest

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"
)

// get fetches url with hc and returns the status and body.
func get(t *testing.T, hc *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := hc.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, string(b)
}

// TestHTTPClientDialsTheWeb: whatever host a URL names, even one that
// cannot resolve (.invalid) or with a port, the request reaches the Web,
// which serves that host its own robots.txt and counts it by host.
func TestHTTPClientDialsTheWeb(t *testing.T) {
	w := NewWeb(t)
	hc := w.HTTPClient()
	t.Cleanup(hc.CloseIdleConnections)
	hosts := []string{"site0.test", "nowhere.invalid", "example.com:8080", "site0.test"}
	for _, h := range hosts {
		status, body := get(t, hc, "http://"+h+"/robots.txt")
		if want := robotsFor(h); status != http.StatusOK || body != want {
			t.Errorf("%s: %d %q, want 200 %q", h, status, body, want)
		}
	}
	for h, want := range map[string]int{"site0.test": 2, "nowhere.invalid": 1, "example.com:8080": 1, "site1.test": 0, "": 4} {
		if n := w.Fetches(h); n != want {
			t.Errorf("Fetches(%q) = %d, want %d", h, n, want)
		}
	}
}

// TestWebPages: without WithPages a page is not found and not recorded;
// with it, it is served and its arrivals are recorded in order, by host.
// Neither is a robots.txt fetch.
func TestWebPages(t *testing.T) {
	plain := NewWeb(t)
	hc := plain.HTTPClient()
	t.Cleanup(hc.CloseIdleConnections)
	if status, _ := get(t, hc, "http://a.test/page"); status != http.StatusNotFound {
		t.Errorf("page without WithPages: %d, want 404", status)
	}
	if at := plain.PageArrivals("a.test"); len(at) != 0 {
		t.Errorf("page without WithPages: %d arrivals recorded, want none", len(at))
	}

	w := NewWeb(t, WithPages())
	hc = w.HTTPClient()
	t.Cleanup(hc.CloseIdleConnections)
	start := time.Now()
	for range 3 {
		if status, body := get(t, hc, "http://a.test/page"); status != http.StatusOK || body != "page" {
			t.Errorf("page: %d %q, want 200 \"page\"", status, body)
		}
	}
	get(t, hc, "http://b.test/other")
	at := w.PageArrivals("a.test")
	if len(at) != 3 {
		t.Fatalf("a.test: %d arrivals, want 3", len(at))
	}
	for i, a := range at {
		if a.Before(start) || (i > 0 && a.Before(at[i-1])) {
			t.Errorf("arrivals %v: not in order from %v", at, start)
		}
	}
	if n := len(w.PageArrivals("b.test")); n != 1 {
		t.Errorf("b.test: %d arrivals, want 1", n)
	}
	if n := plain.Fetches("") + w.Fetches(""); n != 0 {
		t.Errorf("pages counted as %d robots.txt fetches", n)
	}
}

// TestWebBody: WithBody is every site's robots.txt.
func TestWebBody(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\n")
	w := NewWeb(t, WithBody(body))
	hc := w.HTTPClient()
	t.Cleanup(hc.CloseIdleConnections)
	for _, h := range []string{"a.test", "b.test"} {
		if _, got := get(t, hc, "http://"+h+"/robots.txt"); got != string(body) {
			t.Errorf("%s: %q, want %q", h, got, body)
		}
	}
	if string(w.Body()) != string(body) {
		t.Errorf("Body() = %q, want %q", w.Body(), body)
	}
}

// TestWebDelay: WithDelay holds every robots.txt answer back, and a
// request given up during the delay gets none but still counts.
func TestWebDelay(t *testing.T) {
	const d = 200 * time.Millisecond
	w := NewWeb(t, WithDelay(d))
	hc := w.HTTPClient()
	t.Cleanup(hc.CloseIdleConnections)
	start := time.Now()
	get(t, hc, "http://a.test/robots.txt")
	if took := time.Since(start); took < d {
		t.Errorf("answered after %v, want at least %v", took, d)
	}
	// Given up as soon as the Web has it, however long the dial took.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for w.Fetches("") < 2 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://b.test/robots.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := hc.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("a request given up during the delay was answered")
	}
	cancel()
	if n := w.Fetches(""); n != 2 {
		t.Errorf("Fetches = %d, want 2", n)
	}
}
