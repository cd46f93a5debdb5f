package container

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// hostInventory lists pkg as the artifact module does under the host:
// streams from a real stage, checksums left to the host.
func hostInventory(t *testing.T, pkg []byte, lim inventory.Limits) (*inventory.Result, *stream.Stage, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "setup.exe"), pkg, 0o644); err != nil {
		t.Fatal(err)
	}
	st := &stream.Stage{Dir: t.TempDir(), Limits: lim, OpenInput: func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }}
	res, err := InventoryWith(fstest.MapFS{"setup.exe": {Data: pkg, Mode: 0o644}}, "setup.exe", "", lim,
		Options{Streams: st, HostChecksums: true}, nil)
	return res, st, err
}

// plainTree is an app folder with no file named like an archive.
func plainTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "plain")
	os.MkdirAll(filepath.Join(root, "lib"), 0o755)
	os.WriteFile(filepath.Join(root, "lib", "main.js"), bytes.Repeat([]byte("console.log('main');\n"), 40000), 0o644)
	os.WriteFile(filepath.Join(root, "data.bin"), payloadBytes(300<<10), 0o644)
	os.WriteFile(filepath.Join(root, "empty.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "LICENSE.txt"), []byte("MIT\n"), 0o644)
	return root
}

func payloadBytes(n int) []byte {
	b := make([]byte, n)
	x := uint32(7)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = byte(x >> 24)
	}
	return b
}

// TestNSISItemsAreSummedWithoutACopy: under the host, a non-solid
// installer's compressed items are staged for their size only and a
// solid block is walked, so no item has a copy on disk and each has the
// stage's sum of exactly its bytes, which are the file's; the one whose
// name is an archive's (read at random) is read from a copy instead, and
// a solid block holding one is copied whole. The CRC-32 is declared for
// the host, with the value the installer ends with. (makensis's /SOLID
// zlib block of this tree starts with a 0x80 fourth byte, which was read
// as a non-solid item's length word before detectNSISMethod checked that
// the length fits.)
func TestNSISItemsAreSummedWithoutACopy(t *testing.T) {
	root := plainTree(t)
	for _, c := range []string{"SetCompressor zlib", "SetCompressor bzip2", "SetCompressor lzma",
		"SetCompressor /SOLID zlib", "SetCompressor /SOLID bzip2", "SetCompressor /SOLID lzma"} {
		for _, withArchive := range []bool{false, true} {
			name := strings.ReplaceAll(c, "/", "")
			if withArchive {
				name += "+app.asar"
			}
			t.Run(name, func(t *testing.T) {
				section := []string{`SetOutPath "$INSTDIR"`, `File /r "` + root + `/*"`}
				if withArchive {
					// Not an ASAR inside: listed, read, not expanded.
					asar := filepath.Join(t.TempDir(), "app.asar")
					os.WriteFile(asar, bytes.Repeat([]byte("not an archive "), 5000), 0o644)
					section = append(section, `SetOutPath "$INSTDIR\resources"`, `File "`+asar+`"`)
				}
				b := makeNSIS(t, c, section...)
				res, st, err := hostInventory(t, b, inventory.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				k := res.Containers[0].Checksum
				if k == nil || k.Algorithm != inventory.ChecksumCRC32 || k.Offset != 512 || k.Offset+k.Length != int64(len(b))-4 ||
					k.Value != binary.LittleEndian.Uint32(b[len(b)-4:]) || crc32.ChecksumIEEE(b[512:len(b)-4]) != k.Value {
					t.Fatalf("checksum %+v of a %d-byte installer", k, len(b))
				}
				solid := strings.Contains(c, "SOLID")
				files := 0
				for _, e := range res.Entries {
					if e.Kind != inventory.KindFile {
						continue
					}
					files++
					body := readEntry(t, b, e)
					_, copied := st.Decoded(*e.Data)
					d, summed := st.Sum(*e.Data)
					switch {
					case e.Size == 0 || e.Data.Compression == inventory.CompressionNone:
						// Empty, or stored as it is (makensis keeps an item
						// that does not compress): hashed from the file.
					case withArchive && (solid || e.Path == "resources/app.asar"):
						if !copied {
							t.Errorf("%s: no copy to read at random", e.Path)
						}
					case copied || !summed:
						t.Errorf("%s: copied %v, summed %v", e.Path, copied, summed)
					case d.SHA256 != sha256.Sum256(body) || d.Size != int64(len(body)):
						t.Errorf("%s: the sum is not of its bytes", e.Path)
					}
				}
				if want := 4 + map[bool]int{false: 0, true: 1}[withArchive]; files != want {
					t.Errorf("%d files, want %d: %s", files, want, paths(res))
				}
				checkAccepted(t, b, res)
			})
		}
	}
}

// TestNSISCorruptionWithTheCRCLeftToTheHost: with the checksum left to
// the host, a corrupt installer is still refused as corrupt: when its
// listing fails (a stream that no longer decodes, a length past the
// end) the module checks the CRC-32 itself and says so; when it lists,
// the declared checksum does not match the bytes (the host's pass then
// refuses it). A truncated installer is refused before either.
func TestNSISCorruptionWithTheCRCLeftToTheHost(t *testing.T) {
	root := plainTree(t)
	for _, c := range []string{"SetCompress off", "SetCompressor zlib", "SetCompressor /SOLID zlib", "SetCompressor /SOLID lzma", "SetCompressor bzip2"} {
		t.Run(strings.ReplaceAll(c, "/", ""), func(t *testing.T) {
			b := makeNSIS(t, c, `SetOutPath "$INSTDIR"`, `File /r "`+root+`/*"`)
			for _, at := range []int{len(b) - 64, len(b) / 2, 600, len(b) - 2} {
				bad := append([]byte(nil), b...)
				bad[at] ^= 0x10
				res, _, err := hostInventory(t, bad, inventory.Limits{})
				if err != nil {
					ae := wantCode(t, err, abi.CodeArtifactIntegrity)
					if !strings.Contains(ae.Message, "CRC-32") {
						t.Errorf("byte %d: %s", at, ae.Message)
					}
					continue
				}
				k := res.Containers[0].Checksum
				if k == nil || crc32.ChecksumIEEE(bad[k.Offset:k.Offset+k.Length]) == k.Value {
					t.Errorf("byte %d of %d flipped: listed with checksum %+v that the bytes match", at, len(b), k)
				}
			}
			wantCode(t, mustFail2(hostInventory(t, b[:len(b)-200], inventory.Limits{})), abi.CodeArtifactOperationFailed)
		})
	}
}
