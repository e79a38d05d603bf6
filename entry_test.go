package robotstxt

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sampleEntries() []*entry {
	t0 := time.UnixMilli(1740830400123)
	return []*entry{
		{key: "https://example.com:443", outcome: OutcomeRules, status: 200, zbody: zipped(privateRules),
			fetched: t0, checked: t0, expires: t0.Add(24 * time.Hour), etag: `"abc"`,
			lastMod: "Sat, 01 Mar 2025 10:00:00 GMT", finalURL: "https://www.example.com/robots.txt"},
		{key: "http://a.example:80", outcome: OutcomeAllowAll, status: 404, fetched: t0, checked: t0,
			expires: t0.Add(time.Hour), finalURL: "http://a.example/robots.txt"},
		{key: "http://b.example:8080", outcome: OutcomeUnreachable, status: 503, failStatus: 503,
			failures: 3, fetched: t0, checked: t0, expires: t0.Add(4 * time.Minute), errText: "boom"},
		{key: "https://c.example:443", outcome: OutcomeRules, status: 200, zbody: zipped("User-agent: *\n"),
			fetched: t0.Add(-72 * time.Hour), checked: t0, expires: t0.Add(time.Minute), stale: true,
			failStatus: 0, failures: 1, errText: "dial tcp: refused"},
		{key: "https://d.example:443", outcome: OutcomeDisallowAll, status: 403},
	}
}

// stored returns the fields the encoding keeps, for comparison.
func stored(e *entry) []any {
	return []any{e.key, e.outcome, e.status, string(e.zbody), e.fetched.UnixMilli(), e.since.UnixMilli(), e.fetched.IsZero(),
		e.checked.UnixMilli(), e.expires.UnixMilli(), e.etag, e.lastMod, e.finalURL,
		e.stale, e.failStatus, e.failures, e.errText}
}

func TestEntryRoundTrip(t *testing.T) {
	for _, e := range sampleEntries() {
		b := encodeEntry(e)
		if b[0] != EntryEncodingVersion {
			t.Fatalf("first byte %d", b[0])
		}
		if len(b) > len(e.zbody)+len(e.etag)+len(e.lastMod)+len(e.finalURL)+len(e.errText)+40 {
			t.Errorf("encoding of %s is %d bytes: not compact", e.key, len(b))
		}
		got, err := decodeEntry(e.key, b)
		if err != nil {
			t.Fatalf("%s: %v", e.key, err)
		}
		if !reflect.DeepEqual(stored(got), stored(e)) {
			t.Errorf("round trip:\n got %v\nwant %v", stored(got), stored(e))
		}
		got.derive()
		if text, err := inflate(got.zbody, 1<<20); e.outcome == OutcomeRules && (err != nil || len(text) == 0) {
			t.Errorf("%s: body %q, %v after decoding", e.key, text, err)
		}
		if e.outcome == OutcomeUnreachable && (got.deferErr == nil || !errors.Is(got.deferErr, ErrDeferred)) {
			t.Errorf("%s: deferErr %v", e.key, got.deferErr)
		}
	}
}

func TestEntryDecodeRejects(t *testing.T) {
	good := encodeEntry(sampleEntries()[0])
	cases := map[string][]byte{
		"empty":          nil,
		"short":          good[:2],
		"version 0":      append([]byte{0}, good[1:]...),
		"future version": append([]byte{EntryEncodingVersion + 1}, good[1:]...),
		"bad outcome":    append([]byte{EntryEncodingVersion, 7}, good[2:]...),
		"bad flags":      append([]byte{EntryEncodingVersion, 0, 0x80}, good[3:]...),
		"truncated":      good[:len(good)-1],
		"trailing":       append(bytes.Clone(good), 0),
		"huge length":    {EntryEncodingVersion, 0, 0, 1, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"body on 404":    encodeEntry(&entry{outcome: OutcomeAllowAll, status: 404, zbody: []byte("x")}),
		"status 5000":    {EntryEncodingVersion, 0, 0, 0x88, 0x27},
	}
	for name, b := range cases {
		if e, err := decodeEntry("k", b); err == nil || !errors.Is(err, errCorruptEntry) {
			t.Errorf("%s: decoded %+v, %v", name, e, err)
		}
	}
}

func FuzzDecodeEntry(f *testing.F) {
	for _, e := range sampleEntries() {
		f.Add(encodeEntry(e))
	}
	f.Add([]byte{})
	f.Add([]byte{EntryEncodingVersion})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry("https://example.com:443", b)
		if err != nil {
			return
		}
		again, err := decodeEntry(e.key, encodeEntry(e))
		if err != nil {
			t.Fatalf("re-decoding a decoded entry: %v", err)
		}
		if !reflect.DeepEqual(stored(again), stored(e)) {
			t.Fatalf("round trip:\n got %v\nwant %v", stored(again), stored(e))
		}
		e.derive() // must not panic either
	})
}

// zipped returns s compressed as the Client keeps bodies.
func zipped(s string) []byte { return deflate([]byte(s)) }

func TestEntryBodyCompression(t *testing.T) {
	for _, s := range []string{"", privateRules, strings.Repeat("Disallow: /x\n", 5000)} {
		z := deflate([]byte(s))
		got, err := inflate(z, int64(len(s))+1)
		if err != nil || string(got) != s {
			t.Errorf("inflate(deflate(%d bytes)) = %d bytes, %v", len(s), len(got), err)
		}
		if len(s) > 1000 && len(z) > len(s)/4 {
			t.Errorf("%d bytes compressed to %d", len(s), len(z))
		}
	}
	// A body longer than the limit does not decompress: a Store value
	// cannot make the Client inflate without bound.
	z := deflate(bytes.Repeat([]byte("a"), 1<<20))
	if _, err := inflate(z, 1000); !errors.Is(err, errInflate) {
		t.Errorf("inflate past its limit: %v", err)
	}
	if _, err := inflate([]byte("not flate"), 1000); !errors.Is(err, errInflate) {
		t.Errorf("inflate of garbage: %v", err)
	}
}
