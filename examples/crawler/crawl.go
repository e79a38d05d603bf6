package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/robotsgate/robotstxt"
)

// crawler crawls sites with a pool of workers that share one frontier.
// Every request goes through a robotstxt.Transport made WithNoWait, which
// checks it against robots.txt and keeps each site's crawl-delay: a
// request whose site's turn is not free comes back at once with a
// *robotstxt.PacedError, and the URL it names goes back to the frontier
// for the PacedError's RetryAt while the worker takes another; so does a
// page answered 429 or 503, for when the site's hold has passed. Only a
// redirect within the site holds its worker, until the site's next turn.
type crawler struct {
	robots    *robotstxt.Client
	rt        *robotstxt.Transport
	http      *http.Client // with rt as its Transport
	userAgent string
	workers   int
	maxPages  int                     // page requests at most
	name      func(u *url.URL) string // how output names a URL
	out       io.Writer               // one line per decision

	mu      sync.Mutex // guards the fields below, and out
	res     result
	budget  int             // page requests left, not reserved
	held    int             // page requests reserved by requests under way
	settled *sync.Cond      // signalled when a reservation ends
	shown   map[string]bool // authorities whose robots.txt was shown
}

// result is what a crawl did, with URLs named by crawler.name. Its
// counts of refusals are the Transport's: one for each request refused.
type result struct {
	Fetched    []string // pages fetched
	NoIndex    []string // of those, pages that ask not to be indexed
	Disallowed []string // pages robots.txt kept us from
	GivenUp    []string // pages given up: robots.txt unreachable, or the page paced or busy, too long
	Deferred   int      // requests refused because robots.txt was unreachable
	Paced      int      // requests refused because their site's turn was not free
	Requeued   int      // times a URL went back to the frontier for later
}

// maxFailures is how many failed fetches of a site's robots.txt in a row
// the crawl waits through before it gives up on the site's URLs: a site
// down for that long is better visited in another crawl.
const maxFailures = 5

// maxPaced is how many times a URL, with the URLs whose redirects led to
// it (see frontier.retry), may be paced before the crawl gives it up: each
// is told a turn of its own, so a URL paced again and again is most likely
// a redirect loop through a site with a Crawl-delay, which comes back to
// the paced URL at every turn, maybe as a new URL each time.
const maxPaced = 10

// crawl visits the sites of seeds, following links on each page's own
// host and the sitemaps robots.txt lists, with c.workers workers, until
// nothing is left to fetch, c.maxPages pages were requested, or ctx ends.
// A URL deferred because its robots.txt is unreachable is tried again at
// the DeferredError's RetryAt, unless that is after ctx's deadline.
func (c *crawler) crawl(ctx context.Context, seeds []*url.URL) (result, error) {
	c.budget, c.shown = c.maxPages, make(map[string]bool)
	c.settled = sync.NewCond(&c.mu)
	f := newFrontier()
	for _, u := range seeds {
		f.add(u)
	}
	var wg sync.WaitGroup
	for range c.workers {
		wg.Go(func() {
			for {
				u, ok := f.next(ctx)
				if !ok {
					return
				}
				c.visit(ctx, f, u)
			}
		})
	}
	wg.Wait()
	return c.res, ctx.Err()
}

// visit fetches u, taken from f, and puts it back, finishes it or queues
// its links according to what came of it.
func (c *crawler) visit(ctx context.Context, f *frontier, u *url.URL) {
	if !c.reserve() {
		f.finish()
		f.stop() // the page budget is spent
		return
	}
	pg, hop, err := c.get(ctx, u)
	var (
		paced      *robotstxt.PacedError
		deferred   *robotstxt.DeferredError
		disallowed *robotstxt.DisallowedError
	)
	refused := errors.As(err, &paced) || errors.As(err, &deferred) || errors.As(err, &disallowed)
	c.settle(!refused || hop != nil) // refused at a redirect, it was sent
	asked := u
	if refused && hop != nil {
		u = hop // what was refused: where a redirect led
	}
	switch {
	case paced != nil && max(f.tries(u.String()), f.tries(asked.String())) >= maxPaced:
		c.report(func(r *result) { r.Paced++; r.GivenUp = append(r.GivenUp, c.name(u)) },
			"ERROR", u, fmt.Sprintf("paced %d times: a redirect loop? given up", maxPaced))
		f.finish()
	case paced != nil && pastDeadline(ctx, paced.RetryAt):
		c.report(func(r *result) { r.Paced++; r.GivenUp = append(r.GivenUp, c.name(u)) },
			"ERROR", u, "the site's next turn comes after this crawl's deadline; given up")
		f.finish()
	case paced != nil:
		// The site's turn is not free: come back when it may be, for
		// the URL not sent, which is where a redirect led if one did.
		queued := f.retry(asked, u, paced.RetryAt)
		c.report(func(r *result) {
			r.Paced++
			if queued {
				r.Requeued++
			}
		}, "", u, "")
	case deferred != nil:
		if deferred.Failures >= maxFailures || pastDeadline(ctx, deferred.RetryAt) {
			c.report(func(r *result) { r.Deferred++; r.GivenUp = append(r.GivenUp, c.name(u)) },
				"DEFER", u, fmt.Sprintf("robots.txt unreachable (%d failures); given up for this crawl", deferred.Failures))
			f.finish()
			return
		}
		queued := f.retry(asked, u, deferred.RetryAt)
		c.report(func(r *result) {
			r.Deferred++
			if queued {
				r.Requeued++
			}
		}, "DEFER", u, fmt.Sprintf("robots.txt unreachable; back in %v", time.Until(deferred.RetryAt).Round(100*time.Millisecond)))
	case disallowed != nil:
		c.report(func(r *result) { r.Disallowed = append(r.Disallowed, c.name(u)) },
			"DISALLOW", u, ruleText(disallowed.Decision))
		f.finish()
	case err != nil:
		c.report(nil, "ERROR", u, err.Error())
		f.finish()
	case pg.code == http.StatusTooManyRequests || pg.code == http.StatusServiceUnavailable:
		// Not this page: the site asks to be left alone, and the
		// Transport holds it for the Retry-After. Come back, where
		// redirects led, to be paced until the hold has passed.
		if max(f.tries(pg.url.String()), f.tries(asked.String())) >= maxPaced {
			c.report(func(r *result) { r.GivenUp = append(r.GivenUp, c.name(pg.url)) },
				"ERROR", pg.url, fmt.Sprintf("answered %d, busy or paced %d times; given up", pg.code, maxPaced))
			f.finish()
			return
		}
		queued := f.retry(asked, pg.url, time.Now())
		c.report(func(r *result) {
			if queued {
				r.Requeued++
			}
		}, "BUSY", pg.url, fmt.Sprintf("answered %d; back when the site's hold has passed", pg.code))
	default:
		c.fetched(ctx, f, u, pg)
		f.finish()
	}
}

// pastDeadline reports whether t is after ctx's deadline: a URL to come
// back to then is given up, not put back for a time the crawl never sees.
func pastDeadline(ctx context.Context, t time.Time) bool {
	dl, ok := ctx.Deadline()
	return ok && t.After(dl)
}

// fetched records a page that was fetched, asked for as u, with the rule
// that allowed it, and queues its links, read where it was served from,
// unless the page asks for them not to be followed.
func (c *crawler) fetched(ctx context.Context, f *frontier, u *url.URL, pg page) {
	// The Transport has just checked where it was served from: Check
	// answers from memory.
	d, err := c.robots.Check(ctx, pg.url.String())
	if err != nil {
		c.report(nil, "ERROR", u, err.Error())
		return
	}
	note := []string{fmt.Sprint(pg.code), ruleText(d)}
	if !pg.directives.Index() {
		note = append(note, "noindex")
	}
	follow := pg.ok() && pg.directives.Follow()
	if pg.ok() && !pg.directives.Follow() {
		note = append(note, "nofollow: links not followed")
	}
	c.report(func(r *result) {
		r.Fetched = append(r.Fetched, c.name(u))
		if !pg.directives.Index() {
			r.NoIndex = append(r.NoIndex, c.name(u))
		}
	}, "FETCH", u, strings.Join(note, ", "))
	c.showRobots(f, pg.url, d)
	f.fetched(pg.url)
	if follow {
		for _, l := range links(pg.url, string(pg.body)) {
			f.add(l)
		}
	}
}

// showRobots prints, once per authority, what its robots.txt says beyond
// rules, as d, the decision for u, tells, and queues its sitemaps that
// are on u's host.
func (c *crawler) showRobots(f *frontier, u *url.URL, d robotstxt.Decision) {
	c.mu.Lock()
	seen := c.shown[d.Authority]
	c.shown[d.Authority] = true
	c.mu.Unlock()
	if seen {
		return
	}
	var sitemaps []string
	if r := d.Robots(); r != nil {
		sitemaps = r.Sitemaps()
	}
	cd := "none"
	if d.CrawlDelay > 0 {
		cd = d.CrawlDelay.String()
	}
	c.mu.Lock()
	fmt.Fprintf(c.out, "robots.txt of %s: status %d, crawl-delay %s, %d sitemaps\n",
		c.name(&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}), d.Status, cd, len(sitemaps))
	c.mu.Unlock()
	for _, s := range sitemaps {
		if su, err := url.Parse(s); err == nil && su.Host == u.Host {
			f.add(su)
		}
	}
}

// reserve takes a page request from the budget, reporting false once it
// is spent. While what is left is held by requests under way, it waits
// for them: a request the Transport refuses gives its page back.
func (c *crawler) reserve() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.budget == 0 && c.held > 0 {
		c.settled.Wait()
	}
	if c.budget == 0 {
		return false
	}
	c.budget--
	c.held++
	return true
}

// settle ends a reservation: the page request is spent if it was sent,
// and back in the budget otherwise.
func (c *crawler) settle(sent bool) {
	c.mu.Lock()
	c.held--
	if !sent {
		c.budget++
	}
	c.mu.Unlock()
	c.settled.Broadcast()
}

// report records a decision with update (if not nil) and prints it,
// unless word is empty.
func (c *crawler) report(update func(*result), word string, u *url.URL, note string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if update != nil {
		update(&c.res)
	}
	if word != "" {
		fmt.Fprintf(c.out, "%-8s  %-28s  (%s)\n", word, c.name(u), note)
	}
}

// ruleText explains a decision: the deciding rule and its line, or what
// decided without a rule.
func ruleText(d robotstxt.Decision) string {
	switch {
	case d.Rule.Line != 0 && d.Rule.Allow:
		return fmt.Sprintf("line %d: Allow: %s", d.Rule.Line, d.Rule.Pattern)
	case d.Rule.Line != 0:
		return fmt.Sprintf("line %d: Disallow: %s", d.Rule.Line, d.Rule.Pattern)
	case d.Outcome == robotstxt.OutcomeDisallowAll:
		return fmt.Sprintf("robots.txt status %d: disallow all", d.Status)
	case d.Outcome == robotstxt.OutcomeAllowAll:
		return fmt.Sprintf("robots.txt status %d: allow all", d.Status)
	}
	return "no rule matches"
}
