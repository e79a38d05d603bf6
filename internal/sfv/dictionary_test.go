package sfv

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// scanAll reads value to the end and returns its members, or the error.
func scanAll(value string) ([]Member, error) {
	var ms []Member
	sc := Scan(value)
	for sc.Next() {
		ms = append(ms, sc.Member())
	}
	return ms, sc.Err()
}

// write writes members back as a Dictionary, without their parameters.
func write(ms []Member) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.Key
		if m.Value != "" {
			parts[i] += "=" + m.Value
		}
	}
	return strings.Join(parts, ", ")
}

func TestScanMembers(t *testing.T) {
	tests := []struct {
		in   string
		want []Member
	}{
		{"", nil},
		{"   ", nil},
		{"train-ai=y, search=n", []Member{{Key: "train-ai", Token: true, Value: "y"}, {Key: "search", Token: true, Value: "n"}}},
		{"a", []Member{{Key: "a"}}},
		{"a;p=1;q", []Member{{Key: "a"}}},
		{"a=?0", []Member{{Key: "a", Value: "?0"}}},
		{`a="x \"y\" \\"`, []Member{{Key: "a", Value: `"x \"y\" \\"`}}},
		{"a=-12;b=3.25", []Member{{Key: "a", Value: "-12"}}},
		{"a=123456789012.123", []Member{{Key: "a", Value: "123456789012.123"}}},
		{"a=999999999999999", []Member{{Key: "a", Value: "999999999999999"}}},
		{"a=*t0k:e/n!", []Member{{Key: "a", Token: true, Value: "*t0k:e/n!"}}},
		{"a=Y", []Member{{Key: "a", Token: true, Value: "Y"}}},
		{"a=:aGVsbG8=:", []Member{{Key: "a", Value: ":aGVsbG8=:"}}},
		{"a=:aGVsbG8:", []Member{{Key: "a", Value: ":aGVsbG8:"}}},
		{"a=::", []Member{{Key: "a", Value: "::"}}},
		{"a=@-1659578233", []Member{{Key: "a", Value: "@-1659578233"}}},
		{`a=%"f%c3%bc %22 \ %f0%9f%98%80"`, []Member{{Key: "a", Value: `%"f%c3%bc %22 \ %f0%9f%98%80"`}}},
		{"a=( 1  b;c=?1 )", []Member{{Key: "a", Value: "( 1  b;c=?1 )"}}},
		{"a=();p", []Member{{Key: "a", Value: "()"}}},
		{"*a.b_c-d*9=x", []Member{{Key: "*a.b_c-d*9", Token: true, Value: "x"}}},
		{"a=1\t,\tb=2 \t", []Member{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}}},
		{"a=b; c=1;  d", []Member{{Key: "a", Token: true, Value: "b"}}},
		// A repeated key comes each time; the caller applies the rule.
		{"a=1, b, a=2", []Member{{Key: "a", Value: "1"}, {Key: "b"}, {Key: "a", Value: "2"}}},
	}
	for _, tt := range tests {
		got, err := scanAll(tt.in)
		if err != nil {
			t.Errorf("Scan(%q): %v", tt.in, err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("Scan(%q) = %+v, want %+v", tt.in, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("Scan(%q) member %d = %+v, want %+v", tt.in, i, got[i], tt.want[i])
			}
		}
	}
}

func TestScanRejects(t *testing.T) {
	tests := []struct {
		in     string
		offset int
	}{
		{"\ta=1", 0},                // only spaces may lead
		{"A=1", 0},                  // keys are lower-case
		{"a=1, B=2", 5},             // anywhere in the dictionary
		{"1a=1", 0},                 // a key starts with a letter or '*'
		{"a =1", 2},                 // no white space before '='
		{"a= 1", 2},                 // nor after it
		{"a=1 ;p", 4},               // nor before ';'
		{"a=1,", 4},                 // a trailing ','
		{"a=1,,b=2", 4},             // an empty member
		{"a=1 b=2", 4},              // members need a ','
		{"a=", 2},                   // a value after '='
		{"a=b;", 4},                 // a key after ';'
		{"a=b;P=1", 4},              // parameter keys are lower-case too
		{"a=b;p= 1", 6},             // no white space after a parameter's '='
		{"a=ü", 2},                  // values are ASCII
		{"a=b, ü", 5},               //
		{"a=#", 2},                  // no value starts with '#'
		{"a=-", 3},                  // a sign needs a digit
		{"a=-b", 3},                 //
		{"a=1234567890123456", 18},  // 16 digits
		{"a=1234567890123.1", 15},   // 13 digits before '.'
		{"a=1.", 4},                 // '.' ends a decimal
		{"a=1.2345", 8},             // 4 digits after '.'
		{"a=1.2.3", 5},              // one '.'
		{`a="x`, 4},                 // unclosed string
		{`a="x\y"`, 5},              // '\' escapes only '"' and '\'
		{"a=\"x\ty\"", 4},           // no tab in a string
		{"a=\"\x7f\"", 3},           // no DEL
		{"a=t;", 4},                 //
		{"a=:aGVsbG8=", 11},         // unclosed byte sequence
		{"a=:aGVs bG8=:", 7},        // no space in base64
		{"a=:=aGVsbG8=:", 12},       // padding first
		{"a=:aGVsbG8==:", 12},       // too much padding
		{"a=:aGVsbA=:", 10},         // wrong padding
		{"a=:aGVsb:", 8},            // a lone sextet
		{"a=:aGVs_G8=:", 7},         // no base64url
		{"a=?", 3},                  // '?' then '0' or '1'
		{"a=?2", 3},                 //
		{"a=@", 3},                  // a date needs a number
		{"a=@1.5", 6},               // an integer
		{"a=@1000000000000000", 19}, //
		{`a=%x`, 3},                 // '"' after '%'
		{`a=%"x`, 5},                // unclosed display string
		{`a=%"%C3%BC"`, 5},          // lower-case hex
		{`a=%"%c"`, 5},              // two hex digits
		{`a=%"%"`, 5},               //
		{`a=%"%c3%28"`, 7},          // a bad 2-byte sequence
		{`a=%"%c3"`, 7},             // cut short by the end
		{`a=%"%e2%82x%ac"`, 10},     // cut short by an ASCII byte
		{`a=%"%ed%a0%80"`, 10},      // a surrogate
		{`a=%"%c0%80"`, 4},          // an overlong encoding
		{`a=%"%f4%90%80%80"`, 13},   // beyond U+10FFFF
		{`a=%"%80"`, 4},             // a continuation byte first
		{"a=%\"\u00fc\"", 4},        // unescaped non-ASCII
		{"a=(1", 4},                 // unclosed inner list
		{"a=(1,2)", 4},              // items are separated by spaces
		{"a=(1\t2)", 4},             // only spaces
		{"a=((1))", 3},              // no nesting
		{"a=(1)(2)", 5},             //
		{"a=(1) ;p", 6},             //
		{"a=1;p=(1)", 6},            // a parameter's value is a bare item
		{"a=b,\t", 5},               // a trailing ',' before white space
		{"a=1\n", 3},                // no line ends
		{"a=1\x00", 3},              //
	}
	for _, tt := range tests {
		_, err := scanAll(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Scan(%q) error = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset {
			t.Errorf("Scan(%q) error at %d (%v), want at %d", tt.in, se.Offset, err, tt.offset)
		}
	}
}

// TestIsBase64 checks isBase64 against encoding/base64 on every string of
// up to 8 characters over an alphabet with a zero sextet, non-zero ones
// and '=': it must accept what either padded or unpadded decoding accepts.
func TestIsBase64(t *testing.T) {
	const alphabet = "AQ/="
	var gen func(prefix string)
	gen = func(s string) {
		_, padded := base64.StdEncoding.DecodeString(s)
		_, raw := base64.RawStdEncoding.DecodeString(s)
		if want := padded == nil || raw == nil; isBase64(s) != want {
			t.Errorf("isBase64(%q) = %v, want %v", s, !want, want)
		}
		if len(s) < 8 {
			for i := range len(alphabet) {
				gen(s + alphabet[i:i+1])
			}
		}
	}
	gen("")
}

// TestScanLimits reads values up to MaxLength bytes, with as many members
// as fit: 1,024 (RFC 9651 §3.2's minimum), 1,025, and the most a value can
// hold, one-byte keys; the member after them is read, and one byte more is
// ErrTooLong. (MaxLength is even.)
func TestScanLimits(t *testing.T) {
	long := "a=" + strings.Repeat("b", MaxLength-2)
	if _, err := scanAll(long); err != nil {
		t.Errorf("Scan of %d bytes: %v", len(long), err)
	}
	if _, err := scanAll(long + "c"); !errors.Is(err, ErrTooLong) {
		t.Errorf("Scan of %d bytes: error %v, want ErrTooLong", len(long)+1, err)
	}
	for _, n := range []int{1024, 1025, (MaxLength - 4) / 2} {
		// n-1 one-byte members, then one of six bytes: 2n+4 bytes,
		// MaxLength for the last n.
		value := strings.Repeat("a,", n-1) + "z=1.25"
		ms, err := scanAll(value)
		if err != nil || len(ms) != n || ms[n-1] != (Member{Key: "z", Value: "1.25"}) {
			t.Errorf("Scan of %d members in %d bytes: %d members, error %v", n, len(value), len(ms), err)
		}
	}
	if value := strings.Repeat("a,", (MaxLength-4)/2-1) + "z=1.25"; len(value) != MaxLength {
		t.Fatalf("the longest value is %d bytes, want %d", len(value), MaxLength)
	}
	most := strings.Repeat("a,", MaxLength/2-1) + "a " // a blank after the last
	if ms, err := scanAll(most); err != nil || len(most) != MaxLength || len(ms) != MaxLength/2 {
		t.Errorf("Scan of %d bytes of one-byte members: %d members, error %v", len(most), len(ms), err)
	}
	if _, err := scanAll(most + " "); !errors.Is(err, ErrTooLong) {
		t.Errorf("Scan of %d bytes: error %v, want ErrTooLong", len(most)+1, err)
	}
}

// TestScanRFC9651Minimums reads the Dictionaries RFC 9651 asks every
// parser to accept (issue: a Content-Usage header longer than a robots.txt
// line stated nothing): 1,024 members with keys of 64 characters (§3.2),
// and a Byte Sequence of 16,384 octets (§3.3.5).
func TestScanRFC9651Minimums(t *testing.T) {
	members := make([]string, 1024)
	for i := range members {
		members[i] = fmt.Sprintf("k%063d=n", i)
	}
	blob := base64.StdEncoding.EncodeToString(make([]byte, 16384))
	for _, tc := range []struct {
		name, value string
		members     int
	}{
		{"1,024 members, 64-character keys", strings.Join(members, ", "), 1024},
		{"a Byte Sequence of 16,384 octets", "train-ai=n, b=:" + blob + ":", 2},
	} {
		if ms, err := scanAll(tc.value); err != nil || len(ms) != tc.members {
			t.Errorf("%s, %d bytes: %d members, error %v", tc.name, len(tc.value), len(ms), err)
		}
	}
}

func TestScanAllocates(t *testing.T) {
	const value = `train-ai=y;p="q", search=n, a=(1 2.5 :AA==: @0 %"%c3%bc"), b=?1`
	allocs := testing.AllocsPerRun(100, func() {
		sc := Scan(value)
		for sc.Next() {
		}
		if sc.Err() != nil {
			t.Fatal(sc.Err())
		}
	})
	if allocs != 0 {
		t.Errorf("Scan allocates %v times, want 0", allocs)
	}
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := scanAll("train-ai=n, Search=y")
	if got, want := err.Error(), `sfv: offset 12: want a key, which starts with a lower-case letter or '*' (found "S")`; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		"a=1,":       "sfv: offset 4: a ',' ends the dictionary",
		"a=":         "sfv: offset 2: want a value (found the end)",
		"a=\"\xff\"": `sfv: offset 3: a string holds a byte that is not printable ASCII (found "\xff")`,
	} {
		if _, err := scanAll(in); err == nil || err.Error() != want {
			t.Errorf("Scan(%q) error %v, want %q", in, err, want)
		}
	}
}

func TestIsKeyIsToken(t *testing.T) {
	for s, want := range map[string]bool{"": false, "a": true, "*": true, "a-b.c_d*1": true, "A": false, "1a": false, "a b": false, "ü": false} {
		if IsKey(s) != want {
			t.Errorf("IsKey(%q) = %v", s, !want)
		}
	}
	for s, want := range map[string]bool{"": false, "y": true, "Y": true, "*": true, "a:b/c!": true, "1": false, "a,b": false, "a b": false, "a=b": false, `"a"`: false} {
		if IsToken(s) != want {
			t.Errorf("IsToken(%q) = %v", s, !want)
		}
	}
}

// FuzzScan reads any value. Beyond not panicking: a value read without
// error is at most MaxLength bytes, has valid keys, Token values that are
// Tokens and at most a member for each two bytes but one, and its
// members written back read again to the
// same members; reading allocates nothing unless it fails.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"train-ai=y, search=n", `a=1;b="x", c=(1 2;q);r, d=:AA==:, e=@1, f=%"%c3%bc", g=?0, h=1.5`,
		"a=1,b=2,a=3", "a=1,,b", "A=1", `a=%"%c3%28"`, "a=(1\t2)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		ms, err := scanAll(value)
		if err != nil {
			return
		}
		if len(value) > MaxLength || len(ms) > (len(value)+1)/2 {
			t.Fatalf("%d members in %d bytes", len(ms), len(value))
		}
		for _, m := range ms {
			if !IsKey(m.Key) || m.Token && !IsToken(m.Value) {
				t.Fatalf("member %+v", m)
			}
		}
		again, err := scanAll(write(ms))
		if err != nil || len(again) != len(ms) {
			t.Fatalf("%q written back as %q: %d members, error %v", value, write(ms), len(again), err)
		}
		for i := range ms {
			if again[i] != ms[i] {
				t.Fatalf("%q written back as %q: member %d = %+v, want %+v", value, write(ms), i, again[i], ms[i])
			}
		}
		if allocs := testing.AllocsPerRun(1, func() {
			sc := Scan(value)
			for sc.Next() {
			}
		}); allocs != 0 {
			t.Fatalf("Scan(%q) allocates %v times", value, allocs)
		}
	})
}
