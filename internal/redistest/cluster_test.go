package redistest

import (
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/longtest"
)

// TestClusterFailover forms a 3-master cluster with a replica each, kills
// the master of one slot and waits for its replica to take over.
func TestClusterFailover(t *testing.T) {
	longtest.Gate(t)
	start := time.Now()
	c := StartCluster(t, 3, 1, 500*time.Millisecond)
	t.Logf("formed in %v", time.Since(start))
	if n := len(c.Addrs()); n != 6 {
		t.Fatalf("%d nodes, want 6", n)
	}
	slot := c.KeySlot("{probe}")
	old := c.MasterOf(slot)
	c.Kill(old)
	killed := time.Now()
	promoted := c.AwaitPromotion(slot, old)
	t.Logf("slot %d: %s killed, %s promoted after %v", slot, old, promoted, time.Since(killed))
	if promoted == old {
		t.Fatalf("the killed master %s is still named", old)
	}
	if got := c.MasterOf(slot); got != promoted {
		t.Fatalf("MasterOf(%d) = %s after the promotion, want %s", slot, got, promoted)
	}
}
