package parser

import (
	"strings"
	"testing"
)

// TestIsASCII puts one high byte at every position of strings of every
// length up to 80, so each of the word-wise loops sees it.
func TestIsASCII(t *testing.T) {
	for n := 0; n <= 80; n++ {
		b := []byte(strings.Repeat("a", n))
		if !isASCII(string(b)) {
			t.Fatalf("isASCII of %d ASCII bytes = false", n)
		}
		for i := range b {
			b[i] = 0x80
			if isASCII(string(b)) {
				t.Fatalf("isASCII with 0x80 at %d of %d = true", i, n)
			}
			b[i] = 'a'
		}
	}
}
