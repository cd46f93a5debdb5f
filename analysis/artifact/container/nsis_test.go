package container

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// nsisCompressors are every makensis compressor, solid and not, with the
// stream compression rea lists their items as (stored items are plain).
var nsisCompressors = []struct{ line, kind string }{
	{"SetCompress off", ""},
	{"SetCompressor zlib", inventory.CompressionDeflateStream},
	{"SetCompressor bzip2", inventory.CompressionNSISBzip2Stream},
	{"SetCompressor lzma", inventory.CompressionNSISLzmaStream},
	{"SetCompressor /SOLID zlib", inventory.CompressionDeflateStream},
	{"SetCompressor /SOLID bzip2", inventory.CompressionNSISBzip2Stream},
	{"SetCompressor /SOLID lzma", inventory.CompressionNSISLzmaStream},
}

func needMakensis(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("makensis"); err != nil {
		t.Fatal("makensis is needed to build NSIS fixtures: apt-get install -y nsis")
	}
}

// nsisTree writes an installed app's files: text that compresses, bytes
// that do not, a nested folder.
func nsisTree(t testing.TB) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "tree")
	os.MkdirAll(filepath.Join(root, "resources", "app", "lib"), 0o755)
	rnd := make([]byte, 200<<10)
	for i := range rnd {
		rnd[i] = byte(i*7919 + i>>3*31 + i>>11)
	}
	os.WriteFile(filepath.Join(root, "resources", "app.asar"), rnd, 0o644)
	os.WriteFile(filepath.Join(root, "resources", "app", "lib", "main.js"), bytes.Repeat([]byte("console.log('main');\n"), 4000), 0o644)
	os.WriteFile(filepath.Join(root, "LICENSE.txt"), []byte("MIT\n"), 0o644)
	return root
}

// makeNSIS builds an installer with the real makensis from script lines
// placed in one section after `compressor`.
func makeNSIS(t testing.TB, compressor string, section ...string) []byte {
	t.Helper()
	needMakensis(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "setup.exe")
	script := "Name \"E\"\nOutFile \"" + out + "\"\nUnicode true\nRequestExecutionLevel user\n" + compressor +
		"\nInstallDir \"$TEMP\\E\"\nSection\n" + strings.Join(section, "\n") + "\nSectionEnd\nSection \"Uninstall\"\nSectionEnd\n"
	nsi := filepath.Join(dir, "setup.nsi")
	os.WriteFile(nsi, []byte(script), 0o644)
	if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v\n%s\n%s", err, b, script)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readEntry decodes an entry's bytes the way the host does.
func readEntry(t *testing.T, data []byte, e inventory.Entry) []byte {
	t.Helper()
	if e.Data.Compression == inventory.CompressionNone {
		return data[e.Data.Offset:e.Data.End()]
	}
	rc, err := stream.Open(bytes.NewReader(data), int64(len(data)), *e.Data)
	if err != nil {
		t.Fatalf("%s: %v", e.Path, err)
	}
	defer rc.Close()
	if _, err := io.CopyN(io.Discard, rc, e.Data.Offset); err != nil {
		t.Fatalf("%s: skip: %v", e.Path, err)
	}
	b := make([]byte, e.Data.Length)
	if _, err := io.ReadFull(rc, b); err != nil {
		t.Fatalf("%s: %v", e.Path, err)
	}
	return b
}

// TestInventoryReadsEveryMakensisCompressor: installers built by the real
// makensis with each compressor, solid and not, list the files under the
// names the script gives them (File /r under SetOutPath $INSTDIR, a
// second SetOutPath, a file extracted twice becoming a hard link) with
// ranges that decode to exactly the files on disk, and nothing partial.
func TestInventoryReadsEveryMakensisCompressor(t *testing.T) {
	root := nsisTree(t)
	for _, c := range nsisCompressors {
		t.Run(c.line, func(t *testing.T) {
			b := makeNSIS(t, c.line, `SetOutPath "$INSTDIR"`, `File /r "`+root+`/*"`,
				`SetOutPath "$INSTDIR\docs"`, `File "`+root+`/LICENSE.txt"`, `File "/oname=$PLUGINSDIR\notes.txt" "`+root+`/resources/app/lib/main.js"`,
				`WriteUninstaller "$INSTDIR\uninst.exe"`)
			res, err := inventoryOf(t, "setup.exe", b, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Limitations) != 0 {
				t.Errorf("limitations: %v", res.Limitations)
			}
			want := map[string]string{"resources/app.asar": "resources/app.asar", "resources/app/lib/main.js": "resources/app/lib/main.js",
				"LICENSE.txt": "LICENSE.txt"}
			got := map[string]inventory.Entry{}
			for _, e := range res.Entries {
				got[e.Path] = e
			}
			for p, src := range want {
				e, ok := got[p]
				if !ok {
					t.Fatalf("%s not listed: %s", p, paths(res))
				}
				disk, _ := os.ReadFile(filepath.Join(root, src))
				if !bytes.Equal(readEntry(t, b, e), disk) || e.Size != int64(len(disk)) {
					t.Errorf("%s decodes to other bytes than the file", p)
				}
				if c.kind != "" && p == "resources/app/lib/main.js" && e.Data.Compression != c.kind {
					t.Errorf("%s listed as %q, want %q", p, e.Data.Compression, c.kind)
				}
			}
			// makensis stores identical files once: the second name is a
			// hard link to the first.
			for _, p := range []string{"docs/LICENSE.txt", "$PLUGINSDIR/notes.txt"} {
				if e := got[p]; e.Kind != inventory.KindLink || !e.Link.Hard {
					t.Errorf("%s: %+v, want a hard link (%s)", p, e, paths(res))
				}
			}
			checkAccepted(t, b, res)
		})
	}
}

// TestInventoryNSISNamesFallBackAndRefuse: a name computed at run time
// ($0) and two different files extracted to one name fall back to
// data/item-N with a limitation; a name climbing out of $INSTDIR is
// refused, as in every format.
func TestInventoryNSISNamesFallBackAndRefuse(t *testing.T) {
	root := nsisTree(t)
	b := makeNSIS(t, "SetCompressor /SOLID lzma", `SetOutPath "$INSTDIR"`, `File "`+root+`/LICENSE.txt"`,
		`File "/oname=LICENSE.txt" "`+root+`/resources/app/lib/main.js"`, `StrCpy $0 "$INSTDIR\x"`, `SetOutPath $0`, `File "`+root+`/resources/app.asar"`)
	res, err := inventoryOf(t, "setup.exe", b, inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "1 File instruction(s) name their file with a value known only at run time") ||
		!strings.Contains(res.Limitations[0], "1 name(s) collided") {
		t.Errorf("limitations %q", res.Limitations)
	}
	var items int
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Path, "data/item-") {
			items++
		}
	}
	if items != 2 {
		t.Errorf("want the collided and the run-time item as data/item-N: %s", paths(res))
	}
	bad := makeNSIS(t, "SetCompressor zlib", `SetOutPath "$INSTDIR\..\..\Windows"`, `File "`+root+`/LICENSE.txt"`)
	ae := wantCode(t, mustFail(inventoryOf(t, "setup.exe", bad, inventory.Limits{})), abi.CodeArtifactOperationFailed)
	if !strings.Contains(ae.Message, "..") {
		t.Errorf("traversal: %s", ae.Message)
	}
}

// TestInventoryNSISLimitsAndCorruption: a flipped byte fails the
// installer's CRC-32 (artifact_integrity); a solid block of zeros past
// the compression-ratio limit and a truncated installer are refused.
func TestInventoryNSISLimitsAndCorruption(t *testing.T) {
	root := nsisTree(t)
	zeros := filepath.Join(t.TempDir(), "zeros.bin")
	os.WriteFile(zeros, make([]byte, 8<<20), 0o644)
	for _, c := range []string{"SetCompressor /SOLID lzma", "SetCompressor bzip2", "SetCompressor /SOLID zlib"} {
		b := makeNSIS(t, c, `SetOutPath "$INSTDIR"`, `File "`+root+`/resources/app/lib/main.js"`, `File "`+zeros+`"`)
		flipped := append([]byte(nil), b...)
		flipped[len(flipped)-64] ^= 1
		ae := wantCode(t, mustFail(inventoryOf(t, "setup.exe", flipped, inventory.Limits{})), abi.CodeArtifactIntegrity)
		if !strings.Contains(ae.Message, "CRC-32") {
			t.Errorf("%s: %s", c, ae.Message)
		}
		ae = wantCode(t, mustFail(inventoryOf(t, "setup.exe", b, inventory.Limits{MaxCompressionRatio: 20})), abi.CodeResourceConstraint)
		if ae.Details["limit"] != "max_compression_ratio" {
			t.Errorf("%s: bomb: %v", c, ae.Details)
		}
		wantCode(t, mustFail(inventoryOf(t, "setup.exe", b[:len(b)-200], inventory.Limits{})), abi.CodeArtifactOperationFailed)
		ae = wantCode(t, mustFail(inventoryOf(t, "setup.exe", b, inventory.Limits{MaxTotalBytes: 1 << 20, MaxCompressionRatio: 1 << 20})), abi.CodeResourceConstraint)
		if l := ae.Details["limit"]; l != "max_total_bytes" && l != "max_entry_bytes" {
			t.Errorf("%s: total: %v", c, ae.Details)
		}
	}
}

// TestInventoryNSISLzmaX86Filter: NSIS's filter flag 1 (x86 BCJ before
// LZMA, as 7-Zip's installers are built) is decoded through the BCJ
// filter: the fixture is the real xz's raw LZMA1 with its x86 filter,
// placed as a solid block behind the flag; flag 2 is refused typed, not
// decoded as LZMA.
func TestInventoryNSISLzmaX86Filter(t *testing.T) {
	if _, err := exec.LookPath("xz"); err != nil {
		t.Fatal("xz is needed: apt-get install -y xz-utils")
	}
	// The decoded solid block: a 4-byte "header" then one file that
	// holds x86 CALLs (E8) the filter rewrites.
	exe, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	binary.Write(&plain, binary.LittleEndian, uint32(4))
	plain.WriteString("HDR!")
	binary.Write(&plain, binary.LittleEndian, uint32(len(exe)))
	plain.Write(exe)
	cmd := exec.Command("xz", "--format=raw", "--x86", "--lzma1=preset=6,dict=1MiB,lc=3,lp=0,pb=2", "-c")
	cmd.Stdin = bytes.NewReader(plain.Bytes())
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("xz: %v", err)
	}
	block := append([]byte{1, 0x5d}, binary.LittleEndian.AppendUint32(nil, 1<<20)...)
	block = append(block, raw...)
	b := nsisWithBlock(block, 4)
	res, err := inventoryOf(t, "setup.exe", b, inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 1 || res.Entries[0].Data.Compression != inventory.CompressionNSISLzmaX86Stream || !bytes.Equal(readEntry(t, b, res.Entries[0]), exe) {
		t.Fatalf("x86-filtered item: %s %+v", paths(res), res.Entries)
	}
	// Flag 2 is no filter NSIS knows: not taken for LZMA, so not
	// mis-decoded; the block then fails as the DEFLATE it would be.
	block[0] = 2
	wantCode(t, mustFail(inventoryOf(t, "setup.exe", nsisWithBlock(block, 4), inventory.Limits{})), abi.CodeArtifactOperationFailed)
}

// nsisWithBlock lays an installer around a data block: a stub, the first
// header at 512 declaring a headerSize-byte script header, the block and
// its CRC-32.
func nsisWithBlock(block []byte, headerSize uint32) []byte {
	out := make([]byte, 512)
	copy(out, "MZ")
	var fh [nsisFirstHeaderSize]byte
	copy(fh[4:], nsisSignature)
	binary.LittleEndian.PutUint32(fh[20:], headerSize)
	binary.LittleEndian.PutUint32(fh[24:], uint32(nsisFirstHeaderSize+len(block)+4))
	out = append(out, fh[:]...)
	out = append(out, block...)
	return binary.LittleEndian.AppendUint32(out, crcIEEE(out[512:]))
}

func crcIEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
