// Package longtest gates the tests that take seconds each (the Redis
// fleet, cluster and failover tests over two seconds, any other over five
// under -race), so that go test of the repository takes minutes on two
// cores. CI runs them all: .ci/run sets Env to "1".
package longtest

import (
	"os"
	"testing"
)

// Env names the environment variable that runs the long tests when "1".
const Env = "ROBOTSTXT_LONG_TESTS"

// Gate skips the calling test unless Env is "1"; a long test calls it first.
func Gate(tb testing.TB) {
	tb.Helper()
	if os.Getenv(Env) != "1" {
		tb.Skipf("a long test: %s=1 runs it", Env)
	}
}
