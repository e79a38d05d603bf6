package robotstxt_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/robotsgate/robotstxt"
)

// The example robots.txt of draft-ietf-aipref-attach: every crawler but
// ExampleBot may fetch all but /never/, and may train AI models only on
// what is under /ai-ok/.
func ExampleRobots_Usage() {
	r := robotstxt.Parse([]byte(`User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`))
	for _, path := range []string{"/test", "/never/test", "/ai-ok/test"} {
		fmt.Printf("%-12s crawl: %-5v train-ai: %v\n", path, r.Allowed("OtherBot", path), r.Usage("OtherBot", path).Pref("train-ai"))
	}
	fmt.Println("ExampleBot, train-ai:", r.Usage("ExampleBot", "/test").Pref("train-ai"))
	// Output:
	// /test        crawl: true  train-ai: n
	// /never/test  crawl: false train-ai: unknown
	// /ai-ok/test  crawl: true  train-ai: y
	// ExampleBot, train-ai: y
}

// An AI crawler fetches pages through the Transport and asks of each
// response whether it may train on it: robots.txt's Content-Usage rules
// for the URL and the response's own Content-Usage header (and
// X-Robots-Tag noai) combine, a "no" from either winning.
func ExampleTransport_Usage() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\n")
		case "/open/licensed.html":
			w.Header().Set("Content-Usage", "train-ai=n") // this page is not
			fmt.Fprint(w, "licensed elsewhere")
		default:
			fmt.Fprint(w, "page")
		}
	}))
	defer site.Close()

	rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleAIBot/1.0 (+https://example.com/bot)"))
	defer rc.Close()
	rt := robotstxt.NewTransport(rc, nil)
	hc := &http.Client{Transport: rt, Timeout: 10 * time.Second}

	for _, path := range []string{"/open/essay.html", "/open/licensed.html", "/about.html"} {
		resp, err := hc.Get(site.URL + path)
		if err != nil {
			fmt.Println(path, "error:", err)
			continue
		}
		resp.Body.Close()
		train := rt.Usage(resp).Pref("train-ai") == robotstxt.PrefYes
		fmt.Printf("%s: may train: %v\n", path, train)
	}
	// Output:
	// /open/essay.html: may train: true
	// /open/licensed.html: may train: false
	// /about.html: may train: false
}
