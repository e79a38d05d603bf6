package crawltest

import (
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
)

// TestProbesTellSitesApart: a real Client answers every probe of every
// site right from the Web, and an answer taken from another site's
// robots.txt fails a probe's Check.
func TestProbesTellSitesApart(t *testing.T) {
	check := func(w *Web, host string) []error {
		hc := w.HTTPClient()
		t.Cleanup(hc.CloseIdleConnections)
		c := robotstxt.NewClient(robotstxt.WithHTTPClient(hc), robotstxt.WithUserAgent("crawltest/1.0"))
		defer c.Close()
		var errs []error
		for _, p := range Probes(host) {
			if err := p.Check(t.Context(), c); err != nil {
				errs = append(errs, err)
			}
		}
		return errs
	}
	w := NewWeb(t)
	for _, h := range Hosts("probe", 3) {
		if errs := check(w, h); len(errs) > 0 {
			t.Errorf("%s: %v", h, errs)
		}
	}
	crossed := NewWeb(t, WithBody([]byte(robotsFor("probe1.test"))))
	errs := check(crossed, "probe0.test")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "private-probe0.test/page) = true, want false") {
		t.Errorf("probe0.test answered from probe1.test's robots.txt: %v, want its private path wrongly allowed", errs)
	}
}
