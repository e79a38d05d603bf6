package robotstxt

// NewMemStoreForTest makes the in-memory Store of the Client's tests
// (memstore_test.go), for the external test of its Store contract.
var NewMemStoreForTest = func() Store { return newMemStore() }
