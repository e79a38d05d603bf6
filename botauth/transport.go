package botauth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/target"
	"golang.org/x/net/idna"
)

// NewTransport returns a RoundTripper that signs a copy of each request
// as it is sent, as [Signer.Sign] does, and sends it through next
// (http.DefaultTransport when nil). Each redirect hop or retry that
// passes through it gets a signature of its own authority in place of
// those it carries (such as those net/http copies onto a hop), so that no
// signature made for one site reaches another; a hop to another server
// with the Host of the request before it, as net/http sends it for a
// Location "//host/path" (or a CheckRedirect that copies the Host), is
// not signed (a Host naming the site its Location named, or, for a
// Location naming no host, the site asked for before, is the caller's: a
// crawler pinning each site's address; not after a hop a RoundTripper
// below followed itself, which net/http did not build the next from), nor
// is a request whose host net/http dials mapped and sends unmapped as
// another name (ｂ.test is dialled as b.test, asked for as xn--ni7c.test).
// A request that an http.Transport below sends again by itself, on a new
// connection when a kept-alive one closed before answering, carries the
// same signature and nonce: a site that refuses a nonce seen before
// refuses that retry. The response's Request is the caller's request,
// without the signature (a copy without the fields it carried, a signer
// above's, which this one's replaced); or, when a RoundTripper below
// followed a redirect itself, to this URL too, the last hop's, without
// its signature or the hops before it (its Response is the redirect's,
// without its Request): a robotstxt Transport above refuses it. But when
// that redirect went to another server with the signature made for this
// one (an http.Client used as a
// RoundTripper copies a request's header onto each hop, unless its
// CheckRedirect returns http.ErrUseLastResponse), which that server may
// replay to this site until it expires, RoundTrip closes the response
// and returns an error saying so: give next no RoundTripper that follows
// redirects. A hop is sent to the site its Host names, at any address
// (one the caller pinned), or with no Host to the address the request
// went to. A request it cannot sign is not sent:
// RoundTrip closes its body and returns the error. Among those is a
// request whose trailer declares a Signature, Signature-Input or
// Signature-Agent field, which Sign would replace, and one whose URL
// net/http sends with another target than a path (an Opaque
// "//other.test/x", a Path "http://other.test/x": a request for
// other.test), and one whose header holds a Host field net/http sends as
// a second Host line (a key "host") or one naming another host.
// CloseIdleConnections reaches next's.
//
// Give it a robotstxt.PublicOnly transport as next, not the other way
// round: its Unwrap method lets robotstxt.NewTransport see the guard.
// Give it to robotstxt.NewClientTransport, which signs the Client's
// robots.txt fetches too: robotstxt.NewTransport panics given it while
// its Client fetches robots.txt unsigned, which a site refusing unsigned
// crawlers with a 403 would have read as allowing everything. Put
// it below a robotstxt.Transport (as its next), never above: a request
// signed above one waits there for its pacing turn, and may be sent after
// its signature expires, and the robots.txt its Client fetches goes
// unsigned. It panics if next is or wraps (by a method Unwrap()
// http.RoundTripper) a robotstxt.Transport, and if s is nil or was not
// made by [NewSigner].
func NewTransport(next http.RoundTripper, s *Signer) http.RoundTripper {
	if s == nil {
		panic("botauth: NewTransport with a nil Signer")
	}
	s.mustBeMade()
	if next == nil {
		next = http.DefaultTransport
	}
	if robotsTransport(next) {
		panic("botauth: NewTransport(next, s) above a robotstxt.Transport would sign pages, " +
			"sent expired after their pacing turn, and not its Client's robots.txt fetches: " +
			"give it to robotstxt.NewClientTransport as its next instead")
	}
	return &transport{next: next, s: s}
}

// errSignatureLeft is returned when a RoundTripper below followed a
// redirect to another server with the request's signature.
var errSignatureLeft = errors.New("botauth: a RoundTripper below followed a redirect with the signature")

type transport struct {
	next http.RoundTripper
	s    *Signer
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	signed := req.Clone(req.Context())
	var err error
	switch {
	case req.URL == nil:
		err = errors.New("botauth: a request without a URL: not signed")
	case !strings.HasPrefix(req.URL.RequestURI(), "/"):
		// Sent as written: an Opaque "//other.test/x", or a Path
		// "http://other.test/x", goes out as "GET http://other.test/x"
		// to the URL's host's server, which a front serving both
		// routes to other.test.
		err = fmt.Errorf("botauth: a request whose target is %q, not a path: not signed", req.URL.RequestURI())
	case signatureFields(req.Trailer):
		// Sign would drop them from a copy of the trailer, and a copy
		// goes out as it stood before the body was read.
		err = errors.New("botauth: the request's trailer declares a signature field: not signed")
	case target.ExtraHost(req) != "":
		// A second Host line, which a front may read to route the
		// request, signed for one site, to the site it names.
		err = errors.New("botauth: the request's header holds a Host field beside its Host: not signed")
	default:
		err = keptHost(req)
	}
	if err == nil {
		err = hostAsDialled(req)
	}
	if err == nil {
		err = t.s.Sign(signed)
		// The caller's trailer, which it may fill while the body is
		// read (a clone's would go out as it stood).
		signed.Trailer = req.Trailer
	}
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(signed)
	var left string
	if resp != nil && resp.Request != nil && resp.Request != signed { // http.Transport gives the request sent
		left = leftWith(resp.Request, signed)
	}
	switch {
	case resp == nil:
	case left != "":
		// A RoundTripper below followed a redirect to another server
		// with this signature (an http.Client copies a request's header
		// onto each hop), which that server may replay to this site
		// until it expires: no answer, so that the crawler learns.
		resp.Body.Close()
		return nil, fmt.Errorf("%w: to %s, with the signature made for %s", errSignatureLeft, left, cmp.Or(signed.Host, signed.URL.Host))
	case resp.Request == nil || resp.Request.URL == nil || req.URL == nil ||
		(resp.Request.Response == req.Response || resp.Request.Response == nil) && resp.Request.URL.String() == req.URL.String():
		// The caller's request, as http.Transport gives it (keptHost reads
		// it on the next hop), not the signed copy or a copy of it that a
		// RoundTripper below made: a caller that logs or keeps
		// resp.Request, as colly does, would keep a signature it could
		// replay.
		resp.Request = req
		if signatureFields(req.Header) {
			// Another signer's above, which this one's replaced on the
			// wire: a signer above that reads the hops of an http.Client
			// between the two (see leftWith) finds none of its own.
			resp.Request = unsigned(req, req.Context())
			resp.Request.Response = req.Response
		}
	default:
		// Another request's, as of a RoundTripper below that follows
		// redirects itself (to this URL too, away and back): kept,
		// without the signature, nor the hops before it, whose requests
		// were signed, but with the redirect it followed, which tells a
		// robotstxt Transport above that a hop went unchecked; marked,
		// as net/http builds the next hop from its own request, not this
		// one. A copy a RoundTripper below sent elsewhere (a pool's)
		// is no hop: it keeps the caller's own redirect, whose requests
		// are unsigned, unmarked (a Transport above, and keptHost, tell
		// it for the caller's).
		ctx, own := resp.Request.Context(), copyOf(resp.Request, req)
		if !own {
			ctx = context.WithValue(ctx, belowHop{}, true)
		}
		r := unsigned(resp.Request, ctx)
		if own {
			r.Response = req.Response
		}
		resp.Request = r
	}
	return resp, err
}

// copyOf reports whether r is a copy of req a RoundTripper below sent,
// to another address maybe (a pool's), not a hop it followed: the
// redirect it answers is req's, and it asks req's target of req's site.
func copyOf(r, req *http.Request) bool {
	return r.Response == req.Response && r.URL.RequestURI() == req.URL.RequestURI() &&
		target.Authority(r.URL.Scheme, cmp.Or(r.Host, r.URL.Host)) == target.Authority(req.URL.Scheme, cmp.Or(req.Host, req.URL.Host))
}

// unsigned returns a copy of r with ctx and without the fields Sign
// writes; the response r was a redirect of, if any, is kept without its
// request.
func unsigned(r *http.Request, ctx context.Context) *http.Request {
	c := r.Clone(ctx)
	for k := range c.Header {
		if isSignatureField(k) {
			delete(c.Header, k)
		}
	}
	if r.Response != nil {
		redirect := *r.Response
		redirect.Request = nil
		c.Response = &redirect
	}
	return c
}

// keptHost returns an error for a redirect hop that goes to another
// server than the request before it but keeps that request's Host, as
// net/http does for a Location of the form "//host/path" when the Host
// was set, or as a CheckRedirect that copies the Host would: signed for
// that Host, it would hand another server a signature it can replay to
// the first site. A hop whose Host names the host its Location named, or
// the Host of the request before it for a Location naming no host, is
// the caller's (a crawler pinning each site's address, in its
// CheckRedirect too), as [Signer.Sign] says. A hop whose request before
// it is unknown (or a hop a RoundTripper below followed, which net/http
// did not build it from) is refused when its Host names another server
// than its URL; one whose Host spells its URL's host otherwise (case, a
// final dot, the default port, an IPv6 form), as robotstxt's Transport
// sends it, is not.
func keptHost(req *http.Request) error {
	if req.Response == nil || req.Host == "" || req.URL == nil || sameServer(req.Host, req.URL) {
		return nil
	}
	if r := req.Response.Request; r != nil && r.URL != nil && r.Context().Value(belowHop{}) == nil {
		host := target.Authority(req.URL.Scheme, req.Host)
		loc, err := url.Parse(req.Response.Header.Get("Location"))
		before := target.Authority(r.URL.Scheme, cmp.Or(r.Host, r.URL.Host)) // the site asked for before
		switch {
		case host == "":
		case host == before && r.URL.Scheme == req.URL.Scheme && (r.URL.Host == req.URL.Host || sameServer(r.URL.Host, req.URL)):
			// The hosts compared as written (a relative Location keeps
			// it), else as the dial reads them: strings.EqualFold folds
			// ß with ẞ, which IDNA maps to "ss", another name.
			return nil // kept, on a hop to the server it was sent to
		case err != nil:
		case loc.Host == "" && loc.Scheme == "" && host == before:
			return nil // kept, at an address the caller chose
		case loc.Host != "" && (loc.Scheme == "" || loc.Scheme == req.URL.Scheme) && host == target.Authority(req.URL.Scheme, loc.Host):
			return nil // the site the Location named, at an address the caller chose
		}
	}
	return fmt.Errorf("botauth: a redirect to %s keeps the Host %q, which names neither its server nor the site its Location named: not signed",
		req.URL.Redacted(), req.Host)
}

// belowHop marks the context of a response's Request that a RoundTripper
// below followed a redirect to (see keptHost).
type belowHop struct{}

// hostAsDialled refuses a request whose Host is the name it dials sent
// unmapped: net/http dials a name with the UTS #46 mapping (ｂ.test is
// b.test, BÜCHER.test bücher.test, xn--\u00ADbcher-kva.test, its soft
// hyphen dropped, bücher.test's A-label) and sends the Host in punycode
// unmapped (xn--ni7c.test, another name), whose server would accept the
// signature b.test's server got; a robotstxt Transport above sends that
// Host with the URL's host dialled. The Host is the URL's host as
// written (not in ASCII, which net/http dials unmapped), one that maps
// or decodes to the server dialled, or one whose A-labels are none of
// IDNA's (xn--bcher-zha34b decodes to a soft hyphen the mapping drops:
// the Host net/http sends for that URL, whose host a robotstxt Transport
// gives dialled), a name no caller means. A Host naming another site is
// the caller's to set (see [Signer.Sign]).
func hostAsDialled(req *http.Request) error {
	host := cmp.Or(req.Host, req.URL.Host)
	if host == req.URL.Host && ascii.IsASCII(host) {
		return nil // net/http maps no name in ASCII: it dials what it sends
	}
	sent, err := authority(host, req.URL.Scheme)
	if err != nil || sameServer(sent, req.URL) {
		return err
	}
	name, port := sent, ""
	if i := strings.LastIndexByte(sent, ':'); i >= 0 && !strings.Contains(sent[i:], "]") {
		name, port = sent[:i], sent[i:]
	}
	if unicode, err := idna.Punycode.ToUnicode(name); err != nil || host == req.URL.Host || sameServer(unicode+port, req.URL) || !aLabelsRead(name) {
		return fmt.Errorf("botauth: %s is dialled as another name than its Host, %s: not signed", req.URL.Redacted(), sent)
	}
	return nil
}

// aLabelsRead reports whether the A-labels of name (its labels prefixed
// xn--) are ones IDNA's lookup reads as written, case aside: each decodes
// to a label it maps to itself. Its other labels are left as they are
// (my_shop, 123: names a caller may set, which the lookup's rules for
// host names refuse).
func aLabelsRead(name string) bool {
	for label := range strings.SplitSeq(name, ".") {
		if len(label) >= len("xn--") && ascii.EqualFold(label[:len("xn--")], "xn--") {
			if l, err := idna.Lookup.ToASCII(label); err != nil || !ascii.EqualFold(l, label) {
				return false
			}
		}
	}
	return true
}

// sameServer reports whether the Host host names u's server: the same
// authority as robotstxt keys it (case, a final dot, the default port and
// an IPv6 literal's spelling aside).
func sameServer(host string, u *url.URL) bool {
	a := target.Authority(u.Scheme, host)
	return a != "" && a == target.Authority(u.Scheme, u.Host)
}

// leftWith returns the host of a server other than signed's that a hop
// before or at last, which a RoundTripper below followed itself, sent
// signed's signature to, or "": the hops are last's, and each before it
// (the Request of its Response), as an http.Client chains them. A
// server is its authority as Sign writes it: http and https of one
// host are one. Every hop is read, however many (a chain a RoundTripper
// below made may loop: its hops are read once).
func leftWith(last, signed *http.Request) string {
	sig := signed.Header.Get("Signature")
	own, _ := authority(cmp.Or(signed.Host, signed.URL.Host), signed.URL.Scheme) // as Sign wrote it
	// A hop is a request net/http made of a response signed did not come
	// with; a copy of signed sent to another address (a pinned one, a
	// pool's) is none.
	read := make(map[*http.Request]bool)
	for hop := last; hop != nil && hop.URL != nil && hop.Response != nil && hop.Response != signed.Response && !read[hop]; {
		read[hop] = true
		// A hop naming the site the signature is for, at any address
		// (a pinned one), or sent to the address signed went to with no
		// Host of its own, goes to that site; one naming another site
		// at that address (a shared front's) does not.
		host := hopSite(hop)
		if auth, _ := authority(host, hop.URL.Scheme); hop.Header.Get("Signature") == sig && auth != own && (hop.Host != "" || hop.URL.Host != signed.URL.Host) {
			return host
		}
		hop = hop.Response.Request
	}
	return ""
}

// hopSite returns the host of the site hop, a redirect's, went to: its
// Host, which a caller pinning addresses sets; but its URL's host when
// net/http kept the Host of the request before it onto a hop to the
// server another host names (a Location "//evil.test/x"; see keptHost).
func hopSite(hop *http.Request) string {
	if hop.Host == "" {
		return hop.URL.Host
	}
	loc, err := url.Parse(hop.Response.Header.Get("Location"))
	if err == nil && loc.Host != "" && target.Authority(hop.URL.Scheme, loc.Host) != target.Authority(hop.URL.Scheme, hop.Host) {
		return hop.URL.Host
	}
	return hop.Host
}

// robotsTransport reports whether rt is or wraps (by an Unwrap method) a
// robotstxt.Transport, told by its type: robotstxt's tests import this
// package, which cannot import it.
func robotsTransport(rt http.RoundTripper) bool {
	for range maxUnwrap {
		if t := reflect.TypeOf(rt); t != nil && t.Kind() == reflect.Pointer &&
			t.Elem().PkgPath() == "github.com/robotsgate/robotstxt" && t.Elem().Name() == "Transport" {
			return true
		}
		u, ok := rt.(interface{ Unwrap() http.RoundTripper })
		if !ok {
			return false
		}
		rt = u.Unwrap()
	}
	return false
}

// maxUnwrap bounds the RoundTrippers robotsTransport unwraps: a chain of
// wrappers is a few deep, and one that unwraps to itself ends there.
const maxUnwrap = 64

// CloseIdleConnections closes the idle connections of next.
func (t *transport) CloseIdleConnections() {
	if ci, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// Unwrap returns next, for robotstxt.NewTransport to find a guard.
func (t *transport) Unwrap() http.RoundTripper { return t.next }
