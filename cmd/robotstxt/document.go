package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/body"
)

// maxInput bounds how much of a file, standard input or response is read,
// so that a mistaken argument such as /dev/zero cannot exhaust memory. It
// is far above the 500 KiB a crawler reads of a robots.txt.
const maxInput = 64 << 20

// A document is a robots.txt as the command read it: through body.Read,
// the Client's own body pipeline (content coding, size limit with the cut
// line dropped, UTF-16 byte-order mark, UTF-8, Content-Type charset,
// Windows-1252), so that every command sees what a crawler would.
type document struct {
	name string
	// size is how many bytes were read from the source, before decoding.
	size int
	// body is the robots.txt as crawlers read it: cut at the 500 KiB
	// limit.
	body body.Body
	// whole is every byte read, decoded the same way; it is body when
	// body is not truncated.
	whole body.Body
	// live is set for a robots.txt fetched over HTTP.
	live *fetched
}

// text returns the body as crawlers read it, or whole when full is set.
func (d *document) text(full bool) []byte {
	if full {
		return d.whole.Text
	}
	return d.body.Text
}

// readable reports whether the document has a body to parse: always for a
// file, and for a live robots.txt only when its status is 2xx.
func (d *document) readable() bool {
	return d.live == nil || d.live.d.Outcome == robotstxt.OutcomeRules
}

// isURL reports whether a -file or lint argument names a live robots.txt
// rather than a file: it has a scheme. Every such argument goes to the
// Client, which rejects all but http and https.
func isURL(name string) bool {
	return strings.Contains(name, "://")
}

// readDocument reads the named source: a file, standard input for "-", or,
// for a URL, the robots.txt of its authority fetched as a crawler would.
// An error means the source could not be read (or the URL checked).
func readDocument(ctx context.Context, name string, cfg fetchConfig, e env) (*document, error) {
	if isURL(name) {
		f, err := fetchRobots(ctx, name, cfg)
		if err != nil {
			return nil, err
		}
		d := &document{name: f.url(), live: f}
		if d.name == "" {
			d.name = name
		}
		if d.readable() {
			err = d.decode(f.raw, f.header)
		}
		return d, err
	}
	var r io.Reader = e.stdin
	display := "<stdin>"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, display = f, name
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", display, err)
	}
	if len(raw) > maxInput {
		return nil, fmt.Errorf("%s is over %d MiB: not a robots.txt", display, maxInput>>20)
	}
	d := &document{name: display}
	return d, d.decode(raw, nil)
}

// decode reads raw, with the response header when there is one, through
// the Client's body pipeline, both as crawlers read it and whole.
func (d *document) decode(raw []byte, header http.Header) error {
	d.size = len(raw)
	var err error
	d.body, err = body.Read(bytes.NewReader(raw), header, body.DefaultLimit)
	if err != nil {
		return fmt.Errorf("reading %s: %w", d.name, err)
	}
	d.whole = d.body
	if d.body.Truncated {
		d.whole, err = body.Read(bytes.NewReader(raw), header, 0)
		if err != nil {
			return fmt.Errorf("reading %s: %w", d.name, err)
		}
	}
	return nil
}

// noteLimit tells on standard error that the document is over the limit
// crawlers read, and whether the command reads all of it.
func (d *document) noteLimit(full bool, e env) {
	if !d.body.Truncated {
		return
	}
	if full {
		e.errorf("note: %s is %s; crawlers read only the first %s, but -full reads it all",
			d.name, kib(len(d.whole.Text)), kib(body.DefaultLimit))
		return
	}
	e.errorf("note: %s is %s; like crawlers, only the first %s is read (-full reads it all)",
		d.name, kib(len(d.whole.Text)), kib(body.DefaultLimit))
}

// kib formats a size in KiB.
func kib(n int) string {
	return fmt.Sprintf("%d KiB", (n+1023)/1024)
}

// fallback is the answer for every URL of a live robots.txt that has no
// body to parse, as the Client gives it: allow all for a missing one,
// disallow all for a forbidden one under the legacy policy, and defer for
// an unreachable one.
func (f *fetched) fallback() (v verdict, detail string) {
	d := f.d
	status := "no response"
	if d.Status != 0 {
		status = fmt.Sprintf("status %d", d.Status)
	}
	switch d.Outcome {
	case robotstxt.OutcomeAllowAll:
		why := "no robots.txt: allow all"
		if d.Err != nil {
			why = errText(d.Err) + ": allow all"
		}
		return verdictAllowed, status + "; " + why
	case robotstxt.OutcomeDisallowAll:
		return verdictDisallowed, status + "; robots.txt forbidden: disallow all"
	}
	return verdictDeferred, "robots.txt unreachable: " + unreachable(d.Status, d.Err)
}
