package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// printable returns s safe to print to a terminal, for text that comes
// from a robots.txt or a server: lines as written, sitemaps, user-agent
// values, URLs, charset names and error texts that quote them. Every
// character a terminal may act on, or that may make a line read otherwise
// than it is, is written as an escape:
//
//   - C0 controls (U+0000–U+001F, tab and line feed included), DEL and
//     C1 controls (U+0080–U+009F) as \xHH for the ASCII ones and \uHHHH
//     for C1, so ESC can start no sequence (OSC 52 sets the clipboard);
//   - each byte of invalid UTF-8 as \xHH, so no lone byte 0x9B (CSI) or
//     0x9D (OSC) reaches a terminal that reads 8-bit controls;
//   - bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E,
//     U+2066–U+2069) and the line and paragraph separators U+2028 and
//     U+2029 as \uHHHH, so a right-to-left override cannot reorder what
//     follows it on the line.
//
// A backslash is not escaped: text shown as written stays as written.
// When nothing needs escaping, s is returned as it is.
func printable(s string) string {
	var b strings.Builder
	last := 0 // s[:last] is in b
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < utf8.RuneSelf && escaped(r):
			b.WriteString(s[last:i])
			fmt.Fprintf(&b, `\x%02x`, s[i])
			last = i + n
		case escaped(r):
			b.WriteString(s[last:i])
			fmt.Fprintf(&b, `\u%04x`, r)
			last = i + n
		}
		i += n
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// escaped reports whether printable escapes the character r.
func escaped(r rune) bool {
	switch {
	case r < 0x20, 0x7f <= r && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029,
		0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}

// writeJSON writes v to w as one line of JSON, safe to print: with the
// characters a terminal acts on escaped (see printableJSON) and no HTML
// escapes, which would only obscure URLs.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(printableJSON(buf.Bytes()))
	return err
}

// printableJSON escapes, in JSON text that encoding/json wrote, the
// characters printable escapes and encoding/json leaves as they are (DEL,
// C1 controls, bidi controls), as \uHHHH JSON escapes: the JSON is safe to
// print and decodes to the same strings. encoding/json escapes the C0
// controls, U+2028 and U+2029 itself, and writes invalid UTF-8 as U+FFFD.
// These characters only occur inside JSON strings, where an escape means
// the character.
func printableJSON(js []byte) []byte {
	var out []byte
	last := 0 // js[:last] is in out
	for i := 0; i < len(js); {
		r, n := utf8.DecodeRune(js[i:])
		if r >= 0x7f && escaped(r) {
			out = fmt.Appendf(append(out, js[last:i]...), `\u%04x`, r)
			last = i + n
		}
		i += n
	}
	if last == 0 {
		return js
	}
	return append(out, js[last:]...)
}
