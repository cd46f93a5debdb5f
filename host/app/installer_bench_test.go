package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"rea/analysis/artifact/inventory"
)

// writeBenchTree lays out an installed application of about size bytes:
// files of 64 KiB–1 MiB, half random bytes (media, native code) and half
// repetitive text (JavaScript), under opt/Bench/resources/app/.
func writeBenchTree(b *testing.B, root string, size int64) int {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	text := []byte("function handler(event, payload) { return ipcRenderer.invoke('channel', payload); }\n")
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
			for i := 0; i < len(buf); i += len(text) {
				copy(buf[i:], text)
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
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	t0 := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", name, err, out)
	}
	return time.Since(t0)
}

// BenchmarkInstallerFormatsVersusTools inspects (inventory and hash every
// byte) a ≥ 200 MiB package in each installer format and times the
// format's own tool unpacking it (dpkg-deb -x, unsquashfs, rpm2cpio |
// cpio -id) on the same file in the same run. The target is
// within 1.5x of the tool.
// Run: go test -run XXX -bench InstallerFormats -benchtime 1x ./host/app/
func BenchmarkInstallerFormatsVersusTools(b *testing.B) {
	for _, tool := range []string{"dpkg-deb", "mksquashfs", "unsquashfs", "rpmbuild", "rpm2cpio", "cpio"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Fatalf("%s is needed: apt-get install dpkg squashfs-tools rpm cpio", tool)
		}
	}
	a := newArtifactApp(b)
	dir := b.TempDir()
	root := filepath.Join(dir, "root")
	const size = 220 << 20
	files := writeBenchTree(b, root, size)
	os.MkdirAll(filepath.Join(root, "DEBIAN"), 0o755)
	os.WriteFile(filepath.Join(root, "DEBIAN", "control"), []byte("Package: bench\nVersion: 1.0\nArchitecture: amd64\nMaintainer: rea <rea@example.com>\nDescription: bench\n"), 0o644)
	deb := filepath.Join(dir, "bench.deb")
	run(b, dir, "dpkg-deb", "--root-owner-group", "-Zzstd", "-z3", "--build", root, deb)
	sq := filepath.Join(dir, "bench.sqfs")
	run(b, dir, "mksquashfs", filepath.Join(root, "opt"), sq, "-comp", "zstd", "-noappend", "-quiet", "-processors", "1")
	spec := filepath.Join(dir, "bench.spec")
	os.WriteFile(spec, []byte("Name: bench\nVersion: 1\nRelease: 1\nSummary: b\nLicense: MIT\nBuildArch: noarch\n%description\nb\n%install\ncp -a "+
		filepath.Join(root, "opt")+" %{buildroot}/\n%files\n/opt/Bench\n"), 0o644)
	run(b, dir, "rpmbuild", "-bb", "--define", "_topdir "+filepath.Join(dir, "top"), "--define", "_binary_payload w3.zstdio",
		"--define", "__os_install_post %{nil}", "--define", "_build_id_links none", spec)
	rpms, _ := filepath.Glob(filepath.Join(dir, "top", "RPMS", "noarch", "*.rpm"))
	if len(rpms) != 1 {
		b.Fatalf("rpmbuild wrote %v", rpms)
	}
	cases := []struct {
		name, file string
		tool       func(out string) time.Duration
	}{
		{"deb-zstd", deb, func(out string) time.Duration { return run(b, dir, "dpkg-deb", "-x", deb, out) }},
		{"squashfs-zstd", sq, func(out string) time.Duration { return run(b, dir, "unsquashfs", "-q", "-n", "-d", out, sq) }},
		{"rpm-zstd", rpms[0], func(out string) time.Duration {
			os.MkdirAll(out, 0o755)
			return run(b, out, "sh", "-c", "rpm2cpio \"$1\" | cpio -idm --quiet", "sh", rpms[0])
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			req := InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: c.file, Limits: inventory.Limits{MaxTotalBytes: 1 << 30}}}
			exec.Command("cat", c.file).Run() // warm the page cache
			if _, err := a.InspectArtifact(context.Background(), req, nil); err != nil {
				b.Fatal(err) // and the module compile cache
			}
			b.ResetTimer()
			var ours, theirs time.Duration
			for i := range b.N {
				out := filepath.Join(b.TempDir(), fmt.Sprint("x", i))
				theirs += c.tool(out)
				os.RemoveAll(out)
				t0 := time.Now()
				res, err := a.InspectArtifact(context.Background(), req, nil)
				if err != nil {
					b.Fatal(err)
				}
				ours += time.Since(t0)
				if res.Inventory.Counts.Verified < files {
					b.Fatalf("verified %d of %d files", res.Inventory.Counts.Verified, files)
				}
			}
			st, _ := os.Stat(c.file)
			b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
			b.ReportMetric(ours.Seconds()/float64(b.N), "inspect-s")
			b.ReportMetric(theirs.Seconds()/float64(b.N), "tool-s")
			b.ReportMetric(ours.Seconds()/theirs.Seconds(), "x-tool")
		})
	}
}
