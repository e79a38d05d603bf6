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
