package stream

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// repeatsData is input whose LZMA encoding is mostly matches of the kinds
// the patched decoder (third_party/xz) copies in runs: runs of one byte
// and short periods (distance below the length, so each copy overlaps
// what it writes), copies from just under 64 KiB back (a small
// dictionary's oldest bytes, so the source wraps around the circular
// buffer's end), and some literals between them.
func repeatsData(n int) []byte {
	out := make([]byte, 0, n+5000)
	x := uint32(1)
	next := func(m int) int {
		x = x*1664525 + 1013904223
		return int(x>>8) % m
	}
	for len(out) < n {
		switch k := next(4); {
		case k == 0:
			b := byte(next(256))
			for range 1 + next(2000) {
				out = append(out, b)
			}
		case k == 1:
			period := make([]byte, 2+next(38))
			for i := range period {
				period[i] = byte(next(256))
			}
			for i := range 10 + next(3000) {
				out = append(out, period[i%len(period)])
			}
		case k == 2 && len(out) > 70000:
			back := 60000 + next(5530)
			for range 300 + next(5000) {
				out = append(out, out[len(out)-back])
			}
		default:
			for range 10 + next(500) {
				out = append(out, byte(next(256)))
			}
		}
	}
	return out[:n]
}

// runTool runs a real compressor and returns its standard output; a
// missing tool fails the test with the package that provides it.
func runTool(t *testing.T, dir, pkg string, name string, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Fatalf("%s builds this test's streams: apt-get install -y %s", name, pkg)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
	}
	return out
}

// readInPieces reads r to the end through reads of varying small sizes,
// so that the decoder stops in the middle of matches and resumes them.
type readInPieces struct {
	r io.Reader
	i int
}

func (p *readInPieces) Read(b []byte) (int, error) {
	sizes := []int{1, 7, 300, 4093, 2, 65537}
	n := min(len(b), sizes[p.i%len(sizes)])
	p.i++
	return p.r.Read(b[:n])
}

// TestOpenLZMA2RepeatsAcrossTheDictionaryWrap decodes raw LZMA2 streams
// that 7-Zip and XZ Utils wrote with small dictionaries (64 KiB, 4 KiB)
// over 3 MiB of repeatsData (the dictionary wraps 48 and 768 times) and
// compares every byte with what the tool itself decodes: `7z x` for the
// .7z's folder, `xz -d` for the raw .xz-format stream. Each stream is
// read once whole and once in small reads, which cut matches at the
// write limit. The decoder's patched match copy and range decoder are
// compared with upstream's code function by function in
// third_party/xz/rea_patches_test.go.
func TestOpenLZMA2RepeatsAcrossTheDictionaryWrap(t *testing.T) {
	dir := t.TempDir()
	data := repeatsData(3 << 20)
	if err := os.WriteFile(filepath.Join(dir, "data.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	type stream struct {
		name string
		raw  []byte // raw LZMA2
		dict int    // its dictionary size
		tool []byte // what the tool decodes it to
	}
	var streams []stream
	for i, method := range []string{
		"lzma2:d=64k",
		"lzma2:d=64k:mf=hc4:lc=0:lp=2:pb=0",
		"lzma2:d=64k:lc=4:pb=4",
	} {
		archive := fmt.Sprintf("a%d.7z", i)
		// One folder, one coder, the header stored plain after the
		// packed stream: the folder's LZMA2 stream is every byte from
		// the 32-byte signature header to the next header's offset.
		runTool(t, dir, "p7zip-full", "7z", "a", "-bd", "-mhc=off", "-mmt=1", "-mx=9", "-m0="+method, archive, "data.bin")
		b, err := os.ReadFile(filepath.Join(dir, archive))
		if err != nil {
			t.Fatal(err)
		}
		packed := binary.LittleEndian.Uint64(b[12:20])
		if packed == 0 || packed > uint64(len(b)-32) {
			t.Fatalf("%s: next header offset %d in a %d-byte archive", archive, packed, len(b))
		}
		streams = append(streams, stream{name: "7z " + method, raw: b[32 : 32+packed], dict: 64 << 10,
			tool: runTool(t, dir, "p7zip-full", "7z", "x", "-so", archive)})
	}
	for _, c := range []struct {
		opts string
		dict int
	}{{"dict=4KiB", 4 << 10}, {"dict=4KiB,lc=0,lp=2,pb=0", 4 << 10}, {"dict=64KiB,mf=hc3,nice=273", 64 << 10}} {
		lzma2 := "--lzma2=" + c.opts
		raw := runTool(t, dir, "xz-utils", "xz", "--format=raw", lzma2, "-c", "data.bin")
		if err := os.WriteFile(filepath.Join(dir, "raw.lzma2"), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		streams = append(streams, stream{name: "xz " + c.opts, raw: raw, dict: c.dict,
			tool: runTool(t, dir, "xz-utils", "xz", "-d", "--format=raw", lzma2, "-c", "raw.lzma2")})
	}
	for _, s := range streams {
		if !bytes.Equal(s.tool, data) {
			t.Fatalf("%s: the tool decodes %d bytes that are not the input", s.name, len(s.tool))
		}
		for _, pieces := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/pieces=%v", s.name, pieces), func(t *testing.T) {
				r, err := openLZMA2(bytes.NewReader(s.raw), int64(len(s.raw)), int64(len(data)), dictPropFor(int64(s.dict)))
				if err != nil {
					t.Fatal(err)
				}
				if pieces {
					r = &readInPieces{r: r}
				}
				got, err := io.ReadAll(r)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, s.tool) {
					at := 0
					for at < min(len(got), len(s.tool)) && got[at] == s.tool[at] {
						at++
					}
					t.Fatalf("decoded %d bytes, the tool %d; first difference at byte %d (dictionary lap %d)", len(got), len(s.tool), at, at/s.dict)
				}
			})
		}
	}
}

// dictPropFor is the LZMA2 property byte of a dictionary of size bytes.
func dictPropFor(size int64) byte {
	p := byte(0)
	for lzma2DictSize(p) < size {
		p++
	}
	return p
}
