package robotstxt_test

import (
	"testing"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/storetest"
)

// TestStoreContract runs the Store contract of store.go against the
// in-memory Store that the Client's tests share between Clients, so that
// what those tests prove holds for a Store that keeps the contract.
func TestStoreContract(t *testing.T) {
	storetest.Run(t, func(*testing.T) robotstxt.Store { return robotstxt.NewMemStoreForTest() })
}
