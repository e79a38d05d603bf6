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
// then valid UTF-8 is kept as it is, then the charset named by the
// Content-Type header is used, and Windows-1252 otherwise.
func toUTF8(body []byte, contentType string) []byte {
	var enc encoding.Encoding
	switch {
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		enc = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		enc = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	case utf8.Valid(body):
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
