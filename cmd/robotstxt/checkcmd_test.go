package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// robotsServer serves body as /robots.txt with the given status and 200
// for every other path, and counts robots.txt requests and the last
// User-Agent header.
type robotsServer struct {
	*httptest.Server
	fetches atomic.Int32
	ua      atomic.Value
}

func newRobotsServer(t *testing.T, status int, body string) *robotsServer {
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
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
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

func TestCheckAgentGroup(t *testing.T) {
	s := newRobotsServer(t, http.StatusOK, liveRobots)
	r := runCmd(t, "", "check", "-agent", "ExampleBot", "-v", s.URL+"/")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "line 7: Disallow: /") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	for _, want := range []string{"outcome rules", "sitemap https://example.com/sitemap.xml"} {
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

func TestCheckNoRobotsAllowsAll(t *testing.T) {
	s := newRobotsServer(t, http.StatusNotFound, "")
	r := runCmd(t, "", "check", s.URL+"/anything")
	if r.code != exitOK || !strings.Contains(r.stdout, "(status 404; no robots.txt: allow all)") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestCheckUnreachableDefers(t *testing.T) {
	s := newRobotsServer(t, http.StatusServiceUnavailable, "down")
	r := runCmd(t, "", "check", s.URL+"/")
	if r.code != exitDeferred {
		t.Errorf("exit %d, want %d; stdout %q", r.code, exitDeferred, r.stdout)
	}
	if !strings.HasPrefix(r.stdout, "DEFER ") || !strings.Contains(r.stdout, "status 503; robots.txt unreachable, deferred: retry after ") {
		t.Errorf("stdout %q", r.stdout)
	}
}

func TestCheckTimeoutDefers(t *testing.T) {
	release := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer s.Close()
	defer close(release)
	start := time.Now()
	r := runCmd(t, "", "check", "-timeout", "100ms", s.URL+"/")
	if r.code != exitDeferred || !strings.Contains(r.stdout, "no response") {
		t.Errorf("exit %d, stdout %q; want %d and no response", r.code, r.stdout, exitDeferred)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("check took %s with -timeout 100ms", d)
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
	for _, args := range [][]string{
		{"check", "ftp://example.com/x"},
		{"check", "not a url"},
		{"check", "-timeout", "0s", "http://127.0.0.1:1/"},
		{"check", "-agent", "/1.0", "http://127.0.0.1:1/"},
		{"check", "-ua", "", "http://127.0.0.1:1/"},
	} {
		if r := runCmd(t, "", args...); r.code != exitUsage || r.stderr == "" {
			t.Errorf("%q: exit %d, stderr %q; want %d and a message", args, r.code, r.stderr, exitUsage)
		}
	}
}

// TestDefaultAgentIsClientDefault keeps the documented default token in
// step with the client's.
func TestDefaultAgentIsClientDefault(t *testing.T) {
	c := robotstxt.NewClient()
	defer c.Close()
	if toks := c.ProductTokens(); len(toks) != 1 || toks[0] != defaultAgent || defaultAgent != parser.Token(robotstxt.DefaultUserAgent) {
		t.Errorf("defaultAgent %q, client tokens %q", defaultAgent, toks)
	}
}
