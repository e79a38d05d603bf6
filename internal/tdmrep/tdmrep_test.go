package tdmrep

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/match"
)

func TestReservation(t *testing.T) {
	for _, tc := range []struct {
		in           string
		reserved, ok bool
	}{
		{"1", true, true}, {" 1\t", true, true}, {"0", false, true}, {"0 ", false, true},
		{"", false, false}, {"2", false, false}, {"yes", false, false}, {"true", false, false},
		{"01", false, false}, {"1,0", false, false}, {"\u00a01", false, false},
		{"1\n", true, true}, {"\r\n1\r\n", true, true}, {"0\f", false, true}, // a META content's blanks
	} {
		if r, ok := Reservation(tc.in); r != tc.reserved || ok != tc.ok {
			t.Errorf("Reservation(%q) = %v, %v; want %v, %v", tc.in, r, ok, tc.reserved, tc.ok)
		}
	}
}

// reportExample is the second example of the report's section on the TDM
// file, with a URL for each of its groups of files.
const reportExample = `[
  {"location": "/directory-a/", "tdm-reservation": 1},
  {"location": "/directory-b/html/", "tdm-reservation": 1, "tdm-policy":"https://provider.com/policies/policy.json"},
  {"location": "/directory-b/images/*.jpg", "tdm-reservation": 0}
]`

func TestMatch(t *testing.T) {
	f, err := Parse([]byte(reportExample))
	if err != nil {
		t.Fatal(err)
	}
	if f.Len() != 3 {
		t.Fatalf("%d rules, want 3", f.Len())
	}
	tests := []struct {
		file, path string
		i          int // -1: no rule matches
		reserved   bool
		policy     string
	}{
		{reportExample, "/directory-a/report.pdf", 0, true, ""},
		{reportExample, "/directory-b/html/page.html?x=1", 1, true, "https://provider.com/policies/policy.json"},
		{reportExample, "/directory-b/images/cat.jpg", 2, false, ""},
		{reportExample, "/directory-b/images/cat.png", -1, false, ""},
		{reportExample, "/Directory-A/x", -1, false, ""}, // case matters
		{reportExample, "/directory-%61/x", 0, true, ""}, // %61 is a: unreserved, decoded
		{reportExample, "/", -1, false, ""},
		// The first entry that matches decides, not the longest.
		{`[{"location":"/","tdm-reservation":0},{"location":"/private/","tdm-reservation":1}]`, "/private/x", 0, false, ""},
		{`[{"location":"/private/","tdm-reservation":1},{"location":"/","tdm-reservation":0}]`, "/private/x", 0, true, ""},
		{`[{"location":"/private/","tdm-reservation":1},{"location":"/","tdm-reservation":0}]`, "/public", 1, false, ""},
		// '$' ends a pattern; escaped, it matches a '$' in the URL.
		{`[{"location":"/exact$","tdm-reservation":1}]`, "/exact", 0, true, ""},
		{`[{"location":"/exact$","tdm-reservation":1}]`, "/exact/more", -1, false, ""},
		{`[{"location":"/path/foo-%24","tdm-reservation":1}]`, "/path/foo-$", 0, true, ""},
		// A '$' within a location stands for itself.
		{`[{"location":"/a$b/","tdm-reservation":1}]`, "/a$b/x", 0, true, ""},
		{`[{"location":"/a$b/","tdm-reservation":1}]`, "/a%24b/x", 0, true, ""},
		{`[{"location":"/price$/$","tdm-reservation":1}]`, "/price$/", 0, true, ""},
		{`[{"location":"/price$/$","tdm-reservation":1}]`, "/price$/list", -1, false, ""},
		{`[{"location":"*.pdf$","tdm-reservation":1}]`, "/a/b.pdf", 0, true, ""},
		{`[{"location":"/a/*/c","tdm-reservation":1}]`, "/a/b/c", 0, true, ""},
		{`[{"location":"/a/*/c","tdm-reservation":1}]`, "/a/c", -1, false, ""},
		// %2F is reserved: it stays encoded and does not match '/'.
		{`[{"location":"/a/b","tdm-reservation":1}]`, "/a%2Fb", -1, false, ""},
		{`[{"location":"/a%2fb","tdm-reservation":1}]`, "/a%2Fb", 0, true, ""},
		// Bytes past ASCII compare escaped, either way they are written.
		{`[{"location":"/café","tdm-reservation":1}]`, "/caf%C3%A9/menu", 0, true, ""},
		{`[{"location":"/caf%c3%a9","tdm-reservation":1}]`, "/café", 0, true, ""},
		{`[{"location":"","tdm-reservation":1}]`, "/", -1, false, ""}, // an empty location matches nothing
		{`[]`, "/", -1, false, ""},
	}
	for _, tc := range tests {
		f, err := Parse([]byte(tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		i, r, ok := f.Match(tc.path)
		if !ok {
			i = -1
		}
		if i != tc.i || r.Reserved != tc.reserved || r.Policy != tc.policy {
			t.Errorf("%s\nMatch(%q) = %d %+v, want %d reserved %v policy %q", tc.file, tc.path, i, r, tc.i, tc.reserved, tc.policy)
		}
	}
}

func TestParse(t *testing.T) {
	good := []struct{ in, want string }{
		{`[]`, ""},
		{"\uFEFF[]", ""},
		{" \n[ ] \n", ""},
		{`[{"location":"/","tdm-reservation":1}]`, "/ 1 "},
		{`[{"location":"/","tdm-reservation":"1"}]`, "/ 1 "},
		{`[{"location":"/","tdm-reservation":"0","tdm-policy":null}]`, "/ 0 "},
		{`[{"location":"/a","tdm-reservation":0,"tdm-policy":"https://p/x"}]`, "/a 0 https://p/x"},
		{`[{"@context":{"a":[1,2,{"b":null}]},"location":"/","tdm-reservation":1,"other":true}]`, "/ 1 "},
		{`[{"Location":"/","TDM-Reservation":1}]`, "/ 1 "},
		{`[{"location":"/","tdm-reservation":1,"TDM-reservation":1}]`, "/ 1 "}, // a name twice, of one value
	}
	for _, tc := range good {
		f, err := Parse([]byte(tc.in))
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		var got []string
		for _, r := range f.rules {
			res := "0"
			if r.Reserved {
				res = "1"
			}
			got = append(got, r.Location+" "+res+" "+r.Policy)
		}
		if s := strings.Join(got, "; "); s != tc.want {
			t.Errorf("Parse(%q) = %q, want %q", tc.in, s, tc.want)
		}
	}
	// A file that cannot be read is an error, never a file that reserves
	// nothing.
	bad := []string{
		``, ` `, `{}`, `null`, `"[]"`, `[`, `[{"location":"/","tdm-reservation":1}`, `[] []`, `[],`,
		`{"location":"/","tdm-reservation":1}`,
		`[1]`, `["/"]`, `[[]]`, `[null]`, `[{}]`,
		`[{"tdm-reservation":1}]`,
		// A name given twice, with two values: readers that take the
		// first, the last or only the name so spelt read otherwise.
		`[{"location":"/","tdm-reservation":1,"tdm-reservation":0}]`,
		`[{"location":"/","tdm-reservation":1,"TDM-Reservation":"maybe-later","Tdm-Reservation":0}]`,
		`[{"location":"/private/","Location":"/","tdm-reservation":1}]`,
		`[{"location":"/","tdm-reservation":0,"tdm-policy":"https://p/1","TDM-POLICY":"https://p/2"}]`,
		`[{"location":null,"tdm-reservation":1}]`,
		`[{"location":1,"tdm-reservation":1}]`,
		`[{"location":["/"],"tdm-reservation":1}]`,
		`[{"location":"/"}]`,
		`[{"location":"/","tdm-reservation":null}]`,
		`[{"location":"/","tdm-reservation":2}]`,
		`[{"location":"/","tdm-reservation":1.0}]`,
		`[{"location":"/","tdm-reservation":true}]`,
		`[{"location":"/","tdm-reservation":"yes"}]`,
		`[{"location":"/","tdm-reservation":[1]}]`,
		`[{"location":"/","tdm-reservation":1,"tdm-policy":1}]`,
		`[{"location":"/","tdm-reservation":1,"tdm-policy":{"url":"x"}}]`,
		`[{"location":"/","tdm-reservation":1},{"location":"/","tdm-reservation":"maybe"}]`,
		strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		`[{"location":"/","tdm-reservation":1,"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}]`,
	}
	for _, in := range bad {
		if f, err := Parse([]byte(in)); err == nil || f != nil {
			t.Errorf("Parse(%.60q) = %v, %v; want an error", in, f, err)
		}
	}
}

// TestParseBounds: a file past MaxSize bytes or MaxRules entries is an
// error, read in time linear in its size.
func TestParseBounds(t *testing.T) {
	entry := `{"location":"/a","tdm-reservation":1},`
	full := "[" + strings.Repeat(entry, MaxRules-1) + `{"location":"/last","tdm-reservation":0}]`
	if len(full) > MaxSize {
		t.Fatalf("%d rules take %d bytes, past MaxSize", MaxRules, len(full))
	}
	f, err := Parse([]byte(full))
	if err != nil || f.Len() != MaxRules {
		t.Fatalf("%d rules: %v", MaxRules, err)
	}
	if i, r, ok := f.Match("/last"); !ok || i != MaxRules-1 || r.Reserved {
		t.Errorf("Match(/last) = %d %+v %v", i, r, ok)
	}
	oneMore := "[" + strings.Repeat(`{"location":"/","tdm-reservation":1},`, MaxRules) + `{"location":"/","tdm-reservation":1}]`
	hundredK := "[" + strings.Repeat(`{"location":"/","tdm-reservation":0},`, 100000) + `{"location":"/","tdm-reservation":1}]`
	huge := `[{"location":"/` + strings.Repeat("a", MaxSize) + `","tdm-reservation":1}]`
	for name, in := range map[string]string{"one entry more": oneMore, "100k entries": hundredK, "a huge location": huge} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s (%d bytes): %v, want ErrTooLarge", name, len(in), err)
		}
	}
}

// TestMatchLinear: a file of MaxRules wildcard locations that nearly
// match a long path is matched in time linear in the file and the path:
// match.Match never backtracks.
func TestMatchLinear(t *testing.T) {
	loc := strings.Repeat("/a*", 20) + "b"
	var b strings.Builder
	b.WriteString("[")
	for i := range MaxRules {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"location":%q,"tdm-reservation":1}`, loc)
	}
	b.WriteString("]")
	f, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	path := strings.Repeat("/a", 2000)
	start := time.Now()
	if _, _, ok := f.Match(path); ok {
		t.Fatal("matched")
	}
	t.Logf("%d rules against %d bytes: %v", MaxRules, len(path), time.Since(start))
}

// FuzzParse reads any bytes: Parse never panics, and either fails with no
// file or gives at most MaxRules rules, each of which reads back the same
// from its JSON; Match returns the first rule whose location matches.
func FuzzParse(f *testing.F) {
	for _, s := range []string{reportExample, `[]`, `[{"location":"/a*b$","tdm-reservation":"1","tdm-policy":null}]`,
		`[{"location":"/","tdm-reservation":2}]`, `[{"location":"/%7e","tdm-reservation":0}]`, `[1]`, `{`} {
		f.Add([]byte(s), "/a/b")
	}
	f.Fuzz(func(t *testing.T, b []byte, path string) {
		file, err := Parse(b)
		if err != nil {
			if file != nil {
				t.Fatalf("error %v with a file", err)
			}
			return
		}
		if file.Len() > MaxRules {
			t.Fatalf("%d rules", file.Len())
		}
		type entry struct {
			Location    string `json:"location"`
			Reservation int    `json:"tdm-reservation"`
			Policy      string `json:"tdm-policy,omitempty"`
		}
		es := []entry{}
		for _, r := range file.rules {
			e := entry{Location: r.Location, Policy: r.Policy}
			if r.Reserved {
				e.Reservation = 1
			}
			es = append(es, e)
		}
		out, err := json.Marshal(es)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(out)
		if err != nil || again.Len() != file.Len() {
			t.Fatalf("%s reads back as %v, %v", out, again, err)
		}
		for i := range file.rules {
			if again.rules[i] != file.rules[i] {
				t.Fatalf("rule %d: %+v reads back as %+v", i, file.rules[i], again.rules[i])
			}
		}
		if len(path) == 0 || path[0] != '/' {
			return
		}
		i, r, ok := file.Match(path)
		p := match.UnescapePath(match.Escape(path))
		for j := range file.rules {
			if m := match.Match(file.rules[j].pattern, p); m {
				if !ok || i != j || r != file.rules[j] {
					t.Fatalf("Match(%q) = %d %v, want the first match, %d", path, i, ok, j)
				}
				return
			}
		}
		if ok {
			t.Fatalf("Match(%q) = %d, yet no rule matches", path, i)
		}
	})
}
