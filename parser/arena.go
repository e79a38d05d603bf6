package parser

import "unsafe"

// arena holds the text a File keeps: patterns, agent names and record
// values, copied out of the body into a few large blocks. A parsed file so
// holds only what it uses (not the comments, keys and HTML around it), and
// keeping a value costs no allocation of its own.
//
// Bytes are only ever appended to a block, never changed, and a full block
// is left alone when a new one starts; the strings that keep returns are
// therefore immutable, as strings must be.
type arena struct {
	block []byte
}

// maxBlock bounds the size of one arena block.
const maxBlock = 32 << 10

// keep returns a copy of s that lives in the arena. left is the number of
// body bytes from the start of s to the end of the body: nothing kept from
// here on can be longer in total, and in real files what is kept is about
// two thirds of it (keys, white space and comments are not), so a block
// of three quarters of it seldom needs a successor.
func (a *arena) keep(s string, left int) string {
	if s == "" {
		return ""
	}
	if cap(a.block)-len(a.block) < len(s) {
		a.block = make([]byte, 0, max(len(s), min(left-left/4, maxBlock)))
	}
	start := len(a.block)
	a.block = append(a.block, s...)
	return unsafe.String(&a.block[start], len(s))
}

// keepLower is like keep but maps ASCII letters to lower case.
func (a *arena) keepLower(s string, left int) string {
	k := a.keep(s, left)
	b := a.block[len(a.block)-len(k):]
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return k
}

// view returns body as a string without copying it. The parser reads the
// view and keeps nothing of it beyond Parse except through arena.keep.
func view(body []byte) string {
	return unsafe.String(unsafe.SliceData(body), len(body))
}
