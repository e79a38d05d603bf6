package usage

import (
	"fmt"
	"strings"
	"testing"
)

// TestTableIndexes checks that a table past the labels it holds
// itself finds labels by its index, so that filling it takes time linear
// in its members, however many repeat, and keeps the order and the last
// value of each.
func TestTableIndexes(t *testing.T) {
	var tb table
	labels := labelsFor(1000)
	for _, v := range []string{"y", "n"} {
		for _, l := range labels {
			tb.set(l, v)
		}
	}
	if tb.n != len(labels) || len(tb.index) != len(labels) {
		t.Fatalf("%d labels, %d indexed; want %d", tb.n, len(tb.index), len(labels))
	}
	for i, l := range labels {
		if j, ok := tb.find(l); !ok || j != i || tb.at(j).value != "n" {
			t.Fatalf("%s at %d (%v), want %d with n", l, j, ok, i)
		}
	}
	want := make([]string, len(labels))
	for i, l := range labels {
		want[i] = l + "=n"
	}
	if m := tb.members(); m != strings.Join(want, ", ") {
		t.Errorf("members %.40s…", m)
	}
}

// labelsFor returns n distinct labels.
func labelsFor(n int) []string {
	ls := make([]string, n)
	for i := range ls {
		ls[i] = fmt.Sprintf("l%04d", i)
	}
	return ls
}

func TestLowerASCII(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "abc", "AbC-D": "abc-d", "\u212a": "\u212a", "ÄB": "Äb"} {
		if got := lowerASCII(in); got != want {
			t.Errorf("lowerASCII(%q) = %q, want %q", in, got, want)
		}
	}
}
