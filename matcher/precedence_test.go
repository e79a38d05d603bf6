package matcher

import "testing"

func TestBest(t *testing.T) {
	type take struct {
		n     int
		allow bool
	}
	for _, c := range []struct {
		name  string
		takes []take
		want  bool
		len   int
	}{
		{"no rule allows", nil, true, 0},
		{"one disallow", []take{{1, false}}, false, 1},
		{"longer disallow beats allow", []take{{2, true}, {5, false}}, false, 5},
		{"longer allow beats disallow", []take{{5, false}, {6, true}}, true, 6},
		{"shorter never replaces", []take{{6, false}, {2, true}}, false, 6},
		{"tie: allow wins over disallow", []take{{4, false}, {4, true}}, true, 4},
		{"tie: disallow does not replace allow", []take{{4, true}, {4, false}}, true, 4},
		{"zero length still counts", []take{{0, false}}, false, 0},
	} {
		var b Best
		for _, tk := range c.takes {
			if b.Beats(tk.n, tk.allow) {
				b.Take(tk.n, tk.allow)
			}
		}
		if b.Allowed() != c.want || b.Len != c.len || b.Found != (len(c.takes) > 0) {
			t.Errorf("%s: got %+v allowed=%v, want allowed=%v len=%d", c.name, b, b.Allowed(), c.want, c.len)
		}
	}
}
