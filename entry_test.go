package robotstxt

import (
	"bytes"
	"crypto/x509"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"math"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/agent"
)

func sampleEntries() []*entry {
	t0 := time.UnixMilli(1740830400123)
	return []*entry{
		withBody(&entry{key: "https://example.com:443", persisted: persisted{outcome: OutcomeRules, status: 200,
			fetched: stampOf(t0), checked: stampOf(t0), expires: stampOf(t0.Add(24 * time.Hour)), lifetime: 86400000, etag: `"abc"`,
			lastMod: "Sat, 01 Mar 2025 10:00:00 GMT", redirects: "301 https://example.com/static/robots.txt\n302* https://cdn.example.net/rules.txt"}}, privateRules),
		{key: "http://a.example:80", persisted: persisted{outcome: OutcomeAllowAll, status: 404, fetched: stampOf(t0), checked: stampOf(t0),
			expires: stampOf(t0.Add(time.Hour)), redirects: "308 http://a.example/robots.txt"}},
		{key: "http://b.example:8080", persisted: persisted{outcome: OutcomeUnreachable, status: 503, failStatus: 503,
			failures: 3, fetched: stampOf(t0), checked: stampOf(t0), expires: stampOf(t0.Add(4 * time.Minute)), errText: "boom",
			since: stampOf(t0.Add(-10 * time.Minute))}},
		withBody(&entry{key: "https://c.example:443", persisted: persisted{outcome: OutcomeRules, status: 200,
			fetched: stampOf(t0.Add(-72 * time.Hour)), checked: stampOf(t0), expires: stampOf(t0.Add(time.Minute)), stale: true, lifetime: 60000,
			failStatus: 0, failures: 1, errText: "dial tcp: refused", causes: causeRefused, since: stampOf(t0.Add(-time.Hour))}}, "User-agent: *\n"),
		{key: "https://e.example:443", persisted: persisted{outcome: OutcomeUnreachable, causes: causeNonPublic, failures: 2,
			fetched: stampOf(t0), checked: stampOf(t0), expires: stampOf(t0.Add(time.Hour)), since: stampOf(t0.Add(-time.Minute)),
			errText: "robotstxt: refused to connect to a non-public address: 10.0.0.1"}},
		{key: "https://d.example:443", persisted: persisted{outcome: OutcomeDisallowAll, status: 403}},
		{key: "https://f.example:443", persisted: persisted{outcome: OutcomeUnreachable, causes: causeCertificate, failures: 1,
			fetched: stampOf(t0), checked: stampOf(t0), expires: stampOf(t0.Add(time.Minute)), since: stampOf(t0),
			errText: "tls: failed to verify certificate: x509: certificate has expired or is not yet valid"},
			cause: kindError(kindInvalid|uint16(x509.Expired), true, false)},
		{key: "https://g.example:443", persisted: persisted{outcome: OutcomeUnreachable, causes: causeTimeout, failures: 1,
			fetched: stampOf(t0), checked: stampOf(t0), expires: stampOf(t0.Add(time.Minute)), since: stampOf(t0),
			errText: "dial tcp: lookup g.example: i/o timeout"},
			cause: kindError(kindDNS|dnsTemporary|dnsTimeout, false, true)},
	}
}

// TestEntryRoundTrip checks that every persisted field and the body
// survive the Store encoding: the comparison is of the whole persisted
// struct, so a field added to it and left out of encodeEntry fails here,
// and each sample sets every field some sample does not.
func TestEntryRoundTrip(t *testing.T) {
	for _, e := range sampleEntries() {
		b := encodeTest(e)
		if b[0] != entryVersion {
			t.Fatalf("first byte %d", b[0])
		}
		if len(b) > len(e.key)+len(e.body)+len(e.etag)+len(e.lastMod)+len(e.redirects)+len(e.errText)+61 { // 8 of them the crawler
			t.Errorf("encoding of %s is %d bytes: not compact", e.key, len(b))
		}
		got, err := decodeEntry(robotsKey(e.key), b, testCrawler)
		if err != nil {
			t.Fatalf("%s: %v", e.key, err)
		}
		if got.key != e.key || !reflect.DeepEqual(got.persisted, e.persisted) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got.persisted, e.persisted)
		}
		got.derive()
		want, _ := e.text()
		if text, err := got.text(); err != nil || !bytes.Equal(text, want) {
			t.Errorf("%s: body %q, %v after decoding; want %q", e.key, text, err, want)
		}
		if e.errText != "" && (got.cause == nil || got.cause.Error() != e.errText || kindOf(got.cause) != kindOf(e.cause)) {
			t.Errorf("%s: cause %v (TLS kind %#x) after decoding, want %q (%#x)", e.key, got.cause, kindOf(got.cause), e.errText, kindOf(e.cause))
		}
	}
	// Every persisted field is set by some sample: a zero in all of them
	// would round-trip without its row being exercised.
	v := reflect.ValueOf(persisted{})
	for i := range v.NumField() {
		set := false
		for _, e := range sampleEntries() {
			set = set || !reflect.ValueOf(e.persisted).Field(i).IsZero()
		}
		if !set {
			t.Errorf("no sample sets persisted.%s", v.Type().Field(i).Name)
		}
	}
}

// TestEntryBoundToKey checks that a value decodes only under the key it
// was written for: copied under another authority's key, it is corrupt.
func TestEntryBoundToKey(t *testing.T) {
	e := sampleEntries()[0]
	b := encodeTest(e)
	for _, other := range []string{"https://evil.example:443", "https://example.com:4433", "http://example.com:443", "", e.key + "x"} {
		if got, err := decodeEntry(robotsKey(other), b, testCrawler); !errors.Is(err, errCorruptEntry) {
			t.Errorf("decoded %s's value under %q: %+v, %v", e.key, other, got, err)
		}
	}
}

// sealed returns b, an encoding without its checksum, with one: the
// value a Store hands back, whoever wrote it, which the decoder's own
// checks must refuse, not the checksum.
func sealed(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(bytes.Clone(b), crc32.Checksum(b, castagnoli))
}

func TestEntryDecodeRejects(t *testing.T) {
	const key = "https://example.com:443"
	enc := encodeTest(sampleEntries()[0])
	good := enc[:len(enc)-4]   // without its checksum
	at := 1 + 1 + len(key) + 8 // the outcome byte: after the version, the key and the crawler
	with := func(i int, v byte) []byte { b := bytes.Clone(good); b[i] = v; return sealed(b) }
	// A 404's allow-all: no body, which a bad outcome would otherwise be
	// refused for; its status, 404, a varint 0x94 0x03 after the flags,
	// the causes and the TLS kind (0 each), then its failure status, failures and lifetime (0
	// each) and the time it was fetched.
	plain := encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404}})
	plain = plain[:len(plain)-4]
	withPlain := func(i int, v ...byte) []byte { b := bytes.Clone(plain); copy(b[i:], v); return sealed(b) }
	long := sampleEntries()[0]
	long.etag = strings.Repeat("e", maxServerText+1)
	cases := map[string][]byte{
		"empty":               nil,
		"short":               enc[:2],
		"version 0":           with(0, 0),
		"future version":      with(0, entryVersion+1),
		"no outcome":          withPlain(at, 0),
		"bad outcome":         withPlain(at, 7),
		"status 5000":         withPlain(at+4, 0x88, 0x27),
		"unknown kind":        withPlain(at+3, kindWrite+1),
		"before 1970":         encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404, fetched: stamp(-time.Second)}}),
		"past 2262":           sealed(append(binary.AppendVarint(bytes.Clone(plain[:at+8]), math.MaxInt64), plain[at+9:]...)),
		"fail status 5000":    encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404, failStatus: 5000}}),
		"failures":            encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404, failures: maxFailures + 1}}),
		"dictionary, no body": withPlain(len(plain)-2, 1),
		"bad flags":           with(at+1, 0x80),
		"unknown causes":      encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404, causes: causeAll + 1}}),
		"truncated":           sealed(good[:len(good)-1]),
		"trailing":            sealed(append(bytes.Clone(good), 0)),
		"varint overflow":     sealed(append(bytes.Clone(good[:at+2]), bytes.Repeat([]byte{0xff}, 10)...)),
		"body on 404":         encodeTest(withBody(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404}}, "x")),
		"long validator":      encodeTest(long),
		"redirect status":     encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404, redirects: "999 http://a/"}}),
		"redirect no URL":     encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404, redirects: "301 http://a/\n302 "}}),
		"redirect line":       encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404, redirects: "nonsense"}}),
		"11 redirects": encodeTest(&entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, status: 404,
			redirects: strings.Repeat("301 http://a/\n", 10) + "301 http://a/"}}),
		"other dictionary": sealed(bytes.Replace(good, binary.AppendUvarint(nil, bodyDictID),
			binary.AppendUvarint(nil, bodyDictID+1), 1)),
		"checksum": append(bytes.Clone(good), 0, 0, 0, 0),
	}
	for name, b := range cases {
		if e, err := decodeEntry(robotsKey(key), b, testCrawler); err == nil || !errors.Is(err, errCorruptEntry) {
			t.Errorf("%s: decoded %+v, %v", name, e, err)
		}
	}
	if e, err := decodeEntry(robotsKey(key), enc, testCrawler+1); !errors.Is(err, errOtherCrawler) {
		t.Errorf("another crawler's value: decoded %+v, %v; want errOtherCrawler", e, err)
	}
}

// TestEntryDecodeRejectsDamage: a value a Store damaged is a miss, never
// other rules: every flipped bit of every sample, and every two flipped
// bits of a sample with rules, which the checksum catches.
func TestEntryDecodeRejectsDamage(t *testing.T) {
	for i, e := range sampleEntries() {
		good := encodeTest(e)
		for bit := range 8 * len(good) {
			b := bytes.Clone(good)
			b[bit/8] ^= 1 << (bit % 8)
			if got, err := decodeEntry(robotsKey(e.key), b, testCrawler); !errors.Is(err, errCorruptEntry) {
				t.Fatalf("sample %d, bit %d flipped: decoded %+v, %v", i, bit, got, err)
			}
		}
	}
	e := withBody(&entry{key: "https://example.com:443", persisted: persisted{outcome: OutcomeRules, status: 200}}, privateRules)
	good := encodeTest(e)
	for x := range 8 * len(good) {
		for y := x + 1; y < 8*len(good); y++ {
			b := bytes.Clone(good)
			b[x/8] ^= 1 << (x % 8)
			b[y/8] ^= 1 << (y % 8)
			if _, err := decodeEntry(robotsKey(e.key), b, testCrawler); err == nil {
				t.Fatalf("bits %d and %d flipped: decoded", x, y)
			}
		}
	}
}

// FuzzDecodeEntry decodes arbitrary values, sealed with their checksum
// (see sealed) so that the decoder's own checks meet them.
func FuzzDecodeEntry(f *testing.F) {
	for _, e := range sampleEntries() {
		b := encodeTest(e)
		f.Add(e.key, b[:len(b)-4])
	}
	f.Add("", []byte{})
	f.Add("k", []byte{entryVersion})
	f.Fuzz(func(t *testing.T, key string, b []byte) {
		e, err := decodeEntry(robotsKey(key), sealed(b), testCrawler)
		if err != nil {
			return
		}
		again, err := decodeEntry(robotsKey(key), encodeTest(e), testCrawler)
		if err != nil {
			t.Fatalf("re-decoding a decoded entry: %v", err)
		}
		if !reflect.DeepEqual(again.persisted, e.persisted) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", again.persisted, e.persisted)
		}
		if body, err := e.text(); err == nil {
			if body2, err2 := again.text(); err2 != nil || !bytes.Equal(body, body2) {
				t.Fatalf("round trip: body %q, %v; want %q", body2, err2, body)
			}
		}
		e.derive() // must not panic either
	})
}

// withBody gives e the body s, compressed as a Store keeps it, and
// returns e.
func withBody(e *entry, s string) *entry {
	e.body = compress([]byte(s))
	return e
}

// TestStampAddSaturates: a stamp plus a duration past the end of the
// range is the end, so that an option of math.MaxInt64 means "for ever",
// not a time in the past.
func TestStampAddSaturates(t *testing.T) {
	s := stampOf(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	for _, tc := range []struct {
		d    time.Duration
		want stamp
	}{
		{time.Hour, s + stamp(time.Hour)},
		{math.MaxInt64, math.MaxInt64},
		{-time.Hour, s - stamp(time.Hour)},
	} {
		if got := s.add(tc.d); got != tc.want {
			t.Errorf("add(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

// TestEntryDecodeOwnsBody: a decoded entry's body is its own, not a view
// of the Store's value, which would keep the whole value alive beyond
// what the cache counts.
func TestEntryDecodeOwnsBody(t *testing.T) {
	e := sampleEntries()[0]
	b := encodeTest(e)
	got, err := decodeEntry(robotsKey(e.key), b, testCrawler)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = 0xff
	}
	if !bytes.Equal(got.body, e.body) {
		t.Error("the decoded body changed with the Store's value")
	}
}

// robotsKey returns the key of authority's robots.txt.
func robotsKey(authority string) key {
	return key{authority, &document{path: "/robots.txt", name: "robots.txt", robots: true}}
}

// encodeTest encodes e for the Store under its robots.txt's key.
// testCrawler is the crawler of the values encodeTest makes: a Client's
// of the default User-Agent, as newTestClient makes.
var testCrawler = crawlerOf(agent.DefaultUserAgent, []string{"robotstxt"}, false)

func encodeTest(e *entry) []byte { return encodeEntry(robotsKey(e.key), e, testCrawler) }

var updateEntry = flag.Bool("update-entry", false, "write the golden Store encoding of a new entryVersion")

// TestEntryGolden holds the Store encoding of the sample entries to the
// bytes written for its version (testdata/store/v<entryVersion>.hex):
// processes of different versions share a Store, so encodings that
// change must change the version. After a bump, -update-entry writes the
// new version's file; it never rewrites an existing one.
func TestEntryGolden(t *testing.T) {
	var got bytes.Buffer
	for _, e := range sampleEntries() {
		fmt.Fprintf(&got, "%x\n", encodeEntry(robotsKey(e.key), e, 0x7465737463726177))
	}
	path := filepath.Join("testdata", "store", fmt.Sprintf("v%d.hex", entryVersion))
	want, err := os.ReadFile(path)
	switch {
	case err == nil && *updateEntry:
		t.Fatalf("%s exists: an encoding that changes needs a new entryVersion", path)
	case *updateEntry:
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	case err != nil:
		t.Fatalf("no golden encoding of version %d (%v): run this test with -update-entry", entryVersion, err)
	case !bytes.Equal(got.Bytes(), want):
		t.Errorf("the Store encoding differs from %s: bump entryVersion, then run this test with -update-entry", path)
	}
}

// TestEntrySize: an entry stays within the 192-byte size class, which the
// cache's memory bound for a million authorities counts on (see marks).
func TestEntrySize(t *testing.T) {
	if n := unsafe.Sizeof(entry{}); n > 192 {
		t.Errorf("an entry takes %d bytes, more than 192", n)
	}
}

// TestEntryCrawlDelayRoundedUp: the crawl-delay an entry keeps in whole
// milliseconds is never shorter than the file's, so that a delay under a
// millisecond still paces.
func TestEntryCrawlDelayRoundedUp(t *testing.T) {
	for _, v := range []string{"0", "0.0005", "0.001", "1.9999", "2", "86400", "1e9"} {
		text := []byte("User-agent: *\nCrawl-delay: " + v + "\n")
		want, _ := Parse(text).CrawlDelay("bot")
		var e entry
		e.setRules(text, nil, ModeGoogle, []string{"bot"})
		got, ok := e.crawlDelay()
		if !ok || got < want || got >= want+time.Millisecond {
			t.Errorf("Crawl-delay: %s: the entry keeps %v (%t), want %v rounded up to a millisecond", v, got, ok, want)
		}
	}
}

// TestEntryCostCountsSignal: the Content-Signal preferences an entry's
// rules keep, up to tens of kilobytes in a hostile file, count against
// the byte budget.
func TestEntryCostCountsSignal(t *testing.T) {
	var plain, signalled entry
	plain.setRules([]byte("User-agent: *\nDisallow: /x\n"), nil, ModeGoogle, []string{"bot"})
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /x\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "Content-Signal: label-%d=no\n", i)
	}
	signalled.setRules([]byte(b.String()), nil, ModeGoogle, []string{"bot"})
	cr := signalled.rules.Load()
	if cr.signal == nil || len(cr.signal.members) < 20000 {
		t.Fatalf("the file's signal holds %v", cr.signal)
	}
	if got := signalled.cost() - int64(cr.t.Size()); got < plain.cost()-int64(plain.rules.Load().t.Size())+int64(len(cr.signal.members)) {
		t.Errorf("cost beyond the table %d, want at least %d more than without the signal", got, len(cr.signal.members))
	}
}

// retained returns the bytes f allocates per call, averaged over n calls
// whose results are kept alive.
func retained(n int, f func() error) float64 {
	keep := make([]error, n)
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	for i := range keep {
		keep[i] = f()
	}
	runtime.ReadMemStats(&b)
	runtime.KeepAlive(keep)
	return float64(b.TotalAlloc-a.TotalAlloc) / float64(n)
}

// TestEntryCountsStoredCause: a failure read from a Store counts the
// error rebuilt from its classes as a fetched one counts its chain
// (causeOverhead), which holds at least what the richest rebuilt error
// retains.
func TestEntryCountsStoredCause(t *testing.T) {
	const text = "robotstxt: fetch http://a.test/robots.txt: dial tcp 192.0.2.1:80: connect: connection refused"
	for name, err := range failures() {
		causes, kind := causesOf(capErr(err)), kindOf(capErr(err))
		if n := retained(1000, func() error { return storedCause(text, causes, kind) }); n > causeOverhead {
			t.Errorf("%s: the error rebuilt from its classes retains %.0f bytes, more than causeOverhead (%d)", name, n, causeOverhead)
		}
	}
	stored := encodeTest(&entry{key: "http://a.test:80", persisted: persisted{outcome: OutcomeUnreachable, failures: 1, errText: text, causes: causeRefused}})
	failed, err := decodeEntry(robotsKey("http://a.test:80"), stored, testCrawler)
	if err != nil {
		t.Fatal(err)
	}
	failed.derive()
	bare := (&entry{key: "http://a.test:80", persisted: persisted{outcome: OutcomeUnreachable, failures: 1}}).derive()
	if got, want := failed.base-bare.base, int64(len(text)+causeOverhead); got != want {
		t.Errorf("a stored failure counts %d bytes for its error, want %d", got, want)
	}
}

// TestEntryVersion14EarlierDNSKind: a value of version 14 that a build
// without dnsNotFound wrote (g.example's line of testdata/store/v14.hex:
// a resolver's failure, temporary and timed out, kind 0x13) reads as
// the same failure, not a name not found: a kind's bits keep their
// meaning within a version.
func TestEntryVersion14EarlierDNSKind(t *testing.T) {
	const old = "0e1568747470733a2f2f672e6578616d706c653a3434337761726374736574040080041300000100f6f99e99aa65f6f99e99aa65b6a3a699aa65f6f99e99aa65000000276469616c207463703a206c6f6f6b757020672e6578616d706c653a20692f6f2074696d656f7574000046eea3a7"
	b, err := hex.DecodeString(old)
	if err != nil {
		t.Fatal(err)
	}
	e, err := decodeEntry(robotsKey("https://g.example:443"), b, 0x7465737463726177)
	if err != nil {
		t.Fatalf("decode of a version-14 value: %v", err)
	}
	var dns *net.DNSError
	if !errors.As(e.cause, &dns) {
		t.Fatalf("cause %v holds no *net.DNSError", e.cause)
	}
	if dns.IsNotFound || !dns.IsTemporary || !dns.IsTimeout {
		t.Errorf("a v14 value of a temporary, timed-out lookup reads as IsNotFound=%v IsTemporary=%v IsTimeout=%v; want false true true",
			dns.IsNotFound, dns.IsTemporary, dns.IsTimeout)
	}
	if causesOf(e.cause)&causeNotFound != 0 {
		t.Errorf("causesOf the rebuilt cause has causeNotFound (causeUnanswered): the writer's failure was a resolver's timeout")
	}
}
