package robotstxt

import (
	"math"
	"strconv"
	"time"
)

// A Crawler is the part of a robots.txt that one crawler obeys: the groups
// that name its product token, merged, or else the "*" groups. It is
// immutable and safe for concurrent use.
type Crawler struct {
	r      *Robots
	groups []int
	named  bool
}

// Allowed reports whether the crawler may fetch url, which is an absolute
// URL or a path, already percent-escaped.
func (a *Crawler) Allowed(url string) bool { return a.r.decide(a.groups, url).Allowed }

// Check is like Allowed but also reports the deciding rule. It does not
// allocate in the default mode.
func (a *Crawler) Check(url string) Verdict { return a.r.decide(a.groups, url) }

// Named reports whether some group names the crawler, so that the "*"
// groups do not apply to it.
func (a *Crawler) Named() bool { return a.named }

// Rules returns the rules that apply, in file order.
func (a *Crawler) Rules() []Rule {
	var out []Rule
	for _, gi := range a.groups {
		out = append(out, a.r.file.Groups[gi].Rules...)
	}
	return out
}

// Extensions returns the extension records (crawl-delay, request-rate,
// host, …) of the groups that apply, in file order.
func (a *Crawler) Extensions() []Extension {
	var out []Extension
	for _, gi := range a.groups {
		out = append(out, a.r.file.Groups[gi].Extensions...)
	}
	return out
}

// CrawlDelay returns the first crawl-delay of the groups that apply.
// Fractional seconds are kept; values that do not parse, are negative or
// exceed a day are skipped.
func (a *Crawler) CrawlDelay() (time.Duration, bool) {
	for _, gi := range a.groups {
		for _, e := range a.r.file.Groups[gi].Extensions {
			if e.Key != "crawl-delay" {
				continue
			}
			s, err := strconv.ParseFloat(e.Value, 64)
			if err != nil || s < 0 || math.IsNaN(s) || s > maxCrawlDelay.Seconds() {
				continue
			}
			return time.Duration(s * float64(time.Second)), true
		}
	}
	return 0, false
}
