package main

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

// robotsServer serves body as /robots.txt with the given status and 200
// for every other path, and counts robots.txt requests and the last
// User-Agent header.
type robotsServer struct {
	*httptest.Server
	fetches atomic.Int32
	ua      atomic.Value
}

func newRobotsServer(t testing.TB, status int, body string) *robotsServer {
	t.Helper()
	s := &robotsServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			fmt.Fprintln(w, "page")
			return
		}
		s.fetches.Add(1)
		s.ua.Store(r.UserAgent())
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

const liveRobots = `User-agent: *
Disallow: /private/
Allow: /private/ok.html
Crawl-delay: 2

User-agent: ExampleBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`

func TestCheckLive(t *testing.T) {
	s := newRobotsServer(t, http.StatusOK, liveRobots)
	r := runCmd(t, "", "check", "-ua", "TestBot/1.0", s.URL+"/", s.URL+"/private/x", s.URL+"/private/ok.html")
	if r.code != exitDisallowed {
		t.Errorf("exit %d, want %d; stderr %q", r.code, exitDisallowed, r.stderr)
	}
	lines := outputLines(r.stdout)
	want := []struct{ prefix, detail string }{
		{"ALLOW ", "(status 200; no rule matched)"},
		{"DISALLOW ", "(status 200; line 2: Disallow: /private/)"},
		{"ALLOW ", "(status 200; line 3: Allow: /private/ok.html)"},
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), r.stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w.prefix) || !strings.HasSuffix(lines[i], w.detail) {
			t.Errorf("line %d = %q, want %q … %q", i, lines[i], w.prefix, w.detail)
		}
	}
	if n := s.fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once for three URLs", n)
	}
	if ua := s.ua.Load(); ua != "TestBot/1.0" {
		t.Errorf("User-Agent %q, want TestBot/1.0", ua)
	}
}

func TestCheckVerboseAgentGroup(t *testing.T) {
	s := newRobotsServer(t, http.StatusOK, liveRobots)
	r := runCmd(t, "", "check", "-agent", "ExampleBot", s.URL+"/", "-v")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "line 7: Disallow: /") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	for _, want := range []string{
		"robots.txt " + s.URL + "/robots.txt → 200 OK",
		"outcome rules",
		"sitemap https://example.com/sitemap.xml",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("-v output lacks %q:\n%s", want, r.stdout)
		}
	}
	// ExampleBot's own group has no crawl-delay; the * group's does not
	// apply to it.
	if strings.Contains(r.stdout, "crawl-delay") {
		t.Errorf("-v shows the * group's crawl-delay for ExampleBot:\n%s", r.stdout)
	}
}

func TestCheckVerboseRedirectChain(t *testing.T) {
	final := newRobotsServer(t, http.StatusOK, liveRobots)
	mux := http.NewServeMux()
	mux.Handle("/robots.txt", http.RedirectHandler("/moved.txt", http.StatusMovedPermanently))
	mux.Handle("/moved.txt", http.RedirectHandler(final.URL+"/robots.txt", http.StatusFound))
	first := httptest.NewServer(mux)
	defer first.Close()
	r := runCmd(t, "", "check", "-v", first.URL+"/private/x")
	if r.code != exitDisallowed {
		t.Errorf("exit %d, want %d; stdout:\n%s", r.code, exitDisallowed, r.stdout)
	}
	want := []string{
		indent + "robots.txt " + first.URL + "/robots.txt → 301 Moved Permanently",
		indent + "redirect   " + first.URL + "/moved.txt → 302 Found",
		indent + "redirect   " + final.URL + "/robots.txt → 200 OK",
	}
	lines := outputLines(r.stdout)
	if len(lines) < 4 || !slices.Equal(lines[1:4], want) {
		t.Errorf("stdout:\n%s\nwant the chain:\n%s", r.stdout, strings.Join(want, "\n"))
	}
}

// TestCheckVerboseHopChecked checks what -v shows of a robots.txt that
// redirects to a path of another site, which the Client may follow only
// once that site's robots.txt allows it: the robots.txt fetched for the
// check is no redirect, a site whose robots.txt the check fetched is
// shown with its rules, and a hop its robots.txt refuses leaves the
// robots.txt unreachable, with the reason.
func TestCheckVerboseHopChecked(t *testing.T) {
	other := http.NewServeMux()
	other.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "user-agent: *\ndisallow: /secret/\nsitemap: https://cdn.example/sitemap.xml\n")
	})
	other.HandleFunc("/rules.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, liveRobots) })
	cdn := httptest.NewServer(other)
	defer cdn.Close()
	site := func(to string) *httptest.Server {
		s := httptest.NewServer(http.RedirectHandler(cdn.URL+to, http.StatusMovedPermanently))
		t.Cleanup(s.Close)
		return s
	}
	ok, refused := site("/rules.txt"), site("/secret/rules.txt")

	r := runCmd(t, "", "check", "-v", ok.URL+"/private/x", cdn.URL+"/secret/x")
	if r.code != exitDisallowed {
		t.Errorf("exit %d, want %d; stdout:\n%s", r.code, exitDisallowed, r.stdout)
	}
	want := []string{
		indent + "robots.txt " + ok.URL + "/robots.txt → 301 Moved Permanently",
		indent + "robots.txt " + cdn.URL + "/robots.txt → 200 OK",
		indent + "redirect   " + cdn.URL + "/rules.txt → 200 OK",
	}
	lines := outputLines(r.stdout)
	if len(lines) < 4 || !slices.Equal(lines[1:4], want) {
		t.Errorf("stdout:\n%s\nwant the requests:\n%s", r.stdout, strings.Join(want, "\n"))
	}
	// The check of the hop fetched the second site's robots.txt: its
	// decision is shown with its rule as written, and its sitemap.
	if len(lines) != 10 || !strings.HasPrefix(lines[7], "DISALLOW  "+cdn.URL+"/secret/x ") ||
		!strings.HasSuffix(lines[7], "(status 200; line 2: disallow: /secret/)") ||
		lines[9] != indent+"sitemap https://cdn.example/sitemap.xml" {
		t.Errorf("the second site is not shown with its robots.txt:\n%s", r.stdout)
	}

	r = runCmd(t, "", "check", "-v", refused.URL+"/x")
	wantDetail := "robots.txt unreachable: status 301 Moved Permanently: redirects do not reach the file: hop to " +
		cdn.URL + "/secret/rules.txt refused: its robots.txt disallows it; retry after "
	if r.code != exitDeferred || !strings.HasPrefix(r.stdout, "DEFER ") || !strings.Contains(r.stdout, wantDetail) {
		t.Errorf("a refused hop: exit %d, stdout:\n%s\nwant %d and %q", r.code, r.stdout, exitDeferred, wantDetail)
	}
}

// TestCheckVerboseListsARobotsTxtOnce: a chain that comes back to a site
// whose robots.txt it was checked against lists that robots.txt once,
// as it was fetched once.
func TestCheckVerboseListsARobotsTxtOnce(t *testing.T) {
	var b, c *httptest.Server
	bm, cm := http.NewServeMux(), http.NewServeMux()
	bm.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "user-agent: *\nallow: /\n") })
	bm.HandleFunc("/r1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, c.URL+"/r2", http.StatusFound) })
	bm.HandleFunc("/r3", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, liveRobots) })
	cm.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "user-agent: *\nallow: /\n") })
	cm.HandleFunc("/r2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, b.URL+"/r3", http.StatusFound) })
	b, c = httptest.NewServer(bm), httptest.NewServer(cm)
	defer b.Close()
	defer c.Close()
	a := httptest.NewServer(http.RedirectHandler(b.URL+"/r1", http.StatusMovedPermanently))
	defer a.Close()
	r := runCmd(t, "", "check", "-v", a.URL+"/private/x")
	want := []string{
		indent + "robots.txt " + a.URL + "/robots.txt → 301 Moved Permanently",
		indent + "robots.txt " + b.URL + "/robots.txt → 200 OK",
		indent + "redirect   " + b.URL + "/r1 → 302 Found",
		indent + "robots.txt " + c.URL + "/robots.txt → 200 OK",
		indent + "redirect   " + c.URL + "/r2 → 302 Found",
		indent + "redirect   " + b.URL + "/r3 → 200 OK",
	}
	lines := outputLines(r.stdout)
	if r.code != exitDisallowed || len(lines) < 7 || !slices.Equal(lines[1:7], want) {
		t.Errorf("exit %d, stdout:\n%s\nwant the requests:\n%s", r.code, r.stdout, strings.Join(want, "\n"))
	}
}

// TestCheckVerboseListsAHeldCopyAsSuch: b.test's robots.txt redirects to
// a.test's, whose copy (200, a 503 kept for its back-off, or a 200 of
// www.a.test's, a.test's own redirect followed) the Client holds from the
// run's first URL: the check of b.test's URL asks a.test nothing, and -v
// says so of each request of that copy, where it listed requests never
// sent with an earlier one's answers.
func TestCheckVerboseListsAHeldCopyAsSuch(t *testing.T) {
	const held = " → not asked; held from an earlier request: "
	rules := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		}
	}
	for _, tc := range []struct {
		name  string
		a     http.HandlerFunc // a.test's robots.txt
		lines []string         // how those under b.test's robots.txt line start
	}{
		{"200", rules(200), []string{"redirect   http://a.test/robots.txt" + held + "200 OK"}},
		{"503", rules(503), []string{"redirect   http://a.test/robots.txt" + held + "503 Service Unavailable"}},
		{"its own redirect", http.RedirectHandler("http://www.a.test/robots.txt", http.StatusMovedPermanently).ServeHTTP,
			[]string{"redirect   http://a.test/robots.txt" + held + "301 Moved Permanently", "redirect   http://www.a.test/robots.txt" + held + "200 OK"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked atomic.Int32 // a.test's and www.a.test's
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				host, _, _ := strings.Cut(r.Host, ":")
				if strings.HasSuffix(host, "a.test") {
					asked.Add(1)
				}
				switch {
				case r.URL.Path != "/robots.txt":
					http.NotFound(w, r)
				case host == "b.test":
					http.Redirect(w, r, "http://a.test/robots.txt", http.StatusMovedPermanently)
				case host == "a.test":
					tc.a(w, r)
				case host == "www.a.test":
					rules(200)(w, r)
				}
			}))
			defer s.Close()
			mapHosts(t, ".test", s.Listener.Addr().String())
			r := runCmd(t, "", "check", "-v", "http://a.test/private", "http://b.test/private")
			lines := outputLines(r.stdout)
			i := slices.Index(lines, indent+"robots.txt http://b.test/robots.txt → 301 Moved Permanently")
			ok := int(asked.Load()) == len(tc.lines) && i >= 0 && len(lines) >= i+1+len(tc.lines)
			for k := 0; ok && k < len(tc.lines); k++ {
				ok = strings.HasPrefix(lines[i+1+k], indent+tc.lines[k])
			}
			if !ok {
				t.Errorf("a.test's robots.txt and its redirect asked %d times: stdout:\n%s\nwant under b.test's robots.txt lines starting:\n%s",
					asked.Load(), r.stdout, strings.Join(tc.lines, "\n"))
			}
		})
	}
}

// TestCheckRedirectWithoutLocation checks that a redirect without a
// Location, which says nothing of where the robots.txt is, leaves it
// unreachable: the answer is deferred, with the reason, in every command
// that reads a live robots.txt.
func TestCheckRedirectWithoutLocation(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) }))
	defer s.Close()
	const why = "robots.txt unreachable: status 302 Found: redirects do not reach the file: 302 without a usable Location"
	for _, args := range [][]string{
		{"check", s.URL + "/x"},
		{"test", "-file", s.URL + "/robots.txt", "/x"},
		{"explain", s.URL + "/x"},
	} {
		if r := runCmd(t, "", args...); r.code != exitDeferred || !strings.Contains(r.stdout, why) {
			t.Errorf("%q: exit %d, stdout:\n%s\nwant %d and %q", args, r.code, r.stdout, exitDeferred, why)
		}
	}
}

func TestCheckNoRobotsAllowsAll(t *testing.T) {
	s := newRobotsServer(t, http.StatusNotFound, "")
	r := runCmd(t, "", "check", s.URL+"/anything")
	if r.code != exitOK || !strings.Contains(r.stdout, "(status 404; no robots.txt: allow all)") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestCheckNoContentIsEmpty: a robots.txt answered 204 or 205 is an empty
// file whatever coding it names or body a 205 holds, as the Client reads
// it: every command allows, lint lints nothing, and no usage is shown,
// where the gzip named failed to decode and the body a 205 held was
// read.
func TestCheckNoContentIsEmpty(t *testing.T) {
	for _, tc := range []struct {
		status int
		coding string
		body   string
	}{
		{http.StatusNoContent, "gzip", ""},
		{http.StatusResetContent, "gzip", ""},
		{http.StatusResetContent, "", "User-agent: *\nDisallow: /private\nContent-Usage: train-ai=n\n"},
	} {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tc.coding != "" {
				w.Header().Set("Content-Encoding", tc.coding)
			}
			w.WriteHeader(tc.status)
			_, _ = w.Write([]byte(tc.body))
		}))
		t.Cleanup(s.Close)
		for _, args := range [][]string{{"check", s.URL + "/private"}, {"test", "-file", s.URL + "/robots.txt", s.URL + "/private"},
			{"explain", s.URL + "/private"}, {"lint", s.URL + "/robots.txt"}} {
			if r := runCmd(t, "", args...); r.code != exitOK || r.stderr != "" || strings.Contains(r.stdout, "train-ai") {
				t.Errorf("%d %q: %q exits %d, stdout %q, stderr %q; want 0, no usage", tc.status, tc.body, args[0], r.code, r.stdout, r.stderr)
			}
		}
	}
}

func TestCheckLegacyForbidden(t *testing.T) {
	s := newRobotsServer(t, http.StatusForbidden, "")
	if r := runCmd(t, "", "check", s.URL+"/"); r.code != exitOK {
		t.Errorf("403 by default: exit %d, want 0", r.code)
	}
	r := runCmd(t, "", "check", "-legacy", s.URL+"/")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "robots.txt forbidden: disallow all") {
		t.Errorf("403 with -legacy: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestCheckUnreachableNamesCause checks that every kind of unreachable
// robots.txt is named, in the URL's line, by its cause.
func TestCheckUnreachableNamesCause(t *testing.T) {
	down := newRobotsServer(t, http.StatusServiceUnavailable, "down")
	tlsServer := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsServer.Config.ErrorLog = log.New(io.Discard, "", 0) // the failed handshakes are expected
	tlsServer.StartTLS()
	defer tlsServer.Close()
	plain := httptest.NewServer(http.NotFoundHandler()) // no TLS, asked for https
	defer plain.Close()
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)

	// Only the slow server is given a short timeout: a TLS handshake
	// may take longer than 300ms on a busy machine under -race.
	for _, tc := range []struct {
		name, url, want string
		timeout         string
	}{
		{"status", down.URL + "/", "status 503; robots.txt unreachable: status 503 Service Unavailable; retry after ", "10s"},
		{"refused", "http://" + closedPort(t) + "/", "no response; robots.txt unreachable: connection refused; retry after ", "10s"},
		{"dns", "http://no-such-host.invalid/", "no response; robots.txt unreachable: DNS: no such host no-such-host.invalid", "10s"},
		{"timeout", slow.URL + "/", "no response; robots.txt unreachable: timed out; retry after ", "300ms"},
		{"tls", tlsServer.URL + "/", "no response; robots.txt unreachable: TLS: certificate signed by an unknown authority", "10s"},
		{"not tls", "https://" + strings.TrimPrefix(plain.URL, "http://") + "/", "no response; robots.txt unreachable: TLS: the server does not speak TLS", "10s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, "", "check", "-timeout", tc.timeout, "-v", tc.url)
			if r.code != exitDeferred || !strings.HasPrefix(r.stdout, "DEFER ") || !strings.Contains(r.stdout, tc.want) {
				t.Errorf("exit %d, stdout:\n%s\nwant %d and %q", r.code, r.stdout, exitDeferred, tc.want)
			}
		})
	}
}

// TestUnreadableBodyNamesCause checks that a robots.txt that answered 200
// but whose body could not be read (cut short, a content coding the
// Client cannot decode, a gzip stream that is none) is named by its cause,
// after its status, in every command that reads a live robots.txt, and in
// the request -v lists; a status that is the whole cause is said once.
func TestUnreadableBodyNamesCause(t *testing.T) {
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n" + strings.Repeat("x", 30))
		_ = buf.Flush()
	}))
	defer cut.Close()
	coded := func(coding string) *httptest.Server {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", coding)
			fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
		}))
		t.Cleanup(s.Close)
		return s
	}
	down := newRobotsServer(t, http.StatusServiceUnavailable, "down")
	for _, tc := range []struct {
		name, url, why string
	}{
		{"cut", cut.URL, "200 OK: connection closed before the response ended"},
		{"br", coded("br").URL, `200 OK: unsupported content coding "br"`},
		{"bad gzip", coded("gzip").URL, "200 OK: gzip: invalid header"},
		{"503", down.URL, "503 Service Unavailable; retry after "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := "robots.txt unreachable: status " + tc.why
			for _, args := range [][]string{
				{"check", tc.url + "/x"},
				{"check", "-json", tc.url + "/x"},
				{"check", "-v", tc.url + "/x"},
				{"test", "-file", tc.url + "/robots.txt", "/x"},
				{"test", "-json", "-file", tc.url + "/robots.txt", "/x"},
				{"explain", tc.url + "/x"},
				{"lint", tc.url + "/robots.txt"},
			} {
				r := runCmd(t, "", args...)
				out := r.stdout + r.stderr
				if slices.Contains(args, "-json") {
					out = decodeResults(t, r.stdout)[0].Detail
				}
				if r.code != exitDeferred || !strings.Contains(out, want) {
					t.Errorf("%q: exit %d, output:\n%s\nwant %d and %q", args, r.code, out, exitDeferred, want)
				}
			}
			r := runCmd(t, "", "check", "-v", tc.url+"/x")
			request := indent + "robots.txt " + tc.url + "/robots.txt → " + strings.TrimSuffix(tc.why, "; retry after ")
			if lines := outputLines(r.stdout); len(lines) < 2 || lines[1] != request {
				t.Errorf("-v:\n%s\nwant the request:\n%s", r.stdout, request)
			}
		})
	}
}

// closedPort returns a loopback address that refuses connections.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestCheckExpect(t *testing.T) {
	s := newRobotsServer(t, http.StatusOK, liveRobots)
	down := newRobotsServer(t, http.StatusServiceUnavailable, "")
	for _, tc := range []struct {
		expect string
		urls   []string
		code   int
	}{
		{"disallow", []string{s.URL + "/private/x"}, exitOK},
		{"disallow", []string{s.URL + "/private/x", s.URL + "/"}, exitDisallowed},
		{"allow", []string{s.URL + "/", s.URL + "/private/ok.html"}, exitOK},
		{"allow", []string{s.URL + "/private/x"}, exitDisallowed},
		// A deferral meets no expectation: the check fails, with 1.
		{"allow", []string{s.URL + "/", down.URL + "/"}, exitDisallowed},
		{"disallow", []string{down.URL + "/"}, exitDisallowed},
	} {
		args := append([]string{"check", "-expect", tc.expect}, tc.urls...)
		r := runCmd(t, "", args...)
		if r.code != tc.code {
			t.Errorf("-expect %s %q: exit %d, want %d; stdout:\n%s", tc.expect, tc.urls, r.code, tc.code, r.stdout)
		}
		// -json's detail says what the parentheses say, the note too.
		noted := strings.Count(r.stdout, "; expected "+tc.expect+")")
		js := runCmd(t, "", append([]string{"check", "-json"}, args[1:]...)...)
		if js.code != tc.code || strings.Count(js.stdout, `; expected `+tc.expect+`"`) != noted {
			t.Errorf("-json -expect %s %q: exit %d, stdout:\n%s\nwant exit %d, the note on %d URLs, as the text", tc.expect, tc.urls, js.code, js.stdout, tc.code, noted)
		}
	}
}

func TestCheckMixedOutcomesWorstWins(t *testing.T) {
	ok := newRobotsServer(t, http.StatusOK, liveRobots)
	down := newRobotsServer(t, http.StatusServiceUnavailable, "")
	r := runCmd(t, "", "check", ok.URL+"/private/x", down.URL+"/")
	if r.code != exitDeferred {
		t.Errorf("disallowed + deferred: exit %d, want %d", r.code, exitDeferred)
	}
}

func TestCheckBadInput(t *testing.T) {
	s := newRobotsServer(t, http.StatusOK, liveRobots)
	for _, args := range [][]string{
		{"check", "ftp://example.com/x"},
		{"check", "not a url"},
		{"check", ""},
		{"check", s.URL + "/", "mailto:x@example.com"}, // checked before any fetch
		{"check", "-timeout", "0s", "http://127.0.0.1:1/"},
		{"check", "-agent", "/1.0", "http://127.0.0.1:1/"},
		{"check", "-ua", "", "http://127.0.0.1:1/"},
		{"check", "-ua", "ExampleBot/1.0\n", "-agent", "ExampleBot", s.URL + "/"}, // HTTP cannot send it
	} {
		if r := runCmd(t, "", args...); r.code != exitUsage || r.stderr == "" || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, no output and a message", args, r.code, r.stdout, r.stderr, exitUsage)
		}
	}
	if n := s.fetches.Load(); n != 0 {
		t.Errorf("robots.txt fetched %d times for a command line with a bad URL", n)
	}
}

// TestDefaultAgentIsClientDefault keeps the documented default token and
// User-Agent in step with the Client's: a Client made without options
// sends defaultUserAgent and obeys the group that names defaultAgent.
func TestDefaultAgentIsClientDefault(t *testing.T) {
	if defaultAgent != "robotstxt" {
		t.Errorf("defaultAgent %q, want robotstxt", defaultAgent)
	}
	s := newRobotsServer(t, http.StatusOK, "User-agent: *\nAllow: /\n\nUser-agent: "+defaultAgent+"\nDisallow: /\n")
	c := robotstxt.NewClient()
	defer c.Close()
	d, err := c.Check(context.Background(), s.URL+"/x")
	if err != nil || d.Allowed || d.Rule.Line != 5 {
		t.Errorf("the default Client: allowed %v by line %d (%v); want disallowed by line 5, the group of %s", d.Allowed, d.Rule.Line, err, defaultAgent)
	}
	if ua := s.ua.Load(); ua != defaultUserAgent {
		t.Errorf("the default Client sends User-Agent %q, the commands %q", ua, defaultUserAgent)
	}
}

// TestCheckShowsUsage checks that check prints under each allowed URL the
// usage lines that test prints for the same robots.txt, and none under a
// disallowed one.
func TestCheckShowsUsage(t *testing.T) {
	s := newRobotsServer(t, http.StatusOK, usageBody)
	paths := []string{"/", "/private/x", "/ai-ok/x", "/bad/x"}
	var urls []string
	for _, p := range paths {
		urls = append(urls, s.URL+p)
	}
	check := runCmd(t, "", append([]string{"check"}, urls...)...)
	test := runCmd(t, "", append([]string{"test", "-file", s.URL + "/robots.txt"}, urls...)...)
	if check.code != exitDisallowed || test.code != exitDisallowed {
		t.Errorf("check exits %d, test %d; want %d", check.code, test.code, exitDisallowed)
	}
	// The lines under a URL's are the same; the URL's line adds the
	// status.
	cl, tl := outputLines(check.stdout), outputLines(test.stdout)
	if len(cl) != len(tl) || len(cl) != 10 {
		t.Fatalf("check:\n%s\ntest:\n%s", check.stdout, test.stdout)
	}
	for i := range cl {
		if strings.HasPrefix(cl[i], " ") {
			if cl[i] != tl[i] {
				t.Errorf("check: %q\n test: %q", cl[i], tl[i])
			}
		} else if strings.Replace(cl[i], "(status 200; ", "(", 1) != tl[i] {
			t.Errorf("check: %q\n test: %q", cl[i], tl[i])
		}
	}
	if !strings.Contains(cl[5], "usage train-ai=y, search=n ") || !strings.Contains(cl[5], "(lines 4 and 5: their paths match with the same length") {
		t.Errorf("check does not show the usage of /ai-ok/x:\n%s", check.stdout)
	}
	if r := runCmd(t, "", "check", "-v", "-json", s.URL+"/"); r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "-v") {
		t.Errorf("check -v -json: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// signalSite is a site of TestCheckSignalsAsReceipt: its robots.txt and
// tdmrep.json ("" for none; a number for that status), and the header and
// HTML body of its pages.
type signalSite struct {
	name, robots, tdmrep string
	header               http.Header
	html                 string
	path                 string
}

func (s signalSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	serve := func(body string) {
		switch status, err := strconv.Atoi(body); {
		case body == "":
			http.NotFound(w, r)
		case err == nil:
			w.WriteHeader(status)
		default:
			fmt.Fprint(w, body)
		}
	}
	switch r.URL.Path {
	case "/robots.txt":
		serve(s.robots)
	case "/.well-known/tdmrep.json":
		serve(s.tdmrep)
	default:
		maps.Copy(w.Header(), s.header)
		if s.html != "" {
			w.Header().Set("Content-Type", "text/html")
		}
		fmt.Fprint(w, s.html)
	}
}

// TestCheckSignalsAsReceipt runs check -json -tdmrep on a matrix of
// sites (each signal alone, conflicting ones, an unreadable or unreachable
// tdmrep.json, paths one tdmrep.json entry matches and another does not)
// and checks that it gives the signals and, of the vocabulary's labels,
// the usage of the receipt a crawler's Transport gives for the page; and
// that the text output lists each signal of the page and tdmrep.json.
func TestCheckSignalsAsReceipt(t *testing.T) {
	const tdmFile = `[{"location": "/a/*", "tdm-reservation": 1, "tdm-policy": "https://example.com/p"}, {"location": "/*", "tdm-reservation": 0}]`
	for _, s := range []signalSite{
		{name: "content-usage", robots: "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /a/ search=y\n", path: "/a/x"},
		{name: "content-signal", robots: "User-agent: *\nAllow: /\nContent-Signal: ai-train=no, search=yes, ai-input=no\n", path: "/"},
		{name: "header", header: http.Header{"Content-Usage": {"train-ai=n, search=y"}}, path: "/"},
		{name: "x-robots-tag", header: http.Header{"X-Robots-Tag": {"noai"}}, path: "/"},
		{name: "robots-meta", html: `<html><head><meta name="robots" content="noai"></head><body></body></html>`, path: "/"},
		{name: "tdm-header", header: http.Header{"Tdm-Reservation": {"1"}}, path: "/"},
		{name: "tdm-meta", html: `<html><head><meta name="tdm-reservation" content="1"></head></html>`, path: "/"},
		{name: "tdmrep.json entry 1", tdmrep: tdmFile, path: "/a/x"},
		{name: "tdmrep.json entry 2", tdmrep: tdmFile, path: "/b/x"},
		{name: "tdmrep.json unreadable", tdmrep: `{"location": "/"}`, path: "/"},
		{name: "tdmrep.json unreachable", tdmrep: "503", path: "/"},
		{name: "conflicting", robots: "User-agent: *\nAllow: /\nContent-Usage: train-ai=y, search=y\n", tdmrep: tdmFile,
			header: http.Header{"Tdm-Reservation": {"0"}}, html: `<meta name="tdm-reservation" content="1">`, path: "/a/x"},
	} {
		t.Run(s.name, func(t *testing.T) {
			srv := httptest.NewServer(s)
			defer srv.Close()
			url := srv.URL + s.path

			c, rt := robotstxt.NewClientTransport(nil, []robotstxt.Option{robotstxt.WithTDMRep()})
			defer c.Close()
			rc := receiptOf(t, rt, url)
			if len(rc.Signals) == 0 {
				t.Fatalf("the receipt lists no signal: %+v", rc)
			}
			want, _ := json.Marshal(rc.Signals)

			r := runCmd(t, "", "check", "-json", "-tdmrep", url)
			var got struct {
				Usage   map[string]string `json:"usage"`
				Signals json.RawMessage   `json:"signals"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK {
				t.Fatalf("exit %d, %v: %s", r.code, err, r.stdout)
			}
			if string(got.Signals) != string(want) {
				t.Errorf("signals\n%s\nthe receipt's\n%s", got.Signals, want)
			}
			for _, l := range labels {
				if p := rc.Usage.Pref(l); got.Usage[l] != map[bool]string{true: p.String()}[p != robotstxt.PrefUnknown] {
					t.Errorf("usage %v; the receipt's %s is %v", got.Usage, l, p)
				}
			}

			text := runCmd(t, "", "check", "-tdmrep", url).stdout
			for _, sig := range rc.Signals {
				if line := sig.Source + " " + sig.Label + "=" + sig.Pref.String(); sig.Source != "robots.txt" && sig.Source != "content-signal" &&
					!strings.Contains(text, indent+line+" ") {
					t.Errorf("the text output lacks %q:\n%s", line, text)
				}
			}
		})
	}
}

// TestCheckLargeDeflatedRobots: a robots.txt over the limit crawlers read,
// sent deflated, is read as the Client reads it (the command captures only
// that part of the stream), and check -json prints an object for it and
// for every URL after it.
func TestCheckLargeDeflatedRobots(t *testing.T) {
	var raw bytes.Buffer
	raw.WriteString("User-agent: *\nDisallow: /private/\n")
	for i := 0; raw.Len() < 900<<10; i++ {
		fmt.Fprintf(&raw, "Disallow: /filler/%x/\n", sha256.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16)}))
	}
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.BestSpeed)
	_, _ = zw.Write(raw.Bytes())
	_ = zw.Close()
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			fmt.Fprintln(w, "page")
			return
		}
		w.Header().Set("Content-Encoding", "deflate")
		_, _ = w.Write(z.Bytes())
	}))
	defer big.Close()
	other := newRobotsServer(t, http.StatusOK, "User-agent: *\nAllow: /\n")
	r := runCmd(t, "", "check", "-json", big.URL+"/private/x", other.URL+"/page")
	rs := decodeResults(t, r.stdout)
	if r.code != exitDisallowed || len(rs) != 2 || rs[0].Verdict != "disallowed" || rs[1].Verdict != "allowed" {
		t.Errorf("exit %d, %d objects: %s\nstderr: %s", r.code, len(rs), r.stdout, r.stderr)
	}
}

// TestCheckVerboseFetchesNothing checks that -v lists the requests of a
// redirect checked against another site's robots.txt from what the
// Client holds: each robots.txt is asked for once, as without -v.
func TestCheckVerboseFetchesNothing(t *testing.T) {
	var cdnRobots atomic.Int32
	other := http.NewServeMux()
	other.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		cdnRobots.Add(1)
		fmt.Fprint(w, "user-agent: *\ndisallow: /secret/\n")
	})
	other.HandleFunc("/rules.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, liveRobots) })
	cdn := httptest.NewServer(other)
	defer cdn.Close()
	site := httptest.NewServer(http.RedirectHandler(cdn.URL+"/rules.txt", http.StatusMovedPermanently))
	defer site.Close()
	for _, args := range [][]string{{"check", site.URL + "/private/x"}, {"check", "-v", site.URL + "/private/x"}} {
		cdnRobots.Store(0)
		r := runCmd(t, "", args...)
		if r.code != exitDisallowed || cdnRobots.Load() != 1 {
			t.Errorf("%q: exit %d, the second site's robots.txt asked for %d times, want once; stdout:\n%s", args, r.code, cdnRobots.Load(), r.stdout)
		}
	}
}

// TestHopCheckedForTheAgent: explain, test with -file a URL, and lint
// check a robots.txt fetch's hop to another site for the product token
// and mode they were given, as check does: a hop that site's robots.txt
// refuses only to that token, or in that mode, leaves the robots.txt
// unreachable.
func TestHopCheckedForTheAgent(t *testing.T) {
	other := http.NewServeMux()
	other.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: Googlebot\nDisallow: /rules.txt\nDisallow: /%7Erules.txt\n")
	})
	other.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nAllow: /\n") })
	cdn := httptest.NewServer(other)
	defer cdn.Close()
	for _, tc := range []struct{ to, flag string }{{"/rules.txt", ""}, {"/~rules.txt", "-rfc9309"}} {
		site := httptest.NewServer(http.RedirectHandler(cdn.URL+tc.to, http.StatusMovedPermanently))
		defer site.Close()
		for _, args := range [][]string{
			{"check", "-agent", "Googlebot", site.URL + "/public"},
			{"explain", "-agent", "Googlebot", site.URL + "/public"},
			{"test", "-agent", "Googlebot", "-file", site.URL + "/robots.txt", "/public"},
		} {
			if tc.flag != "" {
				args = slices.Insert(args, 1, tc.flag)
			}
			if r := runCmd(t, "", args...); r.code != exitDeferred {
				t.Errorf("%q: exit %d, want %d; stdout:\n%s", args, r.code, exitDeferred, r.stdout)
			}
		}
	}
	// lint reads in the mode it is given, hops included: the file an
	// RFC 9309 crawler never reads is unreachable to it.
	strict := http.NewServeMux()
	strict.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /%7Erules.txt\n")
	})
	strict.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nAllow: /\n") })
	cdn2 := httptest.NewServer(strict)
	defer cdn2.Close()
	site := httptest.NewServer(http.RedirectHandler(cdn2.URL+"/~rules.txt", http.StatusMovedPermanently))
	defer site.Close()
	if r := runCmd(t, "", "lint", "-rfc9309", site.URL+"/robots.txt"); r.code != exitDeferred {
		t.Errorf("lint -rfc9309: exit %d, want %d; stdout:\n%s", r.code, exitDeferred, r.stdout)
	}
	if r := runCmd(t, "", "lint", site.URL+"/robots.txt"); r.code != exitOK {
		t.Errorf("lint: exit %d, want %d; stdout:\n%s", r.code, exitOK, r.stdout)
	}
}

// TestCheckLongRedirectsOfTwoSites: two sites whose robots.txt redirect
// to URLs over 512 bytes that differ only past the cut (the Decision's
// FinalURL) are each shown the body of their own fetch.
func TestCheckLongRedirectsOfTwoSites(t *testing.T) {
	long := "/r" + strings.Repeat("a", 600)
	cdn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case long + "1":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case long + "2":
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		default:
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		}
	}))
	defer cdn.Close()
	a := httptest.NewServer(http.RedirectHandler(cdn.URL+long+"1", http.StatusMovedPermanently))
	defer a.Close()
	b := httptest.NewServer(http.RedirectHandler(cdn.URL+long+"2", http.StatusMovedPermanently))
	defer b.Close()
	for _, cmd := range []string{"check", "explain"} {
		r := runCmd(t, "", cmd, a.URL+"/private/x", b.URL+"/private/x")
		if r.code != exitDisallowed || !strings.Contains(r.stdout, "Disallow: /private/") || strings.Contains(r.stderr, "cannot be told apart") {
			t.Errorf("%s: exit %d, want %d; stdout:\n%s\nstderr: %s", cmd, r.code, exitDisallowed, r.stdout, r.stderr)
		}
	}
}

// TestCheckRedirectedPage: a page that redirects has the receipt of where
// it led, whose robots.txt lines the URL's usage lines would not show:
// the text lists every signal and their merge, as -json says.
func TestCheckRedirectedPage(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /b train-ai=n\n")
	})
	mux.Handle("/a", http.RedirectHandler("/b", http.StatusFound))
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "page") })
	s := httptest.NewServer(mux)
	defer s.Close()
	js := runCmd(t, "", "check", "-json", s.URL+"/a")
	if !strings.Contains(js.stdout, `"usage":{"train-ai":"n"}`) || !strings.Contains(js.stdout, `"redirected_to":"`+s.URL+`/b"`) {
		t.Fatalf("-json: %s\nwant the receipt's train-ai=n and the page it is of", js.stdout)
	}
	if plain := runCmd(t, "", "check", "-json", s.URL+"/b"); strings.Contains(plain.stdout, "redirected_to") {
		t.Errorf("-json of a page that does not redirect: %s", plain.stdout)
	}
	r := runCmd(t, "", "check", s.URL+"/a")
	if !strings.Contains(r.stdout, "redirected to "+s.URL+"/b") || !strings.Contains(r.stdout, "merged train-ai=n") ||
		strings.Contains(r.stdout, "usage train-ai=y") {
		t.Errorf("stdout:\n%s\nwant the redirect and the receipt's train-ai=n", r.stdout)
	}
}

// TestCheckAsSent: check decides on a URL as net/http sends it, `"` as
// %22, as the Transport does, and shows it as typed; a URL that
// redirects where robots.txt disallows is disallowed, of that robots.txt,
// as the Transport refuses it: a crawler gets no page of either.
func TestCheckAsSent(t *testing.T) {
	var pages atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /a%22\nDisallow: /private/\n")
	})
	mux.Handle("/moved", http.RedirectHandler("/private/x", http.StatusFound))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		pages.Add(1)
		fmt.Fprint(w, "page")
	})
	s := httptest.NewServer(mux)
	defer s.Close()
	for _, tc := range []struct{ path, detail, to string }{
		{`/a"b`, "status 200; line 2: Disallow: /a%22", ""},
		{"/moved", "redirected to " + s.URL + "/private/x; status 200; line 3: Disallow: /private/", s.URL + "/private/x"},
	} {
		u := s.URL + tc.path
		r := runCmd(t, "", "check", "-json", u)
		var res struct {
			URL          string          `json:"url"`
			Verdict      string          `json:"verdict"`
			Detail       string          `json:"detail"`
			Signals      []decodedSignal `json:"signals"`
			PageError    string          `json:"page_error"`
			RedirectedTo string          `json:"redirected_to"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitDisallowed || res.URL != u ||
			res.Verdict != "disallowed" || res.Detail != tc.detail || len(res.Signals) != 0 || res.PageError != "" || res.RedirectedTo != tc.to {
			t.Errorf("check -json %s: exit %d, %s (%v)\nwant disallowed, %q, redirected to %q", tc.path, r.code, r.stdout, err, tc.detail, tc.to)
		}
		want := fmt.Sprintf("DISALLOW  %s  (%s)\n", u, tc.detail)
		if r := runCmd(t, "", "check", u); r.code != exitDisallowed || r.stdout != want {
			t.Errorf("check %s: exit %d, stdout %q; want %q", tc.path, r.code, r.stdout, want)
		}
	}
	if n := pages.Load(); n != 0 {
		t.Errorf("%d pages fetched, want none", n)
	}
}

// TestCheckRedirectDeferred: a URL that redirects to a site whose
// robots.txt is unreachable is deferred, of that robots.txt, as the
// Transport defers it: a crawler gets no page, and comes back later.
func TestCheckRedirectDeferred(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "page")
	}))
	defer down.Close()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		http.Redirect(w, r, down.URL+"/x", http.StatusFound)
	}))
	defer s.Close()
	u := s.URL + "/moved"
	r := runCmd(t, "", "check", "-json", u)
	var res struct {
		Verdict      string `json:"verdict"`
		Detail       string `json:"detail"`
		Status       int    `json:"status"`
		PageError    string `json:"page_error"`
		RedirectedTo string `json:"redirected_to"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitDeferred || res.Verdict != "deferred" ||
		res.Status != http.StatusServiceUnavailable || res.RedirectedTo != down.URL+"/x" || res.PageError != "" ||
		!strings.HasPrefix(res.Detail, "redirected to "+down.URL+"/x; status 503; robots.txt unreachable: status 503") {
		t.Errorf("check -json: exit %d, %s (%v)\nwant deferred by %s/robots.txt", r.code, r.stdout, err, down.URL)
	}
	r = runCmd(t, "", "check", "-expect", "allow", u)
	if r.code != exitDisallowed || !strings.HasPrefix(r.stdout, "DEFER") {
		t.Errorf("check -expect allow: exit %d, stdout %q; want DEFER, exit %d", r.code, r.stdout, exitDisallowed)
	}
}

// busySite serves a robots.txt whose Content-Usage says train-ai=y, and
// pages whose Content-Usage header says train-ai=n; /busy answers 503
// with a Retry-After of retryAfter, /cut cuts its body short and /closed
// closes the connection unanswered.
func busySite(t *testing.T, retryAfter string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nContent-Usage: train-ai=y\n")
			return
		}
		w.Header().Set("Content-Usage", "train-ai=n")
		switch r.URL.Path {
		case "/busy":
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/cut":
			w.Header().Set("Content-Length", "1000")
			fmt.Fprint(w, "<html>")
			return
		case "/closed":
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		fmt.Fprint(w, "page")
	}))
	t.Cleanup(s.Close)
	return s
}

// TestCheckPageNotRead: a page check could not read, as when a
// Retry-After holds its site past -timeout, its body is cut or it
// answered with an error status (an error page is not the page), is said
// to be unread, and why, in the text and in -json's page_error; its
// usage keeps only what no unread signal can change, an n, not the y of
// robots.txt alone. The exit code is the verdict's: robots.txt allows the
// URL.
func TestCheckPageNotRead(t *testing.T) {
	s := busySite(t, "60")
	r := runCmd(t, "", "check", "-json", s.URL+"/cut", s.URL+"/closed", s.URL+"/busy", s.URL+"/2")
	rs := decodeResults(t, r.stdout)
	if r.code != exitOK || len(rs) != 4 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	// An error page is not the page: its header's n stands, and it is
	// said unread.
	if rs[2].Usage["train-ai"] != "n" || !strings.Contains(rs[2].PageError, "it answered 503 Service Unavailable") {
		t.Errorf("the 503 page: %+v; want its header's n, and page_error naming the status", rs[2])
	}
	// The cut page's header was read: its n stands. Of a page that gave
	// no response, robots.txt's y is no answer.
	for i, want := range map[int]struct{ why, usage string }{
		0: {"its body: connection closed before the response ended", "n"},
		1: {"connection closed before the response ended", ""},
		3: {"a Retry-After holds its site until ", ""},
	} {
		if got := rs[i]; !strings.Contains(got.PageError, want.why) || got.Usage["train-ai"] != want.usage || len(got.Usage) > 1 || got.Verdict != "allowed" {
			t.Errorf("%s: page_error %q, usage %v, verdict %s; want %q, train-ai %q, allowed", got.URL, got.PageError, got.Usage, got.Verdict, want.why, want.usage)
		}
	}
	if !strings.Contains(rs[3].PageError, "past -timeout") {
		t.Errorf("page_error %q does not name -timeout", rs[3].PageError)
	}

	r = runCmd(t, "", "check", s.URL+"/busy", s.URL+"/2")
	lines := outputLines(r.stdout)
	if r.code != exitOK || len(lines) != 9 || !strings.Contains(lines[2], "(could not be read: it answered 503 Service Unavailable)") ||
		!strings.HasPrefix(lines[5], "ALLOW ") ||
		!strings.HasPrefix(lines[7], indent+"page ") || !strings.Contains(lines[7], "(could not be read: a Retry-After holds its site until ") ||
		!strings.HasPrefix(lines[8], indent+"merged unknown ") || !strings.Contains(lines[8], "only an n is certain") {
		t.Errorf("exit %d, stdout:\n%s\nwant the second page said unread and its merge unknown", r.code, r.stdout)
	}
}

// TestCheckPageWaitsForItsTurn: a page whose site a Retry-After holds
// for less than -timeout waits for its turn, and is read: check's own
// pacing does not refuse it.
func TestCheckPageWaitsForItsTurn(t *testing.T) {
	s := busySite(t, "1")
	r := runCmd(t, "", "check", "-json", s.URL+"/busy", s.URL+"/2")
	rs := decodeResults(t, r.stdout)
	if r.code != exitOK || len(rs) != 2 || rs[1].PageError != "" || rs[1].Usage["train-ai"] != "n" {
		t.Errorf("exit %d, stdout:\n%s\nwant the second page read, train-ai=n", r.code, r.stdout)
	}
}

// TestCheckUsageHasEveryLabel: Content-Signal's ai-input=no, from
// robots.txt and from the page's header, is in check's merged line and
// -json usage, and in test -json's, as in the Client's Decision.Usage and
// the receipt's.
func TestCheckUsageHasEveryLabel(t *testing.T) {
	routedSite(t, map[string]struct {
		header map[string]string
		body   string
	}{
		"ai.routed/robots.txt": {body: "User-agent: *\nAllow: /\nContent-Signal: ai-input=no\n"},
		"ai.routed/p":          {header: map[string]string{"Content-Signal": "ai-input=no", "Content-Type": "text/html"}, body: "<html><head></head><body>x</body></html>"},
	})
	c, rt := libraryClient(t)
	d, err := c.Check(context.Background(), "http://ai.routed/p")
	if err != nil || !d.Allowed || d.Usage.Pref("ai-input") != robotstxt.PrefNo {
		t.Fatalf("setup: Client: %v %v ai-input=%v", err, d.Allowed, d.Usage.Pref("ai-input"))
	}
	if p := receiptOf(t, rt, "http://ai.routed/p").Usage.Pref("ai-input"); p != robotstxt.PrefNo {
		t.Fatalf("setup: receipt ai-input=%v", p)
	}

	var res struct {
		Usage map[string]string `json:"usage"`
	}
	r := runCmd(t, "", "check", "-json", "http://ai.routed/p")
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err, r.stdout)
	}
	if res.Usage["ai-input"] != "n" {
		t.Errorf("check -json usage %v; the receipt's Usage says ai-input=n", res.Usage)
	}
	r = runCmd(t, "", "check", "http://ai.routed/p")
	for _, l := range outputLines(r.stdout) {
		if strings.Contains(l, "merged ") && !strings.Contains(l, "ai-input=n") {
			t.Errorf("check: %q follows two ai-input=n signals:\n%s", strings.TrimSpace(l), r.stdout)
		}
	}
	r = runCmd(t, "", "test", "-json", "-file", "http://ai.routed/robots.txt", "/p")
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err, r.stdout)
	}
	if res.Usage["ai-input"] != "n" {
		t.Errorf("test -json usage %v; the Client's Decision.Usage says ai-input=n", res.Usage)
	}
}

// TestCheckIDNPageNotRedirected: check of a page at a host that is not
// ASCII, which answers itself, names no redirect and prints its usage
// line, as for the A-label URL: the Transport sends the A-label, and the
// response's request showed it, which check read as a redirect.
func TestCheckIDNPageNotRedirected(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\nContent-Usage: train-ai=y\n")
			return
		}
		fmt.Fprint(w, "page") // 200, never a redirect
	}))
	defer s.Close()
	mapHosts(t, ".routed", s.Listener.Addr().String())
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	u := "http://bücher.routed:" + port + "/page"

	r := runCmd(t, "", "check", "-json", u)
	var res struct {
		Verdict      string `json:"verdict"`
		RedirectedTo string `json:"redirected_to"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK || res.Verdict != "allowed" {
		t.Fatalf("check -json: exit %d, %s (%v)", r.code, r.stdout, err)
	}
	if res.RedirectedTo != "" {
		t.Errorf("check -json %s: redirected_to %q, but the page answered 200 itself\n%s", u, res.RedirectedTo, r.stdout)
	}
	text := runCmd(t, "", "check", u)
	if strings.Contains(text.stdout, "redirected to") || !strings.Contains(text.stdout, "usage train-ai=y") {
		t.Errorf("check %s: exit %d\n%s\nwant no redirect and the usage line, as for the A-label URL:\n%s",
			u, text.code, text.stdout, runCmd(t, "", "check", "http://xn--bcher-kva.routed:"+port+"/page").stdout)
	}
}

// TestCheckVerboseLongRedirectAsked: b.test's robots.txt redirects
// within its site to a URL over 512 bytes, which answers 200, and which
// the Decision lists cut ("…"): -v lists the request the check sent as
// sent, not as held.
func TestCheckVerboseLongRedirectAsked(t *testing.T) {
	long := "/" + strings.Repeat("x", 600) + ".txt"
	var asked atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.Host, "b.test") && r.URL.Path == "/robots.txt":
			http.Redirect(w, r, "http://b.test"+long, http.StatusMovedPermanently)
		case strings.HasPrefix(r.Host, "b.test") && r.URL.Path == long:
			asked.Add(1)
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer s.Close()
	mapHosts(t, ".test", s.Listener.Addr().String())
	r := runCmd(t, "", "check", "-v", "http://b.test/private")
	if asked.Load() != 1 || strings.Contains(r.stdout, "not asked") {
		t.Errorf("the long URL asked %d times by this one check; stdout:\n%s\nwant its request listed as sent, not \"not asked; held from an earlier request\"",
			asked.Load(), r.stdout)
	}
}

// TestCheckGivesTheReceiptsTDMPolicy checks that check, which prints a
// page's receipt, gives the TDMRep tdm-policy the receipt holds for a
// page whose TDM rights are reserved, in its text and its -json.
func TestCheckGivesTheReceiptsTDMPolicy(t *testing.T) {
	const policy = "https://example.com/tdm-policy.json"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Tdm-Reservation", "1")
		w.Header().Set("Tdm-Policy", policy)
		w.Write([]byte("a page"))
	}))
	defer srv.Close()
	_, rt := libraryClient(t)
	if rc := receiptOf(t, rt, srv.URL+"/"); rc.TDMPolicy != policy {
		t.Fatalf("the receipt's TDMPolicy is %q; the test wants %q", rc.TDMPolicy, policy)
	}
	for _, args := range [][]string{{"check", srv.URL + "/"}, {"check", "-json", srv.URL + "/"}} {
		if r := runCmd(t, "", args...); !strings.Contains(r.stdout, policy) {
			t.Errorf("%q: exit %d; the receipt's tdm-policy %s is nowhere in\n%s", args, r.code, policy, r.stdout)
		}
	}
}

// TestDeferredRedirectShowsNoUserinfo: a page that redirects to another
// site whose robots.txt is unreachable is deferred, and where it led is
// named as the Client names URLs, as the disallowed case names it: with
// no userinfo, not net/http's "bob:***@".
func TestDeferredRedirectShowsNoUserinfo(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "page")
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		w.Header().Set("Location", strings.Replace(other.URL, "http://", "http://bob:s3cret@", 1)+"/ok")
		w.WriteHeader(http.StatusFound)
	}))
	defer srv.Close()
	for _, args := range [][]string{{"check", srv.URL + "/go"}, {"check", "-json", srv.URL + "/go"}} {
		r := runCmd(t, "", args...)
		if r.code != exitDeferred || strings.Contains(r.stdout, "bob") || !strings.Contains(r.stdout, strings.TrimPrefix(other.URL, "http://")+"/ok") {
			t.Errorf("%v: exit %d; want %d, where it led named without its userinfo:\n%s%s", args, r.code, exitDeferred, r.stdout, r.stderr)
		}
	}
}

// TestCheckPacesTheClientsHops: a.h82 and d.h82 keep their robots.txt at
// c.h82/shared-robots, a page of c.h82, whose robots.txt asks for 30 s
// between requests. The Client paces its hop to c.h82 for d.h82's
// robots.txt: with a 3 s fetch timeout it defers d.h82/x at once, and so
// do explain and check (cli82: check allowed it, and asked c.h82 again
// at once: its pages' WithIntervalBounds(0, 0) paced the Client's hops).
func TestCheckPacesTheClientsHops(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	hostSites(t, ".hop82", map[string]http.HandlerFunc{
		"a.hop82": redirSite(map[string]string{"/robots.txt": "->http://c.hop82/shared-robots"}),
		"d.hop82": redirSite(map[string]string{"/robots.txt": "->http://c.hop82/shared-robots"}),
		"c.hop82": func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, time.Now().Format("15:04:05.000")+" c.hop82"+r.URL.Path)
			mu.Unlock()
			redirSite(map[string]string{"/robots.txt": "User-agent: *\nCrawl-delay: 30\n",
				"/shared-robots": "User-agent: *\nDisallow: /private\n"})(w, r)
		},
	})
	urls := []string{"http://a.hop82/x", "http://d.hop82/x"}
	c, _ := libraryClient(t, robotstxt.WithFetchTimeout(3*time.Second))
	var want []string
	for _, u := range urls {
		d, err := c.Check(context.Background(), u)
		w := fmt.Sprintf("ALLOW line %d", d.Rule.Line)
		if err != nil || d.Deferred {
			w = "DEFER"
		}
		want = append(want, w)
		t.Logf("the Client, %s: allowed %v, deferred %v, err %v", u, d.Allowed, d.Deferred, err)
	}
	for _, args := range [][]string{{"explain", "-json"}, {"check", "-json"}} {
		seen = nil
		r := runCmd(t, "", append(append(args, "-timeout", "3s"), urls...)...)
		got := jsonWords(t, r.stdout)
		t.Logf("%v: %v exit %d; c.h82 saw:\n  %s", args, got, r.code, strings.Join(seen, "\n  "))
		if fmt.Sprint(got) != fmt.Sprint(want) || r.code != exitDeferred {
			t.Errorf("%v: %v, exit %d; the Client %v (exit 3)\n%s", args, got, r.code, want, r.stdout)
		}
	}
}

// hostSites serves each of sites by the host its requests name, and
// makes the commands dial it for every name ending in suffix.
func hostSites(t *testing.T, suffix string, sites map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		h, ok := sites[strings.ToLower(host)]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	mapHosts(t, suffix, s.Listener.Addr().String())
	return s
}

// redirSite answers by routes, keyed by request URI: "->u" redirects
// to u, "!N" answers status N with a Retry-After, any other text is the
// body; a path not routed is a 404 for /robots.txt, else a page.
func redirSite(routes map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, ok := routes[r.URL.RequestURI()]
		if !ok {
			if r.URL.Path == "/robots.txt" {
				http.NotFound(w, r)
				return
			}
			fmt.Fprint(w, "page")
			return
		}
		switch {
		case strings.HasPrefix(v, "->"):
			w.Header()["Location"] = []string{v[2:]}
			w.WriteHeader(http.StatusFound)
		case strings.HasPrefix(v, "!"):
			var c int
			fmt.Sscan(v[1:], &c)
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(c)
		default:
			fmt.Fprint(w, v)
		}
	}
}

// jsonWords reads -json output as TestCheckPacesTheClientsHops words the Client.
func jsonWords(t *testing.T, stdout string) []string {
	t.Helper()
	var out []string
	if stdout == "" {
		return nil
	}
	for _, res := range decodeResults(t, stdout) {
		line := 0
		if res.Rule != nil {
			line = res.Rule.Line
		}
		switch res.Verdict {
		case "deferred":
			out = append(out, "DEFER")
		case "allowed":
			out = append(out, fmt.Sprintf("ALLOW line %d", line))
		default:
			out = append(out, fmt.Sprintf("DISALLOW line %d", line))
		}
	}
	return out
}

// sharedPageSites serves a.sh82, whose robots.txt redirects to
// b.sh82/shared, a page of b.sh82, and b.sh82, whose robots.txt
// redirects there too: one check of a.sh82 fetches /shared twice, as
// b.sh82's copy (to check the hop) and as a.sh82's. body gives /shared's
// answer to its n-th request of a run.
func sharedPageSites(t *testing.T, body func(n int32) string) *atomic.Int32 {
	t.Helper()
	var n atomic.Int32
	hostSites(t, ".sh82", map[string]http.HandlerFunc{
		"a.sh82": redirSite(map[string]string{"/robots.txt": "->http://b.sh82/shared"}),
		"b.sh82": func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				w.Header().Set("Location", "/shared")
				w.WriteHeader(http.StatusFound)
			case "/shared":
				fmt.Fprint(w, body(n.Add(1)))
			default:
				fmt.Fprint(w, "page")
			}
		},
	})
	return &n
}

// TestCheckURLAnsweredTwiceIsNotMisread: where one check fetched a URL
// twice, as two sites' copies, check and explain answer each URL they
// answer as the Client does, and stop at one whose copy they cannot tell
// saying so, never that a file was let go that was not (cli82: they
// said "no longer held", or answered b.sh82/y from a.sh82's copy when
// the two came within a millisecond).
func TestCheckURLAnsweredTwiceIsNotMisread(t *testing.T) {
	for _, sameMillisecond := range []bool{false, true} {
		n := sharedPageSites(t, func(n int32) string {
			if n%2 == 0 {
				if !sameMillisecond {
					time.Sleep(3 * time.Millisecond)
				}
				return "User-agent: *\nDisallow: /x\n" // a.sh82's copy
			}
			if sameMillisecond {
				now := time.Now()
				time.Sleep(now.Truncate(time.Millisecond).Add(time.Millisecond + 20*time.Microsecond).Sub(now))
			}
			return "User-agent: *\nDisallow: /y\n" // b.sh82's copy
		})
		urls := []string{"http://a.sh82/x", "http://b.sh82/y", "http://b.sh82/x"}
		for range 3 {
			n.Store(0)
			want := clientWordsOf(t, urls)
			for _, args := range [][]string{{"check", "-json"}, {"explain", "-json"}} {
				n.Store(0)
				r := runCmd(t, "", append(args, urls...)...)
				got := jsonWords(t, r.stdout)
				if len(got) > len(want) || fmt.Sprint(got) != fmt.Sprint(want[:len(got)]) {
					t.Errorf("%v: %v; the Client %v", args, got, want)
				}
				if strings.Contains(r.stderr, "no longer held") || len(got) < len(want) && !strings.Contains(r.stderr, "answered more than once") {
					t.Errorf("%v: stopped after %v: %s", args, got, r.stderr)
				}
			}
		}
	}
}

// clientWordsOf is what one Client says of urls, in order, as jsonWords
// reads a command's answers.
func clientWordsOf(t *testing.T, urls []string) []string {
	t.Helper()
	c, _ := libraryClient(t)
	defer c.Close()
	var out []string
	for _, u := range urls {
		d, err := c.Check(context.Background(), u)
		switch {
		case err != nil || d.Deferred:
			out = append(out, "DEFER")
		case d.Allowed:
			out = append(out, fmt.Sprintf("ALLOW line %d", d.Rule.Line))
		default:
			out = append(out, fmt.Sprintf("DISALLOW line %d", d.Rule.Line))
		}
	}
	return out
}
