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

// A cached body is kept compressed, its first byte naming the codec:
// under largeBody, S2 with a dictionary of the lines robots.txt files
// share most (body.dict, built by internal/bench's TestBodyDict), which is
// what makes small bodies compress at all; from largeBody, Zstandard at
// its fastest, whose matches reach further back. internal/bench's README
// (BenchmarkCodecs) has the figures behind the choice.

//go:embed body.dict
var bodyDict []byte

// bodyDictID names body.dict in the Store encoding, which reads no value
// compressed with another; it changes whenever body.dict does.
const bodyDictID = 0x72620001

// The first byte of a kept body: its codec.
const (
	codecS2   = 1 // an S2 block compressed with bodyDict
	codecZstd = 2 // a single-segment Zstandard frame, no dictionary
)

// largeBody is the size from which bodies go to Zstandard (see above).
const largeBody = 32 << 10

// maxZstdRatio bounds how much a Zstandard frame can hold for each of its
// bytes: a block of a run of one byte, its most, is 4 bytes (a 3-byte
// header and the byte) for at most 128 KiB.
const maxZstdRatio = 128 << 10 / 4

var s2Dict = s2.MakeDict(bodyDict, []byte("User-agent: *"))

// zstdEncoder is made on first use: it holds a table per CPU that a
// process that never fetches a large body need not pay for.
var zstdEncoder = sync.OnceValue(newZstdEncoder)

// zstdWindow is how far back the encoder's matches reach: the default
// body limit (500 KiB) rounded up to a power of two, so that a body up
// to it compresses whole (TestZstdWindowHoldsDefaultBody). Each of the
// encoders, one per CPU, keeps a history of its window for good, which
// no cache budget counts: about 1.5 MiB each with this window.
const zstdWindow = 512 << 10

func newZstdEncoder() *zstd.Encoder {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithEncoderCRC(false), // the Store encoding has a checksum of its own
		zstd.WithLowerEncoderMem(true),
		zstd.WithWindowSize(zstdWindow),
		zstd.WithSingleSegment(true), // every frame states its size, which decompress needs
	)
	if err != nil {
		panic("robotstxt: body encoder: " + err.Error())
	}
	return enc
}

var zstdDecoder = sync.OnceValue(func() *zstd.Decoder {
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderLowmem(true),
		zstd.WithDecodeAllCapLimit(true), // never past the cap decompress gives it
	)
	if err != nil {
		panic("robotstxt: body decoder: " + err.Error())
	}
	return dec
})

// compress returns text compressed, in a slice of its exact size: the
// encoders write into a pooled buffer, which is copied.
func compress(text []byte) []byte {
	p := scratch.Get().(*[]byte)
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

// scratch holds compress's buffers of at most maxScratch bytes: most
// bodies compress to under a kilobyte, and a rare large one's buffer
// would be kept for nothing.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

const maxScratch = 64 << 10

// errDecompress is wrapped when a compressed body does not decompress
// within its limit.
var errDecompress = errors.New("robotstxt: compressed body unreadable")

// decompress returns the body kept in z in a new slice, failing when it
// does not decompress or would be longer than limit. Both codecs state
// the size up front, so nothing larger is allocated, whoever wrote z; and
// no more than z can hold: S2's is under largeBody, as compress writes
// it, and Zstandard's at most maxZstdRatio times z's length. A few bytes
// stating more had each read allocate up to limit before failing.
func decompress(z []byte, limit int64) ([]byte, error) {
	if len(z) == 0 {
		return nil, fmt.Errorf("%w: empty", errDecompress)
	}
	codec, z := z[0], z[1:]
	var size uint64
	var err error
	switch codec {
	case codecS2:
		var n int
		n, err = s2.DecodedLen(z)
		size = uint64(n)
		if err == nil && n >= largeBody {
			return nil, fmt.Errorf("%w: an S2 block of %d bytes", errDecompress, n)
		}
	case codecZstd:
		var h zstd.Header
		if err = h.Decode(z); err == nil && (!h.SingleSegment || !h.HasFCS || h.DictionaryID != 0) {
			return nil, fmt.Errorf("%w: not one segment of stated size", errDecompress)
		}
		size = h.FrameContentSize
		if err == nil && size/maxZstdRatio >= uint64(len(z)) {
			return nil, fmt.Errorf("%w: a Zstandard frame of %d bytes stating %d", errDecompress, len(z), size)
		}
	default:
		return nil, fmt.Errorf("%w: codec %d", errDecompress, codec)
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %w", errDecompress, err)
	case size > uint64(limit):
		return nil, fmt.Errorf("%w: longer than %d bytes", errDecompress, limit)
	}
	b := make([]byte, 0, size)
	if codec == codecS2 {
		b, err = s2Dict.Decode(b, z)
	} else {
		b, err = zstdDecoder().DecodeAll(z, b)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errDecompress, err)
	}
	if uint64(len(b)) != size {
		return nil, fmt.Errorf("%w: %d bytes, not the %d stated", errDecompress, len(b), size)
	}
	return b, nil
}
