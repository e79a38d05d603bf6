package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/robotsgate/robotstxt"
)

// runCheck is "robotstxt check": it checks live URLs through the caching
// Client, as a crawler would, and prints one line per URL:
//
//	DISALLOW  https://example.com/private/x  (status 200; line 7: Disallow: /private/)
//	DEFER     https://down.example/          (no response; robots.txt unreachable: connection refused; retry after …)
//
// and under an allowed URL the usage lines that test prints. With -json
// it prints one urlResult per URL instead.
func runCheck(cmd *command, args []string, e env) int {
	fs := newFlags(cmd)
	agent := fs.String("agent", "", "crawler product token matched against user-agent lines, or a User-Agent to take it from (default: the token of -ua)")
	ua := fs.String("ua", defaultUserAgent, "User-Agent header sent with robots.txt requests")
	timeout := timeoutFlag(fs, "one robots.txt fetch, redirects included")
	rfc := fs.Bool("rfc9309", false, "match as RFC 9309 strictly reads robots.txt instead of as Google's parser")
	legacy := fs.Bool("legacy", false, "treat 401 and 403 as disallow all, as older crawlers do")
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
	rec, closeIdle := newRecorder()
	defer closeIdle()
	opts := append(fetchConfig{*ua, *timeout}.options(),
		robotstxt.WithHTTPClient(&http.Client{Transport: rec}),
		robotstxt.WithMode(modeOf(*rfc)))
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
	c := robotstxt.NewClient(opts...)
	defer c.Close()

	ck := checker{c: c, rec: rec, e: e, x: x, agent: tok, mode: modeOf(*rfc),
		width: columnWidth(urls), timeout: *timeout, verbose: *verbose, asJSON: *asJSON, sites: make(map[string]*site)}
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

// A checker checks URLs one by one through a Client and prints them.
type checker struct {
	c       *robotstxt.Client
	rec     *recorder
	e       env
	x       expectation
	agent   string // the Client's product token
	mode    robotstxt.Mode
	width   int
	timeout time.Duration
	verbose bool
	asJSON  bool
	sites   map[string]*site // by authority
}

// A site is what check learnt of one authority's robots.txt.
type site struct {
	hops  []hop
	doc   *parsed // the body the Client parsed; empty when it has none
	shown bool
}

// check checks the URL of t and prints its line, the usage lines under
// it, and with -v what is known of its site, once; or with -json its
// urlResult. It returns its exit code, or the error of writing the
// output.
func (ck *checker) check(t target) (int, error) {
	u := t.arg
	// The Client bounds the fetch itself and reports a timeout as
	// unreachable; the context only guards against a fetch that never
	// returns.
	ctx, cancel := context.WithTimeout(context.Background(), ck.timeout+time.Second)
	defer cancel()
	mark := ck.rec.mark()
	d, err := ck.c.Check(ctx, u)
	if errors.Is(err, robotstxt.ErrBadURL) {
		ck.e.fail(err)
		return exitUsage, nil
	}
	s := ck.sites[d.Authority]
	if s == nil {
		var text []byte // the body the Client parsed, if any
		if d.Outcome == robotstxt.OutcomeRules {
			if h, ok := ck.rec.parsed(mark, d); ok {
				text = h.text()
			}
		}
		s = &site{doc: parse(text, ck.mode)}
		ck.sites[d.Authority] = s
	}
	if hops := ck.rec.since(mark); len(hops) > 0 {
		s.hops = hops
	}
	res := urlResult{URL: u, Agent: ck.agent, Verdict: verdictOf(d.Allowed), Rule: newRuleResult(d.Rule, s.doc.lines),
		Usage: usageJSON(d.Usage), Status: d.Status, Detail: checkDetail(d, err, s.doc.lines)}
	if err != nil || d.Deferred {
		res.Verdict = verdictDeferred
	}
	code, note := ck.x.judge(res.Verdict)
	if ck.asJSON {
		return code, writeJSON(ck.e.stdout, res)
	}
	printDecision(ck.e.stdout, res.Verdict.word(), ck.width, u, res.Detail+note)
	if res.Verdict == verdictAllowed && d.Outcome == robotstxt.OutcomeRules {
		printPrefs(ck.e.stdout, ck.width, prefItems(s.doc, ck.agent, t.checkURL(), true))
	}
	if ck.verbose && !s.shown {
		s.shown = true
		ck.describe(d, s)
	}
	return code, nil
}

// checkDetail explains a decision: the status, then the deciding rule or
// why there is none, then whether the answer is stale.
func checkDetail(d robotstxt.Decision, err error, l listing) string {
	status := "no response"
	if d.Status != 0 {
		status = fmt.Sprintf("status %d", d.Status)
	}
	var why string
	var de *robotstxt.DeferredError
	switch {
	case errors.As(err, &de):
		why = "robots.txt unreachable: " + cause(de.Status, de.Err) + "; retry after " + de.RetryAt.UTC().Format(time.RFC3339)
	case err != nil:
		why = "deferred: " + errText(err)
	case d.Outcome == robotstxt.OutcomeAllowAll:
		why = "no robots.txt: allow all"
	case d.Outcome == robotstxt.OutcomeDisallowAll:
		why = "robots.txt forbidden: disallow all"
	default:
		why = ruleText(d.Rule, l)
	}
	s := status + "; " + why
	if d.Stale {
		s += "; stale copy"
	}
	return s
}

// indent starts the lines printed under a URL's line.
const indent = "          "

// describe prints, under a URL's line, the robots.txt requests of its
// site and what the Client holds for it, as d, the decision for the URL,
// describes it, with the crawl-delay and sitemaps of s's body; what the
// server sent made printable. It never fetches.
func (ck *checker) describe(d robotstxt.Decision, s *site) {
	w := ck.e.stdout
	led := make(map[string]bool) // the URLs that redirects led to
	for _, h := range s.hops {
		// A request no redirect led to starts a fetch: the site's own
		// robots.txt, or another site's that the Client fetched to
		// check a redirect to that site.
		label := "robots.txt"
		if led[h.url] {
			label = "redirect  "
		}
		if next := h.location(); next != "" {
			led[next] = true
		}
		fmt.Fprintf(w, "%s%s %s → %s\n", indent, label, printable(h.url), printable(hopResult(h)))
	}
	if d.Outcome == 0 {
		return // no decision was made: the Client holds nothing
	}
	fmt.Fprintf(w, "%sauthority %s, outcome %s, expires %s\n",
		indent, printable(d.Authority), outcomeName(d.Outcome), d.Expires.UTC().Format(time.RFC3339))
	if d.Err != nil && d.Outcome != robotstxt.OutcomeUnreachable {
		fmt.Fprintf(w, "%sbecause %s\n", indent, printable(errText(d.Err)))
	}
	if cd, ok := s.doc.robots.CrawlDelay(ck.agent); ok {
		fmt.Fprintf(w, "%scrawl-delay %s\n", indent, cd)
	}
	for _, sm := range s.doc.robots.Sitemaps() {
		fmt.Fprintf(w, "%ssitemap %s\n", indent, printable(sm))
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

// hopResult is what one request gave: "301 Moved Permanently" or the
// cause of its failure.
func hopResult(h hop) string {
	if h.err != nil {
		return cause(0, h.err)
	}
	return strings.TrimPrefix(cause(h.status, nil), "status ")
}
