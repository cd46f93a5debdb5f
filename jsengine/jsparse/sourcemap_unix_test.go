//go:build unix

package jsparse

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestParseNeverOpensTheFileASourceMappingURLNames points the comment at a
// FIFO: a reader that opens it blocks until a writer comes, and a writer's
// non-blocking open succeeds only while a reader has it open. So while
// Parse runs, the test keeps trying to open it for writing; a success
// means the parser opened the path the untrusted text named.
func TestParseNeverOpensTheFileASourceMappingURLNames(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "evil.js.map")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	for _, name := range []string{"main.js", filepath.Join(filepath.Dir(fifo), "main.js")} {
		for _, url := range []string{fifo, "file://" + fifo, "evil.js.map"} {
			src := "module.exports = 1;\n//# sourceMappingURL=" + url + "\n"
			done := make(chan error, 1)
			go func() {
				_, err := Parse(name, src)
				done <- err
			}()
		wait:
			for {
				select {
				case err := <-done:
					if err != nil {
						t.Fatalf("%s: %v", url, err)
					}
					break wait
				default:
				}
				w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
				if err == nil {
					w.Close() // lets the reader see end of file and return
					<-done
					t.Fatalf("parsing %s (sourceMappingURL=%s) opened %s", name, url, fifo)
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
}
