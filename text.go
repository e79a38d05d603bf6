package robotstxt

import (
	"context"
	"errors"
	"log/slog"
	"net"
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

// capErr returns err, or when its text is longer than maxCauseText an
// error with the cut text that still matches the sentinels callers test,
// and the network's error that callers tell apart with errors.As (what
// failed: a lookup, a dial, a read), which is small, unlike a TLS error
// and its certificates.
func capErr(err error) error {
	if err == nil || len(err.Error()) <= maxCauseText {
		return err
	}
	c := &cutError{msg: quote.Cut(err.Error(), maxCauseText)}
	for _, s := range [...]error{context.DeadlineExceeded, context.Canceled, body.ErrContentCoding, errRedirects, ErrNonPublic} {
		if errors.Is(err, s) {
			c.is = append(c.is, s)
		}
	}
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.As(err, &op):
		c.is = append(c.is, op)
	case errors.As(err, &dns):
		c.is = append(c.is, dns)
	}
	return c
}

// cutError is an error whose text was cut by capErr.
type cutError struct {
	msg string
	is  []error
}

func (e *cutError) Error() string   { return e.msg }
func (e *cutError) Unwrap() []error { return e.is }

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
