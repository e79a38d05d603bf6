package redisstore

import (
	"log/slog"
	"strings"
	"time"

	"github.com/robotsgate/robotstxt/internal/sturdylog"
)

// The defaults of WithPrefix, WithTimeout and WithMaxValue. 4 MiB is eight
// times the most a Client writes by default, and spares reading whole a
// value of up to 512 MiB that someone else wrote.
const (
	defaultPrefix   = "robotstxt:"
	defaultTimeout  = 200 * time.Millisecond
	defaultMaxValue = 4 << 20
)

// An Option configures a Store made by New.
type Option func(*config)

type config struct {
	prefix   string
	timeout  time.Duration
	logger   *slog.Logger
	maxValue int64
}

// WithMaxValue bounds the size of the values Get reads (default 4 MiB):
// a longer one is an error, which the Client counts as the Store's
// failure (see robotstxt.Stats) and answers as a miss, and its site is
// fetched by every process. A value is about its robots.txt
// compressed, which text of random paths hardly is: raise it with a
// robotstxt.WithBodyLimit above 4 MiB. A non-positive n keeps the
// default.
func WithMaxValue(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxValue = n
		}
	}
}

// WithPrefix sets the prefix of every key the Store writes (default
// "robotstxt:"); processes share entries, and pace each site together,
// only under the same prefix. Processes of one crawler that keep their
// entries apart (those that sign requests and those that do not, as
// robotstxt.Store says) give their Transports one Store, on one prefix,
// to pace through with robotstxt.WithPacer.
//
// Each authority has up to two keys, and each site one pacing key (its
// http, https and www. twin share it: see robotstxt.Pacer), each
// expiring by itself:
//
//	robotstxt:{https://example.com:443}        its robots.txt entry
//	robotstxt:{https://example.com:443}:lease  the lease of the process fetching it
//	robotstxt:{example.com:}:pace              its site's pacing state (a hash)
//
// The braces, a Redis Cluster hash tag that puts an entry and its lease
// in one slot, are removed from the prefix. A Client with WithTDMRep also keeps each
// authority's tdmrep.json, under the key of its URL and a lease of its
// own (robotstxt:{https://example.com:443/.well-known/tdmrep.json}).
func WithPrefix(prefix string) Option {
	return func(c *config) { c.prefix = strings.NewReplacer("{", "", "}", "").Replace(prefix) }
}

// WithTimeout bounds every Redis call the Store makes, within any
// deadline of the caller's (default 200 ms). A non-positive d keeps the
// default.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithLogger sets the logger for Redis becoming unavailable or available
// again and failed lease releases, each kind logged at most once every
// five seconds (a node's news once each, a change held back logged by
// the first call to the node that ends once its five seconds are over,
// so that the last line about a node is its state as of its last call).
// Redis's state is logged in a goroutine of the Store's, so that a log
// that blocks holds up no call. The default discards everything; a nil l
// keeps it. A panic in l's handler drops the record.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = sturdylog.New(l)
		}
	}
}
