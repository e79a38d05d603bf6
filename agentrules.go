package robotstxt

import (
	"time"

	"github.com/robotsgate/robotstxt/internal/parse"
)

// agentRules are the rules that one crawler obeys (see Robots.agentRules),
// in their own table without the rest of the file, so that the Client
// keeps them alone. They are immutable and safe for concurrent use.
type agentRules struct {
	t    *parse.Table
	mode Mode
	// signal holds the preferences of the Content-Signal records that
	// apply, those before the first group included, which the table
	// does not keep; nil for none, the common case, so that it costs 8
	// bytes.
	signal *Usage
}

// selected is the one group of an agentRules' table, which
// parse.Table.Select makes; nothing changes it.
var selected = []int{0}

// check reports whether path (as match.Path returns it) is allowed, and
// the deciding rule.
func (a *agentRules) check(path string) (bool, Rule) { return decide(a.t, a.mode, selected, path) }

// contentSignal returns the preferences of the Content-Signal records
// that apply (see Robots.Usage).
func (a *agentRules) contentSignal() Usage {
	if a.signal == nil {
		return Usage{}
	}
	return *a.signal
}

// crawlDelay returns the first crawl-delay of the groups that parses (see
// Robots.CrawlDelay).
func (a *agentRules) crawlDelay() (time.Duration, bool) { return crawlDelay(a.t.Extensions(selected)) }
