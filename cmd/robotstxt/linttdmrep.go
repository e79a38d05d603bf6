package main

import (
	"context"
	"net/http"
	"strings"

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
	if isURL(name) {
		t := newTransport()
		defer t.CloseIdleConnections()
		tr = t
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
	r.Diagnostics = lt.findings
	return r, exitOK
}
