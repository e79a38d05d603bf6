// Command crawler is a self-contained demo of the robotstxt Client. It
// starts a small web site on 127.0.0.1 with a robots.txt (a few rules, a
// crawl-delay of 50 ms and a sitemap), crawls it politely through the
// Client, prints each decision with the rule and line behind it, and ends
// with the Client's cache statistics. It needs no network access.
//
//	go run ./examples/crawler
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/robotsgate/robotstxt"
)

// userAgent is the demo crawler's User-Agent; it matches robots.txt groups
// as "DemoCrawler".
const userAgent = "DemoCrawler/1.0 (+https://github.com/robotsgate/robotstxt)"

func main() {
	maxPages := flag.Int("max", 20, "fetch at most this many pages")
	flag.Parse()
	if err := run(os.Stdout, *maxPages); err != nil {
		fmt.Fprintln(os.Stderr, "crawler:", err)
		os.Exit(1)
	}
}

// run starts the demo site, crawls it and prints the decisions and stats
// to out.
func run(out io.Writer, maxPages int) error {
	s := newSite()
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	hc := &http.Client{Timeout: 5 * time.Second}
	rc := robotstxt.NewClient(robotstxt.WithUserAgent(userAgent), robotstxt.WithHTTPClient(hc))
	defer rc.Close()
	fmt.Fprintf(out, "demo site at %s, crawling as %q\n", s.URL(), rc.ProductTokens())

	c := &crawler{robots: rc, http: hc, userAgent: userAgent, maxPages: maxPages, out: out}
	res, err := c.crawl(ctx, s.URL()+"/")
	printStats(out, res, rc.Stats())
	return err
}
