package robotstxt_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/robotsgate/robotstxt"
)

func ExampleWithNoWait() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.1\n")
			return
		}
		fmt.Fprint(w, "hello")
	}))
	defer site.Close()

	rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"))
	defer rc.Close()
	hc := &http.Client{Transport: robotstxt.NewTransport(rc, nil, robotstxt.WithNoWait())}

	// A frontier crawler: a URL whose site's turn is not free goes back
	// to the queue for its RetryAt, and the worker takes the next one.
	queue := []string{"/a.html", "/b.html"}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		resp, err := hc.Get(site.URL + path)
		var pe *robotstxt.PacedError
		switch {
		case errors.As(err, &pe):
			fmt.Println(path, "paced:", errors.Is(err, robotstxt.ErrPaced), "within the crawl-delay:", time.Until(pe.RetryAt) <= 100*time.Millisecond)
			time.Sleep(time.Until(pe.RetryAt)) // a real crawler fetches other sites meanwhile
			queue = append(queue, path)
		case err != nil:
			fmt.Println(path, err)
		default:
			resp.Body.Close()
			fmt.Println(path, resp.Status)
		}
	}
	// Output:
	// /a.html 200 OK
	// /b.html paced: true within the crawl-delay: true
	// /b.html 200 OK
}

func ExampleTransport_PageDirectives() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		w.Header().Set("X-Robots-Tag", "xbot: noarchive")
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head>
<meta name="XBot" content="noindex">
<meta name="robots" content="nofollow">
</head><body>…</body></html>`)
	}))
	defer site.Close()

	// The product token, XBot, comes from the User-Agent.
	rc := robotstxt.NewClient(robotstxt.WithUserAgent("Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)"))
	defer rc.Close()
	rt := robotstxt.NewTransport(rc, nil)
	resp, err := (&http.Client{Transport: rt}).Get(site.URL + "/page.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	d := rt.PageDirectives(resp, body)
	fmt.Println("index:", d.Index(), "follow:", d.Follow(), "archive:", !d.NoArchive)
	// Output: index: false follow: false archive: false
}

func ExampleTransport_Stats() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 60\n")
			return
		}
		fmt.Fprint(w, "hello")
	}))
	defer site.Close()

	rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"))
	defer rc.Close()
	rt := robotstxt.NewTransport(rc, nil, robotstxt.WithNoWait())
	hc := &http.Client{Transport: rt}
	for _, path := range []string{"/a.html", "/private/b.html", "/c.html"} {
		if resp, err := hc.Get(site.URL + path); err == nil {
			resp.Body.Close()
		}
	}
	s := rt.Stats()
	fmt.Printf("sent %d, disallowed %d, paced %d, waited %v\n", s.Sent, s.Disallowed, s.Paced, s.Waited)
	// Output: sent 1, disallowed 1, paced 1, waited 0s
}
