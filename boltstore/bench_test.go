package boltstore

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The benchmarks write 1 KiB values (about a compressed robots.txt with
// the Client's header) under 10,000 authorities, in a file on the test's
// temporary directory, and compare the Store with bbolt used directly:
// one transaction per Put (synced, as every commit) or Get.
var (
	benchValue = bytes.Repeat([]byte("x"), 1<<10)
	benchKeys  = func() []string {
		keys := make([]string, 10_000)
		for i := range keys {
			keys[i] = fmt.Sprintf("https://site%d.example:443", i)
		}
		return keys
	}()
)

// benchKey returns the i-th key, cycling through benchKeys.
func benchKey(i int) string { return benchKeys[i%len(benchKeys)] }

// BenchmarkSet is the time a Set takes its caller: recording the value
// for the writer, while the writer commits the values as fast as it can
// on the other core. The 10,000 keys' values take about 10 MiB, so the
// queue never fills.
func BenchmarkSet(b *testing.B) {
	s, _ := newStore(b)
	ctx := b.Context()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := s.Set(ctx, benchKey(i), benchValue, time.Hour); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetCommitted is BenchmarkSet until every value is in the
// file: the write throughput of the Store. (It loops on b.N, so that the
// timer runs until the last commit.)
func BenchmarkSetCommitted(b *testing.B) {
	s, _ := newStore(b)
	ctx := b.Context()
	b.ResetTimer()
	for i := range b.N {
		if err := s.Set(ctx, benchKey(i), benchValue, time.Hour); err != nil {
			b.Fatal(err)
		}
	}
	flushed(b, s)
}

// BenchmarkGet reads committed values.
func BenchmarkGet(b *testing.B) {
	s, _ := newStore(b)
	for _, k := range benchKeys {
		set(b, s, k, benchValue)
	}
	flushed(b, s)
	ctx := b.Context()
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Get(ctx, benchKeys[rng.IntN(len(benchKeys))]); err != nil {
			b.Fatal(err)
		}
	}
}

// rawDB opens a bbolt file with one bucket, for the baselines.
func rawDB(b *testing.B) *bolt.DB {
	b.Helper()
	db, err := bolt.Open(filepath.Join(b.TempDir(), "raw.db"), 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket(bucketValues); return err }); err != nil {
		b.Fatal(err)
	}
	return db
}

// rawPut puts one value in its own transaction.
func rawPut(db *bolt.DB, key string) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error { return tx.Bucket(bucketValues).Put([]byte(key), benchValue) }
}

// BenchmarkRawPut is the baseline of BenchmarkSet: one bbolt Update per
// value.
func BenchmarkRawPut(b *testing.B) {
	db := rawDB(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := db.Update(rawPut(db, benchKey(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawBatch is bbolt's own batching, db.Batch, for one caller at
// a time, as the Client's fill calls Set.
func BenchmarkRawBatch(b *testing.B) {
	db := rawDB(b)
	for i := 0; b.Loop(); i++ {
		if err := db.Batch(rawPut(db, benchKey(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawGet is the baseline of BenchmarkGet: one bbolt View per
// value, copying it out.
func BenchmarkRawGet(b *testing.B) {
	db := rawDB(b)
	err := db.Update(func(tx *bolt.Tx) error {
		for _, k := range benchKeys {
			if err := tx.Bucket(bucketValues).Put([]byte(k), benchValue); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		err := db.View(func(tx *bolt.Tx) error {
			_ = bytes.Clone(tx.Bucket(bucketValues).Get([]byte(benchKeys[rng.IntN(len(benchKeys))])))
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen opens a file of the 10,000 values (20 MiB, in the page
// cache), as Open does by default and with WithReplaceDamaged, which
// checks the whole file.
func BenchmarkOpen(b *testing.B) {
	s, path := newStore(b)
	for _, k := range benchKeys {
		set(b, s, k, benchValue)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts []Option
	}{{"default", nil}, {"checked", []Option{WithReplaceDamaged()}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				s, err := Open(path, c.opts...)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChecksum is what the checksum adds to a Get of a 1 KiB value:
// checking the row.
func BenchmarkChecksum(b *testing.B) {
	key := []byte(benchKey(0))
	row := header{expires: 1, seq: 1}.row(key, benchValue)
	for b.Loop() {
		if _, _, ok := parseRow(key, row); !ok {
			b.Fatal("checksum fails")
		}
	}
}

// BenchmarkBoundLowered is the commit that brings a file of 100,000
// small entries, written unbounded, under a WithMaxBytes of a tenth of
// its size, which a crawler restarted with a bound (or a lower one) makes
// at its first Set: the time Close waits for it. Each row a commit drops
// was once found from the first, over every leaf the commit had emptied:
// quadratic in the rows dropped (0.6 s here, 34 s for 400,000).
func BenchmarkBoundLowered(b *testing.B) {
	const n = 100_000
	dir := b.TempDir()
	full := filepath.Join(dir, "full.db")
	s, err := Open(full)
	if err != nil {
		b.Fatal(err)
	}
	exp := time.Now().Add(time.Hour).UnixNano()
	if err := s.db.Update(func(tx *bolt.Tx) error {
		w := writable(tx)
		for i := range n {
			if err := w.put(fmt.Sprintf("https://host-%08d.example:443", i), &record{value: make([]byte, 20), expires: exp}); err != nil {
				return err
			}
		}
		return w.saveLive()
	}); err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		path := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			b.Fatal(err)
		}
		s, err := Open(path, WithMaxBytes(int64(len(data)/10)))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := s.Set(b.Context(), "https://new.example:443", []byte("v"), time.Hour); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = os.Remove(path)
		b.StartTimer()
	}
}
