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
)

// crawler crawls one site breadth-first, asking a robotstxt.Client before
// every request and keeping to the site's crawl-delay.
type crawler struct {
	robots    *robotstxt.Client
	http      *http.Client // the same client the robots.txt fetches use
	userAgent string
	maxPages  int       // page requests at most
	out       io.Writer // one line per decision
}

// result is what a crawl did.
type result struct {
	Fetched    []string // request URIs fetched, in order
	Disallowed []string // request URIs robots.txt kept us from
	Deferred   []string // request URIs skipped because robots.txt was unreachable
}

// crawl visits the site from start breadth-first, following links on the
// same host and the sitemaps its robots.txt lists. It fetches only what
// robots.txt allows, each host no faster than its crawl-delay, and at most
// maxPages pages.
func (c *crawler) crawl(ctx context.Context, start string) (result, error) {
	var res result
	base, err := url.Parse(start)
	if err != nil {
		return res, fmt.Errorf("start URL: %w", err)
	}
	q := newQueue()
	q.push(base)
	pace := newPacer()
	hosts := make(map[string]bool) // authorities whose robots.txt was shown
	for len(res.Fetched) < c.maxPages {
		u, ok := q.pop()
		if !ok {
			break
		}
		d, err := c.robots.Check(ctx, u.String())
		uri := u.RequestURI()
		switch {
		case errors.Is(err, robotstxt.ErrDeferred):
			// A real crawler would requeue the URL for after RetryAt.
			fmt.Fprintf(c.out, "%-8s  %-24s  (%v)\n", "DEFER", uri, err)
			res.Deferred = append(res.Deferred, uri)
			continue
		case err != nil:
			return res, fmt.Errorf("check %s: %w", u, err)
		}
		// Check has just cached the host's robots.txt: Cached reads it
		// without fetching.
		info, _ := c.robots.Cached(u.String())
		if info != nil && !hosts[info.Authority] {
			hosts[info.Authority] = true
			c.showRobots(info, base.Host, q)
		}
		fmt.Fprintf(c.out, "%-8s  %-24s  (%s)\n", decisionWord(d.Allowed), uri, ruleText(d))
		if !d.Allowed {
			res.Disallowed = append(res.Disallowed, uri)
			continue
		}
		var delay time.Duration
		if info != nil {
			delay, _ = info.CrawlDelay()
		}
		if err := pace.wait(ctx, d.Authority, delay); err != nil {
			return res, err
		}
		page, err := c.get(ctx, u)
		res.Fetched = append(res.Fetched, uri)
		if err != nil {
			fmt.Fprintf(c.out, "          fetch failed: %v\n", err)
			continue
		}
		for _, l := range links(u, page) {
			q.push(l)
		}
	}
	return res, nil
}

// showRobots prints what a host's robots.txt says beyond rules, and queues
// its sitemaps that are on host.
func (c *crawler) showRobots(info *robotstxt.Info, host string, q *queue) {
	delay, ok := info.CrawlDelay()
	cd := "none"
	if ok {
		cd = delay.String()
	}
	fmt.Fprintf(c.out, "robots.txt %s: status %d, crawl-delay %s, sitemaps %v\n",
		info.FinalURL, info.Status, cd, info.Sitemaps())
	for _, s := range info.Sitemaps() {
		if u, err := url.Parse(s); err == nil && u.Host == host {
			q.push(u)
		}
	}
}

// ruleText explains a decision: the deciding rule and its line, or why
// there is none.
func ruleText(d robotstxt.Decision) string {
	switch {
	case d.Outcome == robotstxt.OutcomeAllowAll:
		return "no robots.txt: allow all"
	case !d.Matched():
		return "no rule matched"
	}
	kind := "Disallow"
	if d.Rule.Allow {
		kind = "Allow"
	}
	return fmt.Sprintf("line %d: %s: %s", d.Rule.Line, kind, d.Rule.Pattern)
}

// decisionWord is ALLOW or DISALLOW.
func decisionWord(allowed bool) string {
	if allowed {
		return "ALLOW"
	}
	return "DISALLOW"
}
