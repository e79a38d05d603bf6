package robotstxt

import (
	"time"

	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
)

// A Crawler is the part of a robots.txt that one crawler obeys: the groups
// that name one of its product tokens, merged, or else the "*" groups (see
// [Robots.Crawler]). It holds its own copy of those rules and records,
// indexed for checks, and nothing else of the file. It is immutable and
// safe for concurrent use.
type Crawler struct {
	t     *parser.Table
	mode  Mode
	named bool
}

// selected is the one group of a Crawler's table, which
// [parser.Table.Select] makes; nothing changes it.
var selected = []int{0}

// Allowed reports whether the crawler may fetch url, which is an absolute
// URL or a path, already percent-escaped.
func (c *Crawler) Allowed(url string) bool { return c.allowedPath(matcher.Path(url)) }

// Check is like Allowed but also reports the deciding rule. It allocates
// as [Robots.Check] does.
func (c *Crawler) Check(url string) Verdict { return c.checkPath(matcher.Path(url)) }

// checkPath is Check for path, the part of a URL that rules are matched
// against, as matcher.Path or matcher.EscapePath return it.
func (c *Crawler) checkPath(path string) Verdict { return verdict(c.t, c.mode, selected, path) }

// allowedPath is Allowed for path, as checkPath is Check.
func (c *Crawler) allowedPath(path string) bool { return allowed(c.t, c.mode, selected, path) }

// Usage returns the preferences that the Content-Usage rules of the
// crawler's groups state about the use of url's content, as
// [Robots.Usage] reads them: unknown for every label when the crawler may
// not fetch url. It answers at once when the groups have no Content-Usage
// rules; otherwise it checks url as Allowed does and tries each of their
// Content-Usage rules.
func (c *Crawler) Usage(url string) Usage {
	return usage(c.t, c.mode, selected, matcher.Path(url))
}

// Named reports whether some group names the crawler, so that the "*"
// groups do not apply to it.
func (c *Crawler) Named() bool { return c.named }

// Rules returns the rules that apply, in file order.
func (c *Crawler) Rules() []Rule { return c.t.Rules(selected) }

// Extensions returns the extension records (crawl-delay, request-rate,
// host, …) of the groups that apply, in file order.
func (c *Crawler) Extensions() []Record { return c.t.Extensions(selected) }

// CrawlDelay returns the first crawl-delay of the groups that apply that
// [parser.CrawlDelay] accepts: fractional seconds are kept; values that
// do not parse or are negative are skipped, and values beyond a day read
// as a day ([parser.MaxCrawlDelay]).
func (c *Crawler) CrawlDelay() (time.Duration, bool) { return crawlDelay(c.Extensions()) }
