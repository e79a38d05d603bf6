package botauth

import "net/http"

// NewTransport returns a RoundTripper that signs a copy of each request as
// it is sent, as [Signer.Sign] does, and sends it through next
// (http.DefaultTransport when nil). Each redirect hop or retry gets a
// signature of its own authority in place of those it carries (such as
// those net/http copies onto a hop), so that no signature made for one
// site reaches another. A request it cannot sign is not sent: RoundTrip
// closes its body and returns Sign's error. CloseIdleConnections reaches
// next's.
//
// Give it a robotstxt.PublicOnly transport as next, not the other way
// round: its Unwrap method lets robotstxt.NewTransport see the guard. It
// panics if s is nil or was not made by [NewSigner].
func NewTransport(next http.RoundTripper, s *Signer) http.RoundTripper {
	if s == nil {
		panic("botauth: NewTransport with a nil Signer")
	}
	s.mustBeMade()
	if next == nil {
		next = http.DefaultTransport
	}
	return &transport{next: next, s: s}
}

type transport struct {
	next http.RoundTripper
	s    *Signer
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	signed := req.Clone(req.Context())
	if err := t.s.Sign(signed); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	return t.next.RoundTrip(signed)
}

// CloseIdleConnections closes the idle connections of next.
func (t *transport) CloseIdleConnections() {
	if ci, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// Unwrap returns next, for robotstxt.NewTransport to find a guard.
func (t *transport) Unwrap() http.RoundTripper { return t.next }
