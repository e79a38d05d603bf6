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
	"github.com/robotsgate/robotstxt/parser"
)

// maxInput bounds how much of a file, standard input or response is read,
// and decoded, so that a mistaken argument such as /dev/zero cannot exhaust memory. It
// is far above the 500 KiB a crawler reads of a robots.txt.
const maxInput = 16 << 20

// crawlerLimit is how much of a robots.txt the Client reads by default,
// and so crawlers do: 500 KiB, the least RFC 9309 allows.
const crawlerLimit = 500 << 10

// A document is a robots.txt as the command read it: through parser.Read,
// the Client's own body pipeline (content coding, size limit with what
// the cut line may say kept, UTF-16 byte-order mark, UTF-8, Content-Type
// charset, Windows-1252), so that every command sees what a crawler
// would.
type document struct {
	name string
	// raw and header are the bytes read from the source, before
	// decoding, and, for a robots.txt fetched over HTTP, the response's
	// header: what served gives a Client.
	raw    []byte
	header http.Header
	// body is the robots.txt as crawlers read it: cut at the 500 KiB
	// limit.
	body parser.Body
	// whole is every byte read, decoded the same way; it is body when
	// body is not truncated, or when only body decodes (a capture cut
	// in a compressed stream).
	whole parser.Body
	// over says that whole was cut at maxInput; partial that whole is
	// body because the rest did not decode, or did not arrive (see cut).
	over, partial bool
	// live, for a robots.txt fetched over HTTP, is the Client's decision
	// for the URL it was fetched for, which describes the robots.txt,
	// with the error of that check and the requests of the fetch.
	live    *robotstxt.Decision
	liveErr error
	// stale says that the Client's last check resting on it answered
	// from it as a stale copy (its server failing, or asked again).
	stale bool
	from  int // the number of the capture it was read from, 0 for none
	hops  []request
	// cut says why the response ended before the whole file arrived,
	// past what the Client read; nil when it did not.
	cut error
	// noted says that noteLimit has told of the document.
	noted bool
}

// text returns the body as crawlers read it, or whole when full is set.
func (d *document) text(full bool) []byte {
	if full {
		return d.whole.Text
	}
	return d.body.Text
}

// readable reports whether the document has a body to parse: always for a
// file, and for a live robots.txt only when the Client read rules from it.
func (d *document) readable() bool {
	return d.live == nil || d.live.Outcome == robotstxt.OutcomeRules
}

// isURL reports whether a -file or lint argument names a live robots.txt
// rather than a file: it has a scheme. Every such argument goes to the
// Client, which rejects all but http and https.
func isURL(name string) bool {
	return strings.Contains(name, "://")
}

// readDocument reads the named source: a file, standard input for "-", or,
// for a URL, the robots.txt of its authority fetched as a crawler fetches
// it but whole (see fetcher). An error means the source could not be read
// (or the URL checked).
func readDocument(ctx context.Context, name string, cfg fetchConfig, e env) (*document, error) {
	if isURL(name) {
		cfg.whole = true
		f := newFetcher(cfg)
		defer f.close()
		_, doc, err := f.read(ctx, name)
		if doc == nil {
			return nil, err // the URL cannot be checked, or ctx ended
		}
		return doc, nil
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
	// Read as a response is (see capture): what is past maxInput+1
	// bytes is past every limit.
	raw, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", display, err)
	}
	d := &document{name: display}
	if err := d.decode(raw, nil); err != nil {
		return nil, err
	}
	return d, nil
}

// decode reads raw, with the response header when there is one, through
// the Client's body pipeline, both as crawlers read it and whole. When
// only the part crawlers read decodes (raw is a capture cut in a
// compressed stream), whole is that part.
func (d *document) decode(raw []byte, header http.Header) error {
	d.raw, d.header = raw, header
	var err error
	d.body, err = parser.Read(bytes.NewReader(raw), header, crawlerLimit)
	if err != nil {
		return fmt.Errorf("reading %s: %w", d.name, err)
	}
	d.whole = d.body
	if d.body.Truncated {
		// At most maxInput: a content coding decodes a small response
		// into far more.
		whole, err := parser.Read(bytes.NewReader(raw), header, maxInput)
		if err == nil {
			d.whole, d.over = whole, whole.Truncated
		}
		d.partial = err != nil
	}
	return nil
}

// noteLimit tells on standard error that the document is over the limit
// crawlers read, and whether the command reads all of it, once.
func (d *document) noteLimit(full bool, e env) {
	if !d.body.Truncated || d.noted {
		return
	}
	d.noted = true
	if d.cut != nil {
		e.errorf("note: %s was cut after %s received (%v): crawlers read only the first %s, and the rest is missing",
			d.name, kib(len(d.raw)), d.cut, kib(crawlerLimit))
		return
	}
	switch {
	case d.partial:
		e.errorf("note: %s is over %s, and the rest does not decode: like crawlers, only the first %s is read, with -full too",
			d.name, kib(crawlerLimit), kib(crawlerLimit))
		return
	case full && d.over:
		e.errorf("note: %s is over %d MiB; crawlers read only the first %s, and -full reads the first %d MiB",
			d.name, maxInput>>20, kib(crawlerLimit), maxInput>>20)
		return
	case full:
		e.errorf("note: %s is %s; crawlers read only the first %s, but -full reads it all",
			d.name, d.size(), kib(crawlerLimit))
		return
	}
	all := "it all"
	if d.over {
		all = fmt.Sprintf("the first %d MiB", maxInput>>20)
	}
	e.errorf("note: %s is %s; like crawlers, only the first %s is read (-full reads %s)",
		d.name, d.size(), kib(crawlerLimit), all)
}

// footprint is about the bytes d holds: read, and decoded twice.
func (d *document) footprint() int {
	return len(d.raw) + len(d.body.Text) + len(d.whole.Text)
}

// size formats the size of the text read, over the limit crawlers read:
// of a file in another charset than UTF-8, whose bytes as served the
// limit counts (a UTF-16 file's text is about half of them), that it is
// over the limit in it, and its size as UTF-8; over maxInput; or over
// the limit with the rest not decoding.
func (d *document) size() string {
	switch {
	case d.over:
		return fmt.Sprintf("over %d MiB", maxInput>>20)
	case d.partial:
		return fmt.Sprintf("over %s (the rest %s)", kib(crawlerLimit), d.lostRest())
	}
	if cs := d.whole.Charset; cs != "utf-8" && cs != "" {
		return fmt.Sprintf("over %s as %s (%s as UTF-8)", kib(crawlerLimit), strings.ToUpper(cs), kib(len(d.whole.Text)))
	}
	return kib(len(d.whole.Text))
}

// lostRest says why the rest of a partial document was not read.
func (d *document) lostRest() string {
	if d.cut != nil {
		return "did not arrive"
	}
	return "does not decode"
}

// kib formats a size in KiB.
func kib(n int) string {
	return fmt.Sprintf("%d KiB", (n+1023)/1024)
}

// client returns a Client in mode m, matching agent, that reads the
// document as the robots.txt of every site (see served): whole when full
// is set, else as crawlers do (also under full when only that part
// decodes: read whole, the file would be unreachable). Close it.
func (d *document) client(agent string, m robotstxt.Mode, full bool) *robotstxt.Client {
	limit := int64(crawlerLimit)
	if full && !d.partial {
		limit = maxInput
	}
	return robotstxt.NewClient(robotstxt.WithProductTokens(agent), robotstxt.WithMode(m),
		robotstxt.WithBodyLimit(limit), robotstxt.WithHTTPClient(&http.Client{Transport: served{d, "/robots.txt"}}))
}

// served is an http.RoundTripper that answers, for every site, the
// document's bytes, with its header, for the path, and 404 for any other:
// a Client reads a file as it reads one it fetched, and never leaves the
// process.
type served struct {
	d    *document
	path string
}

func (s served) RoundTrip(req *http.Request) (*http.Response, error) {
	resp := &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{}, Body: http.NoBody, Request: req}
	if req.URL.Path == s.path {
		resp.StatusCode, resp.Body, resp.ContentLength = http.StatusOK, io.NopCloser(bytes.NewReader(s.d.raw)), int64(len(s.d.raw))
		if s.d.header != nil {
			resp.Header = s.d.header.Clone()
		}
	}
	resp.Status = fmt.Sprint(resp.StatusCode, " ", http.StatusText(resp.StatusCode))
	return resp, nil
}
