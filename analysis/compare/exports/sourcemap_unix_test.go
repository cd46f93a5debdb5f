//go:build unix

package exports

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A sourceMappingURL comment in an analysed module names a path; reading it
// would be the comparison reading a file the untrusted text chose. The
// comment points at a FIFO: a writer's non-blocking open succeeds only
// while a reader has it open, so the test tries that while Extract runs.
func TestExtractNeverOpensTheFileASourceMappingURLNames(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "api.js.map")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	src := "exports.a = 1;\n//# sourceMappingURL=file://" + fifo + "\n"
	done := make(chan Extraction, 1)
	go func() { done <- Extract(src, "a", Limits{}) }()
	for {
		select {
		case ex := <-done:
			if ex.Shape == nil {
				t.Fatalf("no shape: %s", ex.Reason)
			}
			return
		default:
		}
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
			<-done
			t.Fatalf("Extract opened %s, named by the module's sourceMappingURL", fifo)
		}
		time.Sleep(time.Millisecond)
	}
}
