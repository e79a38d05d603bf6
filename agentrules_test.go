package robotstxt

import (
	"testing"

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

// held returns the Decision that describes what c's memory holds for
// rawURL's authority, fresh or not, and its entry; ok is false when it
// holds nothing. Nothing is fetched.
func held(c *Client, rawURL string) (d Decision, e *entry, ok bool) {
	key, _, err := splitKey(rawURL)
	if err != nil {
		return Decision{}, nil, false
	}
	if e = c.robots.cache.peek(key); e == nil {
		return Decision{}, nil, false
	}
	d.describe(e, c.cfg.mode)
	return d, e, true
}

// bodyOf returns the robots.txt text e keeps, nil when it keeps none.
func bodyOf(e *entry) []byte {
	b, _ := e.text()
	return b
}

// sitemapsOf returns the sitemaps of the robots.txt d rests on.
func sitemapsOf(d Decision) []string {
	if r := d.Robots(); r != nil {
		return r.Sitemaps()
	}
	return nil
}

// forget drops rawURL's authority from c's memory.
func forget(c *Client, rawURL string) {
	if key, _, err := splitKey(rawURL); err == nil {
		c.robots.cache.forget(key)
	}
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
