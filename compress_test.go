package robotstxt

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestCompressRejects checks that decompress reads only what compress
// writes: a frame without the body dictionary, without a stated size or
// of several segments, or stating a size it does not hold, is an error,
// never a body and never an allocation beyond the limit.
func TestCompressRejects(t *testing.T) {
	body := []byte(strings.Repeat("Disallow: /private/\n", 100))
	plain, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	otherDict, _ := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(bodyDictID+1, bodyDict), zstd.WithSingleSegment(true))
	streamed, _ := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(bodyDictID, bodyDict), zstd.WithSingleSegment(false))
	good := compress(body)
	lying := bytes.Clone(good)
	lying[len(lying)-1] ^= 0xff
	cases := map[string][]byte{
		"garbage":       []byte("not zstd at all"),
		"no dictionary": plain.EncodeAll(body, nil),
		"other id":      otherDict.EncodeAll(body, nil),
		"many segments": streamed.EncodeAll(body, nil),
		"truncated":     good[:len(good)-3],
		"corrupt":       lying,
		"two frames":    append(bytes.Clone(good), good...),
		"empty":         nil,
	}
	for name, z := range cases {
		if got, err := decompress(z, int64(len(body))+1); !errors.Is(err, errDecompress) {
			t.Errorf("%s: decompressed %d bytes, %v", name, len(got), err)
		}
	}
	if got, err := decompress(good, int64(len(body))); err != nil || !bytes.Equal(got, body) {
		t.Errorf("good frame at its limit: %d bytes, %v", len(got), err)
	}
}

// TestCompressDictionary checks that the dictionary is the one whose id
// the frames name and that it works: a typical small robots.txt
// compresses to a fraction of what it does without it.
func TestCompressDictionary(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://example.com/sitemap.xml\n")
	var h zstd.Header
	z := compress(body)
	if err := h.Decode(z); err != nil || h.DictionaryID != bodyDictID {
		t.Fatalf("frame header %+v, %v", h, err)
	}
	plain, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithSingleSegment(true))
	without := plain.EncodeAll(body, nil)
	if 2*len(z) > len(without) {
		t.Errorf("%d bytes: %d with the dictionary, %d without", len(body), len(z), len(without))
	}
}

func TestCompressRoundTrip(t *testing.T) {
	for _, s := range []string{"", privateRules, strings.Repeat("Disallow: /x\n", 5000)} {
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
