package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"rea/wasm/embedded"
	"rea/wasm/module"
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

// presentPages counts the pages of b mapped into this process
// (/proc/self/pagemap: bit 63 of a page's entry).
func presentPages(t *testing.T, b []byte) (present, total int) {
	t.Helper()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := uintptr(os.Getpagesize())
	first := uintptr(unsafe.Pointer(unsafe.SliceData(b))) / page
	last := (uintptr(unsafe.Pointer(unsafe.SliceData(b))) + uintptr(len(b)) - 1) / page
	entries := make([]byte, 8*(last-first+1))
	if _, err := f.ReadAt(entries, int64(first*8)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(entries); i += 8 {
		if binary.LittleEndian.Uint64(entries[i:])&(1<<63) != 0 {
			present++
		}
	}
	return present, len(entries) / 8
}

// Making an instance copies the module's data segments out of its embedded
// bytes; those pages are released again afterwards, as after the load.
func TestInstantiationLeavesTheEmbeddedBytesReleased(t *testing.T) {
	cat, err := module.Load(embedded.Modules(), "")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := cat.Get("guidance")
	if err != nil {
		t.Fatalf("%v: run `make` first", err)
	}
	b, ok := mod.InPlaceBytes()
	if !ok {
		t.Fatal("guidance.wasm is not embedded in place: run `make` (make modules writes wasm/embedded/modules_gen.go) first")
	}
	r, err := NewRunner(Options{Catalog: cat, CacheDir: filepath.Join(os.TempDir(), "rea-test-wazero-cache")})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	limits := Limits{}.WithDefaults()
	eng, c, err := r.compiledFor(context.Background(), mod, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer c.unpin()
	_ = sha256.Sum256(b) // every page present, as a reader would leave them
	// Counted in the Runner's live guests, so that its Close waits for
	// this one to exit before unmapping its memory.
	in, err := startInstance(eng, c.mod, mod, nil, limits, &r.live, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.discard()
	// A few pages may come back (a neighbour's read, the kernel's
	// fault-around); a module left resident would show nearly all.
	if present, total := presentPages(t, b); present > total/10 {
		t.Fatalf("%d of the module's %d pages are still resident after instantiation", present, total)
	}
}
