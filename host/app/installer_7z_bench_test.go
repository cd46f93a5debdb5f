package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkSevenZipVersusTool inspects (inventory, then every member
// decoded and hashed) a ≥ 200 MiB 7z archive written by the real 7z and
// times `7z x` unpacking the same file in the same run (versusTool). The
// issue's target is within 1.5x of the tool. The tree is writeBenchTree's
// (half random, half token text); the archive is 7z's default LZMA2 at
// -mx=5 (solid, with the BCJ filters 7z chooses). The nsis case wraps the
// same archive the way electron-builder does (a non-solid zlib installer
// storing the already compressed app-64.7z) and times `7z x` of the setup
// and then of the archive it holds: the app's files on disk, as rea reads
// them (it expands the nested 7z).
// Run: go test -run XXX -bench SevenZipVersusTool -benchtime 3x ./host/app/
// (REA_BENCH_7Z=FILE reuses an archive built from the same tree.)
func BenchmarkSevenZipVersusTool(b *testing.B) {
	if _, err := exec.LookPath("7z"); err != nil {
		b.Fatal("7z is needed: apt-get install -y p7zip-full")
	}
	a := newArtifactApp(b)
	dir := b.TempDir()
	root := filepath.Join(dir, "root")
	files := writeBenchTree(b, root, 360<<20)
	archive := filepath.Join(dir, "app-64.7z")
	if prebuilt := os.Getenv("REA_BENCH_7Z"); prebuilt != "" {
		// The same archive built earlier (`7z a -bd -mx=5 app-64.7z .` in
		// the tree's opt/): on a loaded machine 7z a takes many minutes.
		// Linked under its electron-builder name, which the NSIS case's
		// tool command extracts.
		if err := os.Link(prebuilt, archive); err != nil {
			run(b, dir, "cp", prebuilt, archive)
		}
	} else {
		run(b, filepath.Join(root, "opt"), "7z", "a", "-bd", "-mx=5", archive, ".")
	}
	b.Run("7z-lzma2", func(b *testing.B) {
		versusTool(b, a, archive, files, func(out string) (time.Duration, time.Duration) {
			return runCPU(b, dir, "7z", "x", "-bd", "-o"+out, archive)
		})
	})
	setup := ""
	b.Run("nsis-7z", func(b *testing.B) {
		if _, err := exec.LookPath("makensis"); err != nil {
			b.Fatal("makensis is needed: apt-get install -y nsis")
		}
		if setup == "" {
			setup = filepath.Join(dir, "setup.exe")
			nsi := filepath.Join(dir, "setup.nsi")
			os.WriteFile(nsi, []byte("Name \"Bench\"\nOutFile \""+setup+"\"\nUnicode true\nRequestExecutionLevel user\nSetCompressor zlib\n"+
				"InstallDir \"$TEMP\\Bench\"\nSection\nSetOutPath \"$INSTDIR\"\nFile \""+archive+"\"\nSectionEnd\n"), 0o644)
			run(b, dir, "makensis", "-V1", nsi)
		}
		versusTool(b, a, setup, files, func(out string) (time.Duration, time.Duration) {
			os.MkdirAll(out, 0o755)
			return runCPU(b, out, "sh", "-c", "7z x -bd -osetup \"$1\" >/dev/null && 7z x -bd -oapp setup/app-64.7z >/dev/null", "sh", setup)
		})
	})
}
