package robotstxt

import (
	"github.com/robotsgate/robotstxt/internal/ascii"

	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/robotsgate/robotstxt/matcher"
)

func TestClientURLSplitting(t *testing.T) {
	for _, tc := range []struct{ raw, key, path string }{
		{"http://example.com", "http://example.com:80", "/"},
		{"https://example.com", "https://example.com:443", "/"},
		{"HTTPS://Example.COM/A/b?Q=1", "https://example.com:443", "/A/b?Q=1"},
		{"http://example.com:8080/x", "http://example.com:8080", "/x"},
		{"http://example.com:080/x", "http://example.com:80", "/x"},
		{"http://example.com:/x", "http://example.com:80", "/x"},
		{"https://user:pass@example.com/x", "https://example.com:443", "/x"},
		{"http://example.com?q=1", "http://example.com:80", "/?q=1"},
		{"http://example.com#top", "http://example.com:80", "/"},
		{"http://example.com/a#b?c", "http://example.com:80", "/a"},
		{"http://example.com/a;p=1?q#f", "http://example.com:80", "/a;p=1?q"},
		{"http://[::1]/x", "http://[::1]:80", "/x"},
		{"http://[2001:DB8:0::1]:8080/", "http://[2001:db8::1]:8080", "/"},
		{"http://127.0.0.1:9/", "http://127.0.0.1:9", "/"},
		{"http://bücher.example/x", "http://xn--bcher-kva.example:80", "/x"},
		{"http://MÜNCHEN.de/", "http://xn--mnchen-3ya.de:80", "/"},
		{"http://b%C3%BCcher.example/", "http://xn--bcher-kva.example:80", "/"},
		{"http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah:80", "/"},
		{"http://under_score.example/", "http://under_score.example:80", "/"},
		{"http://example.com/caf\u00e9", "http://example.com:80", "/caf%C3%A9"},
		{"http://example.com/caf%c3%a9?x=%7e", "http://example.com:80", "/caf%c3%a9?x=%7e"},
		{"http://example.com/a b", "http://example.com:80", "/a%20b"},
		{"http://example.com/%2f", "http://example.com:80", "/%2f"},
		{"http://example.com/a?q=%zz&r=%", "http://example.com:80", "/a?q=%zz&r=%"},
		{"http://example.com/a#f?q=%7E", "http://example.com:80", "/a"},
		{"http://a%40b:p%3A@example.com/", "http://example.com:80", "/"},
	} {
		key, path, err := splitTarget(tc.raw, nil)
		if err != nil || string(key) != tc.key || path != tc.path {
			t.Errorf("splitTarget(%q) = %q, %q, %v; want %q, %q", tc.raw, key, path, err, tc.key, tc.path)
		}
	}
}

func TestClientURLRejects(t *testing.T) {
	for _, raw := range []string{
		"", "/path", "example.com", "ftp://example.com/", "file:///etc/passwd", "http//example.com",
		"http:example.com", "http://", "http:///x", "http://:8080/", "http://user@/x",
		"http://example.com:65536/", "http://example.com:-1/", "http://example.com:1:2/",
		"http://[::1", "http://[::1]x/", "http://[fe80::1%25eth0]/", "http://[1.2.3.4]/",
		"http://exa<mple.com/", "http://example.com\x00/", "http://%zz/", "http://%00/",
		"http://ab\xff/",
		// net/url rejects these, so the fetcher could not request them.
		"  http://example.com/x", "http://example.com/x\n", "http://example.com/a\tb",
		"http://example.com/%zz/", "http://example.com/100%", "http://example.com/x#%zz",
		"http://evil.example\\@good.example/x", "http://us er@example.com/", "http://u%zz@example.com/",
		"http://example.com/\x7f",
	} {
		if key, _, err := splitTarget(raw, nil); !errors.Is(err, ErrBadURL) {
			t.Errorf("splitTarget(%q) = %q, %v; want ErrBadURL", raw, key, err)
		}
	}
}

func TestClientIDNAHost(t *testing.T) {
	for in, want := range map[string]string{
		"bücher.de":        "xn--bcher-kva.de",
		"Bücher.DE":        "xn--bcher-kva.de",
		"MÜNCHEN.example":  "xn--mnchen-3ya.example",
		"例え.jp":            "xn--r8jz45g.jp",
		"b%C3%BCcher.de":   "xn--bcher-kva.de",
		"bücher\u3002de":   "xn--bcher-kva.de",
		"under_score.ü.de": "under_score.xn--tda.de",
	} {
		if got, err := idnaHost(in); err != nil || got != want {
			t.Errorf("idnaHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"%zz.de", "b\xffcher.de"} {
		if got, err := idnaHost(bad); err == nil {
			t.Errorf("idnaHost(%q) = %q, want an error", bad, got)
		}
	}
}

func TestClientEscapeNoAlloc(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		_, _, _ = splitTarget("https://www.example.com/search/results?q=robots#frag", make([]byte, 0, 64))
	})
	if n != 0 {
		t.Errorf("splitTarget of a plain URL allocates %v times", n)
	}
}

func FuzzSplitTarget(f *testing.F) {
	for _, s := range []string{"http://example.com/a?b#c", "https://[::1]:8443/x", "http://bücher.de/é",
		"HTTP://u:p@EXAMPLE.com:0080", "http://%41.example/", "http://b%C3%BCcher.de/", "http://[", "http://a:b:c/",
		"http://evil.example\\@good.example/x", "http://a@b@c/", "http://x/%zz", "http://x/?%zz#%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		key, path, err := splitTarget(raw, nil)
		if err != nil {
			if !errors.Is(err, ErrBadURL) {
				t.Fatalf("error %v does not wrap ErrBadURL", err)
			}
			return
		}
		// Every URL the Client checks is one the fetcher can request,
		// and its host is the one net/url sees.
		u, perr := url.Parse(raw)
		if perr != nil {
			t.Fatalf("splitTarget accepts %q, net/url rejects it: %v", raw, perr)
		}
		if h := strings.ToLower(u.Hostname()); h != "" && isASCII(h) && !strings.ContainsAny(h, "%:") &&
			!strings.Contains(string(key), "//"+h+":") {
			t.Fatalf("splitTarget(%q) key %q, net/url host %q", raw, key, u.Hostname())
		}
		k := string(key)
		if !strings.HasPrefix(k, "http://") && !strings.HasPrefix(k, "https://") || !strings.Contains(k[8:], ":") {
			t.Fatalf("key %q", k)
		}
		if path == "" || path[0] != '/' {
			t.Fatalf("path %q", path)
		}
		for i := 0; i < len(path); i++ {
			if c := path[i]; c <= ' ' || c >= 0x7f || c == '#' {
				t.Fatalf("path %q has byte %#x", path, c)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestClientNoCredentialsInErrors: no error, log line, Decision or Info
// carries the userinfo of a URL, whether the caller's URL is malformed or
// a redirect names credentials.
func TestClientNoCredentialsInErrors(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newTestClient(t, WithLogger(logger))
	for _, raw := range []string{
		"http://alice:secret@example.com:99999/x",
		"http://alice:se/cret@example.com:99999/x",
		"http://alice:se?cret@example.com:99999/x",
		"http://alice:se#cret@example.com:99999/x",
		"http://alice:secret@example.com:8x/x",
		"http://alice:secret@exa mple.com/x",
		"http://alice:secret@ex%zzample.com/x",
		"http://alice:secret@[::1/x",
		"http://alice:secret@example.com/%zz",
		"http://alice:secret@example.com/x\n",
		"http://alice:sec ret@example.com/x",
		"http://alice:secret\\@example.com/x",
		"http://alice:secret@/x",
		"https://alice:secret@example.com:0/x",
		"ftp://alice:secret@example.com/x",
		"http:alice:secret@example.com/x",
		"http:/alice:secret@example.com/x",
		"http:\\\\alice:secret@example.com/x",
		"//alice:secret@example.com/x",
		" http://alice:secret@example.com/x",
	} {
		d, err := c.Check(ctx, raw)
		if !errors.Is(err, ErrBadURL) {
			t.Errorf("Check(%q) = %v, want ErrBadURL", raw, err)
		}
		_, lerr := c.Lookup(ctx, raw)
		for _, text := range []string{fmt.Sprint(err), fmt.Sprint(lerr), fmt.Sprintf("%+v", d)} {
			if strings.Contains(text, "secret") || strings.Contains(text, "alice") {
				t.Errorf("Check(%q): %q shows the credentials", raw, text)
			}
		}
	}

	// A robots.txt that redirects to a URL with credentials: they are
	// neither sent nor shown.
	var sentAuth atomic.Bool
	target := newSite(t, nil)
	good := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://bob:hunter2@"+target.Listener.Addr().String()+"/robots.txt", http.StatusFound)
	})
	looping := newSite(t, nil)
	looping.set(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://bob:hunter2@"+looping.Listener.Addr().String()+"/robots.txt", http.StatusMovedPermanently)
	})
	closed := newSite(t, nil)
	closedAddr := closed.Listener.Addr().String()
	closed.Close()
	refused := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://bob:hunter2@"+closedAddr+"/robots.txt", http.StatusTemporaryRedirect)
	})
	for _, tc := range []struct {
		name    string
		status  int // the target's answer
		origin  *site
		outcome Outcome
	}{
		{"to rules", 200, good, OutcomeRules},
		{"to 503", 503, good, OutcomeUnreachable},
		{"to a closed port", 0, refused, OutcomeUnreachable},
		{"in a loop", 0, looping, OutcomeAllowAll},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target.set(func(w http.ResponseWriter, r *http.Request) {
				if _, _, ok := r.BasicAuth(); ok {
					sentAuth.Store(true)
				}
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, privateRules)
			})
			c.Forget(tc.origin.URL)
			d, err := c.Check(ctx, tc.origin.URL+"/private")
			info, _ := c.Cached(tc.origin.URL)
			if d.Outcome != tc.outcome || d.Allowed != (tc.outcome == OutcomeAllowAll) {
				t.Errorf("Check = %+v, %v; want %v", d, err, tc.outcome)
			}
			shown := []string{fmt.Sprint(err), fmt.Sprintf("%+v", d), fmt.Sprintf("%+v", info), fmt.Sprint(info.Err), info.FinalURL}
			var de *DeferredError
			if errors.As(err, &de) {
				shown = append(shown, fmt.Sprintf("%+v", de))
			}
			for _, text := range append(shown, logs.String()) {
				if strings.Contains(text, "hunter2") || strings.Contains(text, "bob") {
					t.Errorf("%q shows the credentials", text)
				}
			}
		})
	}
	if sentAuth.Load() {
		t.Error("credentials from a Location header were sent")
	}
	if !strings.Contains(logs.String(), "robots.txt unreachable") {
		t.Errorf("log %q has no unreachable line; the test expects to see one", logs.String())
	}
}

// TestClientEscapesAsGiven: in the default mode the Client escapes only
// bytes that are not printable ASCII and keeps existing escapes byte for
// byte, as Google's matcher reads URLs, and checks the path servers serve
// too (an escape in lower-case hex is served as the one in upper-case
// hex); and it takes the authority as net/url takes it.
func TestClientEscapesAsGiven(t *testing.T) {
	checkLeaks(t)
	const rules = "User-agent: *\nDisallow: /collections/*%2B*\nDisallow: /caf%C3%A9\nDisallow: /a%20b\n"
	s := newSite(t, serve(200, rules))
	c := newTestClient(t)
	robots := Parse([]byte(rules))
	ctx := context.Background()
	for path, want := range map[string]struct{ client, google bool }{
		"/collections/zzwp%2be4j": {true, true}, // de.dreametech.com (corpus 1406): the rule spells '+' escaped
		"/collections/zzwp%2Be4j": {false, false},
		"/collections/zzwp+e4j":   {true, true},
		"/caf%C3%A9":              {false, false},
		"/caf%c3%a9":              {false, true}, // served as /caf%C3%A9
		"/caf%C3%a9":              {false, true},
		"/café":                   {false, false}, // raw bytes are escaped, upper-case
		"/a b":                    {false, false}, // a space is escaped
		"/a%20b":                  {false, false},
		"/a%2520b":                {true, true},
		"/a+b":                    {true, true},
	} {
		d, err := c.Check(ctx, s.URL+path)
		if err != nil || d.Allowed != want.client {
			t.Errorf("Check(%q) = %+v, %v; want allowed %v", path, d, err, want.client)
		}
		if isASCII(path) && !strings.Contains(path, " ") && robots.Allowed("robotstxt", path) != want.google {
			t.Errorf("Parse(body).Allowed(%q) = %v, want %v", path, !want.google, want.google)
		}
	}
	for _, raw := range []string{
		"http://evil.example\\@good.example/x",
		"http://evil.example\\@" + s.Listener.Addr().String() + "/x",
		s.URL + "/caf%zz", s.URL + "/100%", s.URL + "/x\x7f",
	} {
		if ok, err := c.Allowed(ctx, raw); ok || !errors.Is(err, ErrBadURL) {
			t.Errorf("Allowed(%q) = %v, %v; want ErrBadURL (net/url rejects it)", raw, ok, err)
		}
		if _, err := url.Parse(raw); err == nil {
			t.Errorf("net/url accepts %q; the test expects it not to", raw)
		}
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("server asked %d times, want once", n)
	}
}

// escapeVariants returns path with its bytes that are not printable ASCII
// escaped, and its escapes' hex digits in upper case, in lower case and
// mixed.
func escapeVariants(path string) []string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if c := path[i]; c <= ' ' || c >= 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	upper := b.String()
	lower, mixed := []byte(upper), []byte(upper)
	for i := 0; i+2 < len(upper); i++ {
		if ascii.IsEscape(upper, i) {
			lower[i+1], lower[i+2] = toLowerASCII(upper[i+1]), toLowerASCII(upper[i+2])
			mixed[i+1], mixed[i+2] = toLowerASCII(upper[i+1]), toUpperASCII(upper[i+2])
		}
	}
	return []string{upper, string(lower), string(mixed)}
}

func toLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func toUpperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// TestClientCorpusEscapesAgree serves every robots.txt of the corpus
// sample with an escape in a rule, and checks URLs made from those rules
// with upper-case, lower-case and mixed hex: the Client agrees on every
// one with Parse(body), on the body as ReadBody reads it, checking the
// URL and the paths servers serve for it (see referenceMergeFirst).
func TestClientCorpusEscapesAgree(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	header := http.Header{"Content-Type": {"text/plain"}}
	c := newTestClient(t)
	files, compared := 0, 0
	for _, row := range readCorpusIndex(t, corpusSample) {
		if row.kind != "robots" {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(corpusSample, row.file))
		if err != nil {
			t.Fatal(err)
		}
		var patterns []string
		for _, line := range strings.FieldsFunc(string(raw), func(r rune) bool { return r == '\n' || r == '\r' }) {
			field, value, ok := strings.Cut(line, ":")
			field = strings.ToLower(strings.TrimSpace(field))
			if !ok || field != "allow" && field != "disallow" {
				continue
			}
			value, _, _ = strings.Cut(value, "#")
			if value = strings.TrimSpace(value); strings.Contains(value, "%") {
				patterns = append(patterns, value)
			}
		}
		if len(patterns) == 0 {
			continue
		}
		files++
		body, err := ReadBody(bytes.NewReader(raw), header, DefaultBodyLimit)
		if err != nil {
			t.Fatalf("%s: %v", row.file, err)
		}
		robots := Parse(body.Text)
		s := newSite(t, serve(200, string(raw), "Content-Type", "text/plain"))
		for _, p := range patterns {
			p = strings.TrimSuffix(strings.ReplaceAll(p, "*", "zz"), "$")
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			for _, path := range escapeVariants(p) {
				for _, path := range []string{path, path + "x", path + "?q=%2b"} {
					d, err := c.Check(ctx, s.URL+path)
					if errors.Is(err, ErrBadURL) {
						if _, why := matchPath(path, nil); why == "" {
							t.Errorf("%s: Check(%q): %v", row.file, path, err)
						}
						continue
					}
					compared++
					want := robots.Allowed("robotstxt", path)
					for _, f := range []string{referenceMergeFirst(path), referenceDotsFirst(path)} {
						want = want && robots.Allowed("robotstxt", f)
					}
					if err != nil || d.Allowed != want {
						t.Errorf("%s: Client says %q allowed %v (%v), Parse(body) of it and its forms says %v", row.file, path, d.Allowed, err, want)
					}
				}
			}
		}
	}
	if files < 10 || compared < 1000 {
		t.Errorf("compared %d URLs from %d files; the test expects more", compared, files)
	}
	t.Logf("%d URLs from %d files agree", compared, files)
}

// FuzzMatchPath checks that the Client's one-pass path extraction gives
// what matcher.EscapePath gives, for every tail net/url accepts.
func FuzzMatchPath(f *testing.F) {
	for _, s := range []string{"", "/", "/a b", "?q=é", "/café/x?q=%zz#f é", "/%41", "/a#b c", "x", "/\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tail string) {
		var buf [64]byte
		path, why := matchPath(tail, buf[:0])
		if why != "" {
			return
		}
		if want := matcher.EscapePath(tail); path != want {
			t.Fatalf("matchPath(%q) = %q, EscapePath gives %q", tail, path, want)
		}
	})
}

// FuzzPlainAuthority checks that the one-pass reading of a plain
// authority agrees with the general one wherever it answers.
func FuzzPlainAuthority(f *testing.F) {
	for _, s := range []string{"example.com/x", "example.com:8080?q", "a:0/", "a:65535", "a:65536", "a:08/", "-.x_/#", ":80/", "A.com/", "a@b/", "a:1x/"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, rest string, https bool) {
		fast, ftail, ok := appendPlainAuthority([]byte("s://"), rest, https)
		if !ok {
			return
		}
		slow, stail, err := appendAuthority([]byte("s://"), rest, https)
		if err != nil || string(fast) != string(slow) || ftail != stail {
			t.Fatalf("%q: fast %q %q, general %q %q %v", rest, fast, ftail, slow, stail, err)
		}
	})
}
