package otelrobotstxt

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.uber.org/goleak"

	"github.com/robotsgate/robotstxt"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// site starts a loopback site whose robots.txt answers status and body
// and whose other paths answer 200.
func site(t *testing.T, status int, robots string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(status)
		}
		_, _ = io.WriteString(w, robots)
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// newPair returns a Client and a Transport over loopback, closed with the
// test, and an http.Client using the Transport.
func newPair(t *testing.T) (*robotstxt.Client, *robotstxt.Transport, *http.Client) {
	t.Helper()
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	c, tr := robotstxt.NewClientTransport(next, []robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0")})
	t.Cleanup(func() { _ = c.Close() })
	return c, tr, &http.Client{Transport: tr}
}

// point is one data point as the tests compare it: the value of a sum
// under one attribute value ("" for none).
type point struct {
	name, attr string
}

// collect reads every data point of the package's scope from r, failing
// the test on a metric of the wrong kind or unit.
func collect(t *testing.T, r sdkmetric.Reader) map[point]float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[point]float64{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != scopeName {
			continue
		}
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				upDown := m.Name == "robotstxt.client.fetch.active" || m.Name == "robotstxt.client.cache.entry.count" ||
					m.Name == "robotstxt.client.cache.entry.frozen" || m.Name == "robotstxt.client.cache.size"
				if d.IsMonotonic == upDown || m.Unit == "" || m.Unit[0] != '{' && m.Unit != "By" {
					t.Errorf("%s: monotonic %v, unit %q", m.Name, d.IsMonotonic, m.Unit)
				}
				for _, dp := range d.DataPoints {
					attr := ""
					if dp.Attributes.Len() == 1 {
						attr = dp.Attributes.ToSlice()[0].Value.AsString()
					}
					got[point{m.Name, attr}] = float64(dp.Value)
				}
			case metricdata.Sum[float64]:
				if !d.IsMonotonic || m.Unit != "s" {
					t.Errorf("%s: monotonic %v, unit %q; want a counter in seconds", m.Name, d.IsMonotonic, m.Unit)
				}
				for _, dp := range d.DataPoints {
					got[point{m.Name, ""}] = dp.Value
				}
			default:
				t.Errorf("%s: %T, want a sum", m.Name, m.Data)
			}
		}
	}
	return got
}

// TestObserve sends a scripted mix of requests through a Transport and
// checks every number a manual reader collects against what the mix did.
func TestObserve(t *testing.T) {
	rules := site(t, 200, "User-agent: *\nDisallow: /private\n")
	paced := site(t, 200, "User-agent: *\nCrawl-delay: 0.1\n")
	missing := site(t, 404, "not found")
	down := site(t, 503, "down")
	c, tr, hc := newPair(t)
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	reg, err := Observe(c, tr, WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	send := func(ctx context.Context, u string, want error) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		if !errors.Is(err, want) || (err == nil) != (want == nil) {
			t.Fatalf("%s: %v, want %v", u, err, want)
		}
	}
	send(ctx, rules+"/a", nil)                             // sent; fetch: rules; miss
	send(ctx, rules+"/b", nil)                             // sent; hit
	send(ctx, rules+"/private/c", robotstxt.ErrDisallowed) // disallowed; hit
	send(ctx, missing+"/d", nil)                           // sent; fetch: allow_all; miss
	send(ctx, down+"/e", robotstxt.ErrDeferred)            // deferred; fetch: unreachable; miss
	send(robotstxt.SkipRobots(ctx), down+"/f", nil)        // skipped
	send(ctx, paced+"/g", nil)                             // sent; fetch: rules; miss
	send(ctx, paced+"/h", nil)                             // paced, waits about 0.1 s, checked again; sent; two hits

	got := collect(t, reader)
	waited := got[point{"robotstxt.transport.wait.time", ""}]
	delete(got, point{"robotstxt.transport.wait.time", ""})
	if size := got[point{"robotstxt.client.cache.size", ""}]; size <= 0 || size != float64(c.Stats().Bytes) {
		t.Errorf("cache.size = %v, want the Client's %d", size, c.Stats().Bytes)
	}
	delete(got, point{"robotstxt.client.cache.size", ""})
	want := map[point]float64{
		{"robotstxt.client.check.count", "hit"}:             4,
		{"robotstxt.client.check.count", "miss"}:            4,
		{"robotstxt.client.check.stale", ""}:                0,
		{"robotstxt.client.check.deferred", ""}:             1,
		{"robotstxt.client.fetch.count", "rules"}:           2,
		{"robotstxt.client.fetch.count", "allow_all"}:       1,
		{"robotstxt.client.fetch.count", "disallow_all"}:    0,
		{"robotstxt.client.fetch.count", "unreachable"}:     1,
		{"robotstxt.client.fetch.count", "not_modified"}:    0,
		{"robotstxt.client.fetch.active", ""}:               0,
		{"robotstxt.client.cache.entry.count", ""}:          4,
		{"robotstxt.client.cache.eviction.count", ""}:       0,
		{"robotstxt.client.cache.entry.frozen", ""}:         0,
		{"robotstxt.client.cache.thaw.count", ""}:           0,
		{"robotstxt.client.store.lookup.count", "hit"}:      0,
		{"robotstxt.client.store.lookup.count", "miss"}:     0,
		{"robotstxt.client.store.error.count", ""}:          0,
		{"robotstxt.client.store.write.count", ""}:          0,
		{"robotstxt.client.store.lease_wait.count", ""}:     0,
		{"robotstxt.transport.request.count", "sent"}:       5,
		{"robotstxt.transport.request.count", "disallowed"}: 1,
		{"robotstxt.transport.request.count", "deferred"}:   1,
		{"robotstxt.transport.request.count", "skipped"}:    1,
		{"robotstxt.transport.request.paced", ""}:           1,
		{"robotstxt.transport.request.held", ""}:            0,
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s{%s} = %v (reported: %v), want %v", k.name, k.attr, g, ok, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected data point %s{%s}", k.name, k.attr)
		}
	}
	if ts := tr.Stats(); waited != ts.Waited.Seconds() || waited < 0.05 || waited > 1 {
		t.Errorf("wait.time = %v s, want the Transport's %v, about 0.1 s", waited, ts.Waited)
	}

	// Unregistered, the callback reports nothing more.
	if err := reg.Unregister(); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, reader); len(got) != 0 {
		t.Errorf("%d data points after Unregister", len(got))
	}
}

// TestObserveFrozen gives a Client a byte budget that holds two sites
// only with one of them frozen, comes back to each in turn, and checks the
// cache's instruments against its Stats: one entry frozen, two thaws.
func TestObserveFrozen(t *testing.T) {
	a := site(t, 200, "User-agent: *\nDisallow: /private\n")
	b := site(t, 200, "User-agent: *\nDisallow: /secret\n")
	ctx := context.Background()
	visit := func(c *robotstxt.Client, sites ...string) {
		t.Helper()
		for _, s := range sites {
			if _, err := c.Allowed(ctx, s+"/x"); err != nil {
				t.Fatal(err)
			}
		}
	}
	whole, _, _ := newPair(t)
	visit(whole, a, b)
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	// 100 bytes short of both sites whole: more than compressing their
	// small bodies saves, less than one site's parsed rules.
	c := robotstxt.NewClient(robotstxt.WithHTTPClient(&http.Client{Transport: next}),
		robotstxt.WithCacheBytes(whole.Stats().Bytes-100))
	t.Cleanup(func() { _ = c.Close() })
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	if _, err := Observe(c, nil, WithMeterProvider(mp)); err != nil {
		t.Fatal(err)
	}
	visit(c, a, b, a, b) // each return thaws one and freezes the other
	st := c.Stats()
	if st.Frozen != 1 || st.Thaws != 2 || st.Entries != 2 {
		t.Fatalf("Stats = %+v; want 2 entries, 1 frozen, 2 thaws", st)
	}
	got := collect(t, reader)
	for name, want := range map[string]float64{
		"robotstxt.client.cache.entry.count":  2,
		"robotstxt.client.cache.entry.frozen": 1,
		"robotstxt.client.cache.thaw.count":   2,
		"robotstxt.client.cache.size":         float64(st.Bytes),
	} {
		if g := got[point{name, ""}]; g != want {
			t.Errorf("%s = %v, want %v", name, g, want)
		}
	}
}

// TestObserveEither observes a Client alone through the global
// MeterProvider, then a Transport alone, and refuses neither.
func TestObserveEither(t *testing.T) {
	if _, err := Observe(nil, nil); err == nil {
		t.Error("Observe(nil, nil) did not fail")
	}
	// A Client or Transport not made by its constructor panics at the
	// call, not later in the exporter's goroutine.
	for name, observe := range map[string]func(){
		"Client":    func() { _, _ = Observe(&robotstxt.Client{}, nil) },
		"Transport": func() { _, _ = Observe(nil, &robotstxt.Transport{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Observe of a zero %s did not panic", name)
				}
			}()
			observe()
		}()
	}
	rules := site(t, 200, "User-agent: *\nAllow: /\n")
	c, tr, hc := newPair(t)
	resp, err := hc.Get(rules + "/a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	prev := otel.GetMeterProvider()
	otel.SetMeterProvider(mp)
	t.Cleanup(func() { otel.SetMeterProvider(prev) })

	for _, tc := range []struct {
		name        string
		c           *robotstxt.Client
		t           *robotstxt.Transport
		has, hasNot string
	}{
		{"Client alone", c, nil, "robotstxt.client.fetch.count", "robotstxt.transport.request.count"},
		{"Transport alone", nil, tr, "robotstxt.transport.request.count", "robotstxt.client.fetch.count"},
	} {
		reg, err := Observe(tc.c, tc.t, WithMeterProvider(nil)) // nil keeps the global
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for p := range collect(t, reader) {
			names[p.name] = true
		}
		if !names[tc.has] || names[tc.hasNot] {
			t.Errorf("%s: reported %v", tc.name, names)
		}
		if err := reg.Unregister(); err != nil {
			t.Fatal(err)
		}
	}
}
