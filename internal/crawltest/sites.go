package crawltest

import (
	"context"
	"fmt"
	"time"

	"github.com/robotsgate/robotstxt"
)

// CheckTimeout bounds the checks of a test's probes: long enough for a
// loaded test machine to fetch a robots.txt that a [Web] delays, short
// enough that a hung check fails the test well before its deadline.
const CheckTimeout = 30 * time.Second

// Host returns the name of the i-th test site tagged tag: "<tag><i>.test".
// Distinct tags keep tests from sharing authorities by accident.
func Host(tag string, i int) string { return fmt.Sprintf("%s%d.test", tag, i) }

// Hosts returns the names of the first n test sites tagged tag.
func Hosts(tag string, n int) []string {
	hs := make([]string, n)
	for i := range hs {
		hs[i] = Host(tag, i)
	}
	return hs
}

// privatePath is the path prefix that host's robots.txt, and only its,
// disallows.
func privatePath(host string) string { return "/private-" + host + "/" }

// robotsFor is the robots.txt a [Web] serves for host: every user agent
// is disallowed host's private path and nothing else.
func robotsFor(host string) string {
	return "User-agent: *\nDisallow: " + privatePath(host) + "\n"
}

// A Probe is a URL to check and the right answer for it.
type Probe struct {
	URL  string
	Want bool // whether the URL is allowed
}

// Probes returns URLs of host whose answers depend on host's own
// robots.txt as a [Web] serves it: its private path is disallowed,
// another site's private path and the root are allowed.
func Probes(host string) []Probe {
	other := "x" + host
	return []Probe{
		{"http://" + host + privatePath(host) + "page", false},
		{"http://" + host + privatePath(other) + "page", true},
		{"http://" + host + "/", true},
	}
}

// Check asks c whether p's URL is allowed, and returns an error when
// that fails or the answer is wrong.
func (p Probe) Check(ctx context.Context, c *robotstxt.Client) error {
	got, err := c.Allowed(ctx, p.URL)
	switch {
	case err != nil:
		return fmt.Errorf("Allowed(%s): %w", p.URL, err)
	case got != p.Want:
		return fmt.Errorf("Allowed(%s) = %v, want %v", p.URL, got, p.Want)
	}
	return nil
}
