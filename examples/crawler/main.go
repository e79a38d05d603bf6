// Command crawler is a self-contained demo of a frontier crawler built on
// the robotstxt Transport. It starts three small web sites on 127.0.0.1
// (one with rules, a sitemap and pages that say noindex or nofollow, one
// with a crawl-delay of 200 ms, one whose robots.txt is unreachable at
// first), crawls them with a pool of workers that share one frontier,
// and prints each decision with the rule behind it, then the Transport's
// and the Client's counts. It needs no network access.
//
// The Transport is made WithNoWait: a worker waits for a site's
// crawl-delay only to follow a redirect within the site, as the
// Transport does. A request whose turn is not free fails at once with a
// *robotstxt.PacedError, and the URL it names goes back to the frontier
// (unless it was queued before) for the error's RetryAt, which spreads a
// site's URLs over its coming turns; a *robotstxt.DeferredError
// (robots.txt unreachable) is put back the same way. Pages are read for
// their X-Robots-Tag and robots META tags through
// Transport.PageDirectives: the links of a nofollow page
// are not followed.
//
//	go run ./examples/crawler
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/robotsgate/robotstxt"
)

// userAgent is the demo crawler's User-Agent; it matches robots.txt groups
// as "DemoCrawler".
const userAgent = "DemoCrawler/1.0 (+https://github.com/robotsgate/robotstxt)"

func main() {
	maxPages := flag.Int("max", 50, "request at most this many pages")
	workers := flag.Int("workers", 4, "number of workers")
	flag.Parse()
	if err := run(os.Stdout, *maxPages, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "crawler:", err)
		os.Exit(1)
	}
}

// demo is the three demo sites.
type demo struct{ sites []*site }

func newDemo() *demo {
	return &demo{sites: []*site{newSite(mainSite), newSite(newsSite), newSite(flakySite)}}
}

func (d *demo) Close() {
	for _, s := range d.sites {
		s.Close()
	}
}

// seeds are the sites' home pages.
func (d *demo) seeds() []*url.URL {
	var out []*url.URL
	for _, s := range d.sites {
		u, _ := url.Parse(s.URL() + "/")
		out = append(out, u)
	}
	return out
}

// name names u by its site: "main/about.html"; another URL without its
// userinfo, which may hold a password (a redirect's Location's).
func (d *demo) name(u *url.URL) string {
	for _, s := range d.sites {
		if strings.TrimPrefix(s.URL(), "http://") == u.Host {
			return s.spec.name + u.RequestURI()
		}
	}
	v := *u
	v.User = nil
	return v.String()
}

// newCrawler returns a crawler over d with a Client and a Transport of
// its own, closed by the returned function.
func newCrawler(d *demo, out io.Writer, maxPages, workers int) (*crawler, func()) {
	// One RoundTripper for everything, robots.txt fetches included. A
	// crawler of the web would pass robotstxt.PublicOnly(nil) as next,
	// which refuses loopback addresses such as the demo's.
	rc, rt := robotstxt.NewClientTransport(nil,
		[]robotstxt.Option{robotstxt.WithUserAgent(userAgent)},
		robotstxt.WithNoWait())
	c := &crawler{
		robots: rc, rt: rt, http: &http.Client{Transport: rt, Timeout: 10 * time.Second, CheckRedirect: followRedirect},
		userAgent: userAgent, workers: workers, maxPages: maxPages, name: d.name, out: out,
	}
	return c, func() { _ = rc.Close() }
}

// run starts the demo sites, crawls them and prints the decisions and
// stats to out.
func run(out io.Writer, maxPages, workers int) error {
	d := newDemo()
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, closeCrawler := newCrawler(d, out, maxPages, workers)
	defer closeCrawler()
	fmt.Fprintf(out, "crawling 3 demo sites as %q with %d workers\n", userAgent, workers)
	res, err := c.crawl(ctx, d.seeds())
	printStats(out, res, c.rt.Stats(), c.robots.Stats())
	return err
}
