package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// answer is one command's decision for one URL: its word and the line of
// the deciding rule (0 for none).
type answer struct {
	word string
	line int
}

func (a answer) String() string { return fmt.Sprintf("%s line %d", a.word, a.line) }

var (
	lineOf     = regexp.MustCompile(`\(.*?line (\d+): `)
	decisionOf = regexp.MustCompile(`(?m)^decision  (ALLOW|DISALLOW)(?: by line (\d+))?`)
)

// lineAnswers reads the one-line-per-URL output of test and check.
func lineAnswers(t *testing.T, out string) []answer {
	t.Helper()
	var as []answer
	for _, l := range outputLines(out) {
		a := answer{word: strings.Fields(l)[0]}
		if m := lineOf.FindStringSubmatch(l); m != nil {
			a.line, _ = strconv.Atoi(m[1])
		}
		as = append(as, a)
	}
	return as
}

// jsonAnswers reads the -json output of check, test and explain.
func jsonAnswers(t *testing.T, out string) []answer {
	t.Helper()
	var as []answer
	for _, res := range decodeResults(t, out) {
		a := answer{word: words[res.Verdict]}
		if res.Rule != nil {
			a.line = res.Rule.Line
		}
		as = append(as, a)
	}
	return as
}

// explainAnswers reads the decision of each block of explain's output.
func explainAnswers(out string) []answer {
	var as []answer
	for _, m := range decisionOf.FindAllStringSubmatch(out, -1) {
		a := answer{word: m[1]}
		a.line, _ = strconv.Atoi(m[2])
		as = append(as, a)
	}
	return as
}

// probePaths returns paths that rules of body match, spread over the
// file and the first rule past the body limit included, plus extra.
func probePaths(body []byte, extra ...string) []string {
	f := parser.Parse(body)
	var all []*parser.Rule
	for gi := range f.Groups {
		for i := range f.Groups[gi].Rules {
			all = append(all, &f.Groups[gi].Rules[i])
		}
	}
	paths := append([]string{"/"}, extra...)
	step := max(1, len(all)/12)
	for i, r := range all {
		if i%step != 0 && i != len(all)-1 {
			continue
		}
		p := literalStart(r)
		if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
			continue
		}
		paths = append(paths, p+"x")
	}
	return paths
}

// TestCommandsAgreeWithClient serves corpus files that are not UTF-8 or
// are over the body limit over loopback, and checks that test -file (on
// the file and on the URL), check and explain give, for every probed
// URL, the decision and deciding line of robotstxt.Client.Check, in text
// and with -json.
func TestCommandsAgreeWithClient(t *testing.T) {
	longTest(t)
	for _, tc := range []struct {
		file  string
		extra []string
	}{
		{"0153.txt", []string{"/store/cart/x"}}, // UTF-16LE
		{"0701.txt", nil},                       // UTF-16LE
		{"0757.txt", []string{"/Notre-société/Press-Releases/Red-Oxygen-Press-Kit", "/Notre-soci%E9t%E9/"}}, // Latin-1
		{"0449.txt", nil}, // legacy 8-bit
		{"0605.txt", nil}, // CJK
		{"0987.txt", nil},
		{"1296.txt", nil},
		{"0085.txt", []string{"/cd/E19853_01/x"}}, // 833 KiB: this rule is at byte 832,367
		{"1341.txt", nil},                         // 630 KiB
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := corpusFiles(t, tc.file)[0]
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					w.Header().Set("Content-Type", "text/plain")
					w.Write(raw)
				}
			}))
			defer srv.Close()
			paths := probePaths(raw, tc.extra...)
			for _, agent := range []string{"Googlebot", defaultAgent} {
				agreeWithClient(t, path, srv.URL, agent, paths)
			}
		})
	}
}

// agreeWithClient checks test, check and explain against the Client for
// one agent.
func agreeWithClient(t *testing.T, file, site, agent string, paths []string) {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	c := robotstxt.NewClient(robotstxt.WithProductTokens(agent), robotstxt.WithHTTPClient(&http.Client{Transport: tr}))
	defer c.Close()
	var urls, abs []string
	var want []answer
	for _, p := range paths {
		u := site + p
		d, err := c.Check(context.Background(), u)
		if err != nil {
			t.Fatalf("Client.Check(%s): %v", u, err)
		}
		urls = append(urls, u)
		abs = append(abs, "http://example.com"+p)
		want = append(want, answer{verdictOf(d.Allowed).word(), d.Rule.Line})
	}
	runs := map[string]result{
		"test -file FILE": runCmd(t, "", append([]string{"test", "-agent", agent, "-file", file}, abs...)...),
		"test -file URL":  runCmd(t, "", append([]string{"test", "-agent", agent, "-file", site + "/robots.txt"}, abs...)...),
		"check":           runCmd(t, "", append([]string{"check", "-agent", agent}, urls...)...),
		"explain":         runCmd(t, "", append([]string{"explain", "-agent", agent, "-file", file}, abs...)...),
		"explain live":    runCmd(t, "", append([]string{"explain", "-agent", agent}, urls...)...),
		"test -json":      runCmd(t, "", append([]string{"test", "-json", "-agent", agent, "-file", site + "/robots.txt"}, abs...)...),
		"check -json":     runCmd(t, "", append([]string{"check", "-json", "-agent", agent}, urls...)...),
		"explain -json":   runCmd(t, "", append([]string{"explain", "-json", "-agent", agent}, urls...)...),
	}
	for name, r := range runs {
		if r.code == exitUsage || r.code == exitDeferred {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
			continue
		}
		var got []answer
		switch {
		case strings.HasSuffix(name, "-json"):
			got = jsonAnswers(t, r.stdout)
		case strings.HasPrefix(name, "explain"):
			got = explainAnswers(r.stdout)
		default:
			got = lineAnswers(t, r.stdout)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d answers for %d URLs:\n%s", name, len(got), len(want), r.stdout)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s, agent %s, %s: %v; the Client says %v", name, agent, paths[i], got[i], want[i])
			}
		}
	}
}

// TestOverLimitRuleIgnored checks the case of the issue: corpus 0085.txt
// (833 KiB) has a rule at byte 832,367 that no crawler reads. test and the
// Client ignore it, test -full obeys it, and lint reports the rules past
// the limit as an error.
func TestOverLimitRuleIgnored(t *testing.T) {
	path := corpusFiles(t, "0085.txt")[0]
	if r := runCmd(t, "", "test", "-file", path, "/cd/E19853_01/x"); r.code != exitOK || !strings.HasPrefix(r.stdout, "ALLOW ") {
		t.Errorf("test: exit %d, stdout %q", r.code, r.stdout)
	}
	if r := runCmd(t, "", "test", "-full", "-file", path, "/cd/E19853_01/x"); r.code != exitDisallowed || !strings.Contains(r.stdout, "line 31035: Disallow: /cd/E19853_01/") {
		t.Errorf("test -full: exit %d, stdout %q", r.code, r.stdout)
	}
	r := runCmd(t, "", "explain", "-file", path, "/cd/E19853_01/x")
	if !strings.Contains(r.stdout, "DISALLOW (line 31035: Disallow: /cd/E19853_01/), which no crawler sees") {
		t.Errorf("explain does not tell of the rule past the limit:\n%s", r.stdout)
	}
	r = runCmd(t, "", "lint", "-json", path)
	if r.code != exitDisallowed || !strings.Contains(r.stdout, `"code":"over-limit"`) || !strings.Contains(r.stdout, `"truncated":true`) {
		t.Errorf("lint: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestServedSpellingsAgreeWithClient checks, for the spellings of a path
// that the Client refuses as the paths a server serves for them
// (/a/../private/y, /%70rivate/x, //private/z), that every command gives
// the Client's answer, in text and with -json, and says why: "served as
// /private/y".
func TestServedSpellingsAgreeWithClient(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private/\nAllow: /\n"
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newRobotsServer(t, http.StatusOK, body)
	served := map[string]string{
		"/a/../private/y": "/private/y", "/%70rivate/x": "/private/x", "//private/z": "/private/z",
		"/./private/w": "/private/w", "/public/../private/v": "/private/v", "/ok": "",
	}
	var paths []string
	for p := range served {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	agreeWithClient(t, file, s.URL, defaultAgent, paths)
	for _, args := range [][]string{
		append([]string{"test", "-file", file}, paths...),
		append([]string{"test", "-json", "-file", file}, paths...),
		append([]string{"check", "-json"}, prefixed(s.URL, paths)...),
		append([]string{"explain", "-json", "-file", file}, paths...),
	} {
		r := runCmd(t, "", args...)
		for i, p := range paths {
			want := served[p]
			switch {
			case args[1] != "-json":
				line := outputLines(r.stdout)[i]
				if strings.Contains(line, "served as") != (want != "") || want != "" && !strings.Contains(line, "(served as "+want+"; line 2: Disallow: /private/)") {
					t.Errorf("%s %s: %q; want it served as %q", args[0], p, line, want)
				}
			case decodeResults(t, r.stdout)[i].Served != want:
				t.Errorf("%s -json %s: served %q, want %q", args[0], p, decodeResults(t, r.stdout)[i].Served, want)
			}
		}
	}
	r := runCmd(t, "", "explain", "-file", file, "/a/../private/y")
	for _, want := range []string{
		"path      /a/../private/y, served as /private/y\n",
		"rules     line 2    Disallow: /private/  (length 9)  ← decides\n",
		"decision  DISALLOW by line 2 (Disallow: /private/), served as /private/y: the longest matching pattern wins (9 bytes, against 1)\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s", want, r.stdout)
		}
	}
}

// prefixed returns each path on site.
func prefixed(site string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = site + p
	}
	return out
}

// TestDeliveriesAgreeWithClient serves robots.txt files whose delivery
// the commands' live fetches once read otherwise than the Client: after
// a redirect to a URL over 512 bytes, which a Decision names cut (test
// -file URL and explain read an empty file, and allowed everything), cut
// by the server past the 500 KiB crawlers read (they read on, failed, and
// deferred), and behind a redirect whose body never ends (read on, it
// took the fetch's time). Every command gives the Client's answers.
func TestDeliveriesAgreeWithClient(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private/\n"
	long := "/r" + strings.Repeat("a", 600) + ".txt"
	big := rules + strings.Repeat("# "+strings.Repeat("x", 97)+"\n", 7000) // 700 KB
	for _, tc := range []struct {
		name, body string
		full       string // what test -full says of the file on standard error
		h          http.HandlerFunc
	}{
		{"long redirect", rules, "", func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				http.Redirect(w, r, long, http.StatusMovedPermanently)
			case long:
				w.Write([]byte(rules))
			}
		}},
		{"two long redirects", rules, "", func(w http.ResponseWriter, r *http.Request) {
			// Cut to 512 bytes, the URLs of both read the same.
			switch r.URL.Path {
			case "/robots.txt":
				http.Redirect(w, r, long+"1", http.StatusMovedPermanently)
			case long + "1":
				http.Redirect(w, r, long+"2", http.StatusMovedPermanently)
			case long + "2":
				w.Write([]byte(rules))
			}
		}},
		{"a redirect with an endless body", rules, "", func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				w.Header().Set("Location", "/real.txt")
				w.WriteHeader(http.StatusFound)
				for range 600 { // a minute, unless the reader goes
					if _, err := w.Write(make([]byte, 32<<10)); err != nil {
						return
					}
					w.(http.Flusher).Flush()
					select {
					case <-r.Context().Done():
						return
					case <-time.After(100 * time.Millisecond):
					}
				}
			case "/real.txt":
				w.Write([]byte(rules))
			}
		}},
		{"cut past the limit", big, "was cut after 684 KiB", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				w.Header().Set("Content-Length", "2000000")
				w.Write([]byte(big))
				panic(http.ErrAbortHandler)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "robots.txt")
			if err := os.WriteFile(file, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			agreeWithClient(t, file, srv.URL, defaultAgent, []string{"/private/x", "/public"})
			if r := runCmd(t, "", "test", "-full", "-file", srv.URL+"/robots.txt", "/private/x"); !strings.Contains(r.stderr, tc.full) || r.code != exitDisallowed {
				t.Errorf("test -full: exit %d, stderr %q; want it to say %q", r.code, r.stderr, tc.full)
			}
		})
	}
}
