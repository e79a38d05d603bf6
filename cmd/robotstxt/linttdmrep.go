package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/robotsgate/robotstxt"
)

// lintTDMRep lints the tdmrep.json name, a file or the tdmrep.json of a
// URL's site, as a crawler given WithTDMRep reads it: from the receipt of
// the URL, or of a page of the file's site. Its one finding says that such
// a crawler cannot read the file, and why, and so takes every page of the
// site as reserved. Its exit code is lintRobots': of a URL's site whose
// robots.txt is unreachable, where crawlers ask for no page, the file is
// not linted and it is exitDeferred.
func lintTDMRep(name string, cfg fetchConfig, mode robotstxt.Mode, e env) (report, int) {
	r := report{File: name, summary: "read as TDMRep"}
	url, tr := name, http.RoundTripper(nil)
	var file *fileTap
	if isURL(name) {
		t := newTransport()
		defer t.CloseIdleConnections()
		file = &fileTap{next: t}
		tr = file
		if _, err := parseTargets([]string{name}, false); err != nil {
			e.fail(err)
			return report{File: name, Error: errText(err)}, exitUsage
		}
	} else {
		d, err := readDocument(context.Background(), name, cfg, e)
		if err != nil {
			e.fail(err)
			return report{File: name, Error: errText(err)}, exitUsage
		}
		r.Bytes, url, tr = len(d.raw), pathSite+"/", served{d, "/.well-known/tdmrep.json"}
	}
	c, rt := robotstxt.NewClientTransport(tr, []robotstxt.Option{robotstxt.WithTDMRep(), robotstxt.WithMode(mode),
		robotstxt.WithUserAgent(cfg.userAgent), robotstxt.WithFetchTimeout(cfg.timeout)})
	defer c.Close()
	if isURL(name) {
		d, err := c.Check(context.Background(), name)
		if ch := (checked{d: d, err: err}); ch.verdict() == verdictDeferred {
			e.errorf("%s: nothing to lint: %s", name, ch.detail(false))
			return report{File: name, Error: "nothing to lint: " + ch.detail(false)}, exitDeferred
		}
		file.start() // the robots.txt is read: what follows is the file's
	}
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		e.fail(err)
		return report{File: name, Error: errText(err)}, exitUsage
	}
	var lt linter
	for _, s := range rt.Receipt(&http.Response{Request: req, Header: http.Header{}}, nil).Signals {
		if s.Source == "tdmrep.json" && s.Where == "unreachable" {
			lt.addText(0, "", codeTDMRep, "crawlers that read TDMRep cannot read it (%s), so they take every page of the site as reserved (train-ai=n)",
				strings.ReplaceAll(s.Value, "robotstxt: ", ""))
		}
	}
	if file != nil {
		status, n := file.last()
		if lt.findings == nil && status/100 != 2 {
			// A 404, or a 410: the site has no tdmrep.json, as for a
			// robots.txt that answers so.
			detail := fmt.Sprintf("status %d; no tdmrep.json: no reservation", status)
			e.errorf("%s: nothing to lint: %s", name, detail)
			return report{File: name, Error: "nothing to lint: " + detail}, exitUsage
		}
		r.Bytes = n
	}
	r.Diagnostics = lt.findings
	return r, exitOK
}

// fileTap is the transport of lint's Client for a tdmrep.json URL: once
// started, it keeps the status of the last response to a request for no
// robots.txt, the tdmrep.json's or a redirect's on its way there (0 when
// none came), and counts the bytes read of its body.
type fileTap struct {
	next    http.RoundTripper
	mu      sync.Mutex
	started bool
	status  int
	n       int
}

// start makes t keep the requests that follow, the file's: those before
// were the robots.txt's and its redirects'.
func (t *fileTap) start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.started, t.status, t.n = true, 0, 0
}

func (t *fileTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if req.URL.Path == "/robots.txt" {
		return resp, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		return resp, err
	}
	t.status, t.n = 0, 0
	if err != nil {
		return resp, err
	}
	t.status = resp.StatusCode
	resp.Body = counted{resp.Body, t}
	return resp, nil
}

// last returns the status of the last response t kept and the bytes read
// of its body.
func (t *fileTap) last() (status, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status, t.n
}

// counted is a response body whose bytes read fileTap counts.
type counted struct {
	io.ReadCloser
	t *fileTap
}

func (c counted) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.t.mu.Lock()
	c.t.n += n
	c.t.mu.Unlock()
	return n, err
}
