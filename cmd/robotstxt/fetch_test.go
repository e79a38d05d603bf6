package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestEachURLFromTheFetchItRestsOn: once the Client fetches a site's
// robots.txt again, the commands answer its later URLs from that fetch,
// not the first: a 503 kept for its Retry-After of 1 s, then rules,
// fetched again while another site keeps the Client 1.2 s.
func TestEachURLFromTheFetchItRestsOn(t *testing.T) {
	sites := func(t *testing.T) (a, b string) {
		var asked atomic.Int32
		as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path != "/robots.txt":
				fmt.Fprintln(w, "page")
			case asked.Add(1) == 1:
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusServiceUnavailable)
			default:
				fmt.Fprint(w, "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /private/\n")
			}
		}))
		bs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				time.Sleep(1200 * time.Millisecond)
				w.WriteHeader(http.StatusNotFound)
				return
			}
			fmt.Fprintln(w, "page")
		}))
		t.Cleanup(as.Close)
		t.Cleanup(bs.Close)
		return as.URL, bs.URL
	}
	t.Run("explain", func(t *testing.T) {
		t.Parallel()
		a, b := sites(t)
		r := runCmd(t, "", "explain", a+"/x", b+"/y", a+"/private/z")
		parts := strings.Split(r.stdout, "\n\n")
		if r.code != exitDeferred || len(parts) != 3 || !strings.Contains(parts[2], "decision  DISALLOW by line 3 (Disallow: /private/)") {
			t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
		}
	})
	t.Run("check", func(t *testing.T) {
		t.Parallel()
		a, b := sites(t)
		r := runCmd(t, "", "check", a+"/x", b+"/y", a+"/public")
		if lines := outputLines(r.stdout); len(lines) != 4 || !strings.HasPrefix(lines[3], indent+"usage train-ai=n ") ||
			!strings.HasSuffix(lines[3], " (line 2: Content-Usage: train-ai=n)") {
			t.Errorf("no usage line under %s/public:\n%s", a, r.stdout)
		}
	})
}
