package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
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

// TestWholeReadWithinTimeout: -timeout bounds a command's read of a
// robots.txt read whole (lint, explain, test -file), counted from the
// check's start: the rest of the file, and of the robots.txt read for a
// redirect to it, each had a -timeout of its own after the Client's
// fetch (5.3s for -timeout 2s, where both trickle on past what the Client
// reads; 9s for 4s). It is measured where the server sees the command
// hang up, not where the command ends: under -race on a loaded machine,
// explain takes seconds past its -timeout to parse and print what it
// read.
func TestWholeReadWithinTimeout(t *testing.T) {
	const timeout = 4 * time.Second
	var mu sync.Mutex
	var ended time.Time // when the server last saw a request end
	rules := trickling("User-agent: *\nDisallow: /private\n")
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rules(w, r)
		mu.Lock()
		ended = time.Now()
		mu.Unlock()
	}))
	t.Cleanup(b.Close)
	t.Cleanup(b.CloseClientConnections)
	a := httptest.NewServer(http.RedirectHandler(b.URL+"/rules.txt", http.StatusMovedPermanently))
	t.Cleanup(a.Close)
	for _, args := range [][]string{
		{"lint", a.URL + "/robots.txt"},
		{"explain", a.URL + "/private/x"},
	} {
		t.Run(args[0], func(t *testing.T) {
			mu.Lock()
			ended = time.Time{}
			mu.Unlock()
			start := time.Now()
			r := runCmd(t, "", append([]string{args[0], "-timeout", timeout.String()}, args[1:]...)...)
			b.CloseClientConnections() // any request still open ends now
			time.Sleep(100 * time.Millisecond)
			mu.Lock()
			took, seen := ended.Sub(start), !ended.IsZero()
			mu.Unlock()
			if !seen || took > timeout+2*time.Second || r.code != exitOK && r.code != exitDisallowed {
				t.Errorf("%s -timeout %v read the file for %v (exit %d)\n%s", args[0], timeout, took.Round(10*time.Millisecond), r.code, r.stderr)
			}
		})
	}
}

// trickling serves rules, then 16 KiB every 10 ms past what the Client
// reads in half a second, then every 100 ms, until the request ends.
func trickling(rules string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, rules)
		pad := strings.Repeat("#\n", 8<<10)
		for i := 0; ; i++ {
			wait := 100 * time.Millisecond
			if i < 40 {
				wait = 10 * time.Millisecond
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(wait):
			}
			if _, err := io.WriteString(w, pad); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
}

// TestWholeReadCutsNoOther: a robots.txt served whole at once, read for
// a redirect to another of its site's files that trickles to the end of
// -timeout, is read whole beside it, not cut by that deadline: the next
// URL, of its site, answers from the whole file (whose last line
// disallows it).
func TestWholeReadCutsNoOther(t *testing.T) {
	robots := "User-agent: *\nAllow: /\n" + strings.Repeat("# padding line\n", (1<<20)/15) + "Disallow: /page\n"
	rules := trickling("User-agent: *\nDisallow: /private\n")
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, robots)
		case "/rules.txt":
			rules(w, r)
		default:
			io.WriteString(w, "page")
		}
	}))
	t.Cleanup(b.Close)
	t.Cleanup(b.CloseClientConnections)
	a := httptest.NewServer(http.RedirectHandler(b.URL+"/rules.txt", http.StatusMovedPermanently))
	t.Cleanup(a.Close)
	r := runCmd(t, "", "explain", "-full", "-timeout", "4s", a.URL+"/x", b.URL+"/page") // time for a loaded machine
	if strings.Contains(r.stderr, strings.TrimPrefix(b.URL, "http://")+"/robots.txt was cut") || !strings.Contains(r.stdout, "Disallow: /page") {
		t.Errorf("explain -full of %s/page, after a check whose other file trickled: exit %d\nstdout:\n%s\nstderr:\n%s", b.URL, r.code, r.stdout, r.stderr)
	}
}

// TestRobotsRedirectSpelledOtherwise: a robots.txt that redirects to
// another site's, its Location spelling the host otherwise than the
// Client names the site (a default port, upper case, a trailing dot),
// is told apart from that site's own fetch, whichever came first: every
// command answers each URL as the Client does.
func TestRobotsRedirectSpelledOtherwise(t *testing.T) {
	for _, tc := range []struct{ loc, b string }{
		{"http://b.example:80/robots.txt", "http://b.example"},
		{"http://B.EXAMPLE/robots.txt", "http://b.example"},
		{"http://b.example./robots.txt", "http://b.example"},
		{"http://b.example:/robots.txt", "http://b.example"},
		{"http://b.example:0080/robots.txt", "http://b.example"},
		{"http://bü.example/robots.txt", "http://xn--b-eha.example"},
		{"http://b%C3%BC.example/robots.txt", "http://xn--b-eha.example"},
		{"http://B_X.EXAMPLE:80/robots.txt", "http://b_x.example"}, // a name IDNA refuses
	} {
		loc := tc.loc
		t.Run(loc, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				a := strings.HasPrefix(strings.ToLower(r.Host), "a.")
				switch {
				case r.URL.Path == "/robots.txt" && a:
					w.Header()["Location"] = []string{loc}
					w.WriteHeader(http.StatusMovedPermanently)
				case r.URL.Path == "/robots.txt":
					fmt.Fprint(w, "User-agent: *\nDisallow: /p\n")
				case r.URL.Path == "/x" && a:
					http.Redirect(w, r, tc.b+"/p", http.StatusFound)
				default:
					fmt.Fprintln(w, "page")
				}
			}))
			t.Cleanup(srv.Close)
			mapHosts(t, ".example", srv.Listener.Addr().String())
			for _, args := range [][]string{{"check"}, {"check", "-json"}, {"explain", "-json"}} {
				r := runCmd(t, "", append(args, "http://a.example/p", tc.b+"/p", "http://a.example/y")...)
				lines := outputLines(r.stdout)
				refused := func(line string) bool {
					return strings.HasPrefix(line, "DISALLOW") || strings.Contains(line, `"verdict":"disallowed"`)
				}
				if r.code != exitDisallowed || r.stderr != "" || len(lines) != 3 || !refused(lines[0]) || !refused(lines[1]) || refused(lines[2]) {
					t.Errorf("%v: exit %d, want 1 with DISALLOW, DISALLOW, ALLOW\nstdout:\n%sstderr: %s", args, r.code, r.stdout, r.stderr)
				}
			}
			r := runCmd(t, "", "check", "http://a.example/x") // redirected to b's /p
			if r.code != exitDisallowed || r.stderr != "" || !strings.HasPrefix(r.stdout, "DISALLOW") {
				t.Errorf("check http://a.example/x: exit %d, want 1\nstdout:\n%sstderr: %s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// mapHosts makes the commands dial addr for every host name ending in
// suffix, for the rest of t, as for a host name the system resolver
// would map there; other addresses are dialled as before. t must not be
// parallel.
func mapHosts(t *testing.T, suffix, addr string) {
	old := dial
	dial = func(ctx context.Context, network, a string) (net.Conn, error) {
		if host, _, err := net.SplitHostPort(a); err == nil && strings.HasSuffix(strings.TrimSuffix(strings.ToLower(host), "."), suffix) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}
		return old(ctx, network, a)
	}
	t.Cleanup(func() { dial = old })
}

// TestTapKey: a URL is keyed by its authority as the Client names it.
func TestTapKey(t *testing.T) {
	for _, c := range [][2]string{
		{"http://b.example:80/robots.txt", "http://b.example/robots.txt"},
		{"http://B.EXAMPLE./robots.txt", "http://b.example/robots.txt"},
		{"http://bü.example/robots.txt", "http://xn--b-eha.example/robots.txt"},
		{"http://b%C3%BC.example/robots.txt", "http://xn--b-eha.example/robots.txt"},
		{"http://b.example:/r", "http://b.example/r"},
		{"http://b.example:0080/r", "http://b.example/r"},
		{"https://b.example:8443/r?x#y", "https://b.example:8443/r?x#y"},
		{"http://[::1]:80/r", "http://[::1]/r"},
		{"http://[FE80::1]:8080/r", "http://[fe80::1]:8080/r"},
		{"http://B_X.example.:80/robots.txt", "http://b_x.example/robots.txt"}, // a name IDNA refuses, as written
		{"http://127.0.0.1:8080/robots.txt", "http://127.0.0.1:8080/robots.txt"},
		{"HTTP://B.example/a-path-cut…", "http://b.example/a-path-cut…"},
	} {
		if got := tapKey(c[0]); got != c[1] {
			t.Errorf("tapKey(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// TestCauseOfAnAnswer: a robots.txt whose 301 has a Location net/url
// cannot parse was answered: every command says why (the Location), not
// that the network failed, which would send a site owner to look at DNS
// and firewalls; a dial that fails is a network error.
func TestCauseOfAnAnswer(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{"/robots%zz.txt"}
		w.WriteHeader(http.StatusMovedPermanently)
	}))
	defer s.Close()
	mapHosts(t, ".cause", s.Listener.Addr().String())
	for _, args := range [][]string{
		{"check", "http://site.cause/x"},
		{"check", "-v", "http://site.cause/x"},
		{"check", "-json", "http://site.cause/x"},
		{"explain", "http://site.cause/x"},
		{"test", "-file", "http://site.cause/", "/x"},
		{"lint", "http://site.cause/"},
	} {
		r := runCmd(t, "", args...)
		out := r.stdout + r.stderr
		if r.code != exitDeferred || !strings.Contains(out, "failed to parse Location header") || strings.Contains(out, "network error") {
			t.Errorf("%q: exit %d; want %d naming the Location, no network error:\n%s", args, r.code, exitDeferred, out)
		}
	}
	old := dial
	dial = func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.EHOSTUNREACH}
	}
	t.Cleanup(func() { dial = old })
	if r := runCmd(t, "", "check", "http://unreachable.cause/x"); !strings.Contains(r.stdout+r.stderr, "network error: ") {
		t.Errorf("a dial that failed: %s%s; want a network error", r.stdout, r.stderr)
	}
}

// TestFailureOfAHandshake: an alert the server sent, which crypto/tls
// reports over TCP as a *net.OpError (a handshake it refused, say), is
// named as such, not as a network error.
func TestFailureOfAHandshake(t *testing.T) {
	err := fmt.Errorf("get: %w", &net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")})
	if got, want := cause(0, err), "TLS: the server sent an alert: tls: handshake failure"; got != want {
		t.Errorf("cause = %q, want %q", got, want)
	}
}

// TestFetcherHoldsBoundedBytes: over a list of sites, each with a 1 MiB
// robots.txt read whole, the command holds at most maxHeld bytes of
// them (here lowered to 2 MiB) in its fetcher and as much in the
// explainers eachURL keeps, not every site's: the heap grows by what the
// Client's own cache keeps of each, a few KiB, not by the 4.7 MiB a site
// the files, their decoded text and an explainer's Clients took (the
// explainers of the first maxExplainers sites held 77 MiB).
func TestFetcherHoldsBoundedBytes(t *testing.T) {
	const sites, size = 24, 1 << 20
	defer func(old int) { maxHeld = old }(maxHeld)
	maxHeld = 2 << 20
	body := "User-agent: *\nDisallow: /private/\n" + strings.Repeat("# "+strings.Repeat("p", 97)+"\n", size/100)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	mapHosts(t, ".example", s.Listener.Addr().String())
	var urls []string
	for i := range sites {
		urls = append(urls, fmt.Sprintf("http://s%d.example/private/x", i))
	}
	heap := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	rf := newReadFlags(newFlags(lookup("explain")), "", "", "")
	var peak int64
	base := heap()
	code := rf.eachURL(urls, false, env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}, func(*explainer, int, target) (int, error) {
		peak = max(peak, heap())
		return exitOK, nil
	})
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	// maxHeld of documents the fetcher holds, as much for the explainers
	// eachURL keeps, with their Clients' rules, and a file being read.
	if grew := peak - base; grew > 6*int64(maxHeld) {
		t.Errorf("the heap grew by %d KiB over %d sites of %d KiB each, past %d KiB", grew>>10, sites, size>>10, 6*maxHeld>>10)
	}
}

// TestFetcherDroppedSiteMetAgain: a site met again after its robots.txt
// was let go, which the Client still answers from, is refused with an
// error that says so, rather than answered from another file.
func TestFetcherDroppedSiteMetAgain(t *testing.T) {
	defer func(old int) { maxHeld = old }(maxHeld)
	maxHeld = 1
	a, b := newRobotsServer(t, http.StatusOK, liveRobots), newRobotsServer(t, http.StatusOK, liveRobots)
	r := runCmd(t, "", "explain", a.URL+"/private/x", b.URL+"/private/x", a.URL+"/private/y")
	if r.code != exitUsage || strings.Count(r.stdout, "DISALLOW") != 2 || !strings.Contains(r.stderr, a.URL+"/robots.txt: read earlier in this run and no longer held") {
		t.Errorf("exit %d, want %d after two answers\nstdout:\n%s\nstderr: %s", r.code, exitUsage, r.stdout, r.stderr)
	}
	if n := a.fetches.Load(); n != 1 {
		t.Errorf("%s/robots.txt fetched %d times", a.URL, n)
	}
}

// fetcherOver returns a fetcher whose Client keeps no copy fresh past
// what its server says, over h, serving every .example host.
func fetcherOver(t *testing.T, h http.Handler) *fetcher {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	mapHosts(t, ".example", srv.Listener.Addr().String())
	f := newFetcher(fetchConfig{userAgent: defaultUserAgent, timeout: 5 * time.Second,
		opts: []robotstxt.Option{robotstxt.WithMinFreshness(0), robotstxt.WithBackoff(time.Millisecond, time.Millisecond)}})
	t.Cleanup(f.close)
	return f
}

// sameSecond serves a robots.txt changed within the second its
// Last-Modified names: "Disallow: /x", expiring at once, then "Allow: /"
// for an hour; a revalidation of that Last-Modified is answered 304.
func sameSecond(fetches, revalidations *atomic.Int32) http.HandlerFunc {
	const lastMod = "Sat, 05 Dec 2026 06:00:00 GMT"
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-Modified-Since") == lastMod {
			revalidations.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Last-Modified", lastMod)
		if fetches.Add(1) == 1 {
			w.Header().Set("Cache-Control", "max-age=0")
			io.WriteString(w, "User-agent: *\nDisallow: /x\n")
			return
		}
		w.Header().Set("Cache-Control", "max-age=3600")
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	}
}

// TestFetcherSameValidatorsNewBody: a robots.txt fetched again for
// another site's check (a.example's robots.txt redirects to
// b.example's), its new body under the same Last-Modified (changed
// within its second), is the copy the Client answers b.example from:
// the command reads it, not the document of the same validators it
// holds.
func TestFetcherSameValidatorsNewBody(t *testing.T) {
	var fetches, revalidations atomic.Int32
	file := sameSecond(&fetches, &revalidations)
	f := fetcherOver(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host, _, _ := strings.Cut(r.Host, ":"); host == "a.example" {
			http.Redirect(w, r, "http://b.example/robots.txt", http.StatusMovedPermanently)
			return
		}
		file(w, r)
	}))
	for _, u := range []string{"http://b.example/x", "http://a.example/x"} {
		time.Sleep(5 * time.Millisecond) // b.example's copy expires
		if _, doc, err := f.read(t.Context(), u); doc == nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	d, doc, err := f.read(t.Context(), "http://b.example/x")
	switch {
	case doc == nil:
		t.Fatalf("b.example again: %v", err)
	case !d.Allowed || !strings.Contains(string(doc.text(false)), "Allow: /\n") || fetches.Load() != 2:
		t.Errorf("b.example again: allowed %v, %d fetches, the robots.txt read %q; want the new file, which allows /x", d.Allowed, fetches.Load(), doc.text(false))
	}
}

// TestFetcherSharedFinalURLAfterDrop: two sites whose robots.txt
// redirect to one file, which changed between their fetches; the first
// site's document let go (over a list of sites), met again, is refused,
// not read from the file as the second site's fetch left it.
func TestFetcherSharedFinalURLAfterDrop(t *testing.T) {
	defer func(old int) { maxHeld = old }(maxHeld)
	maxHeld = 1
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch host, _, _ := strings.Cut(r.Host, ":"); {
		case host != "cdn.example":
			http.Redirect(w, r, "http://cdn.example/shared.txt", http.StatusMovedPermanently)
		case r.URL.Path == "/shared.txt" && fetches.Add(1) == 1:
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		default:
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		}
	}))
	t.Cleanup(srv.Close)
	mapHosts(t, ".example", srv.Listener.Addr().String())
	f := newFetcher(fetchConfig{userAgent: defaultUserAgent, timeout: 5 * time.Second})
	defer f.close()
	for _, u := range []string{"http://a.example/private/x", "http://b.example/private/x"} {
		time.Sleep(2 * time.Millisecond) // a copy's time, to the millisecond, tells the two apart
		if _, doc, err := f.read(t.Context(), u); doc == nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	d, doc, err := f.read(t.Context(), "http://a.example/private/y")
	if d.Allowed || doc != nil || err == nil || !strings.Contains(err.Error(), "no longer held") {
		t.Errorf("a.example met again: allowed %v, %v, a robots.txt read %v; want its copy's disallow, refused", d.Allowed, err, doc != nil)
	}
}

// TestFetcherRevalidatedSharedFile: two sites whose robots.txt redirect
// to one file, changed within the second of its Last-Modified; the
// first site's copy, revalidated (304), is the document the command
// holds, not the second site's later response of the same validators.
func TestFetcherRevalidatedSharedFile(t *testing.T) {
	var fetches, revalidations atomic.Int32
	file := sameSecond(&fetches, &revalidations)
	f := fetcherOver(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch host, _, _ := strings.Cut(r.Host, ":"); {
		case host != "cdn.example":
			http.Redirect(w, r, "http://cdn.example/shared.txt", http.StatusMovedPermanently)
		case r.URL.Path != "/shared.txt":
			http.NotFound(w, r)
		default:
			file(w, r)
		}
	}))
	for _, u := range []string{"http://a.example/x", "http://b.example/x"} {
		time.Sleep(5 * time.Millisecond)
		if _, doc, err := f.read(t.Context(), u); doc == nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	time.Sleep(5 * time.Millisecond) // a.example's copy expires
	d, doc, err := f.read(t.Context(), "http://a.example/x")
	switch {
	case revalidations.Load() != 1:
		t.Fatalf("%d revalidations answered 304, want 1", revalidations.Load())
	case doc == nil:
		t.Errorf("a.example, revalidated: %v", err)
	case d.Allowed || !strings.Contains(string(doc.text(false)), "Disallow: /x"):
		t.Errorf("a.example, revalidated: allowed %v, the robots.txt read %q; want its own copy, which disallows /x", d.Allowed, doc.text(false))
	}
}

// TestFetcherOwnRedirectAfterDrop: a site whose robots.txt redirects
// within it, met again once its document was let go while the response
// the Client read is still held, is read from that response.
func TestFetcherOwnRedirectAfterDrop(t *testing.T) {
	defer func(old int) { maxHeld = old }(maxHeld)
	pad := strings.Repeat("# "+strings.Repeat("p", 97)+"\n", 100)
	maxHeld = 25_000 // two responses of 10 KB, one document of 20 KB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host, _, _ := strings.Cut(r.Host, ":"); host == "a.example" && r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/robots-v2.txt", http.StatusMovedPermanently)
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n"+pad)
	}))
	t.Cleanup(srv.Close)
	mapHosts(t, ".example", srv.Listener.Addr().String())
	f := newFetcher(fetchConfig{userAgent: defaultUserAgent, timeout: 5 * time.Second})
	defer f.close()
	for _, u := range []string{"http://a.example/private/x", "http://b.example/private/x"} {
		if _, doc, err := f.read(t.Context(), u); doc == nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	if _, held := f.docs.Peek("http://a.example:80"); held || f.tap.body("http://a.example/robots-v2.txt", 0) == nil {
		t.Fatalf("a.example's document held %v; want it let go, its response held", held)
	}
	if d, doc, err := f.read(t.Context(), "http://a.example/private/y"); doc == nil || d.Allowed {
		t.Errorf("a.example met again: allowed %v, %v; want its robots.txt read", d.Allowed, err)
	}
}

// hopToB serves a.example's robots.txt as a redirect to a page of
// b.example, whose check fetches b.example's robots.txt (robots), and
// every other page as allowing all.
func hopToB(robots http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch host, _, _ := strings.Cut(r.Host, ":"); {
		case host == "a.example":
			http.Redirect(w, r, "http://b.example/rules.txt", http.StatusMovedPermanently)
		case r.URL.Path != "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		default:
			robots(w, r)
		}
	})
}

// TestFetcherHopResponseNotRead: b.example's robots.txt, fetched again
// for the hop of a.example's robots.txt (redirected to a page of
// b.example), answers a 206 the Client cannot read, b.example's own
// failure, kept for its back-off with its copy standing in; b.example
// met again once that has run out, its copy revalidated (304), is read
// from that copy, not the 206.
func TestFetcherHopResponseNotRead(t *testing.T) {
	for _, etag := range []string{`"v2"`, `"v1"`} { // of another entity, or a part of the copy's
		var fetches, revalidated atomic.Int32
		f := fetcherOver(t, hopToB(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case fetches.Add(1) == 2:
				w.Header().Set("ETag", etag)
				w.Header().Set("Content-Range", "bytes 0-23/500")
				w.WriteHeader(http.StatusPartialContent)
				io.WriteString(w, "User-agent: *\nAllow: /\n\n")
			case r.Header.Get("If-None-Match") == `"v1"`:
				revalidated.Add(1)
				w.WriteHeader(http.StatusNotModified)
			default:
				w.Header().Set("ETag", `"v1"`)
				w.Header().Set("Cache-Control", "max-age=0")
				io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			}
		}))
		for _, u := range []string{"http://b.example/private/x", "http://a.example/x", "http://b.example/private/y"} {
			time.Sleep(5 * time.Millisecond) // b.example's copy expires
			d, doc, err := f.read(t.Context(), u)
			if host := u[len("http://"):][:1]; host == "b" && (doc == nil || d.Allowed || !strings.Contains(string(doc.text(false)), "Disallow: /private/")) {
				t.Errorf("206 of %s: %s: allowed %v, %v, a robots.txt read %v; want the copy, which disallows /private/", etag, u, d.Allowed, err, doc != nil)
			}
		}
		if revalidated.Load() == 0 {
			t.Errorf("206 of %s: b.example/robots.txt asked %d times, never revalidated: the copy read after a 304 is not tested", etag, fetches.Load())
		}
	}
}

// TestFetcherRevalidatedAfterDrop: a site met again once its document
// was let go while the response the Client read is still held, its copy
// revalidated (304), is read from that response.
func TestFetcherRevalidatedAfterDrop(t *testing.T) {
	defer func(old int) { maxHeld = old }(maxHeld)
	pad := strings.Repeat("# "+strings.Repeat("p", 97)+"\n", 100)
	maxHeld = 25_000 // two responses of 10 KB, one document of 20 KB
	const lastMod = "Sat, 05 Dec 2026 06:00:00 GMT"
	for _, etag := range []string{`"v1"`, `"` + strings.Repeat("e", 600) + `"`} { // one the Client keeps, one it does not
		var revalidations atomic.Int32
		f := fetcherOver(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", etag)
			w.Header().Set("Last-Modified", lastMod)
			w.Header().Set("Cache-Control", "max-age=0")
			if r.Header.Get("If-None-Match") == etag || r.Header.Get("If-Modified-Since") == lastMod {
				revalidations.Add(1)
				w.WriteHeader(http.StatusNotModified)
				return
			}
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n"+pad)
		}))
		for _, u := range []string{"http://a.example/private/x", "http://b.example/private/x", "http://a.example/private/y"} {
			time.Sleep(5 * time.Millisecond)
			if d, doc, err := f.read(t.Context(), u); doc == nil || d.Allowed {
				t.Errorf("ETag of %d bytes: %s: allowed %v, %v; want its robots.txt read", len(etag), u, d.Allowed, err)
			}
		}
		if n := revalidations.Load(); n != 1 {
			t.Errorf("ETag of %d bytes: %d revalidations, want 1", len(etag), n)
		}
	}
}

// TestFetcherHopFill: b.example's robots.txt, fetched for the hop of
// a.example's robots.txt (redirected to a page of b.example), is the
// copy the Client answers b.example from next: read, whatever its ETag
// (one the Client does not keep) or length (past the 500 KiB limit,
// where the Client keeps no validators).
func TestFetcherHopFill(t *testing.T) {
	for _, tc := range []struct{ etag, body string }{
		{`"v1"`, "User-agent: *\nDisallow: /private/\n"},
		{`"` + strings.Repeat("e", 600) + `"`, "User-agent: *\nDisallow: /private/\n"},
		{`"v1"`, "User-agent: *\nDisallow: /private/\n" + strings.Repeat("# "+strings.Repeat("p", 97)+"\n", 6000)},
	} {
		f := fetcherOver(t, hopToB(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", tc.etag)
			w.Header().Set("Cache-Control", "max-age=3600")
			io.WriteString(w, tc.body)
		}))
		for _, u := range []string{"http://a.example/x", "http://b.example/private/y"} {
			if d, doc, err := f.read(t.Context(), u); doc == nil || u == "http://b.example/private/y" && d.Allowed {
				t.Errorf("ETag of %d bytes, body of %d: %s: allowed %v, %v; want its robots.txt read", len(tc.etag), len(tc.body), u, d.Allowed, err)
			}
		}
	}
}

// TestFetcherNeverAnotherBody: where a site's copy may have come from
// more than one response of a file changed within its Last-Modified
// second (another site's fetch of it kept as its copy too; a hop's
// fetch of a file two sites redirect to), its copy revalidated since,
// the command shows the copy the Client answers from, or refuses.
func TestFetcherNeverAnotherBody(t *testing.T) {
	type route func(w http.ResponseWriter, r *http.Request, host string) bool
	// anotherSites has b.example's robots.txt redirect to a.example's,
	// spelled as loc, which redirects within its site.
	anotherSites := func(loc string) route {
		return func(w http.ResponseWriter, r *http.Request, host string) bool {
			switch {
			case host == "b.example" && r.URL.Path == "/robots.txt":
				w.Header()["Location"] = []string{loc}
				w.WriteHeader(http.StatusMovedPermanently)
			case strings.EqualFold(strings.TrimSuffix(host, "."), "a.example") && r.URL.Path == "/robots.txt":
				http.Redirect(w, r, "http://a.example/rules.txt", http.StatusMovedPermanently)
			default:
				return false
			}
			return true
		}
	}
	abAgain := []string{"http://a.example/x", "http://b.example/x", "http://a.example/x"}
	for _, tc := range []struct {
		name  string
		route route
		urls  []string
	}{
		{"another site's fetch", anotherSites("http://a.example/robots.txt"), abAgain},
		{"another site's fetch, the default port", anotherSites("http://a.example:80/robots.txt"), abAgain},
		{"another site's fetch, in capitals, a final dot", anotherSites("http://A.EXAMPLE./robots.txt"), abAgain},
		{"a hop's fetch", func(w http.ResponseWriter, r *http.Request, host string) bool {
			switch {
			case host == "b.example" && r.URL.Path == "/robots.txt":
				http.Redirect(w, r, "http://c.example/page.txt", http.StatusMovedPermanently)
			case (host == "a.example" || host == "c.example") && r.URL.Path == "/robots.txt":
				http.Redirect(w, r, "http://cdn.example/shared.txt", http.StatusMovedPermanently)
			case r.URL.Path == "/page.txt":
				io.WriteString(w, "User-agent: *\nAllow: /\n")
			default:
				return false
			}
			return true
		}, abAgain},
		// a.example's robots.txt leads, through a page of c.example, to
		// b.example's, whose copy answers; the hop's check of c.example's
		// robots.txt fetches the file they share again, within the check.
		{"a hop's fetch within the check", func(w http.ResponseWriter, r *http.Request, host string) bool {
			switch {
			case host == "a.example" && r.URL.Path == "/robots.txt":
				http.Redirect(w, r, "http://c.example/foo", http.StatusMovedPermanently)
			case host == "c.example" && r.URL.Path == "/foo":
				http.Redirect(w, r, "http://b.example/robots.txt", http.StatusMovedPermanently)
			case (host == "b.example" || host == "c.example") && r.URL.Path == "/robots.txt":
				http.Redirect(w, r, "http://cdn.example/shared.txt", http.StatusMovedPermanently)
			default:
				return false
			}
			return true
		}, []string{"http://b.example/x", "http://a.example/x"}},
	} {
		const lastMod = "Sat, 05 Dec 2026 06:00:00 GMT"
		var fetches, revalidations atomic.Int32
		f := fetcherOver(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch host, _, _ := strings.Cut(r.Host, ":"); {
			case tc.route(w, r, host):
			case r.Header.Get("If-Modified-Since") == lastMod:
				revalidations.Add(1)
				w.WriteHeader(http.StatusNotModified)
			default:
				w.Header().Set("Last-Modified", lastMod)
				w.Header().Set("Cache-Control", "max-age=0")
				if fetches.Add(1) == 1 {
					io.WriteString(w, "User-agent: *\nDisallow: /x\n")
					return
				}
				io.WriteString(w, "User-agent: *\nAllow: /\n")
			}
		}))
		for _, u := range tc.urls {
			time.Sleep(5 * time.Millisecond) // a copy's time, to the millisecond, tells the responses apart; a.example's expires
			d, doc, err := f.read(t.Context(), u)
			if doc != nil && d.Allowed != strings.Contains(string(doc.text(false)), "Allow: /\n") {
				t.Errorf("%s: %s: allowed %v, the robots.txt shown %q (%v); want the copy the Client answers from, or none", tc.name, u, d.Allowed, doc.text(false), err)
			}
		}
		if fetches.Load() < 2 {
			t.Errorf("%s: %d fetches; want two at least", tc.name, fetches.Load())
		}
	}
}

// TestFetcherClosesRedirectsRobots: the robots.txt of a site that a
// robots.txt redirected to, read by the Client only to check the
// redirect, is read to the command's limit and closed once the URL is
// answered, not held open (its connection with it) until the command
// ends: here c.example's server answers only once b.example's has seen
// it closed.
func TestFetcherClosesRedirectsRobots(t *testing.T) {
	parted := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch host, _, _ := strings.Cut(r.Host, ":"); {
		case host == "a.example":
			http.Redirect(w, r, "http://b.example/rules.txt", http.StatusMovedPermanently)
		case host == "b.example" && r.URL.Path == "/rules.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case host == "b.example": // its robots.txt, past every limit, without end
			io.WriteString(w, "User-agent: *\nAllow: /\n")
			for {
				if _, err := io.WriteString(w, strings.Repeat("#\n", 128<<10)); err != nil {
					once.Do(func() { close(parted) })
					return
				}
				w.(http.Flusher).Flush()
			}
		default:
			select {
			case <-parted:
				io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			case <-time.After(3 * time.Second):
				w.WriteHeader(http.StatusServiceUnavailable)
			}
		}
	}))
	t.Cleanup(srv.Close)
	mapHosts(t, ".example", srv.Listener.Addr().String())
	r := runCmd(t, "", "explain", "-timeout", "5s", "http://a.example/private/x", "http://c.example/private/x")
	if r.code != exitDisallowed || strings.Count(r.stdout, "DISALLOW") != 2 {
		t.Errorf("exit %d, want both disallowed\nstdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// TestFetcherKeepsSiteMetOften: over a list that keeps coming back to
// one site, a.example, its file is kept while those of sites met before
// it are let go: answered from its document, its capture was not used,
// and went first. Each file is 64 KiB and the command holds six; the
// Client answers every URL from its cache.
func TestFetcherKeepsSiteMetOften(t *testing.T) {
	const size = 64 << 10
	defer func(old int) { maxHeld = old }(maxHeld)
	maxHeld = 6*size + 1024
	body := "User-agent: *\nDisallow: /private/\n" + strings.Repeat("# "+strings.Repeat("p", 61)+"\n", size/64)
	body = body[:size]
	var fetches atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	mapHosts(t, ".example", s.Listener.Addr().String())
	var urls []string
	for _, site := range []string{"b", "c", "d", "e", "f", "g"} {
		urls = append(urls, "http://a.example/private/x", "http://"+site+".example/private/x")
	}
	urls = append(urls, "http://a.example/private/x", "http://h.example/private/x", "http://i.example/private/x", "http://a.example/private/y")
	for _, cmd := range [][]string{{"explain"}, {"check"}} {
		fetches.Store(0)
		r := runCmd(t, "", append(cmd, urls...)...)
		if r.code != exitDisallowed || strings.Count(r.stdout, "DISALLOW") != len(urls) || r.stderr != "" {
			t.Errorf("%s: exit %d, %d of %d URLs answered, want all (disallowed)\nstderr: %s", cmd[0], r.code, strings.Count(r.stdout, "DISALLOW"), len(urls), r.stderr)
		}
		if n := fetches.Load(); n != 9 {
			t.Errorf("%s: %d robots.txt fetches, want 9 (one a site)", cmd[0], n)
		}
	}
}

// TestFetcherReadsRedirectsRobotsWhole: b.example's robots.txt (1 MiB,
// an Allow past the 500 KiB limit), first read by the Client only to
// check a.example's robots.txt redirect to b.example/rules.txt, is read
// whole before it is closed: explained next, b.example's URL gets what
// it gets alone, the whole file's ALLOW with -full and the "limit" line
// without. Closed where the Client stopped, it got the Client's DISALLOW
// and a note that the file "is 565 KiB … -full reads it all".
func TestFetcherReadsRedirectsRobotsWhole(t *testing.T) {
	pad := strings.Repeat("# "+strings.Repeat("p", 61)+"\n", (800<<10)/64)
	bBody := "User-agent: *\nDisallow: /private/\n" + pad + "Allow: /private/late\n" + strings.Repeat("#\n", 100<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		switch {
		case host == "a.example" && r.URL.Path == "/robots.txt":
			http.Redirect(w, r, "http://b.example/rules.txt", http.StatusMovedPermanently)
		case host == "b.example" && r.URL.Path == "/rules.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case host == "b.example" && r.URL.Path == "/robots.txt":
			io.WriteString(w, bBody)
		default:
			io.WriteString(w, "page\n")
		}
	}))
	t.Cleanup(srv.Close)
	mapHosts(t, ".example", srv.Listener.Addr().String())
	const a, b = "http://a.example/private/x", "http://b.example/private/late"

	alone := runCmd(t, "", "explain", "-json", "-full", b)
	if alone.code != exitOK || !strings.Contains(alone.stdout, `"verdict":"allowed"`) {
		t.Fatalf("explain -full %s alone: exit %d\n%s%s", b, alone.code, alone.stdout, alone.stderr)
	}
	after := runCmd(t, "", "explain", "-json", "-full", a, b)
	if lines := outputLines(after.stdout); len(lines) != 2 || lines[1] != strings.TrimSuffix(alone.stdout, "\n") {
		t.Errorf("explain -json -full %s %s: %s's answer differs from its answer alone\nalone:\n%safter:\n%s\nstderr: %s", a, b, b, alone.stdout, after.stdout, after.stderr)
	}
	if strings.Contains(after.stderr, "is 565 KiB") || strings.Contains(after.stderr, "577540") {
		t.Errorf("a 1001 KiB file said to be 565 KiB, -full reading it all:\n%s", after.stderr)
	}
	text := runCmd(t, "", "explain", a, b)
	if !strings.Contains(text.stdout, "limit     the file goes on past the 500 KiB crawlers read") {
		t.Errorf("explain %s %s: no limit line for %s's Allow past the limit\n%s", a, b, b, text.stdout)
	}
}

// TestFetcherCutURLAfterDrop: a.example's and b.example's robots.txt
// redirect to two CDN files whose URLs share their first 512 bytes, so
// that a Decision names each cut, ending in "…". Met again after its
// file was let go, a.example is not answered from b.example's, the one
// capture left with that prefix, but refused.
func TestFetcherCutURLAfterDrop(t *testing.T) {
	defer func(old int) { maxHeld = old }(maxHeld)
	maxHeld = 1
	long := "/" + strings.Repeat("x", 600)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch host, _, _ := strings.Cut(r.Host, ":"); {
		case host == "a.example" && r.URL.Path == "/robots.txt":
			http.Redirect(w, r, "http://cdn.example"+long+"/a.txt", http.StatusMovedPermanently)
		case host == "b.example" && r.URL.Path == "/robots.txt":
			http.Redirect(w, r, "http://cdn.example"+long+"/b.txt", http.StatusMovedPermanently)
		case host == "cdn.example" && r.URL.Path == long+"/a.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case host == "cdn.example" && r.URL.Path == long+"/b.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		case host == "cdn.example" && r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	mapHosts(t, ".example", srv.Listener.Addr().String())
	r := runCmd(t, "", "explain", "http://a.example/private/x", "http://b.example/private/x", "http://a.example/private/y")
	blocks := strings.Split(r.stdout, "\n\n")
	if len(blocks) >= 3 && strings.Contains(blocks[2], "ALLOW") && !strings.Contains(blocks[2], "DISALLOW") {
		t.Errorf("a.example/private/y answered ALLOW from b.example's file; a.example's robots.txt disallows it\nstdout:\n%s\nstderr: %s", r.stdout, r.stderr)
	}
	if r.code != exitUsage || !strings.Contains(r.stderr, "no longer held") {
		t.Errorf("exit %d, want %d for a file no longer held\nstderr: %s", r.code, exitUsage, r.stderr)
	}
}

// TestFetcherStandInReadsTheCopy: a robots.txt fetched again, whose
// new 200 the Client could not read (cut short, or in a coding it does
// not read), has the Client answer from its last good copy: the command
// reads that copy, not the failed body; also once the Client has
// revalidated the copy (a 304 to its ETag), and where the command no
// longer holds it (it refuses, rather than read the failed body).
func TestFetcherStandInReadsTheCopy(t *testing.T) {
	for _, failure := range []string{"cut", "br"} {
		t.Run(failure, func(t *testing.T) {
			var n atomic.Int32
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Cache-Control", "max-age=0")
				w.Header().Set("ETag", `"a"`)
				switch i := n.Add(1); {
				case i == 1:
					fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
				case i > 3 && r.Header.Get("If-None-Match") == `"a"`:
					w.WriteHeader(http.StatusNotModified)
				case failure == "br":
					w.Header().Set("Content-Encoding", "br")
					fmt.Fprint(w, "\x1b\x16\x00\x00\x24\x82\xe2\x99\x00\x00")
				default:
					w.Header().Set("Content-Length", "4000") // 23 bytes come
					fmt.Fprint(w, "User-agent: *\nAllow: /\n")
				}
			}))
			defer s.Close()
			f := newFetcher(fetchConfig{userAgent: defaultUserAgent, timeout: 5 * time.Second,
				opts: []robotstxt.Option{robotstxt.WithMinFreshness(0), robotstxt.WithBackoff(time.Millisecond, time.Millisecond)}})
			defer f.close()
			for i := range 4 {
				time.Sleep(5 * time.Millisecond) // the fetch's time, to the millisecond, another; past the back-off
				d, doc, err := f.read(t.Context(), s.URL+"/private")
				switch {
				case int(n.Load()) != i+1:
					t.Fatalf("check %d: %d requests, want %d", i, n.Load(), i+1)
				case (i == 1 || i == 2) && (!d.Stale || d.Err == nil), i == 3 && d.Stale:
					t.Fatalf("check %d: stale %v, error %v; want the last good copy standing in, then revalidated", i, d.Stale, d.Err)
				case doc == nil:
					t.Fatalf("check %d: no robots.txt (%v)", i, err)
				case !strings.Contains(string(doc.text(false)), "Disallow: /private") || d.Allowed:
					t.Errorf("check %d: allowed %v, the robots.txt read %q; want the copy the Client answers from", i, d.Allowed, doc.text(false))
				}
			}
		})
	}
	// The copy let go (over a list of sites), then a 200 the Client
	// cannot read: refused, as a copy no longer held is.
	defer func(old int) { maxHeld = old }(maxHeld)
	maxHeld = 1
	var n atomic.Int32
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=0")
		if n.Add(1) == 1 {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		w.Header().Set("Content-Length", "4000") // 23 bytes come
		fmt.Fprint(w, "User-agent: *\nAllow: /\n")
	}))
	defer a.Close()
	b := newRobotsServer(t, http.StatusOK, liveRobots)
	f := newFetcher(fetchConfig{userAgent: defaultUserAgent, timeout: 5 * time.Second,
		opts: []robotstxt.Option{robotstxt.WithMinFreshness(0)}})
	defer f.close()
	for _, u := range []string{a.URL + "/private", b.URL + "/x"} {
		if _, doc, err := f.read(t.Context(), u); doc == nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	time.Sleep(5 * time.Millisecond)
	d, doc, err := f.read(t.Context(), a.URL+"/private")
	if !d.Stale || d.Allowed || doc != nil || err == nil || !strings.Contains(err.Error(), "no longer holds") {
		t.Errorf("met again, its copy let go: stale %v, allowed %v, %v, a robots.txt read %v; want the copy standing in, refused",
			d.Stale, d.Allowed, err, doc != nil)
	}
}

// TestFetchCutPastTheLimitIsNotWhole: a robots.txt over the 500 KiB
// crawlers read whose connection is cut past them, in the middle of its
// last line ("Allow: /private-docs/" cut to "Allow: /p"). The Client
// reads its 500 KiB (Disallow: /); test -full and explain -full read
// what arrived as the whole file, the cut line a rule allowing
// /private/x, and lint quoted it as one (cli83): a Client reading past
// 500 KiB finds the file cut and defers. The rest that did not arrive is
// read as one that does not decode: only the part crawlers read.
func TestFetchCutPastTheLimitIsNotWhole(t *testing.T) {
	const last = "Allow: /p" // of "Allow: /private-docs/\n"
	body := "User-agent: *\nDisallow: /\n" + strings.Repeat("# "+strings.Repeat("x", 97)+"\n", 6000) + last
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)+len("rivate-docs/\n")))
		_, _ = w.Write([]byte(body))
		panic(http.ErrAbortHandler) // the connection cut
	}))
	t.Cleanup(s.Close)
	for _, args := range [][]string{
		{"test", "-full", "-file", s.URL + "/robots.txt", "/private/x"},
		{"explain", "-full", s.URL + "/private/x"},
		{"explain", s.URL + "/private/x"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitDisallowed || !strings.Contains(r.stdout, "DISALLOW") || strings.Contains(r.stdout, "say ALLOW") || strings.Contains(r.stdout, last+"\n") {
			t.Errorf("%v: exit %d\n%s%s\nwant DISALLOW, by the 500 KiB crawlers read", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := runCmd(t, "", "lint", s.URL+"/robots.txt"); strings.Contains(r.stdout, last+"\n") || !strings.Contains(r.stdout+r.stderr, "did not arrive") {
		t.Errorf("lint: exit %d\n%s%s\nwant the cut line not read as the file's, and the rest said missing", r.code, r.stdout, r.stderr)
	}
}
