package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rea/analysis/artifact/inventory"
)

// writeBenchTree lays out an installed application of about size bytes:
// files of 64 KiB–1 MiB, half random bytes (media, native code) and half
// JavaScript-like text, under opt/Bench/resources/app/.
func writeBenchTree(b *testing.B, root string, size int64) int {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"function", "return", "const", "ipcRenderer", "invoke", "payload", "event", "window", "=>", "{", "}", "(", ")", ";", "require", "module", "exports", "await", "async", "if", "else"}
	var total int64
	n := 0
	for total < size {
		dir := filepath.Join(root, "opt", "Bench", "resources", "app", fmt.Sprintf("d%03d", n/100))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		sz := 64<<10 + r.Int64N(960<<10)
		buf := make([]byte, sz)
		if n%2 == 0 {
			for i := range buf {
				buf[i] = byte(r.Uint32())
			}
		} else {
			// JavaScript-like text: random tokens and numbers (compresses
			// about 4x, as minified code does).
			for i := 0; i < len(buf); {
				w := words[r.IntN(len(words))]
				if r.IntN(4) == 0 {
					w = fmt.Sprint(r.IntN(100000))
				}
				i += copy(buf[i:], w+" ")
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.bin", n)), buf, 0o644); err != nil {
			b.Fatal(err)
		}
		total += sz
		n++
	}
	return n
}

func run(b *testing.B, dir string, name string, args ...string) time.Duration {
	b.Helper()
	wall, _ := runCPU(b, dir, name, args...)
	return wall
}

// runCPU runs a tool and returns its wall time and its CPU time (user +
// system, its waited-for children included: wait4 reports them).
func runCPU(b *testing.B, dir string, name string, args ...string) (time.Duration, time.Duration) {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	t0 := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", name, err, out)
	}
	wall := time.Since(t0)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// loadAverage is /proc/loadavg's first three fields, for the record.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// versusTool times inspect_artifact on file against tool unpacking the
// same file, interleaved (tool, rea, tool, rea, …; b.N rounds), and
// reports the best wall and CPU time of each side: on a shared, loaded
// machine the minimum is the run the other processes disturbed least.
// CPU is user + system (rea's: every thread of this process; the tool's:
// its process and its children).
func versusTool(b *testing.B, a *App, file string, files int, tool func(out string) (time.Duration, time.Duration)) {
	b.Helper()
	req := InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: file, Limits: inventory.Limits{MaxTotalBytes: 1 << 30}}}
	exec.Command("cat", file).Run() // warm the page cache
	if _, err := a.InspectArtifact(context.Background(), req, nil); err != nil {
		b.Fatal(err) // and the module compile cache
	}
	b.Logf("load average before: %s", loadAverage())
	b.ResetTimer()
	ours, theirs := time.Duration(1<<62), time.Duration(1<<62)
	oursCPU, theirsCPU := ours, theirs
	for i := range b.N {
		out := filepath.Join(b.TempDir(), fmt.Sprint("x", i))
		w, c := tool(out)
		theirs, theirsCPU = min(theirs, w), min(theirsCPU, c)
		os.RemoveAll(out)
		c0 := processCPU()
		t0 := time.Now()
		res, err := a.InspectArtifact(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		ours, oursCPU = min(ours, time.Since(t0)), min(oursCPU, processCPU()-c0)
		if res.Inventory.Counts.Verified < files {
			b.Fatalf("verified %d of %d files", res.Inventory.Counts.Verified, files)
		}
		b.Logf("round %d: tool %.2f s wall %.2f s CPU; rea %.2f s wall %.2f s CPU; load %s", i, w.Seconds(), c.Seconds(),
			time.Since(t0).Seconds(), (processCPU() - c0).Seconds(), loadAverage())
	}
	b.StopTimer()
	st, _ := os.Stat(file)
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
	b.ReportMetric(ours.Seconds(), "inspect-s")
	b.ReportMetric(theirs.Seconds(), "tool-s")
	b.ReportMetric(ours.Seconds()/theirs.Seconds(), "x-tool")
	b.ReportMetric(oursCPU.Seconds(), "inspect-cpu-s")
	b.ReportMetric(theirsCPU.Seconds(), "tool-cpu-s")
	b.ReportMetric(oursCPU.Seconds()/theirsCPU.Seconds(), "cpu-x-tool")
}

// BenchmarkInstallerFormatsVersusTools inspects (inventory and hash every
// byte) a ≥ 200 MiB package in each installer format and times the
// format's own tool unpacking it (dpkg-deb -x, unsquashfs, unsquashfs
// -o of an AppImage's image, rpm2cpio | cpio -id) on the same file in
// the same run, interleaved (versusTool).
// The target is within 1.5x of the tool. Each case builds its own
// package, so one can run alone (-bench InstallerFormats/squashfs).
// Run: go test -run XXX -bench InstallerFormats -benchtime 3x ./host/app/
func BenchmarkInstallerFormatsVersusTools(b *testing.B) {
	for _, tool := range []string{"dpkg-deb", "mksquashfs", "unsquashfs", "rpmbuild", "rpm2cpio", "cpio"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Fatalf("%s is needed: apt-get install dpkg squashfs-tools rpm cpio", tool)
		}
	}
	a := newArtifactApp(b)
	dir := b.TempDir()
	root := filepath.Join(dir, "root")
	const size = 360 << 20
	appImageOffset := 0 // where the AppImage's squashfs starts
	files := -1
	tree := func(b *testing.B) {
		if files < 0 {
			files = writeBenchTree(b, root, size)
		}
	}
	cases := []struct {
		name  string
		build func(*testing.B) string
		tool  func(b *testing.B, file, out string) (time.Duration, time.Duration)
	}{
		{"deb-zstd", func(b *testing.B) string {
			tree(b)
			os.MkdirAll(filepath.Join(root, "DEBIAN"), 0o755)
			os.WriteFile(filepath.Join(root, "DEBIAN", "control"), []byte("Package: bench\nVersion: 1.0\nArchitecture: amd64\nMaintainer: rea <rea@example.com>\nDescription: bench\n"), 0o644)
			deb := filepath.Join(dir, "bench.deb")
			run(b, dir, "dpkg-deb", "--root-owner-group", "-Zzstd", "-z3", "--build", root, deb)
			return deb
		}, func(b *testing.B, file, out string) (time.Duration, time.Duration) {
			return runCPU(b, dir, "dpkg-deb", "-x", file, out)
		}},
		{"squashfs-zstd", func(b *testing.B) string {
			tree(b)
			sq := filepath.Join(dir, "bench.sqfs")
			run(b, dir, "mksquashfs", filepath.Join(root, "opt"), sq, "-comp", "zstd", "-noappend", "-quiet", "-processors", "1")
			return sq
		}, func(b *testing.B, file, out string) (time.Duration, time.Duration) {
			return runCPU(b, dir, "unsquashfs", "-q", "-n", "-d", out, file)
		}},
		{"appimage-zstd", func(b *testing.B) string {
			// A type 2 AppImage as appimagetool lays one out: an ELF
			// runtime marked "AI\x02" (here /bin/true's bytes; never run)
			// followed by the squashfs image, which unsquashfs reads at
			// that offset.
			tree(b)
			sq := filepath.Join(dir, "appimage.sqfs")
			run(b, dir, "mksquashfs", filepath.Join(root, "opt"), sq, "-comp", "zstd", "-noappend", "-quiet", "-processors", "1")
			runtime, err := os.ReadFile("/bin/true")
			if err != nil {
				b.Fatal(err)
			}
			copy(runtime[8:11], "AI\x02")
			img, err := os.ReadFile(sq)
			if err != nil {
				b.Fatal(err)
			}
			out := filepath.Join(dir, "Bench.AppImage")
			if err := os.WriteFile(out, append(runtime, img...), 0o755); err != nil {
				b.Fatal(err)
			}
			os.Remove(sq)
			appImageOffset = len(runtime)
			return out
		}, func(b *testing.B, file, out string) (time.Duration, time.Duration) {
			return runCPU(b, dir, "unsquashfs", "-q", "-n", "-o", fmt.Sprint(appImageOffset), "-d", out, file)
		}},
		{"rpm-zstd", func(b *testing.B) string {
			tree(b)
			spec := filepath.Join(dir, "bench.spec")
			os.WriteFile(spec, []byte("Name: bench\nVersion: 1\nRelease: 1\nSummary: b\nLicense: MIT\nBuildArch: noarch\n%description\nb\n%install\ncp -a "+
				filepath.Join(root, "opt")+" %{buildroot}/\n%files\n/opt/Bench\n"), 0o644)
			run(b, dir, "rpmbuild", "-bb", "--define", "_topdir "+filepath.Join(dir, "top"), "--define", "_binary_payload w3.zstdio",
				"--define", "__os_install_post %{nil}", "--define", "_build_id_links none", spec)
			rpms, _ := filepath.Glob(filepath.Join(dir, "top", "RPMS", "noarch", "*.rpm"))
			if len(rpms) != 1 {
				b.Fatalf("rpmbuild wrote %v", rpms)
			}
			return rpms[0]
		}, func(b *testing.B, file, out string) (time.Duration, time.Duration) {
			os.MkdirAll(out, 0o755)
			return runCPU(b, out, "sh", "-c", "rpm2cpio \"$1\" | cpio -idm --quiet", "sh", file)
		}},
	}
	for _, c := range cases {
		file := "" // built once: b.Run calls the function with b.N = 1 first
		b.Run(c.name, func(b *testing.B) {
			if file == "" {
				file = c.build(b)
			}
			versusTool(b, a, file, files, func(out string) (time.Duration, time.Duration) { return c.tool(b, file, out) })
		})
	}
}
