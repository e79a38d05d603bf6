// Package redisstore is a robotstxt.Store on Redis, so that a fleet of
// crawler processes shares one cache of robots.txt files and fetches each
// authority's file once instead of once per process. A [Store] also hands
// out leases (see [robotstxt.Store]), so that of the processes that miss
// an authority at once only one fetches it, and is a [robotstxt.Pacer], so
// that the fleet keeps each site's crawl-delay together.
//
// Use it as
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	client := robotstxt.NewClient(robotstxt.WithStore(redisstore.New(rdb)))
//
// Any redis.UniversalClient works: a standalone server, Sentinel or Redis
// Cluster.
//
// # Keys
//
// Each authority has up to three keys, all beginning with the prefix
// ([WithPrefix], "robotstxt:" by default) and the authority in braces:
//
//	robotstxt:{https://example.com:443}        its robots.txt entry
//	robotstxt:{https://example.com:443}:lease  the lease of the process fetching it
//	robotstxt:{https://example.com:443}:pace   its pacing state (a hash)
//
// The braces are a Redis Cluster hash tag: the three keys hash to one
// slot, so they live on one master and move together when slots are
// resharded. Every key expires by itself.
//
// # Failures
//
// Every Redis call is bounded by a short timeout ([WithTimeout]). Set
// ContextTimeoutEnabled in the go-redis options: calls then run in the
// caller's goroutine; without it, each call runs in a goroutine of its own
// so that the timeout holds even while go-redis waits on a socket, which
// costs about a third more per call. After a few consecutive failures of a
// node (the server, or one master of a cluster) the Store stops calling
// that node for a second at a time and answers [ErrUnavailable] at once,
// then probes it with a single call and resumes when it answers. The
// Client treats every Store error as a miss, so a Redis outage costs
// extra robots.txt fetches, never wrong answers or errors. The pacer
// fails closed instead: a request it cannot pace is not sent (see
// [Store.Take]).
//
// # Redis Cluster
//
// A failed master stops sharing for its own slots only. go-redis reloads
// its slot map only when a node answers MOVED or ASK, or once a minute,
// and a dead master answers neither; so when a call fails or is refused
// the Store has go-redis reload the map (at most every 200 ms), and the
// fleet shares and paces through a promoted replica within moments of
// its promotion. Until then the failed master's authorities are fetched
// by every process for itself, and paced requests to them fail. Redis
// replicates asynchronously: what a master had not passed on when it
// died is lost, so an entry may be fetched again, a lease taken twice, or
// one pair of requests to a site come closer than its crawl-delay.
//
// Set these in the redis.ClusterOptions (as the example of [New] does):
//
//   - ContextTimeoutEnabled: true, as for any client.
//   - DialerRetries: 1. go-redis dials a node five times, 100 ms apart, by
//     default, so a dead node costs 400 ms before the client tries
//     another, longer than the Store's timeout. A process started with a
//     dead master among its seed addresses then misses the Store, and
//     fetches for itself, for up to a second at its start. [New] loads the
//     slot map in the background to shorten this, but only a refused dial
//     that fails at once avoids it.
//   - DialTimeout of a second or less, so that a node whose host is gone
//     (no refusal, no answer) does not hold up each reload of the slot
//     map for the default 5 s.
//   - Leave ReadOnly, RouteByLatency and RouteRandomly off: they send the
//     Store's reads to replicas, which lag their master, so an entry just
//     written would be missed and fetched again. Leases and pacing run as
//     scripts, on masters, either way.
//
// And in the servers' configuration, cluster-require-full-coverage no:
// otherwise, from the moment a master is found failed until its replica
// is promoted, every node refuses every command, and the whole fleet
// stops sharing and pacing instead of the failed master's slots only.
// cluster-node-timeout sets how long a failover takes: a replica is
// promoted that long plus one to two seconds after its master dies.
package redisstore
