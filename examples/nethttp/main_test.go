package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRunObeysRobots checks on the servers' side that no disallowed page
// was requested, directly or through a redirect, that the allowed ones
// were, and that main's pages arrived its Crawl-delay apart.
func TestRunObeysRobots(t *testing.T) {
	s := newSites()
	defer s.Close()
	var out strings.Builder
	res, err := run(&out, s)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.requested(s.main), []string{"/robots.txt", "/", "/old/report.html", "/members", "/draft.html"}; !slices.Equal(got, want) {
		t.Errorf("main was asked for %q, want %q", got, want)
	}
	if got, want := s.requested(s.other), []string{"/robots.txt", "/about.html"}; !slices.Equal(got, want) {
		t.Errorf("other was asked for %q, want %q", got, want)
	}
	if want := []string{"main/", "main/draft.html", "other/about.html"}; !slices.Equal(res.Fetched, want) {
		t.Errorf("fetched %q, want %q", res.Fetched, want)
	}
	if want := []string{"main/private/report.html", "main/private/report.html", "other/members/list.html"}; !slices.Equal(res.Disallowed, want) {
		t.Errorf("refused %q, want %q", res.Disallowed, want)
	}
	if !strings.Contains(out.String(), "main/draft.html              200 OK, index false, follow false") {
		t.Errorf("output lacks the X-Robots-Tag of draft.html:\n%s", out.String())
	}
	var pages []time.Time
	for _, a := range s.arrivals(s.main) {
		if a.path != "/robots.txt" {
			pages = append(pages, a.at)
		}
	}
	for i := 1; i < len(pages); i++ {
		if gap := pages[i].Sub(pages[i-1]); gap < 200*time.Millisecond {
			t.Errorf("main's requests %d and %d arrived %v apart, want >= its Crawl-delay of 0.2 s", i-1, i, gap)
		}
	}
}
