package redistest

import "syscall"

// sysProcAttr makes the kernel kill redis-server when the test process dies
// without running its cleanups (a test timeout panic, say).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
