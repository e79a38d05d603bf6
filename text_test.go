package robotstxt

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/body"
)

// jsonRecords returns the JSON log records in logs, by message.
func jsonRecords(t *testing.T, logs string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	dec := json.NewDecoder(strings.NewReader(logs))
	for dec.More() {
		var r map[string]any
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		out[r["msg"].(string)] = r
	}
	return out
}

// TestLogDurationsJSON checks that the durations the Client and the
// Transport log read as Go duration strings under slog's JSONHandler, and
// that the Transport logs its refusals and holds at Debug level.
func TestLogDurationsJSON(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /private\nCrawl-delay: 60\n")
	s.route("/busy.html", serve(429, "busy", "Retry-After", "90"))
	down := newTestSite(t, "")
	down.route("/robots.txt", serve(503, "down", "Retry-After", "120"))
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newTestClient(t, WithUserAgent(testUA), WithLogger(logger))
	hc := &http.Client{Transport: NewTransport(c, nil, WithNoWait())}
	ctx := context.Background()
	if _, err := get(ctx, hc, s.URL+"/busy.html"); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{s.URL + "/private/x", s.URL + "/next.html", down.URL + "/x"} {
		if _, err := get(ctx, hc, u); !errors.Is(err, ErrDisallowed) && !errors.Is(err, ErrPaced) && !errors.Is(err, ErrDeferred) {
			t.Fatalf("%s: %v, want a refusal", u, err)
		}
	}

	recs := jsonRecords(t, buf.String())
	for _, tc := range []struct{ msg, key, want string }{
		{"robots.txt fetched", "fresh", ""},
		{"robots.txt unreachable", "retry_in", "2m0s"},
		// The last hold: the down site's robots.txt holds its pages too.
		{"authority held", "hold", "2m0s"},
		{"authority held", "retry_after", "2m0s"},
		{"request paced", "retry_in", ""},
		{"request deferred", "retry_in", ""},
	} {
		r, ok := recs[tc.msg]
		if !ok {
			t.Errorf("no %q record in\n%s", tc.msg, buf.String())
			continue
		}
		v, ok := r[tc.key].(string)
		if !ok {
			t.Errorf("%q: %s = %v (%T), want a duration string", tc.msg, tc.key, r[tc.key], r[tc.key])
			continue
		}
		if d, err := time.ParseDuration(v); err != nil || d <= 0 || tc.want != "" && v != tc.want || d != d.Round(time.Millisecond) {
			t.Errorf("%q: %s = %q, want a positive Go duration %s, rounded to the millisecond", tc.msg, tc.key, v, tc.want)
		}
	}
	if r := recs["request disallowed"]; r == nil || r["level"] != "DEBUG" || r["rule"] != "/private" || r["line"] != 2.0 {
		t.Errorf("request disallowed: %v", r)
	}

	// Refusals of any other kind are logged too, the URL without its
	// userinfo.
	u, _ := url.Parse(s.URL + "/other.html")
	u.User = url.UserPassword("me", "secret")
	req, _ := http.NewRequest(http.MethodGet, u.String(), nil)
	req.Header.Set("User-Agent", "OtherBot/2.0")
	if _, err := hc.Do(req); !errors.Is(err, ErrAgentMismatch) {
		t.Fatalf("another crawler's User-Agent: %v, want ErrAgentMismatch", err)
	}
	r := jsonRecords(t, buf.String())["request refused"]
	if want := s.URL + "/other.html"; r == nil || r["level"] != "DEBUG" || r["url"] != want || !strings.Contains(fmt.Sprint(r["error"]), "OtherBot") {
		t.Errorf("request refused: %v; want a Debug record of %s and the error", r, want)
	}
	if strings.Contains(buf.String(), "secret") {
		t.Errorf("the log shows the URL's password:\n%s", buf.String())
	}
}

// TestLongErrorKeepsItsCause: a failure whose text is cut (a long host
// name puts a lookup's past the bound) still says what failed to
// errors.As and errors.Is, as a short one does: the lookup's
// *net.DNSError, a dial's errno.
func TestLongErrorKeepsItsCause(t *testing.T) {
	checkLeaks(t)
	for _, n := range []int{10, 200} {
		host := strings.Repeat("a", n) + ".test"
		tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if strings.HasPrefix(addr, "refused.") {
				return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
			}
			h, _, _ := net.SplitHostPort(addr)
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: h, IsNotFound: true}}
		}}
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}))
		d, err := c.Check(context.Background(), "http://"+host+"/page")
		var dns *net.DNSError
		if !errors.Is(err, ErrDeferred) || !errors.As(d.Err, &dns) || dns.Name != host {
			t.Errorf("host of %d bytes: Err %.80v…; want its *net.DNSError", len(host), d.Err)
		}
		if d, _ := c.Check(context.Background(), "http://refused."+host+"/page"); !errors.Is(d.Err, syscall.ECONNREFUSED) {
			t.Errorf("host of %d bytes, refused: Err %v; want ECONNREFUSED", len(host), d.Err)
		}
	}
}

// TestErrorKeepsNoCertificates: a robots.txt whose certificate fails
// verification is deferred with an error that says why, to errors.As
// too, but keeps none of the certificates the server sent (a
// *tls.CertificateVerificationError holds them all), which the cache's
// byte budget does not count: a hostile site's 600 KiB certificates
// under names of its own would hold gigabytes in a cache counting 900
// bytes an entry.
func TestErrorKeepsNoCertificates(t *testing.T) {
	checkLeaks(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes the test fails
	srv.StartTLS()
	defer srv.Close()
	trusted := x509.NewCertPool()
	trusted.AddCert(srv.Certificate())
	for _, tc := range []struct {
		name  string
		roots *x509.CertPool
		host  string
	}{
		{"unknown authority", x509.NewCertPool(), srv.Listener.Addr().String()},
		{"another name", trusted, "a.test:443"},
	} {
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: tc.roots},
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
			}}
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}))
		d, err := c.Check(context.Background(), "https://"+tc.host+"/page")
		tr.CloseIdleConnections()
		var ce *tls.CertificateVerificationError
		if !errors.Is(err, ErrDeferred) || !strings.Contains(d.Err.Error(), "certificate") || !errors.As(d.Err, &ce) || ce.UnverifiedCertificates != nil {
			t.Errorf("%s: Err %v; want a deferral saying why, a *tls.CertificateVerificationError keeping no certificate", tc.name, d.Err)
			continue
		}
		var ua x509.UnknownAuthorityError
		var he x509.HostnameError
		switch {
		case errors.As(d.Err, &ua):
			if ua.Cert != nil {
				t.Errorf("%s: the UnknownAuthorityError keeps its certificate", tc.name)
			}
		case errors.As(d.Err, &he):
			t.Errorf("%s: a HostnameError, which holds the certificate, kept", tc.name)
		case !strings.Contains(ce.Error(), "not a.test"):
			t.Errorf("%s: %q does not say which name failed", tc.name, ce.Error())
		}
	}
}

// TestCapErrKeepsNoCertificateUnderAnOpError: a *net.OpError that wraps a
// TLS error (an HTTPS proxy's handshake) is kept as a copy holding no
// certificate, and a timeout under one still says so.
func TestCapErrKeepsNoCertificateUnderAnOpError(t *testing.T) {
	cert := &x509.Certificate{Raw: make([]byte, 1<<16)}
	err := &url.Error{Op: "Get", URL: "https://a.test/robots.txt", Err: &net.OpError{Op: "proxyconnect", Net: "tcp",
		Err: &tls.CertificateVerificationError{UnverifiedCertificates: []*x509.Certificate{cert}, Err: x509.UnknownAuthorityError{Cert: cert}}}}
	c := capErr(err)
	var ce *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var op *net.OpError
	if !errors.As(c, &op) || op.Op != "proxyconnect" || !errors.As(c, &ce) || ce.UnverifiedCertificates != nil || !errors.As(c, &ua) || ua.Cert != nil {
		t.Errorf("%v: the OpError or the certificate error lost, or a certificate kept", c)
	}
	timeout := &url.Error{Op: "Get", URL: "http://a.test/robots.txt", Err: &net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{errors.New("i/o timeout")}}}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	var ne net.Error
	if c := capErr(timeout); !errors.As(c, &ne) || !ne.Timeout() {
		t.Errorf("%v: not a timeout", c)
	}
	if c := capErr(refused); !errors.Is(c, syscall.ECONNREFUSED) || errors.As(c, &ne) && ne.Timeout() {
		t.Errorf("%v: ECONNREFUSED lost, or a timeout", c)
	}
	deadline := &net.OpError{Op: "read", Net: "tcp", Err: fmt.Errorf("poll: %w", os.ErrDeadlineExceeded)}
	closed := &net.OpError{Op: "read", Net: "tcp", Err: net.ErrClosed}
	if c := capErr(deadline); !errors.Is(c, os.ErrDeadlineExceeded) {
		t.Errorf("%v: os.ErrDeadlineExceeded lost", c)
	}
	if c := capErr(closed); !errors.Is(c, net.ErrClosed) {
		t.Errorf("%v: net.ErrClosed lost", c)
	}
}

// timeoutErr is a net.Error that timed out, as a Client.Timeout's
// *url.Error is.
type timeoutErr struct{ error }

func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return false }
func (e timeoutErr) Unwrap() error { return e.error }

// TestCapErr: a cut error keeps the text of each error of the chain, to
// maxCauseDepth, for errors.Unwrap, the sentinels and a timeout, and
// counts the texts it holds.
func TestCapErr(t *testing.T) {
	err := fmt.Errorf("a: %w", fmt.Errorf("b: %w", fmt.Errorf("c: %w", fmt.Errorf("d: %w", fmt.Errorf("e: %w", io.ErrUnexpectedEOF)))))
	c := capErr(timeoutErr{err})
	var texts []string
	for e := c; e != nil; e = errors.Unwrap(e) {
		texts = append(texts, e.Error())
	}
	// The timeoutErr says what its "a:" says: one level.
	want := []string{"a: b: c: d: e: unexpected EOF", "b: c: d: e: unexpected EOF", "c: d: e: unexpected EOF", "d: e: unexpected EOF"}
	if !slices.Equal(texts, want) {
		t.Errorf("levels %q, want %q", texts, want)
	}
	var ne net.Error
	if !errors.Is(c, io.ErrUnexpectedEOF) || !errors.As(c, &ne) || !ne.Timeout() {
		t.Errorf("%v: lost its sentinel or its timeout", c)
	}
	if n := causeBytes(c); n != int64(len(want[1])+len(want[2])+len(want[3])) {
		t.Errorf("causeBytes = %d", n)
	}
	// A wrapper that says only what it wraps says is no level of its own.
	same := capErr(fmt.Errorf("a: %w", timeoutErr{io.ErrUnexpectedEOF}))
	if inner := errors.Unwrap(same); inner == nil || inner.Error() != "unexpected EOF" || errors.Unwrap(inner) != nil {
		t.Errorf("levels of %v: %v", same, inner)
	}
	if capErr(nil) != nil || causeBytes(errors.New("x")) != 0 {
		t.Error("nil or a plain error")
	}
}

// TestStoredCauseTellsApartAsCapErr: for each failure a fetch meets, the
// copy a process rebuilds from a Store (storedCause of causesOf) answers
// every question below as the fetching process's copy (capErr) does.
func TestStoredCauseTellsApartAsCapErr(t *testing.T) {
	failures := failures()
	questions := map[string]func(error) bool{
		"timeout": func(err error) bool { var ne net.Error; return errors.As(err, &ne) && ne.Timeout() },
		"not found": func(err error) bool {
			var dns *net.DNSError
			return errors.As(err, &dns) && dns.IsNotFound
		},
		"refused": func(err error) bool {
			var op *net.OpError
			return errors.Is(err, syscall.ECONNREFUSED) && errors.As(err, &op)
		},
		"reset": func(err error) bool {
			var op *net.OpError
			return errors.Is(err, syscall.ECONNRESET) && errors.As(err, &op)
		},
		"certificate":       func(err error) bool { var ce *tls.CertificateVerificationError; return errors.As(err, &ce) },
		"unknown authority": func(err error) bool { var ua x509.UnknownAuthorityError; return errors.As(err, &ua) },
		"hostname":          func(err error) bool { var he x509.HostnameError; return errors.As(err, &he) },
		"record":            func(err error) bool { var re tls.RecordHeaderError; return errors.As(err, &re) },
		"alert":             func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == "remote error" },
	}
	for r := range x509.InvalidReason(16) {
		questions[fmt.Sprint("invalid for reason ", r)] = func(err error) bool {
			var ie x509.CertificateInvalidError
			return errors.As(err, &ie) && ie.Reason == r
		}
	}
	for _, s := range causeSentinels {
		questions["is "+s.Error()] = func(err error) bool { return errors.Is(err, s) }
	}
	for name, err := range failures {
		mem := capErr(err)
		stored := storedCause(mem.Error(), causesOf(err), kindOf(mem))
		if stored.Error() != mem.Error() {
			t.Errorf("%s: text %q, want %q", name, stored, mem)
		}
		for q, ask := range questions {
			if got, want := ask(stored), ask(mem); got != want {
				t.Errorf("%s: %s? stored %v, fetched %v", name, q, got, want)
			}
		}
	}
}

// failures returns failures a robots.txt fetch meets, by name, as net/http
// and the Client report them.
func failures() map[string]error {
	get := func(err error) error { return &url.Error{Op: "Get", URL: "https://a.test/robots.txt", Err: err} }
	cert := &x509.Certificate{Raw: make([]byte, 64)}
	return map[string]error{
		"timeout":      get(&net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{errors.New("i/o timeout")}}),
		"deadline":     get(fmt.Errorf("fetch: %w", context.DeadlineExceeded)),
		"canceled":     get(context.Canceled),
		"poll":         get(&net.OpError{Op: "read", Net: "tcp", Err: fmt.Errorf("poll: %w", os.ErrDeadlineExceeded)}),
		"closed":       get(&net.OpError{Op: "read", Net: "tcp", Err: net.ErrClosed}),
		"refused":      get(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}),
		"reset":        get(&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}),
		"no such host": get(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "a.test", IsNotFound: true}}),
		"certificate":  get(&tls.CertificateVerificationError{UnverifiedCertificates: []*x509.Certificate{cert}, Err: x509.UnknownAuthorityError{Cert: cert}}),
		"expired": get(&tls.CertificateVerificationError{UnverifiedCertificates: []*x509.Certificate{cert},
			Err: x509.CertificateInvalidError{Cert: cert, Reason: x509.Expired, Detail: "current time is after"}}),
		"hostname": get(&tls.CertificateVerificationError{UnverifiedCertificates: []*x509.Certificate{cert},
			Err: x509.HostnameError{Certificate: cert, Host: "a.test"}}),
		"invalid unwrapped": get(x509.CertificateInvalidError{Cert: cert, Reason: x509.NameConstraintsWithoutSANs}),
		"unknown unwrapped": get(fmt.Errorf("verify: %w", x509.UnknownAuthorityError{Cert: cert})),
		"alert":             get(&net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")}), // crypto/tls's over TCP
		"proxy alert":       get(&net.OpError{Op: "proxyconnect", Net: "tcp", Err: &net.OpError{Op: "remote error", Err: errors.New("tls: unrecognized name")}}),
		"proxy certificate": get(&net.OpError{Op: "proxyconnect", Net: "tcp", Err: &tls.CertificateVerificationError{Err: x509.CertificateInvalidError{Reason: x509.Expired}}}),
		"no TLS":            get(tls.RecordHeaderError{Msg: "tls: first record does not look like a TLS handshake"}),
		"cut":               get(io.ErrUnexpectedEOF),
		"eof":               get(io.EOF),
		"coding":            fmt.Errorf("robots.txt: %w", body.ErrContentCoding),
		"redirects":         fmt.Errorf("%w: 302 without a usable Location", errRedirects),
		"non-public":        fmt.Errorf("dial: %w", ErrNonPublic),
		"other":             errors.New("something else"),
	}
}

// TestRefusalLogWithholdsCredentials: request URLs whose password
// net/url does not read as userinfo, but browsers (WHATWG) do, are
// refused with ErrBadURL and logged at Debug without it, in the URL and
// in the error: "http:alice:secret@example.com/x" (an opaque part), a
// Host holding an '@', "http:/alice:..." and "http:///alice:..." (a
// path, no host), and a path not starting with '/' (url.JoinPath on a
// URL with a scheme alone makes one; String writes http://alice:...).
func TestRefusalLogWithholdsCredentials(t *testing.T) {
	checkLeaks(t)
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	v := newVhosts(t, map[string]string{"a.test": "User-agent: *\nAllow: /\n"})
	c := newTestClient(t, WithUserAgent(testUA), WithLogger(logger), WithHTTPClient(&http.Client{Transport: v.transport(t)}))
	tr := NewTransport(c, v.transport(t), WithNoWait())
	parsed := func(raw string) *url.URL {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	site := parsed("http://a.test/x")
	reqs := []struct {
		u            *url.URL
		host, header string // Request.Host, a Host header
	}{
		{u: parsed("http:alice:secret@a.test/x")},
		{u: &url.URL{Scheme: "http", Host: "alice:secret@a.test", Path: "/"}},
		{u: parsed("http:/alice:secret@a.test/x")},
		{u: parsed("http:///alice:secret@a.test/x")},
		{u: (&url.URL{Scheme: "http"}).JoinPath("alice:secret@a.test", "x")},
		{u: (&url.URL{Scheme: "http", Host: "a.test"}).JoinPath("alice:secret@b.test", "x")},
		{u: site, host: "alice:secret@a.test"},
		{u: site, header: "alice:secret@a.test"},
	}
	for _, r := range reqs {
		req, _ := http.NewRequest(http.MethodGet, "http://placeholder.invalid/", nil)
		req.URL, req.Host = r.u, r.host
		if r.header != "" {
			req.Header["Host"] = []string{r.header}
		}
		req.Header.Set("User-Agent", testUA)
		_, err := tr.RoundTrip(req)
		if !errors.Is(err, ErrBadURL) {
			t.Fatalf("%#v, Host %q, header %q: %v, want ErrBadURL", r.u, r.host, r.header, err)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("%#v, Host %q, header %q: the error shows the password: %v", r.u, r.host, r.header, err)
		}
	}
	if n := strings.Count(logs.String(), "request refused"); n != len(reqs) {
		t.Errorf("%d refusals logged, want %d:\n%s", n, len(reqs), logs.String())
	}
	if strings.Contains(logs.String(), "secret") {
		t.Errorf("the Debug log shows a URL's password:\n%s", logs.String())
	}
}

// TestCausesOfServerAlert: an alert a TLS server sends is, as crypto/tls
// reports it over TCP, a *net.OpError "remote error" (not a
// tls.AlertError, which only QUIC reports): of the class causeAlert.
func TestCausesOfServerAlert(t *testing.T) {
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	s.TLS = &tls.Config{MaxVersion: tls.VersionTLS12}
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.StartTLS()
	defer s.Close()
	conn, err := tls.Dial("tcp", s.Listener.Addr().String(), &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true})
	if err == nil {
		conn.Close()
		t.Fatal("the handshake succeeded; want the server's protocol_version alert")
	}
	if c := causesOf(capErr(err)); c&causeAlert == 0 {
		t.Errorf("%v: classes %#x, not causeAlert", err, c)
	}
}

// TestFailureKindsRoundTrip: every kind knownKind admits, and no other,
// is the kind of the error kindError builds of it, alone or in a
// certificate verification error (a certificate's kind).
func TestFailureKindsRoundTrip(t *testing.T) {
	for kind := range uint16(maxKind + 2) {
		got := kindOf(kindError(kind, false, false))
		if known := knownKind(kind); known != (got == kind) {
			t.Errorf("kind %#x: knownKind %v, the kind of its error %#x", kind, known, got)
		}
		if knownKind(kind) && kind&^kindViaProxy != kindRecordHeader {
			if got := kindOf(kindError(kind, true, false)); got != kind {
				t.Errorf("kind %#x in a verification error: %#x", kind, got)
			}
		}
	}
}

// TestStoredCauseTellsApartDialAsCapErr: WithErrorPolicy's
// and DeferredError.Err's docs say a Store keeps the Op of a
// *net.OpError and a *net.DNSError's IsNotFound, IsTemporary and
// IsTimeout: a reader's policy asking those questions must get the
// fetching process's answers, for every failure a dial, a proxy's dial,
// a read or a write meets.
func TestStoredCauseTellsApartDialAsCapErr(t *testing.T) {
	get := func(err error) error { return &url.Error{Op: "Get", URL: "https://a.test/robots.txt", Err: err} }
	failures := map[string]error{
		"no such host": get(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "a.test", IsNotFound: true}}),
		"no such host, temporary": get(&net.OpError{Op: "dial", Net: "tcp",
			Err: &net.DNSError{Err: "no such host", Name: "a.test", IsNotFound: true, IsTemporary: true}}),
		"refused":           get(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}),
		"reset in the dial": get(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNRESET)}),
		"timeout":           get(&net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{errors.New("i/o timeout")}}),
		// As net/http reports a dial of the proxy, and a connection broken.
		"proxy refused": get(&net.OpError{Op: "proxyconnect", Net: "tcp",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}),
		"proxy timeout": get(&net.OpError{Op: "proxyconnect", Net: "tcp",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{errors.New("i/o timeout")}}}),
		"proxy not found": get(&net.OpError{Op: "proxyconnect", Net: "tcp",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "proxy.test", IsNotFound: true}}}),
		"proxy unknown authority": get(&net.OpError{Op: "proxyconnect", Net: "tcp",
			Err: &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}}),
		"read reset": get(fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w",
			&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)})),
		"read timed out": get(fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w",
			&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ETIMEDOUT)})),
		"write broken pipe": get(fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w",
			&net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EPIPE)})),
	}
	op := func(name string) func(error) bool {
		return func(err error) bool { var op *net.OpError; return errors.As(err, &op) && op.Op == name }
	}
	questions := map[string]func(error) bool{
		"a dial's":        op("dial"),
		"a proxy's":       op("proxyconnect"),
		"a read's":        op("read"),
		"a write's":       op("write"),
		"a net.OpError's": func(err error) bool { var op *net.OpError; return errors.As(err, &op) },
		"refused":         func(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) },
		"name not found":  func(err error) bool { var dns *net.DNSError; return errors.As(err, &dns) && dns.IsNotFound },
		"unknown authority": func(err error) bool {
			var ua x509.UnknownAuthorityError
			return errors.As(err, &ua)
		},
		"temporary resolver": func(err error) bool {
			var dns *net.DNSError
			return errors.As(err, &dns) && dns.IsTemporary
		},
	}
	for name, err := range failures {
		mem := capErr(err)
		stored := storedCause(mem.Error(), causesOf(err), kindOf(mem))
		for q, ask := range questions {
			if got, want := ask(stored), ask(mem); got != want {
				t.Errorf("%s: %s? stored %v, fetched %v", name, q, got, want)
			}
		}
	}
}
