package robotstxt

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"math/bits"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/robotsgate/robotstxt/internal/body"
	"github.com/robotsgate/robotstxt/internal/quote"
)

// maxServerText bounds each string a server chooses that an entry keeps
// (a validator, the final URL): real ones are far shorter, and kept whole,
// 15 authorities with megabyte headers would evict every other entry from
// the default cache.
const maxServerText = 512

// maxCauseText bounds the text of an underlying failure an error carries,
// room for a reason phrase or a Location already cut to quote.Max.
const maxCauseText = 256

// maxCauseDepth bounds the errors of a failure's chain an entry keeps the
// text of: a fetch's, net/http's, the network operation's and its cause
// (what a crawler shows; the Client's own failures wrap fewer).
const maxCauseDepth = 4

// capText returns s cut to at most maxServerText bytes (see quote.Cut).
func capText(s string) string { return quote.Cut(s, maxServerText) }

// capQuote returns s cut to at most quote.Max bytes, for an error's text.
func capQuote(s string) string { return quote.Cut(s, quote.Max) }

// capValidator returns v, or "" when v is longer than maxServerText: a
// cut validator could never match.
func capValidator(v string) string {
	if len(v) > maxServerText {
		return ""
	}
	return v
}

// capErr returns a copy of err, nil for nil, that keeps of it only what
// callers ask of an error: its text, and that of each error it wraps, cut
// to maxCauseText, at most maxCauseDepth of them (errors.Unwrap walks
// them), the sentinels callers test with errors.Is, and what they tell
// apart with errors.As (what failed: a lookup, a dial, a read, a TLS
// handshake, a timeout), small. An entry keeps its failure's error, and a
// TLS error holds every certificate the server sent.
func capErr(err error) error {
	if err == nil {
		return nil
	}
	var msgs []string
	for next := err; next != nil && len(msgs) < maxCauseDepth; next = errors.Unwrap(next) {
		if msg := quote.Cut(next.Error(), maxCauseText); len(msgs) == 0 || msg != msgs[len(msgs)-1] {
			msgs = append(msgs, msg) // not a wrapper that says only what it wraps says
		}
	}
	end := &cutEnd{msg: msgs[len(msgs)-1]}
	for _, s := range causeSentinels {
		if errors.Is(err, s) {
			end.is = append(end.is, s)
		}
	}
	if errors.Is(err, errAnswer) {
		// In memory only (the Store encoding has no bit for it): a
		// failure met through a hop is kept for its site by it (see
		// serversOwn), and a site redirected there while it is kept
		// fails with it, a refusal, as its own fetch would (see
		// refused).
		end.is = append(end.is, errAnswer)
	}
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.As(err, &op):
		end.is = append(end.is, lightOp(op))
	case errors.As(err, &dns):
		end.is = append(end.is, dns)
	}
	if t := lightTLS(err); t != nil {
		end.is = append(end.is, t)
	}
	var ne net.Error
	end.timeout = errors.As(err, &ne) && ne.Timeout() // a dial's, a Client.Timeout's
	var c error = end
	for i := len(msgs) - 2; i >= 0; i-- {
		c = &cutError{msgs[i], c}
	}
	return c
}

// causeSentinels are the errors capErr keeps for errors.Is, each in the
// Store encoding as the bit of its place (see causesOf): ErrNonPublic
// first, whose bit is causeNonPublic.
var causeSentinels = [...]error{ErrNonPublic, context.DeadlineExceeded, context.Canceled, os.ErrDeadlineExceeded,
	net.ErrClosed, io.ErrUnexpectedEOF, io.EOF, body.ErrContentCoding, errRedirects}

// The classes of a failure that the Store encoding keeps beside its text
// (persisted.causes), so that a process reading it tells apart what the
// one that fetched does: a bit for each of causeSentinels, then these.
const (
	causeNonPublic   = 1 << iota // causeSentinels[0]
	causeTimeout     = 1 << (len(causeSentinels) + iota - 1)
	causeNotFound    // a *net.DNSError's IsNotFound: the name is gone
	causeRefused     // ECONNREFUSED
	causeReset       // ECONNRESET
	causeCertificate // a *tls.CertificateVerificationError
	causeAlert       // a *net.OpError "remote error": the server sent a TLS alert
	causeAll         = causeAlert<<1 - 1
	// causeUnanswered are the failures with no connection that are the
	// site's own whoever asks: its name not found, its connections
	// refused, its certificate not verified, its address not public. A
	// redirect chain that asked cannot have caused them, as it may a
	// timeout (its deadline) or a cut.
	causeUnanswered = causeNonPublic | causeNotFound | causeRefused | causeCertificate
	// causeCut are the classes of a failure the network or the clock cut
	// (see cut), which capErr's copy keeps: context.DeadlineExceeded,
	// context.Canceled, os.ErrDeadlineExceeded, net.ErrClosed,
	// io.ErrUnexpectedEOF and io.EOF (causeSentinels[1:7]), a timeout, a
	// reset.
	causeCut = 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<5 | 1<<6 | causeTimeout | causeReset
)

// refusalClasses are the classes of a stored failure that may be a
// refusal (see refused) or an answer cut (errCutAnswer), which no error
// policy makes allow-all: an address not public, a redirect not
// followed, a coding not read, a body ended early. A failure with no
// class or kind kept may be one too (an answer that could not be read:
// see classified).
var refusalClasses = causeNonPublic | causesOf(body.ErrContentCoding) | causesOf(errRedirects) |
	causesOf(io.ErrUnexpectedEOF) | causesOf(io.EOF)

// classified reports whether err, a stored failure's (see storedCause),
// keeps a class or a kind beside its text.
func classified(err error) bool {
	ce, ok := err.(*cutEnd)
	return ok && (len(ce.is) > 0 || ce.timeout)
}

// causesOf returns the classes of err the Store encoding keeps.
func causesOf(err error) uint16 {
	var c uint16
	for i, s := range causeSentinels {
		if errors.Is(err, s) {
			c |= 1 << i
		}
	}
	var ne net.Error
	var dns *net.DNSError
	var verify *tls.CertificateVerificationError
	var op *net.OpError
	for _, class := range [...]struct {
		bit uint16
		in  bool
	}{
		{causeTimeout, errors.As(err, &ne) && ne.Timeout()},
		{causeNotFound, errors.As(err, &dns) && dns.IsNotFound},
		{causeRefused, errors.Is(err, syscall.ECONNREFUSED)},
		{causeReset, errors.Is(err, syscall.ECONNRESET)},
		{causeCertificate, errors.As(err, &verify)},
		{causeAlert, errors.As(err, &op) && op.Op == remoteError},
	} {
		if class.in {
			c |= class.bit
		}
	}
	return c
}

// storedCause returns the error a failure read from a Store stands for:
// its text, what errors.Is matches of causeSentinels, and of the errors
// errors.As tells apart a copy that holds only its class: a
// *net.DNSError's IsNotFound, a *net.OpError of a refused or reset
// connection or of a TLS alert, a *tls.CertificateVerificationError, and
// the failure of kind (see kindOf).
func storedCause(text string, causes, kind uint16) error {
	end := &cutEnd{msg: text, timeout: causes&causeTimeout != 0, is: make([]error, 0, bits.OnesCount16(causes&^causeTimeout))}
	for i, s := range causeSentinels {
		if causes&(1<<i) != 0 {
			end.is = append(end.is, s)
		}
	}
	// The kind first: a dial's *net.OpError is the one errors.As finds,
	// not a reset's after it.
	if t := kindError(kind, causes&causeCertificate != 0, causes&causeTimeout != 0); t != nil {
		end.is = append(end.is, t)
	}
	if causes&causeNotFound != 0 && kind&^(dnsFlags|kindViaProxy) != kindDNS {
		end.is = append(end.is, &net.DNSError{Err: "no such host", IsNotFound: true})
	}
	if causes&causeRefused != 0 {
		end.is = append(end.is, &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}})
	}
	if causes&causeReset != 0 {
		end.is = append(end.is, &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}})
	}
	if causes&causeAlert != 0 {
		end.is = append(end.is, &net.OpError{Op: remoteError, Net: "tcp", Err: errors.New("tls: alert")})
	}
	return end
}

// causeBytes returns the bytes of text err, from capErr, holds beyond its
// own Error(): that of the errors it wraps.
func causeBytes(err error) int64 {
	var n int64
	for c, ok := err.(*cutError); ok; c, ok = c.next.(*cutError) {
		n += int64(len(c.next.Error()))
	}
	return n
}

// lightOp returns a copy of op that holds of its cause only what capErr
// keeps: op may wrap a TLS error (a proxy's handshake).
func lightOp(op *net.OpError) *net.OpError {
	c := *op
	var dns *net.DNSError
	var sys *os.SyscallError
	var errno syscall.Errno
	switch {
	case errors.As(op.Err, &dns):
		c.Err = dns
	case errors.As(op.Err, &sys) && errors.As(sys.Err, &errno):
		c.Err = &os.SyscallError{Syscall: sys.Syscall, Err: errno}
	case errors.As(op.Err, &errno):
		c.Err = errno
	default:
		var ne net.Error
		c.Err = &cutEnd{msg: quote.Cut(op.Err.Error(), maxCauseText), timeout: errors.As(op.Err, &ne) && ne.Timeout()}
		if t := lightTLS(op.Err); t != nil {
			c.Err.(*cutEnd).is = []error{t}
		}
	}
	return &c
}

// lightTLS returns the TLS or certificate error in err's chain, if any,
// as a copy that holds no certificate: a certificate error but an
// unknown authority or an invalid certificate keeps only its text.
func lightTLS(err error) error {
	var (
		unknown x509.UnknownAuthorityError
		invalid x509.CertificateInvalidError
		verify  *tls.CertificateVerificationError
		alert   tls.AlertError
		record  tls.RecordHeaderError
		inner   error
	)
	switch {
	case errors.As(err, &unknown):
		inner = x509.UnknownAuthorityError{}
	case errors.As(err, &invalid):
		inner = x509.CertificateInvalidError{Reason: invalid.Reason, Detail: quote.Cut(invalid.Detail, maxCauseText)}
	}
	switch {
	case errors.As(err, &verify):
		if inner == nil && verify.Err != nil {
			inner = errors.New(quote.Cut(verify.Err.Error(), maxCauseText))
		}
		return &tls.CertificateVerificationError{Err: inner}
	case inner != nil:
		return inner
	case errors.As(err, &alert):
		return alert
	case errors.As(err, &record):
		return tls.RecordHeaderError{Msg: record.Msg, RecordHeader: record.RecordHeader}
	}
	return nil
}

// remoteError is the Op of the *net.OpError crypto/tls reports a TLS alert
// the server sent in over TCP (a tls.AlertError is QUIC's).
const remoteError = "remote error"

// The kinds of failure the Store encoding keeps beside a failure's
// classes (see kindOf), so that an error policy tells them apart with
// errors.As in every process: 0 for none, else one of these. Of a TLS
// failure, those lightTLS keeps (a TLS alert is a class, causeAlert; a
// tls.AlertError, which only QUIC reports, is kept as text); of a
// connection, a resolver's failure and the Op of the *net.OpError.
const (
	kindUnknownAuthority = 1 // an x509.UnknownAuthorityError
	kindRecordHeader     = 2 // a tls.RecordHeaderError: the server spoke no TLS
	// kindDial is a *net.OpError "dial" of no resolver's failure and no
	// refusal (causeRefused): a connection not made in time, a network
	// unreachable.
	kindDial = 3
	// kindRead and kindWrite are a *net.OpError "read" of no reset
	// (causeReset) and "write": a read timed out, a host unreachable once
	// connected, a broken pipe. (Numbered after the kinds an earlier
	// build of version 14 knew, which reads them as a miss.)
	kindRead  = 4
	kindWrite = 5
	// kindDNS is a *net.DNSError, in a dial's *net.OpError, plus its
	// flags: dnsTemporary, dnsTimeout, dnsNotFound (causeNotFound too;
	// the last, as a writer of an earlier build of version 14 knew no
	// such kind and reads it as a miss).
	kindDNS      = 0x10
	dnsTemporary = 1
	dnsTimeout   = 2
	dnsNotFound  = 4
	dnsFlags     = dnsNotFound | dnsTemporary | dnsTimeout
	kindInvalid  = 1 << 8 // an x509.CertificateInvalidError, plus its Reason
	// kindViaProxy, beside another kind or none, is a failure of the
	// HTTP client's proxy: net/http wraps it (the proxy's dial, name or
	// TLS handshake) in a *net.OpError "proxyconnect".
	kindViaProxy = 1 << 9
	maxKind      = kindViaProxy | kindInvalid | 0xff
)

// kindOf returns the kind of failure in err's chain.
func kindOf(err error) uint16 {
	if err == nil {
		return 0 // before the targets of errors.As, each an allocation
	}
	if op := (*net.OpError)(nil); errors.As(err, &op) && op.Op == "proxyconnect" {
		return kindViaProxy | kindOf(op.Err)&^kindViaProxy
	}
	var (
		unknown x509.UnknownAuthorityError
		invalid x509.CertificateInvalidError
		record  tls.RecordHeaderError
		dns     *net.DNSError
		op      *net.OpError
	)
	switch {
	case errors.As(err, &unknown):
		return kindUnknownAuthority
	case errors.As(err, &invalid):
		if invalid.Reason < 0 || invalid.Reason > 0xff {
			return 0
		}
		return kindInvalid | uint16(invalid.Reason)
	case errors.As(err, &record):
		return kindRecordHeader
	case errors.As(err, &dns):
		kind := uint16(kindDNS)
		if dns.IsNotFound {
			kind |= dnsNotFound
		}
		if dns.IsTemporary {
			kind |= dnsTemporary
		}
		if dns.IsTimeout {
			kind |= dnsTimeout
		}
		return kind
	case errors.As(err, &op):
		switch op.Op {
		case "dial":
			if !errors.Is(err, syscall.ECONNREFUSED) {
				return kindDial
			}
		case "read":
			if !errors.Is(err, syscall.ECONNRESET) {
				return kindRead
			}
		case "write":
			return kindWrite
		}
	}
	return 0
}

// kindOps are the Ops of the *net.OpError of each kind of a connection.
var kindOps = [...]string{kindDial: "dial", kindRead: "read", kindWrite: "write"}

// knownKind reports whether kind is 0 or one of the kinds of failure.
func knownKind(kind uint16) bool {
	kind &^= kindViaProxy
	return kind <= kindWrite || kind&^dnsFlags == kindDNS || kind&^0xff == kindInvalid
}

// kindError returns the error of a failure of kind read from a Store,
// nil for none: of a TLS failure, if unverified, in a
// *tls.CertificateVerificationError that holds the error of a
// certificate's kind, or one saying only that; of a connection, in the
// *net.OpError net/http reports, timed out if timeout; of the proxy, in
// its *net.OpError "proxyconnect".
func kindError(kind uint16, unverified, timeout bool) error {
	if kind&kindViaProxy != 0 {
		err := kindError(kind&^kindViaProxy, unverified, timeout)
		if err == nil {
			err = &cutEnd{msg: "the proxy failed", timeout: timeout}
		}
		return &net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}
	}
	var err error
	switch {
	case kind >= kindDial && kind <= kindWrite:
		op := kindOps[kind]
		return &net.OpError{Op: op, Net: "tcp", Err: &cutEnd{msg: op + " failed", timeout: timeout}}
	case kind&^dnsFlags == kindDNS:
		return &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "lookup failed",
			IsNotFound: kind&dnsNotFound != 0, IsTemporary: kind&dnsTemporary != 0, IsTimeout: kind&dnsTimeout != 0}}
	case kind == kindUnknownAuthority:
		err = x509.UnknownAuthorityError{}
	case kind&^0xff == kindInvalid:
		err = x509.CertificateInvalidError{Reason: x509.InvalidReason(kind & 0xff)}
	case kind == kindRecordHeader && !unverified:
		return tls.RecordHeaderError{Msg: "the server's record is not TLS"}
	}
	if unverified {
		return &tls.CertificateVerificationError{Err: cmp.Or(err, errors.New("certificate not verified"))}
	}
	return err
}

// cutError is an error capErr cut that wraps one.
type cutError struct {
	msg  string
	next error // a *cutError or *cutEnd
}

func (e *cutError) Error() string { return e.msg }
func (e *cutError) Unwrap() error { return e.next }

// cutEnd is the end of the chain of an error capErr cut: what errors.Is
// and errors.As match in it.
type cutEnd struct {
	msg     string
	is      []error
	timeout bool
}

func (e *cutEnd) Error() string   { return e.msg }
func (e *cutEnd) Unwrap() []error { return e.is }

// Timeout and Temporary make a cutEnd a net.Error, which tells a timeout
// as the error cut did.
func (e *cutEnd) Timeout() bool   { return e.timeout }
func (e *cutEnd) Temporary() bool { return false }

// durationAttr is the log attribute of a duration: a Go duration string
// such as "1m0s", rounded, which reads the same under every handler
// (slog.Duration gives JSON nanoseconds).
func durationAttr(key string, d time.Duration) slog.Attr {
	return slog.String(key, roundDuration(d).String())
}

// roundDuration rounds d to the millisecond, or to the microsecond when
// it is shorter than a millisecond, so that it is not rounded to 0.
func roundDuration(d time.Duration) time.Duration {
	if d > -time.Millisecond && d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
