package electronbin

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildIntegrityPE links a PE32+ executable holding the resource Electron
// reads (ELECTRONASAR of type INTEGRITY) with the given JSON, using the
// real MinGW binutils (windres, as, ld).
func buildIntegrityPE(t testing.TB, integrityJSON string) []byte {
	t.Helper()
	for _, tool := range []string{"x86_64-w64-mingw32-windres", "x86_64-w64-mingw32-as", "x86_64-w64-mingw32-ld", "cpp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s builds the PE fixture: apt-get install -y binutils-mingw-w64-x86-64 cpp", tool)
		}
	}
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("start.s", "\t.text\n\t.globl _start\n_start:\n\tret\n\t.section .rdata,\"dr\"\n\t.ascii \""+Sentinel+"\"\n\t.byte 1, 8\n\t.ascii \"01001110\"\n")
	write("integrity.json", integrityJSON)
	// A second resource of another type comes first, so the lookup has to
	// walk the type directory.
	write("res.rc", "1 RCDATA { \"x\" }\nELECTRONASAR INTEGRITY \"integrity.json\"\n")
	for _, args := range [][]string{
		{"x86_64-w64-mingw32-as", "start.s", "-o", "start.o"},
		{"x86_64-w64-mingw32-windres", "--preprocessor=cpp", "res.rc", "-O", "coff", "-o", "res.o"},
		{"x86_64-w64-mingw32-ld", "--entry", "_start", "start.o", "res.o", "-o", "app.exe"},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", args[0], err, out)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "app.exe"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPEIntegrityReadsTheElectronResource(t *testing.T) {
	js := `[{"file":"resources\\app.asar","alg":"SHA256","value":"0bf0b3451c21bad47120e43c30a414c1a7c77581845659f6ab86451a3ad0427f"},` +
		`{"file":"resources\\other.asar","alg":"md5","value":"x"}, 7, {"file":"resources/fwd.asar","alg":"sha256","value":"aa"}]`
	pe := buildIntegrityPE(t, js)
	got, err := PEIntegrity(bytes.NewReader(pe), int64(len(pe)))
	if err != nil || got == nil {
		t.Fatalf("PEIntegrity: %v, %v", got, err)
	}
	if got.Error != "" || got.Skipped != 2 || len(got.Entries) != 2 {
		t.Fatalf("got %+v", got)
	}
	if got.Entries[0].File != `resources\app.asar` || got.Entries[0].Value != "0bf0b3451c21bad47120e43c30a414c1a7c77581845659f6ab86451a3ad0427f" || got.Entries[1].File != "resources/fwd.asar" {
		t.Errorf("entries %+v", got.Entries)
	}
	if string(pe[got.Offset:got.Offset+got.Size]) != js {
		t.Errorf("the resource range does not hold the JSON: %q", pe[got.Offset:got.Offset+got.Size])
	}
	// The whole scan sees the wire and the resource.
	facts, err := Scan(bytes.NewReader(pe), int64(len(pe)), DefaultLimits)
	if err != nil || facts.SentinelCount != 1 {
		t.Fatalf("scan: %+v %v", facts, err)
	}

	// Not JSON: the resource is reported, unreadable.
	bad := buildIntegrityPE(t, "{not json")
	got, err = PEIntegrity(bytes.NewReader(bad), int64(len(bad)))
	if err != nil || got == nil || !strings.Contains(got.Error, "not a JSON list") {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestPEIntegrityHostileHeaders(t *testing.T) {
	pe := buildIntegrityPE(t, `[]`)
	// Not a PE, and a PE without resources: nothing to report.
	for _, b := range [][]byte{[]byte("\x7fELF...."), make([]byte, 100)} {
		if got, err := PEIntegrity(bytes.NewReader(b), int64(len(b))); got != nil || err != nil {
			t.Errorf("non-PE: %+v %v", got, err)
		}
	}
	// Every truncation of a real PE is refused or read, never a panic.
	for n := 0; n < len(pe); n += 7 {
		got, _ := PEIntegrity(bytes.NewReader(pe[:n]), int64(n))
		if got != nil && got.Error == "" && got.Offset+got.Size > int64(n) {
			t.Fatalf("at %d bytes the resource %d+%d lies outside the file", n, got.Offset, got.Size)
		}
	}
}

// FuzzPEIntegrity: arbitrary bytes never panic, and a resource found lies
// inside the file.
func FuzzPEIntegrity(f *testing.F) {
	f.Add(buildIntegrityPE(f, `[{"file":"resources\\app.asar","alg":"SHA256","value":"00"}]`))
	f.Add([]byte("MZ"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, _ := PEIntegrity(bytes.NewReader(b), int64(len(b)))
		if got != nil && got.Error == "" && (got.Offset < 0 || got.Offset+got.Size > int64(len(b))) {
			t.Fatalf("resource %d+%d outside a %d-byte file", got.Offset, got.Size, len(b))
		}
	})
}
