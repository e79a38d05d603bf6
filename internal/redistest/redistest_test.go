package redistest

import (
	"testing"
)

// TestLifecycle checks Start, Pause/Resume, Kill and Restart on the same
// port against the real binary.
func TestLifecycle(t *testing.T) {
	s := Start(t)
	addr := s.Addr()
	if err := ping(addr); err != nil {
		t.Fatalf("fresh server: %v", err)
	}
	s.Pause()
	s.Resume()
	if err := ping(addr); err != nil {
		t.Fatalf("after resume: %v", err)
	}
	s.Kill()
	if err := ping(addr); err == nil {
		t.Fatal("killed server still answers PING")
	}
	s.Kill() // killing twice is harmless
	s.Restart()
	if s.Addr() != addr {
		t.Fatalf("restart moved the server from %s to %s", addr, s.Addr())
	}
	if err := ping(addr); err != nil {
		t.Fatalf("after restart: %v", err)
	}
}
