package bench

import (
	"bytes"
	stdflate "compress/flate"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	kflate "github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// codec is one way to keep a body compressed: comp appends the
// compressed form of src to dst, decomp the original.
type codec struct {
	name   string
	comp   func(dst, src []byte) []byte
	decomp func(dst, src []byte) ([]byte, error)
}

// stdFlate is compress/flate at level, with a pooled writer and reader,
// as the Client used it.
func stdFlate(level int, dict []byte) codec {
	w, _ := stdflate.NewWriterDict(nil, level, dict)
	r := stdflate.NewReaderDict(bytes.NewReader(nil), dict)
	name := fmt.Sprintf("std-flate-%d", level)
	if dict != nil {
		name += "+dict"
	}
	return streamCodec(name, w, func(src []byte) io.Reader {
		_ = r.(stdflate.Resetter).Reset(bytes.NewReader(src), dict)
		return r
	})
}

// kFlate is github.com/klauspost/compress/flate at level.
func kFlate(level int) codec {
	w, _ := kflate.NewWriter(nil, level)
	r := kflate.NewReader(bytes.NewReader(nil))
	return streamCodec(fmt.Sprintf("klauspost-flate-%d", level), w, func(src []byte) io.Reader {
		_ = r.(kflate.Resetter).Reset(bytes.NewReader(src), nil)
		return r
	})
}

// resettableWriter is a flate writer of either package.
type resettableWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

// streamCodec is a codec over a flate stream: w, reused for every body,
// and reader, which returns the pooled reader reset to read src.
func streamCodec(name string, w resettableWriter, reader func(src []byte) io.Reader) codec {
	var buf bytes.Buffer
	return codec{name,
		func(dst, src []byte) []byte {
			buf.Reset()
			w.Reset(&buf)
			_, _ = w.Write(src)
			_ = w.Close()
			return append(dst, buf.Bytes()...)
		},
		func(dst, src []byte) ([]byte, error) {
			var out bytes.Buffer
			out.Grow(4 * len(src))
			_, err := io.Copy(&out, reader(src))
			return append(dst, out.Bytes()...), err
		}}
}

// s2Codec is S2's block format, its default or better encoder, with a
// dictionary when dict is not nil.
func s2Codec(better bool, dict []byte) codec {
	name := "s2"
	if better {
		name += "-better"
	}
	if dict == nil {
		enc := s2.Encode
		if better {
			enc = s2.EncodeBetter
		}
		return codec{name, func(dst, src []byte) []byte {
			return append(dst, enc(nil, src)...)
		}, func(dst, src []byte) ([]byte, error) {
			out, err := s2.Decode(nil, src)
			return append(dst, out...), err
		}}
	}
	d := s2.MakeDict(dict, []byte("User-agent: *"))
	enc := d.Encode
	if better {
		enc = d.EncodeBetter
	}
	return codec{name + "+dict", func(dst, src []byte) []byte {
		return append(dst, enc(nil, src)...)
	}, func(dst, src []byte) ([]byte, error) {
		out, err := d.Decode(nil, src)
		return append(dst, out...), err
	}}
}

// zstdCodec is Zstandard at level, with a dictionary when dict is not
// nil, through EncodeAll and DecodeAll (one-shot, for whole bodies).
func zstdCodec(tb testing.TB, level zstd.EncoderLevel, dict []byte) codec {
	eopts := []zstd.EOption{zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true)}
	dopts := []zstd.DOption{zstd.WithDecoderConcurrency(1)}
	name := "zstd-" + level.String()
	if dict != nil {
		eopts = append(eopts, zstd.WithEncoderDictRaw(bodyDictID, dict))
		dopts = append(dopts, zstd.WithDecoderDictRaw(bodyDictID, dict))
		name += "+dict"
	}
	enc, err := zstd.NewWriter(nil, eopts...)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := zstd.NewReader(nil, dopts...)
	if err != nil {
		tb.Fatal(err)
	}
	return codec{name, func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) }, func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }}
}

// codecs returns the codecs measured, dict being a Zstandard dictionary
// and raw its content for the codecs that take raw dictionaries.
func codecs(tb testing.TB, dict, raw []byte) []codec {
	return []codec{
		stdFlate(stdflate.DefaultCompression, nil),
		stdFlate(stdflate.BestSpeed, nil),
		stdFlate(stdflate.DefaultCompression, tail(raw, 32<<10)),
		kFlate(kflate.DefaultCompression),
		kFlate(kflate.BestSpeed),
		s2Codec(false, nil),
		s2Codec(true, nil),
		s2Codec(false, tail(raw, 64<<10)),
		zstdCodec(tb, zstd.SpeedFastest, nil),
		zstdCodec(tb, zstd.SpeedDefault, nil),
		zstdCodec(tb, zstd.SpeedFastest, dict),
		zstdCodec(tb, zstd.SpeedDefault, dict),
		bySize(s2Codec(false, tail(raw, 64<<10)), zstdCodec(tb, zstd.SpeedFastest, nil), 32<<10),
	}
}

// bySize is the Client's choice: small below size, large from it. The
// Client marks which with a byte, which is left out here.
func bySize(small, large codec, size int) codec {
	return codec{fmt.Sprintf("%s<%dKiB,%s", small.name, size>>10, large.name),
		func(dst, src []byte) []byte {
			if len(src) < size {
				return small.comp(dst, src)
			}
			return large.comp(dst, src)
		},
		func(dst, src []byte) ([]byte, error) {
			// Try the small codec's format first: a Zstandard frame
			// starts with its magic number, which S2 cannot.
			if len(src) >= 4 && string(src[:4]) == "\x28\xb5\x2f\xfd" {
				return large.decomp(dst, src)
			}
			return small.decomp(dst, src)
		}}
}

// tail returns the last n bytes of b: the end of a dictionary holds its
// most useful content, since matches prefer near offsets.
func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }

// bodyDict returns the Zstandard dictionary the Client embeds and its
// raw content.
func bodyDict(tb testing.TB) (dict, raw []byte) {
	dict, err := os.ReadFile(dictPath)
	if err != nil {
		tb.Skipf("dictionary: %v", err)
	}
	return dict, dictContent(tb, dict)
}

// BenchmarkCodecs compresses and decompresses every corpus body (cut at
// 500 KiB, as the Client reads it) with each codec and reports the size
// against the bodies' (ratio), the speed over the corpus (MB/s of body in
// and out), and the mean time per file of each direction, which at the
// corpus's mix of sizes is what a cold fetch pays. One op is one pass over
// the corpus both ways; run it with -benchtime=1x or a few x.
func BenchmarkCodecs(b *testing.B) {
	files, _ := loadCorpus(b)
	bodies := make([][]byte, len(files))
	var total int64
	for i, f := range files {
		bodies[i] = f.body[:min(len(f.body), maxBody)]
		total += int64(len(bodies[i]))
	}
	dict, raw := bodyDict(b)
	for _, c := range codecs(b, dict, raw) {
		b.Run(c.name, func(b *testing.B) {
			zs := make([][]byte, len(bodies))
			var tc, td time.Duration
			var size int64
			for b.Loop() {
				size = 0
				start := time.Now()
				for i, body := range bodies {
					zs[i] = c.comp(zs[i][:0], body)
				}
				tc += time.Since(start)
				start = time.Now()
				for i, z := range zs {
					out, err := c.decomp(nil, z)
					if err != nil || !bytes.Equal(out, bodies[i]) {
						b.Fatalf("%s: file %s does not round-trip: %v", c.name, files[i].name, err)
					}
					size += int64(len(z))
				}
				td += time.Since(start)
			}
			n := float64(b.N)
			b.ReportMetric(float64(size)/float64(total), "ratio")
			b.ReportMetric(float64(total)*n/tc.Seconds()/1e6, "MB/s-comp")
			b.ReportMetric(float64(total)*n/td.Seconds()/1e6, "MB/s-decomp")
			b.ReportMetric(float64(tc.Nanoseconds())/n/float64(len(bodies))/1e3, "µs-comp/file")
			b.ReportMetric(float64(td.Nanoseconds())/n/float64(len(bodies))/1e3, "µs-decomp/file")
		})
	}
}
