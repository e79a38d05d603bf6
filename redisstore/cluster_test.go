package redisstore

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// newOneNodeCluster starts a one-node Redis Cluster owning all 16384
// slots and returns a cluster client on it.
func newOneNodeCluster(t *testing.T) *redis.ClusterClient {
	t.Helper()
	srv := redistest.StartNode(t)
	node := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer node.Close()
	if err := node.ClusterAddSlotsRange(t.Context(), 0, 16383).Err(); err != nil {
		t.Fatalf("CLUSTER ADDSLOTSRANGE: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(node.ClusterInfo(t.Context()).Val(), "cluster_state:ok") {
		if time.Now().After(deadline) {
			t.Fatal("one-node cluster never reached cluster_state:ok")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{srv.Addr()}})
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// TestClusterSlotsAndCommands: on Redis Cluster, an authority's value and
// lease keys hash to one slot (so a future multi-key script stays legal and
// a resharding moves them together), and every Store operation works
// through a ClusterClient.
func TestClusterSlotsAndCommands(t *testing.T) {
	longtest.Gate(t)
	cc := newOneNodeCluster(t)
	ctx := t.Context()
	for _, prefix := range []string{defaultPrefix, "fleet-a:"} {
		s := New(cc, WithPrefix(prefix), WithLogger(quietLogger))
		for _, auth := range []string{authority, "http://[::1]:8080", "https://xn--bcher-kva.example:443", "http://a:80"} {
			v := cc.ClusterKeySlot(ctx, s.valueKey(auth)).Val()
			l := cc.ClusterKeySlot(ctx, s.leaseKey(auth)).Val()
			tag := cc.ClusterKeySlot(ctx, auth).Val()
			if v != l || v != tag {
				t.Errorf("prefix %q, %s: value slot %d, lease slot %d, authority slot %d; want all equal", prefix, auth, v, l, tag)
			}
		}
		if err := s.Set(ctx, authority, []byte("v"), time.Minute); err != nil {
			t.Fatalf("Set on cluster: %v", err)
		}
		if got, err := s.Get(ctx, authority); err != nil || string(got) != "v" {
			t.Fatalf("Get on cluster = %q, %v", got, err)
		}
		release, ok, err := s.Lease(ctx, authority, time.Minute)
		if err != nil || !ok {
			t.Fatalf("Lease on cluster: ok=%v err=%v", ok, err)
		}
		if _, ok, err := s.Lease(ctx, authority, time.Minute); err != nil || ok {
			t.Fatalf("second Lease on cluster: ok=%v err=%v", ok, err)
		}
		release()
		if n := cc.Exists(ctx, s.leaseKey(authority)).Val(); n != 0 {
			t.Fatal("release on cluster left the lease")
		}
	}
}

// TestClusterTakeWhileSlotMoves: while a site's slot moves to another
// master (a resharding), pacing goes on: a script naming two keys, one
// missing, got TRYAGAIN there, failed every Take of the site, and opened
// the source master's breaker for every site on it.
func TestClusterTakeWhileSlotMoves(t *testing.T) {
	longtest.Gate(t)
	c := redistest.StartCluster(t, 3, 0, 2*time.Second)
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	t.Cleanup(func() { _ = cc.Close() })
	s := New(cc, WithLogger(quietLogger), WithTimeout(generous))
	ctx := t.Context()
	const site = "https://moving.example:443"
	slot := c.KeySlot(s.paceKey(site))
	src := c.MasterOf(slot)
	dst := c.Addrs()[0]
	if dst == src {
		dst = c.Addrs()[1]
	}
	ids := map[string]string{}
	for _, addr := range []string{src, dst} {
		node := redis.NewClient(&redis.Options{Addr: addr})
		defer node.Close()
		ids[addr] = node.ClusterMyID(ctx).Val()
	}
	for _, step := range [][3]string{{dst, "IMPORTING", ids[src]}, {src, "MIGRATING", ids[dst]}} {
		node := redis.NewClient(&redis.Options{Addr: step[0]})
		defer node.Close()
		if err := node.Do(ctx, "CLUSTER", "SETSLOT", slot, step[1], step[2]).Err(); err != nil {
			t.Fatalf("CLUSTER SETSLOT %d %s: %v", slot, step[1], err)
		}
	}
	for i := range 4 {
		id, wait, err := s.Take(ctx, site, time.Millisecond)
		if err != nil {
			t.Fatalf("Take %d while the slot moves: %v", i, err)
		}
		if id != 0 {
			_ = s.Done(ctx, site, id, time.Millisecond, 0)
		}
		time.Sleep(wait + time.Millisecond)
	}
	args := paceArgs(99, time.Millisecond)
	if err := paceVoidScript.Eval(ctx, cc, []string{s.paceKey(site)}, args...).Err(); err != nil {
		t.Errorf("a void while the slot moves: %v", err)
	}
	if _, err := s.Get(ctx, site); err != nil && !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("Get while the slot moves: %v", err)
	}
}

// TestClusterStartWithADeadMaster: a Store made while a master is dead,
// the one whose slots hold the key New's warm-up reads, stops sharing
// for that master's slots only, as one made before does: its warm-up
// failed, the slot map loaded all the same, and every call counted
// against one breaker, which three calls to the dead master opened for
// the live ones too (cluster88).
func TestClusterStartWithADeadMaster(t *testing.T) {
	longtest.Gate(t)
	cl := redistest.StartCluster(t, 3, 0, 2*time.Second, "--cluster-require-full-coverage", "no")
	before := New(failoverClient(t, cl), WithLogger(quietLogger))
	dead := cl.MasterOf(cl.KeySlot(before.valueKey("")))
	live := cl.Addrs()[0]
	if live == dead {
		live = cl.Addrs()[1]
	}
	onDead, onLive := onMaster(t, cl, before, dead, ""), onMaster(t, cl, before, live, "")
	if err := before.Set(t.Context(), onLive, []byte("v"), time.Hour); err != nil {
		t.Fatal(err)
	}
	cl.Kill(dead)
	after := New(failoverClient(t, cl), WithLogger(quietLogger)) // a process starting now
	time.Sleep(warmTimeout + 100*time.Millisecond)
	for name, s := range map[string]*Store{"made before the master died": before, "made after": after} {
		for range 3 {
			ctx, cancel := context.WithTimeout(t.Context(), time.Second)
			_, err := s.Get(ctx, onDead)
			cancel()
			if err == nil {
				t.Fatalf("%s: a Get on the dead master answered", name)
			}
		}
		_, getErr := s.Get(t.Context(), onLive)
		_, _, takeErr := s.Take(t.Context(), onLive, time.Second)
		if getErr != nil || takeErr != nil {
			t.Errorf("%s: on the live master, after three failed calls to the dead one: Get %v, Take %v", name, getErr, takeErr)
		}
	}
}

// TestClusterStartUnreachableThenADeadMaster: a Store made while the
// cluster cannot be reached at all (its warm-up fails, no slot map
// loaded), which comes back with a master dead, stops sharing for that
// master's slots only: its warm-up was not tried again, and until a call
// was answered every call counted against one breaker, which three calls
// to the dead master opened for the live ones too (review159).
func TestClusterStartUnreachableThenADeadMaster(t *testing.T) {
	longtest.Gate(t)
	cl := redistest.StartCluster(t, 3, 0, 2*time.Second, "--cluster-require-full-coverage", "no")
	probe := New(failoverClient(t, cl), WithLogger(quietLogger))
	var cut atomic.Bool
	cut.Store(true)
	var d net.Dialer
	cc := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:                 cl.Addrs(),
		ContextTimeoutEnabled: true,
		DialerRetries:         1,
		DialTimeout:           500 * time.Millisecond,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if cut.Load() {
				return nil, errors.New("the network is cut")
			}
			return d.DialContext(ctx, network, addr)
		},
	})
	t.Cleanup(func() { _ = cc.Close() })
	s := New(cc, WithLogger(quietLogger))
	for deadline := time.Now().Add(warmTimeout + time.Second); s.cluster.warming(); {
		if time.Now().After(deadline) {
			t.Fatal("the warm-up never ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cut.Store(false)
	dead := cl.MasterOf(cl.KeySlot(probe.valueKey("")))
	live := cl.Addrs()[0]
	if live == dead {
		live = cl.Addrs()[1]
	}
	onDead, onLive := onMaster(t, cl, probe, dead, ""), onMaster(t, cl, probe, live, "")
	if err := probe.Set(t.Context(), onLive, []byte("v"), time.Hour); err != nil {
		t.Fatal(err)
	}
	cl.Kill(dead)
	for range 3 {
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		_, err := s.Get(ctx, onDead)
		cancel()
		if err == nil {
			t.Fatal("a Get on the dead master answered")
		}
	}
	_, getErr := s.Get(t.Context(), onLive)
	_, _, takeErr := s.Take(t.Context(), onLive, time.Second)
	if getErr != nil || takeErr != nil {
		t.Errorf("on the live master, after three failed calls to the dead one: Get %v, Take %v", getErr, takeErr)
	}
}
