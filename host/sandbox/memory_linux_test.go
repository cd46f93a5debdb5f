package sandbox

import (
	"crypto/sha256"
	"os"
	"strconv"
	"strings"
	"testing"

	"rea/wasm/embedded"
)

// residentBytes is this process's resident set (/proc/self/statm).
func residentBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// An embedded module's bytes, released after a load, leave the resident
// set and read back unchanged from the executable.
func TestReleasedExecutableDataReadsBackUnchanged(t *testing.T) {
	fsys, ok := embedded.Modules().(interface {
		ReadFileInPlace(string) ([]byte, bool)
	})
	if !ok {
		t.Fatal("the embedded module directory hands out no bytes in place")
	}
	b, ok := fsys.ReadFileInPlace("jsapp.wasm")
	if !ok {
		t.Fatal("jsapp.wasm is not embedded in place: run `make` (make modules writes wasm/embedded/modules_gen.go) first")
	}
	want := sha256.Sum256(b) // touches every page
	before := residentBytes(t)
	releaseExecutableData(b)
	after := residentBytes(t)
	if drop := before - after; drop < int64(len(b))/2 {
		t.Fatalf("resident set fell by %d bytes, want at least half of the module's %d", drop, len(b))
	}
	if sha256.Sum256(b) != want {
		t.Fatal("the released bytes read back changed")
	}
}
