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

// acquireScript takes the lease KEYS[1] with token ARGV[1] for ARGV[2] ms,
// and returns 1, unless another holds it (0). A key without expiry is no
// lease, and is taken over. A lease that holds ARGV[1] already is its
// caller's: go-redis sends the script again when the reply of a run that
// took it was cut, and a 0 then would leave a lease no process releases,
// which every Client would wait out.
var acquireScript = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return 1
end
if redis.call("PTTL", KEYS[1]) == -1 then
	redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
	return 1
end
if redis.call("TYPE", KEYS[1])["ok"] == "string" and redis.call("GET", KEYS[1]) == ARGV[1] then
	return 1
end
return 0
`)

// releaseScript deletes the lease KEYS[1] if it still holds token ARGV[1],
// not the next holder's.
var releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0
`)

// Lease tries to take the fetch lease on key for ttl, with a random
// token; if another holder has it, ok is false and err nil. release, which
// may be called more than once and from any goroutine, deletes the lease
// while it still holds this token; an unreleased lease expires after ttl.
func (s *Store) Lease(ctx context.Context, key string, ttl time.Duration) (release func(), ok bool, err error) {
	k := s.leaseKey(key)
	if ttl <= 0 {
		return nil, false, fmt.Errorf("redisstore: lease %s: non-positive ttl %v", k, ttl)
	}
	token := rand.Text()
	// The release is bounded as this call is: by the caller's deadline
	// (the Client's Store timeout) as well as the Store's timeout.
	bound := s.callerBound(ctx)
	var taken int64
	err = s.call(ctx, "lease", k, func(ctx context.Context) error {
		var err error
		taken, err = acquireScript.Run(ctx, s.rdb, []string{k}, token, roundUp(ttl, time.Millisecond).Milliseconds()).Int64()
		return err
	})
	if err != nil && maybeSent(err) {
		// Its script may run yet, when Redis or its connection wakes,
		// and take a lease no process would release: every Client would
		// wait it out. A release that runs first finds nothing, so it is
		// sent until one deletes the lease, for ttl: a script held back
		// longer (a connection stalled past it) still takes a lease that
		// lasts its ttl.
		s.undo(s.releases, "a lease a failed call may have taken, which ends with its TTL", ttl, func(ctx context.Context) (bool, error) {
			n, err := releaseScript.Eval(ctx, s.rdb, []string{k}, token).Int64()
			return n == 1, err
		})
	}
	if err != nil || taken != 1 {
		return nil, false, err
	}
	return sync.OnceFunc(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bound)
		defer cancel()
		// Not through the breaker, which may have opened since the lease
		// was taken: a release it refused would hold every other process
		// off for the lease's TTL. s.run still bounds it by the timeout.
		err := s.run(ctx, func(ctx context.Context) error {
			return releaseScript.Run(ctx, s.rdb, []string{k}, token).Err()
		})
		if err != nil {
			// Sent again until Redis answers (restarted, or a replica
			// promoted, with the lease kept), for at most its TTL.
			s.log.Log(ctx, slog.LevelWarn, "releasing a robots.txt fetch lease failed; sending it again until Redis answers or it expires", "err", err)
			s.undo(s.releases, "a robots.txt fetch lease, which ends with its TTL", ttl, func(ctx context.Context) (bool, error) {
				err := releaseScript.Eval(ctx, s.rdb, []string{k}, token).Err()
				return err == nil, err
			})
		}
	}), true, nil
}
