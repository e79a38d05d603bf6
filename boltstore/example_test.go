package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/boltstore"
)

// A crawler opens its Store once, at start, and closes it after the
// Client when it stops. On the next start the Client finds the
// robots.txt files it had fetched.
func ExampleOpen() {
	st, err := boltstore.Open("robots.db", boltstore.WithMaxBytes(256<<20), boltstore.WithReplaceDamaged())
	if err != nil {
		log.Fatal(err) // errors.Is(err, boltstore.ErrLocked): another crawler has the file
	}
	defer st.Close()
	client := robotstxt.NewClient(
		robotstxt.WithStore(st),
		robotstxt.WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"),
	)
	defer client.Close()

	ok, err := client.Allowed(context.Background(), "https://example.com/some/page")
	if err != nil {
		// A bad URL, or robots.txt unreachable: come back later. Not
		// log.Fatal, which skips the deferred Close: the failure and its
		// Retry-After, not yet committed, would be lost, and the site
		// asked again at the next start.
		log.Print(err)
		return
	}
	fmt.Println("allowed:", ok)
}

// What a Store holds outlives the process, and only one Store at a time
// has the file open.
func Example() {
	dir, err := os.MkdirTemp("", "boltstore-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "robots.db")
	ctx := context.Background()

	st, err := boltstore.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	// The Client stores its entries this way; the values are its own.
	if err := st.Set(ctx, "https://example.com:443", []byte("an entry"), time.Hour); err != nil {
		log.Fatal(err)
	}
	if err := st.Close(); err != nil {
		log.Fatal(err)
	}

	// After a restart.
	st, err = boltstore.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	v, err := st.Get(ctx, "https://example.com:443")
	fmt.Printf("%s, %v\n", v, err)
	_, err = boltstore.Open(path)
	fmt.Println("second Open:", errors.Is(err, boltstore.ErrLocked))
	// Output:
	// an entry, <nil>
	// second Open: true
}
