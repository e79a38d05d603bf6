package redisstore_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/redisstore"
)

// Every crawler process of a fleet builds its Client on the same Redis, so
// that each robots.txt is fetched once for the whole fleet. Redis Sentinel
// or Cluster work the same way through redis.NewUniversalClient.
func ExampleNew() {
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer rdb.Close()

	store := redisstore.New(rdb, redisstore.WithLogger(slog.Default()))
	client := robotstxt.NewClient(
		robotstxt.WithStore(store),
		robotstxt.WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"),
	)
	defer client.Close()

	ok, err := client.Allowed(context.Background(), "https://example.com/some/page")
	if err != nil {
		log.Fatal(err) // a bad URL, or robots.txt unreachable: come back later
	}
	fmt.Println("allowed:", ok)
}

// On a Redis Cluster, the go-redis options the package documentation
// advises: deadlines on sockets, a dead node refused at once rather than
// dialled five times, and no reads from replicas (the default). The Store
// shares robots.txt entries and paces the fleet's requests.
func ExampleNew_cluster() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:                 []string{"redis-1:6379", "redis-2:6379", "redis-3:6379"},
		ContextTimeoutEnabled: true,
		DialerRetries:         1,
		DialTimeout:           time.Second,
	})
	defer rdb.Close()

	store := redisstore.New(rdb, redisstore.WithLogger(slog.Default()))
	client := robotstxt.NewClient(robotstxt.WithStore(store))
	defer client.Close()
	crawler := &http.Client{
		Transport: robotstxt.NewTransport(client, http.DefaultTransport, robotstxt.WithPacer(store)),
		Timeout:   time.Minute,
	}
	resp, err := crawler.Get("https://example.com/some/page")
	if err != nil {
		log.Fatal(err) // disallowed, robots.txt unreachable, or not paced: not sent
	}
	defer resp.Body.Close()
}
