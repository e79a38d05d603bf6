package robotstxt

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/robotsgate/robotstxt/internal/body"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/target"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// redirectChain makes hops servers that each redirect to the next (each
// its own authority), ending at a server that serves body.
func redirectChain(t *testing.T, hops int, body string) []*site {
	t.Helper()
	sites := make([]*site, hops+1)
	sites[hops] = newSite(t, serve(200, body))
	for i := hops - 1; i >= 0; i-- {
		next := sites[i+1]
		code := []int{300, 301, 302, 303, 307, 308}[i%6]
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
		info, _, ok := held(c, sites[0].URL)
		if !ok || info.FinalURL != sites[5].URL+"/robots.txt" || info.Status != 200 {
			t.Fatalf("Cached = %+v", info)
		}
		for i, s := range sites[1:] {
			// Each hop's robots.txt answered as its own fetch would,
			// the redirects from it on unchecked: the answer is its own,
			// which it keeps (see Client.theirs), the last site's with
			// none (hops85: only the last one kept it).
			if info, _, ok := held(c, s.URL); !ok || len(info.Redirects()) != 4-i || i < 4 && info.FinalURL != sites[5].URL+"/robots.txt" {
				t.Errorf("hop %d's authority holds %+v (%v)", i+1, info, ok)
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
	t.Run("loop runs to the limit", func(t *testing.T) {
		var a, b *site
		a = newSite(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.URL+"/robots.txt", http.StatusFound)
		})
		b = newSite(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, a.URL+"/robots.txt", http.StatusFound)
		})
		c := newTestClient(t, WithMaxRedirects(7))
		d, err := c.Check(ctx, a.URL+"/x")
		if !d.Allowed || err != nil || d.Outcome != OutcomeAllowAll {
			t.Fatalf("Check = %+v, %v", d, err)
		}
		if a.hits.Load() != 4 || b.hits.Load() != 4 {
			t.Errorf("loop fetched a %d, b %d times; want 4 each: the request and 7 redirects", a.hits.Load(), b.hits.Load())
		}
	})
	// A server may redirect to the URL asked for once (after setting a
	// cookie, or to say "ask again"), and answer it the next time.
	t.Run("redirect to itself, then rules", func(t *testing.T) {
		var asked atomic.Int32
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			if asked.Add(1) == 1 {
				http.Redirect(w, r, "/robots.txt", http.StatusFound)
				return
			}
			_, _ = io.WriteString(w, privateRules)
		})
		c := newTestClient(t)
		if d, err := c.Check(ctx, s.URL+"/private/x"); d.Allowed || err != nil || d.Outcome != OutcomeRules {
			t.Errorf("Check = %+v, %v; want the rules the second answer gave", d, err)
		}
	})
	// Location is one field (RFC 9110 §10.2.2): two lines that disagree
	// name no target for sure (fetch84: the first, a 404, allowed all),
	// and browsers refuse them; the same line twice is followed.
	t.Run("Location lines that disagree", func(t *testing.T) {
		w := newHosts(t)
		for _, name := range []string{"a.test", "b.test"} {
			w.on(name+"/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
				rw.Header().Add("Location", "http://gone.test/robots.txt")
				rw.Header().Add("Location", map[string]string{"a.test": "http://a.test/real.txt", "b.test": "http://gone.test/robots.txt"}[name])
				rw.WriteHeader(http.StatusMovedPermanently)
			})
		}
		w.on("a.test/real.txt", serve(200, privateRules))
		w.on("gone.test/robots.txt", serve(404, ""))
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		d, err := c.Check(ctx, "http://a.test/private")
		if d.Allowed || !errors.Is(err, ErrDeferred) || !strings.Contains(err.Error(), "Location lines that disagree") {
			t.Errorf("two Locations that disagree: Check = %+v, %v; want the fault deferred", d, err)
		}
		if d, err := c.Check(ctx, "http://b.test/private"); !d.Allowed || err != nil || d.FinalURL != "http://gone.test/robots.txt" {
			t.Errorf("the same Location twice: Check = %+v, %v; want it followed", d, err)
		}
	})
	// A 3xx the Client does not know is a redirect too, read as a 300
	// (RFC 9110 §15), which no status policy reads; without a Location,
	// a fault.
	t.Run("3xx it does not know", func(t *testing.T) {
		for _, status := range []int{306, 309, 399} {
			for _, location := range []string{"/moved.txt", ""} {
				s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/moved.txt" {
						_, _ = io.WriteString(w, privateRules)
						return
					}
					if location != "" {
						w.Header().Set("Location", location)
					}
					w.WriteHeader(status)
				})
				c := newTestClient(t, WithStatusPolicy(func(status int) Outcome {
					if status == 200 {
						return OutcomeRules
					}
					return OutcomeAllowAll // of the 3xx, were it read
				}))
				d, err := c.Check(ctx, s.URL+"/private")
				if location != "" && (d.Allowed || err != nil || d.Outcome != OutcomeRules) {
					t.Errorf("%d to %s: %+v, %v; want its rules", status, location, d, err)
				}
				if location == "" && (d.Allowed || !errors.Is(err, ErrDeferred)) {
					t.Errorf("%d without a Location: %+v, %v; want deferred", status, d, err)
				}
			}
		}
	})
	// A redirect that cannot be followed is a fault, not "no
	// robots.txt": unreachable, deferred.
	t.Run("redirect without a usable location or to another scheme", func(t *testing.T) {
		// Whatever the error policy: a response arrived (net/http reports
		// a Location net/url cannot parse as an error with none).
		allowAll := WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll })
		long := "/" + strings.Repeat("x", maxLocation)
		for _, loc := range []string{"", "none", "ftp://example.com/robots.txt", "http://[::1", "javascript:alert(1)", "data:text/plain,x", "%zz", long,
			"//", "//#top", "http://", "https:"} {
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if loc != "none" {
					w.Header()["Location"] = []string{loc}
				}
				w.WriteHeader(http.StatusMovedPermanently)
			})
			c := newTestClient(t, allowAll)
			d, err := c.Check(ctx, s.URL+"/x")
			if d.Allowed || !errors.Is(err, ErrDeferred) || !d.Deferred {
				t.Errorf("Location %.40q: %+v, %v; want deferred", loc, d, err)
			}
			if s.hits.Load() != 1 {
				t.Errorf("Location %.40q: %d requests, want 1", loc, s.hits.Load())
			}
		}
	})
	// A Location with a control byte, a status of four digits, two
	// lengths, a coding under chunked: net/http cannot read the head, so
	// it reports an error and no response; a server answered all the
	// same, and an answer that cannot be read is never allow-all,
	// whatever the error policy.
	t.Run("header net/http cannot read", func(t *testing.T) {
		for _, head := range []string{"301 Moved\r\nLocation: /robots\x01.txt", "200 OK\r\nNo colon", "2000 OK",
			"301 Moved\r\nLocation: /r\r\nContent-Length: 1\r\nContent-Length: 2", "200 OK\r\nTransfer-Encoding: chunked, gzip"} {
			p := newHostilePeer(t, func(w io.Writer, _ <-chan struct{}) {
				_, _ = io.WriteString(w, "HTTP/1.1 "+head+"\r\nContent-Length: 0\r\n\r\n")
			})
			c := newTestClient(t, WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll }))
			d, err := c.Check(ctx, p.url+"/x")
			if d.Allowed || !errors.Is(err, ErrDeferred) {
				t.Errorf("%q: %+v, %v; want deferred", head, d, err)
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
	for b.Len() < body.DefaultLimit+10<<10 {
		b.WriteString("# padding padding padding padding padding padding padding\n")
	}
	b.WriteString("Disallow: /late\n")
	return b.String()
}

func TestFetchBodyLimitAfterGzip(t *testing.T) {
	checkLeaks(t)
	big := bigRules()
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write([]byte(big))
	_ = zw.Close()
	if zipped.Len() >= body.DefaultLimit/10 {
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
			_, e, _ := held(c, s.URL)
			// The body ends at 500 KiB, in a padding comment the limit
			// cut, which says nothing.
			b := bodyOf(e)
			if last := b[bytes.LastIndexByte(b, '\n')+1:]; len(b) != body.DefaultLimit || !bytes.HasPrefix(last, []byte("#")) {
				t.Errorf("kept %d bytes ending %q, want %d ending in the cut comment", len(b), b[max(len(b)-10, 0):], body.DefaultLimit)
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
		// A UTF-8 file with one stray byte of another charset, as real
		// files hold (a Latin-1 "à" in a comment, a no-break space 0xA0
		// after a colon): read whole as Windows-1252, "/café" was
		// "/cafÃ©" and matched no URL (parse85).
		{"UTF-8 with a stray byte", "text/plain", "# Mis \xe0 jour\nUser-agent: *\nDisallow: /café\nDisallow: /naïve$\n"},
		{"UTF-8 with a stray byte, Latin-1 declared", "text/plain; charset=ISO-8859-1",
			"User-agent: *\nDisallow:\xa0/_Incapsula_Resource*\nDisallow: /café\nDisallow: /naïve$\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, serve(200, tc.body, "Content-Type", tc.contentType))
			c := newTestClient(t)
			ctx := context.Background()
			for path, want := range map[string]bool{
				"/café": false, "/caf%C3%A9/x": false, "/cafe": true,
				// Servers decode escapes in either hex case: the
				// Client checks the path they serve too.
				"/caf%c3%a9": false,
				"/naïve":     false, "/naïve/x": true,
				// The path spelled in Windows-1252, as a site in
				// Latin-1 spells its links, and as a client sends a
				// byte of one: Google's parser reads the file's bytes,
				// and disallows it (parse88).
				"/caf\xe9": false, "/caf%E9": false, "/na%EFve": false, "/na%efve/x": true,
			} {
				if ok, err := c.Allowed(ctx, s.URL+path); ok != want || err != nil {
					t.Errorf("Allowed(%q) = %v, %v; want %v", path, ok, err, want)
				}
			}
		})
	}
}

// TestFetchLegacyCharsetSpellings: a robots.txt in Windows-1252 names
// its paths and queries in it; a crawler following the site's links
// asks for them so (a browser sends a link's query in its page's
// charset), and Google's parser, which reads the file's bytes,
// disallows them. The Client, which reads the file converted to UTF-8,
// allowed them (parse88; www.opentext.com's file in the corpus).
func TestFetchLegacyCharsetSpellings(t *testing.T) {
	checkLeaks(t)
	opentext, err := os.ReadFile("testdata/corpus/files/0757.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		body, contentType string
		paths             []string
	}{
		{string(opentext), "text/plain", []string{
			"/Notre-soci%E9t%E9/Press-Releases/Red-Oxygen-Press-Kit.pdf",
			"/Notre-soci%E9t%E9/Press-Releases?id=B9C01B16EB334263914BFFE59CA9824F",
		}},
		{"User-agent: *\nDisallow: /suche?ort=M\xfcnchen\n", "text/plain", []string{"/suche?ort=M%FCnchen", "/suche?ort=M%fcnchen&x=1"}},
		{"User-agent: *\nDisallow: /caf\xe9/\n", "text/plain; charset=iso-8859-1", []string{"/caf%E9/menu.html",
			"/./caf%E9/menu.html", "//caf%E9/menu.html", "/x/../caf%E9/menu.html", "/%63af%E9/menu.html", "/caf%C3%A9/menu.html"}}, // and as servers read it (receipt88)
		{"User-agent: *\nDisallow: /\x80/\n", "text/plain", []string{"/%80/x", "/%E2%82%AC/x"}},
	} {
		s := newSite(t, serve(200, tc.body, "Content-Type", tc.contentType))
		c := newTestClient(t, WithUserAgent("FooBot/1.0"))
		for _, p := range tc.paths { // the first as Google reads the bytes, the last as the Client reads the file
			if d, err := c.Check(context.Background(), s.URL+p); d.Allowed || err != nil {
				t.Errorf("%s: %+v, %v; want disallowed", p, d, err)
			}
		}
		if r := Parse([]byte(tc.body)).Check("FooBot", tc.paths[0]); r.Allowed {
			t.Errorf("%s: Robots.Check, as Google's parser, reads the bytes: allowed; want disallowed", tc.paths[0])
		}
	}
	// Decision.Served names the reading that disallowed it, as its doc
	// says: the path as the file's rules, converted, spell it.
	latin := newSite(t, serve(200, "User-agent: *\nDisallow: /caf\xe9/\n", "Content-Type", "text/plain; charset=iso-8859-1"))
	if d, err := newTestClient(t).Check(context.Background(), latin.URL+"/caf%E9/menu.html"); d.Allowed || err != nil || d.Served != "/caf%C3%A9/menu.html" {
		t.Errorf("/caf%%E9/menu.html: allowed %v, served %q, %v; want disallowed, served as /caf%%C3%%A9/menu.html", d.Allowed, d.Served, err)
	}
	// A byte Windows-1252 leaves undefined is no U+FFFD: eBay's rule
	// (corpus 1145) does not refuse a Shift_JIS query (review159).
	ebay := newSite(t, serve(200, "User-agent: *\nDisallow: /sch/*%EF\n", "Content-Type", "text/plain"))
	if d, err := newTestClient(t).Check(context.Background(), ebay.URL+"/sch/i.html?_nkw=%90V%8C%5E"); !d.Allowed || err != nil {
		t.Errorf("a Shift_JIS query under eBay's rule: %+v, %v; want allowed", d, err)
	}
	// A Content-Usage rule too, for each spelling (receipt88).
	s := newSite(t, serve(200, "User-agent: *\nAllow: /\nContent-Usage: train-ai=y\nContent-Usage: /d\xe9p\xf4t/ train-ai=n\n", "Content-Type", "text/plain"))
	c := newTestClient(t, WithUserAgent("FooBot/1.0"))
	for _, p := range []string{"/d%E9p%F4t/x", "/./d%E9p%F4t/x", "/d%C3%A9p%C3%B4t/x"} {
		if d, err := c.Check(context.Background(), s.URL+p); err != nil || d.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("%s: usage %+v, %v; want train-ai=n", p, d.Usage, err)
		}
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

// TestFetchCutBodyKeepsItsStatus: a 200 whose body the network cuts, or
// the fetch timeout ends, defers with its status, 200, as
// DeferredError.Status says: a Store's readers tell it from a failure
// with no response (status 0), which an error policy judges.
func TestFetchCutBodyKeepsItsStatus(t *testing.T) {
	checkLeaks(t)
	c := newTestClient(t, WithFetchTimeout(300*time.Millisecond))
	cutPeer := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n")
		if conn, ok := w.(net.Conn); ok {
			_ = conn.Close()
		}
	})
	stall := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n")
		<-done
	})
	for name, url := range map[string]string{"cut": cutPeer.url, "timed out": stall.url} {
		d, err := c.Check(context.Background(), url+"/x")
		var de *DeferredError
		if !errors.As(err, &de) || de.Status != 200 || d.LastStatus != 200 {
			t.Errorf("%s: %+v, %v; want a deferral of status 200", name, d, err)
		}
	}
}

// TestFetchStatusOutOfRange: a status no HTTP/1 status line carries
// (net/http's HTTP/2 client, or a RoundTripper, may give one) is no
// answer: the check defers, in this process and in another that reads
// its Store, whatever policy wrote it, never as the status it wraps to.
func TestFetchStatusOutOfRange(t *testing.T) {
	checkLeaks(t)
	for _, status := range []int{65736, 65940, 1000, 99, -200} {
		hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("<html>down</html>")),
				ContentLength: -1, Request: req}, nil
		})}
		store := newMemStore()
		writer := newTestClient(t, WithHTTPClient(hc), WithStore(store), WithStatusPolicy(func(int) Outcome { return OutcomeAllowAll }))
		reader := newTestClient(t, WithHTTPClient(hc), WithStore(store))
		for name, c := range map[string]*Client{"writer": writer, "reader": reader} {
			d, err := c.Check(context.Background(), "http://a.test/private")
			if d.Allowed || !errors.Is(err, ErrDeferred) || d.Status == 200 || d.Status == 404 || d.Status == 400 {
				t.Errorf("status %d, %s: %+v, %v; want a deferral", status, name, d, err)
			}
		}
	}
}

func TestFetchDoubleSlashPath(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: //private\nDisallow: /x\n"))
	c := newTestClient(t)
	ctx := context.Background()
	// "//x" is a path, not a scheme-relative URL; servers merge its
	// slashes and serve /x, so it is disallowed as /x is.
	for path, want := range map[string]bool{"//private/x": false, "//x": false, "/x": false, "/private": true, "/y//x": true} {
		if ok, err := c.Allowed(ctx, s.URL+path); ok != want || err != nil {
			t.Errorf("Allowed(%q) = %v, %v; want %v", path, ok, err, want)
		}
	}
}

// hostilePeer is a raw TCP server on loopback that reads each request's
// head, lets respond write whatever it likes, and then holds the
// connection open until the test ends.
type hostilePeer struct {
	ln       net.Listener
	url      string
	accepted chan struct{} // one value per accepted connection, if room
	done     chan struct{}
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    []net.Conn
}

// newHostilePeer starts a hostilePeer; respond writes to the connection
// and returns early when done is closed or a write fails.
func newHostilePeer(t *testing.T, respond func(w io.Writer, done <-chan struct{})) *hostilePeer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &hostilePeer{
		ln: ln, url: "http://" + ln.Addr().String(),
		accepted: make(chan struct{}, 16), done: make(chan struct{}),
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, conn)
			p.mu.Unlock()
			select {
			case p.accepted <- struct{}{}:
			default:
			}
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				if readRequestHead(conn) != nil {
					return
				}
				respond(conn, p.done)
				<-p.done
			}()
		}
	}()
	t.Cleanup(func() {
		close(p.done)
		_ = ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			_ = c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

// readRequestHead reads a request up to the blank line after its headers.
func readRequestHead(conn net.Conn) error {
	br := bufio.NewReader(conn)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return err
		}
		if line == "\r\n" || line == "\n" {
			return nil
		}
	}
}

// writeSlowly writes s one byte every interval, until done is closed or a
// write fails.
func writeSlowly(w io.Writer, s string, interval time.Duration, done <-chan struct{}) bool {
	for i := 0; i < len(s); i++ {
		select {
		case <-done:
			return false
		case <-time.After(interval):
		}
		if _, err := w.Write([]byte{s[i]}); err != nil {
			return false
		}
	}
	return true
}

// chunk frames s as one HTTP/1.1 chunk.
func chunk(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }

// withinBound runs f and fails the test unless it returns within bound.
// A call still running well past the bound is left to the test's cleanup
// (which closes the peers it waits on) rather than hanging the test.
func withinBound(t *testing.T, what string, bound time.Duration, f func()) {
	t.Helper()
	ended := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(ended)
		f()
	}()
	select {
	case <-ended:
		if elapsed := time.Since(start); elapsed >= bound {
			t.Errorf("%s took %v, want < %v", what, elapsed, bound)
		}
	case <-time.After(bound + 3*time.Second):
		t.Fatalf("%s still running after %v, want < %v", what, bound+3*time.Second, bound)
	}
}

// TestFetchHostilePeers: whatever a peer does, a check is decided within
// the fetch timeout (plus a margin), no fetch stays in flight, and Close
// returns at once even while a peer holds a fetch open.
func TestFetchHostilePeers(t *testing.T) {
	checkLeaks(t)
	const limit = body.DefaultLimit
	c := newTestClient(t, WithFetchTimeout(time.Second))
	// The endless body must end at the size limit, not at a deadline: a
	// Client whose deadline a loaded machine cannot reach tells the two
	// apart.
	patient := newTestClient(t, WithFetchTimeout(time.Minute))
	// Made after the Clients so that their cleanups, which close every
	// connection, run before the Client's Close.
	switching := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n")
	})
	slowloris := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		writeSlowly(w, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Never: "+strings.Repeat("z", 1000), 200*time.Millisecond, done)
	})
	trickle := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"+
			chunk("User-agent: *\nDisallow: /x\n"))
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := io.WriteString(w, chunk("# more\n")); err != nil {
				return
			}
		}
	})
	endless := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"+
			chunk("User-agent: *\n"))
		block := chunk(strings.Repeat("Disallow: /x\n", 1000))
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := io.WriteString(w, block); err != nil {
				return
			}
		}
	})
	notFound := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n")
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := io.WriteString(w, chunk("<p>not here</p>\n")); err != nil {
				return
			}
		}
	})

	ctx := context.Background()
	for _, tc := range []struct {
		name string
		peer *hostilePeer
	}{
		{"101 and silence", switching},
		{"slowloris head", slowloris},
		{"trickling body", trickle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d Decision
			var err error
			withinBound(t, "Check", 2*time.Second, func() { d, err = c.Check(ctx, tc.peer.url+"/x") })
			if d.Allowed || !d.Deferred || d.Outcome != OutcomeUnreachable || !errors.Is(err, ErrDeferred) {
				t.Errorf("Check = %+v, %v; want deferred", d, err)
			}
			if tc.peer != switching && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Check error %q does not say the fetch's deadline passed", err)
			}
			if n := c.Stats().InFlight; n != 0 {
				t.Errorf("Stats().InFlight = %d after the check, want 0", n)
			}
		})
	}
	t.Run("endless body", func(t *testing.T) {
		var d Decision
		var err error
		withinBound(t, "Check", 30*time.Second, func() { d, err = patient.Check(ctx, endless.url+"/x") })
		if d.Allowed || d.Outcome != OutcomeRules || err != nil || !matched(d) || d.Rule.Pattern != "/x" {
			t.Errorf("Check(/x) = %+v, %v; want disallowed by the rules read", d, err)
		}
		if ok, err := patient.Allowed(ctx, endless.url+"/y"); !ok || err != nil {
			t.Errorf("Allowed(/y) = %v, %v; want allowed", ok, err)
		}
		_, e, _ := held(patient, endless.url)
		if b := bodyOf(e); len(b) > limit || len(b) < limit-len("Disallow: /x\n") || b[len(b)-1] != '\n' {
			t.Errorf("kept %d bytes, want the whole lines within %d", len(b), limit)
		}
		if n := patient.Stats().InFlight; n != 0 {
			t.Errorf("Stats().InFlight = %d after the check, want 0", n)
		}
	})
	t.Run("404 without end", func(t *testing.T) {
		var d Decision
		var err error
		withinBound(t, "Check", 2*time.Second, func() { d, err = c.Check(ctx, notFound.url+"/x") })
		if !d.Allowed || d.Outcome != OutcomeAllowAll || d.Status != 404 || err != nil {
			t.Errorf("Check = %+v, %v; want allowed by the 404", d, err)
		}
		if n := c.Stats().InFlight; n != 0 {
			t.Errorf("Stats().InFlight = %d after the check, want 0", n)
		}
	})
	t.Run("Close while a peer holds a fetch", func(t *testing.T) {
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		got := make(chan struct{}, 1)
		hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := tr.RoundTrip(req)
			select {
			case got <- struct{}{}:
			default:
			}
			return resp, err
		})}
		slow := NewClient(WithHTTPClient(hc), WithFetchTimeout(time.Minute))
		t.Cleanup(func() { _ = slow.Close() }) // after the peer's cleanup, if the test stops early
		peer := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
			_, _ = io.WriteString(w, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n")
		})
		type result struct {
			d   Decision
			err error
		}
		checked := make(chan result, 1)
		go func() {
			d, err := slow.Check(ctx, peer.url+"/x")
			checked <- result{d, err}
		}()
		select {
		case <-got: // the 101 arrived: the Client now reads the peer's connection
		case <-time.After(5 * time.Second):
			t.Fatal("no response from the peer")
		}
		withinBound(t, "Close", time.Second, func() { _ = slow.Close() })
		select {
		case r := <-checked:
			if r.d.Allowed || !errors.Is(r.err, ErrClosed) && !errors.Is(r.err, ErrDeferred) {
				t.Errorf("Check = %+v, %v; want ErrClosed or a deferral", r.d, r.err)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("Check still waiting after Close")
		}
	})
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// encode applies the content codings of a Content-Encoding header to body,
// the first named first. "deflate" is a zlib stream; "deflate-raw" (not a
// real coding name) is sent as "deflate" without the zlib wrapper.
func encode(t testing.TB, body []byte, codings ...string) []byte {
	t.Helper()
	for _, coding := range codings {
		var buf bytes.Buffer
		var w io.WriteCloser
		switch coding {
		case "gzip", "x-gzip":
			w = gzip.NewWriter(&buf)
		case "deflate":
			w = zlib.NewWriter(&buf)
		case "deflate-raw":
			w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
		case "identity":
			continue
		default:
			t.Fatalf("encode: no coding %q", coding)
		}
		if _, err := w.Write(body); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		body = buf.Bytes()
	}
	return body
}

// TestFetchNoContentWithCoding: a 204 has no content (RFC 9110
// §15.3.5), whatever coding a header names: an empty robots.txt, as a
// plain 204 is.
func TestFetchNoContentWithCoding(t *testing.T) {
	checkLeaks(t)
	c := newTestClient(t)
	for _, coding := range []string{"gzip", ""} {
		s := newSite(t, serve(http.StatusNoContent, "", "Content-Encoding", coding))
		if d, err := c.Check(context.Background(), s.URL+"/x"); !d.Allowed || d.Outcome != OutcomeRules || err != nil {
			t.Errorf("a 204 with Content-Encoding %q: %+v, %v; want an empty file, allowed", coding, d, err)
		}
	}
}

// TestFetchPartialContent: a 206 holding part of robots.txt (a cache may
// replay another client's) is not the file: its first part lacks the
// rules past it, a later part its groups' user-agent lines. It is
// unreachable; a 206 of the whole file is the file.
func TestFetchPartialContent(t *testing.T) {
	checkLeaks(t)
	const whole = "User-agent: *\nDisallow: /a\nDisallow: /private\n"
	cut := len("User-agent: *\nDisallow: /a\n")
	c := newTestClient(t)
	for _, tc := range []struct {
		first, last int // the range the Content-Range names
		end         int // the end of the bytes sent
		want        Outcome
	}{
		{0, cut - 1, cut, OutcomeUnreachable},
		{cut, len(whole) - 1, len(whole), OutcomeUnreachable},
		{0, len(whole) - 1, len(whole), OutcomeRules},
		{0, len(whole) - 1, cut, OutcomeUnreachable}, // naming the whole file, holding its first part
	} {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", tc.first, tc.last, len(whole)))
			w.WriteHeader(http.StatusPartialContent)
			w.(http.Flusher).Flush() // no Content-Length: the body ends where it ends
			_, _ = io.WriteString(w, whole[tc.first:tc.end])
		})
		if d, _ := c.Check(context.Background(), s.URL+"/private/x"); d.Allowed || d.Outcome != tc.want {
			t.Errorf("a 206 of bytes %d-%d of %d holding %d: %+v; want outcome %d, /private/x disallowed",
				tc.first, tc.last, len(whole), tc.end-tc.first, d, tc.want)
		}
	}
	// A 206 of the whole file cut at the body limit is the file, cut.
	long := whole + strings.Repeat("# more\n", 20000)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(long)-1, len(long)))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = io.WriteString(w, long)
	})
	short := newTestClient(t, WithBodyLimit(1<<10))
	if d, err := short.Check(context.Background(), s.URL+"/a"); err != nil || d.Allowed || d.Outcome != OutcomeRules {
		t.Errorf("a 206 of the whole file past the body limit: %+v, %v; want its rules up to the limit", d, err)
	}
}

// TestFetchEmptyGzip: a 200 declaring gzip whose body holds no gzip
// stream at all (cut before its first byte, or a gzip middleware's
// handler failing) is unreadable, not an empty robots.txt that allows
// everything; net/http's transparent gzip read it as one. A good copy
// stands in for it.
func TestFetchEmptyGzip(t *testing.T) {
	checkLeaks(t)
	var broken atomic.Bool
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if !broken.Load() {
			_, _ = w.Write([]byte(privateRules))
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush() // chunked, with no chunk
	})
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, s.URL+"/private/x"); ok || err != nil {
		t.Fatalf("the good copy: %v, %v; want disallowed", ok, err)
	}
	broken.Store(true)
	clock.Advance(25 * time.Hour)
	if d, err := c.Check(ctx, s.URL+"/private/x"); d.Allowed || !d.Stale || d.Err == nil {
		t.Errorf("after a 200 declaring gzip with no stream: %+v, %v; want the good copy standing in", d, err)
	}
	fresh := newTestClient(t)
	if ok, err := fresh.Allowed(ctx, s.URL+"/private/x"); ok || !errors.Is(err, ErrDeferred) {
		t.Errorf("with no copy: %v, %v; want deferred", ok, err)
	}
}

// TestFetchContentCodingLines: the Content-Encoding header's lines are
// one list; compressed bytes that no line declares (a second coding,
// after a transport undid a gzip and dropped every line) are unreadable,
// never parsed as text that allows everything.
func TestFetchContentCodingLines(t *testing.T) {
	checkLeaks(t)
	const rules = "User-agent: *\nDisallow: /\n"
	for _, tc := range []struct {
		name     string
		lines    []string
		body     []byte
		compress bool // net/http would ask for gzip and undo it, had the fetch not asked
		deferred bool
	}{
		{"identity, then gzip", []string{"identity", "gzip"}, encode(t, []byte(rules), "gzip"), false, false},
		{"gzip twice", []string{"gzip", "gzip"}, encode(t, []byte(rules), "gzip", "gzip"), false, false},
		{"gzip twice, over a transport that undoes gzip", []string{"gzip", "gzip"}, encode(t, []byte(rules), "gzip", "gzip"), true, false},
		{"gzip under no line", nil, encode(t, []byte(rules), "gzip"), false, true},
		{"deflate in gzip, over a transport that undoes gzip", []string{"gzip"}, encode(t, []byte(rules), "deflate", "gzip"), true, true},
		{"zlib under no line", nil, encode(t, []byte(rules), "deflate"), false, true},
		{"zstd under no line", nil, zstdEncoder().EncodeAll([]byte(strings.Repeat(rules, 50)), nil), false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Encoding"] = tc.lines
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write(tc.body)
			})
			tr := &http.Transport{DisableCompression: !tc.compress}
			t.Cleanup(tr.CloseIdleConnections)
			c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}))
			d, err := c.Check(context.Background(), s.URL+"/x")
			switch {
			case tc.deferred && (d.Allowed || !errors.Is(err, ErrDeferred) || !errors.Is(err, body.ErrContentCoding)):
				t.Errorf("Check(/x) = %+v, %v; want deferred for its content coding", d, err)
			case !tc.deferred && (d.Allowed || d.Outcome != OutcomeRules || err != nil):
				t.Errorf("Check(/x) = %+v, %v; want disallowed by Disallow: /", d, err)
			}
		})
	}
}

// TestFetchContentCodings: gzip, x-gzip and deflate (zlib or raw) bodies
// are decoded; any other coding, or a body its coding cannot read, is
// unreachable, never parsed as text; the size limit applies after
// decoding.
func TestFetchContentCodings(t *testing.T) {
	longtest.Gate(t)
	checkLeaks(t)
	const rules = "User-agent: *\nDisallow: /\n"
	ctx := context.Background()
	newClient := func(t *testing.T, opts ...Option) *Client {
		tr := &http.Transport{DisableCompression: true}
		t.Cleanup(tr.CloseIdleConnections)
		return newTestClient(t, append([]Option{WithHTTPClient(&http.Client{Transport: tr})}, opts...)...)
	}
	for _, tc := range []struct {
		name, header string
		body         []byte
	}{
		{"gzip", "gzip", encode(t, []byte(rules), "gzip")},
		{"x-gzip", "x-gzip", encode(t, []byte(rules), "x-gzip")},
		{"X-GZIP", "X-GZIP", encode(t, []byte(rules), "x-gzip")},
		{"deflate zlib", "deflate", encode(t, []byte(rules), "deflate")},
		{"deflate raw", "deflate", encode(t, []byte(rules), "deflate-raw")},
		{"gzip then identity", "gzip, identity", encode(t, []byte(rules), "gzip")},
		{"identity then x-gzip", "identity, x-gzip", encode(t, []byte(rules), "x-gzip")},
		{"deflate then gzip", "deflate, gzip", encode(t, []byte(rules), "deflate", "gzip")},
		{"identity", "identity", []byte(rules)},
	} {
		t.Run("decoded "+tc.name, func(t *testing.T) {
			s := newSite(t, serve(200, string(tc.body), "Content-Encoding", tc.header, "Content-Type", "text/plain"))
			d, err := newClient(t).Check(ctx, s.URL+"/x")
			if d.Allowed || d.Outcome != OutcomeRules || !matched(d) || d.Rule.Pattern != "/" || err != nil {
				t.Errorf("Check(/x) = %+v, %v; want disallowed by Disallow: /", d, err)
			}
		})
	}
	gzipped := encode(t, []byte(rules), "gzip")
	for _, tc := range []struct {
		name, header string
		body         []byte
		coding       bool // the error wraps body.ErrContentCoding
	}{
		{"br", "br", []byte(rules), true},
		{"compress", "compress", []byte(rules), true},
		{"unknown coding", "zz-unknown", []byte(rules), true},
		{"unknown coding in a chain", "gzip, zz-unknown", gzipped, true},
		{"too many codings", "identity, identity, identity, identity, gzip", gzipped, true},
		{"corrupt gzip header", "gzip", append([]byte("\x1f\x8cXXXX"), rules...), false},
		{"gzip cut short", "gzip", gzipped[:len(gzipped)-12], false},
		{"corrupt gzip stream", "gzip", append(append([]byte(nil), gzipped[:10]...), bytes.Repeat([]byte{0xff}, 40)...), false},
		{"plain text labelled gzip", "x-gzip", []byte(rules), false},
	} {
		t.Run("unreadable "+tc.name, func(t *testing.T) {
			s := newSite(t, serve(200, string(tc.body), "Content-Encoding", tc.header, "Content-Type", "text/plain"))
			d, err := newClient(t).Check(ctx, s.URL+"/x")
			if d.Allowed || !d.Deferred || d.Outcome != OutcomeUnreachable || !errors.Is(err, ErrDeferred) {
				t.Errorf("Check(/x) = %+v, %v; want deferred", d, err)
			}
			if tc.coding && !errors.Is(err, body.ErrContentCoding) {
				t.Errorf("error %v does not wrap body.ErrContentCoding", err)
			}
		})
	}
	t.Run("gzip bomb", func(t *testing.T) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write([]byte(rules))
		zeros := make([]byte, 1<<20)
		for range 50 {
			_, _ = zw.Write(zeros)
		}
		_ = zw.Close()
		bomb := buf.Bytes()
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(bomb)
		})
		c := newClient(t)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d, err := c.Check(ctx, s.URL+"/x")
		runtime.ReadMemStats(&after)
		if d.Allowed || d.Outcome != OutcomeRules || err != nil {
			t.Errorf("Check(/x) = %+v, %v; want disallowed by the rules before the zeros", d, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= 20<<20 {
			t.Errorf("reading a %d-byte gzip of 50 MB allocated %d bytes, want < 20 MB", len(bomb), alloc)
		}
		_, e, _ := held(c, s.URL)
		if n := len(bodyOf(e)); n > body.DefaultLimit || n < body.DefaultLimit-parse.MaxLineLength {
			t.Errorf("kept %d bytes, want at most the limit, %d", n, body.DefaultLimit)
		}
	})
}

// TestFetchCutLine: an allow a body limit cuts is dropped, never parsed:
// a cut "Allow: /public/page.html" would read "Allow: /" and allow the
// whole site; a cut disallow is read as far as it goes.
func TestFetchCutLine(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	const head = "User-agent: *\nDisallow: /\nAllow: /"
	const full = head + "public/page.html\nAllow: /more\n"
	for _, tc := range []struct {
		name, body string
		limit      int64
	}{
		{"UTF-8", full, int64(len(head))},
		{"UTF-16LE", utf16LE(full), int64(len(utf16LE(head)))},
		{"UTF-16LE cut inside a code unit", utf16LE(full), int64(len(utf16LE(head))) + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, serve(200, tc.body, "Content-Type", "text/plain"))
			c := newTestClient(t, WithBodyLimit(tc.limit))
			for path, want := range map[string]bool{"/private": false, "/public/page.html": false, "/": false} {
				if d, err := c.Check(ctx, s.URL+path); d.Allowed != want || err != nil {
					t.Errorf("Check(%q) = %+v, %v; want allowed %v", path, d, err, want)
				}
			}
			_, e, _ := held(c, s.URL)
			if got := strings.TrimPrefix(string(bodyOf(e)), "\uFEFF"); got != "User-agent: *\nDisallow: /\n" {
				t.Errorf("Body = %q, want the two whole lines", got)
			}
		})
	}

	// docs.oracle.com's 853 KB file: the default limit falls inside line
	// 19,134, "Disallow: /html/E12243_01/". Dropped, it would allow the
	// manual the site disallows; cut, "Disallow: /html/E" disallows it,
	// and more, as Google's parser reads the first 500 KiB.
	file, err := os.ReadFile("testdata/corpus/files/0085.txt")
	if err != nil {
		t.Fatal(err)
	}
	cut := file[:body.DefaultLimit]
	if !bytes.HasSuffix(cut, []byte("\nDisallow: /html/E")) {
		t.Fatalf("0085.txt cut at the limit ends %q; the test expects the cut inside /html/E12243_01/", cut[len(cut)-30:])
	}
	if b, err := body.Read(bytes.NewReader(file), nil, body.DefaultLimit); err != nil || !b.Truncated || !bytes.Equal(b.Text, cut) {
		t.Errorf("body.Read(0085.txt) = %d bytes ending %q, truncated %v, %v; want the first %d bytes",
			len(b.Text), b.Text[max(len(b.Text)-30, 0):], b.Truncated, err, len(cut))
	}
	s := newSite(t, serve(200, string(file), "Content-Type", "text/plain"))
	c := newTestClient(t)
	for path, want := range map[string]bool{"/html/E12243_01/index.html": false, "/html/E999": false, "/html/E12078_01/x": false, "/cds/x": false, "/html/A1/x": true} {
		if d, err := c.Check(ctx, s.URL+path); err != nil || d.Allowed != want {
			t.Errorf("Check(%q) = %+v, %v; want allowed %v", path, d, err, want)
		}
	}
}

// TestFetchDrainKeepsConnection: the body of a robots.txt 404, a typical
// 12 KB HTML page, is drained so that the crawler's next request reuses
// the connection.
func TestFetchDrainKeepsConnection(t *testing.T) {
	checkLeaks(t)
	page := "<!doctype html><title>Not found</title>\n" + strings.Repeat("<p>Nothing here, sorry.</p>\n", 12<<10/28)
	var conns atomic.Int64
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, page)
			return
		}
		_, _ = io.WriteString(w, "a page")
	}))
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: tr}
	c := newTestClient(t, WithHTTPClient(hc))
	if ok, err := c.Allowed(context.Background(), s.URL+"/page"); !ok || err != nil {
		t.Fatalf("Allowed = %v, %v; want allowed by the 404", ok, err)
	}
	resp, err := hc.Get(s.URL + "/page")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for the robots.txt and the page, want 1 (the %d-byte 404 body drained)", n, len(page))
	}
}

// TestFetchCapsServerStrings serves megabytes where a server chooses a
// string (a validator, a redirect's Location, a reason phrase): what an
// entry keeps of each, and so what Info, the Store and the log show, is
// at most maxServerText bytes, and the cache keeps its normal entries.
func TestFetchCapsServerStrings(t *testing.T) {
	longtest.Gate(t)
	checkLeaks(t)
	huge := strings.Repeat("x", 9_000_000)
	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	store := newMemStore()
	c := newTestClient(t, WithStore(store), WithLogger(logger))
	ctx := context.Background()
	var normal []*site
	for range 20 {
		s := newSite(t, serve(200, privateRules))
		normal = append(normal, s)
		if _, err := c.Check(ctx, s.URL+"/x"); err != nil {
			t.Fatal(err)
		}
	}
	var etags []*site
	for range 15 {
		etags = append(etags, newSite(t, serve(200, privateRules, "ETag", `"`+huge+`"`, "Last-Modified", huge[:1_000_000])))
	}
	etag := etags[0]
	long := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			// Longer than an entry keeps, short of the longest path a
			// check takes (a longer one is not followed).
			w.Header().Set("Location", "/robots2.txt?"+huge[:target.MaxPath-100])
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		_, _ = io.WriteString(w, privateRules)
	})
	reason := newHostilePeer(t, func(w io.Writer, _ <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 503 "+huge+"\r\nContent-Length: 0\r\n\r\n")
	})
	for _, s := range etags {
		if d, err := c.Check(ctx, s.URL+"/private"); d.Allowed || err != nil {
			t.Fatalf("huge ETag: %+v, %v", d, err)
		}
	}
	if d, err := c.Check(ctx, long.URL+"/private"); d.Allowed || err != nil {
		t.Fatalf("huge Location: %+v, %v", d, err)
	}
	_, err := c.Check(ctx, reason.url+"/x")
	if !errors.Is(err, ErrDeferred) || len(err.Error()) > 2*maxServerText {
		t.Errorf("huge reason: an error of %d bytes, %v", len(err.Error()), errors.Is(err, ErrDeferred))
	}
	for _, u := range []string{etag.URL, long.URL, reason.url} {
		info, _, ok := held(c, u)
		if !ok {
			t.Fatalf("%s not cached", u)
		}
		if len(info.ETag) > maxServerText || len(info.LastModified) > maxServerText || len(info.FinalURL) > maxServerText ||
			info.Err != nil && len(info.Err.Error()) > 2*maxServerText {
			t.Errorf("%s: Info keeps %d, %d, %d bytes", u, len(info.ETag), len(info.LastModified), len(info.FinalURL))
		}
		if v := store.get(info.Authority); len(v) > 4<<10 {
			t.Errorf("%s: the Store keeps %d bytes", u, len(v))
		}
	}
	if info, _, _ := held(c, etag.URL); info.ETag != "" || info.LastModified != "" {
		t.Errorf("a validator too long to keep whole was kept cut")
	}
	if st := c.Stats(); st.Evictions != 0 {
		t.Errorf("%d entries evicted", st.Evictions)
	}
	logMu.Lock()
	for _, line := range strings.Split(logs.String(), "\n") {
		if len(line) > 4*maxServerText {
			t.Errorf("a log line of %d bytes", len(line))
		}
	}
	logMu.Unlock()
	for _, s := range normal {
		if _, _, ok := held(c, s.URL); !ok {
			t.Errorf("%s was evicted", s.URL)
		}
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestFetchMislabelledCharsets serves a disallow-all file under charset
// labels that do not fit it, as misconfigured servers do: a label naming
// an encoding that would read the ASCII directives as garbage (WHATWG's
// replacement encoding, UTF-16 without its NULs) is not believed, and
// UTF-16 without a byte-order mark is read as UTF-16, and a UTF-8
// byte-order mark, or its leading part, says UTF-8. Believing them
// would turn the disallow into nothing, and so into allow-all.
func TestFetchMislabelledCharsets(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	for _, tc := range []struct{ ct, body string }{
		{"text/plain; charset=iso-2022-kr", "User-agent: *\nDisallow: /\n# caf\xe9\n"},
		{"text/plain; charset=hz-gb-2312", "User-agent: *\nDisallow: /\n# \xa9\n"},
		{"text/plain; charset=utf-16", "User-agent: *\nDisallow: /\n# caf\xe9\n"},
		{"text/plain; charset=utf-16be", "User-agent: *\nDisallow: /\n# \xa9\n"},
		{"text/plain; charset=utf-16le", utf16LE("User-agent: *\nDisallow: /\n")[2:]}, // no BOM
		{"text/plain", utf16LE("User-agent: *\nDisallow: /\n")[2:]},
		{"text/plain; charset=utf-16be", string(utf16BEBytes("User-agent: *\nDisallow: /\n"))},
		{"text/plain", "User-agent: *\nDisallow: /\n# \xa9\n"},
		// A byte-order mark, whole or its leading part, before a body
		// with a byte that is not UTF-8: read as another charset, the
		// mark became text that hid the first user-agent line.
		{"text/plain", "\xEF\xBB\xBFUser-agent: *\nDisallow: /\n# caf\xe9\n"},
		{"text/plain; charset=iso-8859-1", "\xEF\xBB\xBFUser-agent: *\nDisallow: /\n# caf\xe9\n"},
		{"text/plain", "\xEF\xBBUser-agent: *\nDisallow: /\n"},
		{"text/plain", "\xEFUser-agent: *\nDisallow: /\n"},
		// UTF-32, which a UTF-16 reading of its byte-order mark made
		// garbage of.
		{"text/plain", utf32LE("\uFEFFUser-agent: *\nDisallow: /\n")},
	} {
		s := newSite(t, serve(200, tc.body, "Content-Type", tc.ct))
		c := newTestClient(t)
		if ok, err := c.Allowed(ctx, s.URL+"/secret"); ok || err != nil {
			t.Errorf("%q, body %q: Allowed = %v, %v; want disallowed", tc.ct, tc.body, ok, err)
		}
	}
}

// utf32LE encodes s as UTF-32LE.
func utf32LE(s string) string {
	var b []byte
	for _, r := range s {
		b = binary.LittleEndian.AppendUint32(b, uint32(r))
	}
	return string(b)
}

// utf16BEBytes encodes s, ASCII, as UTF-16BE without a byte-order mark.
func utf16BEBytes(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, 0, s[i])
	}
	return b
}

// TestFetchNoBodyLimit: math.MaxInt64, the natural way to say "no
// limit", reads the body whole; it overflowed to reading nothing, which
// made every site allow-all.
func TestFetchNoBodyLimit(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /\n"))
	c := newTestClient(t, WithBodyLimit(math.MaxInt64))
	if ok, err := c.Allowed(context.Background(), s.URL+"/secret"); ok || err != nil {
		t.Errorf("Allowed = %v, %v; want disallowed", ok, err)
	}
	b, err := body.Read(strings.NewReader("User-agent: *\nDisallow: /\n"), nil, math.MaxInt64)
	if err != nil || string(b.Text) != "User-agent: *\nDisallow: /\n" || b.Truncated {
		t.Errorf("ReadBody with no limit: %q, %v", b.Text, err)
	}
}

// TestCharsetBodyCutAtLimit: a UTF-8 body cut in the middle of a character
// by the body limit stays UTF-8, and a non-ASCII rule before the cut
// still matches.
func TestCharsetBodyCutAtLimit(t *testing.T) {
	checkLeaks(t)
	rules := "User-agent: *\nDisallow: /café\n# "
	pad := 1000 - len(rules) - 1 // the limit falls inside the next "é"
	body := rules + strings.Repeat("x", pad) + "é and more\n"
	s := newSite(t, serve(200, body, "Content-Type", "text/plain"))
	c := newTestClient(t, WithBodyLimit(1000))
	d, err := c.Check(context.Background(), s.URL+"/café")
	if err != nil || d.Allowed || !matched(d) || d.Rule.Pattern != "/caf%C3%A9" {
		t.Fatalf("Check(/café) = %+v, %v; want disallowed by /caf%%C3%%A9", d, err)
	}
}

// TestFetchRedirectsListed: a Decision lists the redirects of its
// robots.txt fetch, each status with the URL it led to, the final one
// last, and none without redirects; a Store keeps them.
func TestFetchRedirectsListed(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/robots.txt", http.StatusMovedPermanently)
	})
	w.on("a.test/static/robots.txt", redirectTo("http://www.a.test/robots.txt"))
	w.on("www.a.test/robots.txt", serve(200, privateRules))
	w.on("b.test/robots.txt", serve(200, privateRules))
	store := newMemStore()
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(store))
	d, err := c.Check(context.Background(), "http://a.test/private/x")
	want := []Redirect{{Status: 301, URL: "http://a.test/static/robots.txt"}, {Status: 302, URL: "http://www.a.test/robots.txt"}}
	if err != nil || d.Allowed || !slices.Equal(d.Redirects(), want) || d.FinalURL != want[1].URL {
		t.Errorf("a.test: %+v (Redirects %v), %v; want disallowed after the hops %v", d, d.Redirects(), err, want)
	}
	shared := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(store))
	if d, err := shared.Check(context.Background(), "http://a.test/private/x"); err != nil || !slices.Equal(d.Redirects(), want) ||
		fetches(shared.Stats()) != 0 {
		t.Errorf("a.test from the Store: Redirects %v, %v, %d fetches; want %v, none fetched", d.Redirects(), err, fetches(shared.Stats()), want)
	}
	if d, err := c.Check(context.Background(), "http://b.test/"); err != nil || d.Redirects() != nil || d.FinalURL != "" {
		t.Errorf("b.test: Redirects %v, FinalURL %q, %v; want none", d.Redirects(), d.FinalURL, err)
	}
}

// TestErrorPolicyAllowAllIsNoCopy: the allow-all a WithErrorPolicy gives
// a failure with no response (a name that no longer resolves) is no copy
// of a robots.txt: it does not stand in for the server's later 503,
// which defers, and a receipt resting on it fails closed (train-ai=n),
// where it stood in for 30 days and the receipt said the page's
// train-ai=y.
func TestErrorPolicyAllowAllIsNoCopy(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(503, "down"))
	hc, next, down := unresolving(t)
	down.Store(true)
	c := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), dnsOnly)
	ctx := context.Background()
	if d, err := c.Check(ctx, s.URL+"/private"); !d.Allowed || err != nil {
		t.Fatalf("the name gone: %+v, %v; want the policy's allow-all", d, err)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/page", nil)
	page := &http.Response{StatusCode: 200, Header: http.Header{"Content-Usage": {"train-ai=y"}}, Request: req}
	if r := NewTransport(c, next).Receipt(page, nil); r.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("a receipt on the policy's allow-all: %q; want train-ai=n, no robots.txt read", r.Usage.statement())
	}
	down.Store(false) // the name resolves again; the server answers 503
	clock.Advance(25 * time.Hour)
	if d, err := c.Check(ctx, s.URL+"/private"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("a 503 after the policy's allow-all expired: %+v, %v; want deferred", d, err)
	}
}

// TestFetchValidatorsOnlyWhereTheyCameFrom: a robots.txt whose redirect
// now leads elsewhere is not revalidated there with the old body's
// validators: a 304 from the new URL (a server answering If-None-Match
// for any file) cannot keep the old rules.
func TestFetchValidatorsOnlyWhereTheyCameFrom(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("http://a.test/old.txt"))
	w.on("a.test/old.txt", serve(200, privateRules, "ETag", `"v1"`, "Cache-Control", "max-age=60"))
	w.on("a.test/new.txt", func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" {
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		serve(200, "User-agent: *\nDisallow: /\n")(rw, r)
	})
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	if d, _ := c.Check(ctx, "http://a.test/x"); !d.Allowed || d.FinalURL != "http://a.test/old.txt" {
		t.Fatalf("first: %+v", d)
	}
	w.on("a.test/robots.txt", redirectTo("http://a.test/new.txt"))
	clock.Advance(2 * time.Minute)
	if d, _ := c.Check(ctx, "http://a.test/x"); d.Allowed || d.FinalURL != "http://a.test/new.txt" {
		t.Errorf("after the redirect moved: Allowed %v, FinalURL %q; want the new file's rules", d.Allowed, d.FinalURL)
	}
}

// TestFillPanicReachesItsCallers: a panic in a fill (here the caller's
// RoundTripper) is raised again in the goroutine of each check that
// shares it, which may recover it, also for a check whose context can
// end; the authority is then fetched as any other. singleflight raised it
// in a goroutine of its own, which killed the process.
func TestFillPanicReachesItsCallers(t *testing.T) {
	checkLeaks(t)
	var calls atomic.Int32
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if calls.Add(1) == 1 {
			panic("boom in the caller's RoundTripper")
		}
		return &http.Response{StatusCode: 404, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	func() {
		defer func() {
			if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "boom") {
				t.Errorf("recovered %v, want the RoundTripper's panic", v)
			}
		}()
		_, _ = c.Check(ctx, "http://a.test/page")
		t.Error("Check returned")
	}()
	if d, err := c.Check(ctx, "http://a.test/page"); err != nil || d.Outcome != OutcomeAllowAll {
		t.Errorf("after the panic: %+v, %v; want a 404's allow-all", d, err)
	}
}

// unprintable is a panic value that fmt cannot print: its String panics
// with such a value again.
type unprintable struct{}

func (unprintable) String() string { panic(unprintable{}) }

// TestFillPanicUnprintable: a fill's panic whose value fmt cannot print
// is raised in the check, described by its type, and logged: printing it
// in the fill's goroutine, to log it, ended the process.
func TestFillPanicUnprintable(t *testing.T) {
	checkLeaks(t)
	var logs syncBuffer
	next := roundTripFunc(func(*http.Request) (*http.Response, error) { panic(unprintable{}) })
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	func() {
		defer func() {
			err, _ := recover().(error)
			if err == nil || !strings.Contains(err.Error(), "a robotstxt.unprintable that panics when printed") {
				t.Errorf("recovered %v, want the RoundTripper's panic, described", err)
			}
		}()
		_, _ = c.Check(ctx, "http://a.test/page")
		t.Error("Check returned")
	}()
	if !strings.Contains(logs.String(), "robotstxt.unprintable") {
		t.Errorf("logged %q, want the panic", logs.String())
	}
}

// TestFillPanicLoggedWhenCallersLeft: a fill's panic is logged, for
// when every check that shared the fill gave up before it came: it was
// raised to nobody, and a RoundTripper that always panicked looked like
// a slow site.
func TestFillPanicLoggedWhenCallersLeft(t *testing.T) {
	checkLeaks(t)
	var logs syncBuffer
	next := roundTripFunc(func(*http.Request) (*http.Response, error) {
		time.Sleep(50 * time.Millisecond)
		panic("boom in the caller's RoundTripper")
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	_, _ = c.Allowed(ctx, "http://panics.test/x")
	cancel()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "robots.txt fill panicked"); {
		if time.Now().After(deadline) {
			t.Fatalf("no panic logged: %q", logs.String())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestHopFillPanicLoggedOnce: a panic in the fill of a redirect's hop,
// raised again in the fill of the robots.txt that redirected, is logged
// once, as the hop's: it was logged again as the other site's.
func TestHopFillPanicLoggedOnce(t *testing.T) {
	checkLeaks(t)
	var logs syncBuffer
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		switch req.URL.Host + req.URL.Path {
		case "a.test/robots.txt":
			return &http.Response{StatusCode: 301, Header: http.Header{"Location": {"http://b.test/r"}}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
		case "b.test/robots.txt":
			panic("boom in b's robots.txt")
		}
		return &http.Response{StatusCode: 404, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	func() {
		defer func() {
			if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "boom") {
				t.Errorf("recovered %v, want the RoundTripper's panic", v)
			}
		}()
		_, _ = c.Check(context.Background(), "http://a.test/page")
	}()
	if n := strings.Count(logs.String(), "fill panicked"); n != 1 || !strings.Contains(logs.String(), "authority=http://b.test:80") {
		t.Errorf("the panic logged %d times, want once, as b.test's:\n%s", n, logs.String())
	}
}

// closerFunc is an io.Closer of a function.
type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// donePanicPacer is a Pacer whose Done panics from its second call on.
type donePanicPacer struct {
	*memPacer
	calls *atomic.Int32
}

func (p donePanicPacer) Done(ctx context.Context, authority string, id uint64, interval, hold time.Duration) error {
	if p.calls.Add(1) > 1 {
		panic("boom in the caller's Pacer.Done")
	}
	return p.memPacer.Done(ctx, authority, id, interval, hold)
}

// TestCutTurnPanicReachesItsCallers: the body of a redirect that a hop to
// another site (which takes that site's turn, after its robots.txt's)
// answered, that does not drain within drainWait, is closed from a
// timer, which ends the turn; a panic there (in the caller's Pacer.Done
// or body's Close) is raised in the check, which may recover it, not in
// the timer's goroutine, where it killed the process.
func TestCutTurnPanicReachesItsCallers(t *testing.T) {
	for _, what := range []string{"Pacer.Done", "body's Close"} {
		t.Run(what, func(t *testing.T) {
			checkLeaks(t)
			next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
				redirect := map[string]string{"a.test/robots.txt": "http://b.test/r", "b.test/r": "http://b.test/final"}
				if to, ok := redirect[req.URL.Host+req.URL.Path]; ok {
					// A body that never comes, whose reader a close frees
					// a little later, as a connection's may.
					pr, pw := io.Pipe()
					body := struct {
						io.Reader
						io.Closer
					}{pr, closerFunc(func() error {
						time.AfterFunc(50*time.Millisecond, func() { pw.Close() })
						if what == "body's Close" && req.URL.Path == "/r" {
							panic("boom in the caller's body's Close")
						}
						return nil
					})}
					return &http.Response{StatusCode: 301, Header: http.Header{"Location": {to}}, Body: body, Request: req}, nil
				}
				return &http.Response{StatusCode: 404, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
			})
			c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}))
			if what == "Pacer.Done" {
				NewTransport(c, nil, WithPacer(donePanicPacer{newMemPacer(), new(atomic.Int32)})) // b's robots.txt ends its turn
			}
			func() {
				defer func() {
					if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), what) {
						t.Errorf("recovered %v, want the panic in the %s", v, what)
					}
				}()
				_, _ = c.Check(context.Background(), "http://a.test/page")
				t.Error("Check returned")
			}()
		})
	}
}

// TestFetchBodyClosePanicEndsTheTurn: a redirect's body that panics in
// Close (the caller's RoundTripper's), closed by the fill that drains it,
// still ends the turn its hop took at the other site: the site was held
// for the turn's lease, 30 s, not its Crawl-delay.
func TestFetchBodyClosePanicEndsTheTurn(t *testing.T) {
	checkLeaks(t)
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		ok := func(body string) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
		}
		switch req.URL.Host + req.URL.Path {
		case "a.test/robots.txt":
			return &http.Response{StatusCode: 301, Header: http.Header{"Location": {"http://b.test/r"}}, Body: http.NoBody, Request: req}, nil
		case "b.test/robots.txt":
			return ok("User-agent: *\nCrawl-delay: 0.01\n")
		case "b.test/r": // more than drainLimit: closed, not read to its end
			body := struct {
				io.Reader
				io.Closer
			}{strings.NewReader(strings.Repeat("x", 2*drainLimit)), closerFunc(func() error { panic("boom in the caller's body's Close") })}
			return &http.Response{StatusCode: 301, Header: http.Header{"Location": {"http://b.test/final"}}, Body: body, Request: req}, nil
		}
		return ok("page")
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}))
	hc := &http.Client{Transport: NewTransport(c, next, WithNoWait())}
	func() {
		defer func() {
			if v := recover(); v == nil {
				t.Error("the body's panic did not reach the check")
			}
		}()
		_, _ = c.Check(context.Background(), "http://a.test/page")
	}()
	time.Sleep(50 * time.Millisecond) // past b's Crawl-delay
	if _, err := get(context.Background(), hc, "http://b.test/page"); err != nil {
		t.Errorf("a request to b.test after its Crawl-delay: %v", err)
	}
}

// panicStore is a Store whose Get panics.
type panicStore struct{ *memStore }

func (panicStore) Get(context.Context, string) ([]byte, error) { panic("boom in the caller's Store") }

// slowPanicStore is a Store whose Get panics after 100 ms.
type slowPanicStore struct{ *memStore }

func (slowPanicStore) Get(context.Context, string) ([]byte, error) {
	time.Sleep(100 * time.Millisecond)
	panic("boom in the caller's slow Store")
}

// TestStorePanicReachesItsCallers: a panic in a Store's Get is raised in
// the check that asked, which may recover it, also when the check's
// deadline is sooner than the Store timeout, whose lookups share one call
// that runs on past them: singleflight raised that one's panic in a
// goroutine of its own, which killed the process. A panic after its
// callers have left is logged.
func TestStorePanicReachesItsCallers(t *testing.T) {
	checkLeaks(t)
	c := newTestClient(t, WithStore(panicStore{newMemStore()}), WithStoreTimeout(time.Hour),
		WithHTTPClient(&http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 404, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
		})}))
	// A panic after its callers have left is logged.
	var logs syncBuffer
	c2 := newTestClient(t, WithStore(slowPanicStore{newMemStore()}), WithStoreTimeout(time.Hour),
		WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	if _, err := c2.Check(ctx, "http://a.test/page"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a check whose deadline ends first: %v", err)
	}
	cancel()
	for start := time.Now(); !strings.Contains(logs.String(), "Store lookup panicked"); time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("a Store's panic after its callers left was not logged: %q", logs.String())
		}
	}
	for _, wait := range []time.Duration{2 * time.Hour, 10 * time.Second} {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		func() {
			defer func() {
				if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "boom") {
					t.Errorf("deadline %v: recovered %v, want the Store's panic", wait, v)
				}
			}()
			_, _ = c.Check(ctx, "http://a.test/page")
			t.Errorf("deadline %v: Check returned", wait)
		}()
		cancel()
	}
}

// TestFetchUnneededBodyStalls: a body the fetch does not need, a
// redirect's or an error page's, that stops short of its Content-Length
// on an open connection is given up after drainWait, not waited for to
// the fetch's deadline: curl and browsers follow a Location at the
// headers, and a 404 allows all whatever its page.
func TestFetchUnneededBodyStalls(t *testing.T) {
	checkLeaks(t)
	target := newSite(t, serve(200, privateRules))
	for _, tc := range []struct {
		head string
		want Outcome
	}{
		{"HTTP/1.1 301 Moved Permanently\r\nLocation: " + target.URL + "/robots.txt\r\n", OutcomeRules},
		{"HTTP/1.1 404 Not Found\r\n", OutcomeAllowAll},
	} {
		p := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
			_, _ = io.WriteString(w, tc.head+"Content-Length: 200\r\n\r\n<a href=x>Moved</a>")
		})
		c := newTestClient(t, WithFetchTimeout(time.Minute))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		d, err := c.Check(ctx, p.url+"/private")
		cancel()
		if d.Outcome != tc.want || err != nil {
			t.Errorf("%q: %v, %v; want %v at once", tc.head, d.Outcome.name(), err, tc.want.name())
		}
	}
}

// TestErrorPolicyAllowAllIsAFailure: the allow-all a WithErrorPolicy gives
// a failure with no response is a failure all the same: a good copy
// stands in for it (a name that fails to resolve for a moment does not
// replace the site's Disallow: / for a day), and without one it is
// asked again on the back-off, not the freshness cap.
func TestErrorPolicyAllowAllIsAFailure(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /\n"))
	hc, _, down := unresolving(t)
	c := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), dnsOnly, WithBackoff(time.Minute, time.Hour))
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, s.URL+"/page"); ok || err != nil {
		t.Fatalf("first: %v, %v; want disallowed", ok, err)
	}
	clock.Advance(25 * time.Hour)
	down.Store(true)
	d, err := c.Check(ctx, s.URL+"/page")
	if d.Allowed || err != nil || !d.Stale || d.Failures != 1 || d.Err == nil {
		t.Errorf("a DNS failure a day on: %+v, %v; want the good copy standing in, one failure", d, err)
	}
	down.Store(false)
	clock.Advance(2 * time.Minute)
	if d, err := c.Check(ctx, s.URL+"/page"); d.Allowed || err != nil || d.Stale || s.hits.Load() != 2 {
		t.Errorf("the name back, past the back-off: %+v, %v, %d fetches; want the site's rules again", d, err, s.hits.Load())
	}
	// Without a good copy: the policy's allow-all, asked again on the
	// back-off.
	cold := newSite(t, serve(200, "User-agent: *\nDisallow: /\n"))
	down.Store(true)
	d, err = c.Check(ctx, cold.URL+"/page")
	if !d.Allowed || err != nil || d.Failures != 1 || d.Expires.Sub(clock.Now()) > time.Minute {
		t.Errorf("a name that does not resolve: %+v, %v; want the policy's allow-all, on a minute's back-off", d, err)
	}
	down.Store(false)
	clock.Advance(2 * time.Minute)
	if ok, err := c.Allowed(ctx, cold.URL+"/page"); ok || err != nil {
		t.Errorf("the name back: %v, %v; want the site's rules", ok, err)
	}
}

// TestErrorPolicyDisallowAllIsAFailure: the disallow-all a WithErrorPolicy
// gives a failure with no response is a failure too: the Decision counts
// it and holds its error, no good copy stands in for it (the policy is
// stricter), and the site is asked again on the back-off, not a day
// later.
func TestErrorPolicyDisallowAllIsAFailure(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules))
	hc, _, down := unresolving(t)
	strict := WithErrorPolicy(func(err error) Outcome {
		if dns := (*net.DNSError)(nil); errors.As(err, &dns) && dns.IsNotFound {
			return OutcomeDisallowAll
		}
		return OutcomeUnreachable
	})
	c := newTestClient(t, WithHTTPClient(hc), WithClock(clock.Now), strict, WithBackoff(time.Minute, time.Hour))
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, s.URL+"/page"); !ok || err != nil {
		t.Fatalf("first: %v, %v; want allowed", ok, err)
	}
	clock.Advance(25 * time.Hour)
	down.Store(true)
	d, err := c.Check(ctx, s.URL+"/page")
	if d.Allowed || d.Outcome != OutcomeDisallowAll || d.Stale || d.Failures != 1 || d.Err == nil || d.Expires.Sub(clock.Now()) > time.Minute {
		t.Errorf("a DNS failure a day on: %+v, %v; want the policy's disallow-all, one failure, on a minute's back-off", d, err)
	}
	down.Store(false)
	clock.Advance(2 * time.Minute)
	if d, err := c.Check(ctx, s.URL+"/page"); !d.Allowed || err != nil || d.Failures != 0 || s.hits.Load() != 2 {
		t.Errorf("the name back, past the back-off: %+v, %v, %d fetches; want the site's rules again", d, err, s.hits.Load())
	}
}

// changedFile serves a robots.txt: v1 (ETag "v1") until changed is set,
// then v2, Disallow: / (ETag "v2"), with the same Last-Modified (a deploy
// that kept file times), answering 304 to an If-Modified-Since of it, as
// a server that judges that alone does.
func changedFile(changed *atomic.Bool, v1 string) http.HandlerFunc {
	const lastMod = "Sat, 01 Mar 2025 10:00:00 GMT"
	return func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Cache-Control", "max-age=3600")
		rw.Header().Set("Last-Modified", lastMod)
		if !changed.Load() {
			rw.Header().Set("ETag", `"v1"`)
			_, _ = rw.Write([]byte(v1))
			return
		}
		rw.Header().Set("ETag", `"v2"`)
		if r.Header.Get("If-Modified-Since") == lastMod { // If-None-Match not consulted
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = rw.Write([]byte("User-agent: *\nDisallow: /\n"))
	}
}

// TestFetch304OfAnotherBody: the site's file changed (ETag "v2") but not
// its Last-Modified (a deploy that kept file times), and a server that
// judges If-Modified-Since alone answers the revalidation 304, naming
// "v2": that 304 renews no copy for long (RFC 9111 §4.3.4). The copy
// answers for the least freshness, without its validators, and the next
// fetch reads the new file: also where the file is another site's, a
// redirect away, whose Crawl-delay paces that fetch.
func TestFetch304OfAnotherBody(t *testing.T) {
	checkLeaks(t)
	var v2 atomic.Bool
	file := changedFile(&v2, "User-agent: *\nCrawl-delay: 1\nDisallow: /private\n")
	w := newHosts(t)
	w.on("a.test/robots.txt", file)
	w.on("b.test/robots.txt", redirectTo("http://cdn.test/robots.txt"))
	w.on("cdn.test/robots.txt", file)
	for _, site := range []string{"a.test", "b.test"} {
		v2.Store(false)
		clock := newTestClock()
		c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		ctx := context.Background()
		u := "http://" + site + "/x"
		if d, err := c.Check(ctx, u); !d.Allowed || err != nil || d.ETag != `"v1"` {
			t.Fatalf("%s: first fetch: %+v, %v", site, d, err)
		}
		v2.Store(true)
		clock.Advance(2 * time.Hour)
		d, err := c.Check(ctx, u)
		if !d.Allowed || d.Stale || d.ETag != "" || err != nil || d.Expires.Sub(clock.Now()) > time.Minute {
			t.Errorf("%s: after a 304 naming \"v2\": allowed %v, stale %v, ETag %q, fresh for %v, %v; want the copy, without validators, for a minute",
				site, d.Allowed, d.Stale, d.ETag, d.Expires.Sub(clock.Now()), err)
		}
		clock.Advance(time.Minute)
		d, err = c.Check(ctx, u)
		if d.Allowed || d.Stale || d.ETag != `"v2"` || err != nil {
			t.Errorf("%s: a minute on: allowed %v, stale %v, ETag %q, %v; want the new file read: /x disallowed",
				site, d.Allowed, d.Stale, d.ETag, err)
		}
	}
}

// TestFetch304OfAnotherBodyKeepsFetchedAt: a 304 naming another ETag
// revalidates nothing (RFC 9111 §4.3.4): the copy's FetchedAt stays its
// last fetch, and its stale window counts from there.
func TestFetch304OfAnotherBodyKeepsFetchedAt(t *testing.T) {
	checkLeaks(t)
	var changed, down atomic.Bool
	file := changedFile(&changed, "User-agent: *\nDisallow: /private\n")
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		file(w, r)
	})
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	d0, err := c.Check(ctx, s.URL+"/x")
	if err != nil || !d0.Allowed {
		t.Fatalf("first: %+v %v", d0, err)
	}
	changed.Store(true)
	clock.Advance(29 * 24 * time.Hour)
	d, err := c.Check(ctx, s.URL+"/x")
	if err != nil || d.ETag != "" {
		t.Fatalf("304 naming v2: %+v %v", d, err)
	}
	if !d.FetchedAt.Equal(d0.FetchedAt) {
		t.Errorf("disowned copy: FetchedAt %v (the 304's time), want %v: the 304 revalidated nothing", d.FetchedAt, d0.FetchedAt)
	}
	down.Store(true)
	clock.Advance(2 * 24 * time.Hour) // day 31: past v1's stale window counted from its fetch
	for i := 0; i < 3; i++ {
		d, err = c.Check(ctx, s.URL+"/x")
		clock.Advance(3 * time.Hour)
	}
	if err == nil && d.Stale {
		t.Errorf("day 31+, server down: v1 (fetched day 0, disowned day 29) still stands in: %+v; want it out of its 30-day window", d)
	}
}

// TestOtherBody: a 304 names another body when its ETag and the copy's
// differ but for a weak mark; when no ETag is on both, when its
// Last-Modified and the copy's are other dates (the same instant written
// otherwise is the same); never when neither validator is on both.
func TestOtherBody(t *testing.T) {
	const date, sameDate, otherDate = "Sat, 01 Mar 2025 11:00:00 GMT", "Saturday, 01-Mar-25 11:00:00 GMT", "Thu, 30 Jan 2025 12:00:00 GMT"
	both := &entry{persisted: persisted{outcome: OutcomeRules, status: 200, etag: `W/"v1"`, lastMod: date}}
	dated := &entry{persisted: persisted{outcome: OutcomeRules, status: 200, lastMod: date}}
	tagged := &entry{persisted: persisted{outcome: OutcomeRules, status: 200, etag: `"v1"`}}
	for _, tc := range []struct {
		kept           *entry
		etag, modified string
		want           bool
	}{
		{both, `"v1"`, "", false},
		{both, `W/"v1"`, otherDate, false}, // the ETag decides
		{both, `"v2"`, date, true},
		{both, `W/"v2"`, "", true},
		{both, "", date, false},
		{both, "", otherDate, true},
		{dated, `"v2"`, date, false},
		{dated, "", sameDate, false},
		{dated, "", otherDate, true},
		{dated, "", "not a date", true},
		{dated, "", "", false},
		{tagged, "", otherDate, false},
		{tagged, "", "", false},
		{&entry{persisted: persisted{outcome: OutcomeRules, status: 200}}, `"v2"`, otherDate, false},
		{nil, `"v2"`, otherDate, false},
	} {
		h := http.Header{}
		if tc.etag != "" {
			h.Set("ETag", tc.etag)
		}
		if tc.modified != "" {
			h.Set("Last-Modified", tc.modified)
		}
		var etag, lastMod string
		if tc.kept != nil {
			etag, lastMod = tc.kept.etag, tc.kept.lastMod
		}
		if got := otherBody(tc.kept, h); got != tc.want {
			t.Errorf("copy (%q, %q), 304 (%q, %q): otherBody %v, want %v", etag, lastMod, tc.etag, tc.modified, got, tc.want)
		}
	}
}

// TestFetch304OfRolledBackFile: a site serving robots.txt with net/http's
// ServeContent, which sends no ETag, rolls it back to an older file. It
// answers the copy's If-Modified-Since with a 304 carrying the older
// file's Last-Modified: that revalidates nothing, and the file it serves
// now is read at the next fetch, its Disallow obeyed.
func TestFetch304OfRolledBackFile(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	var mu sync.Mutex
	body, modtime := "User-agent: *\nAllow: /\n", clock.Now().Add(-time.Hour)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		b, m := body, modtime
		mu.Unlock()
		w.Header().Set("Cache-Control", "max-age=86400")
		http.ServeContent(w, r, "robots.txt", m, strings.NewReader(b))
	})
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, s.URL+"/private/x"); !ok || err != nil {
		t.Fatalf("first fetch: %v, %v; want allowed", ok, err)
	}
	mu.Lock()
	body, modtime = "User-agent: *\nDisallow: /private\n", clock.Now().Add(-30*24*time.Hour)
	mu.Unlock()
	clock.Advance(25 * time.Hour)
	_, _ = c.Check(ctx, s.URL+"/private/x") // a 304 of the older file
	clock.Advance(2 * time.Minute)          // past the least freshness
	if d, err := c.Check(ctx, s.URL+"/private/x"); d.Allowed || err != nil {
		t.Errorf("after the 304 of an older file: %+v, %v; want the file served now read, /private/x disallowed", d, err)
	}
	if n := s.hits.Load(); n != 3 {
		t.Errorf("%d fetches, want 3: the first, the 304, the file read whole", n)
	}
}

// cutAt returns a robots.txt of head, comment lines, and last the line
// rule, placed so that the 500 KiB body limit falls keep bytes into it.
func cutAt(head, rule string, keep int) string {
	const limit = 500 << 10
	var sb strings.Builder
	sb.WriteString(head)
	for sb.Len() < limit-keep-81 {
		sb.WriteString("#" + strings.Repeat("x", 78) + "\n")
	}
	for sb.Len() < limit-keep-1 {
		sb.WriteByte('#')
	}
	sb.WriteString("\n" + rule + "\nUser-agent: OtherBot\nDisallow: /\n")
	return sb.String()
}

// TestFetchCutLineWeighsAsGoogle: a disallow the body limit cuts inside
// a character or an escape beats an allow as the whole rule does, and as
// Google's parser, reading the first 500 KiB as they stand, weighs it:
// kept without the cut part, it tied "Allow: /dir/" and lost, and a URL
// both the whole file and its first 500 KiB disallow was allowed. A
// Content-Usage rule cut in its statement keeps its path, stating
// train-ai=n whatever it said (what was cut may have been a refusal):
// dropped, the shorter rule's train-ai=y answered for it.
func TestFetchCutLineWeighsAsGoogle(t *testing.T) {
	checkLeaks(t)
	const path = "/dir/%E7%89%B9%E6%AE%8A/page"
	for _, tc := range []struct {
		name, body string
		want       func(d Decision) bool
	}{
		{"a character", cutAt("User-agent: *\nAllow: /dir/\n", "Disallow: /dir/特殊/", len("Disallow: /dir/")+2),
			func(d Decision) bool { return !d.Allowed }},
		{"an escape", cutAt("User-agent: *\nAllow: /dir/\n", "Disallow: /dir/%E7%89%B9%E6%AE%8A/", len("Disallow: /dir/%E")),
			func(d Decision) bool { return !d.Allowed }},
		{"a bare percent", cutAt("User-agent: *\nAllow: /dir/\n", "Disallow: /dir/%E7%89%B9%E6%AE%8A/", len("Disallow: /dir/%")),
			func(d Decision) bool { return !d.Allowed }},
		{"a usage statement", cutAt("User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n", "Content-Usage: /dir/ train-ai=y", len("Content-Usage: /dir/ train-a")),
			func(d Decision) bool { return d.Allowed && d.Usage.Pref("train-ai") == PrefNo }},
		// review128, consent81: these were dropped, the cut line stating
		// nothing.
		{"a usage statement without a path", cutAt("User-agent: *\nAllow: /\n", "Content-Usage: train-ai=y, search=y", len("Content-Usage: train-ai=y, sea")),
			func(d Decision) bool { return d.Allowed && d.Usage.Pref("train-ai") == PrefNo }},
		{"a usage path", cutAt("User-agent: *\nAllow: /\nContent-Usage: /dir/ train-ai=y\n", "Content-Usage: /dir/%E7%89%B9/ train-ai=y", len("Content-Usage: /dir/%E7")),
			func(d Decision) bool { return d.Allowed && d.Usage.Pref("train-ai") == PrefNo }},
		{"a Content-Signal record", cutAt("User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n", "Content-Signal: search=no, ai-train=yes", len("Content-Signal: search=no, ai-tr")),
			func(d Decision) bool {
				return d.Allowed && d.Usage.Pref("train-ai") == PrefNo && d.Usage.Pref("search") == PrefNo
			}},
		{"a file-wide Content-Signal record", cutAt("", "Content-Signal: ai-train=yes, search=yes", len("Content-Signal: ai-train=yes, se")),
			func(d Decision) bool { return d.Allowed && d.Usage.Pref("train-ai") == PrefNo }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSite(t, tc.body)
			c := newTestClient(t, WithProductTokens("FooBot"))
			d, err := c.Check(context.Background(), s.URL+path)
			if err != nil || !tc.want(d) {
				t.Errorf("%s: allowed %v by %+v, train-ai %v, %v", path, d.Allowed, d.Rule, d.Usage.Pref("train-ai"), err)
			}
		})
	}
}

// TestFetchCutCharacterOtherCharset: a disallow the limit cuts within a
// character of a GBK or UTF-16 body beats an allow as the UTF-8 one does
// (see TestFetchCutLineWeighsAsGoogle): the character, left out when the
// body was converted, was made up for by nothing, and Disallow: /dir/特殊/
// read as Disallow: /dir/, tied Allow: /dir/ and lost.
func TestFetchCutCharacterOtherCharset(t *testing.T) {
	checkLeaks(t)
	const path = "/dir/%E7%89%B9%E6%AE%8A/page"
	gbkRule, err := simplifiedchinese.GBK.NewEncoder().String("Disallow: /dir/特殊/")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("gbk", func(t *testing.T) {
		body := cutAt("User-agent: *\nAllow: /dir/\n", gbkRule, len("Disallow: /dir/")+1)
		s := newTestSite(t, "")
		s.route("/robots.txt", serve(200, body, "Content-Type", "text/plain; charset=gbk"))
		c := newTestClient(t, WithProductTokens("FooBot"))
		d, err := c.Check(context.Background(), s.URL+path)
		if err != nil || d.Allowed {
			t.Errorf("%s: allowed %v by %+v, %v; want disallowed, as for a UTF-8 body", path, d.Allowed, d.Rule, err)
		}
	})
	t.Run("utf-16le", func(t *testing.T) {
		// The limit falls between the surrogates of 𠮷 (U+20BB7): a
		// UTF-16 body's cut is always at a code unit's boundary.
		const limit = 500 << 10
		const upath = "/dir/%F0%A0%AE%B7/page"
		rule := "Disallow: /dir/𠮷/"
		pad := []byte("User-agent: *\nAllow: /dir/\n")
		n := (limit - 2 - 2*len("Disallow: /dir/") - 2) / 2 // units before the rule line
		for len(pad) < n-1 {
			pad = append(pad, '#')
		}
		pad = append(pad, '\n')
		enc := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder()
		body, err := enc.String(string(pad) + rule + "\nUser-agent: OtherBot\nDisallow: /\n")
		if err != nil {
			t.Fatal(err)
		}
		s := newTestSite(t, "")
		s.route("/robots.txt", serve(200, body, "Content-Type", "text/plain"))
		c := newTestClient(t, WithProductTokens("FooBot"))
		d, err := c.Check(context.Background(), s.URL+upath)
		if err != nil || d.Allowed {
			t.Errorf("%s: allowed %v by %+v, %v; want disallowed, as for a UTF-8 body", upath, d.Allowed, d.Rule, err)
		}
	})
}

// TestFetchCutUsagePathDropped: a Content-Usage rule the limit cuts
// within its path is dropped: kept, the cut path, a prefix covering more
// than the whole rule and stating nothing, took a site-wide train-ai=n
// from paths the rule never named (/blocked/page, by the "/bl" of
// "/blog/ train-ai=y").
func TestFetchCutUsagePathDropped(t *testing.T) {
	checkLeaks(t)
	const path = "/blocked/page"
	head := "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n"
	for _, tc := range []struct {
		name, rule string
		keep       int
	}{
		{"prefix of the path", "Content-Usage: /blog/ train-ai=y", len("Content-Usage: /bl")},
		{"a '$' trimmed", "Content-Usage: /b$ train-ai=y", len("Content-Usage: /b$")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := Parse([]byte(cutAt(head, tc.rule, len(tc.rule)+1)))
			if p := whole.Usage("FooBot", "http://example.com"+path).Pref("train-ai"); p != PrefNo {
				t.Fatalf("the whole file: train-ai %v, want n", p)
			}
			s := newTestSite(t, cutAt(head, tc.rule, tc.keep))
			c := newTestClient(t, WithProductTokens("FooBot"))
			d, err := c.Check(context.Background(), s.URL+path)
			if err != nil || d.Usage.Pref("train-ai") != PrefNo {
				t.Errorf("%s: train-ai %v, %v; want n, as the whole file says: the cut rule never named this path", path, d.Usage.Pref("train-ai"), err)
			}
		})
	}
}

// TestFetchLeadingFullWidthHash: a UTF-8 robots.txt that begins with a
// full-width "＃" (EF BC 83) comment, served as text/plain, is read as
// UTF-8: read as windows-1252, "Disallow: /café/" became "/cafÃ©/" and
// the page it disallows was allowed.
func TestFetchLeadingFullWidthHash(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "")
	s.route("/robots.txt", serve(200, "＃ robots.txt\nUser-agent: *\nDisallow: /café/\n", "Content-Type", "text/plain"))
	c := newTestClient(t, WithProductTokens("FooBot"))
	if d, err := c.Check(context.Background(), s.URL+"/caf%C3%A9/page"); err != nil || d.Allowed {
		t.Errorf("/café/page: allowed %v by %+v, %v; want disallowed by line 3", d.Allowed, d.Rule, err)
	}
}

// TestFetchRedirectToCapitalIDNOverHTTP2: a robots.txt redirected to
// another site's, its host written with a capital letter
// ("https://WWW.bücher.test/robots.txt"), is fetched there over HTTP/2
// on one connection: net/http's pool missed the connection it dialled
// (see TestTransportCapitalIDNOverHTTP2), and the third site got
// hundreds of TLS connections a second for the whole fetch timeout, on
// every check of the redirecting site.
func TestFetchRedirectToCapitalIDNOverHTTP2(t *testing.T) {
	next, sites := h2Transport(t, map[string]http.HandlerFunc{
		"hostile.test:443": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://WWW.b\u00fccher.test/robots.txt", http.StatusMovedPermanently)
		},
		"www.xn--bcher-kva.test:443": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		},
	})
	c, _ := NewClientTransport(next, []Option{WithUserAgent(testUA), WithFetchTimeout(2 * time.Second)})
	t.Cleanup(func() { _ = c.Close() })
	ok, err := c.Allowed(context.Background(), "https://hostile.test/private/x")
	if third := sites["www.xn--bcher-kva.test:443"]; ok || err != nil || third.dials.Load() > 1 || third.requests.Load() != 1 {
		t.Errorf("robots.txt redirected to https://WWW.b\u00fccher.test/robots.txt: %v, %v; that site got %d connections and %d requests",
			ok, err, third.dials.Load(), third.requests.Load())
	}
}

// TestTDMRepFileReadAsSent: a tdmrep.json is read in UTF-8, as JSON is
// (RFC 8259 §8.1), or in the charset its Content-Type names. A UTF-8
// file with one stray byte was read as Windows-1252, and one said to be
// UTF-8 that was not read with U+FFFD: either way the reservation of
// "/café/" matched no URL and the page read as not reserved; so did a
// file said to be in a charset its bytes are not of. Such a file is
// unreadable, which reserves every page, as is one in another charset
// holding a U+FFFD, whose own or not cannot be told; a file in the
// charset its header names is read.
func TestTDMRepFileReadAsSent(t *testing.T) {
	checkLeaks(t)
	const stray = "{\"location\":\"/old\",\"tdm-reservation\":0,\"tdm-policy\":\"https://a.test/p\xe9\"}" // one Latin-1 byte
	for _, tc := range []struct {
		name, file, contentType string
		reserved, unreadable    bool
	}{
		{"UTF-8 with a stray byte", "[{\"location\":\"/caf\u00e9/\",\"tdm-reservation\":1}," + stray + "]", "application/json", true, true},
		{"said UTF-8 with a stray byte", "[{\"location\":\"/caf\u00e9/\",\"tdm-reservation\":1}," + stray + "]", "application/json; charset=utf-8", true, true},
		{"said UTF-8 in Latin-1", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":0}]", "application/json; charset=utf-8", true, true},
		{"Latin-1 unsaid", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":0}]", "application/json", true, true},
		{"Latin-1 said", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":1}]", "application/json; charset=iso-8859-1", true, false},
		{"Latin-1 said, not reserved", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":0}]", "application/json; charset=iso-8859-1", false, false},
		{"UTF-8, not reserved", "[{\"location\":\"/caf\u00e9/\",\"tdm-reservation\":0}]", "application/json", false, false},
		{"said Shift_JIS in Latin-1", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":1}]", "application/json; charset=shift_jis", true, true},
		{"said EUC-JP in Latin-1", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":1}]", "application/json; charset=euc-jp", true, true},
		{"said GBK in Latin-1", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":1}]", "application/json; charset=gbk", true, true},
		{"said Big5 in Latin-1", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":1}]", "application/json; charset=big5", true, true},
		{"said EUC-KR in Latin-1", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":1}]", "application/json; charset=euc-kr", true, true},
		{"UTF-16 with a U+FFFD of its own", utf16LE("[{\"location\":\"/caf\u00e9/\",\"tdm-reservation\":0},{\"location\":\"/old\uFFFD/\",\"tdm-reservation\":1}]"), "application/json", true, true},
		{"GB18030 with a U+FFFD of its own", "[{\"location\":\"/caf\xa8\xa6/\",\"tdm-reservation\":0},{\"location\":\"/old\x84\x31\xa4\x37/\",\"tdm-reservation\":1}]", "application/json; charset=gb18030", true, true},
		{"said GB18030 in Latin-1", "[{\"location\":\"/caf\xe9/\",\"tdm-reservation\":1}]", "application/json; charset=gb18030", true, true},
		{"UTF-16, not reserved", utf16LE("[{\"location\":\"/caf\u00e9/\",\"tdm-reservation\":0}]"), "application/json", false, false},
		{"said Greek, a byte not of it", "[{\"location\":\"/caf\xaa/\",\"tdm-reservation\":0}]", "application/json; charset=windows-1253", true, true},
	} {
		w := newHosts(t)
		w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on("a.test/caf\u00e9/page", serve(200, "page", "Content-Type", "text/plain"))
		w.on("a.test"+tdmrepPath, serve(200, tc.file, "Content-Type", tc.contentType))
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep()})
		resp, body := fetchPage(t, &http.Client{Transport: tr}, "http://a.test/caf%C3%A9/page")
		r := tr.Receipt(resp, body)
		unreadable := false
		for _, s := range r.Signals {
			unreadable = unreadable || s.Source == "tdmrep.json" && s.Where == "unreachable"
		}
		if got := r.Usage.Pref("train-ai") == PrefNo; got != tc.reserved || unreadable != tc.unreadable {
			t.Errorf("%s: usage %q, signals %q; want reserved %v, unreadable %v", tc.name, r.Usage.statement(), sigs(r.Signals), tc.reserved, tc.unreadable)
		}
		_ = c.Close()
	}
}

// TestFetchUnfinishedCodingIsNoOutage: a body that came whole (its
// length met, its chunks ended) whose gzip or zlib stream stops before its
// end (a handler that never closed its gzip.Writer, a stream without its
// trailer or checksum) is an answer the Client cannot read, as a corrupt
// stream is, not a cut: WithUnreachableAllowAfter never turns it into
// allow-all.
func TestFetchUnfinishedCodingIsNoOutage(t *testing.T) {
	checkLeaks(t)
	const day = 24 * time.Hour
	const rules = "User-agent: *\nDisallow: /\n"
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write([]byte(rules))
	_ = zw.Flush() // never closed: no final block, no trailer
	unfinished := buf.String()
	gzipped := string(encode(t, []byte(rules), "gzip"))
	zlibbed := string(encode(t, []byte(rules), "deflate"))
	for _, tc := range []struct{ name, coding, body string }{
		{"corrupt gzip stream (holds)", "gzip", gzipped[:10] + strings.Repeat("\xff", 40)},
		{"gzip stream never closed", "gzip", unfinished},
		{"gzip stream missing its trailer", "gzip", gzipped[:len(gzipped)-8]},
		{"zlib stream missing its checksum", "deflate", zlibbed[:len(zlibbed)-4]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, serve(200, tc.body, "Content-Encoding", tc.coding, "Content-Type", "text/plain"))
			clock := newTestClock()
			tr := &http.Transport{DisableCompression: true}
			t.Cleanup(tr.CloseIdleConnections)
			c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}), WithClock(clock.Now),
				WithUnreachableAllowAfter(30*day))
			for n := 0; n <= 40; n += 10 {
				d, err := c.Check(context.Background(), s.URL+"/private")
				if d.Allowed || !d.Deferred || !errors.Is(err, ErrDeferred) {
					t.Errorf("day %d: Check = %+v, %v; want deferred, never allow-all", n, d, err)
				}
				clock.Advance(10 * day)
			}
		})
	}
}

// TestFetchBOMBytesWithoutUTF16: a robots.txt that starts with the bytes
// FF FE of a UTF-16 byte-order mark but holds ASCII rules (a UTF-16 file
// whose NULs a tool stripped) keeps the disallow Google's parser reads in
// it, not garbage read as UTF-16, which allowed everything: with NULs of
// no code units after the mark too (padding, C strings' terminators).
func TestFetchBOMBytesWithoutUTF16(t *testing.T) {
	checkLeaks(t)
	for name, b := range map[string]string{
		"no NUL":     "\xFF\xFE# robots.txt\r\nUser-agent: *\r\nDisallow: /private/\r\n",
		"padding":    "\xFF\xFE# robots.txt\r\nUser-agent: *\r\nDisallow: /private/\r\n\x00\x00\x00\x00",
		"C strings":  "\xFF\xFE# robots.txt\x00\nUser-agent: *\x00\nDisallow: /private/\x00\n",
		"big-endian": "\xFE\xFF# robots.txt\nUser-agent: *\nDisallow: /private/\n",
	} {
		s := newSite(t, serve(200, b, "Content-Type", "text/plain; charset=utf-8"))
		c := newTestClient(t)
		if ok, err := c.Allowed(context.Background(), s.URL+"/private/x"); ok || err != nil {
			t.Errorf("%s: Allowed(/private/x) = %v, %v; Google's parser disallows it", name, ok, err)
		}
	}
}

// TestFetchPartialContentConflictingRanges: a 206 whose Content-Range
// field lines disagree (one naming the whole of a file as long as the
// bytes sent, another a later part of a longer one) is not known to hold
// the whole file: unreachable, whichever line comes first, never its
// later part read as the file, whose groups lack their user-agent line.
func TestFetchPartialContentConflictingRanges(t *testing.T) {
	checkLeaks(t)
	const whole = "User-agent: *\nDisallow: /a\nDisallow: /private\n"
	cut := len("User-agent: *\nDisallow: /a\n")
	later := whole[cut:]
	part := fmt.Sprintf("bytes %d-%d/%d", cut, len(whole)-1, len(whole))
	claimed := fmt.Sprintf("bytes 0-%d/%d", len(later)-1, len(later))
	c := newTestClient(t)
	for _, ranges := range [][]string{{claimed, part}, {part, claimed}} {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Range"] = ranges
			w.WriteHeader(http.StatusPartialContent)
			_, _ = io.WriteString(w, later)
		})
		if d, _ := c.Check(context.Background(), s.URL+"/private/x"); d.Allowed || d.Outcome != OutcomeUnreachable {
			t.Errorf("a 206 of %q holding %q: %+v; want unreachable, /private/x disallowed", ranges, later, d)
		}
	}
}

// TestFetchUTF16WithASCIILinesAdded: a UTF-16LE robots.txt with its
// byte-order mark (Notepad's "Unicode") to which a deploy script appended
// ASCII lines is still read as UTF-16: code units follow its mark (its
// line breaks, 0A 00, if its first line holds no ASCII), and its
// Disallow holds.
func TestFetchUTF16WithASCIILinesAdded(t *testing.T) {
	checkLeaks(t)
	const added = "Sitemap: https://example.com/a.xml\r\nSitemap: https://example.com/b.xml\r\n"
	for name, b := range map[string]string{
		"ASCII first":        utf16LE("User-agent: *\r\nDisallow: /private/\r\n") + added,
		"a long line of CJK": utf16LE(strings.Repeat("中文", 130)+"\r\nUser-agent: *\r\nDisallow: /private/\r\n") + added,
	} {
		s := newSite(t, serve(200, b, "Content-Type", "text/plain"))
		c := newTestClient(t)
		if ok, err := c.Allowed(context.Background(), s.URL+"/private/x"); ok || err != nil {
			t.Errorf("%s: Allowed(/private/x) = %v, %v; the file disallows it", name, ok, err)
		}
	}
}

// TestUnparsableLocationUserinfoWithheld: a robots.txt redirect whose
// Location net/http cannot parse fails the fetch with an error quoting
// the Location whole: a password in it reached the check's error,
// Decision.Err, the log and the Store's copy of the failure, where every
// other URL's userinfo is withheld.
func TestUnparsableLocationUserinfoWithheld(t *testing.T) {
	for _, loc := range []string{
		"http://alice:s3cret@[::1/robots.txt",       // an IPv6 literal not closed
		"http://alice:s3cret@a.test/x%zz",           // a bad escape
		"http://alice:s3cret@a.test:99x/robots.txt", // a bad port
	} {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Location"] = []string{loc}
			w.WriteHeader(http.StatusMovedPermanently)
		}))
		var log bytes.Buffer
		store := newMemStore()
		c := newTestClient(t, WithStore(store), WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		d, err := c.Check(context.Background(), s.URL+"/p")
		s.Close()
		if !d.Deferred || err == nil {
			t.Fatalf("%q: %+v, %v; want deferred", loc, d, err)
		}
		for what, text := range map[string]string{"Check's error": err.Error(), "Decision.Err": fmt.Sprint(d.Err), "log": log.String(), "Store": storedText(store)} {
			if strings.Contains(text, "s3cret") {
				t.Errorf("Location %q: %s holds the password: %s", loc, what, text)
			}
		}
	}
}

// storedText returns the values m holds, as one text.
func storedText(m *memStore) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	for k, v := range m.vals {
		fmt.Fprintf(&b, "%s=%q\n", k, v.b)
	}
	return b.String()
}

// TestFetchCutAnswerIsAnOutage: an answer the server or the network ends
// early counts toward WithUnreachableAllowAfter as an outage, whatever the
// protocol or the byte it stops at: an HTTP/2 stream its server resets
// mid-body (as nginx or Go's server does when the backend behind it
// fails), a header that stalls or is cut after its first line. A stream
// reset for a fault of the protocol is an answer the Client cannot read,
// as a coding it cannot read is: never allow-all.
func TestFetchCutAnswerIsAnOutage(t *testing.T) {
	checkLeaks(t)
	abort := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = io.WriteString(w, "User-agent: *\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	h2 := httptest.NewUnstartedServer(http.HandlerFunc(abort))
	h2.EnableHTTP2 = true
	h2.StartTLS()
	t.Cleanup(h2.Close)
	h1 := httptest.NewServer(http.HandlerFunc(abort))
	t.Cleanup(h1.Close)
	stall := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\n")
		<-done
	})
	dropped := newHostilePeer(t, func(w io.Writer, done <-chan struct{}) {
		_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")
		if conn, ok := w.(net.Conn); ok {
			_ = conn.Close()
		}
	})
	reset := func(code uint32) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			body := io.MultiReader(strings.NewReader("User-agent: *\n"),
				iotest.ErrReader(streamError{StreamID: 1, Code: code}))
			return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{},
				Body: io.NopCloser(body), Request: req}, nil
		})
	}
	for _, tc := range []struct {
		name   string
		url    string
		rt     http.RoundTripper
		outage bool
	}{
		{"HTTP/1.1 connection closed mid-body", h1.URL, h1.Client().Transport, true},
		{"HTTP/2 stream reset mid-body", h2.URL, h2.Client().Transport, true},
		{"header stalled after its first byte", stall.url, &http.Transport{}, true},
		{"connection closed within the header", dropped.url, &http.Transport{}, true},
		{"stream reset INTERNAL_ERROR", "http://a.test", reset(0x2), true},
		{"stream reset PROTOCOL_ERROR", "http://a.test", reset(0x1), false},
		{"stream reset FLOW_CONTROL_ERROR", "http://a.test", reset(0x3), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newTestClock()
			c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tc.rt}), WithClock(clock.Now),
				WithFetchTimeout(300*time.Millisecond), WithUnreachableAllowAfter(time.Hour),
				WithBackoff(10*time.Minute, 10*time.Minute))
			var d Decision
			for range 9 { // 80 minutes of failures
				d, _ = c.Check(context.Background(), tc.url+"/private")
				clock.Advance(10*time.Minute + time.Second)
			}
			if tc.outage && (d.Outcome != OutcomeAllowAll || d.Failures != 9) {
				t.Errorf("after 80 minutes of answers cut: %s, %d failures; want allow-all after 9", d.Outcome.name(), d.Failures)
			}
			if !tc.outage && (d.Allowed || d.Outcome != OutcomeUnreachable) {
				t.Errorf("after 80 minutes of answers it cannot read: %s, allowed %v; want unreachable, never allow-all", d.Outcome.name(), d.Allowed)
			}
		})
	}
	// The server answered: no error policy maps the cut (review149: an
	// allow-all policy allowed a header stalled after its first line).
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}), WithFetchTimeout(300*time.Millisecond),
		WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll }))
	if d, err := c.Check(context.Background(), stall.url+"/private"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("a header stalled, under an allow-all error policy: %+v, %v; want deferred", d, err)
	}
}
