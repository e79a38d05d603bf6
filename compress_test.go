package robotstxt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/robotsgate/robotstxt/internal/body"
)

// TestCompressRejects checks that decompress reads only what compress
// writes: an unknown codec, a Zstandard frame with a dictionary, without
// a stated size or of several segments, a block or frame that does not
// hold what it states, is an error, never a body and never an allocation
// beyond the limit. (Neither codec carries a checksum, as flate did not:
// a changed literal byte goes unnoticed, and the Store is trusted to
// keep values byte for byte.)
func TestCompressRejects(t *testing.T) {
	small := []byte(strings.Repeat("Disallow: /private/\n", 100))
	large := []byte(strings.Repeat("Disallow: /private/\n", 5000))
	withDict, _ := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(bodyDictID, bodyDict), zstd.WithSingleSegment(true))
	streamed, _ := zstd.NewWriter(nil, zstd.WithSingleSegment(false))
	frame := func(enc *zstd.Encoder, b []byte) []byte { return append([]byte{codecZstd}, enc.EncodeAll(b, nil)...) }
	for _, body := range [][]byte{small, large} {
		good := compress(body)
		cases := map[string][]byte{
			"empty":          nil,
			"codec only":     good[:1],
			"unknown codec":  append([]byte{9}, good[1:]...),
			"garbage":        append([]byte{good[0]}, "not compressed at all"...),
			"truncated":      good[:len(good)-3],
			"two copies":     append(bytes.Clone(good), good[1:]...),
			"zstd with dict": frame(withDict, body),
			"many segments":  frame(streamed, body),
			"s2 as zstd":     append([]byte{codecZstd}, compress(small)[1:]...),
		}
		for name, z := range cases {
			if got, err := decompress(z, int64(len(body))+1); !errors.Is(err, errDecompress) {
				t.Errorf("%d-byte body, %s: decompressed %d bytes, %v", len(body), name, len(got), err)
			}
		}
		if got, err := decompress(good, int64(len(body))); err != nil || !bytes.Equal(got, body) {
			t.Errorf("%d-byte body at its limit: %d bytes, %v", len(body), len(got), err)
		}
		if _, err := decompress(good, int64(len(body))-1); !errors.Is(err, errDecompress) {
			t.Errorf("%d-byte body past its limit: %v", len(body), err)
		}
	}
}

// TestDecompressAllocatesWhatCompressWrites: an S2 block of a few bytes
// stating a size of S2's no compress writes (largeBody or more), or a
// Zstandard frame stating more than its bytes can hold, is refused before
// anything of that size is allocated: a Store value of 70 bytes had each
// read allocate the limit, 48 MiB under a body limit of 16 MiB, every 50
// ms for a process waiting on a lease.
func TestDecompressAllocatesWhatCompressWrites(t *testing.T) {
	const limit = 48 << 20
	s2 := binary.AppendUvarint([]byte{codecS2}, limit)
	s2 = append(s2, 0, 1, 2)
	// A Zstandard frame header stating limit bytes, one segment, then an
	// empty last raw block: 13 bytes.
	zstd := []byte{codecZstd, 0x28, 0xb5, 0x2f, 0xfd, 0xa0}
	zstd = binary.LittleEndian.AppendUint32(zstd, limit)
	zstd = append(zstd, 0x01, 0x00, 0x00)
	for name, z := range map[string][]byte{"S2": s2, "Zstandard": zstd} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := decompress(z, limit)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, errDecompress) {
			t.Fatalf("%s stating %d bytes: %v", name, limit, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > largeBody {
			t.Errorf("a %d-byte %s value allocated %d bytes before it failed; want under %d", len(z), name, n, largeBody)
		}
	}
}

// TestCompressCodecs checks which codec each size gets and that the
// dictionary works: a typical small robots.txt compresses to far less
// than S2 makes of it without the dictionary.
func TestCompressCodecs(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://example.com/sitemap.xml\n")
	z := compress(body)
	if z[0] != codecS2 {
		t.Fatalf("small body: codec %d", z[0])
	}
	if without := s2.Encode(nil, body); 3*(len(z)-1) > 2*len(without) {
		t.Errorf("%d bytes: %d with the dictionary, %d without", len(body), len(z)-1, len(without))
	}
	for _, n := range []int{largeBody - 1, largeBody} {
		want := byte(codecS2)
		if n >= largeBody {
			want = codecZstd
		}
		if z := compress(bytes.Repeat([]byte("a"), n)); z[0] != want {
			t.Errorf("%d bytes: codec %d, want %d", n, z[0], want)
		}
	}
}

func TestCompressRoundTrip(t *testing.T) {
	for _, s := range []string{"", privateRules, strings.Repeat("Disallow: /x\n", 2000), strings.Repeat("Disallow: /x\n", 5000)} {
		z := compress([]byte(s))
		got, err := decompress(z, int64(len(s))+1)
		if err != nil || string(got) != s {
			t.Errorf("decompress(compress(%d bytes)) = %d bytes, %v", len(s), len(got), err)
		}
		if len(s) > 1000 && len(z) > len(s)/4 {
			t.Errorf("%d bytes compressed to %d", len(s), len(z))
		}
	}
	// A body longer than the limit does not decompress: a Store value
	// cannot make the Client decompress without bound.
	z := compress(bytes.Repeat([]byte("a"), 1<<20))
	if _, err := decompress(z, 1000); !errors.Is(err, errDecompress) {
		t.Errorf("inflate past its limit: %v", err)
	}
	if _, err := decompress([]byte("not flate"), 1000); !errors.Is(err, errDecompress) {
		t.Errorf("inflate of garbage: %v", err)
	}
}

// FuzzDecompress: decompress never panics on bytes a Store returns, never
// returns more than its limit, and compress round-trips whatever it is
// given.
func FuzzDecompress(f *testing.F) {
	for _, s := range []string{"", privateRules, strings.Repeat("Disallow: /x\n", 3000)} {
		f.Add(compress([]byte(s)), []byte(s))
	}
	f.Add([]byte{codecS2, 0xff, 0xff, 0xff, 0xff, 0x0f}, []byte{})
	f.Add([]byte{codecZstd, 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00}, []byte{})
	f.Fuzz(func(t *testing.T, z, text []byte) {
		const limit = 1 << 16
		if b, err := decompress(z, limit); err == nil && len(b) > limit {
			t.Fatalf("%d bytes past the limit %d", len(b), limit)
		}
		if b, err := decompress(compress(text), int64(len(text))); err != nil || !bytes.Equal(b, text) {
			t.Fatalf("round trip of %d bytes: %d bytes, %v", len(text), len(b), err)
		}
	})
}

// TestZstdEncoderRetainsLittle: the body encoder, one per process with an
// encoder per CPU, keeps what it allocates for good, outside every cache
// budget: used by large bodies one at a time, as fetches are, on eight
// CPUs it keeps about 1.5 MiB an encoder (its window's history, 512
// KiB, and tables), not 4.5 MiB.
func TestZstdEncoderRetainsLittle(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8)) // an encoder per CPU
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 100<<10; i++ {
		fmt.Fprintf(&b, "Disallow: /%x/*.php$\n", i*2654435761)
	}
	text := []byte(b.String())
	heap := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	before := heap()
	enc := newZstdEncoder()
	for range 16 {
		_ = enc.EncodeAll(text, nil)
	}
	grown := heap() - before
	runtime.KeepAlive(enc)
	if grown > 12<<20 {
		t.Errorf("an encoder used by 16 bodies of %d bytes holds %.1f MiB: %.1f MiB a CPU", len(text), float64(grown)/(1<<20), float64(grown)/8/(1<<20))
	}
}

// TestZstdWindowHoldsDefaultBody: the encoder's window is the default
// body limit rounded up to a power of two.
func TestZstdWindowHoldsDefaultBody(t *testing.T) {
	if zstdWindow < body.DefaultLimit || zstdWindow >= 2*body.DefaultLimit || zstdWindow&(zstdWindow-1) != 0 {
		t.Errorf("zstdWindow %d is not the default body limit, %d, rounded up to a power of two", zstdWindow, body.DefaultLimit)
	}
}
