// Package otelrobotstxt exports the counts of a robotstxt.Client and a
// robotstxt.Transport as OpenTelemetry metrics. It is a module of its own,
// so that the robotstxt library does not depend on OpenTelemetry; it
// depends only on the OpenTelemetry API, and the program brings the SDK
// (see the example).
//
// Every instrument is asynchronous: one callback reads the Stats of the
// Client and Transport when the metrics are collected, so the library's
// hot paths do no metrics work. [robotstxt.Stats] and
// [robotstxt.TransportStats] say what each counts; names and units follow
// OpenTelemetry's semantic conventions.
//
// # Instruments
//
// From the Client, counters unless marked up-down:
//
//	robotstxt.client.check.count             {check}    by robotstxt.cache.result: hit, miss
//	robotstxt.client.check.stale             {check}    answered from a stale copy
//	robotstxt.client.check.deferred          {check}    answered with ErrDeferred
//	robotstxt.client.fetch.count             {fetch}    by robotstxt.fetch.result: rules, allow_all,
//	                                                    disallow_all, unreachable, not_modified
//	robotstxt.client.fetch.active            {fetch}    up-down: fetches under way (tdmrep.json too)
//	robotstxt.client.cache.entry.count       {entry}    up-down: authorities in memory
//	robotstxt.client.cache.eviction.count    {entry}    entries the cache dropped for room
//	robotstxt.client.cache.entry.frozen      {entry}    up-down: of those, frozen for room
//	robotstxt.client.cache.thaw.count        {thaw}     frozen entries parsed again on use
//	robotstxt.client.cache.size              By         up-down: bytes the cache retains
//	robotstxt.client.store.lookup.count      {lookup}   by robotstxt.store.result: hit, miss
//	robotstxt.client.store.error.count       {error}    failed or timed-out Store calls
//	robotstxt.client.store.write.count       {write}    entries written to the Store
//	robotstxt.client.store.lease_wait.count  {wait}     waits for another process's lease
//
// From the Transport, all counters:
//
//	robotstxt.transport.request.count        {request}  by robotstxt.request.result: sent,
//	                                                    disallowed, deferred, skipped
//	robotstxt.transport.request.paced        {request}  whose turn was not free at once
//	robotstxt.transport.request.held         {request}  of those, held by a Retry-After or
//	                                                    the site's longer pace
//	robotstxt.transport.wait.time            s          time spent waiting for turns (float)
package otelrobotstxt

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/robotsgate/robotstxt"
)

// scopeName is the instrumentation scope of the meter Observe uses.
const scopeName = "github.com/robotsgate/robotstxt/otelrobotstxt"

// An Option configures Observe.
type Option func(*config)

type config struct {
	mp metric.MeterProvider
}

// WithMeterProvider sets the MeterProvider of the instruments (default:
// otel.GetMeterProvider()). A nil mp keeps the default.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) {
		if mp != nil {
			c.mp = mp
		}
	}
}

// Observe makes the instruments for c and t (either may be nil, not both)
// and registers the callback that reports their Stats. Unregister the
// Registration to stop reporting, for instance before c is closed.
// Observe one Client and one Transport per MeterProvider: a second
// Observe reports under the same names. Like their methods, it panics
// on a Client or Transport that NewClient or NewTransport did not make,
// here rather than in the exporter's goroutine.
func Observe(c *robotstxt.Client, t *robotstxt.Transport, opts ...Option) (metric.Registration, error) {
	if c == nil && t == nil {
		return nil, errors.New("otelrobotstxt: Observe with neither a Client nor a Transport")
	}
	if c != nil {
		c.Stats()
	}
	if t != nil {
		t.Stats()
	}
	cfg := config{mp: otel.GetMeterProvider()}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	b := &builder{m: cfg.mp.Meter(scopeName)}
	var report []func(metric.Observer)
	if c != nil {
		report = append(report, b.client(c))
	}
	if t != nil {
		report = append(report, b.transport(t))
	}
	if b.err != nil {
		return nil, b.err
	}
	return b.m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		for _, r := range report {
			r(o)
		}
		return nil
	}, b.all...)
}

// builder makes instruments on one meter, keeping them for the callback's
// registration, and their errors.
type builder struct {
	m   metric.Meter
	all []metric.Observable
	err error
}

func (b *builder) keep(inst metric.Observable, err error) {
	b.err = errors.Join(b.err, err)
	if err == nil {
		b.all = append(b.all, inst)
	}
}

func (b *builder) counter(name, unit, desc string) metric.Int64ObservableCounter {
	inst, err := b.m.Int64ObservableCounter(name, metric.WithUnit(unit), metric.WithDescription(desc))
	b.keep(inst, err)
	return inst
}

func (b *builder) upDown(name, unit, desc string) metric.Int64ObservableUpDownCounter {
	inst, err := b.m.Int64ObservableUpDownCounter(name, metric.WithUnit(unit), metric.WithDescription(desc))
	b.keep(inst, err)
	return inst
}

// is returns the measurement option of one attribute.
func is(key, value string) metric.ObserveOption {
	return metric.WithAttributeSet(attribute.NewSet(attribute.String(key, value)))
}

// client makes the Client's instruments and returns what reports them.
func (b *builder) client(c *robotstxt.Client) func(metric.Observer) {
	checks := b.counter("robotstxt.client.check.count", "{check}", "Checks, by whether a fresh in-memory entry answered them.")
	stale := b.counter("robotstxt.client.check.stale", "{check}", "Checks answered from an expired or last good copy of robots.txt.")
	deferred := b.counter("robotstxt.client.check.deferred", "{check}", "Checks answered with ErrDeferred: robots.txt unreachable.")
	fetches := b.counter("robotstxt.client.fetch.count", "{fetch}", "Completed robots.txt fetches, by result.")
	active := b.upDown("robotstxt.client.fetch.active", "{fetch}", "Fetches under way: robots.txt and, under WithTDMRep, tdmrep.json.")
	entries := b.upDown("robotstxt.client.cache.entry.count", "{entry}", "Authorities in the in-memory cache.")
	evictions := b.counter("robotstxt.client.cache.eviction.count", "{entry}", "Entries the in-memory cache dropped to make room.")
	frozen := b.upDown("robotstxt.client.cache.entry.frozen", "{entry}", "Authorities in the in-memory cache kept without their parsed rules to stay within its byte budget.")
	thaws := b.counter("robotstxt.client.cache.thaw.count", "{thaw}", "Frozen entries whose robots.txt was parsed again when used.")
	size := b.upDown("robotstxt.client.cache.size", "By", "Bytes the in-memory cache retains, as counted against its byte budget.")
	lookups := b.counter("robotstxt.client.store.lookup.count", "{lookup}", "Store lookups, by whether they found a fresh entry.")
	storeErrs := b.counter("robotstxt.client.store.error.count", "{error}", "Failed or timed-out Store calls.")
	writes := b.counter("robotstxt.client.store.write.count", "{write}", "Entries written to the Store.")
	leaseWaits := b.counter("robotstxt.client.store.lease_wait.count", "{wait}", "Waits for another process that held the fetch lease.")
	return func(o metric.Observer) {
		s := c.Stats()
		o.ObserveInt64(checks, int64(s.Hits), is("robotstxt.cache.result", "hit"))
		o.ObserveInt64(checks, int64(s.Misses), is("robotstxt.cache.result", "miss"))
		o.ObserveInt64(stale, int64(s.StaleServed))
		o.ObserveInt64(deferred, int64(s.Deferred))
		f := s.Fetches
		o.ObserveInt64(fetches, int64(f.Rules), is("robotstxt.fetch.result", "rules"))
		o.ObserveInt64(fetches, int64(f.AllowAll), is("robotstxt.fetch.result", "allow_all"))
		o.ObserveInt64(fetches, int64(f.DisallowAll), is("robotstxt.fetch.result", "disallow_all"))
		o.ObserveInt64(fetches, int64(f.Unreachable), is("robotstxt.fetch.result", "unreachable"))
		o.ObserveInt64(fetches, int64(f.NotModified), is("robotstxt.fetch.result", "not_modified"))
		o.ObserveInt64(active, s.InFlight)
		o.ObserveInt64(entries, int64(s.Entries))
		o.ObserveInt64(evictions, int64(s.Evictions))
		o.ObserveInt64(frozen, int64(s.Frozen))
		o.ObserveInt64(thaws, int64(s.Thaws))
		o.ObserveInt64(size, s.Bytes)
		o.ObserveInt64(lookups, int64(s.Store.Hits), is("robotstxt.store.result", "hit"))
		o.ObserveInt64(lookups, int64(s.Store.Misses), is("robotstxt.store.result", "miss"))
		o.ObserveInt64(storeErrs, int64(s.Store.Errors))
		o.ObserveInt64(writes, int64(s.Store.Sets))
		o.ObserveInt64(leaseWaits, int64(s.Store.LeaseWaits))
	}
}

// transport is client's counterpart for the Transport.
func (b *builder) transport(t *robotstxt.Transport) func(metric.Observer) {
	requests := b.counter("robotstxt.transport.request.count", "{request}", "Requests the Transport sent, refused as disallowed or deferred, or passed through by SkipRobots.")
	paced := b.counter("robotstxt.transport.request.paced", "{request}", "Requests whose authority's turn was not free at once: delayed, or refused with a PacedError.")
	held := b.counter("robotstxt.transport.request.held", "{request}", "Paced requests whose wait was longer than their own interval: a Retry-After hold, or the site's longer pace, delayed or refused them.")
	waited, err := b.m.Float64ObservableCounter("robotstxt.transport.wait.time", metric.WithUnit("s"),
		metric.WithDescription("Time requests spent waiting for their turns, added up over requests."))
	b.keep(waited, err)
	return func(o metric.Observer) {
		s := t.Stats()
		o.ObserveInt64(requests, s.Sent, is("robotstxt.request.result", "sent"))
		o.ObserveInt64(requests, s.Disallowed, is("robotstxt.request.result", "disallowed"))
		o.ObserveInt64(requests, s.Deferred, is("robotstxt.request.result", "deferred"))
		o.ObserveInt64(requests, s.Skipped, is("robotstxt.request.result", "skipped"))
		o.ObserveInt64(paced, s.Paced)
		o.ObserveInt64(held, s.Held)
		o.ObserveFloat64(waited, s.Waited.Seconds())
	}
}
