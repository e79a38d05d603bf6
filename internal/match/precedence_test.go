package match

import "testing"

func TestBest(t *testing.T) {
	type take struct {
		n     int
		allow bool
		order int
	}
	for _, c := range []struct {
		name  string
		takes []take
		want  bool
		len   int
		order int
	}{
		{"no rule allows", nil, true, 0, 0},
		{"one disallow", []take{{1, false, 0}}, false, 1, 0},
		{"longer disallow beats allow", []take{{2, true, 0}, {5, false, 0}}, false, 5, 0},
		{"longer allow beats disallow", []take{{5, false, 0}, {6, true, 0}}, true, 6, 0},
		{"shorter never replaces", []take{{6, false, 0}, {2, true, 0}}, false, 6, 0},
		{"tie: allow wins over disallow", []take{{4, false, 0}, {4, true, 0}}, true, 4, 0},
		{"tie: disallow does not replace allow", []take{{4, true, 0}, {4, false, 0}}, true, 4, 0},
		{"same length and kind: the first in file order wins", []take{{4, false, 7}, {4, false, 3}, {4, false, 5}}, false, 4, 3},
		{"file order does not beat an allow", []take{{4, true, 7}, {4, false, 3}}, true, 4, 7},
		{"zero length still counts", []take{{0, false, 0}}, false, 0, 0},
	} {
		var b Best
		for _, tk := range c.takes {
			if b.Beats(tk.n, tk.allow, tk.order) {
				b.Take(tk.n, tk.allow, tk.order)
			}
		}
		if allowed := !b.Found || b.Allow; allowed != c.want || b.Len != c.len || b.Order != c.order || b.Found != (len(c.takes) > 0) {
			t.Errorf("%s: got %+v allowed=%v, want allowed=%v len=%d", c.name, b, allowed, c.want, c.len)
		}
	}
}

// TestPrecedence checks the order on every pair of lengths and kinds,
// against the rule spelt out: longer first, then allow first.
func TestPrecedence(t *testing.T) {
	for aLen := range 4 {
		for bLen := range 4 {
			for _, aAllow := range []bool{false, true} {
				for _, bAllow := range []bool{false, true} {
					want := 0
					switch {
					case aLen > bLen, aLen == bLen && aAllow && !bAllow:
						want = -1
					case aLen < bLen, aLen == bLen && !aAllow && bAllow:
						want = 1
					}
					got := Precedence(aLen, aAllow, bLen, bAllow)
					if got < 0 && want >= 0 || got > 0 && want <= 0 || got == 0 && want != 0 {
						t.Errorf("Precedence(%d, %v, %d, %v) = %d, want the sign of %d", aLen, aAllow, bLen, bAllow, got, want)
					}
				}
			}
		}
	}
}
