package boltstore

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// Environment of a helper process (see TestHelperProcess).
const (
	envHelper = "BOLTSTORE_HELPER" // what the helper does: "fill", "hold", "flips" or "empty"
	envPath   = "BOLTSTORE_PATH"   // the Store's file
	envWeb    = "BOLTSTORE_WEB"    // address every site resolves to ("fill")
	envFirst  = "BOLTSTORE_FIRST"  // number of the first site to fill ("fill")
	envSpec   = "BOLTSTORE_SPEC"   // file of the flipSpec to run ("flips")
)

// TestHelperProcess is the helper process of the tests that need another
// process. It does nothing unless started by one of them.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv(envHelper) {
	case "fill":
		fill(t)
	case "hold":
		hold(t)
	case "flips":
		flips(t)
	case "empty":
		empty(t)
	default:
		t.Skip("runs only as a helper process")
	}
}

// hold opens the Store, says READY and keeps it open until stdin closes.
func hold(t *testing.T) {
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("READY")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// parseEnvInt reads an integer from the environment, failing the test if
// it is not one.
func parseEnvInt(t *testing.T, name string) int {
	var n int
	if _, err := fmt.Sscan(strings.TrimSpace(os.Getenv(name)), &n); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}
