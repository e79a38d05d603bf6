package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"reflect"
	"slices"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrNonPublic is wrapped by the error of a connection that a transport
// made by [PublicOnly] refused because the address is not public. A
// robots.txt fetch refused so is unreachable, whatever [WithErrorPolicy]
// says: a site must not make its robots.txt an internal service's answer.
var ErrNonPublic = errors.New("robotstxt: refused to connect to a non-public address")

// PublicOnly returns a copy of t (of http.DefaultTransport when t is nil,
// or of its settings if another package wrapped it) that connects only to
// public addresses: it refuses loopback, private,
// link-local (such as the cloud metadata address 169.254.169.254), shared
// (CGNAT), multicast, documentation and other special-purpose IPv4 and
// IPv6 addresses with an error wrapping [ErrNonPublic]. It checks each
// address it dials, after DNS resolution, so a name that resolves or
// rebinds to one is refused too, on every redirect hop. A crawler of the
// web should send everything through it with [NewClientTransport]. The
// copy dials with its own net.Dialer (30 s connect timeout and keep-alive,
// as http.DefaultTransport's) and has no proxy, which would resolve names
// and connect where no check could see. It speaks HTTP/2 when t would,
// over connections of its own: never a pool x/net/http2 shares with t,
// whose settings (its health checks, say) the copy does not keep: tune
// it through the copy's HTTP2 field. A RoundTripper registered on the
// copy with RegisterProtocol takes its scheme's requests past the check,
// unseen; x/net/http2.ConfigureTransports registers one, whose pool every
// Clone of the copy shares, and a Clone given a dial function or a proxy
// of its own fills it with connections no check saw.
func PublicOnly(t *http.Transport) *http.Transport { return guardTransport(t, nil) }

// isGuard reports whether rt is or wraps, as [NewTransport] says, a
// transport that dials only through the guard's dialer: one PublicOnly
// made, or a Clone of one, with no proxy or other dial function set since.
func isGuard(rt http.RoundTripper) bool {
	return wraps(rt, func(rt http.RoundTripper) bool {
		t, ok := rt.(*http.Transport)
		//lint:ignore SA1019 a deprecated dial function set would bypass the guard
		return ok && t.Proxy == nil && t.DialTLSContext == nil && t.DialTLS == nil && t.Dial == nil &&
			t.DialContext != nil && reflect.ValueOf(t.DialContext).Pointer() == guardDial
	})
}

// isSigner reports whether rt is or wraps, as [NewTransport] says,
// botauth's signing transport, told by its type (botauth imports this
// package, and a method to tell it by would be API).
func isSigner(rt http.RoundTripper) bool {
	return wraps(rt, func(rt http.RoundTripper) bool {
		t := reflect.TypeOf(rt)
		return t.Kind() == reflect.Pointer && t.Elem().PkgPath() == botauthPath && t.Elem().Name() == "transport"
	})
}

// opaque reports whether rt is or wraps a RoundTripper that wraps cannot
// see into: neither an *http.Transport nor one it unwraps.
func opaque(rt http.RoundTripper) bool {
	return wraps(rt, func(rt http.RoundTripper) bool {
		switch rt.(type) {
		case *http.Transport, *Transport, *forwarder, interface{ Unwrap() http.RoundTripper }:
			return false
		}
		return true
	})
}

// isDefault reports whether rt is http.DefaultTransport, as it is now,
// compared only when that cannot panic: a func by its code, a value that
// does not compare (a wrapper of a func) not at all.
func isDefault(rt http.RoundTripper) bool {
	v, d := reflect.ValueOf(rt), reflect.ValueOf(http.DefaultTransport)
	switch {
	case !v.IsValid() || !d.IsValid() || v.Type() != d.Type():
		return false
	case v.Kind() == reflect.Func:
		return v.Pointer() == d.Pointer()
	}
	return v.Comparable() && rt == http.DefaultTransport
}

// botauthPath is the import path of package botauth.
const botauthPath = "github.com/robotsgate/robotstxt/botauth"

// guardDial is the code of the guard's dial function, which tells a
// guard's transport, and each copy of it, from any other.
var guardDial = reflect.ValueOf((*guardDialer)(nil).DialContext).Pointer()

// wraps reports whether rt (http.DefaultTransport when nil) is a
// RoundTripper for which is reports true, or wraps one: a [Transport],
// NewClientTransport's Client's, or a RoundTripper with a method
// Unwrap() http.RoundTripper.
func wraps(rt http.RoundTripper, is func(http.RoundTripper) bool) bool {
	for range maxUnwrap {
		if rt == nil {
			rt = http.DefaultTransport
		}
		if is(rt) {
			return true
		}
		switch v := rt.(type) {
		case *Transport:
			rt = v.next
		case *forwarder:
			rt = v.t
		case interface{ Unwrap() http.RoundTripper }:
			rt = v.Unwrap()
		default:
			return false
		}
	}
	return false
}

// maxUnwrap bounds the wrappers wraps follows: chains are a few deep,
// and the bound ends a cycle.
const maxUnwrap = 64

// A guardDialer dials only addresses its check lets through.
type guardDialer struct{ net.Dialer }

// DialContext dials address as its Dialer does. Where the name has
// addresses of both kinds and none connects, Go's dialer gives the first
// address's error: the refusal of a stray internal record would stand for
// the outage of the public address, as a refusal kept for the longest
// back-off. That error then reads as the public address's failure.
func (d *guardDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	dd := d.Dialer
	// Multipath TCP (GODEBUG=multipathtcp) opens subflows to addresses
	// the server announces, which Control never sees.
	dd.SetMultipathTCP(false)
	var passed atomic.Bool
	dd.Control = func(network, address string, c syscall.RawConn) error {
		err := d.Control(network, address, c)
		if err == nil {
			passed.Store(true)
		}
		return err
	}
	conn, err := dd.DialContext(ctx, network, address)
	if err != nil && passed.Load() && errors.Is(err, ErrNonPublic) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("no public address of %s connected (one not public refused)", address)}
	}
	return conn, err
}

// guardTransport is PublicOnly with exempt, for tests, naming addresses
// to let through although they are not public.
func guardTransport(t *http.Transport, exempt func(netip.AddrPort) bool) *http.Transport {
	if t == nil {
		var ok bool
		if t, ok = http.DefaultTransport.(*http.Transport); !ok {
			// Another package wrapped it: the settings Go gives it.
			t = &http.Transport{ForceAttemptHTTP2: true, MaxIdleConns: 100, IdleConnTimeout: 90 * time.Second,
				TLSHandshakeTimeout: 10 * time.Second, ExpectContinueTimeout: time.Second}
		}
	}
	g := t.Clone()
	if g.TLSNextProto["h2"] != nil {
		// Another package's HTTP/2 (x/net/http2.ConfigureTransports)
		// puts each connection in a pool it shares with t, and sends the
		// copy's requests over any connection there, which t dialled
		// unchecked: the copy speaks net/http's HTTP/2 (below: its TLS
		// config offers h2), with a pool of its own.
		g.TLSNextProto = nil
	} else if g.TLSNextProto != nil {
		// Protocols of another package's, which may pool as x/net's
		// does, or an empty map, which keeps HTTP/2 off for t: Protocols
		// keeps it off for the copy. Not a map: HTTP/2 turned on later
		// (Protocols) would put the copy's own pool there, and every
		// Clone of the copy, with a dialer of its own, share it.
		g.TLSNextProto = nil
		if g.Protocols == nil {
			g.Protocols = new(http.Protocols)
			g.Protocols.SetHTTP1(true)
		}
	}
	d := &guardDialer{net.Dialer{
		Timeout:   30 * time.Second,
		KeepAlive: 30 * time.Second,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: cannot read address %q", ErrNonPublic, address)
			}
			if !publicAddr(ap.Addr()) && (exempt == nil || !exempt(ap)) {
				return fmt.Errorf("%w: %s", ErrNonPublic, ap.Addr())
			}
			return nil
		},
	}}
	if g.TLSNextProto == nil && g.Protocols == nil && g.TLSClientConfig != nil && slices.Contains(g.TLSClientConfig.NextProtos, "h2") {
		// Clone set t up for HTTP/2, its TLS config offering h2, which
		// the copy, given a dial function, would offer and not speak
		// (golang/go#39302): every HTTP/2 site would fail. It speaks it.
		g.ForceAttemptHTTP2 = true
	}
	g.Proxy = nil
	g.DialContext = d.DialContext
	// Any other dial function, deprecated ones included, would bypass the
	// check; without them TLS connections dial through DialContext too.
	//lint:ignore SA1019 clearing them is what keeps them from bypassing the check
	g.DialTLSContext, g.DialTLS, g.Dial = nil, nil, nil
	return g
}

// publicAddr reports whether a is a public unicast address.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	switch {
	case !a.IsValid() || a.Zone() != "":
		return false
	case nat64.Contains(a):
		s := a.As16()
		return publicAddr(netip.AddrFrom4([4]byte(s[12:])))
	case a.Is6() && !globalUnicast6.Contains(a):
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

var (
	nat64          = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052's, embedding an IPv4 address
	globalUnicast6 = netip.MustParsePrefix("2000::/3")     // holds every public IPv6 address
)

// nonPublic lists the special-purpose ranges of the IANA IPv4 and IPv6
// registries (RFC 6890 and its updates) that a crawler must not connect to
// on a site's say-so; for IPv6 only those inside 2000::/3 are needed.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("10.0.0.0/8"),      // private
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (CGNAT)
	netip.MustParsePrefix("127.0.0.0/8"),     // loopback
	netip.MustParsePrefix("169.254.0.0/16"),  // link-local, cloud metadata services
	netip.MustParsePrefix("172.16.0.0/12"),   // private
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("192.88.99.0/24"),  // 6to4 relay anycast
	netip.MustParsePrefix("192.168.0.0/16"),  // private
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("224.0.0.0/4"),     // multicast
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, limited broadcast
	netip.MustParsePrefix("2001::/23"),       // IETF protocol assignments (Teredo included)
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4, which embeds any IPv4 address
	netip.MustParsePrefix("3fff::/20"),       // documentation
}
