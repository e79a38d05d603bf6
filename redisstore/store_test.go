package redisstore

import (
	"bytes"
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/storetest"
)

const authority = "https://example.com:443"

// TestStoreContract runs the Store contract (storetest) against a Store on
// a real Redis, standalone and as a one-node cluster. Every Store gets its
// own key prefix on the server, so each check starts empty.
// TestStoreContract runs the Store contract on a single node and a
// cluster, each with go-redis's defaults and as New's doc asks, context
// deadlines enabled (store91: the contract never ran on that).
func TestStoreContract(t *testing.T) {
	srv, standalone := newRedis(t)
	direct := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = direct.Close() })
	cluster := newOneNodeCluster(t)
	opt := cluster.Options()
	opt.ContextTimeoutEnabled = true
	directCluster := redis.NewClusterClient(opt)
	t.Cleanup(func() { _ = directCluster.Close() })
	for _, c := range []struct {
		name string
		rdb  redis.UniversalClient
	}{{"standalone", standalone}, {"cluster", cluster}, {"standalone-deadlines", direct}, {"cluster-deadlines", directCluster}} {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int64
			storetest.Run(t, func(*testing.T) robotstxt.Store {
				prefix := fmt.Sprintf("%s%d:", c.name, n.Add(1)) // apart from the other clients' on one server
				return New(c.rdb, WithPrefix(prefix), WithLogger(quietLogger), WithTimeout(generous))
			})
		})
	}
}

func TestSetAppliesTTL(t *testing.T) {
	s, rdb, _ := newStore(t)
	ttl := 90 * time.Minute
	if err := s.Set(t.Context(), authority, []byte("v"), ttl); err != nil {
		t.Fatal(err)
	}
	got, err := rdb.PTTL(t.Context(), "robotstxt:{"+authority+"}").Result()
	if err != nil {
		t.Fatal(err)
	}
	if got <= ttl-time.Minute || got > ttl {
		t.Fatalf("PTTL = %v, want just under %v", got, ttl)
	}
}

func TestSetRejectsNonPositiveTTL(t *testing.T) {
	s, rdb, _ := newStore(t)
	for _, ttl := range []time.Duration{0, -time.Second} {
		if err := s.Set(t.Context(), authority, []byte("v"), ttl); err == nil {
			t.Errorf("Set with ttl %v: no error", ttl)
		}
	}
	if n := rdb.DBSize(t.Context()).Val(); n != 0 {
		t.Fatalf("rejected Sets left %d keys", n)
	}
}

func TestKeyLayout(t *testing.T) {
	tests := []struct {
		opts      []Option
		value     string
		leaseName string
	}{
		{nil, "robotstxt:{https://example.com:443}", "robotstxt:{https://example.com:443}:lease"},
		{[]Option{WithPrefix("crawl:v2:")}, "crawl:v2:{https://example.com:443}", "crawl:v2:{https://example.com:443}:lease"},
		{[]Option{WithPrefix("bad{tag}:")}, "badtag:{https://example.com:443}", "badtag:{https://example.com:443}:lease"},
	}
	for _, tt := range tests {
		s, rdb, _ := newStore(t, tt.opts...)
		if err := s.Set(t.Context(), authority, []byte("v"), time.Minute); err != nil {
			t.Fatal(err)
		}
		release, ok, err := s.Lease(t.Context(), authority, time.Minute)
		if err != nil || !ok {
			t.Fatalf("Lease: ok=%v err=%v", ok, err)
		}
		keys, err := rdb.Keys(t.Context(), "*").Result()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{tt.value: true, tt.leaseName: true}
		if len(keys) != 2 || !want[keys[0]] || !want[keys[1]] {
			t.Errorf("keys = %q, want %q and %q", keys, tt.value, tt.leaseName)
		}
		release()
	}
}

func TestPrefixesAreSeparateCaches(t *testing.T) {
	_, rdb := newRedis(t)
	a := New(rdb, WithPrefix("a:"), WithLogger(quietLogger), WithTimeout(generous))
	b := New(rdb, WithPrefix("b:"), WithLogger(quietLogger), WithTimeout(generous))
	if err := a.Set(t.Context(), authority, []byte("v"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Fatalf("store with another prefix: err = %v, want ErrCacheMiss", err)
	}
}

// TestWrongTypeIsMiss: a key someone turned into a list or hash reads as a
// miss, and the next Set replaces it.
func TestWrongTypeIsMiss(t *testing.T) {
	s, rdb, _ := newStore(t)
	key := s.valueKey(authority)
	spoil := []func() error{
		func() error { return rdb.RPush(t.Context(), key, "a", "b").Err() },
		func() error { return rdb.HSet(t.Context(), key, "f", "v").Err() },
		func() error { return rdb.SAdd(t.Context(), key, "m").Err() },
	}
	for i, spoilKey := range spoil {
		_ = rdb.Del(t.Context(), key)
		if err := spoilKey(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
			t.Fatalf("case %d: Get of a wrong-type key: err = %v, want ErrCacheMiss", i, err)
		}
		if err := s.Set(t.Context(), authority, []byte("fresh"), time.Minute); err != nil {
			t.Fatalf("case %d: Set over a wrong-type key: %v", i, err)
		}
		if got, err := s.Get(t.Context(), authority); err != nil || string(got) != "fresh" {
			t.Fatalf("case %d: Get after Set = %q, %v", i, got, err)
		}
	}
}

func TestNewPanicsOnNilClient(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("New(nil) did not panic")
		}
	}()
	New(nil)
}

// TestGetBoundsValue writes a 64 MiB value under a key, as anyone who can
// write to Redis can: Get reads no more than its bound and reports it,
// and a value of the bound's size, an empty value and a missing key read
// as they should.
func TestGetBoundsValue(t *testing.T) {
	s, rdb, _ := newStore(t, WithMaxValue(1<<20))
	ctx := t.Context()
	k := s.valueKey(authority)
	if err := rdb.Set(ctx, k, bytes.Repeat([]byte("x"), 64<<20), 0).Err(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v, err := s.Get(ctx, authority)
	runtime.ReadMemStats(&after)
	if err == nil || errors.Is(err, robotstxt.ErrCacheMiss) || v != nil {
		t.Errorf("Get of a 64 MiB value: %d bytes, %v; want an error", len(v), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Errorf("Get allocated %d MiB for a value it refuses", n>>20)
	}
	for _, size := range []int{0, 1 << 20} {
		if err := s.Set(ctx, authority, bytes.Repeat([]byte("y"), size), time.Minute); err != nil {
			t.Fatal(err)
		}
		if v, err := s.Get(ctx, authority); err != nil || len(v) != size {
			t.Errorf("Get of a %d-byte value: %d bytes, %v", size, len(v), err)
		}
	}
	if _, err := s.Get(ctx, "https://absent.example:443"); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("Get of a missing key: %v, want ErrCacheMiss", err)
	}
}

// TestZeroStorePanics: a Store not made by New says so when used.
func TestZeroStorePanics(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "without New") {
			t.Errorf("recovered %q, want a panic saying the Store was not made by New", r)
		}
	}()
	_, _ = (&Store{}).Get(context.Background(), "k")
}

// argsHook records the arguments of every command a client sends.
type argsHook struct {
	mu   sync.Mutex
	args [][]any
}

func (h *argsHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *argsHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.mu.Lock()
		h.args = append(h.args, cmd.Args())
		h.mu.Unlock()
		return next(ctx, cmd)
	}
}

func (h *argsHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestTTLsRoundedUp: Redis keeps whole milliseconds, and a value or a
// lease is kept for at least its ttl: 1.500999 s is sent as 1,501 ms, not
// cut to 1,500.
func TestTTLsRoundedUp(t *testing.T) {
	s, rdb, _ := newStore(t)
	h := new(argsHook)
	rdb.AddHook(h)
	const ttl = 1500999 * time.Microsecond
	if err := s.Set(t.Context(), authority, []byte("v"), ttl); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Lease(t.Context(), authority, ttl); err != nil || !ok {
		t.Fatalf("Lease: ok=%v err=%v", ok, err)
	}
	h.mu.Lock()
	var sent []string
	for _, args := range h.args {
		sent = append(sent, fmt.Sprint(args...))
	}
	h.mu.Unlock()
	if !slices.ContainsFunc(sent, func(a string) bool { return strings.HasPrefix(a, "set") && strings.HasSuffix(a, "px1501") }) ||
		!slices.ContainsFunc(sent, func(a string) bool { return strings.Contains(a, "sha") && strings.HasSuffix(a, "1501") }) {
		t.Errorf("commands sent: %q; want the value and the lease kept 1501 ms", sent)
	}
	// The longest ttl cannot round up: it is kept, not wrapped negative
	// (no expiry, or an error).
	if err := s.Set(t.Context(), "long", []byte("v"), math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	if got := rdb.PTTL(t.Context(), s.valueKey("long")).Val(); got < 100*365*24*time.Hour {
		t.Errorf("value set with the longest ttl: PTTL %v", got)
	}
	if _, ok, err := s.Lease(t.Context(), "long", math.MaxInt64); err != nil || !ok {
		t.Errorf("lease for the longest ttl: ok=%v err=%v", ok, err)
	}
}

// TestGetRacingSet: a Get that meets a missing key while another process
// Sets it reads the value or a miss, never an empty value the key never
// held.
func TestGetRacingSet(t *testing.T) {
	s, rdb, _ := newStore(t)
	ctx := t.Context()
	k := s.valueKey(authority)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = rdb.Del(ctx, k).Err()
			_ = s.Set(ctx, authority, []byte("a whole value"), time.Hour)
		}
	}()
	empty := 0
	for range 3000 {
		if v, err := s.Get(ctx, authority); err == nil && len(v) == 0 {
			empty++
		}
	}
	close(stop)
	<-done
	if empty > 0 {
		t.Errorf("Get read an empty value %d times; the key only ever held a whole one", empty)
	}
}

// hostileReply builds a reply of any shape a hostile or broken Redis may
// send from fuzzed values: arrays of numbers, of decimal strings, mixed,
// nested or short, a number, a string, nil, or an error reply.
func hostileReply(shape uint8, a, b int64, text string) (any, error) {
	switch shape % 11 {
	case 0:
		return []any{a, b}, nil
	case 1:
		return []any{strconv.FormatInt(a, 10), strconv.FormatInt(b, 10)}, nil
	case 2:
		return []any{a, text}, nil
	case 3:
		return []any{a, b, a}, nil
	case 4:
		return []any{a}, nil
	case 5:
		return a, nil
	case 6:
		return text, nil
	case 7:
		return []any{nil, a}, nil
	case 8:
		return []any{a, []any{b}}, nil
	case 9:
		return nil, redis.Nil
	}
	return nil, replyError(text)
}

// replyHook answers the scripts and commands of a go-redis client itself,
// sending nothing: the commands named in hostile (a script's EVAL and
// EVALSHA are named by its hash) get the reply it holds, any other a
// well-formed success (1), and every one, once the hook is closed,
// redis.ErrClosed, which ends the Store's sending again in the
// background.
type replyHook struct {
	hostile map[string]bool
	val     any
	err     error
	closed  atomic.Bool
}

// newHookedStore returns a Store whose client sends nothing, answered by
// h, and a function that closes both.
func newHookedStore(h *replyHook) (*Store, func()) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ContextTimeoutEnabled: true})
	rdb.AddHook(h)
	return New(rdb, WithLogger(quietLogger), WithTimeout(generous)), func() {
		h.closed.Store(true)
		_ = rdb.Close()
	}
}

func (h *replyHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *replyHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h *replyHook) ProcessHook(redis.ProcessHook) redis.ProcessHook {
	return func(_ context.Context, cmd redis.Cmder) error {
		if h.closed.Load() {
			return redis.ErrClosed
		}
		name := cmd.Name()
		if args := cmd.Args(); (name == "eval" || name == "evalsha") && len(args) > 1 {
			src := fmt.Sprint(args[1])
			if name == "eval" {
				src = fmt.Sprintf("%x", sha1.Sum([]byte(src)))
			}
			name = src
		}
		val, err := any(int64(1)), error(nil)
		if h.hostile[name] {
			val, err = h.val, h.err
		}
		if err != nil {
			return err
		}
		switch c := cmd.(type) {
		case *redis.Cmd:
			c.SetVal(val)
		case *redis.StringCmd:
			s, ok := val.(string)
			if !ok {
				return fmt.Errorf("test: a %T reply to %s", val, name)
			}
			c.SetVal(s)
		default:
			return fmt.Errorf("test: no reply for %T", cmd)
		}
		return nil
	}
}

// FuzzGetReply feeds Get any reply value to its GETRANGE and to the script
// that tells an empty value from none, as go-redis hands over what a
// hostile Redis sent (set in a hook): Get returns a reply's bytes only when
// they are a string within the Store's bound, a miss only for nil or a
// WRONGTYPE error, and an error otherwise; never a panic.
func FuzzGetReply(f *testing.F) {
	f.Add(uint8(6), uint8(6), int64(0), "value", "")
	f.Add(uint8(6), uint8(9), int64(0), "", "")
	f.Add(uint8(6), uint8(6), int64(0), "", "")
	f.Add(uint8(10), uint8(6), int64(0), "WRONGTYPE Operation against a key holding the wrong kind of value", "")
	f.Add(uint8(6), uint8(5), int64(3), "", "x")
	f.Add(uint8(6), uint8(6), int64(0), "01234567890", "")
	f.Fuzz(func(t *testing.T, shape, emptyShape uint8, a int64, text, emptyText string) {
		const maxValue = 10
		h := &replyHook{hostile: map[string]bool{"getrange": true}}
		h.val, h.err = hostileReply(shape, a, a, text)
		empty := &replyHook{}
		empty.val, empty.err = hostileReply(emptyShape, a, a, emptyText)
		// One hook answers both: GETRANGE's reply, then the script's.
		both := &getHook{getrange: h, empty: empty}
		rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ContextTimeoutEnabled: true})
		rdb.AddHook(both)
		defer rdb.Close()
		s := New(rdb, WithLogger(quietLogger), WithTimeout(generous), WithMaxValue(maxValue))
		got, err := s.Get(context.Background(), authority)
		// The reply Get reads: GETRANGE's, or, for an empty string,
		// the script's.
		val, rerr := h.val, h.err
		if s, ok := val.(string); ok && s == "" && rerr == nil {
			val, rerr = empty.val, empty.err
		}
		str, isString := val.(string)
		switch {
		case errors.Is(rerr, redis.Nil) || rerr != nil && strings.HasPrefix(rerr.Error(), "WRONGTYPE"):
			if !errors.Is(err, robotstxt.ErrCacheMiss) || got != nil {
				t.Fatalf("reply %v: Get = %q, %v; want a miss", rerr, got, err)
			}
		case rerr == nil && isString && len(str) <= maxValue:
			if err != nil || string(got) != str {
				t.Fatalf("reply %q: Get = %q, %v", str, got, err)
			}
		default:
			if err == nil || errors.Is(err, robotstxt.ErrCacheMiss) || got != nil {
				t.Fatalf("reply %#v, %v: Get = %q, %v; want an error not a miss", val, rerr, got, err)
			}
		}
		if int64(len(got)) > maxValue {
			t.Fatalf("Get returned %d bytes, over the bound of %d", len(got), maxValue)
		}
	})
}

// getHook answers GETRANGE with one hook's reply and every other command
// (emptyScript) with another's.
type getHook struct{ getrange, empty *replyHook }

func (h *getHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *getHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h *getHook) ProcessHook(redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		r := h.empty
		if cmd.Name() == "getrange" {
			r = h.getrange
		}
		if r.err != nil {
			return r.err
		}
		switch c := cmd.(type) {
		case *redis.Cmd:
			c.SetVal(r.val)
		case *redis.StringCmd:
			s, ok := r.val.(string)
			if !ok {
				return fmt.Errorf("test: a %T reply to %s", r.val, cmd.Name())
			}
			c.SetVal(s)
		}
		return nil
	}
}
