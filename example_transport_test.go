package robotstxt_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/robotsgate/robotstxt"
)

func ExampleNewTransport() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/go/secret":
			http.Redirect(w, r, "/private/secret.html", http.StatusFound)
		default:
			w.Header().Set("X-Robots-Tag", "noindex")
			fmt.Fprint(w, "hello")
		}
	}))
	defer site.Close()

	rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"))
	defer rc.Close()
	rt := robotstxt.NewTransport(rc, nil)
	hc := &http.Client{Transport: rt, Timeout: 10 * time.Second}

	for _, path := range []string{"/hello.html", "/private/secret.html", "/go/secret"} {
		resp, err := hc.Get(site.URL + path)
		var de *robotstxt.DisallowedError
		switch {
		case errors.As(err, &de):
			fmt.Printf("%s: refused by line %d (Disallow: %s)\n", path, de.Decision.Rule.Line, de.Decision.Rule.Pattern)
		case err != nil:
			fmt.Println(path, "error:", err)
		default:
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			fmt.Printf("%s: %q, index: %v\n", path, body, rt.PageDirectives(resp, body).Index())
		}
	}

	// A fetch the crawler is entitled to make skips robots.txt.
	req, _ := http.NewRequestWithContext(robotstxt.SkipRobots(context.Background()),
		http.MethodGet, site.URL+"/private/secret.html", nil)
	if resp, err := hc.Do(req); err == nil {
		fmt.Println("skipped check:", resp.Status)
		resp.Body.Close()
	}
	// Output:
	// /hello.html: "hello", index: false
	// /private/secret.html: refused by line 2 (Disallow: /private/)
	// /go/secret: refused by line 2 (Disallow: /private/)
	// skipped check: 200 OK
}

func ExampleNewClientTransport() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.1\n")
			return
		}
		fmt.Fprint(w, "hello")
	}))
	defer site.Close()

	// The Client fetches robots.txt through the Transport, which passes
	// those fetches through unchecked.
	rc, rt := robotstxt.NewClientTransport(nil,
		[]robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0")})
	defer rc.Close()
	hc := &http.Client{Transport: rt, Timeout: 10 * time.Second}

	for _, path := range []string{"/a.html", "/b.html", "/private/c.html"} {
		resp, err := hc.Get(site.URL + path) // /b.html waits 0.1 s after /a.html
		if err != nil {
			fmt.Println(path, errors.Is(err, robotstxt.ErrDisallowed))
			continue
		}
		resp.Body.Close()
		fmt.Println(path, resp.Status)
	}
	// Output:
	// /a.html 200 OK
	// /b.html 200 OK
	// /private/c.html true
}
