package robotstxt

import (
	"bytes"
	"mime"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// toUTF8 bridges a body that is not UTF-8: a UTF-16 byte-order mark wins,
// then a body that is valid UTF-8, or that the Content-Type header says
// is UTF-8, is kept as it is (bytes that are not UTF-8 are then escaped
// like any other, as Google's parser does), then the charset named by the
// header is used, and Windows-1252 otherwise.
func toUTF8(body []byte, contentType string) []byte {
	var enc encoding.Encoding
	switch {
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		enc = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		enc = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	case utf8.Valid(body), declaresUTF8(contentType):
		return body
	default:
		enc = headerCharset(contentType)
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return body
	}
	return out
}

// dropCutRune removes an incomplete UTF-8 sequence from the end of b, as
// the body limit may leave one: the rest of a UTF-8 body is then still
// UTF-8. Cutting a legacy-charset body there drops at most its last
// character, which the limit cut anyway.
func dropCutRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return b // ASCII: nothing cut
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// declaresUTF8 reports whether a Content-Type header names UTF-8.
func declaresUTF8(contentType string) bool {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	enc, err := htmlindex.Get(params["charset"])
	return err == nil && enc == unicode.UTF8
}

// headerCharset returns the encoding named by a Content-Type header, or
// Windows-1252 when it names none, an unknown one, or UTF-8 (which the
// body has just been found not to be).
func headerCharset(contentType string) encoding.Encoding {
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if label := params["charset"]; label != "" {
			if enc, err := htmlindex.Get(label); err == nil && enc != unicode.UTF8 {
				return enc
			}
		}
	}
	return charmap.Windows1252
}
