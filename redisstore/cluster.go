package redisstore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

const (
	// reloadEvery bounds how often a Store asks for a reload of the slot
	// map: go-redis waits 200 ms between two reloads, so more gains nothing.
	reloadEvery = 200 * time.Millisecond
	// warmTimeout bounds the load of the slot map and command table that
	// New starts: two dead seeds, each dialled five times 100 ms apart by
	// default, and the command table fit with room to spare.
	warmTimeout = 2 * time.Second
)

// A cluster is what a Store knows of a *redis.ClusterClient; nil, whose
// methods do nothing, for other clients.
type cluster struct {
	client    *redis.ClusterClient
	key       string              // the key the warm-up reads
	log       *logthrottle.Logger // logs a panic of a goroutine of its own
	mapped    atomic.Bool         // the client has loaded a slot map
	warmingUp atomic.Bool         // the warm-up New started is running
	remapping atomic.Bool         // a look for the slot map after a failure is running (see remap)
	reloaded  atomic.Int64        // when the Store last asked for a reload (Unix ns)
}

// newCluster returns the cluster behind client, and starts loading its
// slot map and command table by reading key, which with a dead seed node
// takes longer than the Store's timeout; log logs a panic there.
func newCluster(client redis.UniversalClient, key string, log *logthrottle.Logger) *cluster {
	cc, ok := client.(*redis.ClusterClient)
	if !ok {
		return nil
	}
	c := &cluster{client: cc, key: key, log: log}
	c.warmingUp.Store(true)
	go func() {
		defer c.warmingUp.Store(false)
		defer logPanic(log, "loading the cluster's slot map panicked; it loads at the next reload")
		ctx, cancel := context.WithTimeout(context.Background(), warmTimeout)
		defer cancel()
		err := cc.Exists(ctx, key).Err()
		if err != nil {
			// The key's master may be down, the slot map loaded all
			// the same: only a call that answered set mapped, and
			// until one did, every call counted against one breaker,
			// which a dead master's three failures opened for all.
			_, err = cc.MasterForKey(ctx, key)
		}
		if err == nil {
			c.mapped.Store(true)
		}
	}()
	return c
}

// remap looks, in a goroutine of its own, for the slot map a call that
// failed while none was known may have loaded (the warm-up failed: the
// cluster could not be reached for a moment at start), and records that
// there is one, as an answered call would: a call on a dead master
// otherwise never answers, and every call went on counting against one
// breaker, which that master's failures opened for all. It asks Redis
// only when the client has no slot map, under warmTimeout, once at a
// time.
func (c *cluster) remap() {
	if c == nil || c.mapped.Load() || c.warming() || !c.remapping.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer c.remapping.Store(false)
		defer logPanic(c.log, "loading the cluster's slot map panicked; it loads at the next failure")
		ctx, cancel := context.WithTimeout(context.Background(), warmTimeout)
		defer cancel()
		if _, err := c.client.MasterForKey(ctx, c.key); err == nil {
			c.mapped.Store(true)
		}
	}()
}

// warming reports whether the warm-up New started is still running.
func (c *cluster) warming() bool { return c != nil && c.warmingUp.Load() }

// node returns the address of the master that serves key, or "" before
// the client has a slot map (looking it up would call Redis).
func (c *cluster) node(key string) string {
	if c == nil || !c.mapped.Load() {
		return ""
	}
	master, err := c.client.MasterForKey(context.Background(), key)
	if err != nil {
		return ""
	}
	return master.Options().Addr
}

// answered records that a call was answered: the client has a slot map.
func (c *cluster) answered() {
	if c != nil && !c.mapped.Load() {
		c.mapped.Store(true)
	}
}

// reload has the client reload its slot map, at most every reloadEvery.
func (c *cluster) reload() {
	if c == nil {
		return
	}
	now, last := time.Now().UnixNano(), c.reloaded.Load()
	if now-last < int64(reloadEvery) || !c.reloaded.CompareAndSwap(last, now) {
		return
	}
	c.client.ReloadState(context.Background())
}
