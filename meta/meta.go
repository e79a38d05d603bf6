// Package meta reads the page-level robots directives, which say what a
// crawler may do with a page robots.txt let it fetch: the HTML robots
// META tag (<meta name="robots" content="noindex, nofollow">, or one
// named for a crawler) and the X-Robots-Tag HTTP header; and the TDMRep
// META tags, which reserve the rights of text and data mining.
package meta

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/tdmrep"
)

// Directives are the robots directives that apply to one page. The zero
// value allows everything: index the page, follow its links, keep a copy.
// Directives read from several tags or header values add up, the most
// restrictive reading winning: a later "index" does not undo a "noindex".
type Directives struct {
	NoIndex      bool // noindex or none: do not index the page
	NoFollow     bool // nofollow or none: do not follow its links
	NoArchive    bool // noarchive: keep no cached copy
	NoSnippet    bool // nosnippet: show no snippet
	NoImageIndex bool // noimageindex: do not index its images
	NoTranslate  bool // notranslate: offer no translation
	NoAI         bool // noai: do not use the page to train AI
	NoImageAI    bool // noimageai: do not use its images to train AI
	// UnavailableAfter is the time after which the page is not to be
	// shown, the earliest given; zero when not given or when it does not
	// parse (RFC 822 and 1123, RFC 850, asctime and ISO 8601 dates do; one
	// without a zone is UTC, and one in a zone RFC 822 does not name, such
	// as CET, reads as the earliest time it may mean, at UTC+14). Past 16
	// dates in one response or page, the rest read as 1970: the page is
	// unavailable already.
	UnavailableAfter time.Time
	// Other holds the directives not listed above, lower-cased, such as
	// "max-snippet:50": at most 64 of them, each at most 256 bytes
	// (longer ones are dropped), since a page chooses them.
	Other []string
}

// The bounds of Directives.Other: room for every directive known.
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
// UnavailableAfter, and the union of Other.
func (d Directives) Merge(o Directives) Directives {
	m := d
	m.NoIndex = d.NoIndex || o.NoIndex
	m.NoFollow = d.NoFollow || o.NoFollow
	m.NoArchive = d.NoArchive || o.NoArchive
	m.NoSnippet = d.NoSnippet || o.NoSnippet
	m.NoImageIndex = d.NoImageIndex || o.NoImageIndex
	m.NoTranslate = d.NoTranslate || o.NoTranslate
	m.NoAI = d.NoAI || o.NoAI
	m.NoImageAI = d.NoImageAI || o.NoImageAI
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
	d.add(content, new(int))
	return d
}

// maxDates bounds the unavailable_after dates read of one header set or
// page, dates counting those read so far: a page gives one, but each
// costs up to two tries of every layout (dateLayouts), and a 10 MiB
// X-Robots-Tag of "unavailable_after: Monday," took 5 s. Past it, the
// page reads as unavailable already, the most restrictive reading of a
// date unread.
const maxDates = 16

// add merges the directives of content into d.
func (d *Directives) add(content string, dates *int) {
	for rest := content; rest != ""; {
		var raw string
		raw, rest, _ = strings.Cut(rest, ",")
		raw = strings.TrimSpace(raw)
		item := ascii.LowerString(raw)
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
		case "noai":
			d.NoAI = true
		case "noimageai":
			d.NoImageAI = true
		default:
			if name, v, ok := strings.Cut(raw, ":"); ok && ascii.EqualFold(strings.TrimSpace(name), "unavailable_after") {
				if *dates++; *dates > maxDates {
					d.unavailableAfter(time.Unix(0, 0).UTC())
					continue
				}
				// The date may itself contain commas (RFC 850 style);
				// take the rest of the value then.
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

// dateLayouts are the forms that unavailable_after dates take (RFC 822
// and 1123, RFC 850, asctime and ISO 8601, its basic format too, as
// Google reads them), after parseDate drops a leading day of the week and
// a trailing RFC 822 comment, puts a 'T' for the blank or 't' between an
// ISO 8601 date and time and a 'Z' for a 'z' (RFC 3339 §5.6), and
// upper-cases a zone name (RFC 822 §3.4.7); one without a zone is UTC.
var dateLayouts = []string{
	"2006-01-02", "2006-01-02T15", "2006-01-02T15:04", "2006-01-02T15:04:05",
	"2006-01-02T15Z07:00", "2006-01-02T15Z0700", "2006-01-02T15Z07", // reduced precision: the hour
	"20060102", "20060102T150405", "20060102T1504", "20060102T150405Z0700", "20060102T1504Z0700", // ISO 8601's basic format
	"20060102T150405Z07", "20060102T1504Z07",
	"2006-01-02T15:04Z07:00", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04Z0700", "2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z07", "2006-01-02T15:04:05Z07", // an offset in hours, as ISO 8601 allows
	// Numeric zones first: Go reads "+0000" as the name of a zone too.
	"2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04 -0700", "2 Jan 06 15:04:05 -0700", "2 Jan 06 15:04 -0700",
	"2 Jan 2006 15:04:05 MST", "2 Jan 2006 15:04 MST", "2 Jan 06 15:04:05 MST", "2 Jan 06 15:04 MST",
	"2-Jan-2006 15:04:05 -0700", "2-Jan-06 15:04:05 -0700", "2-Jan-2006 15:04:05 MST", "2-Jan-06 15:04:05 MST",
	time.ANSIC,
}

// collapsedLen returns the length of s with each run of blanks made one
// byte, or a length over maxDateLen once it has passed it.
func collapsedLen(s string) int {
	n := 0
	for i := 0; i < len(s) && n <= maxDateLen; i++ {
		if i == 0 || !isBlank(s[i]) || !isBlank(s[i-1]) {
			n++
		}
	}
	return n
}

// isBlank reports whether c is ASCII white space, which strings.Fields
// splits on too.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// maxDateLen bounds an unavailable_after date, its runs of blanks made
// one: the longest of dateLayouts, with a day's name before it, is under
// 40 bytes, and an ISO 8601 fraction of a second a few dozen more; a
// longer value cost a copy for each layout tried, 131 times a megabyte
// header.
const maxDateLen = 128

// zoneHours are the offsets of the zone names RFC 822 gives, which
// time.ParseInLocation in UTC reads as UTC.
var zoneHours = map[string]int{"UT": 0, "GMT": 0, "UTC": 0, "Z": 0,
	"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7}

// earliestZone is the offset furthest east (Kiribati's): a date in a zone
// of another name (CET, JST, IST, which means three offsets, or GMT+3,
// whose sign POSIX reverses) is read as the earliest time it may mean,
// the more restrictive reading.
const earliestZone = 14 * time.Hour

// parseDate reads an unavailable_after date in any of dateLayouts, or
// reports false.
func parseDate(s string) (time.Time, bool) {
	if len(s) > maxDateLen {
		if collapsedLen(s) > maxDateLen {
			return time.Time{}, false // each layout tried copies s into its error
		}
		s = strings.Join(strings.Fields(s), " ") // Go reads a run of blanks as one
	}
	if day, rest, ok := strings.Cut(s, ","); ok && day != "" && strings.Trim(day, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == "" {
		s = strings.TrimLeft(rest, " ") // "Mon, " or "Monday, ": Go checks no day against its date
	}
	if c, ok := strings.CutSuffix(s, ")"); ok {
		if i := strings.LastIndexByte(c, '('); i > 0 && !strings.ContainsAny(c[i+1:], "()") {
			s = strings.TrimRight(c[:i], " ") // an RFC 822 comment: "+0000 (UTC)"
		}
	}
	if len(s) > len("2006-01-02 ") && s[4] == '-' && s[7] == '-' && (s[10] == ' ' || s[10] == 't') {
		s = s[:10] + "T" + strings.TrimLeft(s[11:], " ") // Go reads a run of blanks as one
	}
	if len(s) > len("2006-01-02T") && (s[10] == 'T' || s[8] == 'T' || s[8] == 't') {
		if len(s) > 8 && s[8] == 't' {
			s = s[:8] + "T" + s[9:] // ISO 8601's basic format
		}
		if z, ok := strings.CutSuffix(s, "z"); ok {
			s = z + "Z" // RFC 3339 §5.6 allows either case
		}
	}
	if i := strings.LastIndexByte(s, ' '); i >= 0 && i+1 < len(s) && ('a' <= s[i+1] && s[i+1] <= 'z' || 'A' <= s[i+1] && s[i+1] <= 'Z') {
		// Go reads only upper-case zone names; a name folds as ASCII
		// (strings.ToUpper would read "pſt" as PST).
		s = s[:i+1] + strings.Map(func(r rune) rune {
			if 'a' <= r && r <= 'z' {
				return r - 'a' + 'A'
			}
			return r
		}, s[i+1:])
	}
	if z, ok := strings.CutSuffix(s, " UT"); ok {
		s = z + " GMT" // RFC 822's name, which Go does not know
	} else if z, ok := strings.CutSuffix(s, " Z"); ok {
		s = z + " GMT"
	} else if n := len(s); n > 2 && s[n-2] == ' ' && 'A' <= s[n-1] && s[n-1] <= 'Y' {
		// RFC 822's military zones, whose signs RFC 1123 §5.2.14 finds
		// used both ways: a zone of a name Go reads, and no offset known.
		s = s[:n-1] + "MIL"
	}
	for _, l := range dateLayouts {
		t, err := time.ParseInLocation(l, s, time.UTC) // not the machine's zone names
		if err != nil {
			continue
		}
		name, _ := t.Zone()
		if name == "" {
			return t, true // a numeric offset
		}
		// A zone name, whose clock reading Go takes as UTC (giving GMT+3
		// an offset only for show): the name says what it means.
		wall := t.UTC()
		h, ok := zoneHours[name]
		if !ok {
			return wall.Add(-earliestZone), true
		}
		return wall.Add(-time.Duration(h) * time.Hour), true
	}
	return time.Time{}, false
}

// FromHeader reads the X-Robots-Tag headers of a response. A directive
// may name a crawler first ("googlebot: noindex, nofollow"): it and the
// directives after it in its header line, up to one that names another
// crawler, apply only to the crawler known by that product token, one of
// tokens, read as a robots.txt user-agent line reads it ("googlebot/2.1"
// is googlebot; "robots" names every crawler, as in a META tag); the
// others apply to every crawler. So a line that a proxy
// joined from several reads as they do, but for a line without a name
// that followed one with.
func FromHeader(h http.Header, tokens ...string) Directives {
	var d Directives
	dates, joins := 0, 0
	for _, v := range h.Values("X-Robots-Tag") {
		who, from := "", 0 // the crawler the directives from v[from:] are for, "" for every one
		prev := ""         // the item before v[i:]
		for i := 0; i < len(v); {
			end := strings.IndexByte(v[i:], ',')
			if end < 0 {
				end = len(v) - i
			}
			item := v[i : i+end]
			// Past maxDates, a name of this crawler's still begins its
			// part: taken for a date's rest, its directives would be
			// another crawler's.
			if name, rest, ok := strings.Cut(item, ":"); ok && isAgentName(name) && (joins >= maxDates && appliesTo(strings.TrimSpace(name), tokens) || !continuesDate(prev, item, &joins)) {
				if who == "" || appliesTo(who, tokens) {
					d.add(v[from:i], &dates)
				}
				who, from = strings.TrimSpace(name), i+len(name)+1
				item = rest // the directive the name leads, which may begin a date
			}
			prev = item
			i += end + 1
		}
		if who == "" || appliesTo(who, tokens) {
			d.add(v[from:], &dates)
		}
	}
	return d
}

// continuesDate reports whether item, a part of an X-Robots-Tag line
// after a comma, is the rest of the unavailable_after date that prev, the
// part before it, began, as add reads them: "unavailable_after: Mon," and
// " 2030-01-01T00:00Z", whose "2030-01-01T00" names no crawler. joins
// counts the dates tried, which maxDates bounds as add's are: past it,
// item is taken for the rest of the date unread, which names no crawler
// whose line would take the directives after it from the others (but for
// one naming this crawler: see FromHeader).
func continuesDate(prev, item string, joins *int) bool {
	name, v, ok := strings.Cut(prev, ":")
	switch {
	case !ok || !ascii.EqualFold(strings.TrimSpace(name), "unavailable_after"):
		return false
	case *joins >= maxDates:
		return true
	}
	*joins++
	if _, ok := parseDate(strings.TrimSpace(v)); ok {
		return false
	}
	_, ok = parseDate(strings.TrimSpace(v + "," + item))
	return ok
}

// isAgentName reports whether s, the text before a colon, names a crawler
// rather than starting a directive that has a value of its own.
func isAgentName(s string) bool {
	s = ascii.LowerString(strings.TrimSpace(s))
	if s == "" || strings.ContainsAny(s, " \t,") { // a blank: a date's rest ("Sun\tJan\t15"), not a name
		return false
	}
	switch s {
	case "unavailable_after", "max-snippet", "max-image-preview", "max-video-preview":
		return false
	}
	return true
}

// appliesTo reports whether directives given for who, a META tag's name
// or the crawler an X-Robots-Tag line names, apply to the crawler known
// by one of tokens: "robots" names every crawler, any other name the
// crawler whose product token it is, case-insensitively, as written or
// with a version or mark after the token, as a robots.txt user-agent line
// reads it ("ExampleBot/1.0" is ExampleBot; "twitter:title" is no
// crawler's name).
func appliesTo(who string, tokens []string) bool {
	names := func(name string) bool {
		return ascii.EqualFold(name, "robots") || slices.ContainsFunc(tokens, func(t string) bool { return ascii.EqualFold(name, t) })
	}
	tok := parse.AgentToken(who)
	return names(who) || tok != "" && len(tok) < len(who) && strings.IndexByte("/* \t", who[len(tok)]) >= 0 && names(tok)
}

// maxHTMLBytes is the most of a page read for META tags, which belong in
// the head, near the top.
const maxHTMLBytes = 1 << 20

// errHeadLimit is the error of a page whose head runs on to maxHTMLBytes:
// the tags after it, if any, went unread.
var errHeadLimit = fmt.Errorf("meta: the head runs on to %d MiB: the tags after it were not read", maxHTMLBytes>>20)

// FromHTML reads the robots META tags of an HTML page: those named
// "robots", which apply to every crawler, and those named for the crawler
// known by one of the product tokens tokens (for example <meta
// name="googlebot" content="noindex">), which apply to it alone; names
// are compared case-insensitively, as [FromHeader] compares them. Reading
// stops where the body begins, as a browser builds the page, or after 1
// MiB; where only text or a stray end tag began the body before </head>
// (a byte-order mark an include left, a word), or an element within a
// <noscript> there (a tracking pixel's <img>, which a browser running
// scripts reads as text), the tags after it, to the first element that
// belongs in no head, still count but for Other: they only restrict; so
// do the tags a browser running scripts puts in the head, where one
// without them does not. A page whose head holds a <template> is read
// whole, to 1 MiB, and built, as far as its head, as
// golang.org/x/net/html's parser builds it (where a template ends turns
// on that). A page is read as UTF-8 or an
// ASCII-compatible charset, or as UTF-16 after its byte-order mark. An error says that r failed, or that the head runs on to 1 MiB,
// so that tags after it may have gone unread (or that a page whose head
// holds a template was one the parser refuses or is not given: elements
// nested over 512 deep, <html> tags copying thousands of attributes
// each); the directives read before it are returned. Malformed HTML is read as
// browsers read it.
func FromHTML(r io.Reader, tokens ...string) (Directives, error) {
	var d Directives
	dates := 0
	err := head(r, func(name, content string, sure bool) {
		switch {
		case !appliesTo(name, tokens):
		case sure:
			d.add(content, &dates)
		default: // past a soft end of the head: what restricts
			var soft Directives
			soft.add(content, &dates)
			soft.Other = nil
			other := d.Other // kept as it is: Merge would copy it for every tag
			d.Other = nil
			d = d.Merge(soft)
			d.Other = other
		}
	})
	return d, err
}

// TDM is what a page's TDMRep META tags say (the W3C TDM Reservation
// Protocol): <meta name="tdm-reservation" content="1"> reserves the
// rights of text and data mining, the EU's machine-readable opt-out, and
// <meta name="tdm-policy" content="https://…"> points to the terms on
// which they are licensed.
type TDM struct {
	// Reservation is "1" (reserved) or "0" (not) when a tag gives one of
	// these values, "1" winning when tags disagree; "" when none does (a
	// value such as "yes" is a protocol error, read as none).
	Reservation string
	// Policy is the content of the first tdm-policy tag, spaces trimmed,
	// whole (a signed URL may run to kilobytes, and a cut one would
	// point elsewhere); "" when there is none.
	Policy string
}

// TDMFromHTML reads the TDMRep META tags of an HTML page as [FromHTML]
// reads the robots tags. Where only text or a stray end tag began the
// body before </head>, a reservation after it still counts, failing
// closed, while a 0 or a policy there, in the body as browsers build
// it, does not.
func TDMFromHTML(r io.Reader) (TDM, error) {
	var t TDM
	policySeen := false
	err := head(r, func(name, content string, sure bool) {
		switch {
		case ascii.EqualFold(name, "tdm-reservation"):
			switch reserved, ok := tdmrep.Reservation(content); {
			case reserved:
				t.Reservation = "1"
			case ok && sure && t.Reservation == "":
				t.Reservation = "0"
			}
		case ascii.EqualFold(name, "tdm-policy") && sure && !policySeen:
			policySeen = true
			t.Policy = strings.TrimSpace(content)
		}
	})
	return t, err
}

// head calls visit with the name, spaces trimmed, and content of each
// <meta> tag with a name in the head of the HTML page r. As browsers
// parse it, the head ends at <body> or at the first element that belongs
// in no head, whether or not </head> came first (a page may leave out
// both tags), at text outside a title, script or style, and at </body>,
// </html> or </br>. The tags a <noscript> holds in the head are read, as
// a browser without scripts reads them, as a crawler is; an element no
// head holds there (a tracking pixel's <img>) ends the head softly (see
// below), since a browser running scripts reads it as the noscript's
// text, the head going on. What a <template> holds is no part of the
// page: its tags are passed over. Once a <noscript> or a <template> came
// in the head, the tags of the head a browser running scripts builds are
// read too, those not read already with sure false (see headWithScripts).
//
// Text or a stray end tag before </head> ends the head softly: the tags
// after it come with sure false, for a caller that fails closed to weigh
// (a byte-order mark or a word an include left in the head moves them to
// the body, where their owner did not put them), and reading goes on to
// the first element that belongs in no head or text after </head>; a
// failure of r or the limit before then is an error, as in the head.
//
// Where a <template> starts in the head, where it ends turns on the
// parser's tree construction (foreign content, a <col>, a <noscript>
// there): head hands the page, as far as it may be read, to the parser
// (see headByParser).
func head(r io.Reader, visit func(name, content string, sure bool)) (err error) {
	var read [][2]string        // the tags visited, which headByParser visits no more
	var seen map[[2]string]bool // every tag visited, which headWithScripts visits no more
	given := visit
	inner := func(name, content string, sure bool) {
		if seen == nil {
			seen = make(map[[2]string]bool)
		}
		seen[[2]string{name, content}] = true
		given(name, content, sure)
	}
	visit = func(name, content string, sure bool) {
		read = append(read, [2]string{name, content})
		inner(name, content, sure)
	}
	lr := &io.LimitedReader{R: r, N: maxHTMLBytes}
	src := &recorded{r: utf16Decoded(lr)}
	z := html.NewTokenizer(src)
	after := false    // past </head>
	sure := true      // no text or stray end tag has ended the head softly
	noscript := false // within a <noscript> in the head
	// scripted: within a <noscript> in the head as a browser running
	// scripts reads it, as text to its </noscript>.
	scripted := false
	// withScripts: a <noscript> or a <template> came in the head, where a
	// browser running scripts may build the head otherwise.
	withScripts := false
	// hidden says a token within a <noscript> in the head, other than
	// its end tag, held "</noscript" (an <iframe> left open, a comment, a
	// value): a browser running scripts, which reads the noscript as text
	// to that end tag, reads what follows, which this reading hid.
	hidden := false
	// end is how much of the page the tokenizer has read: the head a
	// browser running scripts builds ends no later, since outside a
	// <noscript> the two agree on where it ends (the parser, given a
	// page with a <template>, reads it whole).
	end := 0
	defer func() {
		if scripted && err == nil {
			// The head ended, for this reading, within a <noscript> of
			// it, which a browser running scripts reads as text to its
			// end tag, the head going on past it (an end tag such as
			// </body> there): that one reads the rest too, which must
			// be read whole.
			if _, err = io.Copy(io.Discard, src); err != nil {
				err = fmt.Errorf("meta: reading HTML: %w", err)
			} else if lr.N == 0 {
				err = errHeadLimit
			}
			end, hidden = math.MaxInt, true
		}
		// Scripts change only how a <noscript> is read.
		if page := src.b[:min(end, len(src.b))]; withScripts && ascii.ContainsFold(page, "<noscript") {
			serr := headWithScripts(page, func(name, content string, sure bool) {
				if !seen[[2]string{name, content}] {
					given(name, content, sure)
				}
			})
			if err == nil && (end == math.MaxInt || hidden) {
				// A head with a template, which the parser must read, or
				// one hidden without scripts, where a browser running them
				// reads more: an error, as without scripts. Another is
				// read without scripts only.
				err = serr
			}
		}
	}()
	var in atom.Atom // the head element whose text is being read
	for {
		tt := z.Next()
		end += len(z.Raw())
		var a atom.Atom // the tag's element
		var name []byte
		hasAttr := false
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken || tt == html.EndTagToken {
			name, hasAttr = z.TagName()
			a = atom.Lookup(name)
		}
		if scripted && !(tt == html.EndTagToken && a == atom.Noscript) && ascii.ContainsFold(z.Raw(), "</noscript") {
			hidden = true
		}
		if a == atom.Template && tt != html.EndTagToken {
			withScripts, end = true, math.MaxInt
			return headByParser(src, lr, sure, read, inner)
		}
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return fmt.Errorf("meta: reading HTML: %w", err)
			}
			if lr.N == 0 {
				// The head runs on to the limit, </head> or not: whatever
				// follows, if anything (a caller may have read the page
				// that far), went unread.
				return errHeadLimit
			}
			return nil
		case html.StartTagToken, html.SelfClosingTagToken:
			switch {
			case scripted && !afterHead[a] && a != atom.Noscript:
				// An element no head holds (a tracking pixel's <img>) ends
				// the head for a browser without scripts, and is text
				// for one running them: the head ends softly.
				sure = false
			case a == atom.Body || !afterHead[a] && (after || a != atom.Noscript):
				// The body begins, at <body> or at any element that
				// belongs in no head, </head> or not (a page may leave
				// both tags out); <noscript> may stand in the head.
				return nil
			case a == atom.Meta:
				if hasAttr {
					metaTag(z, func(name, content string) { visit(name, content, sure) })
				}
			case a == atom.Noscript:
				noscript, scripted, withScripts = true, true, !after // <noscript/> too: the parser opens one
				z.NextIsNotRawText()                                 // its tags are tags without scripts
			case a == atom.Script || a == atom.Style || a == atom.Title || a == atom.Noframes:
				in = a // its text is not the body's
			}
			if a == atom.Base || a == atom.Script || a == atom.Title {
				noscript = false // the elements of a head that close a noscript there
			}
		case html.EndTagToken:
			if a == atom.Noscript {
				scripted = false
			}
			switch {
			case a == in:
				in = 0
			case noscript && a == atom.Noscript:
				noscript = false
			case noscript && a != atom.Br:
				// Within a <noscript> in the head, browsers pass over
				// every other end tag, </head> too.
			case a == atom.Head:
				after = true
			case after && (a == atom.Body || a == atom.Html || a == atom.Br):
				return nil // the body begins, as at any text
			case a == atom.Body || a == atom.Html || a == atom.Br:
				sure, noscript = false, false
			}
		case html.TextToken:
			if text := bytes.TrimLeft(z.Text(), " \t\n\f\r"); in == 0 && len(text) > 0 {
				if after && !scripted {
					if cutTag(z.Raw()) && z.Next() == html.ErrorToken {
						// Not text: a tag that the end of the page cut.
						if err := z.Err(); !errors.Is(err, io.EOF) {
							return fmt.Errorf("meta: reading HTML: %w", err)
						}
						if lr.N == 0 {
							return errHeadLimit
						}
					}
					return nil
				}
				sure, noscript = false, false
			}
		}
	}
}

// headWithScripts calls visit, with sure false, for each <meta> tag with
// a name in the head that golang.org/x/net/html's parser builds from
// page with scripts on, as a browser running them does (as Google renders
// pages): there a <noscript>'s content is text, and a tag after it stays
// in the head where, without scripts, an element in it (a tracking
// pixel's <img>, an <iframe/> whose text runs on) ends the head. Its
// error is that of a page the parser refuses or is not given (see
// forParser and parseHead).
func headWithScripts(page []byte, visit func(name, content string, sure bool)) error {
	plain, err := forParser(page)
	if err != nil {
		return err
	}
	doc, _, err := parseHead(plain, true) // what it leaves unread is in no head
	if err != nil {
		return fmt.Errorf("meta: reading HTML: %w", err) // elements nested past the parser's bound
	}
	for n := range doc.ChildNodes() {
		for c := range n.ChildNodes() {
			if n.DataAtom == atom.Html && c.Type == html.ElementNode && c.Namespace == "" && c.DataAtom == atom.Head {
				metaTags(c, func(name, content string) { visit(name, content, false) })
			}
		}
	}
	return nil
}

// maxRootCost bounds the attributes golang.org/x/net/html's parser may
// go over for a page's <html> and <body> tags: for each such tag after
// the first, it copies the attributes the root has gathered into a map
// (copyAttributes), some hundred bytes allocated each, so thousands of
// root tags with attributes cost minutes and gigabytes. A page's
// <html lang="en"> and <body class="…">, even written twice, and a few
// thousand more in its scripts' strings, cost a few thousand.
const maxRootCost = 1 << 16

// plainNames maps the name of each formatting element of HTML's parser
// (WHATWG HTML §13.2.4.3) to that of a block element the parser reads as
// it reads the formatting one where the head is concerned but keeps on
// no list: at each text and tag the parser clones the formatting elements
// an end tag, written or implied, closed around, attributes and all, so a
// <b> of thousands of attributes left open before thousands of
// paragraphs cost hundreds of megabytes. A <listing> ends the head and
// leaves foreign content (<svg>, <math>) as <b> does, and its end tag
// closes it, and all it holds, foreign content too, past any block
// (<b><h2>…</b></h2> stays flat), as the parser's adoption agency closes
// a <b>; an <a> stays in foreign content, as a <dir> does, and so does a
// <font> without a color, face or size (see stayingFont). Both are long
// obsolete: a page's own end tags seldom close them; and each <a> closes
// the <dir> before, as the parser's closes the <a> before. Where they
// differ, the head seldom tells: a <listing> closes a <p> open around
// it, and peers nest where formatting elements do not, in the body,
// which the parser is not given (see parseHead), or in a template; but
// a page that leaves an <svg> or <math> open in a template of its head,
// across a formatting element's end tag, may have the parser end that
// foreign content in one and not the other (a <b>'s end tag leaves
// open a block it closed around, a <listing>'s closes it too), and so
// read a <meta> after it in the head of one only.
var plainNames = map[string]string{"a": "dir", "b": "listing", "big": "listing", "code": "listing",
	"em": "listing", "font": "listing", "i": "listing", "nobr": "listing", "s": "listing",
	"small": "listing", "strike": "listing", "strong": "listing", "tt": "listing", "u": "listing"}

// stayingFont is the peer of a <font> without a color, face or size,
// which stays in foreign content as an <hgroup> does; not an <a>'s, whose
// start tags close the one before (see forParser).
const stayingFont = "hgroup"

// strayEnd is the name forParser gives an end tag of a formatting
// element with none open: no element's, so that it closes none.
const strayEnd = "robotstxt-stray"

// tagNames calls yield with each tag name page may hold, as a tokenizer
// reads one wherever it stands (in text, a comment, a script, a value):
// a "<", or "</" (end), then ASCII letters, then a blank, "/", ">" or
// the end of the page; page[at:k] is the name, lower is it in lower
// case, up to six letters (longer names are of no use here), valid only
// during the call.
func tagNames(page []byte, yield func(i, at, k int, end bool, lower []byte)) {
	var lower [7]byte
	for i := bytes.IndexByte(page, '<'); i >= 0; {
		at := i + 1
		end := at < len(page) && page[at] == '/'
		if end {
			at++
		}
		n := 0
		for at+n < len(page) && n < len(lower) && 'a' <= page[at+n]|0x20 && page[at+n]|0x20 <= 'z' {
			lower[n] = page[at+n] | 0x20
			n++
		}
		if k := at + n; n > 0 && n < len(lower) && (k == len(page) || bytes.IndexByte([]byte(" \t\n\f\r/>"), page[k]) >= 0) {
			yield(i, at, k, end, lower[:n])
		}
		j := bytes.IndexByte(page[i+1:], '<')
		if j < 0 {
			return
		}
		i += 1 + j
	}
}

// forParser returns page as golang.org/x/net/html's parser is given it:
// with each start and end tag of a formatting element renamed for its
// peer (see plainNames), so that the parser's tree costs a small multiple
// of the page and differs from the page's in its head only for crafted
// pages (see plainNames). The
// renaming goes by the bytes, a "<" and a name, wherever they are (see
// tagNames): text that looks like such a tag reads as renamed too, which
// no robots or TDMRep META value holds; so are the open elements
// counted, an end tag with none of its name open being a stray (see
// strayEnd). Where foreign content may be, a <font> without a color,
// face or size has the peer stayingFont, and a </font> that of the last
// <font> before it not closed yet. It returns an error, the page
// not to be parsed, where the parser would copy attributes of <html> and
// <body> tags for minutes (see maxRootCost).
func forParser(page []byte) ([]byte, error) {
	var roots, fonts []int // where each <html> or <body>, and <font>, start tag may begin
	foreign := false       // an <svg> or <math> start tag may begin somewhere
	renamed := false
	tagNames(page, func(i, _, _ int, end bool, name []byte) {
		switch string(name) {
		case "html", "body":
			if !end {
				roots = append(roots, i)
			}
		case "svg", "math":
			foreign = foreign || !end
		case "font":
			if !end {
				fonts = append(fonts, i)
			}
		}
		_, ok := plainNames[string(name)]
		renamed = renamed || ok
	})
	if !foreign {
		fonts = nil // every <font> has the one peer
	}
	staying, err := startTags(page, roots, fonts)
	if err != nil || !renamed {
		return page, err
	}
	out := make([]byte, 0, len(page)+len(page)/2)
	copied := 0
	// opened counts, by name, the start tags of formatting elements met
	// less their end tags: an end tag with none open is a stray, which
	// closes nothing, as the parser's does (its peer's would close
	// another's); openFonts lists, for the <font> tags open, whether
	// each stays in foreign content.
	opened := make(map[string]*int, len(plainNames))
	for name := range plainNames {
		opened[name] = new(int)
	}
	var openFonts []bool
	reopen := "</" + plainNames["a"] + "><" + plainNames["a"] // an <a>'s, closing the one before
	tagNames(page, func(i, at, k int, end bool, name []byte) {
		plain, ok := plainNames[string(name)]
		if !ok {
			return
		}
		n := opened[string(name)]
		switch {
		case end && *n == 0:
			plain = strayEnd
		case end:
			*n--
		case string(name) == "a" && *n > 0:
			// An <a> closes the one before, as the parser's does (but
			// within foreign content).
			out = append(append(out, page[copied:i]...), reopen...)
			copied = k
			return
		default:
			*n++
		}
		if string(name) == "font" && foreign && plain != strayEnd {
			stays := false
			if end {
				stays, openFonts = openFonts[len(openFonts)-1], openFonts[:len(openFonts)-1]
			} else {
				stays, staying = staying[0], staying[1:]
				openFonts = append(openFonts, stays)
			}
			if stays {
				plain = stayingFont
			}
		}
		out = append(append(out, page[copied:at]...), plain...)
		copied = k
	})
	return append(out, page[copied:]...), nil
}

// startTags reads, as the parser's tokenizer reads them, the start tags
// that may begin at roots (<html> and <body>) and at fonts (<font>), for
// forParser: it returns an error where the root tags may cost the parser
// more than maxRootCost (each tag that may be one counted, with the
// distinct attributes of all of them for the root's); else whether each
// <font> stays in foreign content, without a color, face or size. A tag
// that may begin within another's attributes is read again: past twice
// the page and 64 KiB read so, it returns an error.
func startTags(page []byte, roots, fonts []int) (staying []bool, err error) {
	r := &tagReader{page: page}
	z := html.NewTokenizer(r)
	// read calls each with the attributes of the tag at at, while each
	// returns true: none where the page ends within it, no tag to the
	// parser either.
	read := func(at int, each func(key []byte) bool) error {
		r.at = at
		tag := z.Next() != html.ErrorToken
		if !tag {
			z = html.NewTokenizer(r) // at the end of the page, this one reads no more
		}
		for more := tag; more; {
			var key []byte
			if key, _, more = z.TagAttr(); len(key) > 0 && !each(key) {
				break
			}
		}
		if r.read > 2*len(page)+1<<16 {
			return fmt.Errorf("%w: tags within tags, which the parser's tokenizer would read again and again", errNotParsed)
		}
		return nil
	}
	keys := map[string]bool{} // of the root tags, each after its tag's initial
	var key []byte
	calls, attrs := 0, 0 // root tags with attributes, and theirs
	for _, at := range roots {
		n := 0
		if err := read(at, func(k []byte) bool {
			key = append(append(key[:0], page[at+1]|0x20), k...)
			if !keys[string(key)] {
				keys[string(key)] = true
			}
			n++
			return (calls+1)*len(keys)+attrs+n <= maxRootCost
		}); err != nil {
			return nil, err
		}
		if n > 0 {
			calls, attrs = calls+1, attrs+n
		}
		if calls*len(keys)+attrs > maxRootCost {
			return nil, fmt.Errorf("%w: <html> and <body> tags whose attributes the parser would copy for minutes", errNotParsed)
		}
	}
	for _, at := range fonts {
		leaves := false
		if err := read(at, func(k []byte) bool {
			leaves = string(k) == "color" || string(k) == "face" || string(k) == "size"
			return !leaves
		}); err != nil {
			return nil, err
		}
		staying = append(staying, !leaves)
	}
	return staying, nil
}

// errNotParsed is the error of forParser: a page not given to the parser.
var errNotParsed = errors.New("meta: reading HTML: not given to the parser")

// tagReader serves a tokenizer the page from at, each Read ending at a
// '>' (or the page's end), so that the tokenizer, having read a tag,
// holds nothing past it and may be set at another; read counts the
// bytes served.
type tagReader struct {
	page     []byte
	at, read int
}

func (r *tagReader) Read(p []byte) (int, error) {
	if r.at >= len(r.page) {
		return 0, io.EOF
	}
	rest := r.page[r.at:]
	if i := bytes.IndexByte(rest, '>'); i >= 0 {
		rest = rest[:i+1]
	}
	n := copy(p, rest)
	r.at += n
	r.read += n
	return n, nil
}

// recorded is a reader that keeps what is read from it.
type recorded struct {
	r io.Reader
	b []byte
}

func (rec *recorded) Read(p []byte) (int, error) {
	n, err := rec.r.Read(p)
	rec.b = append(rec.b, p[:n]...)
	return n, err
}

// headByParser is head for a page whose head holds a <template>: what
// src has given and the rest of it, to the limit lr keeps, is built into
// a tree by golang.org/x/net/html's parser, scripts off, and the <meta>
// tags of its head, outside templates, are visited with sure, false when
// the head had already ended softly; those that open its body, before
// the first element that belongs in no head, are visited with sure false,
// as are those of the rest of a page the parser built only as far as a
// table that began its body (see parseHead).
// The tags head visited before, read, are not visited again. A failure of
// src, or the limit, before the head ends (an element that belongs in no
// head, or, once the body holds something, what ends the head for head:
// see bodyBegun) is an error, after the tags read are visited, as is a
// page the parser refuses (elements nested past its bound) or is not
// given (see forParser).
func headByParser(src *recorded, lr *io.LimitedReader, sure bool, read [][2]string, visit func(name, content string, sure bool)) error {
	_, err := io.Copy(io.Discard, src)
	plain, perr := forParser(src.b)
	if perr != nil {
		return perr
	}
	doc, unread, perr := parseHead(plain, false)
	if perr != nil {
		return fmt.Errorf("meta: reading HTML: %w", perr) // elements nested past the parser's bound
	}
	once := func(sure bool) func(name, content string) {
		return func(name, content string) {
			if len(read) > 0 && read[0] == [2]string{name, content} {
				read = read[1:] // visited as the tokenizer met it
				return
			}
			visit(name, content, sure)
		}
	}
	ended := false  // an element that belongs in no head came
	inBody := false // the parser had left the head for the body
	for n := range doc.ChildNodes() {
		for c := range n.ChildNodes() {
			switch {
			case n.DataAtom != atom.Html || c.Type != html.ElementNode || c.Namespace != "":
			case c.DataAtom == atom.Head:
				metaTags(c, once(sure))
			case c.DataAtom == atom.Body:
				inBody = c.FirstChild != nil
				for b := range c.ChildNodes() {
					if endsHead(b) {
						ended = true
						break
					}
					metaTags(b, once(false))
				}
			}
		}
	}
	// The rest of a page whose body begins with a table the whole page's
	// parse did not build: what it holds may stand before the table.
	laterMetas(unread, once(false))
	switch {
	case ended || err == nil && lr.N > 0 || inBody && bodyBegun(src.b):
	case err != nil:
		return fmt.Errorf("meta: reading HTML: %w", err)
	default:
		return errHeadLimit
	}
	return nil
}

// laterMetas calls visit for each <meta> tag with a name that a
// tokenizer meets in page, a page without foreign content (<svg>,
// <math>), those a template holds too and a <noscript>'s content read
// as tags: every one the parser could put in the body, and more.
func laterMetas(page []byte, visit func(name, content string)) {
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			switch name, hasAttr := z.TagName(); atom.Lookup(name) {
			case atom.Noscript:
				z.NextIsNotRawText()
			case atom.Meta:
				if hasAttr {
					metaTag(z, visit)
				}
			}
		}
	}
}

// endsHead reports whether n, in the body the parser built, is an
// element that belongs in no head, before which head reads the body's
// tags, softly (see headByParser).
func endsHead(n *html.Node) bool {
	return n.Type == html.ElementNode && (n.Namespace != "" || !afterHead[n.DataAtom] && n.DataAtom != atom.Noscript && n.DataAtom != atom.Br)
}

// parseHead builds page, as forParser gives it, into a tree with
// golang.org/x/net/html's parser, scripts on or off, as far as head
// needs: first, when it is at most a quarter of the page, the prefix up
// to the first element a tokenizer meets outside templates that belongs
// in no head (see headEnd), kept if its tree's head is final (see
// headFinal); else the whole page. The parser builds a prefix as it
// builds the page, up to where it ends: the head, and the body up to an
// element that ends the head, are the page's. A page whose body costs
// the parser much (deep blocks, thousands of end tags under them) is
// read as far as its head.
//
// Where the parser refuses the whole page (its bound on nesting: the
// peers of formatting elements nest where those do not, see plainNames),
// the prefix's tree is kept once its body holds an element that ends the
// head, which no later tag changes; where that is a <table>, unread is
// the rest of the page, whose tags the parser may put before it (foster
// parenting), unless it holds <svg> or <math> and a <meta>. The prefix
// is then parsed after the whole page: at most twice the page.
func parseHead(page []byte, scripting bool) (doc *html.Node, unread []byte, err error) {
	parse := func(b []byte) (*html.Node, error) {
		doc, err := html.ParseWithOptions(bytes.NewReader(b), html.ParseOptionEnableScripting(scripting))
		if err == nil && !builtToEnd(doc) {
			// A <template> within foreign content, after which the
			// parser reads no token (its ignoreTheRemainingTokens),
			// where browsers read on.
			return nil, fmt.Errorf("%w: a template within foreign content, after which the parser reads nothing", errNotParsed)
		}
		return doc, err
	}
	// A prefix of at most a quarter of the page, parsed in vain, adds a
	// quarter to the whole page's parse; the tokenizer reads no further.
	var prefix *html.Node
	quarter := page[:len(page)/4]
	n := headEnd(quarter, scripting)
	if n < len(quarter) {
		doc, err := parse(page[:n])
		if err != nil || headFinal(doc) {
			return doc, nil, err
		}
		prefix = doc
	}
	if doc, err = parse(page); err == nil {
		return doc, nil, nil
	}
	if prefix == nil {
		if n = headEnd(page, scripting); n == len(page) {
			return nil, nil, err
		}
		if prefix, _ = parse(page[:n]); prefix == nil {
			return nil, nil, err
		}
	}
	switch b, rest := bodyStart(prefix), page[n:]; {
	case b == nil:
		return nil, nil, err
	case b.DataAtom != atom.Table || !ascii.ContainsFold(rest, "<meta"):
		return prefix, nil, nil
	case ascii.ContainsFold(rest, "<svg") || ascii.ContainsFold(rest, "<math"):
		// Foreign content, where the parser reads raw text and CDATA
		// otherwise than a tokenizer (see laterMetas).
		return nil, nil, err
	default:
		return prefix, rest, nil
	}
}

// headFinal reports whether no more of its page can change the head of
// doc, nor the body's children before the first that ends the head (see
// endsHead), which head reads softly: that child is there and no
// <table>, before which the parser puts what the page writes in it
// (foster parenting), or one closed, another element after it.
func headFinal(doc *html.Node) bool {
	b := bodyStart(doc)
	if b == nil || b.DataAtom != atom.Table {
		return b != nil
	}
	for after := b.NextSibling; after != nil; after = after.NextSibling {
		if after.Type == html.ElementNode {
			return true
		}
	}
	return false
}

// bodyStart returns the first child of doc's body that ends the head
// (see endsHead), or nil.
func bodyStart(doc *html.Node) *html.Node {
	for n := range doc.ChildNodes() {
		for c := range n.ChildNodes() {
			if n.DataAtom != atom.Html || c.DataAtom != atom.Body || c.Namespace != "" {
				continue
			}
			for b := range c.ChildNodes() {
				if endsHead(b) {
					return b
				}
			}
		}
	}
	return nil
}

// headEnd returns where the start tag of the first element that belongs
// in no head, nor is the body, ends in page, as a tokenizer reads it
// outside templates, and but for the table parts the parser ignores in a
// body (a stray <tr>); len(page) when there is none. Without scripting,
// a <noscript>'s content is read as tags: a head's ends at the first
// element that belongs in no head, where the parser closes it and begins
// the body, but one opened once the body has begun (after <body>, text,
// a table part the parser ignores, or after </head>, where a <noscript>
// begins the body) holds its elements, and the first after its </noscript> is
// where the body has its own. The parser leaves the head for the body
// there, but where it ends a template otherwise (see parseHead).
func headEnd(page []byte, scripting bool) int {
	z := html.NewTokenizer(bytes.NewReader(page))
	templates, noscripts, at := 0, 0, 0
	body, ended := false, false // the parser has begun the body; </head> came
	head := false               // within a head's <noscript> (scripts off)
	var in atom.Atom            // the element whose raw text is being read
	for {
		tt := z.Next()
		at += len(z.Raw())
		var a atom.Atom
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken || tt == html.EndTagToken {
			name, _ := z.TagName()
			a = atom.Lookup(name)
		}
		start, end := tt == html.StartTagToken || tt == html.SelfClosingTagToken, tt == html.EndTagToken
		if head && templates == 0 && (start && !inHeadNoscript[a] || end && a == atom.Br) {
			head = false // the parser closes it, and reads the tag in the head
		}
		switch {
		case tt == html.ErrorToken:
			return len(page)
		case start && a == atom.Noscript:
			switch {
			case scripting && templates == 0:
				in = a
			case scripting:
			case (body || ended) && templates == 0:
				// After </head>, a <noscript> begins the body, which
				// holds it.
				body = true
				noscripts++
				fallthrough
			default:
				z.NextIsNotRawText()
				head = head || templates == 0 && !body // one within is ignored
			}
		case start && a == atom.Template:
			templates++
		case end && a == atom.Template:
			templates = max(templates-1, 0)
		case templates > 0:
		case end && a == atom.Noscript && head:
			head = false
		case end && a == atom.Noscript && in != a:
			noscripts = max(noscripts-1, 0)
		case start && (a == atom.Script || a == atom.Style || a == atom.Title || a == atom.Noframes):
			in = a
		case end && a == in:
			in = 0
		case tt == html.TextToken:
			if in == 0 && len(bytes.TrimLeft(z.Text(), " \t\n\f\r")) > 0 {
				body, head = true, false // the parser closes a head's noscript, and the head
			}
		case end && a == atom.Head:
			ended = ended || !head // ignored within a head's noscript
		case start && (a == atom.Body || a == atom.Br || ignoredInBody[a]), end && (a == atom.Br || !head && (a == atom.Body || a == atom.Html)):
			body = true
		case start && noscripts == 0 && !afterHead[a] && !ignoredInBody[a]:
			return at
		}
	}
}

// bodyBegun reports whether page, outside its templates, holds what ends
// the head for head, which the parser's tree does not show: a <body> tag,
// or text, </body>, </html> or </br> after </head>. The tokenizer reads
// some pages otherwise than the parser (a self-closing <script/> or
// <template/>, a <noscript> in the head, foreign content: see head), so
// headByParser asks it only once the parser has put something in the
// body, which it never leaves for the head again.
func bodyBegun(page []byte) bool {
	z := html.NewTokenizer(bytes.NewReader(page))
	after := false // past </head>
	templates := 0
	var in atom.Atom // the element whose raw text is being read
	for {
		tt := z.Next()
		var a atom.Atom
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken || tt == html.EndTagToken {
			name, _ := z.TagName()
			a = atom.Lookup(name)
		}
		start := tt == html.StartTagToken || tt == html.SelfClosingTagToken // the parser opens a <script/>
		switch {
		case tt == html.ErrorToken:
			return false
		case start && a == atom.Noscript:
			z.NextIsNotRawText() // its tags are tags without scripts, in a template too
		case start && a == atom.Template:
			templates++
		case tt == html.EndTagToken && a == atom.Template:
			templates = max(templates-1, 0)
		case templates > 0:
		case start && (a == atom.Script || a == atom.Style || a == atom.Title || a == atom.Noframes):
			in = a
		case tt == html.EndTagToken && a == in:
			in = 0
		case start && a == atom.Body:
			return true
		case tt == html.EndTagToken && a == atom.Head:
			after = true
		case !after:
		case tt == html.EndTagToken && (a == atom.Body || a == atom.Html || a == atom.Br):
			return true
		case tt == html.TextToken && in == 0:
			// Text, but for a tag the end of the page cut ("<met").
			if text := bytes.TrimLeft(z.Text(), " \t\n\f\r"); len(text) > 0 {
				return !cutTag(z.Raw()) || z.Next() != html.ErrorToken
			}
		}
	}
}

// cutTag reports whether raw, a text token's bytes, is what the tokenizer
// leaves of a tag the end of its input cut: "<" or "</", after blanks.
func cutTag(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\n\f\r")
	return string(raw) == "<" || string(raw) == "</"
}

// metaTags calls visit for each HTML <meta> with a name in the tree at n,
// in order, passing over what templates hold.
func metaTags(n *html.Node, visit func(name, content string)) {
	if n.Type != html.ElementNode && n.Type != html.DocumentNode || n.Namespace != "" || n.DataAtom == atom.Template {
		return
	}
	if n.DataAtom == atom.Meta {
		var name, content string
		seen := 0 // bit 1: name, bit 2: content; the first of each counts
		for _, at := range n.Attr {
			switch {
			case at.Namespace == "" && at.Key == "name" && seen&1 == 0:
				name, seen = at.Val, seen|1
			case at.Namespace == "" && at.Key == "content" && seen&2 == 0:
				content, seen = at.Val, seen|2
			}
		}
		if name = strings.TrimSpace(name); name != "" {
			visit(name, content)
		}
	}
	for c := range n.ChildNodes() {
		metaTags(c, visit)
	}
}

// utf16Decoded returns r decoded to UTF-8 when it starts with a UTF-16
// byte-order mark, which says the page's encoding whatever else does;
// else r, which the tokenizer reads as ASCII-compatible.
func utf16Decoded(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	bom, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(bom, []byte("\xFF\xFE")), bytes.HasPrefix(bom, []byte("\xFE\xFF")):
		return transform.NewReader(br, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder())
	case string(bom) == "\xEF\xBB\xBF":
		_, _ = br.Discard(3) // no text, which would begin the body
	}
	return br
}

// afterHead are the start tags that do not begin the body when they come
// after </head> (WHATWG HTML, "the after head insertion mode"): the
// head's elements, which the HTML parser puts back in the head, and html
// and head, which it ignores there.
var afterHead = map[atom.Atom]bool{
	atom.Base: true, atom.Basefont: true, atom.Bgsound: true, atom.Link: true, atom.Meta: true,
	atom.Noframes: true, atom.Script: true, atom.Style: true, atom.Template: true, atom.Title: true,
	atom.Html: true, atom.Head: true,
}

// inHeadNoscript are the start tags the HTML parser reads (or ignores)
// within a head's <noscript> without scripts (WHATWG HTML, "the in head
// noscript insertion mode"): any other closes it, as </br> does; other
// end tags are ignored there.
var inHeadNoscript = map[atom.Atom]bool{
	atom.Basefont: true, atom.Bgsound: true, atom.Link: true, atom.Meta: true, atom.Noframes: true,
	atom.Style: true, atom.Head: true, atom.Noscript: true, atom.Html: true,
}

// ignoredInBody are the start tags the HTML parser ignores in a body
// outside tables (WHATWG HTML, "the in body insertion mode"): a stray
// <tr> begins no element of the body.
var ignoredInBody = map[atom.Atom]bool{
	atom.Caption: true, atom.Col: true, atom.Colgroup: true, atom.Frame: true, atom.Tbody: true,
	atom.Td: true, atom.Tfoot: true, atom.Th: true, atom.Thead: true, atom.Tr: true,
}

// metaTag calls visit for the <meta> tag z is at, if it has a name.
func metaTag(z *html.Tokenizer, visit func(name, content string)) {
	var name, content []byte
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "name":
			name = v
		case "content":
			content = v
		}
		if !more {
			break
		}
	}
	if n := strings.TrimSpace(string(name)); n != "" {
		visit(n, string(content))
	}
}

// builtToEnd reports whether the parser built doc to the end of its page:
// its root holds a body or a frameset, which the parser implies at the
// latest at the end, unless it stopped reading tokens before.
func builtToEnd(doc *html.Node) bool {
	for n := range doc.ChildNodes() {
		if n.Type != html.ElementNode || n.DataAtom != atom.Html {
			continue
		}
		for c := range n.ChildNodes() {
			if c.Type == html.ElementNode && c.Namespace == "" && (c.DataAtom == atom.Body || c.DataAtom == atom.Frameset) {
				return true
			}
		}
	}
	return false
}
