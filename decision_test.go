package robotstxt

import (
	"context"
	"testing"
)

// TestDecisionComparable: Decisions compare with ==, and two checks of one
// URL answered from the same cached robots.txt are equal.
func TestDecisionComparable(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t)
	ctx := context.Background()
	first, err := c.Check(ctx, s.URL+"/private/x")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Check(ctx, s.URL+"/private/x"); again != first {
		t.Errorf("two checks from one cached robots.txt differ:\n%+v\n%+v", first, again)
	}
	if other, _ := c.Check(ctx, s.URL+"/public"); other == first {
		t.Error("the checks of two paths decided by different rules are equal")
	}
	if first.CrawlDelay != 0 {
		t.Errorf("CrawlDelay = %v for a robots.txt that gives none, want 0", first.CrawlDelay)
	}
}
