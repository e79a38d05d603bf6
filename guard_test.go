package robotstxt

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/botauth"
	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/net/http2"
)

func TestPublicAddr(t *testing.T) {
	for s, want := range map[string]bool{
		"93.184.215.14":          true,
		"8.8.8.8":                true,
		"2606:2800:21f:cb07::1":  true,
		"64:ff9b::5db8:d70e":     true, // NAT64 of 93.184.215.14
		"127.0.0.1":              false,
		"127.1.2.3":              false,
		"10.0.0.1":               false,
		"172.16.5.4":             false,
		"192.168.1.1":            false,
		"169.254.169.254":        false,
		"100.64.0.1":             false,
		"0.0.0.0":                false,
		"255.255.255.255":        false,
		"224.0.0.1":              false,
		"198.18.0.1":             false,
		"::1":                    false,
		"::":                     false,
		"::ffff:127.0.0.1":       false,
		"::ffff:10.0.0.1":        false,
		"fe80::1":                false,
		"fc00::1":                false,
		"fd12:3456::1":           false,
		"ff02::1":                false,
		"2001:db8::1":            false,
		"64:ff9b::7f00:1":        false, // NAT64 of 127.0.0.1
		"64:ff9b::a9fe:a9fe":     false, // NAT64 of 169.254.169.254
		"2002:7f00:1::1":         false, // 6to4 of 127.0.0.1
		"2001:0:4136:e378::1":    false, // Teredo
		"fe80::1%eth0":           false,
		"::ffff:169.254.169.254": false,
	} {
		if got := publicAddr(netip.MustParseAddr(s)); got != want {
			t.Errorf("publicAddr(%s) = %v, want %v", s, got, want)
		}
	}
}

// countAccepts accepts and closes the connections ln gets, until the
// test ends, and counts them.
func countAccepts(t *testing.T, ln net.Listener) *atomic.Int64 {
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return &n
}

// TestPublicOnlyRefusesBeforeConnecting dials non-public addresses
// through the guard: each is refused at once with ErrNonPublic, and the
// loopback listener among them never sees a connection.
func TestPublicOnlyRefusesBeforeConnecting(t *testing.T) {
	checkLeaks(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := countAccepts(t, ln)
	tr := PublicOnly(nil)
	defer tr.CloseIdleConnections()
	for _, addr := range []string{ln.Addr().String(), "169.254.169.254:80", "10.0.0.1:80", "[::1]:80", "0.0.0.0:80"} {
		start := time.Now()
		conn, err := tr.DialContext(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			t.Errorf("dialled %s", addr)
			continue
		}
		if !errors.Is(err, ErrNonPublic) || time.Since(start) > time.Second {
			t.Errorf("dial %s: %v after %v, want ErrNonPublic at once", addr, err, time.Since(start))
		}
	}
	if tr.Proxy != nil || tr.DialTLSContext != nil {
		t.Error("the guarded transport keeps a way round the check")
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the loopback listener accepted %d connections", n)
	}
}

// TestPublicOnlyOfAWrappedDefaultTransport: with http.DefaultTransport
// wrapped by another package, as instrumentation does, PublicOnly(nil)
// still returns a guard, with Go's default settings.
func TestPublicOnlyOfAWrappedDefaultTransport(t *testing.T) {
	old := http.DefaultTransport
	http.DefaultTransport = http.RoundTripper(struct{ http.RoundTripper }{old})
	defer func() { http.DefaultTransport = old }()
	tr := PublicOnly(nil)
	defer tr.CloseIdleConnections()
	if !isGuard(tr) || tr.MaxIdleConns != 100 || !tr.ForceAttemptHTTP2 {
		t.Errorf("PublicOnly(nil) = %+v, want a guard with Go's defaults", tr)
	}
	if _, err := tr.DialContext(context.Background(), "tcp", "127.0.0.1:80"); !errors.Is(err, ErrNonPublic) {
		t.Errorf("dial loopback: %v, want ErrNonPublic", err)
	}
}

// TestPublicOnlySpeaksWhatItOffers: a guard made of a plain Transport,
// tuned as a crawler tunes one, or of none, speaks HTTP/2 to a site that
// accepts it, as t does (Clone sets t up to offer h2, which a copy given
// a dial function would offer and not speak: every HTTP/2 site failed);
// one of a Transport with a TLS config of its own speaks HTTP/1.1, as t
// does. Robots.txt and pages both.
func TestPublicOnlySpeaksWhatItOffers(t *testing.T) {
	checkLeaks(t)
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = w.Write([]byte(privateRules))
		}
	}))
	site.EnableHTTP2 = true
	site.StartTLS()
	defer site.Close()
	ap := netip.MustParseAddrPort(site.Listener.Addr().String())
	exempt := func(a netip.AddrPort) bool { return a == ap }
	roots := site.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	for _, tc := range []struct {
		name  string
		t     *http.Transport
		proto string
	}{
		{"none", nil, "HTTP/2.0"},
		{"plain", &http.Transport{MaxIdleConnsPerHost: 16}, "HTTP/2.0"},
		{"a TLS config of its own", &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}, "HTTP/1.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := guardTransport(tc.t, exempt)
			defer g.CloseIdleConnections()
			g.TLSClientConfig = g.TLSClientConfig.Clone()
			g.TLSClientConfig.RootCAs = roots // the site's certificate trusted, as a real site's is
			c, tr := NewClientTransport(g, []Option{WithUserAgent(testUA)})
			defer c.Close()
			if d, err := c.Check(context.Background(), site.URL+"/private/x"); d.Allowed || err != nil {
				t.Errorf("Check: %+v, %v; want disallowed by the site's robots.txt", d, err)
			}
			resp, err := (&http.Client{Transport: tr}).Get(site.URL + "/page")
			if err != nil {
				t.Fatalf("GET /page: %v", err)
			}
			resp.Body.Close()
			if resp.Proto != tc.proto {
				t.Errorf("spoke %s, want %s", resp.Proto, tc.proto)
			}
		})
	}
}

// inwardRedirect serves a "public" site whose robots.txt redirects to
// target, and counts the requests target's loopback server receives.
func inwardRedirect(t *testing.T, target string) (site *httptest.Server, exempt func(netip.AddrPort) bool) {
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusMovedPermanently)
	}))
	t.Cleanup(site.Close)
	ap := netip.MustParseAddrPort(site.Listener.Addr().String())
	return site, func(a netip.AddrPort) bool { return a == ap }
}

// internalService is a loopback server standing for an internal service;
// it counts what reaches it.
func internalService(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte("User-agent: *\nAllow: /\n# internal secret\n"))
	}))
	t.Cleanup(s.Close)
	return s, &hits
}

// TestGuardRefusesInwardRedirects checks that a public site's robots.txt
// redirecting to an internal address is refused and read as unreachable
// (deferred, never allow-all, whatever the error policy), that nothing
// reaches the internal service, and that its body is not readable
// through Info; for a Client with the guard of its own, and for one that
// fetches through a Transport made with it by NewClientTransport.
func TestGuardRefusesInwardRedirects(t *testing.T) {
	checkLeaks(t)
	internal, hits := internalService(t)
	for _, target := range []string{
		internal.URL + "/robots.txt",
		"http://169.254.169.254/latest/meta-data/",
		"http://10.0.0.1/robots.txt",
		"http://[::1]:" + strings.TrimPrefix(internal.URL, "http://127.0.0.1:") + "/robots.txt",
	} {
		site, exempt := inwardRedirect(t, target)
		guard := guardTransport(nil, exempt)
		t.Cleanup(guard.CloseIdleConnections)
		for name, c := range map[string]*Client{
			"own":       newTestClient(t, WithHTTPClient(&http.Client{Transport: guard})),
			"allow-all": newTestClient(t, WithHTTPClient(&http.Client{Transport: guard}), WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll })),
			"through":   first(through(t, guard)),
		} {
			d, err := c.Check(context.Background(), site.URL+"/page")
			if !errors.Is(err, ErrDeferred) || !errors.Is(err, ErrNonPublic) || d.Allowed {
				t.Errorf("%s, redirect to %s: %+v, %v; want deferred by ErrNonPublic", name, target, d, err)
			}
			if info, e, ok := held(c, site.URL); !ok || bodyOf(e) != nil || info.Outcome != OutcomeUnreachable {
				t.Errorf("%s, redirect to %s: Info %+v", name, target, info)
			}
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the internal service was asked %d times", n)
	}
}

// through returns a Client made by NewClientTransport over next, so that
// its robots.txt fetches go through next, and its Transport.
func through(t *testing.T, next http.RoundTripper) (*Client, *Transport) {
	c, tr := NewClientTransport(next, nil)
	t.Cleanup(func() { _ = c.Close() })
	return c, tr
}

// TestGuardPageRequests checks the guard on the crawler's own requests
// through the Transport: a page that redirects inward is refused.
func TestGuardPageRequests(t *testing.T) {
	checkLeaks(t)
	internal, hits := internalService(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
			return
		}
		http.Redirect(w, r, internal.URL+"/admin", http.StatusFound)
	}))
	defer site.Close()
	ap := netip.MustParseAddrPort(site.Listener.Addr().String())
	guard := guardTransport(nil, func(a netip.AddrPort) bool { return a == ap })
	defer guard.CloseIdleConnections()
	_, tr := through(t, guard)
	hc := &http.Client{Transport: tr}
	if _, err := get(context.Background(), hc, site.URL+"/go"); !errors.Is(err, ErrNonPublic) {
		t.Errorf("inward page redirect: %v, want ErrNonPublic", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the internal service was asked %d times", n)
	}
}

// first returns the first of two values, for a call in an expression.
func first[A, B any](a A, _ B) A { return a }

// TestGuardWhateverTheOrder: a Client's robots.txt fetches are guarded
// from the first, or the crawler is told at once that they are not: a
// guard given to NewTransport for a Client that fetches elsewhere panics,
// whether or not the Client has fetched yet and whether or not it has an
// HTTP client of its own, and NewClientTransport refuses WithHTTPClient.
func TestGuardWhateverTheOrder(t *testing.T) {
	checkLeaks(t)
	internal, hits := internalService(t)
	guard := PublicOnly(nil)
	t.Cleanup(guard.CloseIdleConnections)
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "NewClientTransport") {
				t.Errorf("%s: recovered %v, want a panic naming NewClientTransport", name, r)
			}
		}()
		f()
	}
	checked := newTestClient(t)
	_, _ = checked.Check(context.Background(), internal.URL+"/x") // fetched before the Transport
	mustPanic("checked first", func() { NewTransport(checked, guard) })
	// A copy given a proxy, which would connect where no check sees, is
	// no guard: the Client's own fetches through it are not guarded.
	proxied := guard.Clone()
	proxied.Proxy = http.ProxyFromEnvironment
	if isGuard(proxied) || isGuard(http.DefaultTransport) || isGuard(nil) || !isGuard(guard.Clone()) {
		t.Error("isGuard tells a guard's copy given a proxy, or the default transport, for a guard, or a plain copy for none")
	}
	mustPanic("default HTTP client", func() { NewTransport(NewClient(), guard) })
	mustPanic("WithHTTPClient", func() { NewTransport(newTestClient(t), guard) })
	mustPanic("NewClientTransport with WithHTTPClient", func() {
		NewClientTransport(guard, []Option{WithHTTPClient(http.DefaultClient)})
	})
	// Given to the Client too, or through NewClientTransport, the guard
	// covers the first fetch.
	own := newTestClient(t, WithHTTPClient(&http.Client{Transport: guard}))
	NewTransport(own, guard)
	c, _ := through(t, guard)
	before := hits.Load()
	for _, c := range []*Client{own, c} {
		if _, err := c.Check(context.Background(), internal.URL+"/x"); !errors.Is(err, ErrNonPublic) {
			t.Errorf("first fetch: %v, want ErrNonPublic", err)
		}
	}
	if hits.Load() != before {
		t.Error("a guarded Client reached the internal service")
	}
}

// TestGuardRefusalIsPermanent: a robots.txt that a guard refused to
// fetch defers checks with an error matching ErrNonPublic, which a
// crawler gives up on at once, and is not asked again before the longest
// back-off: the address will not become public in a minute.
func TestGuardRefusalIsPermanent(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c, _ := NewClientTransport(PublicOnly(nil), []Option{WithUserAgent(testUA), WithBackoff(time.Minute, 3*time.Hour)})
	t.Cleanup(func() { _ = c.Close() })
	d, err := c.Check(context.Background(), s.URL+"/")
	var de *DeferredError
	if !errors.As(err, &de) || !errors.Is(err, ErrNonPublic) || d.Allowed {
		t.Fatalf("a loopback site through PublicOnly: %+v, %v; want deferred, matching ErrNonPublic", d, err)
	}
	if wait := time.Until(de.RetryAt); wait < 2*time.Hour {
		t.Errorf("a refused robots.txt is asked again in %v, want the longest back-off (3h)", wait)
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("the site got %d requests", n)
	}
}

// resolveTo points net.DefaultResolver, for the test, at a DNS server on
// loopback that answers every A question with addrs, in order: no name
// reaches the system's resolver.
func resolveTo(t *testing.T, addrs ...netip.Addr) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			_ = b.StartQuestions()
			_ = b.Question(q)
			_ = b.StartAnswers()
			for _, a := range addrs {
				if q.Type == dnsmessage.TypeA {
					_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET}, dnsmessage.AResource{A: a.As4()})
				}
			}
			if out, err := b.Finish(); err == nil {
				_, _ = pc.WriteTo(out, from)
			}
		}
	}()
	old := net.DefaultResolver
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
	t.Cleanup(func() { net.DefaultResolver = old; pc.Close() })
}

// TestGuardMixedAddresses: a name with a stray internal address beside
// its public one (127.0.0.2 stands for the first, 127.0.0.1, let
// through, for the second) is dialled at its public address only; when
// that one does not connect, the error is its failure, not the refusal
// of the other, which a Client keeps for the longest back-off.
func TestGuardMixedAddresses(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2 here: %v", err)
	}
	accepted := countAccepts(t, inner)
	port := inner.Addr().(*net.TCPAddr).Port
	public := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port)) // nothing listens there
	tr := guardTransport(nil, func(a netip.AddrPort) bool { return a == public })
	defer tr.CloseIdleConnections()
	for _, tc := range []struct {
		addrs   []netip.Addr
		refusal bool
	}{
		{[]netip.Addr{netip.MustParseAddr("127.0.0.2"), public.Addr()}, false},
		{[]netip.Addr{netip.MustParseAddr("127.0.0.2")}, true},
	} {
		resolveTo(t, tc.addrs...)
		conn, err := tr.DialContext(context.Background(), "tcp", fmt.Sprintf("site.test:%d", port))
		if err == nil {
			conn.Close()
			t.Fatalf("%v: dialled", tc.addrs)
		}
		var oe *net.OpError
		if errors.Is(err, ErrNonPublic) != tc.refusal || !errors.As(err, &oe) {
			t.Errorf("%v: %v; want a *net.OpError, a refusal %v", tc.addrs, err, tc.refusal)
		}
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the internal address accepted %d connections", n)
	}
}

// unwrapper is a third party's RoundTripper over next, with the Unwrap
// method through which NewTransport finds a guard.
type unwrapper struct{ next http.RoundTripper }

func (u unwrapper) RoundTrip(r *http.Request) (*http.Response, error) { return u.next.RoundTrip(r) }
func (u unwrapper) Unwrap() http.RoundTripper                         { return u.next }

// testSigner is a botauth Signer with an all-zero key.
func testSigner(t *testing.T) *botauth.Signer {
	s, err := botauth.NewSigner(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)), "https://crawler.example/.well-known/http-message-signatures-directory")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGuardWrapped: a guard is a guard however it is wrapped, by this
// module's RoundTrippers (botauth's signing transport, a Transport) or by
// one with an Unwrap method. NewTransport panics when the pages would go
// through one and the Client's robots.txt fetches would not, before the
// Client fetches anything; and accepts a Client whose own HTTP client
// goes through one, wrapped or not, or that NewClientTransport made.
func TestGuardWrapped(t *testing.T) {
	checkLeaks(t)
	internal, hits := internalService(t)
	guard := PublicOnly(nil)
	t.Cleanup(guard.CloseIdleConnections)
	s := testSigner(t)
	_, inner := through(t, guard)
	for name, next := range map[string]http.RoundTripper{
		"signing":              botauth.NewTransport(guard, s),
		"signing twice":        botauth.NewTransport(botauth.NewTransport(guard, s), s),
		"Unwrap":               unwrapper{guard},
		"a Clone":              guard.Clone(),
		"Unwrap, then signing": unwrapper{botauth.NewTransport(guard, s)},
		"a Transport":          inner,
	} {
		c := NewClient(WithHTTPClient(&http.Client{Transport: &http.Transport{}}))
		t.Cleanup(func() { _ = c.Close() })
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "NewClientTransport") {
					t.Errorf("%s: recovered %v, want a panic naming NewClientTransport", name, r)
				}
			}()
			hc := &http.Client{Transport: NewTransport(c, next)}
			_, _ = get(context.Background(), hc, internal.URL+"/page")
		}()
		// Guarded robots.txt fetches, however the guard is wrapped.
		for cname, c := range map[string]*Client{
			"the same":           NewClient(WithHTTPClient(&http.Client{Transport: next})),
			"the guard":          NewClient(WithHTTPClient(&http.Client{Transport: guard})),
			"signing the guard":  NewClient(WithHTTPClient(&http.Client{Transport: botauth.NewTransport(guard, s)})),
			"NewClientTransport": first(NewClientTransport(botauth.NewTransport(guard, s), nil)),
		} {
			t.Cleanup(func() { _ = c.Close() })
			func() {
				// The guard alone does not sign: under pages signed, a
				// Client's robots.txt must be (see TestTransportSigned
				// PagesNeedSignedRobots).
				unsigned := cname == "the guard" && strings.Contains(name, "signing")
				defer func() {
					if r := recover(); (r != nil) != unsigned || unsigned && !strings.Contains(fmt.Sprint(r), "sign the pages") {
						t.Errorf("%s, Client through %s: recovered %v", name, cname, r)
					}
				}()
				hc := &http.Client{Transport: NewTransport(c, next)}
				if _, err := get(context.Background(), hc, internal.URL+"/page"); !errors.Is(err, ErrNonPublic) {
					t.Errorf("%s, Client through %s: %v, want ErrNonPublic", name, cname, err)
				}
			}()
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the internal service was asked %d times", n)
	}
	// A cycle of wrappers ends the search: nothing to see, no hang.
	NewTransport(newTestClient(t), cycle{})
}

// TestTransportSignedPagesNeedSignedRobots: NewTransport panics when it
// would sign the pages (next is or wraps botauth's transport) but c
// fetches robots.txt unsigned (botauth84): a site refusing unsigned
// crawlers with a 403 read as allowing everything, and the signed
// crawler was sent to a path its robots.txt disallows. Through
// NewClientTransport, robots.txt is fetched signed and the path refused.
func TestTransportSignedPagesNeedSignedRobots(t *testing.T) {
	checkLeaks(t)
	var unsignedPages atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Signature-Input") == "":
			if r.URL.Path != "/robots.txt" {
				unsignedPages.Add(1)
			}
			http.Error(w, "verified bots only", http.StatusForbidden)
		case r.URL.Path == "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		default:
			_, _ = io.WriteString(w, "secret")
		}
	}))
	t.Cleanup(srv.Close)
	s := testSigner(t)
	for name, c := range map[string]*Client{
		"NewClient's own":       NewClient(WithUserAgent(testUA)),
		"an unsigned transport": NewClient(WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: &http.Transport{}})),
	} {
		t.Cleanup(func() { _ = c.Close() })
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "sign the pages") {
					t.Errorf("%s: recovered %v, want a panic saying the pages would be signed and robots.txt not", name, r)
				}
			}()
			NewTransport(c, botauth.NewTransport(nil, s))
		}()
	}
	// A Client whose signer is within a wrapper it cannot see into (no
	// Unwrap method, as a tracing RoundTripper of another module) may
	// sign: no panic (review145).
	opaqueSigner := NewClient(WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: struct{ http.RoundTripper }{botauth.NewTransport(nil, s)}}))
	t.Cleanup(func() { _ = opaqueSigner.Close() })
	NewTransport(opaqueSigner, botauth.NewTransport(nil, s))
	c, tr := NewClientTransport(botauth.NewTransport(nil, s), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	if _, err := get(context.Background(), &http.Client{Transport: tr}, srv.URL+"/private/page"); !errors.Is(err, ErrDisallowed) {
		t.Errorf("NewClientTransport: /private/page: %v, want ErrDisallowed by the robots.txt served signed", err)
	}
	if n := unsignedPages.Load(); n != 0 {
		t.Errorf("%d pages asked unsigned", n)
	}
}

// TestSignedPagesNeedSignedRobotsUnderAWrappedDefault: http.DefaultTransport
// wrapped by a RoundTripper the checks cannot see into (a tracer set
// for the process) is what a Client given no HTTP client sends through,
// and a signer given no next too: no signer of the Client's. NewTransport
// panics when the pages would be signed, as it does unwrapped.
func TestSignedPagesNeedSignedRobotsUnderAWrappedDefault(t *testing.T) {
	defer func(dt http.RoundTripper) { http.DefaultTransport = dt }(http.DefaultTransport)
	http.DefaultTransport = struct{ http.RoundTripper }{http.DefaultTransport}
	for name, c := range map[string]*Client{
		"given none":       NewClient(WithUserAgent(testUA)),
		"given it":         NewClient(WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: http.DefaultTransport})),
		"given it wrapped": NewClient(WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: unwrapper{http.DefaultTransport}})),
	} {
		t.Cleanup(func() { _ = c.Close() })
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "sign the pages") {
					t.Errorf("%s: recovered %v; want a panic saying the pages would be signed and robots.txt not", name, r)
				}
			}()
			NewTransport(c, botauth.NewTransport(nil, testSigner(t)))
		}()
	}
}

// TestCloseWithAStubDefaultTransport: Close compares the RoundTrippers of
// its HTTP client with http.DefaultTransport only as *http.Transport: a
// test's stub put there, a func type, made it panic (review145).
func TestCloseWithAStubDefaultTransport(t *testing.T) {
	defer func(dt http.RoundTripper) { http.DefaultTransport = dt }(http.DefaultTransport)
	http.DefaultTransport = roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("stub") }) // a func type: it does not compare
	c := NewClient(WithUserAgent(testUA))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// cycle is a RoundTripper that claims to wrap itself.
type cycle struct{ http.RoundTripper }

func (c cycle) Unwrap() http.RoundTripper { return c }

// TestGuardSignedClientTransport: under NewClientTransport, a guard
// wrapped in the signing transport guards and signs everything the
// Client and the Transport send: robots.txt, its redirect hops, pages and
// theirs. Refused by the guard, a loopback site gets nothing at all.
func TestGuardSignedClientTransport(t *testing.T) {
	checkLeaks(t)
	var mu sync.Mutex
	var seen []string // path and Signature-Agent of each request
	sigs := make(map[string]bool)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sig := r.Header.Get("Signature")
		if sigs[sig] || len(r.Header.Values("Signature")) != 1 {
			sig = "reused or not one"
		}
		sigs[sig] = true
		seen = append(seen, r.URL.Path+" "+sig[:min(len(sig), 5)]+" "+r.Header.Get("Signature-Agent"))
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/robots-moved.txt", http.StatusMovedPermanently)
		case "/robots-moved.txt":
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case "/moved":
			http.Redirect(w, r, "/page", http.StatusFound)
		}
	}))
	defer site.Close()
	ap := netip.MustParseAddrPort(site.Listener.Addr().String())
	s := testSigner(t)
	const agent = `sig1="https://crawler.example/.well-known/http-message-signatures-directory"`

	for _, exempt := range []bool{true, false} {
		guard := guardTransport(nil, func(a netip.AddrPort) bool { return exempt && a == ap })
		_, tr := through(t, botauth.NewTransport(guard, s))
		hc := &http.Client{Transport: tr}
		_, err := get(context.Background(), hc, site.URL+"/moved")
		guard.CloseIdleConnections()
		mu.Lock()
		got := slices.Clone(seen)
		seen = nil
		mu.Unlock()
		if !exempt {
			if !errors.Is(err, ErrNonPublic) || len(got) != 0 {
				t.Errorf("refused by the guard: %v, the site saw %q", err, got)
			}
			continue
		}
		want := []string{"/robots.txt sig1= " + agent, "/robots-moved.txt sig1= " + agent, "/moved sig1= " + agent, "/page sig1= " + agent}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("the site saw %q, %v; want %q", got, err, want)
		}
	}
}

// TestPublicOnlyOwnsItsHTTP2Pool: a Transport set up for HTTP/2 by
// x/net/http2.ConfigureTransports pools its connections where a copy's
// requests find them. The guard made of it, resolving site.test to a
// public address, sent its requests over the connection the original
// had dialled, unchecked, to an internal one. The guard speaks HTTP/2
// over connections it dialled itself.
func TestPublicOnlyOwnsItsHTTP2Pool(t *testing.T) {
	internalHits, publicHits := new(atomic.Int64), new(atomic.Int64)
	mk := func(ip string, port int, hits *atomic.Int64) *httptest.Server {
		s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			_, _ = io.WriteString(w, "hello from "+ip)
		}))
		ln, err := net.Listen("tcp", fmt.Sprintf("%s:%d", ip, port))
		if err != nil {
			t.Skip(err)
		}
		s.Listener = ln
		s.EnableHTTP2 = true
		s.StartTLS()
		t.Cleanup(s.Close)
		return s
	}
	internal := mk("127.0.0.1", 0, internalHits)
	port := internal.Listener.Addr().(*net.TCPAddr).Port
	mk("127.0.0.2", port, publicHits)
	// The application's own transport, set up for HTTP/2 with x/net, which
	// reaches site.test at an internal address (its own dialer, say).
	var d net.Dialer
	t1 := &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, internal.Listener.Addr().String())
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}
	//lint:ignore SA1019 the deprecated call is what applications still make, and what shares the pool
	if _, err := http2.ConfigureTransports(t1); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(t1.CloseIdleConnections)
	u := fmt.Sprintf("https://site.test:%d/", port)
	resp, err := (&http.Client{Transport: t1}).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()

	// The guard made of it: site.test resolves to 127.0.0.2, let through as public.
	resolveTo(t, netip.MustParseAddr("127.0.0.2"))
	pub := netip.MustParseAddrPort(fmt.Sprintf("127.0.0.2:%d", port))
	guard := guardTransport(t1, func(a netip.AddrPort) bool { return a == pub })
	t.Cleanup(guard.CloseIdleConnections)
	before := internalHits.Load()
	for range 3 {
		resp, err := (&http.Client{Transport: guard}).Get(u)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.ProtoMajor != 2 {
			t.Errorf("the guard spoke %s, want HTTP/2 as the transport it copies", resp.Proto)
		}
	}
	if n := internalHits.Load() - before; n != 0 {
		t.Errorf("requests through the guard reached the internal address %d times (public %d)", n, publicHits.Load())
	}
}

// TestPublicOnlyKeepsHTTP2Off: a Transport whose TLSNextProto names
// other protocols, or "h2" without a function, speaks HTTP/1.1 even with
// ForceAttemptHTTP2; so does the guard made of it.
func TestPublicOnlyKeepsHTTP2Off(t *testing.T) {
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok")
	}))
	s.EnableHTTP2 = true
	s.StartTLS()
	defer s.Close()
	get := func(rt http.RoundTripper) string {
		resp, err := (&http.Client{Transport: rt}).Get(s.URL)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.Proto
	}
	ap := s.Listener.Addr().(*net.TCPAddr).AddrPort()
	for name, protos := range map[string]map[string]func(string, *tls.Conn) http.RoundTripper{
		"another protocol":      {"x-other/1": func(string, *tls.Conn) http.RoundTripper { return nil }},
		"h2 without a function": {"h2": nil},
	} {
		t1 := &http.Transport{ForceAttemptHTTP2: true, TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, TLSNextProto: protos}
		orig := get(t1)
		g := guardTransport(t1, func(a netip.AddrPort) bool { return a == netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()) })
		if guarded := get(g); guarded != orig || orig != "HTTP/1.1" {
			t.Errorf("%s: t speaks %s, the guard made of it %s: want HTTP/1.1 both", name, orig, guarded)
		}
		t1.CloseIdleConnections()
		g.CloseIdleConnections()
	}
}

// TestPublicOnlyDialsWithoutMultipathTCP: with Multipath TCP on
// (GODEBUG=multipathtcp=1), a connection's kernel may open subflows to
// addresses the server announces, past the guard's check of the address
// dialled: the guard's connections are plain TCP.
func TestPublicOnlyDialsWithoutMultipathTCP(t *testing.T) {
	t.Setenv("GODEBUG", "multipathtcp=1")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close() // the dialling side keeps what it negotiated
		}
	}()
	var plain net.Dialer
	plain.SetMultipathTCP(true)
	c, err := plain.DialContext(t.Context(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	mptcp, _ := c.(*net.TCPConn).MultipathTCP()
	c.Close()
	if !mptcp {
		t.Skip("this kernel gives no Multipath TCP connection")
	}
	ap := netip.MustParseAddrPort(ln.Addr().String())
	guard := guardTransport(nil, func(a netip.AddrPort) bool { return a == ap })
	c, err = guard.DialContext(t.Context(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if mptcp, _ := c.(*net.TCPConn).MultipathTCP(); mptcp {
		t.Error("the guard's connection uses Multipath TCP, whose subflows it does not check")
	}
}

// TestGuardHTTP2EnabledLaterOwnsItsPool: a guard made of a Transport with
// HTTP/2 turned off the documented way (an empty TLSNextProto map), on
// which the caller then turns HTTP/2 on through its Protocols field (as
// net/http says to opt in), keeps its HTTP/2 pool to itself: a Clone the
// application gives its own dialer for its internal services dials
// api.internal unchecked, and the guard's requests for api.internal, its
// Client's robots.txt fetch included, must not go over that connection
// (which a TLSNextProto map the Clone copied would hold).
func TestGuardHTTP2EnabledLaterOwnsItsPool(t *testing.T) {
	var hits atomic.Int64
	internal := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n# internal secret\n")
	}))
	internal.EnableHTTP2 = true
	internal.StartTLS()
	defer internal.Close()
	resolveTo(t, netip.MustParseAddr("127.0.0.1")) // api.internal, should the guard look it up

	t1 := &http.Transport{
		TLSNextProto:    map[string]func(string, *tls.Conn) http.RoundTripper{}, // HTTP/2 off
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},                  // the test server's certificate
	}
	g := PublicOnly(t1)
	defer g.CloseIdleConnections()
	g.Protocols = new(http.Protocols) // HTTP/2 on, for the crawl
	g.Protocols.SetHTTP1(true)
	g.Protocols.SetHTTP2(true)

	own := g.Clone() // the application's transport to its own services
	var d net.Dialer
	own.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, internal.Listener.Addr().String())
	}
	defer own.CloseIdleConnections()
	u := fmt.Sprintf("https://api.internal:%d/", internal.Listener.Addr().(*net.TCPAddr).Port)
	resp, err := (&http.Client{Transport: own}).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	t.Logf("own transport: %s; isGuard(own) = %v", resp.Proto, isGuard(own))

	before := hits.Load()
	_, err = get(context.Background(), &http.Client{Transport: g}, u+"direct")
	if n := hits.Load() - before; n != 0 || !errors.Is(err, ErrNonPublic) {
		t.Errorf("straight through the guard, the internal service was asked %d times (err %v), want 0 and ErrNonPublic", n, err)
	}
	before = hits.Load()
	c, tr := NewClientTransport(g, nil)
	defer c.Close()
	_, err = get(context.Background(), &http.Client{Transport: tr}, u+"page")
	if n := hits.Load() - before; n != 0 || !errors.Is(err, ErrNonPublic) {
		t.Errorf("through NewClientTransport(guard), the internal service was asked %d times (page: %v), want 0 and ErrNonPublic", n, err)
	}
}
