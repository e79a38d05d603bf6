package longtest

import "testing"

func TestGate(t *testing.T) {
	for _, tc := range []struct {
		value   string
		skipped bool
	}{{"", true}, {"0", true}, {"yes", true}, {"1", false}} {
		t.Run("Env="+tc.value, func(t *testing.T) {
			t.Setenv(Env, tc.value)
			var skipped bool
			t.Run("gated", func(t *testing.T) {
				// Gate skips through runtime.Goexit; the deferred
				// recording runs either way.
				defer func() { skipped = t.Skipped() }()
				Gate(t)
			})
			if skipped != tc.skipped {
				t.Errorf("skipped = %v, want %v", skipped, tc.skipped)
			}
		})
	}
}
