// Package redisstore is a robotstxt.Store on Redis, so that a fleet of
// crawler processes shares one cache of robots.txt files and fetches each
// authority's file once instead of once per process. A [Store] also hands
// out leases, so that of the processes that miss an authority at once
// only one fetches it, and is a [robotstxt.Pacer], so that the fleet keeps
// each site's crawl-delay together. A standalone server, Sentinel or
// Redis Cluster serves all three; a redis.Ring, which sends a hung
// shard's keys to another shard, shares files and leases but does not
// pace (see [Store.Take]), and its shards share one breaker: one that
// hangs stops the sharing on all of them until it answers again.
//
// The Client treats every Store error as a miss, so a Redis outage (see
// [WithTimeout] and [ErrUnavailable]) costs extra robots.txt fetches,
// never wrong answers. Errors come only to checks whose deadline is
// shorter than the Store's calls while Redis is slower than they are:
// the Store's call for a site runs on to the Client's Store timeout, one
// at a time, and what it finds (or, when it finds no fresh copy, a
// fetch) answers the site's next check. A site's first check while
// Redis hangs waits for up to three calls to reach the timeout (the
// look-up, the lease, and the write of what it fetched) beside its
// fetch; once three calls have reached the timeout (a Client's Store
// timeout shorter than the Store's: once a call of the Store's own, which
// such a call's miss sends, has reached the Store's), the Store stops
// calling Redis, but for one probe a second and the end of a lease or a
// paced turn taken before (within the timeout, so that other processes
// need not wait out the lease, and a Retry-After hold reaches them). The
// pacer fails closed instead (see [Store.Take]).
//
// The Store runs Lua scripts (EVALSHA, EVAL) for leases, pacing and the
// read of a key that may be missing: a Redis ACL user it logs in as needs
// the scripting commands besides the string and key ones (+@scripting),
// or those calls fail, and the breaker counts them.
//
// Give the Redis maxmemory-policy noeviction, or memory enough never to
// evict: under any other policy Redis may drop a site's pacing state, a
// volatile key like the files, to make room for a file, and the site's
// next request then goes at once, inside its crawl-delay. (With
// noeviction a full Redis refuses writes: files it does not hold are
// fetched again and paced requests fail, as in an outage, until it has
// room; the files it holds are still read, its refusals opening no
// breaker.) The pacing
// state lives in Redis alone, for the turn's lease (30 s): a Redis that
// restarts without it (no persistence, or a snapshot older than that), a
// FLUSHALL or a failover that loses it frees every site at once, and
// each site's next request, a request still in flight notwithstanding,
// goes inside its crawl-delay. Persist with appendonly, or keep paced
// crawls off such a Redis.
//
// # Redis Cluster
//
// A failed master stops sharing for its own slots only, until its replica
// is promoted: its authorities are fetched by every process for itself,
// and paced requests to them fail. go-redis reloads its slot map only on
// MOVED or ASK, or once a minute, and a dead master answers neither, so
// the Store has it reload the map when a call fails or is refused. Redis replicates
// asynchronously: what a master had not passed on when it died is lost,
// so an entry may be fetched again, a lease taken twice, or one pair of
// requests to a site come closer than its crawl-delay. An authority's
// keys share its hash tag, so a resharding moves them together, and
// every call names one key, so calls go on while the slot moves (go-redis
// follows the ASK redirections).
//
// Set these in the redis.ClusterOptions (as the example of [New] does):
//
//   - ContextTimeoutEnabled: true, as for any client (see [New]).
//   - DialerRetries: 1. By default go-redis dials a node five times, 100
//     ms apart, and a process started with a dead master among its seed
//     addresses fetches for itself for up to a second.
//   - DialTimeout of a second or less, so that a node whose host is gone
//     does not hold up each reload of the slot map for 5 s.
//   - ReadOnly, RouteByLatency and RouteRandomly off: replicas lag, so an
//     entry just written would be missed. Leases and pacing run on
//     masters either way.
//
// And cluster-require-full-coverage no in the servers' configuration, or
// every node refuses every command from when a master is found failed
// until its replica is promoted (cluster-node-timeout plus one to two
// seconds after it died).
package redisstore
