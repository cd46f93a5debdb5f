package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkNSISVersusTool inspects (inventory, then every file decoded
// and hashed) an NSIS installer built by the real makensis with each
// compressor, solid and not, holding writeBenchTree's app folder (File
// /r under SetOutPath $INSTDIR, a hand-written script's layout), and
// times `7z x` unpacking the same installer in the same run
// (versusTool). The tree is REA_BENCH_NSIS_MIB MiB (default 320, so
// that the zlib installers too are over the 200 MB; the stored
// one is 320 MiB). REA_BENCH_NSIS_CASES lists the cases to run (default
// off,zlib,solid-zlib — the issue's; "all" adds bzip2 and lzma, solid
// and not, whose makensis takes many minutes at this size).
// Run: go test -run XXX -bench NSISVersusTool -benchtime 3x ./host/app/
func BenchmarkNSISVersusTool(b *testing.B) {
	for _, tool := range []string{"7z", "makensis"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Fatalf("%s is needed: apt-get install -y p7zip-full nsis", tool)
		}
	}
	mib := int64(320)
	if v, err := strconv.ParseInt(os.Getenv("REA_BENCH_NSIS_MIB"), 10, 64); err == nil && v > 0 {
		mib = v
	}
	cases := map[string]bool{"off": true, "zlib": true, "solid-zlib": true}
	if v := os.Getenv("REA_BENCH_NSIS_CASES"); v != "" {
		cases = map[string]bool{}
		for _, c := range strings.Split(v, ",") {
			cases[strings.TrimSpace(c)] = true
		}
	}
	a := newArtifactApp(b)
	dir := b.TempDir()
	root := filepath.Join(dir, "root")
	files := writeBenchTree(b, root, mib<<20)
	app := filepath.Join(root, "opt", "Bench")
	for _, c := range []string{"SetCompress off", "SetCompressor zlib", "SetCompressor bzip2", "SetCompressor lzma",
		"SetCompressor /SOLID zlib", "SetCompressor /SOLID bzip2", "SetCompressor /SOLID lzma"} {
		name := strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(c, "SetCompressor "), "SetCompress "), "/SOLID ", "solid-")
		if !cases[name] && !cases["all"] {
			continue
		}
		b.Run(name, func(b *testing.B) {
			setup := filepath.Join(dir, name+".exe")
			if _, err := os.Stat(setup); err != nil {
				nsi := filepath.Join(dir, name+".nsi")
				os.WriteFile(nsi, []byte("Name \"Bench\"\nOutFile \""+setup+"\"\nUnicode true\nRequestExecutionLevel user\n"+c+
					"\nInstallDir \"$TEMP\\Bench\"\nSection\nSetOutPath \"$INSTDIR\"\nFile /r \""+app+"/*\"\nSectionEnd\n"), 0o644)
				t0 := time.Now()
				run(b, dir, "makensis", "-V1", nsi)
				b.Logf("makensis %s: %.1f s", c, time.Since(t0).Seconds())
			}
			versusTool(b, a, setup, files, func(out string) (time.Duration, time.Duration) {
				return runCPU(b, dir, "7z", "x", "-bd", "-o"+out, setup)
			})
		})
	}
}
