package redistest

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// clusterWait bounds every wait of a Cluster: forming, and a replica's
// promotion. A promotion takes the node timeout plus one to two seconds;
// forming takes redis-cli a second or two.
const clusterWait = 30 * time.Second

// A Cluster is a Redis Cluster of redis-server processes on loopback,
// started for one test. Every node is killed, and its directory removed,
// when the test ends, whether it passed or not.
type Cluster struct {
	tb    testing.TB
	nodes []*Server
}

// StartCluster starts masters × (1 + replicas) cluster nodes, joins them
// with redis-cli --cluster create (the slots split evenly between the
// masters, each with its replicas) and waits until every node sees the
// cluster whole and every replica is linked to its master. nodeTimeout is
// the cluster-node-timeout: how long a master may stay silent before the
// others count it as failed; a replica is promoted one to two seconds
// after that. Extra arguments are passed to every redis-server. It needs
// redis-cli as well as redis-server, and skips the test without them
// unless RequireEnv is "1".
func StartCluster(tb testing.TB, masters, replicas int, nodeTimeout time.Duration, extraArgs ...string) *Cluster {
	tb.Helper()
	cli := lookPath(tb, "redis-cli")
	c := &Cluster{tb: tb}
	args := append([]string{
		"--cluster-node-timeout", strconv.FormatInt(nodeTimeout.Milliseconds(), 10),
		// A master waits 5 s by default for more replicas before a
		// diskless full sync; here they all ask at once.
		"--repl-diskless-sync-delay", "0",
	}, extraArgs...)
	for range masters * (1 + replicas) {
		c.nodes = append(c.nodes, StartNode(tb, args...))
	}
	ctx, cancel := context.WithTimeout(context.Background(), clusterWait)
	defer cancel()
	create := append([]string{"--cluster", "create"}, c.Addrs()...)
	create = append(create, "--cluster-replicas", strconv.Itoa(replicas), "--cluster-yes")
	if out, err := exec.CommandContext(ctx, cli, create...).CombinedOutput(); err != nil {
		tb.Fatalf("redistest: redis-cli --cluster create: %v\n%s", err, out)
	}
	c.await(ctx, "the cluster to form", func(ctx context.Context) error { return c.formed(ctx, masters, replicas) })
	return c
}

// Addrs returns the addresses of every node, dead or alive: the seed
// list a client would be configured with.
func (c *Cluster) Addrs() []string {
	addrs := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		addrs[i] = n.Addr()
	}
	return addrs
}

// KeySlot returns the hash slot of key, as the cluster computes it.
func (c *Cluster) KeySlot(key string) int {
	c.tb.Helper()
	var slot int64
	err := c.onLive(context.Background(), func(ctx context.Context, rdb *redis.Client) error {
		var err error
		slot, err = rdb.ClusterKeySlot(ctx, key).Result()
		return err
	})
	if err != nil {
		c.tb.Fatalf("redistest: CLUSTER KEYSLOT %q: %v", key, err)
	}
	return int(slot)
}

// MasterOf returns the address of the master that a live node names for
// slot.
func (c *Cluster) MasterOf(slot int) string {
	c.tb.Helper()
	var master string
	err := c.onLive(context.Background(), func(ctx context.Context, rdb *redis.Client) error {
		var err error
		master, err = slotMaster(ctx, rdb, slot)
		return err
	})
	if err != nil {
		c.tb.Fatalf("redistest: finding the master of slot %d: %v", slot, err)
	}
	return master
}

// SlotRanges returns the ranges of slots, first and last, whose master a
// live node says master is.
func (c *Cluster) SlotRanges(master string) [][2]int {
	c.tb.Helper()
	var ranges [][2]int
	err := c.onLive(context.Background(), func(ctx context.Context, rdb *redis.Client) error {
		//lint:ignore SA1019 the ClusterClient under test routes by CLUSTER SLOTS (see slotMaster)
		slots, err := rdb.ClusterSlots(ctx).Result()
		if err != nil {
			return err
		}
		ranges = nil
		for _, s := range slots {
			if len(s.Nodes) > 0 && s.Nodes[0].Addr == master {
				ranges = append(ranges, [2]int{s.Start, s.End})
			}
		}
		return nil
	})
	if err != nil {
		c.tb.Fatalf("redistest: finding the slots of %s: %v", master, err)
	}
	return ranges
}

// Kill kills the node at addr with SIGKILL and waits for it to exit.
func (c *Cluster) Kill(addr string) {
	c.tb.Helper()
	for _, n := range c.nodes {
		if n.Addr() == addr {
			n.Kill()
			return
		}
	}
	c.tb.Fatalf("redistest: no cluster node at %s", addr)
}

// AwaitPromotion waits until NewMaster names a master for slot, and
// returns it. It fails the test after clusterWait.
func (c *Cluster) AwaitPromotion(slot int, dead string) string {
	c.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clusterWait)
	defer cancel()
	var master string
	c.await(ctx, fmt.Sprintf("a new master of slot %d", slot), func(ctx context.Context) error {
		var err error
		master, err = c.NewMaster(ctx, slot, dead)
		return err
	})
	return master
}

// NewMaster returns the master that every live node names for slot, once
// they agree, it is not dead, it says it is a master and every live node
// sees the cluster state ok; otherwise an error says what is missing. It
// asks each node once, and may be called from any goroutine.
func (c *Cluster) NewMaster(ctx context.Context, slot int, dead string) (string, error) {
	master := ""
	for _, n := range c.live() {
		rdb := admin(n.Addr())
		m, err := slotMaster(ctx, rdb, slot)
		if err == nil {
			err = stateOK(ctx, rdb)
		}
		_ = rdb.Close()
		switch {
		case err != nil:
			return "", fmt.Errorf("%s: %w", n.Addr(), err)
		case m == dead:
			return "", fmt.Errorf("%s still names %s", n.Addr(), dead)
		case master != "" && m != master:
			return "", fmt.Errorf("nodes name %s and %s", master, m)
		}
		master = m
	}
	rdb := admin(master)
	defer rdb.Close()
	role, err := rdb.Do(ctx, "ROLE").Slice()
	if err != nil || len(role) == 0 || role[0] != "master" {
		return "", fmt.Errorf("%s: ROLE = %v, %v", master, role, err)
	}
	return master, nil
}

// formed reports nil once every node sees the cluster state ok and all
// nodes, and every master has its replicas linked.
func (c *Cluster) formed(ctx context.Context, masters, replicas int) error {
	seen := 0
	for _, n := range c.nodes {
		rdb := admin(n.Addr())
		err := stateOK(ctx, rdb)
		var info string
		if err == nil {
			info, err = rdb.ClusterInfo(ctx).Result()
		}
		var role []any
		if err == nil {
			role, err = rdb.Do(ctx, "ROLE").Slice()
		}
		_ = rdb.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", n.Addr(), err)
		}
		if want := "cluster_known_nodes:" + strconv.Itoa(len(c.nodes)); !strings.Contains(info, want) {
			return fmt.Errorf("%s: not %s yet", n.Addr(), want)
		}
		if len(role) == 3 && role[0] == "master" {
			linked, _ := role[2].([]any)
			if len(linked) != replicas {
				return fmt.Errorf("%s: %d replicas linked, want %d", n.Addr(), len(linked), replicas)
			}
			seen++
		}
	}
	if seen != masters {
		return fmt.Errorf("%d masters, want %d", seen, masters)
	}
	return nil
}

// await polls cond until it returns nil, failing the test with cond's
// last error when ctx ends.
func (c *Cluster) await(ctx context.Context, what string, cond func(context.Context) error) {
	c.tb.Helper()
	for {
		err := cond(ctx)
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			c.tb.Fatalf("redistest: timed out waiting for %s: %v", what, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// live returns the nodes still running.
func (c *Cluster) live() []*Server {
	var live []*Server
	for _, n := range c.nodes {
		if n.running() {
			live = append(live, n)
		}
	}
	return live
}

// onLive runs fn on a client of each live node in turn until it succeeds.
func (c *Cluster) onLive(ctx context.Context, fn func(context.Context, *redis.Client) error) error {
	err := fmt.Errorf("no live node")
	for _, n := range c.live() {
		rdb := admin(n.Addr())
		err = fn(ctx, rdb)
		_ = rdb.Close()
		if err == nil {
			return nil
		}
	}
	return err
}

// admin returns a client on one node, which fails at once when the node
// is down.
func admin(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr: addr, DialerRetries: 1, MaxRetries: -1,
		DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second,
	})
}

// slotMaster returns the master that rdb's node names for slot. It asks
// CLUSTER SLOTS, which Redis 7 deprecates for CLUSTER SHARDS, because
// go-redis's ClusterClient routes by CLUSTER SLOTS: the tests want the
// view of the client they test.
func slotMaster(ctx context.Context, rdb *redis.Client, slot int) (string, error) {
	//lint:ignore SA1019 the ClusterClient under test routes by CLUSTER SLOTS
	slots, err := rdb.ClusterSlots(ctx).Result()
	if err != nil {
		return "", err
	}
	for _, s := range slots {
		if s.Start <= slot && slot <= s.End && len(s.Nodes) > 0 {
			return s.Nodes[0].Addr, nil
		}
	}
	return "", fmt.Errorf("slot %d not served", slot)
}

// stateOK reports nil when rdb's node sees the cluster state ok.
func stateOK(ctx context.Context, rdb *redis.Client) error {
	info, err := rdb.ClusterInfo(ctx).Result()
	if err != nil {
		return err
	}
	if !strings.Contains(info, "cluster_state:ok") {
		return fmt.Errorf("cluster state not ok")
	}
	return nil
}
