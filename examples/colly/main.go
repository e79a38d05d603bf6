// Command colly crawls a small web site on 127.0.0.1 with colly, obeying
// robots.txt through a robotstxt.Transport: the collector sends the
// Client's User-Agent and uses the Transport,
//
//	c := colly.NewCollector(colly.UserAgent(userAgent))
//	c.WithTransport(robotstxt.NewTransport(rc, nil, robotstxt.WithNoWait()))
//
// after which no request colly sends, nor any redirect it follows, reaches
// a page robots.txt disallows or comes before its site's Crawl-delay has
// passed. Three things about colly: it marks a URL visited before sending
// it, so a request refused with a [robotstxt.PacedError] or a
// [robotstxt.DeferredError] is sent again with Request.Retry at its
// RetryAt (this demo waits only for one a few seconds off, and reports
// one further off for a frontier to requeue), not with Visit (which
// would skip it), its URL set to the
// error's when it followed a redirect, which a redirect handler notes
// (where the redirect led: sent again, the first URL would spend the turn
// on the redirect again, for ever); its
// SetProxy, SetProxyFunc and SetClient replace the Transport, so a proxy
// goes on the Transport's next RoundTripper instead; and its own
// robots.txt handling stays off (IgnoreRobotsTxt, its default), since its
// fetches of robots.txt would go through the Transport as pages, paced,
// and so does CheckHead, since a paced HEAD cancels the GET that was to
// follow it, which Request.Retry does not send.
//
// The site's pages link to disallowed pages directly and through
// same-host and cross-host redirects, and to a partner site with a
// Crawl-delay; the demo prints what was fetched, what was refused and
// why. It needs no network access.
// It is a module of its own, so that the library does not depend on
// colly.
//
//	cd examples/colly && go run .
package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/robotsgate/robotstxt"
)

// userAgent is what both the collector and the robots.txt Client send, so
// that sites see one crawler; robots.txt groups match it as "DemoCrawler".
const userAgent = "DemoCrawler/1.0 (+https://github.com/robotsgate/robotstxt)"

func main() {
	log.SetFlags(0)
	log.SetPrefix("colly example: ")
	w := newWeb()
	_, err := run(os.Stdout, w)
	w.Close()
	if err != nil {
		log.Fatal(err)
	}
}

// result is what a crawl did, with site addresses replaced by names.
type result struct {
	Fetched    []string // URLs fetched
	Disallowed []string // URLs robots.txt disallowed (the hop refused)
	Deferred   []string // URLs refused while robots.txt was unreachable or being fetched, or paced to a far turn; maybe fetched later
	Paced      []string // URLs sent again at their site's next turn
}

// maxPaced is how many times a URL, or the redirect chain first sent for
// one, may be paced or deferred before the crawl gives it up: a URL paced
// again and again is most likely a redirect loop through a site with a
// Crawl-delay, which comes back to it at every turn, maybe as a new URL
// each time.
const maxPaced = 10

// maxDeferWait is the longest the demo waits to send again a request
// deferred by a robots.txt that failed, or paced: a crawler with a
// frontier puts it back there for its RetryAt, minutes away for a
// robots.txt that stays down (see robotstxt.WithMaxBackoff), hours for a
// long Crawl-delay or a Retry-After hold; the demo ends before that, and
// waits inside OnError, which holds the whole collector. One
// deferred while robots.txt was not yet read (Failures 0) is
// sent again at once: it waits for that fetch, within its own timeout.
const maxDeferWait = 5 * time.Second

// A hop is a redirect the request in flight followed, as net/http sends
// it: where it led (without a fragment, as a PacedError's URL), the
// method, and, for a 307 or 308, a copy of the body.
type hop struct {
	url     *url.URL
	method  string
	getBody func() (io.ReadCloser, error) // nil: sent without a body
	from    string                        // the URL the request was sent for, as a PacedError names it
}

// sendAgain readies r, refused unsent for refused (the URL of a
// PacedError or DeferredError), to be sent again at the error's RetryAt,
// counting in paces the times each URL was refused, when counted, and
// those of the URL its chain of redirects was first sent for, origin, if
// any (a chain may name a new URL at every hop); false once either has
// been refused maxPaced times. What was refused is r itself, which goes
// again as it was, unless h, the last redirect r followed, says
// otherwise: then the hop, as net/http sent it (maybe to r's own URL
// again, as a form's 303 does; sent again, r would post the form again),
// without r's credentials: the error does not say whether the redirects
// passed through another host, after which net/http sends none, even
// back on r's host. Request.Retry sends only a body it can rewind, so
// another is read into memory: the Transport refused r unread.
func sendAgain(r *colly.Request, refused, origin string, h *hop, paces map[string]int, counted bool) (bool, error) {
	u, err := url.Parse(refused)
	if err != nil {
		return false, err
	}
	if counted {
		if paces[refused]++; origin != "" && origin != refused {
			paces[origin]++
		}
		if paces[refused] > maxPaced || paces[origin] > maxPaced {
			return false, nil
		}
	}
	if h != nil {
		r.URL, r.Method, r.Body = u, h.method, nil
		for _, k := range []string{"Authorization", "Proxy-Authorization", "Cookie"} {
			r.Headers.Del(k)
		}
		if h.getBody != nil {
			body, err := h.getBody()
			if err != nil {
				return false, err
			}
			defer body.Close()
			r.Body = body
		}
	}
	if _, ok := r.Body.(io.ReadSeeker); r.Body != nil && !ok {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return false, err
		}
		r.Body = bytes.NewReader(b)
	}
	return true, nil
}

// userinfo matches the scheme and userinfo of a URL in a text.
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s"]*@`)

// redacted returns err's text without the userinfo of the URLs it names:
// colly's errors quote a redirect's URL whole, password and all. A text
// with an '@' left (a Location net/http could not parse, a password of a
// blank, a quote or a slash) is withheld, as the library withholds it.
func redacted(err error) string {
	if text := userinfo.ReplaceAllString(err.Error(), "$1"); !strings.Contains(text, "@") {
		return text
	}
	return "(error withheld: it may hold credentials)"
}

// run crawls w from its start page and prints one line per page to out.
func run(out io.Writer, w *web) (result, error) {
	var res result
	c, done := newCollector(out, w.name, &res)
	defer done()
	if err := c.Visit(w.start.URL + "/"); err != nil {
		return res, fmt.Errorf("start page: %w", err)
	}
	fmt.Fprintf(out, "\n%d fetched, %d refused by robots.txt, %d deferred, %d paced\n",
		len(res.Fetched), len(res.Disallowed), len(res.Deferred), len(res.Paced))
	return res, nil
}

// newCollector returns a collector that obeys robots.txt, prints one line
// per request to out, URLs as name gives them, and records in res what
// came of each; done closes what it holds.
func newCollector(out io.Writer, name func(string) string, res *result) (_ *colly.Collector, done func()) {
	// A URL is printed by name, without its userinfo: a PacedError's
	// URL keeps it, to be put back, which a log must not show.
	shown := func(u string) string {
		if p, err := url.Parse(u); err == nil && p.User != nil {
			p.User = nil
			u = p.String()
		}
		return name(u)
	}
	paces := map[string]int{} // by PacedError URL (OnError runs in turn: no lock)
	// origins holds, by the URL of a hop sent again, the URL its chain
	// of redirects was first sent for, whose refusals its answer ends
	// too (a colly Context is shared by every page a page links to).
	origins := map[string]string{}
	next := &http.Transport{}
	rc := robotstxt.NewClient(robotstxt.WithUserAgent(userAgent),
		robotstxt.WithHTTPClient(&http.Client{Transport: next}))

	c := colly.NewCollector(colly.UserAgent(userAgent), colly.MaxDepth(4))
	c.WithTransport(robotstxt.NewTransport(rc, next, robotstxt.WithNoWait()))
	// last is the last redirect the request in flight followed, if any:
	// what a refusal was of (the collector is not Async: no lock).
	// Beside noting it, the handler keeps colly's own rules, which it
	// replaces: at most ten hops, no Authorization to another host.
	var last *hop
	c.OnRequest(func(*colly.Request) { last = nil })
	c.SetRedirectHandler(func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return http.ErrUseLastResponse
		}
		if req.URL.Host != via[len(via)-1].URL.Host {
			req.Header.Del("Authorization")
		}
		u, from := *req.URL, *via[0].URL
		u.Fragment, u.RawFragment = "", ""
		from.Fragment, from.RawFragment = "", ""
		last = &hop{url: &u, method: req.Method, from: from.String()}
		if req.Body != nil && req.Body != http.NoBody {
			last.getBody = req.GetBody
		}
		return nil
	})

	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		_ = e.Request.Visit(e.Attr("href")) // errors are reported by OnError
	})
	// ended forgets the refusals of r's URL, and of the URLs its
	// redirects came from (of this request, and of the one it was a hop
	// of, sent again): its chain ended (answered, refused by robots.txt
	// or colly, deferred past this run, failed), no loop.
	ended := func(r *colly.Request) {
		fetched := *r.URL
		fetched.Fragment, fetched.RawFragment = "", ""
		sent := []string{fetched.String()}
		if last != nil {
			sent = append(sent, last.from)
		}
		for _, u := range sent {
			delete(paces, u)
			if o := origins[u]; o != "" {
				delete(paces, o)
				for hop, from := range origins { // the chain's hops sent again
					if from == o {
						delete(paces, hop)
						delete(origins, hop)
					}
				}
			}
		}
	}
	c.OnResponse(func(r *colly.Response) {
		ended(r.Request)
		u := shown(r.Request.URL.String())
		res.Fetched = append(res.Fetched, u)
		fmt.Fprintf(out, "FETCHED   %s\n", u)
	})
	errs := 0 // OnError's calls, to tell the errors Retry returns that it saw
	c.OnError(func(r *colly.Response, err error) {
		errs++
		if r.StatusCode != 0 { // a status colly counts as an error (a 304, a 404)
			ended(r.Request)
		}
		from := shown(r.Request.URL.String())
		via := func(u string) string { // of a refused URL u
			if u == from {
				return ""
			}
			return " (redirected from " + from + ")"
		}
		// ready readies r's request, refused unsent, to be sent again
		// (colly marked it visited), unless it has been too often, when
		// counted.
		ready := func(refused string, counted bool) bool {
			// As colly will send it, and its answer name it: its parser
			// writes a query's ' as %27, for one.
			if u, err := url.Parse(r.Request.AbsoluteURL(refused)); err == nil && u.Scheme != "" {
				refused = u.String()
			}
			origin := ""
			if last != nil {
				origin = cmp.Or(origins[last.from], last.from)
			}
			again, err := sendAgain(r.Request, refused, origin, last, paces, counted)
			if again && err == nil && origin != "" {
				origins[refused] = origin
			}
			switch {
			case err != nil:
				fmt.Fprintf(out, "ERROR     %s: %s\n", from, redacted(err))
			case !again:
				fmt.Fprintf(out, "ERROR     %s: refused %d times: a redirect loop? given up\n", shown(refused), maxPaced)
			}
			return again && err == nil
		}
		// resend sends the request ready made at retryAt: a frontier
		// would requeue it; this demo waits.
		resend := func(refused string, retryAt time.Time) {
			time.Sleep(time.Until(retryAt))
			if c.MaxRequests > 0 {
				c.MaxRequests++ // colly counted the request the Transport refused
			}
			// The request's own errors come to OnError too; colly's
			// checks, which come before it is sent, do not.
			n := errs
			if err := r.Request.Retry(); err != nil && errs == n {
				fmt.Fprintf(out, "ERROR     %s: Request.Retry: %v\n", shown(refused), err)
			}
		}
		// unsent gives back the request colly counted against
		// MaxRequests when the Transport refused it unsent: not a hop
		// of it (refused, when it is not r's own URL), which was sent.
		unsent := func(refused string) {
			if c.MaxRequests > 0 && via(shown(refused)) == "" {
				c.MaxRequests++
			}
		}
		var de *robotstxt.DisallowedError
		var deferred *robotstxt.DeferredError
		var paced *robotstxt.PacedError
		switch {
		case errors.As(err, &paced) && time.Until(paced.RetryAt) > maxDeferWait:
			// A turn past the demo's end (a long Crawl-delay, a
			// Retry-After hold): a frontier requeues it; slept out
			// here, it would stop the whole (not Async) collector.
			ended(r.Request)
			unsent(paced.URL)
			u := shown(paced.URL)
			res.Deferred = append(res.Deferred, u)
			fmt.Fprintf(out, "PACED     %s%s: next turn at %s; not fetched, come back later\n",
				u, via(u), paced.RetryAt.Format(time.TimeOnly))
		case errors.As(err, &paced):
			if !ready(paced.URL, true) {
				unsent(paced.URL)
				return
			}
			res.Paced = append(res.Paced, shown(paced.URL))
			fmt.Fprintf(out, "PACED     %s: sent again at the site's next turn\n", shown(paced.URL))
			resend(paced.URL, paced.RetryAt)
		case errors.As(err, &de):
			ended(r.Request)
			unsent(de.URL)
			u := shown(de.URL)
			res.Disallowed = append(res.Disallowed, u)
			fmt.Fprintf(out, "REFUSED   %s%s: robots.txt line %d, Disallow: %s\n",
				u, via(u), de.Decision.Rule.Line, de.Decision.Rule.Pattern)
		case errors.As(err, &deferred):
			u := shown(deferred.URL)
			res.Deferred = append(res.Deferred, u)
			why := "unreachable"
			switch {
			case deferred.Failures == 0:
				why = "not yet read"
			case deferred.Status != 0:
				why = fmt.Sprintf("answered %d", deferred.Status)
			}
			// Not yet read, its fetch still under way (until RetryAt at
			// most): a try that does not count towards giving up.
			reading := deferred.Failures == 0 && time.Now().Before(deferred.RetryAt)
			later := deferred.Failures > 0 && time.Until(deferred.RetryAt) > maxDeferWait
			if later {
				ended(r.Request)
			}
			if later || !ready(deferred.URL, !reading) {
				unsent(deferred.URL)
				fmt.Fprintf(out, "DEFERRED  %s%s: robots.txt %s; not fetched, come back later\n", u, via(u), why)
				return
			}
			at := deferred.RetryAt
			if deferred.Failures == 0 {
				at = time.Now()
			}
			fmt.Fprintf(out, "DEFERRED  %s%s: robots.txt %s; sent again at %s\n", u, via(u), why, at.Format(time.TimeOnly))
			resend(deferred.URL, at)
		default:
			ended(r.Request)
			fmt.Fprintf(out, "ERROR     %s: %s\n", from, redacted(err))
		}
	})
	return c, func() {
		rc.Close()
		next.CloseIdleConnections()
	}
}
