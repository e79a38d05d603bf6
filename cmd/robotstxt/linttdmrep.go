package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// tdmrepPath is where a site's tdmrep.json is, as TDMRep puts it.
const tdmrepPath = "/.well-known/tdmrep.json"

// tdmrepLimit is how much of a tdmrep.json the Client reads (256 KiB, see
// robotstxt.WithTDMRep, and a byte to tell a file over it): read again
// to no further, a coded body is read no further than the bytes the
// Client's read kept of it (a gzipped page served for it, which it reads
// as no file, was unreadable to lint read to maxInput).
const tdmrepLimit = 256<<10 + 1

// lintTDMRep lints the tdmrep.json name, a file or the tdmrep.json of a
// URL's site, as a crawler given WithTDMRep reads it: from the receipt of
// the URL, or of a page of the file's site. Its one finding says that such
// a crawler cannot read the file, and why, and so takes every page of the
// site as reserved. Its exit code is lintRobots': of a URL's site whose
// robots.txt is unreachable, where crawlers ask for no page, the file is
// not linted and it is exitDeferred.
func lintTDMRep(name string, cfg fetchConfig, _ robotstxt.Mode, e env) (report, int) { // the mode is in cfg.opts
	shown := withheld(name) // what the report names
	r := report{File: shown, summary: "read as TDMRep"}
	url, tr := name, http.RoundTripper(nil)
	var file *fileTap
	if isURL(name) {
		t := newTransport()
		defer t.CloseIdleConnections()
		file = &fileTap{next: t}
		tr = file
		if _, err := parseTargets([]string{name}, false); err != nil {
			e.fail(err)
			return report{File: shown, Error: errText(err)}, exitUsage
		}
	} else {
		d, err := readDocument(context.Background(), name, cfg, e)
		if err != nil {
			e.fail(err)
			return report{File: shown, Error: errText(err)}, exitUsage
		}
		r.Bytes, r.Charset, url, tr = len(d.raw), d.body.Charset, pathSite+"/", served{d, tdmrepPath}
		if noFile(d.body.Text) {
			return nothingToLint(shown, "empty, or a page", e)
		}
	}
	c, rt := robotstxt.NewClientTransport(tr, append(slices.Clip(cfg.opts), robotstxt.WithTDMRep(),
		robotstxt.WithUserAgent(cfg.userAgent), robotstxt.WithFetchTimeout(cfg.timeout)))
	defer c.Close()
	if isURL(name) {
		d, err := c.Check(context.Background(), name)
		if ch := (checked{d: d, err: err}); ch.verdict() == verdictDeferred {
			e.errorf("%s: nothing to lint: %s", shown, ch.detail(false))
			return report{File: shown, Error: "nothing to lint: " + ch.detail(false)}, exitDeferred
		}
		file.start() // the robots.txt is read: what follows is the file's
	}
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		e.fail(err)
		return report{File: shown, Error: errText(err)}, exitUsage
	}
	var lt linter
	receipt := rt.Receipt(&http.Response{Request: req, Header: http.Header{}}, nil)
	for _, s := range receipt.Signals {
		if s.Source == "tdmrep.json" && s.Where == "unreachable" {
			why := strings.ReplaceAll(s.Value, "robotstxt: ", "")
			if served := pathSite + tdmrepPath + ": "; file == nil && strings.Contains(why, served) {
				// A local file: what the Client found in it, not the
				// fetch of the URL the command serves it at.
				why = why[strings.LastIndex(why, served)+len(served):]
			}
			who := "crawlers that read TDMRep cannot read it (%[2]s), so they take"
			if strings.Contains(why, "robots.txt") {
				// Its robots.txt group decides: the crawler's own.
				who = "%[1]s, reading TDMRep, cannot read it (%[2]s), so takes"
			}
			lt.addText(0, "", codeTDMRep, who+" every page of the site as reserved (train-ai=n)", receipt.Agent, why)
		}
	}
	if file != nil {
		status, header, raw := file.last()
		if lt.findings == nil && status/100 != 2 {
			// A 404, or a 410: the site has no tdmrep.json, as for a
			// robots.txt that answers so.
			return nothingToLint(shown, fmt.Sprintf("status %d", status), e)
		}
		r.Bytes = len(raw)
		if b, err := parser.Read(bytes.NewReader(raw), header, tdmrepLimit); err == nil {
			r.Charset = b.Charset // as the Client read it, with the same header
			if lt.findings == nil && noFile(b.Text) {
				return nothingToLint(shown, fmt.Sprintf("status %d, empty, or a page", status), e)
			}
		}
	}
	r.Diagnostics = lt.findings
	return r, exitOK
}

// nothingToLint reports shown, a tdmrep.json that crawlers read as none,
// for the reason why.
func nothingToLint(shown, why string, e env) (report, int) {
	detail := why + "; no tdmrep.json: no reservation"
	e.errorf("%s: nothing to lint: %s", shown, detail)
	return report{File: shown, Error: "nothing to lint: " + detail}, exitUsage
}

// noFile reports whether text, a tdmrep.json as crawlers read it, is
// what the Transport reads as no file (see robotstxt.Transport.Receipt):
// empty, or markup, such as the page a site serves for every path it
// lacks, after a byte-order mark and blanks.
func noFile(text []byte) bool {
	text = bytes.TrimLeft(bytes.TrimPrefix(text, []byte("\xEF\xBB\xBF")), " \t\r\n")
	return len(text) == 0 || text[0] == '<'
}

// fileTap is the transport of lint's Client for a tdmrep.json URL: once
// started, it keeps the status of the last response of the file's
// requests, its site's tdmrep.json and where its redirects led (0 when
// none came), and counts the bytes read of its body; the robots.txt
// fetches that check each hop are not the file's. It keeps the bytes read
// of that body and its header too, to tell the encoding the Client read
// it in.
type fileTap struct {
	next    http.RoundTripper
	mu      sync.Mutex
	started bool
	want    string // the key of the file's next request (see tapKey); "" for the first
	status  int
	header  http.Header
	raw     []byte
}

// start makes t keep the file's requests that follow: those before were
// the robots.txt's and its redirects'.
func (t *fileTap) start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.started, t.want, t.status, t.header, t.raw = true, "", 0, nil, nil
}

func (t *fileTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	t.mu.Lock()
	defer t.mu.Unlock()
	key := tapKey(req.URL.String())
	if !t.started || t.want == "" && req.URL.Path != tdmrepPath || t.want != "" && key != t.want {
		return resp, err
	}
	t.want, t.status, t.header, t.raw = "\x00", 0, nil, nil // none follows but where a redirect leads
	if err != nil {
		return resp, err
	}
	t.status, t.header = resp.StatusCode, resp.Header
	if loc, lerr := resp.Location(); lerr == nil && resp.StatusCode/100 == 3 {
		loc.Fragment, loc.RawFragment = "", "" // not sent
		t.want = tapKey(loc.String())
	}
	resp.Body = counted{resp.Body, t}
	return resp, nil
}

// last returns the status and header of the last response t kept and the
// bytes read of its body.
func (t *fileTap) last() (status int, header http.Header, raw []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status, t.header, t.raw
}

// counted is a response body whose bytes read fileTap keeps: no more than
// the Client reads of a tdmrep.json, which it stops reading at its limit.
type counted struct {
	io.ReadCloser
	t *fileTap
}

func (c counted) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.t.mu.Lock()
	c.t.raw = append(c.t.raw, p[:n]...)
	c.t.mu.Unlock()
	return n, err
}
