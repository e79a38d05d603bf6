package redisstore

import (
	"bytes"
	"testing"
	"time"
)

// BenchmarkStoreGet: one Get of a 484-byte value (the corpus median size)
// from a loopback redis-server.
func BenchmarkStoreGet(b *testing.B) {
	s, _, _ := newStore(b)
	if err := s.Set(b.Context(), authority, bytes.Repeat([]byte("x"), 484), time.Hour); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Get(b.Context(), authority); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreSet: one Set of a 484-byte value.
func BenchmarkStoreSet(b *testing.B) {
	s, _, _ := newStore(b)
	v := bytes.Repeat([]byte("x"), 484)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Set(b.Context(), authority, v, time.Hour); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreLease: taking and releasing a lease (two script calls).
func BenchmarkStoreLease(b *testing.B) {
	s, _, _ := newStore(b)
	b.ReportAllocs()
	for b.Loop() {
		release, ok, err := s.Lease(b.Context(), authority, time.Minute)
		if err != nil || !ok {
			b.Fatalf("Lease: ok=%v err=%v", ok, err)
		}
		release()
	}
}
