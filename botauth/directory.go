package botauth

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	// The draft's well-known URI of a key directory, and its media type.
	directoryPath      = "/.well-known/http-message-signatures-directory"
	directoryMediaType = "application/http-message-signatures-directory+json"
	// The label of a directory response's signature (the draft's
	// example's) and its tag (the draft's).
	directoryLabel = "binding"
	directoryTag   = "http-message-signatures-directory"
	// A day, as in the draft's example, so that sites seldom fetch it.
	directoryCacheControl = "max-age=86400"
	// directoryValidity is many times the day a response may be cached:
	// the draft warns that a key set copied into a list keeps its proof
	// only until expires.
	directoryValidity = 7 * 24 * time.Hour
)

// Directory returns a handler that serves the Signer's key directory at
// the agent URL given to [NewSigner]: GET and HEAD of that URL's path
// (none for an origin) or /.well-known/http-message-signatures-directory,
// 404 or 405 otherwise.
// The body is a JSON Web Key Set, cacheable for a day, of the Signer's
// public key, with [Signer.KeyID] as kid, then those [WithDirectoryKeys]
// adds.
//
// As the draft recommends, the response proves possession of the keys, so
// that a site can keep or pass on the key set as proof that they are the
// agent URL's: it has a Content-Digest of the body (RFC 9530, SHA-256)
// and, per key, a signature over "@authority";req and the digest, valid
// for a week, tagged "http-message-signatures-directory" and labelled
// "binding", then "binding1", "binding2" and so on. Only a request whose
// Host (net/http takes it from an absolute request target) is the agent
// URL's authority, up to case and port 443, gets them, or anyone naming
// their own domain would get proof that the keys are theirs.
// X-Forwarded-Host is not read, nor https required: a proxy in front that
// ends TLS must pass on the verifier's Host.
func (s *Signer) Directory() http.Handler {
	s.mustBeMade()
	return http.HandlerFunc(s.serveDirectory)
}

func (s *Signer) serveDirectory(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != directoryPath && r.URL.Path != s.agentPath {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", directoryMediaType)
	h.Set("Cache-Control", directoryCacheControl)
	h.Set("Content-Digest", s.digest)
	// The verifier fetched an https URL, so :443 is the default port.
	if auth, err := authority(r.Host, "https"); err == nil && auth == s.agentAuth {
		inputs, signatures := make([]string, len(s.keys)), make([]string, len(s.keys))
		for i, k := range s.keys {
			label := directoryLabel
			if i > 0 {
				label += strconv.Itoa(i)
			}
			inputs[i], signatures[i] = s.sign(k, label, []component{{authorityReqID, auth}, {contentDigestID, s.digest}},
				s.directoryValidity, directoryTag)
		}
		h.Set("Signature-Input", strings.Join(inputs, ", "))
		h.Set("Signature", strings.Join(signatures, ", "))
	}
	h.Set("Content-Length", strconv.Itoa(len(s.keySet)))
	if r.Method == http.MethodGet {
		w.Write(s.keySet)
	}
}

// contentDigest is the Content-Digest (RFC 9530 §2) of body, in SHA-256.
func contentDigest(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
}

// thumbprint is the JWK SHA-256 Thumbprint of an Ed25519 public key (RFC
// 7638 §3, RFC 8037 Appendix A.3), in unpadded base64url.
func thumbprint(pub ed25519.PublicKey) string {
	x := base64.RawURLEncoding.EncodeToString(pub)
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + x + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// keySet is the key directory of keys: a JWK Set (RFC 7517 §5, RFC 8037
// §2) in the order of the draft's example. No value needs escaping.
func keySet(keys []*signingKey) []byte {
	jwks := make([]string, len(keys))
	for i, k := range keys {
		x := base64.RawURLEncoding.EncodeToString(k.key.Public().(ed25519.PublicKey))
		jwks[i] = `{"kty":"OKP","crv":"Ed25519","kid":"` + k.id + `","x":"` + x + `","use":"sig"}`
	}
	return []byte(`{"keys":[` + strings.Join(jwks, ",") + `]}`)
}
