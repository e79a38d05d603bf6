// Package redisstore is a robotstxt.Store on Redis, so that a fleet of
// crawler processes shares one cache of robots.txt files and fetches each
// authority's file once instead of once per process.
//
// Use it as
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	client := robotstxt.NewClient(robotstxt.WithStore(redisstore.New(rdb)))
//
// Any redis.UniversalClient works: a standalone server, Sentinel or Redis
// Cluster. The value of an authority is kept under
// "robotstxt:{<authority>}" and its fetch lease under
// "robotstxt:{<authority>}:lease"; the braces are a Redis Cluster hash tag,
// so both keys live in one slot.
//
// Every Redis call is bounded by a short timeout (WithTimeout). Set
// ContextTimeoutEnabled in the go-redis options: calls then run in the
// caller's goroutine; without it, each call runs in a goroutine of its own
// so that the timeout holds even while go-redis waits on a socket, which
// costs about a third more per call. After a few
// consecutive failures the Store stops calling Redis for a second at a
// time and answers ErrUnavailable at once, then probes Redis with a single
// call and resumes when it answers. The Client treats every Store error as
// a miss, so a Redis outage costs extra robots.txt fetches, never wrong
// answers or errors.
package redisstore
