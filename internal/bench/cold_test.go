package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	robotsgate "github.com/robotsgate/robotstxt"
)

// These benchmarks measure what the Client pays for an authority it has
// never seen: the fetch, reading the body, parsing it and whatever it
// keeps for later, against a plain GET, read and Parse of the same body
// with one check (the work a first answer cannot avoid), in the same run.
// Host "fNNNN-M.example" serves corpus file NNNN.txt as its robots.txt; M
// makes each authority new.

// coldHost returns the host of the i-th cold authority of a side (one
// letter, so that the two sides never share an authority) serving
// files[i % len(files)].
func coldHost(side string, files []corpusFile, i int) string {
	name := strings.TrimSuffix(files[i%len(files)].name, ".txt")
	return fmt.Sprintf("f%s-%s%d.example", name, side, i)
}

// corpusHandler serves the corpus: the robots.txt of host fNNNN-… is
// NNNN.txt, with a day's max-age.
func corpusHandler(files []corpusFile) http.Handler {
	byName := make(map[string][]byte, len(files))
	for _, f := range files {
		byName[strings.TrimSuffix(f.name, ".txt")] = f.body
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(strings.TrimPrefix(r.Host, "f"), "-")
		body, ok := byName[host]
		if !ok || r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Cache-Control", "max-age=86400")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	})
}

// redirectDial is an http.Transport whose connections all go to addr,
// whatever the host: shared keeps one pool for every host (requests keep
// their Host, so the server still tells them apart), otherwise each host
// has connections of its own and none is kept after its request.
func redirectDial(tb testing.TB, addr string, shared bool) *http.Client {
	var d net.Dialer
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		MaxIdleConnsPerHost: 64,
		DisableKeepAlives:   !shared,
	}
	tb.Cleanup(tr.CloseIdleConnections)
	if !shared {
		return &http.Client{Transport: tr}
	}
	return &http.Client{Transport: sharedPool{tr, addr}}
}

// sharedPool sends every request to one address, keeping its Host, so
// that the transport pools one set of keep-alive connections for all
// hosts.
type sharedPool struct {
	next *http.Transport
	addr string
}

func (p sharedPool) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Host = req.URL.Host
	r.URL.Host = p.addr
	return p.next.RoundTrip(r)
}

// getParse is the baseline of a cold check: GET the robots.txt, read it,
// parse it and, when check is set, check one path (which indexes the
// rules, as the Client's first check does).
func getParse(hc *http.Client, host string, check bool) (bool, error) {
	resp, err := hc.Get("http://" + host + "/robots.txt")
	if err != nil {
		return false, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		return false, fmt.Errorf("%s: %d %v", host, resp.StatusCode, err)
	}
	r := robotsgate.Parse(body)
	return !check || r.Allowed(checkAgent, "/some/page.html"), nil
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pairCPU is pair with CPU time beside wall time, and two baselines:
// base, parsed (the same without the check) and measured run in turn, k
// calls of each per round, and each is reported per call, with
// measured/base in wall time (x-baseline) and CPU time (x-baseline-cpu,
// from getrusage before and after each part), and measured/parsed in CPU
// time (x-parse-cpu). Which part runs first turns with each round: the
// garbage one part leaves is collected during the next, and a fixed order
// billed the Client's to the baseline that followed it.
func pairCPU(b *testing.B, k int, base, parsed, measured func(i int)) {
	parts := [3]func(i int){base, parsed, measured}
	var wall, cpu [3]time.Duration
	calls, i := 0, 0
	for round := 0; b.Loop(); round++ {
		for n := range 3 {
			p := (round + n) % 3
			c0, start := cpuTime(), time.Now()
			for j := range k {
				parts[p](i + j)
			}
			wall[p] += time.Since(start)
			cpu[p] += cpuTime() - c0
		}
		calls += k
		i += k
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(calls) }
	b.ReportMetric(per(wall[0]), "ns-baseline/op")
	b.ReportMetric(per(wall[2]), "ns-measured/op")
	b.ReportMetric(float64(wall[2])/float64(wall[0]), "x-baseline")
	b.ReportMetric(per(cpu[0]), "ns-cpu-baseline/op")
	b.ReportMetric(per(cpu[1]), "ns-cpu-parse/op")
	b.ReportMetric(per(cpu[2]), "ns-cpu-measured/op")
	b.ReportMetric(float64(cpu[2])/float64(cpu[0]), "x-baseline-cpu")
	b.ReportMetric(float64(cpu[2])/float64(cpu[1]), "x-parse-cpu")
}

// BenchmarkClientCold checks one URL of a new authority per op through a
// Client (fetch, read, parse, keep) against getParse of the same corpus
// file, and against the same without the check (GET, read and Parse),
// cycling through the corpus, with the server in the process:
// "one-connection-each" dials a connection per authority, as a crawler
// reaching new sites does; "shared-keepalive" sends every request over a
// shared pool of keep-alive connections, which leaves the Client's own
// cost more of the total. Reported: wall and CPU time per op and their
// ratios to the baselines (target: CPU ≤ 1.25× of GET, read and Parse).
func BenchmarkClientCold(b *testing.B) {
	files, _ := loadCorpus(b)
	srv := httptest.NewServer(corpusHandler(files))
	b.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	for _, shared := range []bool{false, true} {
		name := "one-connection-each"
		if shared {
			name = "shared-keepalive"
		}
		b.Run(name, func(b *testing.B) {
			base, hc := redirectDial(b, addr, shared), redirectDial(b, addr, shared)
			c := robotsgate.NewClient(robotsgate.WithHTTPClient(hc), robotsgate.WithProductTokens(checkAgent),
				robotsgate.WithCacheSize(1<<20), robotsgate.WithCacheBytes(1<<40))
			b.Cleanup(func() { c.Close() })
			ctx := context.Background()
			pairCPU(b, 50, func(i int) {
				if _, err := getParse(base, coldHost("b", files, i), true); err != nil {
					b.Fatal(err)
				}
			}, func(i int) {
				if _, err := getParse(base, coldHost("p", files, i), false); err != nil {
					b.Fatal(err)
				}
			}, func(i int) {
				if _, err := c.Allowed(ctx, "http://"+coldHost("c", files, i)+"/some/page.html"); err != nil {
					b.Fatal(err)
				}
			})
			if st := c.Stats(); st.Fetches.Rules != st.Misses {
				b.Fatalf("%d fetches of rules for %d misses", st.Fetches.Rules, st.Misses)
			}
		})
	}
}

// BenchmarkClientColdNginx fills authorities from 8 goroutines through a
// Client and through getParse, against nginx serving the corpus from
// another process over shared keep-alive connections, and reports hosts
// per second of each and their ratio (target ≥ 0.9), the median of the
// rounds' ratios (which a burst of another process's work in a few rounds
// leaves alone), and the ratio of the CPU time this process spent on each
// (nginx's own is not counted). It
// needs nginx on PATH (or in /usr/sbin) and is skipped without it.
func BenchmarkClientColdNginx(b *testing.B) {
	files, _ := loadCorpus(b)
	addr := startNginx(b, files)
	const workers, perRound = 8, 400
	base, hc := redirectDial(b, addr, true), redirectDial(b, addr, true)
	c := robotsgate.NewClient(robotsgate.WithHTTPClient(hc), robotsgate.WithProductTokens(checkAgent),
		robotsgate.WithCacheSize(1<<20), robotsgate.WithCacheBytes(1<<40))
	b.Cleanup(func() { c.Close() })
	ctx := context.Background()
	run := func(from int, one func(i int) error) time.Duration {
		var next atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		for range workers {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= perRound {
						return
					}
					if err := one(from + i); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	var tb, tm, cb, cm time.Duration
	var rounds []float64 // each round's throughput ratio
	hosts := 0
	var rb, rm time.Duration // this round's times
	baseline := func() {
		c0 := cpuTime()
		rb = run(hosts, func(i int) error { _, err := getParse(base, coldHost("b", files, i), true); return err })
		tb += rb
		cb += cpuTime() - c0
	}
	measured := func() {
		c0 := cpuTime()
		rm = run(hosts, func(i int) error {
			_, err := c.Allowed(ctx, "http://"+coldHost("c", files, i)+"/some/page.html")
			return err
		})
		tm += rm
		cm += cpuTime() - c0
	}
	for round := 0; b.Loop(); round++ {
		// The side that goes first swaps every round, so that neither
		// gains or loses by its place (the other's garbage, a warm or
		// cold nginx).
		if round%2 == 0 {
			baseline()
			measured()
		} else {
			measured()
			baseline()
		}
		hosts += perRound
		rounds = append(rounds, rb.Seconds()/rm.Seconds())
	}
	b.ReportMetric(float64(hosts)/tb.Seconds(), "hosts/s-baseline")
	b.ReportMetric(float64(hosts)/tm.Seconds(), "hosts/s-measured")
	b.ReportMetric(tb.Seconds()/tm.Seconds(), "x-baseline-throughput")
	slices.Sort(rounds)
	b.ReportMetric(rounds[len(rounds)/2], "x-baseline-throughput-median")
	b.ReportMetric(float64(cm)/float64(cb), "x-baseline-cpu")
}

// startNginx runs nginx on a loopback port serving the corpus (host
// fNNNN-… gets NNNN.txt as its robots.txt) and returns its address.
func startNginx(b *testing.B, files []corpusFile) string {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if _, err2 := os.Stat("/usr/sbin/nginx"); err2 != nil {
			b.Skip("nginx not found")
		}
		bin = "/usr/sbin/nginx"
	}
	dir := b.TempDir()
	docs := filepath.Join(dir, "files")
	if err := os.Mkdir(docs, 0o755); err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(docs, f.name), f.body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	conf := fmt.Sprintf(`daemon off;
master_process off;
worker_processes 1;
error_log %[1]s/error.log;
pid %[1]s/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %[1]s;
    proxy_temp_path %[1]s;
    fastcgi_temp_path %[1]s;
    uwsgi_temp_path %[1]s;
    scgi_temp_path %[1]s;
    keepalive_requests 1000000;
    default_type text/plain;
    server {
        listen %[2]s;
        server_name ~^f(?<file>[0-9]+)-;
        root %[3]s;
        location = /robots.txt {
            add_header Cache-Control "max-age=86400";
            try_files /$file.txt =404;
        }
    }
}
`, dir, addr, docs)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"))
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	hc := redirectDial(b, addr, true)
	for deadline := time.Now().Add(5 * time.Second); ; {
		if _, err := getParse(hc, coldHost("w", files, 0), true); err == nil {
			return addr
		} else if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			b.Fatalf("nginx did not serve: %v\n%s", err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// memTransport serves the robots.txt of host fNNNN-… (see coldHost), the
// corpus file NNNN.txt, from memory: no sockets, so that a pass runs in
// one goroutine and callgrind can count it.
type memTransport map[string][]byte

func (m memTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	host, _, _ := strings.Cut(strings.TrimPrefix(req.URL.Host, "f"), "-")
	body, ok := m[host]
	if !ok || req.URL.Path != "/robots.txt" {
		return &http.Response{StatusCode: 404, Body: http.NoBody, Header: http.Header{}, Request: req}, nil
	}
	h := http.Header{"Content-Type": {"text/plain"}, "Cache-Control": {"max-age=86400"},
		"Content-Length": {strconv.Itoa(len(body))}}
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: h, ContentLength: int64(len(body)),
		Body: io.NopCloser(bytes.NewReader(body)), Request: req}, nil
}

// coldPass checks one URL of each of n new authorities, the i-th
// served files[i % len(files)], from first on, through one.
//
//go:noinline
func coldPass(first, n int, files []corpusFile, one func(host string) error) error {
	for i := first; i < first+n; i++ {
		if err := one(coldHost("m", files, i)); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkClientColdPass is BenchmarkClientCold without sockets, for
// counting instructions: one op is a pass over the corpus, each file
// served by an in-process RoundTripper to a new authority of a Client
// ("client"), or fetched through it, read and parsed, and checked once
// ("get-parse-check") or not ("get-parse"). Under callgrind, collect in
// coldPass (see README.md).
func BenchmarkClientColdPass(b *testing.B) {
	files, _ := loadCorpus(b)
	m := make(memTransport, len(files))
	for _, f := range files {
		m[strings.TrimSuffix(f.name, ".txt")] = f.body
	}
	hc := &http.Client{Transport: m}
	c := robotsgate.NewClient(robotsgate.WithHTTPClient(hc), robotsgate.WithProductTokens(checkAgent),
		robotsgate.WithCacheSize(1<<22), robotsgate.WithCacheBytes(1<<40))
	b.Cleanup(func() { c.Close() })
	ctx := context.Background()
	first := 0 // each authority new, over every run
	for _, side := range []struct {
		name string
		one  func(host string) error
	}{
		{"client", func(host string) error {
			_, err := c.Allowed(ctx, "http://"+host+"/some/page.html")
			return err
		}},
		{"get-parse-check", func(host string) error { _, err := getParse(hc, host, true); return err }},
		{"get-parse", func(host string) error { _, err := getParse(hc, host, false); return err }},
	} {
		b.Run(side.name, func(b *testing.B) {
			growStack(4)
			for b.Loop() {
				if err := coldPass(first, len(files), files, side.one); err != nil {
					b.Fatal(err)
				}
				first += len(files)
			}
		})
	}
}

// growStack grows the goroutine's stack by some 256 KiB beforehand, so
// that no call in a pass moves it, which would stop callgrind's count.
//
//go:noinline
func growStack(n int) byte {
	var buf [64 << 10]byte
	buf[n] = byte(n)
	if n > 0 {
		return growStack(n-1) + buf[n-1]
	}
	return buf[0]
}
