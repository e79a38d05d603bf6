package botauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"testing"
)

func TestThumbprint(t *testing.T) {
	for _, tc := range []struct{ x, want string }{
		// RFC 8037 Appendix A.3.
		{"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"},
		// The RFC 9421 test key, whose thumbprint the draft's vectors use.
		{rfcKeyX, rfcKeyThumb},
	} {
		pub, err := base64.RawURLEncoding.DecodeString(tc.x)
		if err != nil {
			t.Fatal(err)
		}
		if got := thumbprint(ed25519.PublicKey(pub)); got != tc.want {
			t.Errorf("thumbprint(%s) = %s, want %s", tc.x, got, tc.want)
		}
		if got := jwkThumbprint(tc.x); got != tc.want {
			t.Errorf("test jwkThumbprint(%s) = %s, want %s", tc.x, got, tc.want)
		}
	}
}

func TestKeySet(t *testing.T) {
	b := keySet([]*signingKey{{rfcKey(t), rfcKeyThumb}})
	var set struct {
		Keys []map[string]string `json:"keys"`
	}
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	want := map[string]string{"kty": "OKP", "crv": "Ed25519", "kid": rfcKeyThumb, "x": rfcKeyX, "use": "sig"}
	if len(set.Keys) != 1 || len(set.Keys[0]) != len(want) {
		t.Fatalf("key set %s, want one key with %v", b, want)
	}
	for k, v := range want {
		if set.Keys[0][k] != v {
			t.Errorf("key set %s: %s is %q, want %q", b, k, set.Keys[0][k], v)
		}
	}
}
