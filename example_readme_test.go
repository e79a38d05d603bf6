package robotstxt_test

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/botauth"
	"github.com/robotsgate/robotstxt/redisstore"
)

// The README's code, compiled here: TestREADMECode checks that each of
// its Go blocks stands in this file as written.

const userAgent = "ExampleBot/1.0 (+https://example.com/bot)"

// Example_client is the README's first example.
func Example_client() {
	ctx := context.Background()
	c := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"))
	defer c.Close()

	ok, err := c.Allowed(ctx, "https://example.com/some/page")
	var de *robotstxt.DeferredError
	switch {
	case errors.As(err, &de): // robots.txt unreachable: come back at de.RetryAt
	case err != nil: // a bad URL, a closed Client, ctx ended
	case !ok: // disallowed
	}
}

// A frontier is the crawl's queue of URLs, as the README's crawler uses
// it: a real one orders URLs by site and time. kept are the URLs kept.
type frontier struct{ urls, kept []string }

func (f *frontier) Next(ctx context.Context) (string, bool) {
	if len(f.urls) == 0 || ctx.Err() != nil {
		return "", false
	}
	u := f.urls[0]
	f.urls = f.urls[1:]
	return u, true
}

func (f *frontier) Retry(u string, at time.Time) { f.urls = append(f.urls, u) }
func (f *frontier) GiveUp(u string)              {}
func (f *frontier) Add(us ...string)             { f.urls = append(f.urls, us...) }
func (f *frontier) Keep(u string, body []byte)   { f.kept = append(f.kept, u) }

// links returns the links of a page (a real crawler parses its HTML).
func links(u string, body []byte) []string { return nil }

// receiptLog is where the README's crawler keeps its receipts: a real
// one appends to a file.
var receiptLog io.Writer = io.Discard

// Example_crawler is the README's complete crawler.
func Example_crawler() {
	ctx := context.Background()
	f := &frontier{urls: []string{"https://example.com/"}}
	rc, rt := robotstxt.NewClientTransport(robotstxt.PublicOnly(nil),
		[]robotstxt.Option{robotstxt.WithUserAgent(userAgent), robotstxt.WithTDMRep()},
		robotstxt.WithNoWait())
	defer rc.Close()
	hc := &http.Client{Transport: rt, Timeout: 30 * time.Second}
	receipts := json.NewEncoder(receiptLog) // an append-only file

	for u, ok := f.Next(ctx); ok; u, ok = f.Next(ctx) {
		resp, err := hc.Get(u)
		var pe *robotstxt.PacedError
		var de *robotstxt.DeferredError
		switch {
		case errors.As(err, &pe): // the turn is not free yet (a frontier caps the tries)
			f.Retry(pe.URL, pe.RetryAt)
		case errors.Is(err, robotstxt.ErrNonPublic): // a private address, for good
			f.GiveUp(u)
		case errors.As(err, &de) && de.Failures >= 5: // robots.txt down too long
			f.GiveUp(u)
		case errors.As(err, &de): // robots.txt unreachable for now
			f.Retry(de.URL, de.RetryAt)
		case errors.Is(err, robotstxt.ErrDisallowed), err != nil:
			f.GiveUp(u)
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
			resp.Body.Close() // its Retry-After (a second without one) holds the site: come back, where redirects led
			f.Retry(resp.Request.URL.String(), time.Now())
		case resp.StatusCode >= 400: // no page to keep
			resp.Body.Close()
			f.GiveUp(u)
		default:
			page := resp.Request.URL.String() // where redirects led
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			d := rt.PageDirectives(resp, body) // X-Robots-Tag and robots META
			if d.Follow() {
				f.Add(links(page, body)...)
			}
			r := rt.Receipt(resp, body) // what every signal says of the page
			if err := receipts.Encode(r); err != nil {
				log.Fatal(err) // a compliance log has no gaps
			}
			if d.Index() && r.Usage.Pref("train-ai") != robotstxt.PrefNo {
				f.Keep(page, body)
			}
		}
	}
}

// Example_signed is the README's crawler that signs its requests.
func Example_signed() {
	_, key, _ := ed25519.GenerateKey(nil)
	signer, err := botauth.NewSigner(key, "https://crawler.example/.well-known/http-message-signatures-directory")
	if err != nil {
		log.Fatal(err)
	}
	rc, rt := robotstxt.NewClientTransport(botauth.NewTransport(robotstxt.PublicOnly(nil), signer),
		[]robotstxt.Option{robotstxt.WithUserAgent(userAgent)})
	defer rc.Close()
	_ = &http.Client{Transport: rt}
}

// Example_body is the README's example of a body the caller has.
func Example_body() {
	body := []byte("User-agent: *\nDisallow: /some/\nSitemap: https://example.com/sitemap.xml\nLicense: https://example.com/license.xml\n")
	r := robotstxt.Parse(body)
	r.Allowed("ExampleBot", "/some/page")    // the URL as given, already escaped
	d := r.Check("ExampleBot", "/some/page") // and the deciding rule
	fmt.Println(d.Allowed, d.Rule.Line, r.Sitemaps(), r.Licenses())
	// Output:
	// false 2 [https://example.com/sitemap.xml] [https://example.com/license.xml]
}

// Example_fleet is the README's Client of a fleet.
func Example_fleet() {
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"redis-1:6379"}})
	rc := robotstxt.NewClient(robotstxt.WithStore(redisstore.New(rdb)), robotstxt.WithUserAgent(userAgent))
	defer rc.Close()
}

// TestREADMECode checks that every Go block of the README stands in this
// file, line for line with runs of white space read as one space, so
// that the README shows code that compiles.
func TestREADMECode(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	here, err := os.ReadFile("example_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var code []string
	sc := bufio.NewScanner(strings.NewReader(string(here)))
	for sc.Scan() {
		code = append(code, strings.Join(strings.Fields(sc.Text()), " "))
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 5 {
		t.Fatalf("%d Go blocks in the README; the test expects more", len(blocks))
	}
	for _, b := range blocks {
		lines := strings.Split(strings.TrimSpace(b[1]), "\n")
		if !containsLines(code, lines) {
			t.Errorf("README block not in example_readme_test.go:\n%s", b[1])
		}
	}
}

// containsLines reports whether want's lines stand one after the other
// in have, white space aside, skipping blank lines.
func containsLines(have, want []string) bool {
	var w []string
	for _, l := range want {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			w = append(w, l)
		}
	}
	for i := range have {
		j, k := 0, i
		for ; j < len(w) && k < len(have); k++ {
			if have[k] == "" {
				continue
			}
			if have[k] != w[j] {
				break
			}
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}
