package botauth

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"golang.org/x/net/idna"
)

// loopbackTransport returns a transport that dials srv, a TLS test
// server, whatever host a URL names, so that no name reaches a resolver,
// and trusts srv's certificate (which names example.com and
// *.example.com).
func loopbackTransport(srv *httptest.Server) *http.Transport {
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	addr := srv.Listener.Addr().String()
	var d net.Dialer
	return &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		TLSClientConfig: &tls.Config{RootCAs: roots},
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// closeTracker is a request body that records that it was closed.
type closeTracker struct {
	io.Reader
	closed bool
}

func (c *closeTracker) Close() error { c.closed = true; return nil }

func TestTransportSignsACopy(t *testing.T) {
	s := newTestSigner(t)
	var sent *http.Request
	rt := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent = r
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
	}), s)

	body := &closeTracker{Reader: strings.NewReader("form=1")}
	req, _ := http.NewRequest(http.MethodPost, "https://www.example.com/submit", body)
	req.Header.Set("User-Agent", "ExampleBot/1.0")
	req.Trailer = http.Header{"X-Checksum": nil} // filled as the body is read
	before := req.Header.Clone()
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if sent == nil || sent == req {
		t.Fatalf("next got %p, the caller's request is %p", sent, req)
	}
	if len(req.Header) != len(before) || req.Header.Get("Signature") != "" {
		t.Errorf("the caller's request was changed: %v", req.Header)
	}
	if resp.Request != req {
		// A caller that logs or stores resp.Request (colly keeps it as the
		// request it made) would keep a signature it can replay.
		t.Errorf("resp.Request is the signed copy, with %q", resp.Request.Header.Get("Signature"))
	}
	// So too under a RoundTripper that sends a copy of its own (as
	// otelhttp's and retrying ones do).
	cloning := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
	}), s)
	req2, _ := http.NewRequest(http.MethodGet, "https://www.example.com/", nil)
	if resp, err := cloning.RoundTrip(req2); err != nil || resp.Request != req2 {
		t.Errorf("under a cloning RoundTripper: %v; resp.Request is not the caller's", err)
	}
	// One that follows a redirect itself answers for another request:
	// kept, without the signature fields it carries (its own, as a
	// signer below would make); but not when it carried this request's
	// signature to another server.
	for _, carried := range []bool{false, true} {
		following := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
			first := r
			r = r.Clone(r.Context())
			r.URL, _ = url.Parse("https://cdn.example.net/final")
			r.Host = ""                                          // as net/http makes a hop
			r.Header.Set("signature", "sig2=:c2lnbmVkIGJlbG93:") // in any case
			if carried {
				r.Header.Set("signature", first.Header.Get("Signature"))
			}
			r.Response = &http.Response{StatusCode: http.StatusFound, Request: first}
			return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
		}), s)
		req3, _ := http.NewRequest(http.MethodGet, "https://www.example.com/start", nil)
		resp, err := following.RoundTrip(req3)
		switch {
		case carried:
			if !errors.Is(err, errSignatureLeft) || resp != nil {
				t.Errorf("under a RoundTripper that carried the signature on a hop to another server: %v, %v", resp, err)
			}
		case err != nil || resp.Request.URL.Host != "cdn.example.net" || signatureFields(resp.Request.Header) ||
			resp.Request.Response == nil || resp.Request.Response.Request != nil:
			t.Errorf("under a RoundTripper that follows a redirect: %v; resp.Request %v %v", err, resp.Request.URL, resp.Request.Header)
		}
	}
	if sent.Body != req.Body || sent.Context() != req.Context() || sent.Header.Get("User-Agent") != "ExampleBot/1.0" {
		t.Error("the copy sent lost the body, the context or a field")
	}
	if req.Trailer.Set("X-Checksum", "abc"); sent.Trailer.Get("X-Checksum") != "abc" {
		t.Error("the copy sent has a trailer of its own: what the caller sets as the body is read is lost")
	}
	pub := rfcKey(t).Public().(ed25519.PublicKey)
	if _, err := testSite(time.Now, pub, testAgent).verifyRequest(sent, "https"); err != nil {
		t.Errorf("request sent: %v", err)
	}
	if body.closed {
		t.Error("the transport closed a body it passed on")
	}
}

func TestTransportDoesNotSendUnsigned(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  *http.Request
	}{
		{"a host IDNA refuses", &http.Request{URL: &url.URL{Scheme: "https", Host: "b\xfccher.example", Path: "/"}}},
		// http.Transport answers it with an error; RoundTrip panicked.
		{"no URL", &http.Request{Host: "www.example.com"}},
		// Sign drops the field from a copy of the trailer, and the copy
		// went out as it stood before the body was read, without the
		// fields the caller fills meanwhile.
		{"a trailer declaring a Signature", &http.Request{URL: &url.URL{Scheme: "https", Host: "www.example.com", Path: "/"},
			Trailer: http.Header{"X-Checksum": nil, "Signature": nil}}},
		{"a trailer declaring a Signature-Input", &http.Request{URL: &url.URL{Scheme: "https", Host: "www.example.com", Path: "/"},
			Trailer: http.Header{"signature-input": nil}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			rt := NewTransport(roundTripFunc(func(*http.Request) (*http.Response, error) {
				called = true
				return nil, errors.New("unreachable")
			}), newTestSigner(t))
			body := &closeTracker{Reader: strings.NewReader("x")}
			req := tc.req
			req.Method, req.Header, req.Body = http.MethodPost, http.Header{}, body
			if resp, err := rt.RoundTrip(req); err == nil || resp != nil {
				t.Errorf("RoundTrip = %v, %v; want an error", resp, err)
			}
			if called {
				t.Error("an unsigned request was sent")
			}
			if !body.closed {
				t.Error("the body of a request not sent was left open")
			}
		})
	}
}

func TestNewTransport(t *testing.T) {
	s := newTestSigner(t)
	if rt := NewTransport(nil, s).(*transport); rt.next != http.DefaultTransport {
		t.Errorf("next of NewTransport(nil) is %v", rt.next)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewTransport with a nil Signer did not panic")
		}
	}()
	NewTransport(nil, nil)
}

// idleCloser is a RoundTripper that counts CloseIdleConnections calls.
type idleCloser struct {
	http.RoundTripper
	closes int
}

func (c *idleCloser) CloseIdleConnections() { c.closes++ }

func TestTransportCloseIdleConnections(t *testing.T) {
	next := &idleCloser{RoundTripper: http.DefaultTransport}
	(&http.Client{Transport: NewTransport(next, newTestSigner(t))}).CloseIdleConnections()
	if next.closes != 1 {
		t.Errorf("next's CloseIdleConnections called %d times, want 1", next.closes)
	}
	// A next without the method is left alone.
	NewTransport(roundTripFunc(nil), newTestSigner(t)).(*transport).CloseIdleConnections()
}

// TestEndToEnd crawls a site with robotstxt through the signing
// transport and a real http.Client. The site, a TLS server on loopback,
// verifies every request it gets, fetching the crawler's key directory
// from the Signer's handler on another loopback TLS server.
func TestEndToEnd(t *testing.T) {
	const agent = "https://crawler.example.com/.well-known/http-message-signatures-directory"
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := NewSigner(key, agent, WithValidity(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var seen, problems []string
	dirFetches := 0
	dirHandler := signer.Directory()
	dir := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		dirFetches++
		mu.Unlock()
		dirHandler.ServeHTTP(w, r)
	}))
	defer dir.Close()
	dirTransport := loopbackTransport(dir)
	defer dirTransport.CloseIdleConnections()
	verifier := &site{
		client: &http.Client{
			Transport:     dirTransport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			Timeout:       10 * time.Second,
		},
		now: time.Now,
	}

	web := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agents, err := verifier.verifyRequest(r, "https")
		mu.Lock()
		seen = append(seen, r.URL.Path)
		if err != nil {
			problems = append(problems, r.URL.Path+": "+err.Error())
		} else if !slices.Equal(agents, []string{agent}) {
			problems = append(problems, r.URL.Path+": agents "+strings.Join(agents, " "))
		}
		mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case "/moved":
			http.Redirect(w, r, "/page", http.StatusFound)
		default:
			io.WriteString(w, "page "+r.URL.Path)
		}
	}))
	defer web.Close()
	next := loopbackTransport(web)
	defer next.CloseIdleConnections()

	rc, rt := robotstxt.NewClientTransport(NewTransport(next, signer),
		[]robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0 (+https://crawler.example.com/bot)")})
	defer rc.Close()
	hc := &http.Client{Transport: rt, Timeout: 10 * time.Second}

	for path, want := range map[string]string{"/": "page /", "/page": "page /page", "/moved": "page /page"} {
		resp, err := hc.Get("https://www.example.com" + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || string(body) != want {
			t.Errorf("GET %s: %s %q %v, want 200 %q", path, resp.Status, body, err, want)
		}
	}
	if _, err := hc.Get("https://www.example.com/private/x"); !errors.Is(err, robotstxt.ErrDisallowed) {
		t.Errorf("GET /private/x: %v, want robotstxt.ErrDisallowed", err)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error("the site rejected ", p)
	}
	if len(seen) != 5 || seen[0] != "/robots.txt" || slices.Contains(seen, "/private/x") {
		t.Errorf("the site saw %q, want /robots.txt, then /, /page, /moved and /page in some order", seen)
	}
	if dirFetches != 1 {
		t.Errorf("the key directory was fetched %d times, want once", dirFetches)
	}
}

// namedTransport dials the loopback listener that addrs maps each
// host:port to, and fails for any other, so that no name reaches a
// resolver.
func namedTransport(addrs map[string]string) *http.Transport {
	var d net.Dialer
	return &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		target, ok := addrs[addr]
		if !ok {
			return nil, fmt.Errorf("test: no listener for %s", addr)
		}
		return d.DialContext(ctx, network, target)
	}}
}

// TestTransportRedirectSignsEachSite follows real redirects through an
// http.Client over the signing transport, from one loopback site to
// another (another host, or the same host on another port), with a
// request that already carries signature fields: Sign's for the first
// site, and stale ones in other spellings. Each site must see one
// signature, made for itself: net/http copies the fields onto each hop,
// and the transport must drop them whatever their spelling.
func TestTransportRedirectSignsEachSite(t *testing.T) {
	type seen struct {
		authority string
		header    http.Header
	}
	var mu sync.Mutex
	var got []seen
	record := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, seen{r.Host, r.Header.Clone()})
		mu.Unlock()
		io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/to-b":
			http.Redirect(w, r, "http://site-b.test/bounce", http.StatusFound)
		case "/post-to-b":
			http.Redirect(w, r, "http://site-b.test/landing", http.StatusTemporaryRedirect)
		case "/to-port":
			http.Redirect(w, r, "http://site-a.test:8080/landing", http.StatusMovedPermanently)
		case "/bounce":
			http.Redirect(w, r, "http://site-a.test/landing", http.StatusSeeOther)
		}
	}
	addrs := make(map[string]string)
	for _, name := range []string{"site-a.test:80", "site-b.test:80", "site-a.test:8080"} {
		srv := httptest.NewServer(http.HandlerFunc(record))
		defer srv.Close()
		addrs[name] = srv.Listener.Addr().String()
	}
	next := namedTransport(addrs)
	defer next.CloseIdleConnections()
	s := newTestSigner(t)
	hc := &http.Client{Transport: NewTransport(next, s), Timeout: 10 * time.Second}
	site := testSite(time.Now, rfcKey(t).Public().(ed25519.PublicKey), testAgent)

	for _, tc := range []struct {
		method, url string
		want        []string // the authorities reached, in order
	}{
		{"GET", "http://site-a.test/to-b", []string{"site-a.test", "site-b.test", "site-a.test"}},
		{"POST", "http://site-a.test/post-to-b", []string{"site-a.test", "site-b.test"}},
		{"GET", "http://site-a.test/to-port", []string{"site-a.test", "site-a.test:8080"}},
	} {
		for _, presign := range []bool{false, true} {
			got = nil
			req, _ := http.NewRequest(tc.method, tc.url, strings.NewReader("form=1"))
			if presign {
				if err := s.Sign(req); err != nil {
					t.Fatal(err)
				}
				req.Header["signature"] = []string{`stale=:AAAA:`}
				req.Header["SIGNATURE-INPUT"] = []string{`stale=("@authority");created=1;keyid="k";tag="web-bot-auth"`}
				req.Header["signature-agent"] = []string{`stale="https://stale.example/keys"`}
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.method, tc.url, err)
			}
			resp.Body.Close()
			name := fmt.Sprintf("%s %s (pre-signed %v)", tc.method, tc.url, presign)
			var reached []string
			sigs := make(map[string]bool)
			for _, g := range got {
				reached = append(reached, g.authority)
				for _, f := range []string{"Signature", "Signature-Input", "Signature-Agent"} {
					if v := g.header.Values(f); len(v) != 1 || strings.Contains(v[0], "stale") {
						t.Errorf("%s: %s got %s %q, want one, made for it", name, g.authority, f, v)
					}
				}
				r := &http.Request{Host: g.authority, Header: g.header}
				if _, err := site.verifyRequest(r, "http"); err != nil {
					t.Errorf("%s: %s got a signature that does not verify for it: %v", name, g.authority, err)
				}
				sig := g.header.Get("Signature")
				if sigs[sig] {
					t.Errorf("%s: %s got a signature sent before", name, g.authority)
				}
				sigs[sig] = true
			}
			if !slices.Equal(reached, tc.want) {
				t.Errorf("%s: reached %q, want %q", name, reached, tc.want)
			}
		}
	}
}

// TestTransportRedirectKeepingHost: a crawler that dials an origin by
// its own name and sets Host to the site's is redirected to
// "//evil.test/steal". net/http keeps the Host on such a hop; signed for
// it, evil.test's server would hold a signature it could replay to the
// site. The hop is not sent, and a redirect within the origin still is,
// signed for the Host. The same holds over a next RoundTripper that
// leaves Response.Request nil, as a RoundTripper may.
func TestTransportRedirectKeepingHost(t *testing.T) {
	for _, bare := range []bool{false, true} {
		t.Run(fmt.Sprintf("bare=%v", bare), func(t *testing.T) { testRedirectKeepingHost(t, bare) })
	}
}

// noRequest is a RoundTripper whose responses have no Request.
type noRequest struct{ next http.RoundTripper }

func (n noRequest) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := n.next.RoundTrip(r)
	if resp != nil {
		resp.Request = nil
	}
	return resp, err
}

func testRedirectKeepingHost(t *testing.T, bare bool) {
	var mu sync.Mutex
	var evilGot []http.Header
	var landing *http.Request
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			http.Redirect(w, r, "//evil.test/steal", http.StatusFound)
		case "/moved":
			http.Redirect(w, r, "/landing", http.StatusFound)
		case "/landing":
			mu.Lock()
			landing = &http.Request{Host: r.Host, Header: r.Header.Clone()}
			mu.Unlock()
		}
	}))
	defer origin.Close()
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		evilGot = append(evilGot, r.Header.Clone())
		mu.Unlock()
	}))
	defer evil.Close()
	next := namedTransport(map[string]string{"origin.test:80": origin.Listener.Addr().String(), "evil.test:80": evil.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	var rt http.RoundTripper = next
	if bare {
		rt = noRequest{next}
	}
	hc := &http.Client{Transport: NewTransport(rt, newTestSigner(t)), Timeout: 10 * time.Second}

	req, _ := http.NewRequest(http.MethodGet, "http://origin.test/page", nil)
	req.Host = "victim.test"
	if resp, err := hc.Do(req); err == nil {
		resp.Body.Close()
		t.Error("the hop to another server with the site's Host was sent")
	}
	mu.Lock()
	for _, h := range evilGot {
		t.Errorf("evil.test got a request, signed by %q", h.Get("Signature-Input"))
	}
	mu.Unlock()

	req, _ = http.NewRequest(http.MethodGet, "http://origin.test/moved", nil)
	req.Host = "victim.test"
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("a redirect within the origin: %v", err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	site := testSite(time.Now, rfcKey(t).Public().(ed25519.PublicKey), testAgent)
	switch {
	case landing == nil:
		t.Fatal("the hop within the origin did not arrive")
	case landing.Host != "victim.test":
		t.Errorf("the hop within the origin was sent with Host %q", landing.Host)
	}
	if _, err := site.verifyRequest(landing, "http"); err != nil {
		t.Errorf("the hop within the origin: %v", err)
	}
}

// TestKeptHostSpellings: a hop whose Host spells its URL's host
// otherwise, as robotstxt's Transport sends it, is no kept Host; one
// naming another server still is.
func TestKeptHostSpellings(t *testing.T) {
	prev, _ := http.NewRequest(http.MethodGet, "http://a.test/go", nil)
	for host, kept := range map[string]bool{
		"victim.test": false, "VICTIM.TEST.": false, "victim.test:80": false,
		"other.test": true, "victim.test:8080": true, "victim.test..": true,
	} {
		hop, _ := http.NewRequest(http.MethodGet, "http://victim.test.:80/page", nil)
		hop.Host, hop.Response = host, &http.Response{Request: prev}
		if err := keptHost(hop); (err != nil) != kept {
			t.Errorf("Host %q on a hop to %s: %v, want kept %v", host, hop.URL, err, kept)
		}
	}
	for host, u := range map[string]string{"127.0.0.1:8080": "http://[::ffff:127.0.0.1]:8080/", "[2001:db8::1]": "http://[2001:DB8::0001]/"} {
		hop, _ := http.NewRequest(http.MethodGet, u, nil)
		hop.Host, hop.Response = host, &http.Response{Request: prev}
		if err := keptHost(hop); err != nil {
			t.Errorf("Host %q on a hop to %s: %v, want none kept", host, u, err)
		}
	}
}

// TestTransportRedirectKeepingHostFolded: a crawler dials an origin by
// its own name and sets Host to the site's (as
// TestTransportRedirectKeepingHost does); the origin's name holds a letter
// that Unicode case folding joins with one the dial's IDNA lookup maps to
// another name. straße.example (dialled as xn--strae-oqa.example)
// answers "//straẞe.example/steal" (capital sharp s, dialled as
// strasse.example), ς.example (xn--3xa.example) "//σ.example/steal"
// (xn--4xa.example), as an open redirect echoes a parameter. net/http
// keeps the Host on that hop and dials another server, which must get no
// signature for victim.test.
func TestTransportRedirectKeepingHostFolded(t *testing.T) {
	for _, tc := range []struct{ origin, originDial, location, evilDial string }{
		{"stra\u00dfe.example", "xn--strae-oqa.example:80", "//stra\u1e9ee.example/steal", "strasse.example:80"},
		{"\u03c2.example", "xn--3xa.example:80", "//\u03c3.example/steal", "xn--4xa.example:80"},
	} {
		t.Run(tc.location, func(t *testing.T) {
			var mu sync.Mutex
			var evilGot []*http.Request
			origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, tc.location, http.StatusFound)
			}))
			defer origin.Close()
			evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				evilGot = append(evilGot, &http.Request{Host: r.Host, Header: r.Header.Clone()})
				mu.Unlock()
			}))
			defer evil.Close()
			next := namedTransport(map[string]string{
				tc.originDial: origin.Listener.Addr().String(),
				tc.evilDial:   evil.Listener.Addr().String(),
			})
			defer next.CloseIdleConnections()
			hc := &http.Client{Transport: NewTransport(next, newTestSigner(t)), Timeout: 10 * time.Second}

			req, _ := http.NewRequest(http.MethodGet, "http://"+tc.origin+"/page", nil)
			req.Host = "victim.test"
			if resp, err := hc.Do(req); err == nil {
				resp.Body.Close()
			}
			mu.Lock()
			defer mu.Unlock()
			site := testSite(time.Now, rfcKey(t).Public().(ed25519.PublicKey), testAgent)
			for _, r := range evilGot {
				if _, err := site.verifyRequest(r, "http"); err == nil {
					t.Errorf("%s, another server than the origin, got a signature that verifies for Host %q", tc.evilDial, r.Host)
				} else {
					t.Errorf("%s got a request with Host %q (signature: %q)", tc.evilDial, r.Host, r.Header.Get("Signature-Input"))
				}
			}
		})
	}
}

// TestKeptHostZoneLiteral: a same-server hop ("/next" from the origin)
// of a request that dials an IPv6 literal with a zone and sets Host to
// the site's, which net/http keeps on that relative redirect, is signed:
// the two URL hosts are one as written, though robotstxt keys no zone.
func TestKeptHostZoneLiteral(t *testing.T) {
	for _, origin := range []string{"http://[fe80::1%25eth0]:8080", "http://[2001:db8::1%25eth0]"} {
		prev, err := http.NewRequest(http.MethodGet, origin+"/page", nil)
		if err != nil {
			t.Fatal(err)
		}
		prev.Host = "victim.test"
		hop, err := http.NewRequest(http.MethodGet, origin+"/next", nil)
		if err != nil {
			t.Fatal(err)
		}
		hop.Host, hop.Response = "victim.test", &http.Response{Request: prev}
		if err := keptHost(hop); err != nil {
			t.Errorf("a redirect from %s to its own /next refused: %v", origin, err)
		}
	}
}

// TestKeptHostSchemeChange: a hop that keeps a set Host and changes
// scheme on the same host string (https downgraded to http, as a
// CheckRedirect that copies the Host may send) goes to another server,
// and is not signed.
func TestKeptHostSchemeChange(t *testing.T) {
	prev, _ := http.NewRequest(http.MethodGet, "https://192.0.2.1/page", nil)
	prev.Host = "victim.test"
	hop, _ := http.NewRequest(http.MethodGet, "http://192.0.2.1/next", nil)
	hop.Host, hop.Response = "victim.test", &http.Response{Request: prev}
	if err := keptHost(hop); err == nil {
		t.Errorf("a hop from https://192.0.2.1 to http://192.0.2.1 keeping Host victim.test is signed; want it refused: another authority")
	}
}

// TestKeptHostPinnedByCheckRedirect: a crawler that pins each site's
// address sets the Host of a redirect's hop in its CheckRedirect to the
// host the Location named, or keeps the one asked for before for a
// Location naming no host: signed, as the first request is (botauth83:
// every such hop that left the address was refused, an upgrade to https
// too; review137: a relative one re-pinned). A Host the Location did not
// name, kept by net/http or copied by a CheckRedirect, still is refused
// on a hop to another server.
func TestKeptHostPinnedByCheckRedirect(t *testing.T) {
	prev, _ := http.NewRequest(http.MethodGet, "http://10.0.0.1/start", nil)
	prev.Host = "a.test"
	for _, tc := range []struct {
		location, hop, host string
		refused             bool
	}{
		{"http://b.test/page", "http://10.0.0.2/page", "b.test", false},
		{"http://c.test/next", "http://10.0.0.3/next", "C.TEST.", false},
		{"https://u.test/secure", "https://10.0.0.1/secure", "u.test", false},
		{"//b.test/page", "http://10.0.0.2/page", "b.test", false},
		{"http://evil.test/x", "http://evil.test/x", "a.test", true},
		{"http://evil.test/x", "http://10.0.0.9/x", "a.test", true},
		{"//evil.test/x", "http://evil.test/x", "a.test", true},
		{"https://b.test/page", "http://10.0.0.2/page", "b.test", true},
		{"http://b.test/page", "http://10.0.0.2/page", "b.test:8080", true},
		{"", "http://10.0.0.2/page", "b.test", true},
		{"/next", "http://10.0.0.4/next", "a.test", false},
		{"?page=2", "http://10.0.0.4/start?page=2", "A.TEST.", false},
		{"/next", "http://10.0.0.4/next", "b.test", true},
		{"/next", "https://10.0.0.4/next", "a.test", true},
	} {
		hop, _ := http.NewRequest(http.MethodGet, tc.hop, nil)
		hop.Host = tc.host
		hop.Response = &http.Response{Request: prev, Header: http.Header{"Location": {tc.location}}}
		if err := keptHost(hop); (err != nil) != tc.refused {
			t.Errorf("Location %q, hop %s with Host %q: %v; want refused %v", tc.location, tc.hop, tc.host, err, tc.refused)
		}
	}
}

// TestTransportAfterAHopBelow: a RoundTripper below that follows a
// redirect itself (NewTransport's doc provides for one) returned its
// last hop, evil.test/a, as the response's Request; evil.test's
// Location "//evil.test/x" then made net/http send a hop there keeping
// the Host victim.test of its own request, a pinned address of
// victim.test's. keptHost took the hop below for the request before it,
// saw the same server, and signed it: evil.test got a signature that
// verifies for victim.test (review137). The hop is not signed.
func TestTransportAfterAHopBelow(t *testing.T) {
	var mu sync.Mutex
	var signed []string
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Signature-Input") != "" {
			mu.Lock()
			signed = append(signed, r.Host+r.URL.Path)
			mu.Unlock()
		}
		if r.URL.Path == "/a" {
			http.Redirect(w, r, "//evil.test/x", http.StatusFound)
		}
	}))
	defer evil.Close()
	victim := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://evil.test/a", http.StatusFound)
	}))
	defer victim.Close()
	next := namedTransport(map[string]string{"10.0.0.2:80": victim.Listener.Addr().String(), "evil.test:80": evil.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	below := &http.Client{Transport: next, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		for k := range req.Header {
			if isSignatureField(k) {
				delete(req.Header, k)
			}
		}
		if len(via) > 1 {
			return http.ErrUseLastResponse // one hop of its own
		}
		return nil
	}}
	hc := &http.Client{Transport: NewTransport(roundTripperFunc(below.Do), newTestSigner(t)), Timeout: 10 * time.Second}
	req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.2/go", nil)
	req.Host = "victim.test"
	if resp, err := hc.Do(req); err == nil {
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(signed) > 0 {
		t.Errorf("evil.test got requests signed for victim.test: %q", signed)
	}
}

// TestTransportSignatureLeftBelow: a RoundTripper below that follows
// redirects itself (an http.Client used as one, as go-retryablehttp's
// RoundTripper is) copies the request's header onto a hop to another
// site, which gets a signature it may replay to the first: RoundTrip
// returns an error saying so, not that site's answer. A hop within the
// server the signature was made for is answered.
func TestTransportSignatureLeftBelow(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "other") }))
	defer other.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, "http://other.test/x", http.StatusFound)
		case "/within":
			http.Redirect(w, r, "/there", http.StatusFound)
		default:
			io.WriteString(w, "site")
		}
	}))
	defer site.Close()
	next := namedTransport(map[string]string{"site.test:80": site.Listener.Addr().String(), "other.test:80": other.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	below := &http.Client{Transport: next}
	rt := NewTransport(roundTripperFunc(below.Do), newTestSigner(t))
	for path, left := range map[string]bool{"/away": true, "/within": false} {
		req, _ := http.NewRequest(http.MethodGet, "http://site.test"+path, nil)
		resp, err := rt.RoundTrip(req)
		if resp != nil {
			resp.Body.Close()
		}
		if got := errors.Is(err, errSignatureLeft); got != left || !left && err != nil {
			t.Errorf("%s followed below: %v; want the signature's leaving said: %v", path, err, left)
		}
	}
}

// TestTransportSignatureLeftUnderAKeptHost: a pinned request (its URL
// the site's address, its Host the site) whose redirect below is
// "Location: //evil.test/x": net/http keeps the Host on that hop, which
// goes to evil.test's server with the signature made for the site: a
// leak, though the hop's Host names the site (review154).
func TestTransportSignatureLeftUnderAKeptHost(t *testing.T) {
	var got atomic.Value
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Signature"))
		io.WriteString(w, "evil")
	}))
	defer evil.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "//evil.test/x")
		w.WriteHeader(http.StatusFound)
	}))
	defer site.Close()
	next := namedTransport(map[string]string{"10.0.0.2:80": site.Listener.Addr().String(), "evil.test:80": evil.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	rt := NewTransport(roundTripperFunc((&http.Client{Transport: next}).Do), newTestSigner(t))
	req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.2/start", nil)
	req.Host = "www.example.com"
	resp, err := rt.RoundTrip(req)
	if resp != nil {
		resp.Body.Close()
	}
	if s, _ := got.Load().(string); s == "" || !errors.Is(err, errSignatureLeft) {
		t.Errorf("evil.test got %q; RoundTrip: %v; want the signature's leaving said", s, err)
	}
}

// TestTransportPinnedRedirectsUnderACopier: a pinned caller's
// http.Client follows relative redirects within the site through the
// signer over a RoundTripper that sends a copy of each request, cloned
// (otelhttp's) or built anew, its Response dropped: every hop is signed
// and answered (review154).
func TestTransportPinnedRedirectsUnderACopier(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/start":
			http.Redirect(w, r, "/mid", http.StatusFound)
		case "/mid":
			http.Redirect(w, r, "/next", http.StatusFound)
		default:
			io.WriteString(w, "ok")
		}
	}))
	defer site.Close()
	next := namedTransport(map[string]string{"10.0.0.2:80": site.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	for name, copyOf := range map[string]func(*http.Request) *http.Request{
		"cloned": func(r *http.Request) *http.Request { return r.Clone(r.Context()) },
		"built anew": func(r *http.Request) *http.Request {
			c, _ := http.NewRequestWithContext(r.Context(), r.Method, r.URL.String(), nil)
			c.Host, c.Header = r.Host, r.Header.Clone()
			return c
		},
	} {
		hc := &http.Client{Transport: NewTransport(roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			return next.RoundTrip(copyOf(r))
		}), newTestSigner(t))}
		req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.2/start", nil)
		req.Host = "www.example.com"
		resp, err := hc.Do(req)
		if err != nil {
			t.Errorf("%s: %v; want the last hop's answer", name, err)
			continue
		}
		resp.Body.Close()
	}
}

// TestTransportPinnedRedirectOverAPool: a pinned caller's http.Client
// follows a relative redirect within the site through the signer over a
// pool that sends a copy of each request to another address of the
// site: the copy the signer hands back is the caller's own, no hop
// followed below, and the next hop, whose Host net/http kept, is signed
// (review155).
func TestTransportPinnedRedirectOverAPool(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/next", http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer site.Close()
	next := namedTransport(map[string]string{"10.0.0.7:80": site.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	pool := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		c := r.Clone(r.Context())
		c.Host, c.URL.Host = cmp.Or(r.Host, r.URL.Host), "10.0.0.7"
		return next.RoundTrip(c)
	})
	req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.2/start", nil)
	req.Host = "www.example.com"
	resp, err := (&http.Client{Transport: NewTransport(pool, newTestSigner(t))}).Do(req)
	if err != nil {
		t.Fatalf("a pinned caller's redirect within the site, over a pool: %v; want the page", err)
	}
	resp.Body.Close()
}

// TestTransportFollowerBelowClonesAHop: a pinned caller over the signer
// over a RoundTripper that follows redirects itself by cloning the
// request (its Response then the caller's, nil), keeping the Host for
// "//evil.test/a": that hop is no copy of the caller's request, and the
// next hop net/http sends to evil.test, its Host kept, is not signed
// for the site (review156).
func TestTransportFollowerBelowClonesAHop(t *testing.T) {
	var leaked atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Signature") != "" {
			leaked.Add(1)
		}
		if r.URL.Path == "/a" {
			w.Header().Set("Location", "//evil.test/b")
			w.WriteHeader(http.StatusFound)
			return
		}
		io.WriteString(w, "evil")
	}))
	defer evil.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "//evil.test/a")
		w.WriteHeader(http.StatusFound)
	}))
	defer site.Close()
	next := namedTransport(map[string]string{"10.0.0.2:80": site.Listener.Addr().String(), "evil.test:80": evil.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	follower := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		for range 5 {
			resp, err := next.RoundTrip(r)
			if err != nil || resp.StatusCode != http.StatusFound || r.URL.Host == "evil.test" {
				return resp, err
			}
			loc, err := r.URL.Parse(resp.Header.Get("Location"))
			if err != nil {
				return resp, nil
			}
			resp.Body.Close()
			c := r.Clone(r.Context()) // the Host kept
			for k := range c.Header {
				if isSignatureField(k) {
					delete(c.Header, k) // not sent elsewhere
				}
			}
			c.URL = loc
			r = c
		}
		return nil, io.ErrUnexpectedEOF
	})
	req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.2/start", nil)
	req.Host = "www.example.com"
	if resp, err := (&http.Client{Transport: NewTransport(follower, newTestSigner(t))}).Do(req); err == nil {
		resp.Body.Close()
	}
	if n := leaked.Load(); n > 0 {
		t.Errorf("evil.test got %d signature(s) made for www.example.com", n)
	}
}

// TestTransportSignerBelowIsNoLeak: under an http.Client whose own
// Transport signs again (another identity, or this package twice), each
// hop carries the signer below's signature, made for the site it goes
// to: no hop left with the one above's, which RoundTrip does not report
// (review150).
func TestTransportSignerBelowIsNoLeak(t *testing.T) {
	var got atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Signature"))
		io.WriteString(w, "other")
	}))
	defer other.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://other.test/x", http.StatusFound)
	}))
	defer site.Close()
	next := namedTransport(map[string]string{"site.test:80": site.Listener.Addr().String(), "other.test:80": other.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	below := &http.Client{Transport: NewTransport(next, newTestSigner(t))}
	var sent string
	rt := NewTransport(roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		sent = r.Header.Get("Signature")
		return below.Do(r)
	}), newTestSigner(t))
	req, _ := http.NewRequest(http.MethodGet, "http://site.test/away", nil)
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatalf("a signer below signed each hop again: %v; want the answer", err)
	}
	resp.Body.Close()
	if s, _ := got.Load().(string); s == "" || s == sent || resp.Request.Header.Get("Signature") != "" {
		t.Errorf("other.test got %q (above signed %q), the answer's request keeps %q; want one made below, none kept", s, sent, resp.Request.Header.Get("Signature"))
	}
}

// TestTransportSignatureLeftOnAnyHop: of the hops a RoundTripper below
// followed, one that carried the signature to another server, the last
// or one before it (away and back), is a leak; one to the same host by
// another scheme, whose authority the signature names too, is not.
func TestTransportSignatureLeftOnAnyHop(t *testing.T) {
	s := newTestSigner(t)
	hop := func(before *http.Request, to string) *http.Request {
		r := before.Clone(before.Context())
		r.URL, _ = url.Parse(to)
		r.Host = ""
		r.Response = &http.Response{StatusCode: http.StatusFound, Request: before}
		return r
	}
	for _, tc := range []struct {
		name string
		hops []string
		left bool
	}{
		{"to https of the same host", []string{"https://www.example.com/final"}, false},
		{"to another host", []string{"https://cdn.example.net/final"}, true},
		{"away and back", []string{"https://cdn.example.net/x", "http://www.example.com/final"}, true},
		{"to another port", []string{"http://www.example.com:8080/final"}, true},
	} {
		following := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
			last := r
			for _, to := range tc.hops {
				last = hop(last, to)
			}
			return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: last}, nil
		}), s)
		req, _ := http.NewRequest(http.MethodGet, "http://www.example.com/start", nil)
		resp, err := following.RoundTrip(req)
		if got := errors.Is(err, errSignatureLeft); got != tc.left || !tc.left && (err != nil || resp == nil) {
			t.Errorf("%s: %v, %v; want the signature's leaving said: %v", tc.name, resp, err, tc.left)
		}
	}
	// A pinned address's redirect within its site, its Host kept, goes
	// to the site the signature is for.
	pinned := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		h := r.Clone(r.Context())
		h.URL, _ = url.Parse("http://10.0.0.2/next")
		h.Response = &http.Response{StatusCode: http.StatusFound, Request: r}
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: h}, nil
	}), s)
	req0, _ := http.NewRequest(http.MethodGet, "http://10.0.0.2/start", nil)
	req0.Host = "www.example.com"
	if _, err := pinned.RoundTrip(req0); err != nil {
		t.Errorf("a pinned address's redirect within its site: %v; want its answer", err)
	}
	// Pinned, a hop is sent to the site its Host names (review153): to
	// the site's other address, none; to the same address naming another
	// site (a front both share), a leak.
	for _, tc := range []struct {
		addr, host string
		left       bool
	}{{"10.0.0.3", "www.example.com", false}, {"10.0.0.2", "evil.example", true}, {"10.0.0.2", "", false}} {
		pinned := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
			h := r.Clone(r.Context())
			h.URL, _ = url.Parse("http://" + tc.addr + "/next")
			h.Host = tc.host
			h.Response = &http.Response{StatusCode: http.StatusFound, Request: r}
			return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: h}, nil
		}), s)
		req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.2/start", nil)
		req.Host = "www.example.com"
		if _, err := pinned.RoundTrip(req); errors.Is(err, errSignatureLeft) != tc.left {
			t.Errorf("pinned, a hop to %s naming %q: %v; want the signature's leaving said: %v", tc.addr, tc.host, err, tc.left)
		}
	}
	// A copy of the request sent to another address, its Host kept (a
	// pinned address, a pool's), is no hop.
	pooled := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c := r.Clone(r.Context())
		c.Host, c.URL.Host = r.URL.Host, "10.0.0.2:8080"
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: c}, nil
	}), s)
	req, _ := http.NewRequest(http.MethodGet, "http://www.example.com/start", nil)
	if _, err := pooled.RoundTrip(req); err != nil {
		t.Errorf("a copy sent to another address: %v; want its answer", err)
	}
}

// TestNewTransportAboveARobotsTransport: a signer above a robotstxt
// Transport, however wrapped, signs pages that wait for their pacing
// turn, and not the robots.txt its Client fetches: NewTransport panics.
func TestNewTransportAboveARobotsTransport(t *testing.T) {
	c, tr := robotstxt.NewClientTransport(nil, nil)
	defer c.Close()
	defer func(dt http.RoundTripper) { http.DefaultTransport = dt }(http.DefaultTransport)
	for name, next := range map[string]http.RoundTripper{"a Transport": tr, "a wrapped Transport": unwrapping{tr}, "nil, the default a Transport": nil} {
		if next == nil {
			http.DefaultTransport = tr
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "NewClientTransport") {
					t.Errorf("%s: recovered %v; want a panic naming NewClientTransport", name, r)
				}
			}()
			NewTransport(next, newTestSigner(t))
		}()
	}
}

// unwrapping wraps a RoundTripper, which its Unwrap method returns.
type unwrapping struct{ next http.RoundTripper }

func (u unwrapping) RoundTrip(r *http.Request) (*http.Response, error) { return u.next.RoundTrip(r) }
func (u unwrapping) Unwrap() http.RoundTripper                         { return u.next }

// roundTripperFunc is a RoundTripper of a function.
type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestTransportMappedHostNotSigned: a page at http://ｂ.test/ (full-width
// b) is dialled as b.test, the name UTS #46 maps it to, but net/http
// sends its Host unmapped, xn--ni7c.test, another name, whose server
// would accept the signature: no such request is signed, sent alone or
// through a robotstxt Transport above (which sends that Host with the
// URL's host dialled). A name the mapping leaves as net/http sends it
// (bücher.test) is signed, as is a Host the caller set for another site.
func TestTransportMappedHostNotSigned(t *testing.T) {
	var mu sync.Mutex
	signed := map[string]bool{} // by Host and path
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		signed[r.Host+r.URL.Path] = r.Header.Get("Signature") != ""
		mu.Unlock()
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	next := namedTransport(map[string]string{"b.test:80": addr, "xn--ni7c.test:80": addr, "xn--bcher-kva.test:80": addr})
	defer next.CloseIdleConnections()
	for _, stacked := range []bool{false, true} {
		var rt http.RoundTripper = NewTransport(next, newTestSigner(t))
		if stacked {
			rc, tr := robotstxt.NewClientTransport(rt, []robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0")})
			defer rc.Close()
			rt = tr
		}
		hc := &http.Client{Transport: rt, Timeout: 10 * time.Second}
		for _, u := range []string{"http://\uff42.test/page", "http://b\u00fccher.test/page"} {
			if resp, err := hc.Get(u); err == nil {
				resp.Body.Close()
			}
		}
		mu.Lock()
		if signed["xn--ni7c.test/page"] || !signed["xn--bcher-kva.test/page"] {
			t.Errorf("stacked %v: signed (by Host and path) %v; want xn--ni7c.test/page unsigned, xn--bcher-kva.test/page signed", stacked, signed)
		}
		clear(signed)
		mu.Unlock()
	}
	// A Host the caller set, naming another site than the URL's, in
	// Unicode or as its A-label, is the caller's to sign for.
	for _, host := range []string{"xn--bcher-kva.test", "b\u00fccher.test"} {
		var got string
		rt := NewTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = r.Header.Get("Signature")
			return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
		}), newTestSigner(t))
		req, _ := http.NewRequest(http.MethodGet, "http://192.0.2.1/page", nil)
		req.Host = host
		if resp, err := rt.RoundTrip(req); err != nil || got == "" {
			t.Errorf("Host %q on http://192.0.2.1/page: %v, signature %q; want it signed", host, err, got)
		} else {
			resp.Body.Close()
		}
	}
}

// TestTransportOffPathTargetNotSigned: a request whose target net/http
// writes as other than a path goes out as "GET http://evil.test/x" to
// site.test's server (an Opaque "//evil.test/x", a Path
// "http://evil.test/x"), which a server fronting both sites routes to
// evil.test (RFC 9112 §3.2.2): it is not signed, bare or below a
// robotstxt Transport's SkipRobots, so evil.test gets no signature it
// could replay to site.test.
func TestTransportOffPathTargetNotSigned(t *testing.T) {
	for _, u := range []url.URL{
		{Scheme: "http", Host: "site.test", Opaque: "//evil.test/x"},
		{Scheme: "http", Host: "site.test", Path: "http://evil.test/x"},
	} {
		for _, stack := range []bool{false, true} {
			name := "bare"
			if stack {
				name = "under_robotstxt.Transport_SkipRobots"
			}
			t.Run(name, func(t *testing.T) { testOffPathTarget(t, stack, u) })
		}
	}
}

func testOffPathTarget(t *testing.T, stack bool, u url.URL) {
	var mu sync.Mutex
	var evilGot []http.Header
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		// A front shared by two sites picks the site by the request's
		// target (Go's server takes r.Host from an absolute-form target).
		if r.Host == "evil.test" {
			mu.Lock()
			evilGot = append(evilGot, r.Header.Clone())
			mu.Unlock()
			io.WriteString(w, "evil")
			return
		}
		io.WriteString(w, "site")
	}))
	defer front.Close()
	next := namedTransport(map[string]string{"site.test:80": front.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	s := newTestSigner(t)
	var rt http.RoundTripper = NewTransport(next, s)
	ctx := context.Background()
	if stack {
		// The README's stack; SkipRobots for a URL a person asked for.
		rc, tr := robotstxt.NewClientTransport(rt, []robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0")})
		defer rc.Close()
		rt, ctx = tr, robotstxt.SkipRobots(ctx)
	}

	req := (&http.Request{
		Method: http.MethodGet,
		URL:    &u,
		Header: make(http.Header),
	}).WithContext(ctx)
	resp, err := rt.RoundTrip(req)
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Errorf("%s sent: %s %q; want it refused, unsigned and unsent", u.RequestURI(), resp.Status, body)
	}
	site := testSite(time.Now, rfcKey(t).Public().(ed25519.PublicKey), testAgent)
	mu.Lock()
	defer mu.Unlock()
	for _, h := range evilGot {
		if h.Get("Signature") == "" {
			continue
		}
		if _, err := site.verifyRequest(&http.Request{Host: "site.test", Header: h}, "http"); err == nil {
			t.Errorf("evil.test's server got a signature that verifies for site.test (Signature-Input %s)",
				strings.SplitN(h.Get("Signature-Input"), ";", 2)[0])
		}
	}
}

// TestTransportMappedACELabelNotSigned: a host net/http dials mapped and
// sends unmapped as another name, its label starting with "xn--":
// http://xn--\u00adbcher-kva.test/ (the mapping drops the soft hyphen)
// is dialled as xn--bcher-kva.test and sent with the Host
// xn--bcher-zha34b.test. No server dialled gets a signature valid for
// another name, bare or under a robotstxt Transport (which gives the URL
// dialled and that Host).
func TestTransportMappedACELabelNotSigned(t *testing.T) {
	for _, stack := range []bool{false, true} {
		name := "bare"
		if stack {
			name = "under_robotstxt.Transport"
		}
		t.Run(name, func(t *testing.T) {
			for _, host := range []string{
				"xn--\u00adbcher-kva.test", // soft hyphen: dialled as bücher.test
				"xn--\u00adx-0xa.test",
				"xn--\u0130-0fn.test", // İ, which the mapping lower-cases
			} {
				testMappedAce(t, host, stack)
			}
		})
	}
}

func testMappedAce(t *testing.T, host string, stack bool) {
	dialled, err := idna.Lookup.ToASCII(host)
	if err != nil {
		t.Fatal(err)
	}
	sent, err := idna.Punycode.ToASCII(host)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		server string // the name dialled to reach it
		r      *http.Request
	}
	var mu sync.Mutex
	var gots []got
	handler := func(server string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			gots = append(gots, got{server, &http.Request{Host: r.Host, URL: r.URL, Header: r.Header.Clone()}})
			mu.Unlock()
		})
	}
	// Each name has its own server.
	srv := httptest.NewServer(handler(dialled))
	defer srv.Close()
	other := httptest.NewServer(handler(strings.ToLower(sent)))
	defer other.Close()
	next := namedTransport(map[string]string{
		dialled + ":80":               srv.Listener.Addr().String(),
		strings.ToLower(sent) + ":80": other.Listener.Addr().String(),
	})
	defer next.CloseIdleConnections()
	s := newTestSigner(t)
	rt := NewTransport(next, s)
	if stack {
		rc, tr := robotstxt.NewClientTransport(rt, []robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0")})
		defer rc.Close()
		rt = tr
	}
	req, err := http.NewRequest(http.MethodGet, "http://"+host+"/page", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	site := testSite(time.Now, rfcKey(t).Public().(ed25519.PublicKey), testAgent)
	mu.Lock()
	defer mu.Unlock()
	for _, g := range gots {
		if g.r.Header.Get("Signature") == "" {
			continue
		}
		signedFor := normalAuthority(g.r.Host, "http")
		if _, err := site.verifyRequest(g.r, "http"); err == nil && signedFor != g.server {
			t.Errorf("GET http://%+q/page: %s's server (dialled) got %s with a signature that verifies for %s, another DNS name",
				host, g.server, g.r.URL.Path, signedFor)
		}
	}
}

// signedHosts is a RoundTripper that answers every request itself,
// keeping the Host of each that came signed.
type signedHosts struct {
	mu    sync.Mutex
	hosts []string
}

func (s *signedHosts) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	if req.Header.Get("Signature") != "" {
		s.hosts = append(s.hosts, cmp.Or(req.Host, req.URL.Host))
	}
	s.mu.Unlock()
	return &http.Response{StatusCode: 200, Body: http.NoBody, Header: make(http.Header), Request: req}, nil
}

// TestTransportHostAsDialledSigns: what hostAsDialled refuses is a Host
// net/http sends as another name than it dials; these are signed: a Host
// the caller sets for another site whose A-labels are IDNA's though its
// other labels are none of a host name's (an underscore, "--" in third
// place, a digit-led label beside a right-to-left one), and a URL's
// host in ASCII, which net/http dials and sends alike (127.1,
// 0x7f.0.0.1), with no Host set. A zoned IPv6 literal, which HTTP/1.1
// sends without its zone and HTTP/2 with it, is refused, not sent with
// a signature one of them cannot verify (botauth80).
func TestTransportHostAsDialledSigns(t *testing.T) {
	for _, scheme := range []string{"http", "https"} {
		rec := &signedHosts{}
		req := &http.Request{Method: http.MethodGet, Header: make(http.Header),
			URL: &url.URL{Scheme: scheme, Host: "[fe80::1%eth0]:8080", Path: "/"}}
		if resp, err := NewTransport(rec, newTestSigner(t)).RoundTrip(req); err == nil {
			resp.Body.Close()
			t.Errorf("%s to a zoned IPv6 literal: sent, %d signed; want it refused", scheme, len(rec.hosts))
		}
	}
	for _, c := range []struct{ host, urlHost string }{
		{"my_shop.example.ru", "192.0.2.10:8080"},
		{"my_shop.xn--p1ai", "192.0.2.10:8080"},
		{"_acme.xn--p1ai", "192.0.2.10:8080"},
		{"r3---sn-abc.xn--p1ai", "192.0.2.10:8080"},
		{"shop-.xn--p1ai", "192.0.2.10:8080"},
		{"123.xn--4dbrk0ce", "192.0.2.10:8080"},
		{"", "127.1"},
		{"", "0x7f.0.0.1"},
	} {
		rec := &signedHosts{}
		req := &http.Request{Method: http.MethodGet, Header: make(http.Header), Host: c.host,
			URL: &url.URL{Scheme: "http", Host: c.urlHost, Path: "/"}}
		resp, err := NewTransport(rec, newTestSigner(t)).RoundTrip(req)
		if err != nil {
			t.Errorf("Host %q, URL host %q: %v", c.host, c.urlHost, err)
			continue
		}
		resp.Body.Close()
		if len(rec.hosts) != 1 {
			t.Errorf("Host %q, URL host %q: sent unsigned", c.host, c.urlHost)
		}
	}
}

// TestTransportSignsNoNameDialledOtherwise: names net/http's IDNA
// lookup, over an older golang.org/x/text than the library's, maps to
// another A-label than the library does ("a\u09be\u0316\u0301": it
// composes a+acute across the vowel sign; "\u1099\U000110ba": its
// recomposition map keyed by 16 bits of each rune) or refuses, dialling
// the name as written ("\u1132\U00011127"). The Host sent, and signed,
// is the name's punycode as written: the server dialled, another, got a
// signature it could replay. Such a URL is refused, not signed.
func TestTransportSignsNoNameDialledOtherwise(t *testing.T) {
	for _, tc := range []struct{ raw, signedAs string }{
		{"a\u09be\u0316\u0301.test", "xn--a-xbb6d319a.test"},
		{"\u1099\U000110ba.test", "xn--0md2522k.test"},
		{"\u1132\U00011127.test", "xn--erd4612k.test"},
	} {
		type seen struct {
			host   string
			signed bool
		}
		var mu sync.Mutex
		got := map[string][]seen{} // by listener
		mk := func(name string) *httptest.Server {
			return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got[name] = append(got[name], seen{r.Host, r.Header.Get("Signature") != ""})
				mu.Unlock()
				io.WriteString(w, "ok")
			}))
		}
		site, other := mk("site"), mk("other")
		var dials []string
		var d net.Dialer
		next := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dials = append(dials, addr)
			mu.Unlock()
			if addr == tc.signedAs+":80" {
				return d.DialContext(ctx, network, site.Listener.Addr().String())
			}
			// Any other name (never a resolver): another server.
			return d.DialContext(ctx, network, other.Listener.Addr().String())
		}}

		key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
		s, err := NewSigner(key, "https://signature-agent.test/.well-known/http-message-signatures-directory")
		if err != nil {
			t.Fatal(err)
		}
		hc := &http.Client{Transport: NewTransport(next, s), Timeout: 10 * time.Second}
		resp, err := hc.Get("http://" + tc.raw + "/page")
		if err == nil {
			resp.Body.Close()
		}
		mu.Lock()
		t.Logf("%s: %+q: Get err=%v; dialled %+q; site saw %v; other saw %v", runtime.Version(), tc.raw, err, dials, got["site"], got["other"])
		for _, r := range got["other"] {
			if r.signed {
				t.Errorf("%s: GET %+q: net/http dialled %+q, and that server got a signature made for Host %q, which it can replay there; "+
					"want the request refused (its Host names another server than the one dialled)",
					runtime.Version(), "http://"+tc.raw+"/page", dials[len(dials)-1], r.host)
			}
		}
		mu.Unlock()
		next.CloseIdleConnections()
		site.Close()
		other.Close()
	}
}

// TestTransportSecondHostFieldNotSigned: a request to victim.example
// whose header holds a Host field net/http writes as a second Host line
// (a key spelt "host" or "HOST"), or "Host" naming another site, is not
// signed, bare or under a robotstxt Transport's SkipRobots (which skips
// that Transport's own check of the header): a front reading the last
// Host line routes the request, signed for victim.example, to
// evil.example, which could replay it.
func TestTransportSecondHostFieldNotSigned(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		signed     bool
	}{
		{"host", "evil.example", false},
		{"HOST", "evil.example", false},
		{"Host", "evil.example", false},
		{"Host", "victim.example", true}, // the Host net/http sends: dropped
	} {
		for _, stack := range []bool{false, true} {
			var sent []*http.Request
			next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				sent = append(sent, r)
				return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
			})
			var rt http.RoundTripper = NewTransport(next, newTestSigner(t))
			ctx := context.Background()
			if stack {
				rc, tr := robotstxt.NewClientTransport(rt, []robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0")})
				defer rc.Close()
				rt, ctx = tr, robotstxt.SkipRobots(ctx)
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://victim.example/", nil)
			req.Header[tc.key] = []string{tc.value}
			resp, err := rt.RoundTrip(req)
			if err == nil {
				resp.Body.Close()
			}
			signed := len(sent) == 1 && sent[0].Header.Get("Signature") != ""
			if signed != tc.signed || (err == nil) != tc.signed {
				t.Errorf("%s: %s (stack %v): %v, signed %v; want signed %v", tc.key, tc.value, stack, err, signed, tc.signed)
			}
		}
	}
}

// TestTransportLeakEarlyInALongChain checks that a chain of redirects a
// RoundTripper below followed is read back to its start: one that sent
// the signature to evil.test on its first hop and then followed a long
// chain within the site is refused, past 64 hops too (botauth89: leftWith
// read back no more).
func TestTransportLeakEarlyInALongChain(t *testing.T) {
	for _, within := range []int{50, 70} {
		var evilGot atomic.Value
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			evilGot.Store(r.Header.Get("Signature"))
			http.Redirect(w, r, "http://site.test/0", http.StatusFound)
		}))
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := strings.TrimPrefix(r.URL.Path, "/")
			if p == "start" {
				http.Redirect(w, r, "http://evil.test/x", http.StatusFound)
				return
			}
			if n, _ := strconv.Atoi(p); n < within {
				http.Redirect(w, r, fmt.Sprintf("/%d", n+1), http.StatusFound)
				return
			}
			io.WriteString(w, "site")
		}))
		next := namedTransport(map[string]string{"site.test:80": site.Listener.Addr().String(), "evil.test:80": evil.Listener.Addr().String()})
		below := &http.Client{Transport: next, CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}
		rt := NewTransport(roundTripperFunc(below.Do), newTestSigner(t))
		req, _ := http.NewRequest(http.MethodGet, "http://site.test/start", nil)
		resp, err := rt.RoundTrip(req)
		if resp != nil {
			resp.Body.Close()
		}
		if s, _ := evilGot.Load().(string); s == "" {
			t.Fatalf("%d hops within: evil.test got no signature", within)
		}
		if !errors.Is(err, errSignatureLeft) {
			t.Errorf("%d hops within the site after evil.test's: %v, %v; want errSignatureLeft", within, resp != nil, err)
		}
		next.CloseIdleConnections()
		evil.Close()
		site.Close()
	}
}

// TestTransportLongChainWithinTheSite: a chain of 70 redirects within the
// site, which a RoundTripper below followed, with or without a signer
// below it signing each hop again, sent the signature nowhere else: it
// is answered (review162: my first mend of botauth89 refused a chain past
// the hops it read).
func TestTransportLongChainWithinTheSite(t *testing.T) {
	const within = 70
	var other atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != "site.test" {
			other.Add(1)
		}
		if n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/")); n < within {
			http.Redirect(w, r, fmt.Sprintf("/%d", n+1), http.StatusFound)
			return
		}
		io.WriteString(w, "site")
	}))
	defer site.Close()
	next := namedTransport(map[string]string{"site.test:80": site.Listener.Addr().String()})
	defer next.CloseIdleConnections()
	follow := func(*http.Request, []*http.Request) error { return nil } // no bound of its own
	for _, below := range []http.RoundTripper{next, NewTransport(next, newTestSigner(t))} {
		rt := NewTransport(roundTripperFunc((&http.Client{Transport: below, CheckRedirect: follow}).Do), newTestSigner(t))
		req, _ := http.NewRequest(http.MethodGet, "http://site.test/0", nil)
		resp, err := rt.RoundTrip(req)
		if resp != nil {
			resp.Body.Close()
		}
		if err != nil || other.Load() != 0 {
			t.Errorf("%d hops within site.test below %T (%d requests elsewhere): %v; want the answer", within, below, other.Load(), err)
		}
	}
}

// TestLeftWithEndsOnALoop: a chain a RoundTripper below made that loops
// back on itself is read once, not for ever.
func TestLeftWithEndsOnALoop(t *testing.T) {
	signed, _ := http.NewRequest(http.MethodGet, "http://site.test/", nil)
	signed.Header.Set("Signature", "sig1=:x:")
	a, _ := http.NewRequest(http.MethodGet, "http://site.test/a", nil)
	b, _ := http.NewRequest(http.MethodGet, "http://site.test/b", nil)
	a.Header, b.Header = signed.Header.Clone(), signed.Header.Clone()
	a.Response = &http.Response{Request: b, Header: http.Header{}}
	b.Response = &http.Response{Request: a, Header: http.Header{}}
	if left := leftWith(a, signed); left != "" {
		t.Errorf("a loop within the site: left with %q; want none", left)
	}
	b.URL.Host, b.Host = "evil.test", "evil.test"
	if left := leftWith(a, signed); left != "evil.test" {
		t.Errorf("a loop through evil.test: left with %q; want evil.test", left)
	}
}
