// Package ascii holds the byte-level helpers that reading robots.txt
// files and URLs share: percent-escapes, the unreserved characters of RFC
// 3986, and scans that read a word at a time.
package ascii

import (
	"bytes"
	"math/bits"
	"strings"
)

// UpperHex holds the hex digits in upper case, by value.
const UpperHex = "0123456789ABCDEF"

// IsHex reports whether c is a hex digit of either case.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// IsLowerHex reports whether c is a lower-case hex letter, a to f.
func IsLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

// UpperHexDigit returns the hex digit c in upper case; any other byte
// unchanged.
func UpperHexDigit(c byte) byte {
	if IsLowerHex(c) {
		return c - 'a' + 'A'
	}
	return c
}

// Lower returns the ASCII letter c in lower case; any other byte
// unchanged.
func Lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// LowerString returns s with its ASCII letters in lower case, and every
// other byte as it is (where strings.ToLower would fold other letters and
// replace invalid UTF-8), allocating only if s has an upper-case one.
func LowerString(s string) string {
	for i := 0; i < len(s); i++ {
		if Lower(s[i]) != s[i] {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = Lower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// EqualFold reports whether s and t are equal with ASCII letters folded
// to one case, as the protocols' names compare (HTTP fields, HTML and
// robots.txt names, schemes), where strings.EqualFold also folds
// Unicode: "ſ" (U+017F) with "s" and the Kelvin sign with "k".
func EqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if Lower(s[i]) != Lower(t[i]) {
			return false
		}
	}
	return true
}

// ContainsFold reports whether s holds sub, an ASCII string, with ASCII
// letters folded to one case (see EqualFold).
func ContainsFold(s []byte, sub string) bool {
	if sub == "" {
		return true
	}
	first := sub[:1] // as written, and in the other case if a letter
	if c := Lower(sub[0]); 'a' <= c && c <= 'z' {
		first = string([]byte{c, c - 'a' + 'A'})
	}
	for len(s) >= len(sub) {
		i := bytes.IndexAny(s[:len(s)-len(sub)+1], first)
		if i < 0 {
			return false
		}
		if EqualFold(string(s[i:i+len(sub)]), sub) {
			return true
		}
		s = s[i+1:]
	}
	return false
}

// Unhex returns the value of the hex digit c, which IsHex accepts.
func Unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

// IsEscape reports whether s holds a percent-escape at i: '%' and two hex
// digits.
func IsEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && IsHex(s[i+1]) && IsHex(s[i+2])
}

// AppendEscape appends the percent-escape of c, with upper-case hex
// digits ("%C3"), to dst.
func AppendEscape(dst []byte, c byte) []byte {
	return append(dst, '%', UpperHex[c>>4], UpperHex[c&15])
}

// IsUnreserved reports whether c is an unreserved character of RFC 3986
// §2.3: A-Z a-z 0-9 - . _ ~.
func IsUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// Load64 reads the first eight bytes of s as a little-endian word; the
// compiler turns it into one load.
func Load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// IsASCII reports whether s has no byte at or above 0x80. It reads 32
// bytes at a time.
func IsASCII(s string) bool {
	const tops = 0x8080808080808080
	for len(s) >= 32 {
		if (Load64(s)|Load64(s[8:])|Load64(s[16:])|Load64(s[24:]))&tops != 0 {
			return false
		}
		s = s[32:]
	}
	for len(s) >= 8 {
		if Load64(s)&tops != 0 {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// IndexByte is strings.IndexByte for short strings and bytes found early,
// as the '*' of robots.txt patterns mostly are: it tests the first 8 bytes
// in one word, or a shorter s byte by byte, before strings.IndexByte,
// whose set-up costs more (BenchmarkIndexByte).
func IndexByte(s string, c byte) int {
	if len(s) < 8 {
		for i := range len(s) {
			if s[i] == c {
				return i
			}
		}
		return -1
	}
	// The lowest byte the subtraction borrows from is the first c.
	x := Load64(s) ^ 0x0101010101010101*uint64(c)
	if z := (x - 0x0101010101010101) &^ x & 0x8080808080808080; z != 0 {
		return bits.TrailingZeros64(z) / 8
	}
	if i := strings.IndexByte(s[8:], c); i >= 0 {
		return 8 + i
	}
	return -1
}
