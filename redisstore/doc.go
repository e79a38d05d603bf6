// Package redisstore is a robotstxt.Store on Redis, so that a fleet of
// crawler processes shares one cache of robots.txt files and fetches each
// authority's file once instead of once per process. A [Store] also hands
// out leases (see [robotstxt.Store]), so that of the processes that miss
// an authority at once only one fetches it, and is a [robotstxt.Pacer], so
// that the fleet keeps each site's crawl-delay together. Any
// redis.UniversalClient works: a standalone server, Sentinel or Redis
// Cluster.
//
// Every Redis call is bounded by [WithTimeout], and a node that keeps
// failing is not called for a while ([ErrUnavailable]). The Client treats
// every Store error as a miss, so a Redis outage costs extra robots.txt
// fetches, never wrong answers or errors. The pacer fails closed instead:
// a request it cannot pace is not sent (see [Store.Take]).
//
// # Redis Cluster
//
// A failed master stops sharing for its own slots only. go-redis reloads
// its slot map only when a node answers MOVED or ASK, or once a minute,
// and a dead master answers neither; so when a call fails or is refused
// the Store has go-redis reload the map, and the fleet shares and paces
// through a promoted replica within moments of its promotion. Until then
// the failed master's authorities are fetched by every process for
// itself, and paced requests to them fail. Redis replicates
// asynchronously: what a master had not passed on when it died is lost,
// so an entry may be fetched again, a lease taken twice, or one pair of
// requests to a site come closer than its crawl-delay.
//
// Set these in the redis.ClusterOptions (as the example of [New] does):
//
//   - ContextTimeoutEnabled: true, as for any client (see [New]).
//   - DialerRetries: 1. go-redis dials a node five times, 100 ms apart, by
//     default, longer than the Store's timeout: a process started with a
//     dead master among its seed addresses then fetches for itself for up
//     to a second at its start.
//   - DialTimeout of a second or less, so that a node whose host is gone
//     does not hold up each reload of the slot map for the default 5 s.
//   - Leave ReadOnly, RouteByLatency and RouteRandomly off: replicas lag
//     their master, so an entry just written would be missed and fetched
//     again. Leases and pacing run as scripts, on masters, either way.
//
// And in the servers' configuration, cluster-require-full-coverage no:
// otherwise every node refuses every command from the moment a master is
// found failed until its replica is promoted (cluster-node-timeout plus
// one to two seconds after the master died), and the whole fleet stops
// sharing and pacing.
package redisstore
