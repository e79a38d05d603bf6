package redisstore_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"

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
