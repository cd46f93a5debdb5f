package container

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"rea/analysis/artifact/inventory"
)

// FuzzParseNSISScript: arbitrary bytes as an install script's header
// never panic, and every name it resolves is one the normaliser can
// judge (relative, slash-separated, without empty segments).
func FuzzParseNSISScript(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 4+nsisBlocks*8))
	// NSIS 2 ANSI codes (253 $INSTDIR, 252 escaping ü) and NSIS 3 ANSI
	// text with Windows-1252 bytes.
	f.Add(nsisHeader([][7]uint32{{nsisOpCreateDir, 1, 1}, {nsisOpExtractFile, 0, 8, 0}}, []byte("\x00\xfd\x95\x80\\a\x00Gr\xfc\xfc\x80\x00")))
	f.Add(nsisHeader([][7]uint32{{nsisOpCreateDir, 1, 1}, {nsisOpExtractFile, 0, 8, 0}}, []byte("\x00\x03\x95\x80\\a\x00Gr\xfc\x81\x00")))
	f.Fuzz(func(t *testing.T, hdr []byte) {
		sc := parseNSISScript(hdr)
		for _, names := range sc.names {
			for _, n := range names {
				if n == "" || n[0] == '/' || bytes.Contains([]byte(n), []byte("//")) || bytes.ContainsRune([]byte(n), '\\') {
					t.Fatalf("resolved name %q", n)
				}
			}
		}
	})
}

// TestWriteNSISFuzzSeeds rewrites the committed seed corpora from
// installers the real makensis builds, one per compressor, solid and not:
// the stub is cut to a 512-byte "MZ" page, and the NSIS CRC is switched
// off (flag 4) so mutations reach the decoders rather than stop at the
// checksum. Run with REA_WRITE_FUZZ_SEEDS=1; without it the test only
// checks that the committed seeds are still accepted.
func TestWriteNSISFuzzSeeds(t *testing.T) {
	write := os.Getenv("REA_WRITE_FUZZ_SEEDS") == "1"
	dir := filepath.Join("testdata", "fuzz", "FuzzInventoryNSIS")
	if !write {
		files, _ := filepath.Glob(filepath.Join(dir, "makensis-*"))
		if len(files) < len(nsisCompressors) {
			t.Fatalf("testdata holds %d makensis seeds, want %d; regenerate with REA_WRITE_FUZZ_SEEDS=1", len(files), len(nsisCompressors))
		}
		return
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "main.js"), bytes.Repeat([]byte("console.log(1);\n"), 40), 0o644)
	os.WriteFile(filepath.Join(root, "app.asar"), staticASAR(), 0o644)
	for i, c := range nsisCompressors {
		b := makeNSIS(t, c.line, `SetOutPath "$INSTDIR\resources"`, `File "`+root+`/app.asar"`, `SetOutPath "$INSTDIR"`, `File "`+root+`/main.js"`)
		seed := shrinkNSIS(t, b)
		if _, err := inventoryOf(t, "setup.exe", seed, inventory.Limits{}); err != nil {
			t.Fatalf("%s: the shrunk seed is refused: %v", c.line, err)
		}
		for _, d := range []string{dir, filepath.Join("testdata", "fuzz", "FuzzInventoryStaged")} {
			name := filepath.Join(d, fmt.Sprintf("makensis-%d", i))
			if err := os.WriteFile(name, []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", seed)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if c.line == "SetCompressor /SOLID bzip2" { // the bzip2 block, for its decoder
			d := filepath.Join("..", "stream", "nsisbzip2", "testdata", "fuzz", "FuzzReader")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "makensis-solid"), []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", seed[512+nsisFirstHeaderSize:])), 0o644)
		}
		if i == 0 { // the stored script header, for the script parser
			writeNSISHeaderSeed(t, seed, "makensis-stored")
		}
	}
	// A zip compressed in an NSIS item (expanded from the stream's
	// staged copy, its ranges read from it), for the staged reader.
	z := zipOf(t, [][2]string{{"resources/app.asar", string(staticASAR())}, {"README", "read me read me read me"}}, map[string]bool{"resources/app.asar": true, "README": true})
	os.WriteFile(filepath.Join(root, "app.zip"), z, 0o644)
	zb := shrinkNSIS(t, makeNSIS(t, "SetCompressor zlib", `SetOutPath "$INSTDIR"`, `File "`+root+`/app.zip"`))
	os.WriteFile(filepath.Join("testdata", "fuzz", "FuzzInventoryStaged", "makensis-zip"), []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", zb)), 0o644)
	// An ANSI installer (`Unicode false`) with Windows-1252 names.
	os.WriteFile(filepath.Join(root, "Grüße€.txt"), []byte("x"), 0o644)
	b := makeNSISCharset(t, false, "SetCompress off", `SetOutPath "$INSTDIR\Bücher"`, `File "`+root+`/Grüße€.txt"`)
	seed := shrinkNSIS(t, b)
	writeNSISHeaderSeed(t, seed, "makensis-ansi-stored")
	os.WriteFile(filepath.Join(dir, "makensis-ansi"), []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", seed)), 0o644)
}

// writeNSISHeaderSeed writes the stored script header of a shrunk
// installer as a seed of the script parser.
func writeNSISHeaderSeed(t *testing.T, seed []byte, name string) {
	fh := nsisOffset(bytes.NewReader(seed), int64(len(seed)))
	hs := binary.LittleEndian.Uint32(seed[fh+20:])
	hdr := seed[fh+32 : fh+32+int64(hs)]
	os.MkdirAll(filepath.Join("testdata", "fuzz", "FuzzParseNSISScript"), 0o755)
	if err := os.WriteFile(filepath.Join("testdata", "fuzz", "FuzzParseNSISScript", name), []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", hdr)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shrinkNSIS replaces an installer's stub by a 512-byte page and turns
// its CRC off.
func shrinkNSIS(t *testing.T, b []byte) []byte {
	fh := nsisOffset(bytes.NewReader(b), int64(len(b)))
	if fh < 0 {
		t.Fatal("no first header")
	}
	total := int64(binary.LittleEndian.Uint32(b[fh+24:]))
	out := make([]byte, 512)
	copy(out, "MZ")
	out = append(out, b[fh:fh+total-4]...)
	binary.LittleEndian.PutUint32(out[512:], binary.LittleEndian.Uint32(out[512:])|nsisFlagNoCRC)
	binary.LittleEndian.PutUint32(out[512+24:], uint32(total-4))
	return out
}
