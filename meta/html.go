package meta

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxHTMLBytes is the most of a page that FromHTML reads while looking for
// META tags; they belong in the head, near the top.
const maxHTMLBytes = 1 << 20

// FromHTML reads the robots META tags of an HTML page: those named
// "robots", which apply to every crawler, and those named for the crawler
// known by one of the product tokens tokens (for example <meta
// name="googlebot" content="noindex">), which apply to it alone; names
// are compared case-insensitively, as [FromHeader] compares them. Several
// tags add up, the most restrictive reading winning. Reading stops at the
// <body>, at the end of the head, or after maxHTMLBytes. Only a read error
// is returned; malformed HTML is read as browsers read it.
func FromHTML(r io.Reader, tokens ...string) (Directives, error) {
	var d Directives
	z := html.NewTokenizer(io.LimitReader(r, maxHTMLBytes))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return d, fmt.Errorf("meta: reading HTML: %w", err)
			}
			return d, nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch atom.Lookup(name) {
			case atom.Body:
				return d, nil
			case atom.Meta:
				if hasAttr {
					d.meta(z, tokens)
				}
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); atom.Lookup(name) == atom.Head {
				return d, nil
			}
		}
	}
}

// meta applies one <meta> tag if it is a robots tag for tokens.
func (d *Directives) meta(z *html.Tokenizer, tokens []string) {
	var name, content string
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "name":
			name = string(v)
		case "content":
			content = string(v)
		}
		if !more {
			break
		}
	}
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, "robots") || name != "" && namesAny(name, tokens) {
		d.add(content)
	}
}
