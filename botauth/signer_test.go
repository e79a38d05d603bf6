package botauth

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/target"
)

const testAgent = "https://signature-agent.test/.well-known/http-message-signatures-directory"

// newTestSigner returns a Signer with the RFC 9421 test key for
// testAgent, failing the test if NewSigner does.
func newTestSigner(t testing.TB, opts ...Option) *Signer {
	t.Helper()
	s, err := NewSigner(rfcKey(t), testAgent, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testSite is a site whose clock is now and that already holds the key of
// each agent URL given, so that it verifies without fetching directories.
func testSite(now func() time.Time, pub ed25519.PublicKey, agents ...string) *site {
	s := &site{now: now, keys: make(map[string]map[string]ed25519.PublicKey)}
	for _, a := range agents {
		s.keys[a] = map[string]ed25519.PublicKey{thumbprint(pub): pub}
	}
	return s
}

// at is a clock stopped at t.
func at(t time.Time) func() time.Time { return func() time.Time { return t } }

func TestNewSignerRejects(t *testing.T) {
	good := rfcKey(t)
	mismatched := append(ed25519.PrivateKey(nil), good...)
	mismatched[40] ^= 1
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	for _, tc := range []struct {
		name  string
		key   ed25519.PrivateKey
		agent string
		opts  []Option
	}{
		{"nil key", nil, testAgent, nil},
		{"seed only", good.Seed(), testAgent, nil},
		{"public half not the seed's", mismatched, testAgent, nil},
		{"http", good, "http://crawler.example/.well-known/http-message-signatures-directory", nil},
		{"relative", good, "/.well-known/http-message-signatures-directory", nil},
		{"no host", good, "https:///.well-known/http-message-signatures-directory", nil},
		{"port only", good, "https://:443/.well-known/http-message-signatures-directory", nil},
		{"opaque", good, "https:crawler.example", nil},
		{"user information", good, "https://bot@crawler.example/keys", nil},
		{"fragment", good, "https://crawler.example/keys#k", nil},
		{"empty fragment", good, "https://crawler.example/keys#", nil},
		{"origin with a query", good, "https://crawler.example/?v=2", nil},
		{"origin with an empty query", good, "https://crawler.example?", nil},
		{"space", good, "https://crawler.example/my keys", nil},
		{"not ASCII", good, "https://crawler.example/clés", nil},
		{"bad URL", good, "https://crawler.example:port/keys", nil},
		{"dot-dot segment", good, "https://crawler.example/old/../keys", nil},
		{"dot segment", good, "https://crawler.example/./keys", nil},
		{"escaped dot-dot segment", good, "https://crawler.example/old/%2E%2e/keys", nil},
		{"half-escaped dot-dot at the end", good, "https://crawler.example/keys/.%2E", nil},
		{"backslash", good, "https://crawler.example/a\\keys", nil},
		{"port past 65535", good, "https://crawler.example:65536/keys", nil},
		{"port of six digits", good, "https://crawler.example:100000/keys", nil},
		{"port with a leading zero", good, "https://crawler.example:0443/keys", nil},
		{"escaped host", good, "https://cr%C3%89.example/keys", nil},
		{"IPv4 in shorthand", good, "https://127.1/keys", nil},
		{"IPv4 in hex", good, "https://0x7f.0.0.1/keys", nil},
		{"IPv6 not compressed", good, "https://[0:0::1]/keys", nil},
		{"IPv4 in IPv6", good, "https://[::ffff:127.0.0.1]/keys", nil},
		{"zero validity", good, testAgent, []Option{WithValidity(0)}},
		{"negative validity", good, testAgent, []Option{WithValidity(-time.Minute)}},
		{"under a second", good, testAgent, []Option{WithValidity(999 * time.Millisecond)}},
		{"over a day", good, testAgent, []Option{WithValidity(24*time.Hour + time.Second)}},
		{"last option wins", good, testAgent, []Option{WithValidity(time.Hour), WithValidity(25 * time.Hour)}},
		{"directory key nil", good, testAgent, []Option{WithDirectoryKeys(nil)}},
		{"directory key seed only", good, testAgent, []Option{WithDirectoryKeys(other.Seed())}},
		{"directory key's public half not the seed's", good, testAgent, []Option{WithDirectoryKeys(mismatched)}},
		{"directory key the Signer's", good, testAgent, []Option{WithDirectoryKeys(other, good)}},
		{"directory key twice", good, testAgent, []Option{WithDirectoryKeys(other), WithDirectoryKeys(other)}},
	} {
		if s, err := NewSigner(tc.key, tc.agent, tc.opts...); err == nil || s != nil {
			t.Errorf("%s: NewSigner = %v, %v; want an error", tc.name, s, err)
		} else if !strings.HasPrefix(err.Error(), "botauth: ") {
			t.Errorf("%s: error %q does not name the package", tc.name, err)
		}
	}
	// A URL that does not parse is wrapped.
	_, err := NewSigner(good, "https://crawler.example:port/keys")
	if ue := (*url.Error)(nil); !errors.As(err, &ue) {
		t.Errorf("NewSigner with an unparsable URL: %v, want a wrapped *url.Error", err)
	}
}

func TestNewSignerValidity(t *testing.T) {
	for _, tc := range []struct {
		opts []Option
		want int64
	}{
		{nil, 60},
		{[]Option{nil}, 60},
		{[]Option{WithValidity(time.Second)}, 1},
		{[]Option{WithValidity(90*time.Second + 999*time.Millisecond)}, 90},
		{[]Option{WithValidity(24 * time.Hour)}, 86400},
		{[]Option{WithValidity(25 * time.Hour), WithValidity(5 * time.Minute)}, 300},
	} {
		s := newTestSigner(t, tc.opts...)
		if s.validity != tc.want {
			t.Errorf("validity %d s, want %d", s.validity, tc.want)
		}
		s.now = func() time.Time { return time.Unix(1735689600, 0) }
		req, _ := http.NewRequest(http.MethodGet, "https://example.com/", nil)
		if err := s.Sign(req); err != nil {
			t.Fatal(err)
		}
		input := req.Header.Get("Signature-Input")
		// Within 24 hours of created, five seconds before now.
		if want := ";expires=" + strconv.FormatInt(1735689600+min(tc.want, 86400-6), 10) + ";"; !strings.Contains(input, want) {
			t.Errorf("Signature-Input %s, want %s", input, want)
		}
	}
}

// TestNewSignerAgents: the directory's path and the Signature-Agent
// member sent for an agent URL: a directory's URL as written, an origin
// serialised as revision -01 asks, however written.
func TestNewSignerAgents(t *testing.T) {
	const wellKnown = "/.well-known/http-message-signatures-directory"
	for _, tc := range []struct{ agent, path, sent string }{
		{testAgent, wellKnown, testAgent},
		{"https://Crawler.Example:8443/keys.json", "/keys.json", "https://Crawler.Example:8443/keys.json"},
		{"https://crawler.example/keys?v=2", "/keys", "https://crawler.example/keys?v=2"},
		{"https://crawler.example/a%20b/keys.json", "/a b/keys.json", "https://crawler.example/a%20b/keys.json"},
		// An origin, as revision -01 names a directory: at the well-known URI.
		{"https://crawler.example", wellKnown, "https://crawler.example"},
		{"https://crawler.example:8443/", wellKnown, "https://crawler.example:8443"},
		{"https://crawler.example:443/", wellKnown, "https://crawler.example"},
		{"https://Crawler.Example", wellKnown, "https://crawler.example"},
		{"HTTPS://crawler.example/", wellKnown, "https://crawler.example"},
		{"https://crawler.example:/", wellKnown, "https://crawler.example"},
		// Addresses as URL parsers write them, and the highest port.
		{"https://127.0.0.1/keys", "/keys", "https://127.0.0.1/keys"},
		{"https://[2001:db8::1]:8443/keys", "/keys", "https://[2001:db8::1]:8443/keys"},
		{"https://crawler.example:65535/keys", "/keys", "https://crawler.example:65535/keys"},
		{"https://v1.crawler.example/keys", "/keys", "https://v1.crawler.example/keys"},
	} {
		s, err := NewSigner(rfcKey(t), tc.agent)
		if err != nil {
			t.Errorf("NewSigner(%q): %v", tc.agent, err)
			continue
		}
		if s.agentPath != tc.path {
			t.Errorf("NewSigner(%q): path %q, want %q", tc.agent, s.agentPath, tc.path)
		}
		if want := `sig1="` + tc.sent + `"`; s.agentField != want {
			t.Errorf("NewSigner(%q): Signature-Agent %s, want %s", tc.agent, s.agentField, want)
		}
	}
}

func TestNewSignerCopiesKey(t *testing.T) {
	key := rfcKey(t)
	s, err := NewSigner(key, testAgent)
	if err != nil {
		t.Fatal(err)
	}
	clear(key)
	req, _ := http.NewRequest(http.MethodGet, "https://example.com/", nil)
	if err := s.Sign(req); err != nil {
		t.Fatal(err)
	}
	pub := rfcKey(t).Public().(ed25519.PublicKey)
	if _, err := testSite(time.Now, pub, testAgent).verifyRequest(req, "https"); err != nil {
		t.Errorf("signature after the caller's key was cleared: %v", err)
	}
}

// TestSignerPrintsNoKey: a Signer a crawler logs with %v, %+v or %#v, as
// configurations are, alone or in a struct of its own, shows no byte of a
// private key, in any form.
func TestSignerPrintsNoKey(t *testing.T) {
	key := rfcKey(t)
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	s, err := NewSigner(key, testAgent, WithDirectoryKeys(other))
	if err != nil {
		t.Fatal(err)
	}
	config := struct {
		Name   string
		Signer *Signer
	}{"crawler", s}
	for _, format := range []string{"%v", "%+v", "%#v"} {
		out := fmt.Sprintf(format, s) + fmt.Sprintf(format, config)
		for _, k := range []ed25519.PrivateKey{key, other} {
			seed := k.Seed()
			for _, form := range []string{fmt.Sprint(seed[:8]), fmt.Sprintf("%x", seed[:8]), fmt.Sprintf("%#v", seed[:4])} {
				if strings.Contains(out, strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(form, "[]byte{"), "["), "}")) {
					t.Errorf("%s of a Signer shows its private key (%s): %s", format, form, out)
				}
			}
		}
	}
}

func TestKeyID(t *testing.T) {
	if got := newTestSigner(t).KeyID(); got != rfcKeyThumb {
		t.Errorf("KeyID = %s, want %s", got, rfcKeyThumb)
	}
}

// TestSign signs with the clock and the nonce fixed, and checks the
// fields byte for byte, and that no other field changes.
func TestSign(t *testing.T) {
	s := newTestSigner(t)
	created := time.Unix(1735689600, 999e6)
	s.now = func() time.Time { return created }
	nonce := bytes.Repeat([]byte{0xfb, 0xef, 0xff}, 22)[:nonceSize]
	s.rand = bytes.NewReader(nonce)

	req, _ := http.NewRequest(http.MethodGet, "https://WWW.Example.COM:443/path?q=1", nil)
	req.Header.Set("User-Agent", "ExampleBot/1.0")
	req.Header.Set("Accept", "text/html")
	req.Header.Add("X-Twice", "a")
	req.Header.Add("X-Twice", "b")
	before := req.Header.Clone()
	if err := s.Sign(req); err != nil {
		t.Fatal(err)
	}

	want := map[string]string{
		"Signature-Agent": `sig1="` + testAgent + `"`,
		"Signature-Input": `sig1=("@authority" "signature-agent";key="sig1");created=1735689595;expires=1735689661;keyid="` + rfcKeyThumb +
			`";nonce="` + base64.StdEncoding.EncodeToString(nonce) + `";tag="web-bot-auth"`,
	}
	for k, v := range want {
		if got := req.Header.Values(k); len(got) != 1 || got[0] != v {
			t.Errorf("%s: %q\nwant %s", k, got, v)
		}
	}
	if !strings.Contains(want["Signature-Input"], `nonce="++//`) {
		t.Errorf("nonce not in standard base64: %s", want["Signature-Input"])
	}
	if got := req.Header.Values("Signature"); len(got) != 1 || !strings.HasPrefix(got[0], "sig1=:") {
		t.Errorf("Signature: %q", got)
	}
	after := req.Header.Clone()
	for _, k := range []string{"Signature-Agent", "Signature-Input", "Signature"} {
		delete(after, k)
	}
	if !maps.EqualFunc(before, after, func(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }) {
		t.Errorf("other fields changed:\nbefore %v\n after %v", before, after)
	}

	pub := rfcKey(t).Public().(ed25519.PublicKey)
	if _, err := testSite(at(created), pub, testAgent).verifyRequest(req, "https"); err != nil {
		t.Errorf("test verifier: %v", err)
	}
}

// TestSignWithAClockAhead: a crawler whose clock runs ahead of a site's
// by less than clockLead has every signature verified there, at any
// moment within a second (botauth82: created was the crawler's clock,
// and a site refuses a created in its future, so a lead of 300 ms lost
// a quarter of them and one of 2 s every one); and with the longest
// validity, created to expires stays within it.
func TestSignWithAClockAhead(t *testing.T) {
	pub := rfcKey(t).Public().(ed25519.PublicKey)
	base := time.Unix(1735689600, 0)
	const transit = 50 * time.Millisecond
	for _, lead := range []time.Duration{-50 * time.Second, 0, 300 * time.Millisecond, 2 * time.Second, clockLead - transit} {
		refused := 0
		var last error
		for i := range 20 {
			site := base.Add(time.Duration(i) * time.Second / 20)
			s := newTestSigner(t)
			s.now = at(site.Add(lead))
			req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/page", nil)
			if err := s.Sign(req); err != nil {
				t.Fatal(err)
			}
			req.Host = req.URL.Host
			if _, err := testSite(at(site.Add(transit)), pub, testAgent).verifyRequest(req, "https"); err != nil {
				refused, last = refused+1, err
			}
		}
		if refused > 0 {
			t.Errorf("a crawler's clock %v ahead of the site's: %d of 20 signatures refused: %v", lead, refused, last)
		}
	}
	s := newTestSigner(t, WithValidity(maxValidity))
	s.now = at(base)
	req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/page", nil)
	if err := s.Sign(req); err != nil {
		t.Fatal(err)
	}
	in := req.Header.Get("Signature-Input")
	want := fmt.Sprintf("created=%d;expires=%d;", base.Add(-clockLead).Unix(), base.Add(maxValidity-clockLead-time.Second).Unix())
	// The directory's signature, which lasts longer than a request's, is
	// dated as early.
	rec := httptest.NewRecorder()
	s.Directory().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, testAgent, nil))
	if in := rec.Header().Get("Signature-Input"); !strings.Contains(in, fmt.Sprintf("created=%d;", base.Add(-clockLead).Unix())) {
		t.Errorf("the directory's signature: %s; want created %v before now", in, clockLead)
	}
	if !strings.Contains(in, want) {
		t.Errorf("with the longest validity: %s; want %s", in, want)
	}
}

// TestSignLastsItsValidity: a signature is valid for its validity from
// when it is made, whatever the fraction of the second (review132: one
// of a second made at .95 s expired 50 ms later).
func TestSignLastsItsValidity(t *testing.T) {
	base := time.Unix(1735689600, 0)
	for _, frac := range []time.Duration{0, time.Millisecond, 950 * time.Millisecond, time.Second - 1} {
		s := newTestSigner(t, WithValidity(time.Second))
		made := base.Add(frac)
		s.now = at(made)
		req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/page", nil)
		if err := s.Sign(req); err != nil {
			t.Fatal(err)
		}
		_, rest, _ := strings.Cut(req.Header.Get("Signature-Input"), ";expires=")
		exp, _, _ := strings.Cut(rest, ";")
		e, err := strconv.ParseInt(exp, 10, 64)
		if err != nil || time.Unix(e, 0).Before(made.Add(time.Second)) {
			t.Errorf("made at +%v with a second's validity: expires %s, before %v", frac, exp, made.Add(time.Second))
		}
	}
}

// TestSignVerifies checks a signed request with the test verifier, as
// is and changed in each way a signature must not survive.
func TestSignVerifies(t *testing.T) {
	const other = "https://other.example/.well-known/http-message-signatures-directory"
	s := newTestSigner(t)
	created := time.Unix(1735689600, 0)
	s.now = func() time.Time { return created }
	pub := rfcKey(t).Public().(ed25519.PublicKey)

	for _, tc := range []struct {
		name    string
		change  func(r *http.Request)
		at      time.Time
		wantErr string // "" when the signature must verify
	}{
		{"as signed", func(*http.Request) {}, created, ""},
		{"at expires", func(*http.Request) {}, created.Add(time.Minute), ""},
		{"other path and method", func(r *http.Request) {
			r.Method = http.MethodPost
			r.URL.Path = "/elsewhere"
		}, created, ""},
		{"Host with the default port", func(r *http.Request) { r.Host = "www.example.com:443" }, created, ""},
		{"changed authority", func(r *http.Request) { r.Host = "evil.example.com" }, created, "does not verify"},
		{"changed port", func(r *http.Request) { r.Host = "www.example.com:8443" }, created, "does not verify"},
		{"expired", func(*http.Request) {}, created.Add(time.Minute + time.Second), "expired"},
		{"a site's clock behind by the lead", func(*http.Request) {}, created.Add(-clockLead), ""},
		{"created in the future", func(*http.Request) {}, created.Add(-clockLead - time.Second), "future"},
		{"changed Signature-Agent", func(r *http.Request) {
			r.Header.Set("Signature-Agent", `sig1="`+other+`"`)
		}, created, "does not verify"},
		{"Signature-Agent as a bare String", func(r *http.Request) {
			r.Header.Set("Signature-Agent", `"`+testAgent+`"`)
		}, created, "Signature-Agent"},
		{"Signature-Agent member relabelled", func(r *http.Request) {
			r.Header.Set("Signature-Agent", `agent=`+`"`+testAgent+`"`)
		}, created, "member sig1"},
		{"no Signature-Agent", func(r *http.Request) { r.Header.Del("Signature-Agent") }, created, "member sig1"},
		{"tampered signature", func(r *http.Request) {
			d, _ := parseDict(r.Header.Get("Signature"))
			sig, _ := d.get("sig1")
			sig.value.([]byte)[0] ^= 1
			r.Header.Set("Signature", "sig1="+sig.serialize())
		}, created, "does not verify"},
		{"longer expiry claimed", func(r *http.Request) {
			r.Header.Set("Signature-Input", strings.Replace(r.Header.Get("Signature-Input"), "expires=1735689660", "expires=1735776000", 1))
		}, created, "does not verify"},
		{"other nonce claimed", func(r *http.Request) {
			in := r.Header.Get("Signature-Input")
			i := strings.Index(in, `nonce="`) + len(`nonce="`)
			r.Header.Set("Signature-Input", in[:i]+"AAAA"+in[i+4:])
		}, created, "does not verify"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/page", nil)
			if err := s.Sign(req); err != nil {
				t.Fatal(err)
			}
			tc.change(req)
			// On a server, Host carries the authority.
			if req.Host == "" {
				req.Host = req.URL.Host
			}
			_, err := testSite(at(tc.at), pub, testAgent, other).verifyRequest(req, "https")
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("verify: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("verify: %v, want an error with %q", err, tc.wantErr)
			}
		})
	}
}

// TestSignAgain checks that a request signed twice, or carrying another
// signer's fields, carries one signature: the new one.
func TestSignAgain(t *testing.T) {
	s := newTestSigner(t)
	pub := rfcKey(t).Public().(ed25519.PublicKey)
	req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/", nil)
	req.Header.Set("Signature-Agent", `other="https://x.example/k"`)
	req.Header.Add("Signature-Input", `other=("@authority");created=1;keyid="k";tag="web-bot-auth"`)
	req.Header.Add("Signature", `other=:AAAA:`)
	var first http.Header
	for i := range 2 {
		if err := s.Sign(req); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"Signature-Agent", "Signature-Input", "Signature"} {
			if got := req.Header.Values(k); len(got) != 1 || !strings.HasPrefix(got[0], "sig1=") || strings.Contains(got[0], "other") {
				t.Errorf("signing %d: %s: %q, want one sig1 member", i+1, k, got)
			}
		}
		labels, err := labelsTagged(req.Header, "web-bot-auth")
		if err != nil || len(labels) != 1 {
			t.Errorf("signing %d: labels %v, %v", i+1, labels, err)
		}
		if _, err := testSite(time.Now, pub, testAgent).verifyRequest(req, "https"); err != nil {
			t.Errorf("signing %d: %v", i+1, err)
		}
		if i == 0 {
			first = req.Header.Clone()
		}
	}
	if first.Get("Signature") == req.Header.Get("Signature") {
		t.Error("signing again kept the signature, and so its nonce")
	}
}

func TestSignErrors(t *testing.T) {
	s := newTestSigner(t)
	for _, tc := range []struct {
		name string
		req  *http.Request
	}{
		{"no host", &http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "https", Path: "/"}, Header: http.Header{}}},
		{"no URL or host", &http.Request{Method: http.MethodGet, Header: http.Header{}}},
		{"host not UTF-8", &http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "https", Host: "b\xfccher.example", Path: "/"}, Header: http.Header{}}},
		{"Host field not UTF-8", &http.Request{Method: http.MethodGet, Host: "b\xfccher.example", URL: &url.URL{Scheme: "https", Host: "xn--bcher-kva.example"}, Header: http.Header{}}},
	} {
		if err := s.Sign(tc.req); err == nil {
			t.Errorf("%s: Sign succeeded", tc.name)
		}
		if len(tc.req.Header) != 0 {
			t.Errorf("%s: failed Sign set %v", tc.name, tc.req.Header)
		}
	}

	broken := errors.New("no entropy")
	s.rand = iotest.ErrReader(broken)
	req, _ := http.NewRequest(http.MethodGet, "https://example.com/", nil)
	if err := s.Sign(req); !errors.Is(err, broken) {
		t.Errorf("Sign with a failing random source: %v, want it wrapped", err)
	}
	if len(req.Header) != 0 {
		t.Errorf("failed Sign set %v", req.Header)
	}
}

func TestSignNilHeader(t *testing.T) {
	req := &http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "https", Host: "example.com", Path: "/"}}
	if err := newTestSigner(t).Sign(req); err != nil {
		t.Fatal(err)
	}
	if req.Header.Get("Signature") == "" {
		t.Error("no Signature")
	}
}

func TestSignConcurrent(t *testing.T) {
	s := newTestSigner(t)
	pub := rfcKey(t).Public().(ed25519.PublicKey)
	site := testSite(time.Now, pub, testAgent)
	var wg sync.WaitGroup
	nonces := make(chan string, 64)
	for range 8 {
		wg.Go(func() {
			for range 8 {
				req, _ := http.NewRequest(http.MethodGet, "https://example.com/", nil)
				if err := s.Sign(req); err != nil {
					t.Error(err)
					return
				}
				if _, err := site.verifyRequest(req, "https"); err != nil {
					t.Error(err)
				}
				in := req.Header.Get("Signature-Input")
				nonces <- in[strings.Index(in, "nonce="):]
			}
		})
	}
	wg.Wait()
	close(nonces)
	seen := make(map[string]bool)
	for n := range nonces {
		if seen[n] {
			t.Errorf("nonce used twice: %s", n)
		}
		seen[n] = true
	}
}

func TestZeroSignerPanics(t *testing.T) {
	for name, use := range map[string]func(s *Signer){
		"Sign":         func(s *Signer) { s.Sign(httptest.NewRequest(http.MethodGet, "https://example.com/", nil)) },
		"Directory":    func(s *Signer) { s.Directory() },
		"NewTransport": func(s *Signer) { NewTransport(nil, s) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "NewSigner") {
					t.Errorf("%s with a zero Signer: panic %v, want one naming NewSigner", name, r)
				}
			}()
			use(new(Signer))
		}()
	}
}

// TestSignDropsFieldsInAnySpelling: net/http sends a Header key as it is
// spelled, so Sign drops the signature fields under any spelling, and
// from the trailer too, before it sets its own.
func TestSignDropsFieldsInAnySpelling(t *testing.T) {
	s := newTestSigner(t)
	req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/", nil)
	req.Header["signature"] = []string{"stale=:AAAA:"}
	req.Header["SIGNATURE-INPUT"] = []string{`stale=("@authority");created=1;keyid="k"`}
	req.Header["signature-Agent"] = []string{`stale="https://stale.example/keys"`}
	req.Header["Signatures"] = []string{"kept"}
	req.Trailer = http.Header{"Signature": {"stale=:AAAA:"}, "signature-input": {"stale=()"}, "X-Sum": {"kept"}}
	if err := s.Sign(req); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	req.Header.Write(&b)
	req.Trailer.Write(&b)
	if strings.Contains(b.String(), "stale") {
		t.Errorf("stale fields sent:\n%s", b.String())
	}
	if req.Header.Get("Signatures") != "kept" || req.Trailer.Get("X-Sum") != "kept" || len(req.Trailer) != 1 {
		t.Errorf("other fields changed:\n%s", b.String())
	}
	for _, f := range []string{"Signature", "Signature-Input", "Signature-Agent"} {
		if v := req.Header.Values(f); len(v) != 1 || !strings.HasPrefix(v[0], "sig1=") {
			t.Errorf("%s: %q", f, v)
		}
	}
}

// FuzzSignedAsSent signs a request for any Host (or URL host) and
// scheme, writes it as net/http sends it, reads it back as a server does
// and verifies it as a site would: a request Sign accepts and net/http
// sends must verify, since the signature is over the authority the
// server reads from the Host it receives.
func FuzzSignedAsSent(f *testing.F) {
	for _, h := range []string{"www.example.com", "WWW.Example.COM:443", "example.com:", "[::1]:443", "[fe80::1%25en0]:8443", "bücher.example", "example.com.", "a_b.example:080", ":443", ":"} {
		f.Add(h, "", true)
		f.Add("", h, false)
	}
	f.Fuzz(func(t *testing.T, host, urlHost string, https bool) {
		s := newTestSigner(t)
		created := time.Unix(1735689600, 0)
		s.now = func() time.Time { return created }
		pub := rfcKey(t).Public().(ed25519.PublicKey)
		scheme := "http"
		if https {
			scheme = "https"
		}
		req := &http.Request{Method: "GET", URL: &url.URL{Scheme: scheme, Host: urlHost, Path: "/p"}, Host: host, Header: http.Header{}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
		if err := s.Sign(req); err != nil {
			return // fails closed
		}
		var buf bytes.Buffer
		if err := req.Write(&buf); err != nil {
			return // net/http refuses to send it: nothing leaks
		}
		got, err := http.ReadRequest(bufio.NewReader(&buf))
		if err != nil {
			return
		}
		if _, _, err := target.Split(scheme+"://"+got.Host+"/", nil); err != nil {
			return // no server is at such a Host
		}
		if _, err := testSite(at(created), pub, testAgent).verifyRequest(got, scheme); err != nil {
			in := req.Header.Get("Signature-Input")
			t.Fatalf("Host %q, URL host %q, %s: sent Host %q; signed request fails verification: %v\nSignature-Input: %s",
				host, urlHost, scheme, got.Host, err, in)
		}
	})
}

// FuzzCheckAgent gives NewSigner any agent URL: one it accepts must be
// an https URL without user information or fragment whose
// Signature-Agent field reads back, as a Dictionary, as that URL, its
// origin as NewSigner's doc serialises it (lower case, no default port:
// fuzz89 found the check wanted the bytes given), which NewSigner sends
// as it is.
func FuzzCheckAgent(f *testing.F) {
	for _, a := range []string{testAgent, "https://example.com", "https://example.com/", "https://example.com/dir?x=1", "http://x", "https://u@x/", "https://x/#f", `https://x/"\`} {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, agent string) {
		s, err := NewSigner(rfcKey(t), agent)
		if err != nil {
			return
		}
		u, err := url.Parse(agent)
		if err != nil || u.Scheme != "https" || u.User != nil || strings.Contains(agent, "#") || u.Hostname() == "" {
			t.Fatalf("accepted agent %q: %v", agent, err)
		}
		sent := func(s *Signer) string {
			req, _ := http.NewRequest("GET", "https://www.example.com/", nil)
			if err := s.Sign(req); err != nil {
				t.Fatal(err)
			}
			d, err := parseDict(req.Header.Get("Signature-Agent"))
			if err != nil {
				t.Fatalf("agent %q: Signature-Agent %q: %v", agent, req.Header.Get("Signature-Agent"), err)
			}
			m, ok := d.get("sig1")
			v, isString := m.value.(string)
			if !ok || !isString {
				t.Fatalf("agent %q: Signature-Agent %q reads as %v", agent, req.Header.Get("Signature-Agent"), m.value)
			}
			return v
		}
		v := sent(s)
		if origin := (u.Path == "" || u.Path == "/") && !strings.Contains(agent, "?"); !origin && v != agent {
			t.Fatalf("agent %q sent as %q", agent, v)
		} else if vu, err := url.Parse(v); origin && (err != nil || vu.Scheme != "https" || vu.User != nil || vu.Path != "" ||
			vu.Host != strings.ToLower(vu.Host) || vu.Port() == "443") {
			t.Fatalf("origin %q sent as %q: not serialised", agent, v)
		} else if origin && !sameOrigin(u, vu) {
			t.Fatalf("origin %q sent as %q: another origin", agent, v)
		}
		if again, err := NewSigner(rfcKey(t), v); err != nil || sent(again) != v {
			t.Fatalf("agent %q sent as %q, which NewSigner does not send as it is: %v", agent, v, err)
		}
	})
}

// sameOrigin reports whether sent serialises the origin agent names, where
// agent's host is plain ASCII (a mapped or escaped one is
// TestNewSignerOriginAsVerifiersRead's): its host in lower case, its port
// without leading zeros, none for 443.
func sameOrigin(agent, sent *url.URL) bool {
	host := agent.Hostname()
	if strings.ContainsAny(host, "%[") || !ascii.IsASCII(host) {
		return true
	}
	port := strings.TrimLeft(agent.Port(), "0")
	if port == "443" || agent.Port() == "" {
		port = ""
	} else if port == "" {
		port = "0"
	}
	return sent.Hostname() == strings.ToLower(host) && sent.Port() == port
}

// TestNewSignerOriginAsVerifiersRead: an origin agent URL whose host or
// port a URL parser reads as another spelling (WHATWG's, which
// Cloudflare's verifier and fetch use; RFC 6454 serialises an origin
// after it) must be sent as that origin is serialised, as NewSigner's
// doc promises (lower case, no default port), or refused. A port written
// with a leading zero is port 443, and a host written with percent-
// encoded bytes is the name they decode to, mapped (É is é).
func TestNewSignerOriginAsVerifiersRead(t *testing.T) {
	for _, tc := range []struct{ agent, serialised string }{
		{"https://crawler.example:0443", "https://crawler.example"},
		{"https://crawler.example:00443/", "https://crawler.example"},
		{"https://crawler.example:08443", "https://crawler.example:8443"},
		// crÉ.example, which fetch maps to cré.example: xn--cr-cja.example
		// (NewSigner encodes É unmapped: xn--cr-lga.example, another name).
		{"https://cr%C3%89.example", "https://xn--cr-cja.example"},
		// Full-width b: b.test to fetch, xn--ni7c.test (another name) as sent.
		{"https://%EF%BD%82.test", "https://b.test"},
	} {
		s, err := NewSigner(rfcKey(t), tc.agent)
		if err != nil {
			continue // refused: fine
		}
		if want := `sig1="` + tc.serialised + `"`; s.agentField != want {
			t.Errorf("NewSigner(%q) sends Signature-Agent %s; the origin serialised is %s", tc.agent, s.agentField, want)
		}
	}
}
