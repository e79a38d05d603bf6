package robotstxt

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// miss handles a check without a fresh in-memory entry. cached, if not
// nil, is the expired entry for key.
func (c *Client) miss(ctx context.Context, agent, key, path string, cached *entry) (Decision, error) {
	c.stats.misses.Add(1)
	if cached != nil && !cached.refreshing.CompareAndSwap(false, true) {
		// Someone is already fetching it again: do not wait for them.
		return c.answer(cached, agent, path, true)
	}
	e, err := c.load(ctx, key, cached)
	if err != nil {
		if cached != nil && ctx.Err() != nil {
			// The caller gave up on the revalidation, which goes on;
			// the expired copy is still a usable answer.
			return c.answer(cached, agent, path, true)
		}
		return Decision{}, err
	}
	return c.answer(e, agent, path, false)
}

// load returns a current entry for key, fetching it if needed. Concurrent
// loads of one key share a single fill, which runs detached from ctx: a
// caller that gives up gets ctx's error at once while the fill completes
// for everyone else.
func (c *Client) load(ctx context.Context, key string, prev *entry) (*entry, error) {
	ch := c.group.DoChan(key, func() (any, error) { return c.fill(key, prev) })
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*entry), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("robotstxt: waiting for %s/robots.txt: %w", key, context.Cause(ctx))
	}
}

// enter registers a fill so Close can wait for it; it fails once closed.
func (c *Client) enter() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.fetches.Add(1)
	return true
}

// fill produces and publishes a new entry for key: from the Store if it
// has a fresh one, else by fetching (after waiting for another process's
// lease if the Store is a Leaser).
func (c *Client) fill(key string, prev *entry) (*entry, error) {
	if !c.enter() {
		return nil, ErrClosed
	}
	defer c.fetches.Done()
	// A fill that finished between our caller's miss and this one has
	// already published a fresh entry: use it rather than fetch again.
	if e := c.peek(key); e != nil && e != prev && c.fresh(e) {
		return e, nil
	}
	c.stats.inFlight.Add(1)
	defer c.stats.inFlight.Add(-1)

	var release func()
	if c.cfg.store != nil {
		e, newer := c.fromStore(key, prev)
		if e != nil {
			return c.publish(e), nil
		}
		prev = newer
		e, release = c.awaitLease(key)
		if e != nil {
			return c.publish(c.keepGood(e, prev)), nil
		}
	}
	e, err := c.refresh(key, prev)
	if err == nil {
		c.publish(e)
		c.storeSet(key, e)
	}
	if release != nil {
		release()
	}
	return e, err
}

// refresh fetches key's robots.txt and builds the entry that follows prev.
func (c *Client) refresh(key string, prev *entry) (*entry, error) {
	res := c.fetch(c.base, key, prev)
	if c.base.Err() != nil {
		return nil, fmt.Errorf("robotstxt: fetching %s/robots.txt: %w", key, ErrClosed)
	}
	now := c.cfg.now()
	c.stats.countFetch(res.outcome, res.notModified)
	switch {
	case res.notModified:
		e := prev.clone()
		lifetime, explicit := c.freshness(now, res.header)
		if !explicit {
			lifetime = c.clampFresh(prev.expires.Sub(prev.fetched))
			if prev.stale {
				lifetime = c.cfg.maxFresh
			}
		}
		e.fetched, e.checked, e.expires = now, now, now.Add(lifetime)
		e.stale, e.failStatus, e.failures, e.errText = false, 0, 0, ""
		return e.finish(c.cfg.mode), nil
	case res.outcome == OutcomeUnreachable:
		return c.unreachable(key, prev, res, now), nil
	}
	lifetime, _ := c.freshness(now, res.header)
	e := &entry{
		key: key, outcome: res.outcome, status: res.status,
		fetched: now, checked: now, expires: now.Add(lifetime),
		finalURL: res.finalURL,
	}
	if res.outcome == OutcomeRules {
		e.body = res.body
		e.robots = ParseMode(res.body, c.cfg.mode)
		e.etag = res.header.Get("ETag")
		e.lastMod = res.header.Get("Last-Modified")
	}
	c.logger.LogAttrs(c.base, slog.LevelDebug, "robots.txt fetched",
		slog.String("authority", key), slog.Int("status", res.status),
		slog.String("outcome", res.outcome.String()), slog.Duration("fresh", lifetime))
	return e.finish(c.cfg.mode), nil
}

// unreachable builds the entry for a failed fetch: the last good copy
// marked stale while it is younger than the stale window, otherwise a
// deferral. Either lasts for the back-off period.
func (c *Client) unreachable(key string, prev *entry, res fetchResult, now time.Time) *entry {
	failures, since := 1, now
	if prev != nil && prev.failures > 0 {
		failures, since = prev.failures+1, prev.since
		if since.IsZero() || since.After(now) {
			since = prev.checked
		}
	}
	wait := c.backoff(now, res.header, failures)
	errText := ""
	if res.err != nil {
		errText = res.err.Error()
	}
	c.logger.LogAttrs(c.base, slog.LevelWarn, "robots.txt unreachable",
		slog.String("authority", key), slog.Int("status", res.status),
		slog.Int("failures", failures), slog.Duration("retry_in", wait),
		slog.String("error", errText))
	if prev != nil && prev.good() && now.Sub(prev.fetched) < c.cfg.staleWindow {
		e := prev.clone()
		e.stale, e.failStatus, e.failures, e.errText = true, res.status, failures, errText
		e.since, e.cause = since, res.err
		e.checked = now
		e.expires = now.Add(wait)
		if limit := prev.fetched.Add(c.cfg.staleWindow); e.expires.After(limit) {
			e.expires = limit
		}
		return e.finish(c.cfg.mode)
	}
	outcome := OutcomeUnreachable
	if c.cfg.allowAfter > 0 && now.Sub(since) >= c.cfg.allowAfter {
		// Unreachable for long enough with no usable copy: crawl as if
		// there were no robots.txt, and keep asking.
		outcome = OutcomeAllowAll
	}
	e := &entry{
		key: key, outcome: outcome, status: res.status,
		fetched: now, checked: now, expires: now.Add(wait),
		finalURL: res.finalURL, failStatus: res.status, failures: failures,
		since: since, errText: errText, cause: res.err,
	}
	return e.finish(c.cfg.mode)
}
