package robotstxt

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// cannedRoundTripper answers every request with the same response, with
// no I/O: the baseline the Transport's overhead is measured against.
type cannedRoundTripper struct{ resp *http.Response }

func (c cannedRoundTripper) RoundTrip(*http.Request) (*http.Response, error) { return c.resp, nil }

// BenchmarkTransport measures a RoundTrip through the Transport, warm
// cache, no pacing (ExampleBot's group in benchRules has no crawl-delay),
// against next alone in the same run.
func BenchmarkTransport(b *testing.B) {
	c, u := warmClient(b)
	u = strings.Replace(u, "/search/results", "/search/about", 1) // allowed
	next := cannedRoundTripper{&http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		b.Fatal(err)
	}
	tr := NewTransport(c, next)
	if _, err := tr.RoundTrip(req); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		rt   http.RoundTripper
	}{{"next", next}, {"Transport", tr}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.rt.RoundTrip(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
