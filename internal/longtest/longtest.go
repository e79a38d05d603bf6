// Package longtest gates the tests that take seconds each, so that a
// contributor's go test of the repository finishes in a few minutes on two
// cores: the Redis fleet, cluster and failover tests over two seconds, and
// every other test over five (under go test -race). CI runs them all:
// .ci/run sets ROBOTSTXT_LONG_TESTS=1 before the same command.
package longtest

import (
	"os"
	"testing"
)

// Env names the environment variable that runs the long tests when it
// is "1".
const Env = "ROBOTSTXT_LONG_TESTS"

// Gate skips the calling test unless Env is "1". A long test calls it
// first.
func Gate(tb testing.TB) {
	tb.Helper()
	if os.Getenv(Env) != "1" {
		tb.Skipf("a long test: %s=1 runs it", Env)
	}
}
