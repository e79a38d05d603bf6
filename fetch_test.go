package robotstxt

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"strings"
	"testing"
)

// redirectChain makes hops servers that each redirect to the next (each
// its own authority), ending at a server that serves body.
func redirectChain(t *testing.T, hops int, body string) []*site {
	t.Helper()
	sites := make([]*site, hops+1)
	sites[hops] = newSite(t, serve(200, body))
	for i := hops - 1; i >= 0; i-- {
		next := sites[i+1]
		code := []int{301, 302, 303, 307, 308}[i%5]
		sites[i] = newSite(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, next.URL+"/robots.txt", code)
		})
	}
	return sites
}

func TestFetchRedirects(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	t.Run("five hops across hosts", func(t *testing.T) {
		sites := redirectChain(t, 5, privateRules)
		c := newTestClient(t)
		if ok, err := c.Allowed(ctx, sites[0].URL+"/private"); ok || err != nil {
			t.Fatalf("Allowed = %v, %v; want the final file's rules", ok, err)
		}
		info, _ := c.Cached(sites[0].URL)
		if info == nil || info.FinalURL != sites[5].URL+"/robots.txt" || info.Status != 200 {
			t.Fatalf("Cached = %+v", info)
		}
		for i, s := range sites[1:] {
			if _, ok := c.Cached(s.URL); ok {
				t.Errorf("rules also bound to hop %d's authority", i+1)
			}
			if s.hits.Load() != 1 {
				t.Errorf("hop %d hit %d times", i+1, s.hits.Load())
			}
		}
	})
	t.Run("six hops allow all", func(t *testing.T) {
		sites := redirectChain(t, 6, "User-agent: *\nDisallow: /\n")
		c := newTestClient(t)
		d, err := c.Check(ctx, sites[0].URL+"/private")
		if !d.Allowed || err != nil || d.Outcome != OutcomeAllowAll {
			t.Fatalf("Check = %+v, %v; want allow all", d, err)
		}
		if sites[6].hits.Load() != 0 {
			t.Error("followed a sixth redirect")
		}
	})
	t.Run("loop ends", func(t *testing.T) {
		var a, b *site
		a = newSite(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.URL+"/robots.txt", http.StatusFound)
		})
		b = newSite(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, a.URL+"/robots.txt", http.StatusFound)
		})
		c := newTestClient(t, WithMaxRedirects(50))
		d, err := c.Check(ctx, a.URL+"/x")
		if !d.Allowed || err != nil || d.Outcome != OutcomeAllowAll {
			t.Fatalf("Check = %+v, %v", d, err)
		}
		if a.hits.Load() != 1 || b.hits.Load() != 1 {
			t.Errorf("loop fetched a %d, b %d times; want each once", a.hits.Load(), b.hits.Load())
		}
	})
	t.Run("redirect without location or to another scheme", func(t *testing.T) {
		for _, loc := range []string{"", "ftp://example.com/robots.txt"} {
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if loc != "" {
					w.Header().Set("Location", loc)
				}
				w.WriteHeader(http.StatusMovedPermanently)
			})
			c := newTestClient(t)
			if d, err := c.Check(ctx, s.URL+"/x"); !d.Allowed || err != nil || d.Outcome != OutcomeAllowAll {
				t.Errorf("Location %q: %+v, %v", loc, d, err)
			}
		}
	})
	t.Run("relative location", func(t *testing.T) {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				http.Redirect(w, r, "/real/robots.txt", http.StatusMovedPermanently)
				return
			}
			_, _ = w.Write([]byte(privateRules))
		})
		c := newTestClient(t)
		if ok, err := c.Allowed(ctx, s.URL+"/private"); ok || err != nil {
			t.Errorf("Allowed = %v, %v", ok, err)
		}
	})
}

// bigRules is a robots.txt of more than 500 KiB whose "Disallow: /late"
// sits beyond the first 500 KiB.
func bigRules() string {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early\n")
	for b.Len() < DefaultBodyLimit+10<<10 {
		b.WriteString("# padding padding padding padding padding padding padding\n")
	}
	b.WriteString("Disallow: /late\n")
	return b.String()
}

func TestFetchBodyLimitAfterGzip(t *testing.T) {
	checkLeaks(t)
	body := bigRules()
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write([]byte(body))
	_ = zw.Close()
	if zipped.Len() >= DefaultBodyLimit/10 {
		t.Fatalf("compressed body is %d bytes; the test wants a small one", zipped.Len())
	}
	handler := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(zipped.Bytes())
	}
	for _, tc := range []struct {
		name string
		tr   *http.Transport
	}{
		{"transport decodes", &http.Transport{}},
		{"client decodes", &http.Transport{DisableCompression: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, handler)
			defer tc.tr.CloseIdleConnections()
			c := NewClient(WithHTTPClient(&http.Client{Transport: tc.tr}))
			defer c.Close()
			ctx := context.Background()
			if ok, err := c.Allowed(ctx, s.URL+"/early"); ok || err != nil {
				t.Errorf("/early: %v, %v; want the rule inside the limit applied", ok, err)
			}
			if ok, err := c.Allowed(ctx, s.URL+"/late"); !ok || err != nil {
				t.Errorf("/late: %v, %v; want the rule past 500 KiB ignored", ok, err)
			}
			info, _ := c.Cached(s.URL)
			// The line the limit cuts is dropped: the body ends with the
			// last whole line within 500 KiB.
			if n := len(info.Body); n > DefaultBodyLimit || n < DefaultBodyLimit-60 || info.Body[n-1] != '\n' {
				t.Errorf("kept %d bytes ending %q, want the whole lines within %d", n, info.Body[max(n-10, 0):], DefaultBodyLimit)
			}
		})
	}
}

func TestFetchBodyLimitOption(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /a\nDisallow: /b\n"))
	c := newTestClient(t, WithBodyLimit(int64(len("User-agent: *\nDisallow: /a\n"))))
	ctx := context.Background()
	if ok, _ := c.Allowed(ctx, s.URL+"/a"); ok {
		t.Error("/a allowed")
	}
	if ok, _ := c.Allowed(ctx, s.URL+"/b"); !ok {
		t.Error("/b disallowed by a rule past the limit")
	}
}

func TestFetchCharsets(t *testing.T) {
	checkLeaks(t)
	latin1 := "User-agent: *\nDisallow: /caf\xe9\nDisallow: /na\xefve$\n"
	for _, tc := range []struct {
		name, contentType, body string
	}{
		{"Latin-1 declared", "text/plain; charset=ISO-8859-1", latin1},
		{"Windows-1252 fallback", "text/plain", latin1},
		{"UTF-8", "text/plain; charset=utf-8", "User-agent: *\nDisallow: /café\nDisallow: /naïve$\n"},
		{"UTF-8 mislabelled Latin-1", "text/plain; charset=iso-8859-1", "User-agent: *\nDisallow: /café\nDisallow: /naïve$\n"},
		{"UTF-16LE with BOM", "text/plain", utf16LE("User-agent: *\nDisallow: /café\nDisallow: /naïve$\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, serve(200, tc.body, "Content-Type", tc.contentType))
			c := newTestClient(t)
			ctx := context.Background()
			for path, want := range map[string]bool{
				"/café": false, "/caf%C3%A9/x": false, "/cafe": true,
				// Existing escapes are matched as given, as Google's
				// matcher does: the rule's pattern has upper-case hex.
				"/caf%c3%a9": true,
				"/naïve":     false, "/naïve/x": true, "/caf\xe9": true,
			} {
				if ok, err := c.Allowed(ctx, s.URL+path); ok != want || err != nil {
					t.Errorf("Allowed(%q) = %v, %v; want %v", path, ok, err, want)
				}
			}
		})
	}
}

func utf16LE(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

func TestFetchHTMLBody(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "<!doctype html><html><body>Disallow: /x</body></html>", "Content-Type", "text/html"))
	c := newTestClient(t)
	if ok, err := c.Allowed(context.Background(), s.URL+"/x"); !ok || err != nil {
		t.Errorf("HTML body: %v, %v; want allowed", ok, err)
	}
}

func TestFetchDoubleSlashPath(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: //private\nDisallow: /x\n"))
	c := newTestClient(t)
	ctx := context.Background()
	for path, want := range map[string]bool{"//private/x": false, "//x": true, "/x": false, "/private": true} {
		if ok, err := c.Allowed(ctx, s.URL+path); ok != want || err != nil {
			t.Errorf("Allowed(%q) = %v, %v; want %v", path, ok, err, want)
		}
	}
}
