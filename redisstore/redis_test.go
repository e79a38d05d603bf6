package redisstore

import (
	"log/slog"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt/internal/redistest"
)

// quietLogger discards the Store's log lines in tests (explicitly, so a
// test does not depend on the default).
var quietLogger = slog.New(slog.DiscardHandler)

// newRedis starts a redis-server and returns it with a client that the
// test closes at the end.
func newRedis(t testing.TB) (*redistest.Server, *redis.Client) {
	t.Helper()
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	return srv, rdb
}

// generous replaces the 200 ms default timeouts in tests that check
// correctness rather than fault handling, so that a loaded CI machine does
// not turn a slow call into a miss and an extra fetch.
const generous = 2 * time.Second

// newStore starts a redis-server and returns a Store on it (generous
// timeout unless opts say otherwise), the raw client for inspecting keys,
// and the server.
func newStore(t testing.TB, opts ...Option) (*Store, *redis.Client, *redistest.Server) {
	t.Helper()
	srv, rdb := newRedis(t)
	opts = append([]Option{WithLogger(quietLogger), WithTimeout(generous)}, opts...)
	return New(rdb, opts...), rdb, srv
}

// newAdmin returns a client on srv for inspecting and configuring it.
func newAdmin(t testing.TB, srv *redistest.Server) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// waitUntil polls cond until it holds, failing the test after ten seconds.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
