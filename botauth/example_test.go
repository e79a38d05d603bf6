package botauth_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/botauth"
)

// A crawler that checks robots.txt and signs everything it sends: the
// signing transport is the next RoundTripper of robotstxt's, so that the
// robots.txt fetches and the pages are both signed. Here the site prints
// the requests it gets, with their Signature-Agent.
func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(r.URL.Path, r.Header.Get("Signature-Agent"))
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		}
	}))
	defer site.Close()

	// A real crawler loads its key rather than making one each run:
	// sites know it by its key.
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		log.Fatal(err)
	}
	signer, err := botauth.NewSigner(key, "https://crawler.example/.well-known/http-message-signatures-directory")
	if err != nil {
		log.Fatal(err)
	}
	// crawler.example serves signer.Directory() at that URL.

	// A crawler of the open web connects through robotstxt.PublicOnly(nil)
	// in place of nil (http.DefaultTransport), which would refuse this
	// example's site on loopback.
	rc, rt := robotstxt.NewClientTransport(
		botauth.NewTransport(nil, signer),
		[]robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0 (+https://crawler.example/bot)")},
	)
	defer rc.Close()
	hc := &http.Client{Transport: rt}

	for _, path := range []string{"/page", "/private/page"} {
		resp, err := hc.Get(site.URL + path)
		if errors.Is(err, robotstxt.ErrDisallowed) {
			fmt.Println(path, "not sent: disallowed")
			continue
		} else if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
	}
	// Output:
	// /robots.txt sig1="https://crawler.example/.well-known/http-message-signatures-directory"
	// /page sig1="https://crawler.example/.well-known/http-message-signatures-directory"
	// /private/page not sent: disallowed
}

func ExampleSigner_Sign() {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)) // an all-zero seed: never use it
	signer, err := botauth.NewSigner(key, "https://crawler.example/.well-known/http-message-signatures-directory")
	if err != nil {
		log.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, "https://example.com/", nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := signer.Sign(req); err != nil {
		log.Fatal(err)
	}
	covered, _, _ := strings.Cut(req.Header.Get("Signature-Input"), ";created=")
	fmt.Println("Signature-Agent:", req.Header.Get("Signature-Agent"))
	fmt.Println("Signature-Input:", covered+";created=...")
	fmt.Println("keyid:", signer.KeyID())
	// Output:
	// Signature-Agent: sig1="https://crawler.example/.well-known/http-message-signatures-directory"
	// Signature-Input: sig1=("@authority" "signature-agent";key="sig1");created=...
	// keyid: 9ZP03Nu8GrXPAUkbKNxHOKBzxPX83SShgFkRNK-f2lw
}

func ExampleSigner_Directory() {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)) // an all-zero seed: never use it
	signer, err := botauth.NewSigner(key, "https://crawler.example/.well-known/http-message-signatures-directory")
	if err != nil {
		log.Fatal(err)
	}
	rec := httptest.NewRecorder()
	signer.Directory().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://crawler.example/.well-known/http-message-signatures-directory", nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(rec.Header().Get("Cache-Control"))
	fmt.Println(rec.Body)
	// Output:
	// 200 application/http-message-signatures-directory+json
	// max-age=86400
	// {"keys":[{"kty":"OKP","crv":"Ed25519","kid":"9ZP03Nu8GrXPAUkbKNxHOKBzxPX83SShgFkRNK-f2lw","x":"O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik","use":"sig"}]}
}

// Rotating keys: a day or more before the crawler signs with its new
// key, its directory lists that key beside the current one; after the
// change, the old key stays listed until its last signatures expire.
func ExampleWithDirectoryKeys() {
	const agent = "https://crawler.example/.well-known/http-message-signatures-directory"
	// All-zero and all-one seeds: never use them.
	current := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	next := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))

	signer, err := botauth.NewSigner(current, agent, botauth.WithDirectoryKeys(next))
	if err != nil {
		log.Fatal(err)
	}
	// Later, once sites have had a day to see the new key:
	//   signer, err = botauth.NewSigner(next, agent, botauth.WithDirectoryKeys(current))

	rec := httptest.NewRecorder()
	signer.Directory().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, agent, nil))
	var set struct{ Keys []struct{ Kid string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &set); err != nil {
		log.Fatal(err)
	}
	fmt.Println("signs with:", signer.KeyID())
	for _, k := range set.Keys {
		fmt.Println("listed:", k.Kid)
	}
	// Output:
	// signs with: 9ZP03Nu8GrXPAUkbKNxHOKBzxPX83SShgFkRNK-f2lw
	// listed: 9ZP03Nu8GrXPAUkbKNxHOKBzxPX83SShgFkRNK-f2lw
	// listed: UDDReOZl1ipXAfp9wYsm13sDBMK5og--QWdBjzuf6o4
}
