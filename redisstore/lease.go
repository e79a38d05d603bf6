package redisstore

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// acquireScript takes the lease KEYS[1] with token ARGV[1] for ARGV[2]
// milliseconds when nobody holds it. A key without expiry cannot be a lease
// (leases are always set with one), so it is garbage and is taken over.
// Returns 1 when taken, 0 when another holder has it.
var acquireScript = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return 1
end
if redis.call("PTTL", KEYS[1]) == -1 then
	redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
	return 1
end
return 0
`)

// releaseScript deletes the lease KEYS[1] only if it still holds token
// ARGV[1], so a holder whose lease expired cannot release the next
// holder's.
var releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0
`)

// Lease tries to take the fetch lease on key for ttl, with SET NX PX and a
// random token. When ok is true, release gives the lease back; it may be
// called more than once and from any goroutine, and deletes the lease only
// while it still holds this holder's token. A lease that is not released
// expires after ttl. When another holder has the lease, ok is false and
// err is nil.
func (s *Store) Lease(ctx context.Context, key string, ttl time.Duration) (release func(), ok bool, err error) {
	k := s.leaseKey(key)
	if ttl <= 0 {
		return nil, false, fmt.Errorf("redisstore: lease %s: non-positive ttl %v", k, ttl)
	}
	token := rand.Text()
	var taken int64
	err = s.call(ctx, "lease", k, func(ctx context.Context) error {
		var err error
		taken, err = acquireScript.Run(ctx, s.rdb, []string{k}, token, max(ttl.Milliseconds(), 1)).Int64()
		return err
	})
	if err != nil || taken != 1 {
		return nil, false, err
	}
	return sync.OnceFunc(func() {
		ctx := context.WithoutCancel(ctx)
		err := s.call(ctx, "release", k, func(ctx context.Context) error {
			return releaseScript.Run(ctx, s.rdb, []string{k}, token).Err()
		})
		if err != nil {
			s.log.Log(ctx, slog.LevelWarn, "releasing a robots.txt fetch lease failed; it will expire by itself", "err", err)
		}
	}), true, nil
}
