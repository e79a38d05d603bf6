package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotsgate/robotstxt"
)

// unusedStore returns a Store whose client is never called.
func unusedStore(t *testing.T, l *slog.Logger) *Store {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	t.Cleanup(func() { _ = rdb.Close() })
	return New(rdb, WithLogger(l))
}

// TestBreakerPerNode: failures of one node open its breaker only, and the
// log names the node.
func TestBreakerPerNode(t *testing.T) {
	var out lockedBuffer
	s := unusedStore(t, slog.New(slog.NewTextHandler(&out, nil)))
	a, b := s.breaker("10.0.0.1:6379"), s.breaker("10.0.0.2:6379")
	if s.breaker("10.0.0.1:6379") != a {
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
	for _, other := range []*breaker{b, s.breaker("")} {
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
	s := unusedStore(t, quietLogger)
	for i := range 3 * maxBreakers {
		s.breaker(fmt.Sprintf("10.0.%d.%d:6379", i/256, i%256))
		if n := len(s.breakers); n > maxBreakers {
			t.Fatalf("%d breakers after %d nodes, want at most %d", n, i+1, maxBreakers)
		}
	}
}

// replyError is an error reply of Redis, as go-redis gives one.
type replyError string

func (e replyError) Error() string { return string(e) }
func (replyError) RedisError()     {}

// TestClassify: what says nothing of a node's health does not count
// against it: a caller gone before the call had its time, and a slot
// moving between nodes (TRYAGAIN, which any multi-key call may meet).
func TestClassify(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want outcome
	}{
		{context.Background(), nil, healthy},
		{context.Background(), redis.Nil, healthy},
		{context.Background(), replyError("WRONGTYPE Operation against a key holding the wrong kind of value"), healthy},
		{context.Background(), replyError("TRYAGAIN Multiple keys request during rehashing of slot"), unjudged},
		{canceled, context.Canceled, unjudged},
		{context.Background(), replyError("LOADING Redis is loading the dataset in memory"), failed},
		{context.Background(), errors.New("dial tcp: connection refused"), failed},
	} {
		if got := classify(c.ctx, c.err, time.Second); got != c.want {
			t.Errorf("classify(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

// tripBreaker opens s's breaker as a Redis stall of a few hundred ms
// does: three of s's calls time out while srv is paused. It resumes srv
// and checks that Redis answers again.
func tripBreaker(t *testing.T, srv interface {
	Pause()
	Resume()
}, s *Store, rdb *redis.Client) {
	t.Helper()
	srv.Pause()
	for i := range tripAfter {
		_, err := s.Get(context.Background(), "https://stall"+strconv.Itoa(i)+".test:443")
		if err == nil || errors.Is(err, robotstxt.ErrCacheMiss) {
			srv.Resume()
			t.Fatalf("Get during the stall: %v", err)
		}
	}
	srv.Resume()
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("Redis after the stall: %v", err)
	}
}
