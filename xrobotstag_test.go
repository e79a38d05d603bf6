package robotstxt

import (
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/meta"
)

func TestTransportDirectives(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/tagged.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Robots-Tag", "noarchive")
		w.Header().Add("X-Robots-Tag", "examplebot: nofollow")
		w.Header().Add("X-Robots-Tag", "otherbot: noindex")
		_, _ = io.WriteString(w, "page")
	})
	_, tr, hc := newTestTransport(t)
	resp, err := hc.Get(s.URL + "/tagged.html")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	d := tr.headerDirectives(resp)
	if !d.Index() || d.Follow() || !d.NoArchive {
		t.Errorf("Directives = %+v, want index, nofollow, noarchive", d)
	}
	if d := tr.headerDirectives(nil); !d.Index() || !d.Follow() {
		t.Errorf("Directives(nil) = %+v, want the zero value", d)
	}
}

// TestTransportPageDirectives reads a page for a crawler known by a
// Mozilla-style User-Agent: the header and the META tags named for its
// product token and for robots all count, merged.
func TestTransportPageDirectives(t *testing.T) {
	checkLeaks(t)
	const head = `<!doctype html><html><head><title>x</title>
<meta name="XBot" content="noindex">
<meta name="robots" content="nofollow, max-snippet:20">
<meta name="OtherBot" content="noarchive">
</head><body><meta name="robots" content="noimageindex">`
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Robots-Tag", "xbot: nosnippet, unavailable_after: 2030-01-02")
		w.Header().Add("X-Robots-Tag", "otherbot: notranslate")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, head)
	})
	s.route("/plain.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, head)
	})
	s.route("/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no sniffing by the server
		_, _ = io.WriteString(w, head)
	})
	c := newTestClient(t, WithUserAgent("Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)"))
	tr := NewTransport(c, nil)
	hc := &http.Client{Transport: tr}
	read := func(path string) (*http.Response, []byte) {
		t.Helper()
		resp, err := hc.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}

	resp, body := read("/page.html")
	want := meta.Directives{NoIndex: true, NoFollow: true, NoSnippet: true,
		UnavailableAfter: time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC), Other: []string{"max-snippet:20"}}
	if got := tr.PageDirectives(resp, body); !reflect.DeepEqual(got, want) {
		t.Errorf("PageDirectives = %+v,\nwant %+v", got, want)
	}
	if got := tr.headerDirectives(resp); got.NoIndex || got.NoFollow || !got.NoSnippet {
		t.Errorf("Directives (header only) = %+v", got)
	}
	// META tags past the prefix read are not seen.
	padded := append([]byte("<html><head>"+strings.Repeat(" ", 1<<20)), body...)
	if got := tr.PageDirectives(resp, padded); got.NoIndex || !got.NoSnippet {
		t.Errorf("PageDirectives read past the first mebibyte: %+v", got)
	}

	// A body that is not HTML has no META tags; one without a
	// Content-Type is read when it looks like HTML.
	if resp, body := read("/plain.txt"); tr.PageDirectives(resp, body).NoIndex {
		t.Error("META tags read from a text/plain body")
	}
	if resp, body := read("/untyped"); resp.Header.Get("Content-Type") != "" || !tr.PageDirectives(resp, body).NoIndex {
		t.Errorf("META tags not read from an untyped HTML body (Content-Type %q)", resp.Header.Get("Content-Type"))
	}
	if d := tr.PageDirectives(nil, body); !reflect.DeepEqual(d, meta.Directives{}) {
		t.Errorf("PageDirectives(nil, …) = %+v, want the zero value", d)
	}
}

// TestTransportUsage checks what Transport.Usage combines: robots.txt's
// Content-Usage rules for the request's URL, the Content-Usage header,
// and the older signals mapped to train-ai=n.
func TestTransportUsage(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: ExampleBot\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y\nContent-Usage: /gallery/ train-ai=y\n")
	routes := []struct {
		path    string
		headers []string // name, value, …: each a line of its own
		want    string
	}{
		{"/blog/post", nil, "train-ai=y"},
		{"/page", []string{"Content-Usage", "search=y"}, "search=y"},
		{"/blog/header-n", []string{"Content-Usage", "train-ai=n"}, "train-ai=n"},
		{"/blog/two-lines", []string{"Content-Usage", "search=n", "Content-Usage", "train-ai=y;q=1"}, "train-ai=y, search=n"},
		{"/blog/bad-header", []string{"Content-Usage", "Train-AI=n"}, "train-ai=y"},
		{"/blog/noai", []string{"X-Robots-Tag", "noai"}, "train-ai=n"},
		{"/blog/noai-for-us", []string{"X-Robots-Tag", "ExampleBot: noindex, NoAI"}, "train-ai=n"},
		{"/blog/noai-for-others", []string{"X-Robots-Tag", "otherbot: noai"}, "train-ai=y"},
		{"/gallery/cat.png", []string{"Content-Type", "image/png", "X-Robots-Tag", "noimageai"}, "train-ai=n"},
		{"/gallery/index.html", []string{"Content-Type", "text/html", "X-Robots-Tag", "noimageai"}, "train-ai=y"},
		{"/blog/tdm", []string{"Tdm-Reservation", "1"}, "train-ai=n"},
		{"/blog/tdm-not-reserved", []string{"tdm-reservation", "0"}, "train-ai=y"},
		{"/page/all", []string{"Content-Usage", "search=y", "X-Robots-Tag", "noai", "Tdm-Reservation", "1"}, "search=y, train-ai=n"},
	}
	for _, r := range routes {
		s.route(r.path, func(w http.ResponseWriter, _ *http.Request) {
			for i := 0; i+1 < len(r.headers); i += 2 {
				w.Header().Add(r.headers[i], r.headers[i+1])
			}
			_, _ = io.WriteString(w, "content")
		})
	}
	_, tr, hc := newTestTransport(t)
	for _, r := range routes {
		resp, err := hc.Get(s.URL + r.path)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if got := tr.Usage(resp); got.statement() != r.want {
			t.Errorf("%s: Usage %q, want %q", r.path, got, r.want)
		}
	}

	// A response for a URL robots.txt disallows (fetched by SkipRobots)
	// has the header's preferences only.
	s.route("/private/x", serve(200, "secret", "Content-Usage", "search=y"))
	req, _ := http.NewRequestWithContext(SkipRobots(t.Context()), http.MethodGet, s.URL+"/private/x", nil)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got := tr.Usage(resp); got.statement() != "search=y" {
		t.Errorf("disallowed URL: Usage %q, want the header's search=y", got)
	}
	resp.Request = nil
	if got := tr.Usage(resp); got.statement() != "search=y" {
		t.Errorf("a response without its request: Usage %q, want the header's search=y", got)
	}
	if got := tr.Usage(nil); got != (Usage{}) {
		t.Errorf("Usage(nil) = %q", got)
	}
}
