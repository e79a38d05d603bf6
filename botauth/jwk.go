package botauth

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
)

// thumbprint is the JWK SHA-256 Thumbprint of an Ed25519 public key (RFC
// 7638 §3), in unpadded base64url: the hash of the key's required JWK
// members (RFC 8037 Appendix A.3: crv, kty and x), in lexicographic order
// with no whitespace.
func thumbprint(pub ed25519.PublicKey) string {
	x := base64.RawURLEncoding.EncodeToString(pub)
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + x + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// keySet is the key directory of one Ed25519 public key: a JWK Set (RFC
// 7517 §5) holding the key as an OKP JWK (RFC 8037 §2), with kid, which
// the draft requires to be the key's thumbprint where a directory carries
// one, so that a verifier can pick the key by keyid without hashing, and
// use "sig". The members are in the order of the draft's example. Every
// value is base64url or a constant, so none needs escaping.
func keySet(pub ed25519.PublicKey, kid string) []byte {
	x := base64.RawURLEncoding.EncodeToString(pub)
	return []byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"` + kid + `","x":"` + x + `","use":"sig"}]}`)
}
