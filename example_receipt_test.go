package robotstxt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

// The README's crawler loop, run against two sites on loopback: it keeps
// the pages no signal reserves and skips those that one kind of signal
// does, writing a receipt for each. (The README's crawler connects
// through PublicOnly, which refuses loopback.)
func ExampleTransport_Receipt() {
	page := func(headers []string, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i+1 < len(headers); i += 2 {
				w.Header().Set(headers[i], headers[i+1])
			}
			fmt.Fprint(w, body)
		}
	}
	html := []string{"Content-Type", "text/html"}
	mux := http.NewServeMux()
	mux.Handle("/robots.txt", page(nil, "User-agent: *\nAllow: /\nContent-Usage: /rule/ train-ai=n\n"))
	mux.Handle("/free.html", page(html, "<p>train on me</p>"))
	mux.Handle("/old.html", http.RedirectHandler("/new.html", http.StatusMovedPermanently)) // kept where it led
	mux.Handle("/new.html", page(html, "<p>moved, and free</p>"))
	mux.Handle("/rule/page.html", page(html, "reserved by a Content-Usage rule"))
	mux.Handle("/content-usage.html", page([]string{"Content-Usage", "train-ai=n"}, "reserved by a header"))
	mux.Handle("/x-robots-tag.html", page([]string{"X-Robots-Tag", "noai"}, "reserved by X-Robots-Tag"))
	mux.Handle("/robots-meta.html", page(html, `<html><head><meta name="robots" content="noai"></head>`))
	mux.Handle("/tdm-header.html", page([]string{"tdm-reservation", "1"}, "reserved by TDMRep"))
	mux.Handle("/tdm-meta.html", page(html, `<html><head><meta name="tdm-reservation" content="1"></head>`))
	site := httptest.NewServer(mux)
	defer site.Close()
	signal := httptest.NewServer(page(nil, "Content-Signal: search=yes, ai-train=no\nUser-agent: *\nAllow: /\n"))
	defer signal.Close()
	tdm := http.NewServeMux()
	tdm.Handle("/robots.txt", page(nil, "User-agent: *\nAllow: /\n"))
	tdm.Handle("/.well-known/tdmrep.json", page(nil, `[{"location": "/", "tdm-reservation": 1}]`))
	tdm.Handle("/file.html", page(html, "reserved by the site's tdmrep.json"))
	tdmSite := httptest.NewServer(tdm)
	defer tdmSite.Close()

	ctx := context.Background()
	f := &frontier{}
	for _, p := range []string{"/free.html", "/old.html", "/rule/page.html", "/content-usage.html", "/x-robots-tag.html",
		"/robots-meta.html", "/tdm-header.html", "/tdm-meta.html"} {
		f.Add(site.URL + p)
	}
	f.Add(signal.URL + "/page.html")
	f.Add(tdmSite.URL + "/file.html")
	var receiptLog bytes.Buffer

	rc, rt := robotstxt.NewClientTransport(nil,
		[]robotstxt.Option{robotstxt.WithUserAgent(userAgent), robotstxt.WithTDMRep()},
		robotstxt.WithNoWait())
	defer rc.Close()
	hc := &http.Client{Transport: rt, Timeout: 30 * time.Second}
	receipts := json.NewEncoder(&receiptLog) // an append-only file

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

	fmt.Println("kept:", strings.ReplaceAll(strings.Join(f.kept, " "), site.URL, ""))
	dec := json.NewDecoder(&receiptLog)
	for {
		var r struct {
			URL     string
			Usage   map[string]string
			Signals []struct{ Source, Where string }
		}
		if err := dec.Decode(&r); err != nil {
			break
		}
		from := "-"
		if len(r.Signals) > 0 {
			from = r.Signals[0].Source + " (" + r.Signals[0].Where + ")"
		}
		path := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(r.URL, site.URL), signal.URL), tdmSite.URL)
		fmt.Printf("%-20s train-ai=%-2s %s\n", path, r.Usage["train-ai"], from)
	}
	// Output:
	// kept: /free.html /new.html
	// /free.html           train-ai=   -
	// /new.html            train-ai=   -
	// /rule/page.html      train-ai=n  robots.txt (line 3)
	// /content-usage.html  train-ai=n  content-usage-header (Content-Usage)
	// /x-robots-tag.html   train-ai=n  x-robots-tag (X-Robots-Tag)
	// /robots-meta.html    train-ai=n  robots-meta (robots)
	// /tdm-header.html     train-ai=n  tdm-header (tdm-reservation)
	// /tdm-meta.html       train-ai=n  tdm-meta (tdm-reservation)
	// /page.html           train-ai=n  content-signal (line 1)
	// /file.html           train-ai=n  tdmrep.json (entry 1)
}

// TestReceiptExampleRunsTheREADMELoop checks that ExampleTransport_Receipt
// runs the README crawler's loop as written.
func TestReceiptExampleRunsTheREADMELoop(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	here, err := os.ReadFile("example_receipt_test.go")
	if err != nil {
		t.Fatal(err)
	}
	loop := regexp.MustCompile("(?s)\n(for u, ok := f.Next\\(ctx\\).*?\n})\n```").FindSubmatch(readme)
	if loop == nil {
		t.Fatal("no crawler loop in the README")
	}
	var code []string
	for _, l := range strings.Split(string(here), "\n") {
		code = append(code, strings.Join(strings.Fields(l), " "))
	}
	if !containsLines(code, strings.Split(string(loop[1]), "\n")) {
		t.Errorf("the README's loop is not in ExampleTransport_Receipt:\n%s", loop[1])
	}
}
