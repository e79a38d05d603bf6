// Package agent derives the product token a crawler is known by in
// robots.txt from its User-Agent header, for the Client, its Transport and
// the robotstxt command.
package agent

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/parse"
)

// DefaultUserAgent is the User-Agent header a Client sends unless
// WithUserAgent says otherwise; its product token is "robotstxt".
const DefaultUserAgent = "robotstxt/1.0 (+https://github.com/robotsgate/robotstxt)"

// ErrProductToken is wrapped by the error of [ProductToken]; the
// robotstxt package exports it as its own.
var ErrProductToken = errors.New("robotstxt: no usable product token")

// browserProducts are the products of browser User-Agent strings, which
// crawlers copy before their own, and the platforms a comment of one may
// name after "compatible;" (Internet Explorer's MSIE, Windows).
var browserProducts = []string{
	"Mozilla", "AppleWebKit", "KHTML", "Gecko", "like", "Chrome", "Chromium", "Safari",
	"Version", "Mobile", "Firefox", "Edg", "Edge", "EdgA", "EdgiOS", "OPR", "Opera", "Presto",
	"HeadlessChrome", "CriOS", "FxiOS", "SamsungBrowser", "YaBrowser", "UCBrowser", "Vivaldi",
	"MSIE", "Trident", "Windows", "Linux", "X11", "Macintosh", "Android", "iPhone", "iPad",
}

// ProductToken returns the product token that a crawler sending userAgent
// as its User-Agent header is known by in robots.txt: the first product's
// name, whatever the header says the crawler is compatible with
// ("XBot/2 (+https://x)" and "XBot/2 (compatible; YBot/1.0)" give
// "XBot"); past browser products such as Mozilla, the product named after
// "compatible;" in a comment, unless it is a browser's or a platform
// ("Mozilla/5.0 (compatible; XBot/1.0)" gives "XBot"), else the first
// product that is not a browser's ("Mozilla/5.0 (X11) Gecko/20100101
// XBot/2" gives "XBot"). A token has only [A-Za-z_-] (RFC 9309 §2.2.1).
// When the crawler's own product is no token ("123bot/1.0",
// "Mozilla/5.0 (compatible; MJ12bot/v1.4)"), or no product qualifies,
// the error wraps [ErrProductToken]: a later product's name would be
// another crawler's, or an HTTP library's.
func ProductToken(userAgent string) (string, error) {
	switch first := FirstProduct(userAgent); {
	case parse.ValidToken(first):
		return first, nil
	case productName(first):
		return "", noToken(userAgent)
	}
	// The product after "compatible;" in a comment.
	if i := indexFold(userAgent, "compatible;"); i >= 0 &&
		strings.LastIndexByte(userAgent[:i], '(') >= strings.LastIndexByte(userAgent[:i], ')') {
		name := strings.TrimLeft(userAgent[i+len("compatible;"):], " ")
		if end := strings.IndexAny(name, "/; )"); end >= 0 {
			name = name[:end]
		}
		switch {
		case notCrawler(name):
		case parse.ValidToken(name):
			return name, nil
		case productName(name):
			return "", noToken(userAgent)
		}
	}
	depth := 0
	for _, field := range strings.Fields(userAgent) {
		// Skip comments, which may nest and hold spaces.
		if depth > 0 || strings.HasPrefix(field, "(") {
			depth += strings.Count(field, "(") - strings.Count(field, ")")
			depth = max(depth, 0)
			continue
		}
		name, _, _ := strings.Cut(field, "/")
		name = strings.TrimRight(name, ";,")
		if notCrawler(name) {
			continue
		}
		if parse.ValidToken(name) {
			return name, nil
		}
		if productName(name) {
			break // the crawler's own
		}
	}
	return "", noToken(userAgent)
}

// noToken is ProductToken's error for userAgent.
func noToken(userAgent string) error {
	return fmt.Errorf("%w: none can be derived from User-Agent %q; name it with WithProductTokens", ErrProductToken, userAgent)
}

// productName reports whether s reads as a product's name: letters,
// marks and digits of any script and the other characters of an HTTP
// token (RFC 9110 §5.6.2), a letter among them and no quote first, as
// "MJ12bot", "archive.org_bot", "Crawler+", "O'ReillyBot", "ÜberBot" and
// "बॉट" do, which are no tokens. (A quote first starts a header pasted
// with its quotes.)
func productName(s string) bool {
	letter := false
	for i, r := range s {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsMark(r), unicode.IsDigit(r), strings.ContainsRune("!#$%&'*+-.^_`|~", r) && (i > 0 || r != '\''):
		default:
			return false
		}
	}
	return letter
}

// indexFold returns the index of the first instance of lower, in lower
// case, in s ignoring the case of ASCII letters, or -1. Unlike an index
// into strings.ToLower(s), it is an index into s.
func indexFold(s, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for j < len(lower) && ascii.Lower(s[i+j]) == lower[j] {
			j++
		}
		if j == len(lower) {
			return i
		}
	}
	return -1
}

// notCrawler reports whether the product name names no crawler: a
// browser's, or "compatible;" outside a comment, as in GPTBot's header.
func notCrawler(name string) bool {
	return slices.ContainsFunc(browserProducts, func(b string) bool { return ascii.EqualFold(name, b) }) ||
		ascii.EqualFold(name, "compatible")
}

// FirstProduct returns the name of the product userAgent begins with, up
// to a blank, '/', '(', ';' or ',', unless it names no crawler (see
// notCrawler): "". "Googlebot/2.1 (compatible; XBot/1.0)" begins with
// Googlebot's, and "MJ12bot/v1.4 (compatible; XBot/1.0)" with MJ12bot's,
// a name no user-agent line can give but a site reads all the same.
func FirstProduct(userAgent string) string {
	name := strings.TrimLeft(userAgent, " \t")
	if end := strings.IndexAny(name, " \t/(;,"); end >= 0 {
		name = name[:end]
	}
	if notCrawler(name) {
		return ""
	}
	return name
}
