// Package meta reads the page-level robots directives that complement
// robots.txt: the HTML robots META tag (<meta name="robots"
// content="noindex, nofollow">, or one named for a crawler) and the
// X-Robots-Tag HTTP header.
//
// robots.txt says whether a crawler may fetch a URL; these directives say
// what it may do with the page once fetched.
package meta

import (
	"slices"
	"strings"
	"time"
)

// Directives are the robots directives that apply to one page. The zero
// value allows everything: index the page, follow its links, keep a copy.
type Directives struct {
	NoIndex      bool // noindex or none: do not index the page
	NoFollow     bool // nofollow or none: do not follow its links
	NoArchive    bool // noarchive: keep no cached copy
	NoSnippet    bool // nosnippet: show no snippet
	NoImageIndex bool // noimageindex: do not index its images
	NoTranslate  bool // notranslate: offer no translation
	// UnavailableAfter is the time after which the page is not to be
	// shown; zero when not given or when it does not parse.
	UnavailableAfter time.Time
	// Other holds the directives not listed above, lower-cased, such as
	// "max-snippet:50": at most maxOther of them, each at most
	// maxOtherLen bytes (longer ones are dropped), since a page chooses
	// them.
	Other []string
}

// The bounds of Directives.Other: real pages name a handful of other
// directives, each a word or two; these leave room for every one known
// while a hostile page cannot make a Directives hold megabytes.
const (
	maxOther    = 64
	maxOtherLen = 256
)

// Index reports whether the page may be indexed.
func (d Directives) Index() bool { return !d.NoIndex }

// Follow reports whether the page's links may be followed.
func (d Directives) Follow() bool { return !d.NoFollow }

// Merge returns the directives of d and o together, as if one page had
// given both: each restriction that either gives, the earlier
// UnavailableAfter, and the union of Other. It is how the X-Robots-Tag
// header and the META tags of one page are read together.
func (d Directives) Merge(o Directives) Directives {
	m := d
	m.NoIndex = d.NoIndex || o.NoIndex
	m.NoFollow = d.NoFollow || o.NoFollow
	m.NoArchive = d.NoArchive || o.NoArchive
	m.NoSnippet = d.NoSnippet || o.NoSnippet
	m.NoImageIndex = d.NoImageIndex || o.NoImageIndex
	m.NoTranslate = d.NoTranslate || o.NoTranslate
	if !o.UnavailableAfter.IsZero() {
		m.unavailableAfter(o.UnavailableAfter)
	}
	m.Other = slices.Clone(d.Other)
	for _, x := range o.Other {
		m.addOther(x)
	}
	return m
}

// Parse reads the value of a robots META tag's content attribute or of one
// X-Robots-Tag header: comma-separated directives, case-insensitive.
// "all" is index, follow; "none" is noindex, nofollow. Unknown directives
// are kept in Other; Parse never fails.
func Parse(content string) Directives {
	var d Directives
	d.add(content)
	return d
}

// add merges the directives of content into d. Restrictions only add up:
// a later "index" does not undo an earlier "noindex", so that when several
// tags disagree the most restrictive reading wins.
func (d *Directives) add(content string) {
	rest := content
	for rest != "" {
		var raw string
		raw, rest, _ = strings.Cut(rest, ",")
		raw = strings.TrimSpace(raw)
		item := strings.ToLower(raw)
		switch item {
		case "", "index", "follow", "all", "archive":
		case "noindex":
			d.NoIndex = true
		case "nofollow":
			d.NoFollow = true
		case "none":
			d.NoIndex, d.NoFollow = true, true
		case "noarchive", "nocache":
			d.NoArchive = true
		case "nosnippet":
			d.NoSnippet = true
		case "noimageindex":
			d.NoImageIndex = true
		case "notranslate":
			d.NoTranslate = true
		default:
			if strings.HasPrefix(item, "unavailable_after:") {
				// The date may itself contain commas (RFC 850 style);
				// take the rest of the value then.
				v := raw[len("unavailable_after:"):]
				if t, ok := parseDate(strings.TrimSpace(v)); ok {
					d.unavailableAfter(t)
					continue
				}
				next, after, _ := strings.Cut(rest, ",")
				if t, ok := parseDate(strings.TrimSpace(v + "," + next)); ok {
					d.unavailableAfter(t)
					rest = after
					continue
				}
			}
			d.addOther(item)
		}
	}
}

// addOther adds item to Other, within the bounds, once.
func (d *Directives) addOther(item string) {
	if len(d.Other) < maxOther && len(item) <= maxOtherLen && !slices.Contains(d.Other, item) {
		d.Other = append(d.Other, item)
	}
}

// unavailableAfter keeps the earlier of t and the date already set, the
// more restrictive reading.
func (d *Directives) unavailableAfter(t time.Time) {
	if d.UnavailableAfter.IsZero() || t.Before(d.UnavailableAfter) {
		d.UnavailableAfter = t
	}
}

// dateLayouts are the forms that unavailable_after dates take in the wild.
var dateLayouts = []string{
	time.RFC3339, time.RFC1123, time.RFC1123Z, time.RFC850, time.RFC822,
	"2006-01-02", "02 Jan 2006 15:04:05 MST", "2 Jan 2006 15:04:05 MST",
	"Monday, 02-Jan-2006 15:04:05 MST",
}

func parseDate(s string) (time.Time, bool) {
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
