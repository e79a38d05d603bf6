package main

import (
	"fmt"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/parser"
)

// A prefItem is one line of what explain and test show of the usage
// preferences of a URL: "usage" for robots.txt's Content-Usage rules or
// "signal" for its Content-Signal records, the preferences (or
// "unknown"), and where they come from.
type prefItem struct {
	label, prefs, detail string
	// lines are the lines the preferences come from, as written, when
	// they are more than one.
	lines []string
	// notes say why a deciding statement states nothing.
	notes []string
}

// prefItems returns what a robots.txt says of the use of url's content
// by agent: an item for its Content-Usage rules when the agent's groups
// have any, and one for its Content-Signal records when any apply; none
// otherwise. r is the file read in mode, t its table, l its listing;
// allowed is r's decision for url.
func prefItems(r *robotstxt.Robots, t *parser.Table, l listing, mode robotstxt.Mode, agent, url string, allowed bool) []prefItem {
	groups, _ := t.AppendGroups(nil, agent)
	var items []prefItem
	if t.HasUsage(groups) {
		it := prefItem{label: "usage", prefs: prefsText(r.Usage(agent, url))}
		path := matchPath(url, mode)
		switch rules := t.DecideUsage(nil, groups, path); {
		case !allowed:
			it.detail = "disallowed: preferences apply only to URLs the crawler may fetch"
		case len(rules) == 0:
			it.detail = "no Content-Usage rule of these groups matches " + path
		default:
			var lines []int
			for _, u := range rules {
				lines = append(lines, u.Line)
				if _, err := scanStatement(u.Statement); err != nil {
					it.notes = append(it.notes, fmt.Sprintf("the statement of line %d does not parse: %v", u.Line, err))
				}
			}
			it.detail, it.lines = linesText(lines, l, "their paths match with the same length: they combine, n before y")
		}
		items = append(items, it)
	}
	var signals []int
	for _, rec := range append(t.FileExtensions(), t.Extensions(groups)...) {
		if rec.Key == "content-signal" {
			signals = append(signals, rec.Line)
		}
	}
	if len(signals) > 0 {
		it := prefItem{label: "signal", prefs: prefsText(r.ContentSignal(agent, url))}
		if allowed {
			it.detail, it.lines = linesText(signals, l, "they combine, no before yes")
		} else {
			it.detail = "disallowed: preferences apply only to URLs the crawler may fetch"
		}
		items = append(items, it)
	}
	return items
}

// scanStatement reads a Content-Usage statement as a Dictionary of RFC
// 9651 and returns its members as written, a repeated key each time; or
// sfv's error when it is not one, and the statement states nothing.
func scanStatement(stmt string) ([]sfv.Member, error) {
	var ms []sfv.Member
	sc := sfv.Scan(stmt)
	for sc.Next() {
		ms = append(ms, sc.Member())
	}
	return ms, sc.Err()
}

// prefsText shows a Usage: its String, or "unknown" when it states
// nothing.
func prefsText(u robotstxt.Usage) string {
	if s := u.String(); s != "" {
		return s
	}
	return "unknown"
}

// linesText describes where preferences come from: "line 7: Content-Usage:
// train-ai=n", the line as written, or for several lines "lines 7 and 9:
// why", with each line as written for the caller to list.
func linesText(lines []int, l listing, why string) (string, []string) {
	if len(lines) == 1 {
		return fmt.Sprintf("line %d: %s", lines[0], l.directive(lines[0])), nil
	}
	nums := make([]string, len(lines))
	written := make([]string, len(lines))
	for i, n := range lines {
		nums[i] = fmt.Sprint(n)
		written[i] = fmt.Sprintf("line %d: %s", n, l.directive(n))
	}
	list := strings.Join(nums[:len(nums)-1], ", ") + " and " + nums[len(nums)-1]
	return "lines " + list + ": " + why, written
}
