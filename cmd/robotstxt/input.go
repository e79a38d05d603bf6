package main

import (
	"fmt"
	"io"
	"os"
)

// maxInput bounds how much of a file or standard input is read, so a
// mistaken argument such as /dev/zero cannot exhaust memory. It is far above
// the 500 KiB a crawler reads of a robots.txt.
const maxInput = 64 << 20

// readInput reads the named file, or standard input when name is "-".
func readInput(name string, e env) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = e.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("cannot read input: %w", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", displayName(name), err)
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("read %s: larger than %d MiB", displayName(name), maxInput>>20)
	}
	return b, nil
}

// displayName is how a file argument appears in messages.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
