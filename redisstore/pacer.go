package redisstore

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
)

var _ robotstxt.Pacer = (*Store)(nil)

// The pacing state of one authority is a hash under paceKey, with times in
// microseconds of the Redis server's clock (TIME), so that the clocks of
// the processes sharing it do not matter:
//
//	busy   token of the turn in flight (absent when none)
//	until  when that turn stops holding others back (its lease)
//	end    when the previous turn ended
//	iv     the interval it ended with
//	hold   no turn before this (Retry-After)
//
// The key expires when none of them holds anything back any more. A key
// of another type is garbage and is replaced.
//
// paceRead begins both pacing scripts: it reads the server's clock into
// now (µs) and the state of KEYS[1] into busy, busyUntil, ended, lastIv
// and hold, after deleting the key if it is not a hash.
const paceRead = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local k = KEYS[1]
local typ = redis.call('TYPE', k)['ok']
if typ ~= 'hash' and typ ~= 'none' then
	redis.call('DEL', k)
end
local v = redis.call('HMGET', k, 'busy', 'until', 'end', 'iv', 'hold')
local busy = v[1]
local busyUntil = tonumber(v[2]) or 0
local ended = tonumber(v[3]) or 0
local lastIv = tonumber(v[4]) or 0
local hold = tonumber(v[5]) or 0
`

// paceTakeScript gives the turn to token ARGV[1] if a request may be sent
// now with interval ARGV[2] µs and lease ARGV[3] µs, and returns {0, 0};
// otherwise it returns {1, µs to wait before asking again}. The wait
// never overshoots: while another turn is in flight the next may start at
// least one interval later. An interval of 0 takes no exclusive slot and
// writes nothing.
var paceTakeScript = redis.NewScript(paceRead + `
local iv = tonumber(ARGV[2])
if iv > 0 and busy and now < busyUntil then
	return {1, math.min(iv, busyUntil - now)}
end
local ready = math.max(hold, ended + iv)
if now < ready then
	return {1, ready - now}
end
if iv == 0 then
	return {0, 0}
end
busyUntil = now + tonumber(ARGV[3])
redis.call('HSET', k, 'busy', ARGV[1], 'until', string.format('%.0f', busyUntil))
local keep = math.max(busyUntil, hold, ended + lastIv)
redis.call('PEXPIRE', k, math.ceil((keep - now) / 1000))
return {0, 0}
`)

// paceDoneScript ends the turn with token ARGV[1] (none when empty): the
// next may start interval ARGV[2] µs after now, and not before a hold of
// ARGV[3] µs from now. A turn whose lease has run out, and another's turn
// begun since, leaves that other turn alone.
var paceDoneScript = redis.NewScript(paceRead + `
if ARGV[1] ~= '' and (busy == ARGV[1] or not busy or now >= busyUntil) then
	redis.call('HDEL', k, 'busy', 'until')
	busy = false
	ended, lastIv = now, tonumber(ARGV[2])
	redis.call('HSET', k, 'end', string.format('%.0f', ended), 'iv', ARGV[2])
end
local h = tonumber(ARGV[3])
if h > 0 and now + h > hold then
	hold = now + h
	redis.call('HSET', k, 'hold', string.format('%.0f', hold))
end
local keep = math.max(hold, ended + lastIv)
if busy then
	keep = math.max(keep, busyUntil)
end
if keep <= now then
	redis.call('DEL', k)
else
	redis.call('PEXPIRE', k, math.ceil((keep - now) / 1000))
end
return 0
`)

// Take implements robotstxt.Pacer for a fleet: every process whose
// Transport paces through a Store on the same Redis (and prefix) keeps
// the spacing of each authority together with the others, by the Redis
// server's clock. Each check-and-take is one script call, atomic in Redis;
// a request that must wait is told how long, and its Transport sleeps in
// its own process and asks again, so no slot is booked ahead.
//
// Take fails closed: when Redis does not answer (within the Store's
// timeout, or while its circuit breaker is open, see ErrUnavailable) it
// returns the error at once and the Transport does not send the request,
// rather than send it unpaced. A turn whose process dies holds its
// authority for at most robotstxt.FlightLease (or the interval, if
// longer).
func (s *Store) Take(ctx context.Context, authority string, interval time.Duration) (t robotstxt.Turn, wait time.Duration, ok bool, err error) {
	interval = max(interval, 0)
	k := s.paceKey(authority)
	turn := robotstxt.Turn{Authority: authority, Interval: interval}
	var token string
	if interval > 0 {
		turn.ID = rand.Uint64() | 1 // never 0, which means no exclusive slot
		token = strconv.FormatUint(turn.ID, 36)
	}
	iv, lease := micros(interval), micros(max(robotstxt.FlightLease, interval))
	var res []int64
	err = s.call(ctx, "pace", k, func(ctx context.Context) error {
		var err error
		res, err = paceTakeScript.Run(ctx, s.rdb, []string{k}, token, iv, lease).Int64Slice()
		return err
	})
	if err != nil {
		return robotstxt.Turn{}, 0, false, err
	}
	if len(res) != 2 || (res[0] != 0 && res[1] <= 0) {
		return robotstxt.Turn{}, 0, false, fmt.Errorf("redisstore: pace %s: unexpected reply %v", k, res)
	}
	if res[0] != 0 {
		return robotstxt.Turn{}, time.Duration(res[1]) * time.Microsecond, false, nil
	}
	return turn, 0, true, nil
}

// Done implements robotstxt.Pacer. It ends the turn even when ctx is
// already cancelled, bounded by the Store's timeout. When Redis fails the
// error is logged and returned, and the turn ends by itself when its
// lease runs out.
func (s *Store) Done(ctx context.Context, t robotstxt.Turn, hold time.Duration) error {
	if t.ID == 0 && hold <= 0 {
		return nil
	}
	k := s.paceKey(t.Authority)
	var token string
	if t.ID != 0 {
		token = strconv.FormatUint(t.ID, 36)
	}
	err := s.call(context.WithoutCancel(ctx), "pace done", k, func(ctx context.Context) error {
		return paceDoneScript.Run(ctx, s.rdb, []string{k}, token, micros(max(t.Interval, 0)), micros(max(hold, 0))).Err()
	})
	if err != nil {
		s.log.Log(ctx, slog.LevelWarn, "ending a paced turn failed; it ends by itself when its lease runs out", "err", err)
	}
	return err
}

// paceKey is the Redis key of authority's pacing state. It starts with
// valueKey, so it lives in the same cluster slot as the authority's entry.
func (s *Store) paceKey(authority string) string {
	return s.valueKey(authority) + ":pace"
}

// micros rounds d up to whole microseconds, so that a rounded interval is
// never shorter than the one asked for.
func micros(d time.Duration) int64 {
	return int64((d + time.Microsecond - 1) / time.Microsecond)
}
