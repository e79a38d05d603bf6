// Package heap measures the live heap for the benchmarks of this module:
// the test benchmarks and the million program both read it the same way.
package heap

import "runtime"

// InUse returns the live heap after full collections: two, so that the
// objects the first finds dead with finalizers or weak references are
// gone too.
func InUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
