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
}

// selected is the one group of an agentRules' table, which
// parse.Table.Select makes; nothing changes it.
var selected = []int{0}

// check reports whether path (as match.Path returns it) is allowed, and
// the deciding rule.
func (a *agentRules) check(path string) (bool, Rule) { return decide(a.t, a.mode, selected, path) }

// crawlDelay returns the first crawl-delay of the groups that parses (see
// Robots.CrawlDelay).
func (a *agentRules) crawlDelay() (time.Duration, bool) { return crawlDelay(a.t.Extensions(selected)) }
