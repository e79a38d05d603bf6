package robotstxt

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// A cached body is kept compressed, by one of two codecs chosen by its
// size and named by the first byte of what is kept:
//
//   - codecS2 for bodies under largeBody: S2 with a dictionary of the
//     lines robots.txt files share most (body.dict, built from the corpus
//     sample by internal/bench's TestBodyDict, which says how). The
//     dictionary is what makes the small bodies most sites serve
//     compress at all.
//   - codecZstd for larger ones: Zstandard at its fastest level, whose
//     matches reach further back than S2's.
//
// Measured over the corpus (internal/bench BenchmarkCodecs and the
// table in its README): under 32 KiB, S2 with the dictionary keeps 0.53
// of the smallest bodies down to 0.26 of the largest, against 0.52 down to
// 0.19 for Zstandard with the same dictionary, at a fifth of its time;
// from 32 KiB Zstandard keeps a third less (0.16 of the body against
// 0.24) at about twice S2's time, and these few bodies hold most of the
// bytes a cache keeps. Together they keep 0.22 of the corpus at half the
// time of Zstandard with the dictionary for every body (which keeps 0.20)
// and a seventh of the time of flate at its default level (0.20). Even so
// it is the largest cost of a cold fetch beyond the parse (about 10 µs a
// body at the corpus's mix).

//go:embed body.dict
var bodyDict []byte

// bodyDictID names the dictionary in the Store encoding: a value
// compressed with another is not read. It changes whenever body.dict
// does.
const bodyDictID = 0x72620001

// The first byte of a kept body: its codec.
const (
	codecS2   = 1 // an S2 block compressed with bodyDict
	codecZstd = 2 // a single-segment Zstandard frame, no dictionary
)

// largeBody is the size from which bodies are compressed with Zstandard:
// see above.
const largeBody = 32 << 10

var s2Dict = s2.MakeDict(bodyDict, []byte("User-agent: *"))

var (
	zstdEncOnce sync.Once
	zstdEnc     *zstd.Encoder
	zstdDecOnce sync.Once
	zstdDec     *zstd.Decoder
)

// zstdEncoder returns the encoder, made on first use: it holds a table
// per CPU that a process that never fetches a large body need not pay
// for.
func zstdEncoder() *zstd.Encoder {
	zstdEncOnce.Do(func() {
		var err error
		zstdEnc, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderCRC(false), // the Store encoding is checked as it is read
			zstd.WithLowerEncoderMem(true),
			zstd.WithSingleSegment(true), // every frame states its size, which decompress needs
		)
		if err != nil {
			panic("robotstxt: body encoder: " + err.Error())
		}
	})
	return zstdEnc
}

func zstdDecoder() *zstd.Decoder {
	zstdDecOnce.Do(func() {
		var err error
		zstdDec, err = zstd.NewReader(nil,
			zstd.WithDecoderLowmem(true),
			zstd.WithDecodeAllCapLimit(true), // never past the cap decompress gives it
		)
		if err != nil {
			panic("robotstxt: body decoder: " + err.Error())
		}
	})
	return zstdDec
}

// compress returns text compressed, in a slice of its exact size: the
// encoders write into a pooled scratch buffer, which is then copied, so
// that what the entry keeps is not a buffer an encoder grew.
func compress(text []byte) []byte {
	p, _ := scratch.Get().(*[]byte)
	if p == nil {
		p = new([]byte)
	}
	buf := (*p)[:0]
	var z []byte
	if len(text) < largeBody {
		if n := 1 + s2.MaxEncodedLen(len(text)); cap(buf) < n {
			buf = make([]byte, 0, max(n, 4<<10))
		}
		z = append(buf, codecS2)
		z = z[:1+len(s2Dict.Encode(z[1:cap(z)], text))]
	} else {
		z = zstdEncoder().EncodeAll(text, append(buf, codecZstd))
	}
	out := bytes.Clone(z)
	if cap(z) <= maxScratch {
		*p = z[:0]
		scratch.Put(p)
	}
	return out
}

// scratch holds the buffers compress writes into, of at most maxScratch
// bytes: most bodies compress to less than a kilobyte, and a buffer kept
// for the rare large one would be kept for nothing.
var scratch sync.Pool // of *[]byte

const maxScratch = 64 << 10

// errDecompress is wrapped when a compressed body does not decompress
// within its limit.
var errDecompress = errors.New("robotstxt: compressed body unreadable")

// decompress returns the body kept in z, in a new slice, failing when it does not decompress, or would be longer than
// limit. Both codecs state the size up front, and nothing larger is ever
// allocated, whoever wrote z: a Zstandard frame must be one segment,
// whose window is its size.
func decompress(z []byte, limit int64) ([]byte, error) {
	if len(z) == 0 {
		return nil, fmt.Errorf("%w: empty", errDecompress)
	}
	codec, z := z[0], z[1:]
	var size uint64
	switch codec {
	case codecS2:
		n, err := s2.DecodedLen(z)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errDecompress, err)
		}
		size = uint64(n)
	case codecZstd:
		var h zstd.Header
		if err := h.Decode(z); err != nil {
			return nil, fmt.Errorf("%w: %v", errDecompress, err)
		}
		if !h.SingleSegment || !h.HasFCS || h.DictionaryID != 0 {
			return nil, fmt.Errorf("%w: not one segment of stated size", errDecompress)
		}
		size = h.FrameContentSize
	default:
		return nil, fmt.Errorf("%w: codec %d", errDecompress, codec)
	}
	if size > uint64(limit) {
		return nil, fmt.Errorf("%w: longer than %d bytes", errDecompress, limit)
	}
	b := make([]byte, 0, size)
	var err error
	switch codec {
	case codecS2:
		b, err = s2Dict.Decode(b, z)
	default:
		b, err = zstdDecoder().DecodeAll(z, b)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errDecompress, err)
	}
	if uint64(len(b)) != size {
		return nil, fmt.Errorf("%w: %d bytes, not the %d stated", errDecompress, len(b), size)
	}
	return b, nil
}
