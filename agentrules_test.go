package robotstxt

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/target"
)

// The tests read agentRules through methods shaped like the public
// Robots ones, a URL at a time.

func (a *agentRules) Allowed(url string) bool {
	ok, _ := a.check(match.Path(url))
	return ok
}

func (a *agentRules) Check(url string) Decision {
	path := match.Path(url)
	d := Decision{Outcome: OutcomeRules}
	if d.Allowed, d.Rule = a.check(path); d.Allowed {
		d.Usage = a.usage(path)
	}
	return d
}

func (a *agentRules) Usage(url string) Usage { return a.usage(match.Path(url)) }

func (a *agentRules) Rules() []Rule { return rulesOf(a.t.Rules(selected)) }

// named reports whether some group of r names agent, so that the "*"
// groups do not apply to it.
func named(r *Robots, agent string) bool {
	_, ok := r.t.AppendGroups(nil, agent)
	return ok
}

// fileOf returns the parsed form of r with strings.
func fileOf(r *Robots) *parse.File { return r.t.File() }

// extensionsOf returns the extension records of the groups of r that
// apply to agent.
func extensionsOf(r *Robots, agent string) []parse.Record { return r.t.Extensions(r.groups(agent)) }

// matched reports whether a rule decided d.
func matched(d Decision) bool { return d.Rule.Line != 0 }

// info is what the tests read of a robots.txt a Client holds: the
// Decision's account of it, and the body.
type info struct {
	Decision
	body []byte
	now  func() time.Time // the Client's clock
}

// Body returns the body as parsed, nil unless the outcome is OutcomeRules.
func (i *info) Body() []byte { return i.body }

// CrawlDelay returns the crawl-delay for the Client's product tokens, and
// whether robots.txt gives one.
func (i *info) CrawlDelay() (time.Duration, bool) {
	if i.e == nil {
		return 0, false
	}
	return i.e.crawlDelay()
}

// Sitemaps returns the sitemap URLs of the robots.txt.
func (i *info) Sitemaps() []string {
	if r := i.Robots(); r != nil {
		return r.Sitemaps()
	}
	return nil
}

// Expired reports whether the robots.txt is past its expiry by the
// Client's clock.
func (i *info) Expired() bool { return !i.now().Before(i.Expires) }

// infoOf describes e, which c holds.
func infoOf(c *Client, e *entry) *info {
	i := &info{now: c.cfg.now}
	i.describe(e, c.cfg.mode)
	i.body, _ = e.text()
	return i
}

// cached returns what c's memory holds for rawURL's authority, fresh or
// not, without fetching.
func cached(c *Client, rawURL string) (*info, bool) {
	key, _, err := splitKey(rawURL)
	if err != nil {
		return nil, false
	}
	e := c.robots.cache.peek(key)
	if e == nil {
		return nil, false
	}
	return infoOf(c, e), true
}

// forget drops rawURL's authority from c's memory.
func forget(c *Client, rawURL string) {
	if key, _, err := splitKey(rawURL); err == nil {
		c.robots.cache.forget(key)
	}
}

// lookup checks rawURL as the Client does, fetching its robots.txt if
// needed, and returns what c then holds of it; a deferral is in the info,
// not the error.
func lookup(ctx context.Context, c *Client, rawURL string) (*info, error) {
	d, err := c.Check(ctx, rawURL)
	if d.Deferred {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	e := c.robots.cache.peek(d.Authority)
	if e == nil {
		return nil, fmt.Errorf("%s: not cached after a check", d.Authority)
	}
	return infoOf(c, e), nil
}

func TestAgentRulesCopyTheGroups(t *testing.T) {
	r := Parse([]byte("User-agent: a\nDisallow: /a\nCrawl-delay: 2\nUser-agent: *\nDisallow: /\n"))
	a := r.agentRules("a")
	if a.Allowed("/a/x") || !a.Allowed("/b") || len(a.Rules()) != 1 {
		t.Errorf("a's rules: %v", a.Rules())
	}
	if d, ok := a.crawlDelay(); !ok || d.Seconds() != 2 {
		t.Errorf("crawl-delay %v %v", d, ok)
	}
	if other := r.agentRules("b"); other.Allowed("/b") {
		t.Error("b is not held to the * group")
	}
}

// splitKey is target.Split with the key as a string.
func splitKey(rawURL string) (key, path string, err error) {
	k, path, err := target.Split(rawURL, nil)
	return string(k), path, err
}

// usage returns the preferences that the Content-Usage rules of the
// groups state for path, as [Robots.Usage] reads them.
func (a *agentRules) usage(path string) Usage {
	return usageOf(a.t, a.mode, selected, path, a.contentSignal())
}
