package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/robotsgate/robotstxt"
)

// runCheck is "robotstxt check": it checks live URLs through the caching
// Client, as a crawler would, and prints one line per URL:
//
//	DISALLOW  https://example.com/private/x  (status 200; line 7: Disallow: /private/)
//	DEFER     https://down.example/          (status 503; robots.txt unreachable, deferred: retry after …)
func runCheck(args []string, e env) int {
	fs := newFlags("check", "[-agent TOKEN] [-ua USER-AGENT] [-timeout D] [-rfc9309] [-legacy] [-v] URL...",
		"Fetch each URL's robots.txt (once per host) and print the decision,\n"+
			"the HTTP status, the deciding rule and line, and stale or deferred answers.")
	agent := fs.String("agent", "", "crawler product token matched against user-agent lines (default: the token of -ua)")
	ua := fs.String("ua", robotstxt.DefaultUserAgent, "User-Agent header sent with robots.txt requests")
	timeout := fs.Duration("timeout", robotstxt.DefaultFetchTimeout, "time limit of one robots.txt fetch, redirects included")
	rfc := fs.Bool("rfc9309", false, "match as RFC 9309 strictly reads robots.txt instead of as Google's parser")
	legacy := fs.Bool("legacy", false, "treat 401 and 403 as disallow all, as older crawlers do")
	verbose := fs.Bool("v", false, "also print the authority, outcome, expiry, crawl-delay and sitemaps")
	if code, done := parseFlags(fs, args, e); done {
		return code
	}
	urls := fs.Args()
	if len(urls) == 0 {
		e.errorf("check: no URL given")
		return exitUsage
	}
	if *timeout <= 0 {
		e.errorf("check: -timeout must be positive")
		return exitUsage
	}
	opts := []robotstxt.Option{
		robotstxt.WithUserAgent(*ua),
		robotstxt.WithFetchTimeout(*timeout),
	}
	if *agent != "" {
		tok, err := agentToken(*agent, e)
		if err != nil {
			e.errorf("check: %v", err)
			return exitUsage
		}
		opts = append(opts, robotstxt.WithProductTokens(tok))
	}
	if *rfc {
		opts = append(opts, robotstxt.WithMode(robotstxt.ModeRFC9309))
	}
	if *legacy {
		opts = append(opts, robotstxt.WithStatusPolicy(robotstxt.LegacyStatusPolicy))
	}
	c := robotstxt.NewClient(opts...)
	defer c.Close()
	if len(c.ProductTokens()) == 0 {
		e.errorf("check: user agent %q has no product token; give -agent", *ua)
		return exitUsage
	}

	width := columnWidth(urls)
	code := exitOK
	shown := make(map[string]bool) // authorities already described by -v
	for _, u := range urls {
		code = worst(code, checkOne(c, u, width, *timeout, e))
		if *verbose {
			printInfo(c, u, shown, e)
		}
	}
	return code
}

// checkOne checks one URL, prints its line and returns its exit code.
func checkOne(c *robotstxt.Client, u string, width int, timeout time.Duration, e env) int {
	// The client bounds the fetch itself and reports a timeout as
	// unreachable; the context only guards against a fetch that never
	// returns.
	ctx, cancel := context.WithTimeout(context.Background(), timeout+time.Second)
	defer cancel()
	d, err := c.Check(ctx, u)
	if errors.Is(err, robotstxt.ErrBadURL) {
		e.errorf("check: %v", err)
		return exitUsage
	}
	word, code := decisionWord(d.Allowed), exitOK
	switch {
	case err != nil || d.Deferred:
		word, code = "DEFER", exitDeferred
	case !d.Allowed:
		code = exitDisallowed
	}
	fmt.Fprintf(e.stdout, "%-8s  %-*s  (%s)\n", word, width, u, checkDetail(d, err))
	return code
}

// checkDetail explains a decision: the status, then the deciding rule or
// why there is none, then whether the answer is stale.
func checkDetail(d robotstxt.Decision, err error) string {
	status := "no response"
	if d.Status != 0 {
		status = fmt.Sprintf("status %d", d.Status)
	}
	var why string
	var de *robotstxt.DeferredError
	switch {
	case errors.As(err, &de):
		why = "robots.txt unreachable, deferred: retry after " + de.RetryAt.UTC().Format(time.RFC3339)
	case err != nil:
		why = "deferred: " + err.Error()
	case d.Outcome == robotstxt.OutcomeAllowAll:
		why = "no robots.txt: allow all"
	case d.Outcome == robotstxt.OutcomeDisallowAll:
		why = "robots.txt forbidden: disallow all"
	default:
		why = ruleText(d.Rule)
	}
	s := status + "; " + why
	if d.Stale {
		s += "; stale copy"
	}
	return s
}

// printInfo prints, indented under a URL's line, what the client holds for
// its authority, once per authority. It never fetches.
func printInfo(c *robotstxt.Client, u string, shown map[string]bool, e env) {
	info, ok := c.Cached(u)
	if !ok || shown[info.Authority] {
		return
	}
	shown[info.Authority] = true
	fmt.Fprintf(e.stdout, "          authority %s, outcome %s, expires %s\n",
		info.Authority, info.Outcome, info.Expires.UTC().Format(time.RFC3339))
	if cd, ok := info.CrawlDelay(); ok {
		fmt.Fprintf(e.stdout, "          crawl-delay %s\n", cd)
	}
	for _, s := range info.Sitemaps() {
		fmt.Fprintf(e.stdout, "          sitemap %s\n", s)
	}
}
