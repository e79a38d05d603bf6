package redisstore

import (
	"log/slog"
	"strings"
	"time"
)

// DefaultPrefix is the key prefix used unless WithPrefix gives another.
const DefaultPrefix = "robotstxt:"

// DefaultTimeout bounds each Redis call unless WithTimeout gives another.
const DefaultTimeout = 200 * time.Millisecond

// An Option configures a Store made by New.
type Option func(*config)

type config struct {
	prefix  string
	timeout time.Duration
	logger  *slog.Logger
}

func defaultConfig() config {
	return config{prefix: DefaultPrefix, timeout: DefaultTimeout, logger: slog.New(slog.DiscardHandler)}
}

// WithPrefix sets the prefix of every key the Store writes (default
// "robotstxt:"). Processes that should share entries must use the same
// prefix; different prefixes keep separate caches in one Redis. Braces
// are removed from the prefix, since '{' or '}' would change the keys'
// cluster hash tag.
func WithPrefix(prefix string) Option {
	return func(c *config) { c.prefix = strings.NewReplacer("{", "", "}", "").Replace(prefix) }
}

// WithTimeout bounds every Redis call the Store makes, on top of any
// deadline of the caller's context (default 200 ms). A non-positive d keeps
// the default.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithLogger sets the logger for what the Store cannot return as an error:
// Redis becoming unavailable or available again, and failed lease
// releases. Each kind of message is logged at most once every five seconds.
// The default, like the Client's, discards everything; a nil l keeps it.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}
