package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/matcher"
)

// pathSite is the site that a bare path typed for a local robots.txt is
// put on, so that the Client reads it as it reads any URL: the command
// serves the file for every site (see served). The .invalid name can
// never be a real host.
const pathSite = "http://robots.invalid"

// maxShownPath bounds the bytes of a bad path that its error quotes, as
// the Client bounds a URL's (128): enough to tell which argument it was.
const maxShownPath = 128

// A target is a URL argument.
type target struct {
	shown string // as typed, its userinfo withheld (see withheld): what the output names
	url   string // as typed, or a bare path on pathSite
}

// sent returns the URL that a request for t reaches, which the Client
// checks as the Transport does: scheme, host and the request target
// that net/http writes, whose path escapes what net/url escapes (`"` as
// %22, { as %7B, …), without the userinfo and fragment. It returns t.url
// when net/url cannot read it, as no request can be made of it.
func (t target) sent() string {
	u, err := url.Parse(t.url)
	if err != nil {
		return t.url
	}
	return u.Scheme + "://" + u.Host + u.RequestURI()
}

// parseTargets reads the URL arguments as the Client reads URLs, and
// stops at the first it does not accept: it accepts exactly what the
// Client accepts (absolute http and https URLs), with its errors, which
// wrap robotstxt.ErrBadURL. When bare is set, as for a local robots.txt,
// an argument that starts with "/" is a path on the file's site, "//a"
// included: the Client reads it as the path //a.
func parseTargets(args []string, bare bool) ([]target, error) {
	// A closed Client reads a URL, and then refuses to fetch anything.
	c := robotstxt.NewClient()
	c.Close()
	out := make([]target, 0, len(args))
	for _, a := range args {
		t := target{shown: withheld(a), url: a}
		if bare && strings.HasPrefix(a, "/") {
			t.url = pathSite + a
		}
		_, err := c.Check(context.Background(), t.url)
		if err == nil || !errors.Is(err, robotstxt.ErrBadURL) {
			_, err = c.Check(context.Background(), t.sent()) // as net/http escapes it: longer, say
		}
		switch {
		case !errors.Is(err, robotstxt.ErrBadURL):
			out = append(out, t)
		case t.url != a:
			// A bare path, named as typed: the Client's error quotes the
			// URL on pathSite (withholding up to an '@' it holds), then
			// says why.
			why := strings.TrimPrefix(err.Error(), robotstxt.ErrBadURL.Error()+" ")
			if q, qerr := strconv.QuotedPrefix(why); qerr == nil {
				why = why[len(q):]
			}
			shown := a
			if len(shown) > maxShownPath {
				shown = strings.ToValidUTF8(shown[:maxShownPath], "") + "…"
			}
			return nil, fmt.Errorf("%w %q%s", robotstxt.ErrBadURL, shown, why)
		case bare:
			return nil, fmt.Errorf("%w (give an http or https URL, or a path that starts with /)", err)
		default:
			return nil, err
		}
	}
	return out, nil
}

// matchPath is the path that rules are matched against for url, a path
// or a URL the Client accepted, as the Client reads it in mode m: what
// follows the authority, which ends at the first '/', '?' or '#' (a ';'
// in the userinfo starts no path, as it would for matcher.Path).
func matchPath(url string, m robotstxt.Mode) string {
	if i := strings.Index(url, "://"); i > 0 && !strings.ContainsAny(url[:i], "/?#") {
		rest := url[i+3:]
		j := strings.IndexAny(rest, "/?#")
		if j < 0 {
			j = len(rest)
		}
		url = "http://h" + rest[j:] // the same after an authority without a ';'
	}
	p := matcher.Path(url)
	if m == robotstxt.ModeRFC9309 {
		p = matcher.UnescapePath(p)
	}
	return p
}

// clientEscaped returns url with each space and byte past ASCII escaped
// as %XX, as the Client escapes a URL before it matches rules against it.
func clientEscaped(url string) string {
	var b strings.Builder
	for _, c := range []byte(url) {
		if c == ' ' || c >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// withheld returns a, a URL argument, without the userinfo of its
// authority, which may hold a password: the Client names no URL with
// one, in its errors or a Receipt, and nor does the output. An argument
// the Client accepted as a URL has a scheme, then "://" and an authority
// up to the first '/', '?' or '#', whose userinfo ends at its last '@'.
func withheld(a string) string {
	i := strings.Index(a, "://")
	if i < 0 || strings.ContainsAny(a[:i], "/?#") {
		return a // a bare path ("/go?to=http://u@h/"), or a file
	}
	auth := a[i+3:]
	if end := strings.IndexAny(auth, "/?#"); end >= 0 {
		auth = auth[:end]
	}
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		return a[:i+3] + a[i+3+at+1:]
	}
	return a
}
