package nativetest

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// ObjdumpBaseline times `objdump -d` over a file (its output discarded)
// and reports the child's peak RSS, the yardstick of the native
// benchmarks.
func ObjdumpBaseline(tb testing.TB, path string) (time.Duration, int64) {
	tb.Helper()
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer devnull.Close()
	cmd := exec.Command("objdump", "-d", path)
	cmd.Stdout = devnull
	start := time.Now()
	if err := cmd.Run(); err != nil {
		tb.Fatalf("objdump -d %s: %v", path, err)
	}
	took := time.Since(start)
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10
	}
	return took, rss
}
