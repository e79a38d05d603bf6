package botauth

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestDirectoryVector serves the draft's signed directory response
// vector with the handler, clock and lifetime set to the vector's, and
// compares the response byte for byte.
func TestDirectoryVector(t *testing.T) {
	var v struct {
		Key struct {
			D string `json:"d"`
			X string `json:"x"`
		} `json:"key"`
		Request struct {
			Method string `json:"method"`
			Host   string `json:"host"`
			Path   string `json:"path"`
			Accept string `json:"accept"`
		} `json:"request"`
		Created        int64  `json:"created"`
		Expires        int64  `json:"expires"`
		Body           string `json:"body"`
		ContentDigest  string `json:"content_digest"`
		SignatureBase  string `json:"signature_base"`
		SignatureInput string `json:"signature_input"`
		Signature      string `json:"signature"`
	}
	readVectors(t, "draft_signed_directory.json", &v)
	s, err := NewSigner(jwkKey(t, v.Key.D, v.Key.X), "https://"+v.Request.Host+v.Request.Path)
	if err != nil {
		t.Fatal(err)
	}
	s.now = func() time.Time { return time.Unix(v.Created, 0).Add(clockLead) }
	s.directoryValidity = v.Expires - v.Created - int64(clockLead/time.Second)

	req := httptest.NewRequest(v.Request.Method, "https://"+v.Request.Host+v.Request.Path, nil)
	req.Header.Set("Accept", v.Request.Accept)
	rec := httptest.NewRecorder()
	s.Directory().ServeHTTP(rec, req)

	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	if got := rec.Body.String(); got != v.Body {
		t.Errorf("body\n got %s\nwant %s", got, v.Body)
	}
	for field, want := range map[string]string{
		"Content-Type":    "application/http-message-signatures-directory+json",
		"Content-Length":  strconv.Itoa(len(v.Body)),
		"Cache-Control":   "max-age=86400",
		"Content-Digest":  v.ContentDigest,
		"Signature-Input": v.SignatureInput,
		"Signature":       v.Signature,
	} {
		if got := rec.Header().Values(field); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %q\nwant %s", field, got, want)
		}
	}
	// The signature base, which the vector also gives, is the one signed.
	label, params, _ := strings.Cut(v.SignatureInput, "=")
	cs := []component{{authorityReqID, v.Request.Host}, {contentDigestID, v.ContentDigest}}
	if label != directoryLabel || string(signatureBase(cs, params)) != v.SignatureBase {
		t.Errorf("signature base\n got %s\nwant %s", signatureBase(cs, params), v.SignatureBase)
	}

	keys, err := verifyDirectory(rec.Header(), rec.Body.Bytes(), v.Request.Host, time.Unix(v.Created, 0))
	if err != nil || len(keys) != 1 || keys[rfcKeyThumb] == nil {
		t.Errorf("test verifier: %v, %v", keys, err)
	}
}

func TestDirectoryServes(t *testing.T) {
	const agent = "https://crawler.example.com/bot/keys.json"
	s, err := NewSigner(rfcKey(t), agent)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method, target, host string
		status               int
		authority            string // that the response is bound to
	}{
		{"GET", "/.well-known/http-message-signatures-directory", "crawler.example.com", 200, "crawler.example.com"},
		{"GET", "/bot/keys.json", "crawler.example.com", 200, "crawler.example.com"},
		{"GET", "/bot/keys.json?v=1", "crawler.example.com", 200, "crawler.example.com"},
		{"HEAD", "/bot/keys.json", "crawler.example.com", 200, "crawler.example.com"},
		{"GET", "/bot/keys.json", "Crawler.Example.COM:443", 200, "crawler.example.com"},
		{"GET", "/", "crawler.example.com", 404, ""},
		{"GET", "/.well-known/http-message-signatures-directory/", "crawler.example.com", 404, ""},
		{"GET", "/bot/keys.json/", "crawler.example.com", 404, ""},
		{"POST", "/bot/keys.json", "crawler.example.com", 405, ""},
		{"PUT", "/.well-known/http-message-signatures-directory", "crawler.example.com", 405, ""},
	} {
		req := httptest.NewRequest(tc.method, tc.target, nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		s.Directory().ServeHTTP(rec, req)
		now := time.Now() // not before the response's created
		name := tc.method + " " + tc.target + " Host " + tc.host
		if rec.Code != tc.status {
			t.Errorf("%s: status %d, want %d", name, rec.Code, tc.status)
			continue
		}
		if tc.status == 405 && rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: Allow %q", name, rec.Header().Get("Allow"))
		}
		if tc.status != 200 {
			if rec.Header().Get("Signature") != "" {
				t.Errorf("%s: an error response is signed", name)
			}
			continue
		}
		if tc.method == "HEAD" {
			if rec.Body.Len() != 0 {
				t.Errorf("%s: body %q", name, rec.Body)
			}
			if _, err := verifyDirectory(rec.Header(), s.keySet, tc.authority, now); err != nil {
				t.Errorf("%s: headers do not match the body a GET gets: %v", name, err)
			}
			continue
		}
		if _, err := verifyDirectory(rec.Header(), rec.Body.Bytes(), tc.authority, now); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// Bound to the authority asked, so not to be served under another.
		if _, err := verifyDirectory(rec.Header(), rec.Body.Bytes(), "mirror.example.com", now); err == nil {
			t.Errorf("%s: the response verifies for another authority", name)
		}
		if _, err := verifyDirectory(rec.Header(), rec.Body.Bytes(), tc.authority, now.Add(7*24*time.Hour+time.Minute)); err == nil {
			t.Errorf("%s: the response's signature outlives a week", name)
		}
		body := strings.Replace(rec.Body.String(), `"use":"sig"`, `"use":"enc"`, 1)
		if _, err := verifyDirectory(rec.Header(), []byte(body), tc.authority, now); err == nil {
			t.Errorf("%s: a changed body verifies", name)
		}
	}
}

// TestDirectoryOverTLS fetches the directory from a TLS server on
// loopback, as a site does, through a client that maps the agent's host
// to it.
func TestDirectoryOverTLS(t *testing.T) {
	s, err := NewSigner(rfcKey(t), "https://crawler.example.com/.well-known/http-message-signatures-directory")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(s.Directory())
	defer srv.Close()
	tr := loopbackTransport(srv)
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get("https://crawler.example.com/.well-known/http-message-signatures-directory")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verifyDirectory(resp.Header, body, "crawler.example.com", time.Now()); err != nil {
		t.Error(err)
	}
}

// TestDirectoryBindsOnlyItsAuthority asks for the directory under many
// spellings of Host: only the agent URL's own authority, up to case and
// the default port, gets a binding signature. Any other Host gets the key
// set unsigned, which proves nothing for it, so that no one can obtain
// the crawler's proof of key possession for a domain of their own.
func TestDirectoryBindsOnlyItsAuthority(t *testing.T) {
	const (
		named = "https://crawler.example.com/bot/keys.json"
		ipv6  = "https://[2001:db8::1]/keys"
		port  = "https://crawler.example.com:8443/keys"
	)
	for _, tc := range []struct {
		agent, host string
		bound       string // the authority the response is bound to; "" for none
	}{
		{named, "crawler.example.com", "crawler.example.com"},
		{named, "CRAWLER.Example.com", "crawler.example.com"},
		{named, "crawler.example.com:443", "crawler.example.com"},
		{named, "crawler.example.com:", "crawler.example.com"},
		{named, "attacker.example", ""},
		{named, "attacker.example:443", ""},
		{named, "crawler.example.com:8443", ""},
		{named, "crawler.example.com:80", ""},
		{named, "crawler.example.com.", ""},
		{named, "www.crawler.example.com", ""},
		{named, "crawler.example.com.attacker.example", ""},
		{named, "crawler.example.com@attacker.example", ""},
		{named, "attacker.example@crawler.example.com", ""},
		{named, "[::1]", ""},
		{named, "127.0.0.1", ""},
		{named, "", ""},
		{named, "crawler.example.com\x01", ""},
		{ipv6, "[2001:DB8::1]:443", "[2001:db8::1]"},
		{ipv6, "[2001:db8::1]", "[2001:db8::1]"},
		{ipv6, "[2001:db8:0::1]", ""},
		{ipv6, "[2001:db8::1]:8443", ""},
		{port, "crawler.example.com:8443", "crawler.example.com:8443"},
		{port, "crawler.example.com", ""},
		{port, "crawler.example.com:443", ""},
		{"https://Crawler.Example.COM:443/keys", "crawler.example.com", "crawler.example.com"},
	} {
		s, err := NewSigner(rfcKey(t), tc.agent)
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, s.agentPath, nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		s.Directory().ServeHTTP(rec, req)
		name := tc.agent + " Host " + strconv.Quote(tc.host)
		checkBinding(t, name, rec.Code, rec.Header(), rec.Body.Bytes(), s.keySet, tc.bound, normalAuthority(tc.host, "https"))
	}
}

// checkBinding checks a directory response: status 200 and the key set,
// bound to authority bound alone, or when bound is "" to none, not even
// to asked (the Host it was asked with).
func checkBinding(t *testing.T, name string, code int, h http.Header, body, keySet []byte, bound, asked string) {
	t.Helper()
	now := time.Now()
	if code != http.StatusOK || string(body) != string(keySet) {
		t.Errorf("%s: %d %s, want 200 and the key set", name, code, body)
		return
	}
	if bound != "" {
		if _, err := verifyDirectory(h, body, bound, now); err != nil {
			t.Errorf("%s: not bound to %s: %v", name, bound, err)
		}
	} else if h.Get("Signature") != "" || h.Get("Signature-Input") != "" {
		t.Errorf("%s: signed for a Host not the agent URL's: %s", name, h.Get("Signature-Input"))
	}
	for i, other := range []string{asked, "attacker.example"} {
		if other == bound || i > 0 && other == asked {
			continue
		}
		if _, err := verifyDirectory(h, body, other, now); err == nil {
			t.Errorf("%s: the response is bound to %q", name, other)
		}
	}
}

// TestDirectoryIgnoresForwardedHost: fields that a client can set, such
// as X-Forwarded-Host, name no authority to bind.
func TestDirectoryIgnoresForwardedHost(t *testing.T) {
	s, err := NewSigner(rfcKey(t), "https://crawler.example.com/bot/keys.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ host, forwarded, bound string }{
		{"crawler.example.com", "attacker.example", "crawler.example.com"},
		{"attacker.example", "crawler.example.com", ""},
	} {
		req := httptest.NewRequest(http.MethodGet, "/bot/keys.json", nil)
		req.Host = tc.host
		req.Header.Set("X-Forwarded-Host", tc.forwarded)
		req.Header.Set("X-Forwarded-Proto", "https")
		req.Header.Set("Forwarded", "host="+tc.forwarded+";proto=https")
		rec := httptest.NewRecorder()
		s.Directory().ServeHTTP(rec, req)
		checkBinding(t, "Host "+tc.host+" forwarded for "+tc.forwarded, rec.Code, rec.Header(), rec.Body.Bytes(), s.keySet, tc.bound, tc.forwarded)
	}
}

// TestDirectoryRawRequests sends requests a verifier's library would not
// write to the handler on a loopback server, over raw TCP: HTTP/1.0
// without Host, an attacker's Host, and an absolute request target that
// names another authority than Host (which net/http's server takes as
// the request's host). None is bound to anything but the agent's.
func TestDirectoryRawRequests(t *testing.T) {
	s, err := NewSigner(rfcKey(t), "https://crawler.example.com/bot/keys.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Directory())
	defer srv.Close()
	for _, tc := range []struct{ request, bound, asked string }{
		{"GET /bot/keys.json HTTP/1.0\r\n\r\n", "", ""},
		{"GET /bot/keys.json HTTP/1.0\r\nHost: crawler.example.com\r\n\r\n", "crawler.example.com", ""},
		{"GET /bot/keys.json HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n", "", "attacker.example"},
		{"GET https://attacker.example/bot/keys.json HTTP/1.1\r\nHost: crawler.example.com\r\nConnection: close\r\n\r\n", "", "attacker.example"},
		{"GET https://crawler.example.com/bot/keys.json HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n", "crawler.example.com", "attacker.example"},
	} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(conn, tc.request); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			conn.Close()
			t.Fatalf("%q: %v", tc.request, err)
		}
		body, err := io.ReadAll(resp.Body)
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkBinding(t, strconv.Quote(tc.request), resp.StatusCode, resp.Header, body, s.keySet, tc.bound, tc.asked)
	}
}

// TestDirectoryRotation rotates a crawler's key as the package
// documentation says, with a site that verifies its requests and caches
// its directory, fetched from a TLS server on loopback: the directory
// lists both keys, each proven by its own signature, so that the site
// accepts the new key's signatures on the copy it fetched before the
// change, and the old key's on a copy fetched after.
func TestDirectoryRotation(t *testing.T) {
	const agent = "https://crawler.example.com/.well-known/http-message-signatures-directory"
	oldKey := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))
	newKey := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{2}, ed25519.SeedSize))
	before, err := NewSigner(oldKey, agent, WithDirectoryKeys(newKey))
	if err != nil {
		t.Fatal(err)
	}
	after, err := NewSigner(newKey, agent, WithDirectoryKeys(oldKey))
	if err != nil {
		t.Fatal(err)
	}
	oldID, newID := thumbprint(oldKey.Public().(ed25519.PublicKey)), thumbprint(newKey.Public().(ed25519.PublicKey))
	if before.KeyID() != oldID || after.KeyID() != newID {
		t.Fatalf("KeyID %s and %s, want the Signers' own keys' %s and %s", before.KeyID(), after.KeyID(), oldID, newID)
	}

	var serving atomic.Pointer[Signer]
	serving.Store(before)
	var fetches atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		serving.Load().Directory().ServeHTTP(w, r)
	}))
	defer srv.Close()
	tr := loopbackTransport(srv)
	defer tr.CloseIdleConnections()
	newSite := func() *site { return &site{client: &http.Client{Transport: tr}, now: time.Now} }
	signed := func(s *Signer) *http.Request {
		req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/", nil)
		if err := s.Sign(req); err != nil {
			t.Fatal(err)
		}
		req.Host = req.URL.Host
		return req
	}
	keyid := func(req *http.Request) string {
		in, _ := parseDict(req.Header.Get("Signature-Input"))
		m, _ := in.get(requestLabel)
		id, _ := m.param("keyid")
		return id.(string)
	}

	early := newSite()
	for _, s := range []*Signer{before, after} { // the site's copy predates the change
		req := signed(s)
		if id := keyid(req); id != s.KeyID() {
			t.Errorf("request signed with key %s, want the Signer's own %s", id, s.KeyID())
		}
		if _, err := early.verifyRequest(req, "https"); err != nil {
			t.Errorf("signed with %s, on the directory fetched before the change: %v", keyid(req), err)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("directory fetched %d times, want once", n)
	}
	serving.Store(after)
	late := newSite()
	for _, s := range []*Signer{after, before} { // a request signed before the change, still valid
		if _, err := late.verifyRequest(signed(s), "https"); err != nil {
			t.Errorf("signed with %s, on the directory fetched after the change: %v", s.KeyID(), err)
		}
	}

	// Each directory lists both keys, the Signer's first, and proves each
	// under its own label; dropping a signature leaves a key unproven.
	for _, tc := range []struct {
		s    *Signer
		kids []string
	}{{before, []string{oldID, newID}}, {after, []string{newID, oldID}}} {
		rec := httptest.NewRecorder()
		tc.s.Directory().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, agent, nil))
		var set struct{ Keys []struct{ Kid string } }
		if err := json.Unmarshal(rec.Body.Bytes(), &set); err != nil || len(set.Keys) != 2 || set.Keys[0].Kid != tc.kids[0] || set.Keys[1].Kid != tc.kids[1] {
			t.Errorf("directory %s, want keys %q", rec.Body, tc.kids)
		}
		keys, err := verifyDirectory(rec.Header(), rec.Body.Bytes(), "crawler.example.com", time.Now())
		if err != nil || len(keys) != 2 {
			t.Errorf("directory of %s: %d keys, %v", tc.s.KeyID(), len(keys), err)
		}
		labels, _ := labelsTagged(rec.Header(), directoryTag)
		if !slices.Equal(labels, []string{"binding", "binding1"}) {
			t.Errorf("labels %q", labels)
		}
		h := rec.Header().Clone()
		first, second, _ := strings.Cut(h.Get("Signature"), ", ")
		for _, one := range []string{first, second} {
			h.Set("Signature", one)
			if _, err := verifyDirectory(h, rec.Body.Bytes(), "crawler.example.com", time.Now()); err == nil {
				t.Errorf("directory with the signature %s alone verifies", one)
			}
		}
	}
}

// TestDirectoryBindsAgentAsFetched: an agent URL whose authority a
// WHATWG-parsing verifier (fetch, Cloudflare's) reads as another
// spelling is fetched with that Host: a port 443 written with a leading
// zero, a host written percent-encoded (the name it decodes to, mapped),
// an IPv4 address in shorthand, hex or one number (127.0.0.1), an IPv6
// one not compressed or holding an IPv4 address ([::1], [::ffff:7f00:1]).
// Such an agent is refused, or the directory fetched so carries the
// binding signature.
func TestDirectoryBindsAgentAsFetched(t *testing.T) {
	for _, tc := range []struct{ agent, fetched string }{
		{"https://crawler.example:0443/keys", "https://crawler.example/keys"},
		{"https://cr%C3%89.example/keys", "https://xn--cr-cja.example/keys"},
		{"https://%EF%BD%82.test/keys", "https://b.test/keys"},
		{"https://127.1/keys", "https://127.0.0.1/keys"},
		{"https://0x7f.0.0.1/keys", "https://127.0.0.1/keys"},
		{"https://2130706433/keys", "https://127.0.0.1/keys"},
		{"https://[0:0::1]/keys", "https://[::1]/keys"},
		{"https://[::ffff:127.0.0.1]/keys", "https://[::ffff:7f00:1]/keys"},
		{"https://[::FFFF:7f00:1]/keys", "https://[::ffff:7f00:1]/keys"},
	} {
		s, err := NewSigner(rfcKey(t), tc.agent)
		if err != nil {
			continue // refused: fine
		}
		rec := httptest.NewRecorder()
		s.Directory().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.fetched, nil))
		if rec.Code != http.StatusOK || rec.Header().Get("Signature") == "" {
			t.Errorf("agent %q accepted, but GET %s (as fetch asks for it) is %d with Signature %q",
				tc.agent, tc.fetched, rec.Code, rec.Header().Get("Signature"))
		}
	}
}
