package app

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"rea/analysis/artifact/udifpack"
)

// dmgBenchVersion names the cached image: bump it when writeDMGBenchTree
// or the wrapping changes, so a stale image is not reused.
const dmgBenchVersion = "v1"

// BenchmarkDMGVersusTool inspects (inventory, then every file decoded
// and hashed) a ≥ 200 MiB .dmg and times `7z x` unpacking the same image
// in the same run (versusTool). The image is built the way the dmg tests
// build theirs: a real HFS+ volume (xorriso -hfsplus) holding an
// Electron-like Bench.app (writeDMGBenchTree), wrapped in UDIF by
// udifpack with 1 MiB zlib chunks and zero-fill for all-zero chunks, as
// hdiutil's UDZO writes it. Building takes minutes on a loaded machine,
// so the image is cached as build/bench/dmg-<version>.dmg (with the file
// count beside it); delete it to rebuild.
// Run: go test -run XXX -bench DMGVersusTool -benchtime 3x ./host/app/
func BenchmarkDMGVersusTool(b *testing.B) {
	for _, tool := range []string{"7z", "xorriso"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Fatalf("%s is needed: apt-get install -y p7zip-full xorriso", tool)
		}
	}
	a := newArtifactApp(b)
	image, files := dmgBenchImage(b)
	versusTool(b, a, image, files, func(out string) (time.Duration, time.Duration) {
		return runCPU(b, filepath.Dir(image), "7z", "x", "-bd", "-o"+out, image)
	})
}

// dmgBenchImage returns the cached bench image and its file count,
// building both when absent.
func dmgBenchImage(b *testing.B) (string, int) {
	b.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "build", "bench"))
	if err != nil {
		b.Fatal(err)
	}
	image := filepath.Join(dir, "dmg-"+dmgBenchVersion+".dmg")
	count := image + ".files"
	if c, err := os.ReadFile(count); err == nil {
		if n, err := strconv.Atoi(string(c)); err == nil {
			if _, err := os.Stat(image); err == nil {
				return image, n
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	tree := b.TempDir()
	files := writeDMGBenchTree(b, tree)
	vol, err := udifpack.HFSPlusVolume(tree, "Bench")
	if err != nil {
		b.Fatal(err)
	}
	var img bytes.Buffer
	if _, err := udifpack.Write(&img, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol))}}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(image+".tmp", img.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(image+".tmp", image); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(count, []byte(strconv.Itoa(files)), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Logf("built %s: %d files, volume %d MiB, image %d MiB, %.0f s", image, files, len(vol)>>20, img.Len()>>20, time.Since(t0).Seconds())
	return image, files
}

// writeDMGBenchTree lays out an Electron-like Bench.app under root and
// returns its file count: a 150 MiB "Electron Framework" and a few other
// native binaries of random bytes (compiled code compresses little; random
// is the worst case for both readers), 400 JavaScript-like text files of
// 8–200 KiB under Resources/app (an unpacked app), 40 locale .pak files
// (text, compressible) and a few empty and tiny files, about 260 MiB.
func writeDMGBenchTree(b *testing.B, root string) int {
	b.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	contents := filepath.Join(root, "Bench.app", "Contents")
	n := 0
	write := func(rel string, data []byte) {
		p := filepath.Join(contents, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		n++
	}
	random := func(size int) []byte {
		buf := make([]byte, size)
		for i := 0; i+8 <= len(buf); i += 8 {
			v := r.Uint64()
			for k := range 8 {
				buf[i+k] = byte(v >> (8 * k))
			}
		}
		return buf
	}
	words := []string{"function", "return", "const", "ipcRenderer", "invoke", "payload", "event", "window", "=>", "{", "}", "(", ")", ";", "require", "module", "exports", "await", "async", "if", "else"}
	text := func(size int) []byte {
		buf := make([]byte, size)
		for i := 0; i < len(buf); {
			w := words[r.IntN(len(words))]
			if r.IntN(4) == 0 {
				w = fmt.Sprint(r.IntN(100000))
			}
			i += copy(buf[i:], w+" ")
		}
		return buf
	}
	fw := "Frameworks/Electron Framework.framework/Versions/A/"
	write(fw+"Electron Framework", random(150<<20))
	for _, lib := range []string{"libffmpeg.dylib", "libEGL.dylib", "libGLESv2.dylib", "libvk_swiftshader.dylib"} {
		write(fw+"Libraries/"+lib, random(4<<20+r.IntN(4<<20)))
	}
	write(fw+"Resources/v8_context_snapshot.x86_64.bin", random(12<<20))
	write(fw+"Resources/icudtl.dat", text(10<<20))
	write(fw+"Resources/resources.pak", text(8<<20))
	for i := range 40 {
		write(fmt.Sprintf("%sResources/l%02d.lproj/locale.pak", fw, i), text(200<<10+r.IntN(400<<10)))
	}
	for _, h := range []string{"Bench Helper", "Bench Helper (GPU)", "Bench Helper (Renderer)", "Bench Helper (Plugin)"} {
		write("Frameworks/"+h+".app/Contents/MacOS/"+h, random(64<<10+r.IntN(64<<10)))
		write("Frameworks/"+h+".app/Contents/Info.plist", text(1<<10))
	}
	write("MacOS/Bench", random(100<<10))
	write("Info.plist", text(2<<10))
	write("PkgInfo", []byte("APPL????"))
	write("Resources/empty.txt", nil)
	for i := range 400 {
		write(fmt.Sprintf("Resources/app/d%02d/m%03d.js", i/40, i), text(8<<10+r.IntN(192<<10)))
	}
	return n
}
