package botauth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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
	s.now = func() time.Time { return time.Unix(v.Created, 0) }
	s.directoryValidity = v.Expires - v.Created

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
		{"GET", "/bot/keys.json", "crawler.example.com:8443", 200, "crawler.example.com:8443"},
		{"GET", "/", "crawler.example.com", 404, ""},
		{"GET", "/.well-known/http-message-signatures-directory/", "crawler.example.com", 404, ""},
		{"GET", "/bot/keys.json/", "crawler.example.com", 404, ""},
		{"POST", "/bot/keys.json", "crawler.example.com", 405, ""},
		{"PUT", "/.well-known/http-message-signatures-directory", "crawler.example.com", 405, ""},
		{"GET", "/bot/keys.json", "crawler.example.com\x01", 400, ""},
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
