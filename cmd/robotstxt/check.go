package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/robotsgate/robotstxt"
	"golang.org/x/net/http/httpguts"
)

// runCheck is "robotstxt check": it checks live URLs through the caching
// Client, as a crawler would, and prints one line per URL:
//
//	DISALLOW  https://example.com/private/x  (status 200; line 7: Disallow: /private/)
//	DEFER     https://down.example/          (no response; robots.txt unreachable: connection refused; retry after …)
//
// Under an allowed URL, whose page it fetches through a Transport as a
// crawler would, it prints the usage lines that test prints, and those of
// every other signal of the page's receipt, or why the page could not be
// read. With -json it prints one checkResult per URL instead.
func runCheck(cmd *command, args []string, e env) int {
	fs := newFlags(cmd)
	agent := fs.String("agent", "", "crawler product token matched against user-agent lines, or a User-Agent to take it from (default: the token of -ua)")
	ua := fs.String("ua", defaultUserAgent, "User-Agent header sent with robots.txt requests")
	timeout := timeoutFlag(fs, "one robots.txt fetch, and one page's, each with its redirects and any wait for a Retry-After")
	rfc := fs.Bool("rfc9309", false, "match as RFC 9309 strictly reads robots.txt instead of as Google's parser")
	legacy := fs.Bool("legacy", false, "treat 401 and 403 as disallow all, as older crawlers do")
	tdmrep := fs.Bool("tdmrep", false, "also read each site's /.well-known/tdmrep.json (TDMRep), as a crawler given WithTDMRep does")
	expect := fs.String("expect", "", "allow or disallow: exit 0 only when every URL gets this decision")
	verbose := fs.Bool("v", false, "also print the robots.txt requests and redirects, outcome, expiry, crawl-delay and sitemaps")
	asJSON := fs.Bool("json", false, "print one JSON object per URL")
	urls, code, done := parseArgs(fs, args, e)
	if done {
		return code
	}
	switch {
	case len(urls) == 0:
		e.errorf("check: no URL given")
		return exitUsage
	case *verbose && *asJSON:
		e.errorf("check: -v prints text, and -json one JSON object per URL: give one of them")
		return exitUsage
	}
	x, err := parseExpectation(*expect)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	targets, err := parseTargets(urls, false)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	if !httpguts.ValidHeaderFieldValue(*ua) {
		e.fail(fmt.Errorf("-ua %q: not a header value HTTP can send", *ua))
		return exitUsage
	}
	opts := []robotstxt.Option{robotstxt.WithMode(modeOf(*rfc))}
	// The Client matches the token of -agent, or else the one it derives
	// from its User-Agent header, as uaToken does.
	var tok string
	if *agent != "" {
		tok, err = agentToken(*agent, e)
		opts = append(opts, robotstxt.WithProductTokens(tok))
	} else {
		tok, err = uaToken(*ua)
	}
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	if *legacy {
		opts = append(opts, robotstxt.WithStatusPolicy(robotstxt.LegacyStatusPolicy))
	}
	if *tdmrep {
		opts = append(opts, robotstxt.WithTDMRep())
	}
	f := newFetcher(fetchConfig{userAgent: *ua, timeout: *timeout, opts: opts})
	defer f.close()
	// No crawl-delay spaces the pages: the command fetches only the URLs
	// it is given. A Retry-After still holds a site, as for a crawler: a
	// page waits for its turn within -timeout, or is not read.
	pages := newTransport()
	defer pages.CloseIdleConnections()
	rt := robotstxt.NewTransport(f.c, pages, robotstxt.WithIntervalBounds(0, 0))
	ck := checker{f: f, rt: rt, pages: &http.Client{Transport: rt, Timeout: *timeout}, e: e, x: x, agent: tok,
		mode: modeOf(*rfc), width: columnWidth(urls), verbose: *verbose, asJSON: *asJSON, shown: make(map[string]bool)}
	code = exitOK
	for _, t := range targets {
		c, err := ck.check(t)
		if err != nil {
			e.fail(err)
			return worst(code, exitUsage)
		}
		code = worst(code, c)
	}
	return code
}

// A checker checks URLs one by one through a fetcher and prints them.
type checker struct {
	f       *fetcher
	rt      *robotstxt.Transport
	pages   *http.Client // through rt
	e       env
	x       expectation
	agent   string // the Client's product token
	mode    robotstxt.Mode
	width   int
	verbose bool
	asJSON  bool
	shown   map[string]bool // the authorities -v has described
}

// checkJSONHelp is what check's -json adds to urlJSONHelp.
const checkJSONHelp = `check adds "signals", the signals of the page's receipt, as
Transport.Receipt lists them: each with its "source" (robots.txt,
content-signal, content-usage-header, content-signal-header,
x-robots-tag, robots-meta, tdmrep.json, tdm-header or tdm-meta),
"label", "pref" (y or n; unknown for a TDMRep 0), "where" it stands
and its "value"; [] for a URL that is not allowed; "dropped", how many
more its bounds left out; "tdm_policy", the TDMRep policy URL of a
page whose TDM rights are reserved; "licenses", the RSL licences of
its site's robots.txt. Its "usage" combines them all, n from any
source winning. "page_error" says why the page of an allowed URL could
not be read (no response, an error status, a Retry-After past
-timeout, a body cut short): then "signals" holds those read
(robots.txt's and tdmrep.json's; the page header's when only the body
was cut; an error page's header and META tags, which are the error
page's, not the page's), and "usage" only their n, which no unread
signal could change. "redirected_to" names the page the URL redirected
to, whose receipt the signals are: its site's robots.txt, not the
URL's. A URL that redirects where robots.txt disallows is disallowed,
and one that redirects where robots.txt is unreachable deferred, as a
crawler gets no page: "redirected_to" names where, and "rule",
"status" and "detail" are of that robots.txt.`

// A checkResult is what check prints with -json for one URL: test's
// urlResult, whose usage merges every signal of the page's receipt, those
// signals, and why the page could not be read, if it could not.
type checkResult struct {
	urlResult
	Signals []robotstxt.Signal `json:"signals"`
	// Dropped, TDMPolicy and Licenses are the receipt's (see
	// robotstxt.Receipt).
	Dropped   int      `json:"dropped,omitempty"`
	TDMPolicy string   `json:"tdm_policy,omitempty"`
	Licenses  []string `json:"licenses,omitempty"`
	PageError string   `json:"page_error,omitempty"`
	// RedirectedTo is the page the URL redirected to, whose receipt
	// the signals are.
	RedirectedTo string `json:"redirected_to,omitempty"`
}

// maxPage bounds how much of a page check reads for its META tags, as
// Transport.Receipt reads at most its first mebibyte.
const maxPage = 1 << 20

// check checks the URL of t and prints its line, the usage lines under
// it, and with -v what is known of its site, once; or with -json its
// checkResult. It returns its exit code, or the error of writing the
// output or of reading the robots.txt the Client read.
func (ck *checker) check(t target) (int, error) {
	d, doc, err := ck.f.read(context.Background(), t.sent())
	if doc == nil && d.Outcome != 0 {
		return exitUsage, err
	}
	c := ck.checked(t, d, doc, err)
	rc := robotstxt.Receipt{Signals: []robotstxt.Signal{}}
	var (
		redirected bool   // the receipt is of where the page led
		unread     string // why the page could not be read
	)
	if c.verdict() == verdictAllowed {
		var refused error
		if rc, redirected, unread, refused = ck.receipt(t.url); refused != nil {
			if c, err = ck.refusal(t, refused); err != nil {
				return exitUsage, err
			}
		}
	}
	usage := rc.Usage.Pref
	if unread != "" {
		usage = certain(usage)
	}
	res := checkResult{urlResult: c.result(ck.agent, usage, true), Signals: rc.Signals, Dropped: rc.Dropped,
		TDMPolicy: rc.TDMPolicy, Licenses: rc.Licenses, PageError: unread, RedirectedTo: c.led}
	if redirected {
		res.RedirectedTo = rc.URL
	}
	code, note := ck.x.judge(res.Verdict)
	res.Detail += note
	if ck.asJSON {
		return code, writeJSON(ck.e.stdout, res)
	}
	w := ck.e.stdout
	printDecision(w, res.Verdict.word(), ck.width, t.shown, res.Detail)
	if res.Verdict == verdictAllowed {
		if c.p != nil && !redirected {
			printPrefs(w, ck.width, prefItems(c.p, ck.agent, t.sent(), true, c.d.Usage))
		}
		switch {
		case unread != "":
			printDecision(w, "", ck.width, "page", "could not be read: "+unread)
		case redirected:
			// The usage lines of the URL's robots.txt would not be the
			// receipt's: every signal is listed.
			printDecision(w, "", ck.width, "page", "redirected to "+rc.URL)
		}
		printSignals(w, ck.width, rc, redirected, unread == "")
		if rc.Dropped > 0 {
			printDecision(w, "", ck.width, "signals", fmt.Sprintf("%d more left out of the receipt past its bounds", rc.Dropped))
		}
		if rc.TDMPolicy != "" {
			printDecision(w, "", ck.width, "tdm-policy", rc.TDMPolicy)
		}
		for _, l := range rc.Licenses {
			printDecision(w, "", ck.width, "license", l)
		}
	}
	if ck.verbose && !ck.shown[d.Authority] {
		ck.shown[d.Authority] = true
		ck.describe(d, doc)
	}
	return code, nil
}

// checked returns what robots.txt says of t: d, the Client's decision,
// and err, its error, with doc, the robots.txt that d rests on, parsed
// when it has rules.
func (ck *checker) checked(t target, d robotstxt.Decision, doc *document, err error) checked {
	c := checked{t: t, d: d, err: err}
	if doc != nil && doc.readable() {
		c.p = parse(doc.body.Text, ck.mode)
	}
	return c
}

// refusal returns what robots.txt says of t when the Transport refused
// the request for its page, which the Client allowed, with a
// DisallowedError or a DeferredError: what the robots.txt of where the
// page redirected (or, had its robots.txt changed since, of the page
// itself) says, with that robots.txt, or the error of reading it.
func (ck *checker) refusal(t target, refused error) (checked, error) {
	var (
		ue  *url.Error
		dis *robotstxt.DisallowedError
		def *robotstxt.DeferredError
	)
	errors.As(refused, &ue) // names the URL not sent: where a redirect led
	if errors.As(refused, &dis) {
		_, doc, err := ck.f.read(context.Background(), ownRobots(dis.Decision.Authority))
		if doc == nil {
			return checked{}, err
		}
		return ck.led(ck.checked(t, dis.Decision, doc, nil), dis.URL), nil
	}
	errors.As(refused, &def)
	d, doc, err := ck.f.read(context.Background(), ownRobots(def.Authority))
	if doc == nil {
		return checked{}, err
	}
	to := t.sent()
	if ue != nil {
		to = withheld(ue.URL) // net/http's, with the user name, the password masked
	}
	return ck.led(ck.checked(t, d, doc, def), to), nil
}

// led returns c, of t, as of where t's URL led when that is another URL.
func (ck *checker) led(c checked, to string) checked {
	if to != c.t.sent() {
		c.led = to
	}
	return c
}

// receipt fetches the page at URL page through the Transport, as a crawler
// would, and returns its receipt: what robots.txt, the page's header and
// META tags and, with -tdmrep, the site's tdmrep.json say of its use.
// redirected reports that the page redirected: the receipt is of the page
// where it led. unread says why the page could not be read, "" when it
// was: then the receipt is of robots.txt and tdmrep.json alone, or, when
// the body was cut, of the header and what came of the body. refused is
// the Transport's refusal of the page, or of where it redirected, as
// disallowed or deferred: then there is no receipt.
func (ck *checker) receipt(page string) (_ robotstxt.Receipt, redirected bool, unread string, refused error) {
	ctx, cancel := context.WithTimeout(context.Background(), ck.pages.Timeout+time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, page, nil)
	if err != nil {
		return robotstxt.Receipt{Signals: []robotstxt.Signal{}}, false, errText(err), nil
	}
	resp, err := ck.pages.Do(req)
	var (
		dis *robotstxt.DisallowedError
		def *robotstxt.DeferredError
	)
	if errors.As(err, &dis) || errors.As(err, &def) {
		return robotstxt.Receipt{Signals: []robotstxt.Signal{}}, false, "", err
	}
	if err != nil {
		return ck.rt.Receipt(&http.Response{Request: req, Header: http.Header{}}, nil), false, fetchError(err), nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	switch {
	case resp.StatusCode/100 != 2:
		// An error page is not the page, which went unseen: the error
		// page's signals are listed, and only their n counts.
		unread = "it answered " + statusText(resp.StatusCode)
	case err != nil:
		unread = "its body: " + failure(err, errText(err))
	}
	return ck.rt.Receipt(resp, body), resp.Request != nil && resp.Request.URL.String() != req.URL.String(), unread, nil
}

// fetchError says why a page's request got no response: a Retry-After
// that holds its site past -timeout, a failure of the network or of time
// in a few words, or else the error.
func fetchError(err error) string {
	var (
		ue *url.Error
		pe *robotstxt.PacedError
	)
	if errors.As(err, &ue) {
		err = ue.Err // the URL is the line's own
	}
	if errors.As(err, &pe) {
		// With no crawl-delay, only a hold makes a turn wait.
		return "a Retry-After holds its site until " + pe.RetryAt.UTC().Format(time.RFC3339) + ", past -timeout"
	}
	return failure(err, errText(err))
}

// certain returns pref as far as signals not read cannot change it: a
// label's n, which wins whatever else says, and else unknown.
func certain(pref func(label string) robotstxt.Pref) func(label string) robotstxt.Pref {
	return func(label string) robotstxt.Pref {
		if p := pref(label); p == robotstxt.PrefNo {
			return p
		}
		return robotstxt.PrefUnknown
	}
}

// printSignals writes, under an allowed URL's usage lines, the signals of
// rc that robots.txt does not hold (those of the page and of tdmrep.json),
// or with all every signal, one a line, and then, when it wrote any or
// the page was not read, what all of rc's signals say together; of a page
// not read, only what its signals could not change (see certain):
//
//	tdm-header train-ai=n  (tdm-reservation: 1)
//	merged train-ai=n, search=y  (every signal: n from any source wins)
func printSignals(w io.Writer, width int, rc robotstxt.Receipt, all, read bool) {
	var others int
	for _, s := range rc.Signals {
		if !all && (s.Source == "robots.txt" || s.Source == "content-signal") {
			continue
		}
		others++
		where := s.Where
		if s.Value != "" {
			where += ": " + s.Value
		}
		printDecision(w, "", width, s.Source+" "+s.Label+"="+s.Pref.String(), where)
	}
	switch {
	case !read:
		printDecision(w, "", width, "merged "+usageText(certain(rc.Usage.Pref)), "the page not read: only an n is certain")
	case others > 0 || all:
		printDecision(w, "", width, "merged "+usageText(rc.Usage.Pref), "every signal: n from any source wins")
	}
}

// indent starts the lines printed under a URL's line.
const indent = "          "

// describe prints, under a URL's line, the requests the check of the
// robots.txt doc sent, and what the Client holds for its site, as d, the
// decision for the URL, describes it; what the server sent made
// printable. It never fetches.
func (ck *checker) describe(d robotstxt.Decision, doc *document) {
	w := ck.e.stdout
	if doc == nil {
		return // no decision was made: the Client holds nothing
	}
	for _, r := range doc.hops {
		fmt.Fprintf(w, "%s%-10s %s → %s\n", indent, r.label, printable(r.url), printable(r.result))
	}
	fmt.Fprintf(w, "%sauthority %s, outcome %s, expires %s\n",
		indent, printable(d.Authority), outcomeName(d.Outcome), d.Expires.UTC().Format(time.RFC3339))
	// Why a robots.txt is unreachable, the URL's line and the last
	// request already say.
	if d.Err != nil && d.Outcome != robotstxt.OutcomeUnreachable {
		fmt.Fprintf(w, "%sbecause %s\n", indent, printable(errText(d.Err)))
	}
	if d.CrawlDelay > 0 {
		fmt.Fprintf(w, "%scrawl-delay %s\n", indent, d.CrawlDelay)
	}
	if r := d.Robots(); r != nil {
		for _, sm := range r.Sitemaps() {
			fmt.Fprintf(w, "%ssitemap %s\n", indent, printable(sm))
		}
	}
}

// outcomeNames names the outcomes as -v prints them, by Outcome: "" for
// none the library defines.
var outcomeNames = [...]string{
	robotstxt.OutcomeRules:       "rules",
	robotstxt.OutcomeAllowAll:    "allow-all",
	robotstxt.OutcomeDisallowAll: "disallow-all",
	robotstxt.OutcomeUnreachable: "unreachable",
}

// outcomeName returns the name of o, such as "allow-all", or "unknown".
func outcomeName(o robotstxt.Outcome) string {
	if int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return "unknown"
}
