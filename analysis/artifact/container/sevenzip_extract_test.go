package container

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// lzma2DictResets counts the chunks of a raw LZMA2 stream that reset the
// dictionary (control byte 0x01 or 0xE0–0xFF): a multi-threaded 7-Zip
// encoder starts every block with one.
func lzma2DictResets(p []byte) int {
	n := 0
	for i := 0; i < len(p) && p[i] != 0; {
		c := p[i]
		if c == 1 || c >= 0xe0 {
			n++
		}
		switch {
		case c < 0x80 && i+3 <= len(p):
			i += 3 + int(binary.BigEndian.Uint16(p[i+1:])) + 1
		case c >= 0x80 && i+5 <= len(p):
			h := 5
			if c >= 0xc0 {
				h = 6
			}
			i += h + int(binary.BigEndian.Uint16(p[i+3:])) + 1
		default:
			return n
		}
	}
	return n
}

// TestSevenZipFoldersDecodeAsSevenZipExtracts: archives written by the
// real 7z with the methods and switches real installers use — LZMA2 with
// one thread and with four (multi-block streams whose blocks reset the
// dictionary), electron-builder's app-64.7z switches (-mx=9 -md=1m
// -ms=off: a folder per file, BCJ2 on executables), LZMA, BCJ, Delta —
// decode through the host's decoder to exactly the bytes `7z x` extracts.
func TestSevenZipFoldersDecodeAsSevenZipExtracts(t *testing.T) {
	need7z(t)
	src := t.TempDir()
	sevenZipTree(t, src)
	// A 4.5 MB token text (compressing about 4x, as minified code does):
	// more than one 4 MiB block at -md=1m.
	words := []string{"function", "return", "const", "ipcRenderer", "invoke", "=>", "{", "}", "(", ")", ";", "require", "await", "if"}
	var js bytes.Buffer
	for x := uint32(1); js.Len() < 4_500_000; {
		x = x*1664525 + 1013904223
		if w := words[(x>>8)%uint32(len(words))]; x>>28 == 0 {
			fmt.Fprint(&js, x>>12, " ")
		} else {
			js.WriteString(w + " ")
		}
	}
	if bash, err := os.ReadFile("/bin/bash"); err == nil { // a real x86-64 executable for BCJ/BCJ2
		os.WriteFile(filepath.Join(src, "bash.exe"), bash, 0o755)
	}
	big := t.TempDir() // the tree and the big text, for the multi-block case only
	if o, err := exec.Command("cp", "-a", src+"/.", big).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, o)
	}
	if err := os.WriteFile(filepath.Join(big, "resources", "big.js"), js.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		tree    string
		args    []string
		resets  int // at least this many dictionary resets in some LZMA2 stream
		folders int // at least this many folders
	}{
		{"lzma2-one-thread", src, []string{"-m0=LZMA2", "-mmt=off", "-mx=1"}, 1, 1},
		{"lzma2-four-threads", big, []string{"-m0=LZMA2:d=1m", "-mmt=4", "-mx=1"}, 2, 1},
		{"electron-builder", src, []string{"-mx=9", "-md=1m", "-mtc=off", "-ms=off", "-mhc=off", "-mtm=off", "-mta=off"}, 1, 4},
		{"lzma", src, []string{"-m0=LZMA", "-mx=1"}, 0, 1},
		{"bcj-lzma2", src, []string{"-mf=BCJ", "-m0=LZMA2", "-mx=1"}, 1, 1},
		{"delta-lzma2", src, []string{"-m0=Delta:4", "-m1=LZMA2", "-mx=1"}, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			b := build7z(t, c.tree, filepath.Join(dir, "a.7z"), c.args...)
			out := filepath.Join(dir, "x")
			if o, err := exec.Command("7z", "x", "-bd", "-o"+out, filepath.Join(dir, "a.7z")).CombinedOutput(); err != nil {
				// The escaping link makes 7z x exit 2; the files are written.
				if _, ok := err.(*exec.ExitError); !ok {
					t.Fatalf("7z x: %v\n%s", err, o)
				}
			}
			res, err := inventoryOf(t, "a.7z", b, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			resets, folders := 0, map[int64]bool{}
			for _, e := range res.Entries {
				if e.Data == nil || e.Data.Folder == nil {
					continue
				}
				f := e.Data.Folder
				folders[e.Data.StreamOffset] = true
				for k, in := range f.PackedInputs {
					first := 0
					for ci, cd := range f.Coders {
						if first == in && cd.Method == stream.MethodLZMA2 {
							resets = max(resets, lzma2DictResets(b[f.Packed[k].Offset:f.Packed[k].Offset+f.Packed[k].Length]))
						}
						first += f.Coders[ci].Inputs
					}
				}
			}
			if resets < c.resets {
				t.Errorf("the archive's LZMA2 streams reset the dictionary at most %d times, %d wanted: the case does not cover what it names", resets, c.resets)
			}
			if len(folders) < c.folders {
				t.Errorf("%d folders, at least %d wanted", len(folders), c.folders)
			}
			got := decodeEntries(t, b, res)
			n := 0
			err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
				if err != nil || !d.Type().IsRegular() {
					return err
				}
				rel, _ := filepath.Rel(out, p)
				want, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if g, ok := got[filepath.ToSlash(rel)]; !ok || !bytes.Equal(g, want) {
					t.Errorf("%s: rea decoded %d bytes (listed %v), 7z extracted %d, not the same", rel, len(g), ok, len(want))
				}
				n++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n < 5 {
				t.Fatalf("7z x extracted %d files", n)
			}
		})
	}
}
