package main

import (
	"fmt"
	"io"
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

// TestHopCheckReadAsTheClientReadsIt: the robots.txt of another site,
// which the Client reads only to follow a redirect there, is not read on
// past what the Client reads. Read whole, this one (5 MiB, of which
// 64 KiB come every 50 ms after the first 640 KiB) would take the
// redirect past its time, and the site would be unreachable; every
// command answers as check and the Client do.
func TestHopCheckReadAsTheClientReadsIt(t *testing.T) {
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rules.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		io.WriteString(w, "User-agent: *\nAllow: /\n")
		pad := strings.Repeat("#\n", 32<<10) // 64 KiB
		for i := range 80 {
			if i >= 10 {
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
			if _, err := io.WriteString(w, pad); err != nil {
				return
			}
		}
	}))
	t.Cleanup(b.Close)
	a := httptest.NewServer(http.RedirectHandler(b.URL+"/rules.txt", http.StatusMovedPermanently))
	t.Cleanup(a.Close)
	for _, args := range [][]string{
		{"check", a.URL + "/private/x"},
		{"explain", a.URL + "/private/x"},
		{"test", "-file", a.URL + "/robots.txt", "/private/x"},
		{"lint", a.URL + "/robots.txt"},
	} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			r := runCmd(t, "", append([]string{args[0], "-timeout", "2s"}, args[1:]...)...)
			want := exitDisallowed
			if args[0] == "lint" {
				want = exitOK
			}
			if r.code != want {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr: %s", r.code, want, r.stdout, r.stderr)
			}
		})
	}
}
