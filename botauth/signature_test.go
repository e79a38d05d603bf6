package botauth

import (
	"crypto/ed25519"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// cfVector is one of Cloudflare's published vectors.
type cfVector struct {
	Key struct {
		Kty string `json:"kty"`
		D   string `json:"d"`
		X   string `json:"x"`
	} `json:"key"`
	TargetURL         string `json:"target_url"`
	CreatedMS         int64  `json:"created_ms"`
	ExpiresMS         int64  `json:"expires_ms"`
	Nonce             string `json:"nonce"`
	Label             string `json:"label"`
	Signature         string `json:"signature"`
	SignatureInput    string `json:"signature_input"`
	SignatureAgent    string `json:"signature_agent"`
	SignatureAgentKey string `json:"signature_agent_key"`
}

// TestCloudflareVectors signs what each of Cloudflare's Ed25519 vectors
// signed, with the components and parameters in the vector's order, and
// compares Signature-Input and Signature byte for byte. Ed25519 is
// deterministic, so equal signatures mean equal signature bases. The
// test verifier must also accept the vectors as published.
func TestCloudflareVectors(t *testing.T) {
	for _, file := range []string{"web_bot_auth_architecture_v1.json", "web_bot_auth_architecture_v2.json"} {
		var vs []cfVector
		readVectors(t, file, &vs)
		n := 0
		for _, v := range vs {
			if v.Key.Kty != "OKP" {
				continue // RSA-PSS, which this package does not sign with
			}
			n++
			t.Run(file+"/"+v.Label, func(t *testing.T) {
				key := jwkKey(t, v.Key.D, v.Key.X)
				u, err := url.Parse(v.TargetURL)
				if err != nil {
					t.Fatal(err)
				}
				auth, err := authority(u.Host, u.Scheme)
				if err != nil {
					t.Fatal(err)
				}
				cs := []component{{authorityID, auth}}
				h := http.Header{}
				switch {
				case v.SignatureAgentKey != "": // the Dictionary form
					d, err := parseDict(v.SignatureAgent)
					if err != nil {
						t.Fatal(err)
					}
					m, ok := d.get(v.SignatureAgentKey)
					if !ok {
						t.Fatalf("Signature-Agent %s has no member %s", v.SignatureAgent, v.SignatureAgentKey)
					}
					cs = append(cs, component{`"signature-agent";key=` + sfString(v.SignatureAgentKey), m.serialize()})
					h.Set("Signature-Agent", v.SignatureAgent)
				case v.SignatureAgent != "": // the legacy bare String
					cs = append(cs, component{`"signature-agent"`, v.SignatureAgent})
					h.Set("Signature-Agent", v.SignatureAgent)
				}
				pub := key.Public().(ed25519.PublicKey)
				input, sig := sign(key, v.Label, cs, []param{
					intParam("created", v.CreatedMS/1000),
					stringParam("keyid", thumbprint(pub)),
					stringParam("alg", "ed25519"),
					intParam("expires", v.ExpiresMS/1000),
					stringParam("nonce", v.Nonce),
					stringParam("tag", requestTag),
				})
				if input != v.SignatureInput {
					t.Errorf("Signature-Input\n got %s\nwant %s", input, v.SignatureInput)
				}
				if sig != v.Signature {
					t.Errorf("Signature\n got %s\nwant %s", sig, v.Signature)
				}

				h.Set("Signature-Input", v.SignatureInput)
				h.Set("Signature", v.Signature)
				msg := message{header: h, authority: normalAuthority(u.Host, u.Scheme)}
				_, err = verifyOne(msg, v.Label, time.UnixMilli(v.CreatedMS), func(keyid string) (ed25519.PublicKey, error) {
					if keyid != rfcKeyThumb {
						t.Errorf("keyid %s, want %s", keyid, rfcKeyThumb)
					}
					return pub, nil
				})
				if err != nil {
					t.Errorf("test verifier rejects the published vector: %v", err)
				}
			})
		}
		if n != 2 {
			t.Errorf("%s: %d Ed25519 vectors, want 2", file, n)
		}
	}
}

func TestSignatureBase(t *testing.T) {
	cs := []component{{authorityID, "example.com"}, {agentID, `"https://a.example/k"`}}
	ps := []param{intParam("created", 1), stringParam("tag", "t")}
	params := signatureParams(cs, ps)
	if want := `("@authority" "signature-agent";key="sig1");created=1;tag="t"`; params != want {
		t.Errorf("signatureParams = %s, want %s", params, want)
	}
	want := `"@authority": example.com` + "\n" +
		`"signature-agent";key="sig1": "https://a.example/k"` + "\n" +
		`"@signature-params": ("@authority" "signature-agent";key="sig1");created=1;tag="t"`
	if got := string(signatureBase(cs, params)); got != want {
		t.Errorf("signatureBase =\n%s\nwant\n%s", got, want)
	}
}

func TestSFString(t *testing.T) {
	for in, want := range map[string]string{
		"":                     `""`,
		"https://a.example/k":  `"https://a.example/k"`,
		`say "hi" \o/`:         `"say \"hi\" \\o/"`,
		"web-bot-auth":         `"web-bot-auth"`,
		"a+b/c==":              `"a+b/c=="`,
		`\`:                    `"\\"`,
		`"`:                    `"\""`,
		"~!#$%&'()*,-.:;<=>?@": `"~!#$%&'()*,-.:;<=>?@"`,
	} {
		got := sfString(in)
		if got != want {
			t.Errorf("sfString(%q) = %s, want %s", in, got, want)
		}
		// A Structured Field parser reads the String back.
		d, err := parseDict("k=" + got)
		if v, _ := d.get("k"); err != nil || v.value != in {
			t.Errorf("sfString(%q) = %s reads back as %v, %v", in, got, v.value, err)
		}
	}
}

func TestAuthority(t *testing.T) {
	for _, tc := range []struct{ host, scheme, want string }{
		{"example.com", "https", "example.com"},
		{"Example.COM", "https", "example.com"},
		{"example.com:443", "https", "example.com"},
		{"example.com:443", "HTTPS", "example.com"},
		{"example.com:443", "http", "example.com:443"},
		{"example.com:80", "http", "example.com"},
		{"example.com:80", "https", "example.com:80"},
		{"example.com:8443", "https", "example.com:8443"},
		{"example.com:4430", "https", "example.com:4430"},
		{"example.com:", "https", "example.com"},
		{"[::1]:443", "https", "[::1]"},
		{"[::1]:8080", "https", "[::1]:8080"},
		{"127.0.0.1:80", "http", "127.0.0.1"},
		{"xn--bcher-kva.example", "https", "xn--bcher-kva.example"},
		{"example.com:443", "", "example.com:443"},
	} {
		got, err := authority(tc.host, tc.scheme)
		if err != nil || got != tc.want {
			t.Errorf("authority(%q, %q) = %q, %v; want %q", tc.host, tc.scheme, got, err, tc.want)
		}
		// The test verifier reads the same authority.
		if v := normalAuthority(tc.host, strings.ToLower(tc.scheme)); v != tc.want {
			t.Errorf("normalAuthority(%q, %q) = %q, want %q", tc.host, tc.scheme, v, tc.want)
		}
	}
	// A host with an IPv6 zone is not signed (botauth80): net/http sends
	// it without the zone over HTTP/1.1 and with it over HTTP/2, and a
	// signature over one does not verify read as the other.
	for _, host := range []string{"[fe80::1%lo]:8080", "[fe80::1%25en0]"} {
		for _, scheme := range []string{"http", "https"} {
			if got, err := authority(host, scheme); err == nil {
				t.Errorf("authority(%q, %q) = %q; want an error", host, scheme, got)
			}
		}
	}
	// A port with no host names no site: a signature over the empty
	// authority left without the port would verify wherever a request's
	// Host reads as empty (botauth82).
	for _, hs := range [][2]string{{":443", "https"}, {":80", "http"}, {":", "https"}, {":8080", "https"}, {":443", "HTTPS"}} {
		if got, err := authority(hs[0], hs[1]); err == nil {
			t.Errorf("authority(%q, %q) = %q; want an error", hs[0], hs[1], got)
		}
	}
	// An internationalised name is signed as net/http sends it.
	for host, want := range map[string]string{"bücher.example": "xn--bcher-kva.example", "Bücher.example:8443": "xn--bcher-kva.example:8443"} {
		if got, err := authority(host, "https"); err != nil || got != want {
			t.Errorf("authority(%q) = %q, %v; want %q", host, got, err, want)
		}
	}
	// A name too long for DNS, whose punycode would cost the square of
	// a label's length, is refused before it is converted.
	for _, host := range []string{"", "a b.example", "a\nb", "a\x7f", "b\xffcher.example",
		"a.test/x", "a.test?x", "a.test#x", "a.test@b.test",
		strings.Repeat("ü.", 400) + "example"} {
		if got, err := authority(host, "https"); err == nil {
			t.Errorf("authority(%q) = %q, want an error", host, got)
		}
	}
}
