package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt/internal/pacing"
)

// The pacing state of an authority is a hash under paceKey, with times in
// µs of the Redis server's clock (TIME), whatever the processes' clocks:
//
//	busy   token of the turn in flight (absent when none)
//	until  when that turn stops holding others back (its lease)
//	end    when the previous turn ended
//	iv     the longest interval a turn was taken, waited for or ended
//	       with while the key lived: its expiry, at least the lease after
//	       the last turn ended, which must not end a longer interval
//	       another crawler's Take waits for, nor forget that turn before
//	       a Take whose site raised its Crawl-delay comes
//	pace   the site's pace, the longest interval since it last lapsed:
//	       the least interval of every Take while it lasts (see Take)
//	hold   no turn before this (Retry-After)
//	voids  when the last void: field below ends
//	vn     the fields the last clean-up of void: fields left
//	void:T until when the Take of token T takes nothing (see
//	       paceVoidScript)
//
// The scripts take a turn's token, interval and lease and maxAhead as
// ARGV[1] to ARGV[4], in µs, and begin with paceRead, which reads the
// clock and the state and replaces garbage as Take documents. paceKeep
// sets the key's expiry from the state, or deletes a key that holds
// nothing back. Every script names that one key: in a Redis Cluster, a
// script naming two answers TRYAGAIN while their slot moves to another
// node unless both exist.
const paceRead = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local k = KEYS[1]
local lease, bound = tonumber(ARGV[3]), tonumber(ARGV[4])
local typ = redis.call('TYPE', k)['ok']
if typ ~= 'hash' and typ ~= 'none' then
	redis.call('DEL', k)
end
local v = redis.call('HMGET', k, 'busy', 'until', 'end', 'iv', 'hold', 'pace', 'voids')
local repaired = false
local function field(i, name, lo, hi, fix)
	local x = tonumber(v[i])
	if x and x >= lo and x <= hi then
		return x
	end
	redis.call('HSET', k, name, string.format('%.0f', fix))
	repaired = true
	return fix
end
local busy = v[1]
local busyUntil = busy and field(2, 'until', -math.huge, now + bound, now + lease) or 0
local ended = v[3] and field(3, 'end', -math.huge, now, now) or 0
local lastIv = v[4] and field(4, 'iv', 0, bound, bound) or 0
local hold = v[5] and field(5, 'hold', -math.huge, now + bound, now + bound) or 0
local pace = v[6] and field(6, 'pace', 0, bound, bound) or 0
local voids = v[7] and field(7, 'voids', -math.huge, now + bound, now + bound) or 0
local function paceKeep()
	local keep = math.max(hold, ended > 0 and ended + math.max(lastIv, lease) or 0, busy and busyUntil or 0, voids)
	if keep <= now then
		redis.call('DEL', k)
	else
		redis.call('PEXPIRE', k, math.ceil((keep - now) / 1000))
	end
end
`

// paceTakeScript gives the turn to ARGV[1] if a request may be sent now,
// and returns {0, 0}; otherwise {1, µs to wait before asking again}, more
// than 0 and at most the interval, a hold or maxAhead. The interval is at
// least the pace while a turn is in flight or the pace has not passed since
// the last one ended. While another turn is in flight the next may start
// one interval later, so the wait never overshoots. An interval of 0
// (and no pace) takes no exclusive slot, writes nothing and returns
// {2, 0}. A Take given up on before it ran (see paceVoidScript) takes
// nothing and returns {3, 0}.
var paceTakeScript = redis.NewScript(paceRead + `
local void = tonumber(redis.call('HGET', k, 'void:' .. ARGV[1]))
if void and now < void then
	return {3, 0} -- its caller gave up (see paceVoidScript)
end
if busy == ARGV[1] and now < busyUntil then
	return {0, 0} -- run again, by go-redis after a cut reply: the turn is its
end
local iv = tonumber(ARGV[2])
if (busy and now < busyUntil) or now < ended + pace then
	iv = math.max(iv, pace)
end
local wait = 0
if iv > 0 and busy and now < busyUntil then
	wait = math.max(math.min(iv, busyUntil - now), hold - now) -- no turn within a hold
elseif now < math.max(hold, ended + iv) then
	wait = math.max(hold, ended + iv) - now
end
if wait > 0 and iv > lastIv then
	-- Kept until the turn this Take waits for may come.
	lastIv = iv
	redis.call('HSET', k, 'iv', string.format('%.0f', lastIv))
	repaired = true
end
if wait > 0 or iv == 0 then
	if repaired then
		paceKeep()
	end
	return {wait > 0 and 1 or 2, math.ceil(wait)}
end
busy, busyUntil, lastIv = ARGV[1], now + math.max(lease, iv), math.max(lastIv, iv)
redis.call('HSET', k, 'busy', busy, 'until', string.format('%.0f', busyUntil),
	'iv', string.format('%.0f', lastIv), 'pace', string.format('%.0f', iv))
paceKeep()
return {0, 0}
`)

// paceDoneScript ends the turn ARGV[1] (none when empty): the next may
// start an interval after now, and not before a hold of ARGV[5] µs from
// now. A turn whose lease has run out leaves another's begun since alone.
var paceDoneScript = redis.NewScript(paceRead + `
if ARGV[1] ~= '' and (busy == ARGV[1] or not busy or now >= busyUntil) then
	redis.call('HDEL', k, 'busy', 'until')
	busy = false
	ended, lastIv, pace = now, math.max(lastIv, tonumber(ARGV[2])), math.max(pace, tonumber(ARGV[2]))
	redis.call('HSET', k, 'end', string.format('%.0f', ended), 'iv', string.format('%.0f', lastIv),
		'pace', string.format('%.0f', pace))
end
local h = tonumber(ARGV[5])
if h > 0 and now + h > hold then
	hold = now + h
	redis.call('HSET', k, 'hold', string.format('%.0f', hold))
end
paceKeep()
return 0
`)

// paceVoidScript ends the turn ARGV[1] a Take whose caller gave up may
// have taken, as if it were never given: nothing was sent. A field
// void:ARGV[1] tells that Take's script, each time it runs after (Redis
// answers the two calls in either order, and go-redis may send a Take
// again after a cut reply), to take nothing, until the lease has passed.
// Past maxVoidFields fields, and twice as many as the last clean-up left
// (vn), those whose time has passed go: each void does constant work, on
// average, however many marks a stalled fleet leaves.
var paceVoidScript = redis.NewScript(paceRead + `
if busy == ARGV[1] then
	redis.call('HDEL', k, 'busy', 'until')
	busy = false
end
local n = redis.call('HLEN', k)
local vn = tonumber(redis.call('HGET', k, 'vn'))
if not vn or not (vn >= 0 and vn <= n) then
	vn = 0 -- garbage (inf would stop clean-ups for good)
end
if n > math.max(` + strconv.Itoa(maxVoidFields) + `, 2 * vn) then
	local all = redis.call('HGETALL', k)
	for i = 1, #all, 2 do
		if string.sub(all[i], 1, 5) == 'void:' and (tonumber(all[i + 1]) or 0) <= now then
			redis.call('HDEL', k, all[i])
			n = n - 1
		end
	end
	redis.call('HSET', k, 'vn', n) -- the next clean-up waits for twice as many
end
voids = math.max(voids, now + lease)
redis.call('HSET', k, 'void:' .. ARGV[1], string.format('%.0f', now + lease), 'voids', string.format('%.0f', voids))
paceKeep()
return 0
`)

// maxVoidFields is how many fields a site's pacing hash may hold before a
// void clears those whose time has passed: a few dozen bytes each, and a
// stalled Redis cuts off at most maxUndos Takes of each process.
const maxVoidFields = 64

// errRingPacer is what Take and Done return on a *redis.Ring.
var errRingPacer = fmt.Errorf("redisstore: a redis.Ring cannot pace a fleet: it moves a hung shard's sites to a shard without their pacing state: %w", errors.ErrUnsupported)

// maxAhead bounds every span of pacing time the Store keeps (see
// [Store.Take]).
const maxAhead = pacing.MaxAhead

// Take implements robotstxt.Pacer for a fleet: Stores on the same Redis
// and prefix keep each authority's spacing together, by the Redis
// server's clock, in one atomic script call. Intervals, and holds given to
// Done, count up to 24 hours (the longest crawl-delay the parser reads),
// and so does a wait, which is more than 0. Pacing state that Take cannot
// read (not a number, or further ahead of the server's clock than that)
// is overwritten with the most cautious it could have been: a turn just
// begun, one just ended, or a 24-hour hold. When Redis does not answer
// (within the Store's timeout, or [ErrUnavailable]) Take returns the
// error at once: the request is not sent unpaced (a robots.txt's
// redirect to another site is paced in the Client's process instead, see
// robotstxt.Pacer). On a *redis.Ring, Take returns an error wrapping
// errors.ErrUnsupported and sends nothing: a Ring moves a shard's keys to
// another shard, with no pacing state, while its heartbeat finds the
// shard unanswering, and so would send a site's requests inside its
// crawl-delay whenever one of its servers hangs. When the call failed
// (but for the breaker's or a closed client's refusal), its script may
// have run, or still run once Redis answers, the caller gone: Take then gives the turn back in the background (or,
// should that call come first, has the script take none), so that a slow
// Redis does not hold a site for the lease with nothing sent.
func (s *Store) Take(ctx context.Context, authority string, interval time.Duration) (id uint64, wait time.Duration, err error) {
	if s.ring {
		return 0, 0, errRingPacer
	}
	k := s.paceKey(authority)
	id = rand.Uint64() | 1 // never 0, which means no exclusive slot
	args := paceArgs(id, interval)
	keys := []string{k}
	var res []int64
	err = s.call(ctx, "pace", k, func(ctx context.Context) error {
		var err error
		res, err = paceTakeScript.Run(ctx, s.rdb, keys, args...).Int64Slice()
		return err
	})
	if err != nil {
		if maybeSent(err) {
			s.void(keys, args)
		}
		return 0, 0, err
	}
	switch {
	case len(res) == 2 && res[0] == 0:
		return id, 0, nil
	case len(res) == 2 && res[0] == 2:
		return 0, 0, nil // no pace: no exclusive slot
	case len(res) == 2 && res[0] == 1 && res[1] > 0 && res[1] <= micros(maxAhead):
		return 0, time.Duration(res[1]) * time.Microsecond, nil
	}
	return 0, 0, fmt.Errorf("redisstore: pace %s: unexpected reply %v", k, res)
}

// void ends, or has the script take none, the turn keys and args asked
// for by a Take whose call may have run though it failed (see maybeSent
// and paceVoidScript): its script may run yet, its caller gone, and hold
// the site for the lease with nothing sent. It is sent through undo, for
// at most the turns' lease (30 s), when a turn ends by itself but for a
// longer interval. Eval, not Run: a script Redis has not seen is sent at
// once, not after a NOSCRIPT reply the call may not outlive.
func (s *Store) void(keys []string, args []any) {
	s.undo(s.voids, "an abandoned paced turn, which ends with its lease", pacing.TurnTimeout, func(ctx context.Context) (bool, error) {
		err := paceVoidScript.Eval(ctx, s.rdb, keys, args...).Err()
		return err == nil, err
	})
}

// Done implements robotstxt.Pacer. It ends the turn even when ctx is
// cancelled, within the Store's timeout or ctx's deadline, if sooner (at
// least 10 ms; a Retry-After's hold, within the Store's timeout), and
// past an open breaker (one
// that opened while the request was out would otherwise hold the site
// for the turn's lease, and lose a Retry-After hold, though Redis
// answers). An error of Redis is logged and returned, and the end is
// sent again every second in the background until Redis answers (a node
// restarted, or a replica promoted, that kept the turn in flight), or
// the turn's lease has run out, when it ends by itself; ended late, the
// site's next turn counts from then, never sooner. A hold, which ends by
// no lease, is sent again until it has run out, for what is left of it,
// however many other calls the stall cut off (the call cut off may yet
// run when Redis answers, and hold the site as long from then: never
// sooner).
func (s *Store) Done(ctx context.Context, authority string, id uint64, interval, hold time.Duration) error {
	switch {
	case id == 0 && hold <= 0:
		return nil
	case s.ring: // Take gave no turn, and a hold would be lost as a turn is
		return errRingPacer
	}
	k := s.paceKey(authority)
	args := append(paceArgs(id, interval), micros(min(max(hold, 0), maxAhead)))
	// Within the caller's time (its goroutine waits), but a hold, which
	// the background's sending again may drop (maxUndos), within the
	// Store's timeout: a lost hold sends the fleet back to a site that
	// asked for an hour.
	bound := s.callerBound(ctx)
	if hold > 0 {
		bound = s.cfg.timeout
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bound)
	defer cancel()
	err := s.run(dctx, func(ctx context.Context) error {
		return paceDoneScript.Run(ctx, s.rdb, []string{k}, args...).Err()
	})
	if err != nil {
		err = fmt.Errorf("redisstore: pace done %s: %w", k, err)
		s.log.Log(ctx, slog.LevelWarn, "ending a paced turn failed; sending it again until Redis answers or its lease, or hold, runs out", "err", err)
		slots, what, within := s.voids, "a paced turn's end, which comes with its lease", pacing.TurnTimeout
		if hold > 0 {
			// The site's word on when to come back outlives the turn's
			// lease, and is lost if not sent: sent until it has run out,
			// for what is left of it, in slots of its own, which a
			// stall's cut Takes do not fill.
			slots, what, within = s.holds, "a Retry-After hold, lost", max(within, min(hold, maxAhead))
		}
		until, again := time.Now().Add(hold), slices.Clone(args) // the failed call may still hold args
		s.undo(slots, what, within, func(ctx context.Context) (bool, error) {
			if hold > 0 {
				again[len(again)-1] = micros(min(max(time.Until(until), 0), maxAhead))
			}
			err := paceDoneScript.Eval(ctx, s.rdb, []string{k}, again...).Err()
			return err == nil, err
		})
	}
	return err
}

// paceKey is the Redis key of the pacing state of the site a Transport
// paces as authority (see robotstxt.Pacer), tagged as valueKey tags.
func (s *Store) paceKey(authority string) string {
	return s.valueKey(authority) + ":pace"
}

// paceArgs returns ARGV[1] to ARGV[4] of the pacing scripts.
func paceArgs(id uint64, interval time.Duration) []any {
	var token string
	if id != 0 {
		token = strconv.FormatUint(id, 36)
	}
	interval = min(max(interval, 0), maxAhead)
	return []any{token, micros(interval), micros(max(pacing.TurnTimeout, interval)), micros(maxAhead)}
}

// micros returns d in whole microseconds (see roundUp).
func micros(d time.Duration) int64 { return roundUp(d, time.Microsecond).Microseconds() }
