package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// A flip is one bit of a file to flip: bit Bit of the byte at Off.
type flip struct {
	Off int
	Bit uint8
}

// A flipSpec is what a "flips" helper process does: for each flip in
// turn, flip it in a copy of File, open a Store on the copy, and ask a
// Client that cannot fetch whether the private path of each of Hosts is
// allowed.
type flipSpec struct {
	File     string // the intact Store file
	Dir      string // where to write the copies
	Flips    []flip
	Hosts    []string
	Replace  bool   // open WithReplaceDamaged
	Progress string // file where the helper writes the flip it is at
}

// A flipTally is what a "flips" helper found, flip by flip.
type flipTally struct {
	Flips      int      // tried
	Refused    int      // Open failed
	Replaced   int      // Open moved the file aside (WithReplaceDamaged)
	Mismatched int      // a value failed its checksum
	Stopped    int      // the Store found the file damaged and stopped
	Allowed    []string // "offset.bit URL": a private path allowed
	Slowest    string   // "offset.bit duration"
}

// runFlips runs spec in a helper process and returns its tally. The
// test fails if the helper dies: a panic or a fault that escaped the
// Store, or the Go runtime's end of a bbolt loop that does not end.
func runFlips(t *testing.T, spec flipSpec) flipTally {
	t.Helper()
	spec.Progress = filepath.Join(t.TempDir(), "progress")
	spec.Dir = scratchDir(t)
	js, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(specPath, js, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if at, err := os.ReadFile(spec.Progress); t.Failed() && err == nil {
			t.Logf("the helper was at the flip %s", at)
		}
	})
	start := time.Now()
	c := crawltest.StartChild(t, "TestHelperProcess", envHelper+"=flips", envSpec+"="+specPath)
	var tally flipTally
	c.Reply(t, "TALLY ", &tally)
	c.Finish(t)
	t.Logf("%d flips in %v: %d refused by Open, %d replaced, %d with a value failing its checksum, %d stopping the Store; the slowest %s",
		tally.Flips, time.Since(start).Round(time.Millisecond), tally.Refused, tally.Replaced, tally.Mismatched, tally.Stopped, tally.Slowest)
	if tally.Flips != len(spec.Flips) {
		t.Errorf("the helper tried %d flips of %d", tally.Flips, len(spec.Flips))
	}
	for _, a := range tally.Allowed {
		t.Errorf("after flipping bit %s was allowed", a)
	}
	return tally
}

// scratchDir returns a new directory, removed when the test ends, on
// /dev/shm if there is one: a Client stores what it fails to fetch, and
// a commit waits for the disk twice, which on a tmpfs costs nothing.
func scratchDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "boltstore")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// flips is the "flips" helper: it runs the flipSpec in the file named by
// $BOLTSTORE_SPEC and prints TALLY and its flipTally.
func flips(t *testing.T) {
	js, err := os.ReadFile(os.Getenv(envSpec))
	if err != nil {
		t.Fatal(err)
	}
	var spec flipSpec
	if err := json.Unmarshal(js, &spec); err != nil {
		t.Fatal(err)
	}
	intact, err := os.ReadFile(spec.File)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(spec.Dir, "robots.db")
	var tally flipTally
	var slowest time.Duration
	for _, f := range spec.Flips {
		if err := os.WriteFile(spec.Progress, fmt.Appendf(nil, "%d.%d", f.Off, f.Bit), 0o600); err != nil {
			t.Fatal(err)
		}
		b := bytes.Clone(intact)
		b[f.Off] ^= 1 << f.Bit
		if err := errors.Join(os.WriteFile(path, b, 0o600), os.RemoveAll(path+unusableSuffix)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		tryFlip(&tally, path, f, spec)
		if d := time.Since(start); d > slowest {
			slowest, tally.Slowest = d, fmt.Sprintf("%d.%d %v", f.Off, f.Bit, d.Round(time.Millisecond))
		}
		// A line a flip, so that the parent's bound on silence bounds
		// each flip, not the hundreds of them, which a machine busy with
		// other packages' tests under -race has slowed past it.
		fmt.Printf("FLIPPED %d.%d\n", f.Off, f.Bit)
	}
	js, err = json.Marshal(tally)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("TALLY " + string(js))
}

// tryFlip opens a Store on path, where flip f of spec is made, checks
// spec's hosts with a Client that cannot fetch, and counts what happened.
func tryFlip(tally *flipTally, path string, f flip, spec flipSpec) {
	tally.Flips++
	var opts []Option
	if spec.Replace {
		opts = append(opts, WithReplaceDamaged())
	}
	s, err := Open(path, opts...)
	if err != nil {
		tally.Refused++
		return
	}
	if _, err := os.Stat(path + unusableSuffix); err == nil {
		tally.Replaced++ // and the new file is empty: nothing to check
		_ = s.Close()
		return
	}
	c := offlineClient(s)
	for _, h := range spec.Hosts {
		u := crawltest.Probes(h)[0].URL // the private path
		if ok, _ := c.Allowed(context.Background(), u); ok {
			tally.Allowed = append(tally.Allowed, fmt.Sprintf("%d.%d %s", f.Off, f.Bit, u))
		}
		if stopped(s) {
			break // the Store answers no more: the Client fetches, and cannot
		}
	}
	_ = c.Close()
	if s.mismatches.Load() > 0 {
		tally.Mismatched++
	}
	if err := s.Close(); errors.Is(err, ErrDamaged) {
		tally.Stopped++
	}
}

// stopped reports whether s has stopped using its file.
func stopped(s *Store) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.broken != nil
}

// offlineClient returns a Client on store whose fetches all fail without
// a connection, let alone a name looked up: what it answers, it answers
// from the Store, or as for an unreachable robots.txt (deferred).
func offlineClient(store robotstxt.Store) *robotstxt.Client {
	hc := &http.Client{Transport: &http.Transport{
		DialContext: func(context.Context, string, string) (net.Conn, error) {
			return nil, errors.New("offline")
		},
	}}
	return robotstxt.NewClient(
		robotstxt.WithStore(store),
		robotstxt.WithHTTPClient(hc),
		robotstxt.WithUserAgent("bolttest/1.0"),
		robotstxt.WithStoreTimeout(5*time.Second),
	)
}

// filledFile fills a Store with the robots.txt of hosts, fetched by a
// real Client from a crawltest.Web, closes it and returns its path.
func filledFile(t *testing.T, hosts []string) string {
	t.Helper()
	w := crawltest.NewWeb(t)
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, s, w.Addr())
	for _, h := range hosts {
		if err := check(c, h); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(c.Close(), s.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}

// bbolt's page layout, as the tests that flip its bits need it: a page
// starts with a 16-byte header (its number, flags, count of elements and
// count of overflow pages), followed on a meta page by the 64-byte meta,
// on a branch or leaf page by a table of 16-byte elements. A branch
// element ends with the number of its child page.
const (
	pageHeaderLen = 16
	metaLen       = 64
	elementLen    = 16
	childAt       = 8    // in a branch element
	branchFlag    = 0x01 // in the header's flags, at byte 8
)

// pageFlips returns flips of bbolt's structures in the file at path: two
// bits of every byte of the header of every page in use and of the
// element tables of the branch pages, one of every byte of the meta of
// the meta pages (any flip there fails the meta's checksum, and bbolt
// reads the other). It leaves out the flips that let a descent from the
// flipped page come back to a page it has passed, and returns how many:
// bbolt follows such a cycle for ever, recursing until the Go runtime
// ends the process (see the package documentation). The descent follows
// the bytes of the file, as bbolt does: a child may be a freed page,
// which still holds the branch it was, with children of its own.
func pageFlips(t *testing.T, path string) (fs []flip, cycles int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	pages := pageInfos(t, path)
	// cycles reports whether flipping f lets a descent from the page f
	// lies in loop.
	loops := func(f flip) bool {
		b[f.Off] ^= 1 << f.Bit
		defer func() { b[f.Off] ^= 1 << f.Bit }()
		// children returns the child pages of page id if the file holds
		// a branch page there, whole.
		children := func(id int) []int {
			at := id * pageSize
			if id < 0 || at+pageHeaderLen > len(b) || binary.LittleEndian.Uint16(b[at+8:])&branchFlag == 0 {
				return nil
			}
			n := int(binary.LittleEndian.Uint16(b[at+10:]))
			if at+pageHeaderLen+n*elementLen > len(b) {
				return nil
			}
			out := make([]int, n)
			for i := range out {
				c := binary.LittleEndian.Uint64(b[at+pageHeaderLen+i*elementLen+childAt:])
				out[i] = int(min(c, uint64(len(b)))) // far beyond the file: a fault, not a branch
			}
			return out
		}
		state := map[int]int{} // 1 while on the path down, 2 once left
		var down func(id int) bool
		down = func(id int) bool {
			switch state[id] {
			case 1:
				return true
			case 2:
				return false
			}
			state[id] = 1
			for _, c := range children(id) {
				if down(c) {
					return true
				}
			}
			state[id] = 2
			return false
		}
		return down(f.Off / pageSize)
	}
	add := func(from, n, bits int) {
		for off := from; off < from+n; off++ {
			for k := range bits {
				f := flip{off, uint8((off + 8/bits*k) % 8)}
				if loops(f) {
					cycles++
					continue
				}
				fs = append(fs, f)
			}
		}
	}
	for id, p := range pages {
		at := id * pageSize
		switch p.Type {
		case "free":
		case "meta":
			add(at, pageHeaderLen+metaLen, 1)
		case "branch":
			add(at, pageHeaderLen+p.Count*elementLen, 2)
		default:
			add(at, pageHeaderLen, 2)
		}
	}
	return fs, cycles
}

// TestPageFlipsNeverAllowNorKill: bits of bbolt's own structures in a
// Store's file of 40 sites (page headers, meta pages, the element tables
// of branch pages) are flipped one at a time, a bit or two of every byte;
// each time a Store is opened on the file, with and without
// WithReplaceDamaged, and a Client that cannot fetch checks the private
// path of every fourth site (a damaged page spoils a range of keys).
// None is ever allowed, and the process checking survives every flip,
// but those that make a branch page its own descendant (left out): what
// bbolt does on a damaged page, the Store contains.
func TestPageFlipsNeverAllowNorKill(t *testing.T) {
	hosts := crawltest.Hosts("flip", 40)
	path := filledFile(t, hosts)
	if !slices.ContainsFunc(pageInfos(t, path), func(p pageInfo) bool { return p.Type == "branch" }) {
		t.Fatal("no branch page in the file")
	}
	fs, cycles := pageFlips(t, path)
	t.Logf("%d flips; %d more left out, that make a cycle of branch pages", len(fs), cycles)
	var checked []string
	for i := 0; i < len(hosts); i += 4 {
		checked = append(checked, hosts[i])
	}
	for _, replace := range []bool{false, true} {
		t.Run(fmt.Sprintf("replace=%v", replace), func(t *testing.T) {
			runFlips(t, flipSpec{File: path, Flips: fs, Hosts: checked, Replace: replace})
		})
	}
}

// TestDamagedStoreStops: a Store whose file has a leaf page damaged (its
// header names another page, which makes bbolt panic) answers the first
// Get that reads that page with ErrDamaged, logs it once, and stops
// using the file: later Gets and Sets fail at once, without a bbolt
// transaction, Close returns the damage and lets go of the file, and a
// Store opened anew with WithReplaceDamaged starts afresh.
func TestDamagedStoreStops(t *testing.T) {
	path := damagedFile(t)
	logger, logged := records()
	s, err := Open(path, WithLogger(logger))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := noPanic(t, func() ([]byte, error) { return s.Get(t.Context(), site(0)) }); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Get over the damaged page: %v, want ErrDamaged", err)
	} else {
		t.Log(err)
	}
	txs := s.db.Stats().TxN
	for range 2 {
		if _, err := noPanic(t, func() ([]byte, error) { return s.Get(t.Context(), site(199)) }); !errors.Is(err, ErrDamaged) {
			t.Errorf("a later Get: %v, want ErrDamaged", err)
		}
	}
	if err := s.Set(t.Context(), site(1), []byte("v"), time.Hour); !errors.Is(err, ErrDamaged) {
		t.Errorf("a later Set: %v, want ErrDamaged", err)
	}
	if n := s.db.Stats().TxN - txs; n != 0 {
		t.Errorf("after the damage: %d more bbolt transactions, want none", n)
	}
	if err := s.Close(); !errors.Is(err, ErrDamaged) {
		t.Errorf("Close: %v, want ErrDamaged", err)
	}
	if n := count(logged(), "damaged"); n != 1 {
		t.Errorf("the damage logged %d times, want once", n)
	}
	s, err = Open(path, WithReplaceDamaged())
	if err != nil {
		t.Fatalf("Open WithReplaceDamaged: %v", err)
	}
	defer s.Close()
	if _, err := s.Get(t.Context(), site(199)); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("Get from the new file: %v, want a miss", err)
	}
}

// TestDamagedWriterStops: the writer's commit that meets a damaged page
// (one that makes bbolt panic) stops the Store: the next Set fails at
// once with ErrDamaged, and so does Close.
func TestDamagedWriterStops(t *testing.T) {
	s, err := Open(damagedFile(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	set(t, s, site(0), []byte("new")) // in the damaged page
	waitUntil(t, "the writer to stop the Store", func() bool { return stopped(s) })
	if err := s.Set(t.Context(), site(1), []byte("v"), time.Hour); !errors.Is(err, ErrDamaged) {
		t.Errorf("Set after the commit: %v, want ErrDamaged", err)
	}
	if err := s.Close(); !errors.Is(err, ErrDamaged) {
		t.Errorf("Close: %v, want ErrDamaged", err)
	}
}

// TestUnorderedIndexStops: a bounded Store whose index of writes has a
// key out of order (one flipped bit: sequence 1 reads as 3) cannot delete
// that row, which stays first: its writer stops the Store with
// ErrDamaged, not loops for ever in its commit, and Close returns.
func TestUnorderedIndexStops(t *testing.T) {
	const bound = 256 << 10
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path, WithMaxBytes(bound))
	if err != nil {
		t.Fatal(err)
	}
	val := bytes.Repeat([]byte("x"), 1000)
	for i := range 100 {
		set(t, s, site(i), val)
	}
	flushed(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	needle := append(seqKey(1), site(0)...)
	at := inPage(t, path, b, "leaf", needle)
	at += bytes.Index(b[at:at+os.Getpagesize()], needle)
	b[at+7] ^= 0x02 // sequence 1 reads as 3
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, WithMaxBytes(bound)); err != nil {
		t.Fatal(err)
	}
	for i := 100; i < 400 && !stopped(s); i++ {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		_ = s.Set(ctx, site(i), val, time.Hour)
		cancel()
	}
	waitUntil(t, "the writer to stop the Store", func() bool { return stopped(s) })
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if !errors.Is(err, ErrDamaged) {
			t.Errorf("Close: %v, want ErrDamaged", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close has not returned: the writer loops in its commit")
	}
}

// damagedFile returns the path of a Store's file of 200 entries whose
// leaf page holding the entry of site(0) has another page's number in
// its header: bbolt panics reading it.
func damagedFile(t *testing.T) string {
	t.Helper()
	s, path := newStore(t)
	for i := range 200 {
		set(t, s, site(i), fmt.Appendf(nil, "value of %s", site(i)))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := inPage(t, path, b, "leaf", []byte("value of "+site(0)))
	b[at] ^= 0x40 // the page number in its header
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// inPage returns the offset of the page of type typ in b, the bytes of
// the bbolt file at path, that holds needle. Pages that bbolt freed hold
// old copies: only a page in use is the one bbolt reads.
func inPage(t *testing.T, path string, b []byte, typ string, needle []byte) int {
	t.Helper()
	pageSize := os.Getpagesize()
	for id, p := range pageInfos(t, path) {
		page := b[id*pageSize : (id+1)*pageSize]
		if p.Type == typ && bytes.Contains(page, needle) {
			return id * pageSize
		}
	}
	t.Fatalf("no %s page holds %q", typ, needle)
	return 0
}

// noPanic calls get, failing the test if it panics.
func noPanic(t *testing.T, get func() ([]byte, error)) (v []byte, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v", r)
		}
	}()
	return get()
}

// records returns a logger that keeps what it logs, and a function that
// returns the records kept so far.
func records() (*slog.Logger, func() []slog.Record) {
	h := &recorder{}
	return slog.New(h), func() []slog.Record {
		h.mu.Lock()
		defer h.mu.Unlock()
		return slices.Clone(h.records)
	}
}

// A recorder is a slog.Handler that keeps every record.
type recorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (*recorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *recorder) WithAttrs([]slog.Attr) slog.Handler     { return h }
func (h *recorder) WithGroup(string) slog.Handler          { return h }

func (h *recorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}

// count returns how many of rs have a message containing s.
func count(rs []slog.Record, s string) int {
	n := 0
	for _, r := range rs {
		if strings.Contains(r.Message, s) {
			n++
		}
	}
	return n
}

// TestFileCutUnderStore: the file of an open Store is cut short from
// under it, past its meta pages. A Get then reads a page past the end of
// the mapped file, which faults; the Store turns the fault into
// ErrDamaged, leaves the goroutine's handling of faults as it was, and
// closes.
func TestFileCutUnderStore(t *testing.T) {
	s, path := newStore(t)
	for i := range 100 {
		set(t, s, site(i), fmt.Appendf(nil, "value of %s", site(i)))
	}
	flushed(t, s)
	if err := os.Truncate(path, int64(2*os.Getpagesize())); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(t.Context(), site(0)); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "fault") {
		t.Errorf("Get: %v, want ErrDamaged saying fault", err)
	} else {
		t.Log(err)
	}
	if debug.SetPanicOnFault(false) {
		t.Error("Get left faults panicking")
	}
	if err := s.Close(); !errors.Is(err, ErrDamaged) {
		t.Errorf("Close: %v, want ErrDamaged", err)
	}
}

// TestFileEmptiedUnderStore: the file of an open Store is cut to nothing
// from under it. A Get then faults reading bbolt's meta page, where bbolt
// holds one of its locks, which stays held: the Get fails with
// ErrDamaged, and Close, which bbolt would have block for ever, returns
// within a second or so, saying so. (In a helper process, whose
// goroutine stuck in bbolt is left behind when it exits.)
func TestFileEmptiedUnderStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	c := crawltest.StartChild(t, "TestHelperProcess", envHelper+"=empty", envPath+"="+path)
	var r struct {
		Get, Close string
		Took       time.Duration
	}
	c.Reply(t, "CLOSED ", &r)
	c.Finish(t)
	t.Logf("Get: %s; Close after %v: %s", r.Get, r.Took, r.Close)
	if !strings.Contains(r.Get, ErrDamaged.Error()) {
		t.Errorf("Get: %s, want ErrDamaged", r.Get)
	}
	if !strings.Contains(r.Close, ErrDamaged.Error()) || !strings.Contains(r.Close, "did not let go") || r.Took > 5*time.Second {
		t.Errorf("Close after %v: %s, want ErrDamaged and bbolt not letting go, within a second", r.Took, r.Close)
	}
}

// empty is the "empty" helper of TestFileEmptiedUnderStore: it prints
// CLOSED and what Get and Close returned, and exits at once.
func empty(t *testing.T) {
	path := os.Getenv(envPath)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		set(t, s, site(i), fmt.Appendf(nil, "value of %s", site(i)))
	}
	flushed(t, s)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	_, gerr := s.Get(context.Background(), site(0))
	start := time.Now()
	cerr := s.Close()
	js, err := json.Marshal(map[string]any{"Get": fmt.Sprint(gerr), "Close": fmt.Sprint(cerr), "Took": time.Since(start)})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("CLOSED " + string(js))
	os.Exit(0) // a goroutine is stuck in bbolt: no leak check
}
