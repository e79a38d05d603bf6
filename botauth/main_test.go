package botauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The Ed25519 test key of RFC 9421 Appendix B.1.4, which the draft's and
// Cloudflare's vectors sign with, as a JWK's d and x, and its thumbprint.
const (
	rfcKeyD     = "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU"
	rfcKeyX     = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"
	rfcKeyThumb = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"
)

// jwkKey returns the Ed25519 private key whose JWK has d and x.
func jwkKey(t testing.TB, d, x string) ed25519.PrivateKey {
	t.Helper()
	seed, err := base64.RawURLEncoding.DecodeString(d)
	if err != nil || len(seed) != ed25519.SeedSize {
		t.Fatalf("JWK d %q: %v", d, err)
	}
	key := ed25519.NewKeyFromSeed(seed)
	if got := base64.RawURLEncoding.EncodeToString(key.Public().(ed25519.PublicKey)); got != x {
		t.Fatalf("JWK x is %s, the seed's public key %s", x, got)
	}
	return key
}

func rfcKey(t testing.TB) ed25519.PrivateKey { return jwkKey(t, rfcKeyD, rfcKeyX) }

// readVectors decodes the JSON file name in testdata into v.
func readVectors(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
