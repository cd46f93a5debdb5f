package nativetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ObjdumpBaseline times `objdump -d` over a file (its output discarded)
// and reports the child's peak RSS, the yardstick of the native
// benchmarks.
func ObjdumpBaseline(tb testing.TB, path string) (time.Duration, int64) {
	tb.Helper()
	return MeasureCommand(tb, nil, "objdump", "-d", path)
}

// MeasureCommand runs a command (output discarded, env added to the
// benchmark's) and reports its wall time and peak RSS. The RSS comes from
// /usr/bin/time when it exists: a child the Go runtime starts inherits the
// parent's RSS high-water mark at exec (Linux keeps the larger of the old
// and new address space's), so its own rusage would report the benchmark
// process's memory instead of its own.
func MeasureCommand(tb testing.TB, env []string, name string, args ...string) (time.Duration, int64) {
	tb.Helper()
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer devnull.Close()
	var rssFile string
	cmd := exec.Command(name, args...)
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		rssFile = filepath.Join(tb.TempDir(), "rss")
		cmd = exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile, name}, args...)...)
	}
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = devnull
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		tb.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	took := time.Since(start)
	var rss int64
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			tb.Fatal(err)
		}
		kib, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			tb.Fatalf("/usr/bin/time reported %q as peak RSS", b)
		}
		rss = kib << 10
	} else {
		rss = PeakRSS(cmd.ProcessState)
	}
	return took, rss
}
