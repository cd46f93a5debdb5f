package container

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

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
	return makeNSISCharset(t, true, compressor, section...)
}

// makeNSISCharset is makeNSIS building a Unicode or, unicode false, an
// ANSI installer (`Unicode false`: Debian's makensis 3.08 builds Unicode
// when the script says nothing, and writes an ANSI installer's strings
// in Windows-1252).
func makeNSISCharset(t testing.TB, unicode bool, compressor string, section ...string) []byte {
	t.Helper()
	needMakensis(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "setup.exe")
	script := "Name \"E\"\nOutFile \"" + out + "\"\nUnicode " + fmt.Sprint(unicode) + "\nRequestExecutionLevel user\n" + compressor +
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

// nsisANSINames are file names whose Windows-1252 bytes an ANSI
// installer holds: é (E9), ü (FC, NSIS 2's skip code), ß, € (80), ÿ (FF,
// NSIS 2's language code).
var nsisANSINames = []string{"café.txt", "Grüße.txt", "€uro.txt", "naïveÿ.js"}

// TestInventoryNSISANSINames: ANSI installers built by the real makensis
// (`Unicode false`) name their files with Windows-1252 bytes; they are
// listed under their names, with no limitation, solid and not.
func TestInventoryNSISANSINames(t *testing.T) {
	src := t.TempDir()
	var lines []string
	lines = append(lines, `SetOutPath "$INSTDIR\Bücher"`)
	for i, n := range nsisANSINames {
		os.WriteFile(filepath.Join(src, n), bytes.Repeat([]byte{byte('a' + i)}, 100+i), 0o644)
		lines = append(lines, `File "`+filepath.Join(src, n)+`"`)
	}
	for _, c := range []string{"SetCompressor zlib", "SetCompressor /SOLID lzma", "SetCompress off"} {
		t.Run(c, func(t *testing.T) {
			b := makeNSISCharset(t, false, c, lines...)
			res, err := inventoryOf(t, "setup.exe", b, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Limitations) != 0 {
				t.Errorf("limitations: %v", res.Limitations)
			}
			got := map[string]inventory.Entry{}
			for _, e := range res.Entries {
				got[e.Path] = e
			}
			for i, n := range nsisANSINames {
				e, ok := got["Bücher/"+n]
				if !ok {
					t.Fatalf("Bücher/%s not listed: %s", n, paths(res))
				}
				if want := bytes.Repeat([]byte{byte('a' + i)}, 100+i); !bytes.Equal(readEntry(t, b, e), want) {
					t.Errorf("%s decodes to other bytes", n)
				}
			}
		})
	}
}

// nsisHeader lays out a script header for parseNSISScript: the block
// table (32-bit layout), the entries, the string table, an empty
// language table.
func nsisHeader(ents [][7]uint32, strs []byte) []byte {
	const tab = 4 + nsisBlocks*8
	var e []byte
	for _, ent := range ents {
		for _, v := range ent {
			e = binary.LittleEndian.AppendUint32(e, v)
		}
	}
	h := make([]byte, tab)
	put := func(i int, off, n int) {
		binary.LittleEndian.PutUint32(h[4+i*8:], uint32(off))
		binary.LittleEndian.PutUint32(h[8+i*8:], uint32(n))
	}
	put(nsisBlockEntries, tab, len(ents))
	put(nsisBlockStrings, tab+len(e), 0)
	put(nsisBlockLangTable, tab+len(e)+len(strs), 0)
	h = append(h, e...)
	h = append(h, strs...)
	return append(h, 0, 0, 0, 0)
}

// TestParseNSIS2ANSIStrings: NSIS 2's ANSI string codes (253 a variable,
// 252 escaping a text byte ≥ 252) are told from NSIS 3's by the
// variable that starts a string, as 7-Zip does; text is Windows-1252; a
// byte Windows-1252 leaves undefined, or a code byte when no string says
// which version wrote the table, is not guessed.
func TestParseNSIS2ANSIStrings(t *testing.T) {
	instdir := []byte{0x95, 0x80} // CODE_SHORT(21): $INSTDIR
	script := func(strs []byte, dir, file int) *nsisScript {
		return parseNSISScript(nsisHeader([][7]uint32{
			{nsisOpCreateDir, uint32(dir), 1},
			{nsisOpExtractFile, 0, uint32(file), 0},
		}, strs))
	}
	// NSIS 2: "" "$INSTDIR\sub" "Grü\xFCße\xFF.txt" with ü and ÿ escaped.
	v2 := append([]byte{0, nsis2CodeVar}, instdir...)
	v2 = append(v2, `\sub`...)
	fileAt := len(v2) + 1
	v2 = append(v2, 0)
	v2 = append(v2, "Gr\xfc\xfc\xdfe\xfc\xff\x80.txt\x00"...)
	sc := script(v2, 1, fileAt)
	if got := sc.names[0]; len(got) != 1 || got[0] != "sub/Grüßeÿ€.txt" {
		t.Errorf("NSIS 2 name: %q (undecodable %d, unresolved %d)", got, sc.undecodable, sc.unresolved)
	}
	// NSIS 3 ANSI: the same text, ü and ÿ unescaped, variable code 3.
	v3 := append([]byte{0, nsisCodeVar}, instdir...)
	v3 = append(v3, `\sub`...)
	v3 = append(v3, 0)
	v3 = append(v3, "Gr\xfc\xdfe\xff\x80.txt\x00"...)
	sc = script(v3, 1, fileAt)
	if got := sc.names[0]; len(got) != 1 || got[0] != "sub/Grüßeÿ€.txt" {
		t.Errorf("NSIS 3 ANSI name: %q", got)
	}
	// 0x81 is undefined in Windows-1252: not decoded, counted.
	bad := append([]byte(nil), v3...)
	bad[fileAt] = 0x81
	if sc = script(bad, 1, fileAt); len(sc.names) != 0 || sc.undecodable != 1 {
		t.Errorf("undefined byte: names %v undecodable %d", sc.names, sc.undecodable)
	}
	// No string starts with a variable: 0xFC could be NSIS 2's skip code
	// or NSIS 3's ü, so that name is not guessed; plain text still is.
	amb := append([]byte{0}, `C:\x`...) // SetOutPath of a literal is not followed; the file is
	amb = append(amb, 0)
	at := len(amb)
	amb = append(amb, "Gr\xfc.txt\x00"...)
	if sc = parseNSISScript(nsisHeader([][7]uint32{{nsisOpExtractFile, 0, uint32(at), 0}}, amb)); sc.undecodable != 1 {
		t.Errorf("ambiguous code byte: names %v undecodable %d unresolved %d", sc.names, sc.undecodable, sc.unresolved)
	}
}

// TestCP1252MatchesXText: the Windows-1252 table is x/text's.
func TestCP1252MatchesXText(t *testing.T) {
	for b := 0; b < 256; b++ {
		r, ok := ansiChar(byte(b))
		want := charmap.Windows1252.DecodeByte(byte(b))
		if ok && r != want || !ok && want != 0xfffd {
			t.Errorf("byte %#x: %U %v, x/text %U", b, r, ok, want)
		}
	}
}
