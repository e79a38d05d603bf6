package redisstore

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

// TestBreakerPerNode: failures of one node open its breaker only, and the
// log names the node.
func TestBreakerPerNode(t *testing.T) {
	var out lockedBuffer
	set := newBreakerSet(logthrottle.NewLogger(slog.New(slog.NewTextHandler(&out, nil))))
	a, b := set.get("10.0.0.1:6379"), set.get("10.0.0.2:6379")
	if set.get("10.0.0.1:6379") != a {
		t.Fatal("a second get of a node gave another breaker")
	}
	for range tripAfter {
		if ok, _ := a.allow(); !ok {
			t.Fatal("a closed breaker refused a call")
		}
		a.done(false, failed, errors.New("connection refused"))
	}
	if ok, _ := a.allow(); ok {
		t.Errorf("after %d failures the node's breaker let a call through", tripAfter)
	}
	for _, other := range []*breaker{b, set.get("")} {
		if ok, _ := other.allow(); !ok {
			t.Errorf("breaker of %q refused a call after another node failed", other.node)
		}
	}
	if want := "node=10.0.0.1:6379"; !strings.Contains(out.String(), want) {
		t.Errorf("log %q does not name the node (%s)", out.String(), want)
	}
}

// TestBreakerSetBounded: a Store that has met more node addresses than
// maxBreakers keeps no more breakers than that.
func TestBreakerSetBounded(t *testing.T) {
	set := newBreakerSet(logthrottle.NewLogger(quietLogger))
	for i := range 3 * maxBreakers {
		set.get(fmt.Sprintf("10.0.%d.%d:6379", i/256, i%256))
		if n := len(set.nodes); n > maxBreakers {
			t.Fatalf("%d breakers after %d nodes, want at most %d", n, i+1, maxBreakers)
		}
	}
}
