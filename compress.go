package robotstxt

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// A cached body is kept compressed with Zstandard at its fastest level
// and a dictionary of the lines robots.txt files share most (body.dict,
// built from the corpus sample by internal/bench's TestBodyDict, which
// says how). Measured over the corpus (internal/bench BenchmarkCodecs),
// it leaves bodies at 0.19–0.20 of their size, as small as flate at its
// default level, while it compresses about five times as fast (a cold
// fetch pays it) and decompresses about twice as fast; without the
// dictionary the small bodies most sites serve compress far less.

//go:embed body.dict
var bodyDict []byte

// bodyDictID names the dictionary in the Store encoding and in every
// frame: a value compressed with another dictionary is not read. It
// changes whenever body.dict does.
const bodyDictID = 0x72620001

var (
	bodyEncOnce sync.Once
	bodyEnc     *zstd.Encoder
	bodyDecOnce sync.Once
	bodyDec     *zstd.Decoder
)

// bodyEncoder returns the encoder, made on first use: it holds a table
// per CPU that a process that never fetches need not pay for.
func bodyEncoder() *zstd.Encoder {
	bodyEncOnce.Do(func() {
		var err error
		bodyEnc, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderDictRaw(bodyDictID, bodyDict),
			zstd.WithEncoderCRC(false), // the Store encoding is checked as it is read
			zstd.WithLowerEncoderMem(true),
			// Every frame states its size, which decompress needs, and
			// an empty body is a frame too.
			zstd.WithSingleSegment(true),
			zstd.WithZeroFrames(true),
		)
		if err != nil {
			panic("robotstxt: body encoder: " + err.Error())
		}
	})
	return bodyEnc
}

func bodyDecoder() *zstd.Decoder {
	bodyDecOnce.Do(func() {
		var err error
		bodyDec, err = zstd.NewReader(nil,
			zstd.WithDecoderDictRaw(bodyDictID, bodyDict),
			zstd.WithDecoderLowmem(true),
			zstd.WithDecodeAllCapLimit(true), // never past the cap decompress gives it
		)
		if err != nil {
			panic("robotstxt: body decoder: " + err.Error())
		}
	})
	return bodyDec
}

// compress returns text compressed, in a slice of its exact size: the
// encoder writes into a pooled scratch buffer, which is then copied, so
// that what the entry keeps is not the buffer the encoder grew.
func compress(text []byte) []byte {
	p, _ := scratch.Get().(*[]byte)
	if p == nil {
		p = new([]byte)
	}
	z := bodyEncoder().EncodeAll(text, (*p)[:0])
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

// decompress returns the body compressed in z, failing when it does not
// decompress, or would be longer than limit: z must be one single-segment
// frame that states its size, as compress writes it, so that no more than
// that is ever allocated, whoever wrote z.
func decompress(z []byte, limit int64) ([]byte, error) {
	var h zstd.Header
	if err := h.Decode(z); err != nil {
		return nil, fmt.Errorf("%w: %v", errDecompress, err)
	}
	switch {
	case !h.SingleSegment || !h.HasFCS:
		// A window of its own size is what bounds the decoder's memory.
		return nil, fmt.Errorf("%w: not one segment of stated size", errDecompress)
	case h.FrameContentSize > uint64(limit):
		return nil, fmt.Errorf("%w: longer than %d bytes", errDecompress, limit)
	case h.DictionaryID != bodyDictID && h.FrameContentSize > 0: // an empty frame names none
		return nil, fmt.Errorf("%w: dictionary %#x", errDecompress, h.DictionaryID)
	}
	b, err := bodyDecoder().DecodeAll(z, make([]byte, 0, h.FrameContentSize))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errDecompress, err)
	}
	if uint64(len(b)) != h.FrameContentSize {
		return nil, fmt.Errorf("%w: %d bytes, not the %d stated", errDecompress, len(b), h.FrameContentSize)
	}
	return b, nil
}
