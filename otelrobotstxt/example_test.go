package otelrobotstxt_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/otelrobotstxt"
)

func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		fmt.Fprint(w, "hello")
	}))
	defer site.Close()
	rc, rt := robotstxt.NewClientTransport(nil, []robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0")})
	defer rc.Close()

	// A program sets up its MeterProvider, with an exporter, once; a
	// manual reader stands in for one here.
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())
	reg, err := otelrobotstxt.Observe(rc, rt, otelrobotstxt.WithMeterProvider(mp))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Unregister()

	hc := &http.Client{Transport: rt, Timeout: 10 * time.Second}
	for _, path := range []string{"/a.html", "/private/b.html"} {
		if resp, err := hc.Get(site.URL + path); err == nil {
			resp.Body.Close()
		}
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		fmt.Println(err)
		return
	}
	var lines []string
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name != "robotstxt.transport.request.count" && m.Name != "robotstxt.client.fetch.count" {
			continue
		}
		for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
			if dp.Value > 0 {
				lines = append(lines, fmt.Sprintf("%s{%s} %d %s", m.Name, dp.Attributes.Encoded(attribute.DefaultEncoder()), dp.Value, m.Unit))
			}
		}
	}
	slices.Sort(lines)
	fmt.Println(strings.Join(lines, "\n"))
	// Output:
	// robotstxt.client.fetch.count{robotstxt.fetch.result=rules} 1 {fetch}
	// robotstxt.transport.request.count{robotstxt.request.result=disallowed} 1 {request}
	// robotstxt.transport.request.count{robotstxt.request.result=sent} 1 {request}
}
