package container

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// needTool fails (never skips) when a fixture's builder is missing.
func needTool(t testing.TB, tool, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Fatalf("%s builds this test's fixture: apt-get install -y %s (.ci/run installs it)", tool, pkg)
	}
}

// writeTree writes files (slash paths) under root.
func writeTree(t testing.TB, root string, files map[string][]byte) {
	t.Helper()
	for n, b := range files {
		p := filepath.Join(root, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run runs a fixture builder in dir.
func run(t testing.TB, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// tarGzOf is files packed by the real tar and gzip (tar -czf).
func tarGzOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	needTool(t, "tar", "tar")
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "root"), files)
	run(t, dir, "tar", "--owner=0", "--group=0", "-czf", "out.tar.gz", "-C", "root", ".")
	b, err := os.ReadFile(filepath.Join(dir, "out.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gzipOf is b compressed by the real gzip.
func gzipOf(t testing.TB, b []byte) []byte {
	t.Helper()
	needTool(t, "gzip", "gzip")
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, b, 0o644)
	run(t, dir, "gzip", "-9", "f")
	out, err := os.ReadFile(p + ".gz")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// squashfsOf is files in an image made by the real mksquashfs with 4 KiB
// blocks (so an archive spans many blocks and ends in a fragment).
func squashfsOf(t testing.TB, comp string, files map[string][]byte) []byte {
	t.Helper()
	needTool(t, "mksquashfs", "squashfs-tools")
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "root"), files)
	run(t, dir, "mksquashfs", "root", "img.sqfs", "-comp", comp, "-b", "4096", "-all-root", "-noappend", "-quiet", "-mkfs-time", "0", "-all-time", "0")
	b, err := os.ReadFile(filepath.Join(dir, "img.sqfs"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// appImageOf is a type 2 AppImage: an ELF runtime (a copy of /bin/true
// marked "AI\x02") followed by img.
func appImageOf(t testing.TB, img []byte) []byte {
	t.Helper()
	runtime, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	copy(runtime[8:11], "AI\x02")
	return append(runtime, img...)
}

// asarOf is an ASAR of files written by asarpack (@electron/asar's layout).
func asarOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	var fs []asarpack.File
	for n, b := range files {
		fs = append(fs, asarpack.Bytes(n, b))
	}
	var buf bytes.Buffer
	if err := asarpack.Write(&buf, fs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sevenZipOf is files packed by the real 7z in one solid LZMA2 folder.
func sevenZipOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	needTool(t, "7z", "p7zip-full")
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "root"), files)
	run(t, filepath.Join(dir, "root"), "7z", "a", "-bd", "-mx=9", "-ms=on", "../out.7z", ".")
	b, err := os.ReadFile(filepath.Join(dir, "out.7z"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sortedFormats is the containers' formats, sorted, comma-separated.
func sortedFormats(res *inventory.Result) string {
	var f []string
	for _, c := range res.Containers {
		f = append(f, c.Format)
	}
	slices.Sort(f)
	return strings.Join(f, ",")
}

// wantNested checks the nested members' bytes (decoded from pkg itself,
// through every Source) and that the host would accept every range.
func wantNested(t *testing.T, pkg []byte, res *inventory.Result, want map[string]string) {
	t.Helper()
	got := nestedFiles(t, pkg, res)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q (nested: %q)", k, clip(got[k]), clip(v), slices.Sorted(mapKeys(got)))
		}
	}
	checkAccepted(t, pkg, res)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// appTarGz is an Electron-like app (resources/app.asar, index.js) as a
// tar.gz made by the real tar.
func appTarGz(t testing.TB) []byte {
	return tarGzOf(t, map[string][]byte{"resources/app.asar": staticASAR(), "index.js": []byte(strings.Repeat("x;", 300))})
}

// TestTarGzHeldInArchivesIsExpanded: a tar.gz made by the real tar, named
// .tar.gz or .tgz, is expanded wherever an archive is: stored or deflated
// in a zip, in a .deb's data.tar.xz, in a solid 7z folder — every member
// decoded from the outer file through its source chain. A plain .gz (a
// changelog) and a gzip named .tar.gz that holds no tar stay files.
func TestTarGzHeldInArchivesIsExpanded(t *testing.T) {
	app := appTarGz(t)
	want := map[string]string{"tar.gz:index.js": strings.Repeat("x;", 300), "tar.gz:resources/app.asar": string(staticASAR()), "asar:main.js": "main1", "asar:lib/a.js": "abc"}
	cases := []struct {
		name, format, formats string
		pkg                   []byte
	}{
		{"stored-in-zip", inventory.FormatZip, "asar,tar.gz,zip", zipOf(t, [][2]string{{"bundle/app.tar.gz", string(app)}}, map[string]bool{"bundle/app.tar.gz": true})},
		{"deflated-in-zip", inventory.FormatZip, "asar,tar.gz,zip", zipOf(t, [][2]string{{"app.tgz", string(app)}}, nil)},
		{"in-deb-xz", inventory.FormatDeb, "asar,deb,tar,tar,tar.gz", dpkgDeb(t, "xz", map[string][]byte{"app.tar.gz": app})},
		{"in-solid-7z", inventory.FormatSevenZip, "7z,asar,tar.gz", sevenZipOf(t, map[string][]byte{"app.tar.gz": app, "notes.txt": bytes.Repeat([]byte("notes\n"), 500)})},
		{"in-tar-gz", inventory.FormatTarGz, "asar,tar.gz,tar.gz", tarGzOf(t, map[string][]byte{"inner/app.tgz": app})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := stagedInventory(t, c.pkg, c.format, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := sortedFormats(res); got != c.formats {
				t.Fatalf("containers %s: %s", got, paths(res))
			}
			if len(res.Limitations) != 0 {
				t.Errorf("limitations %v", res.Limitations)
			}
			wantNested(t, c.pkg, res, want)
		})
	}
	t.Run("plain-gzip-stays-a-file", func(t *testing.T) {
		text := []byte(strings.Repeat("changes\n", 200))
		z := zipOf(t, [][2]string{{"changelog.gz", string(gzipOf(t, text))}, {"notatar.tar.gz", string(gzipOf(t, text))}, {"plain.tgz", string(gzipOf(t, text))}}, map[string]bool{"changelog.gz": true})
		res, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := formatsOf(res); got != "zip" || len(res.Entries) != 3 || len(res.Limitations) != 0 {
			t.Fatalf("containers %s, %s, %v", got, paths(res), res.Limitations)
		}
		checkAccepted(t, z, res)
	})
}

// TestArchivesInASquashfsImageAreExpanded: a zip (its app.asar deflated),
// a tar.gz and a second AppImage held in an AppImage or a bare squashfs
// image made by the real mksquashfs (4 KiB blocks: each archive spans
// many blocks and a fragment) are listed from the host's decoded copy of
// their blocks; every nested member decodes, from the image itself,
// through a blocks-stream source. The module's answer names the entry
// holding the blocks instead of repeating them in every member. Without
// a stage they stay listed.
func TestArchivesInASquashfsImageAreExpanded(t *testing.T) {
	noise := make([]byte, 20<<10)
	rand.Read(noise)
	appZip := zipOf(t, [][2]string{{"resources/app.asar", string(staticASAR())}, {"index.js", strings.Repeat("y;", 3000)}, {"noise.bin", string(noise)}}, map[string]bool{"noise.bin": true})
	for _, comp := range []string{"xz", "zstd", "gzip"} {
		inner := appImageOf(t, squashfsOf(t, comp, map[string][]byte{"resources/app.asar": staticASAR(), "AppRun": []byte("#!/bin/sh\n")}))
		files := map[string][]byte{"app.zip": appZip, "opt/app.tar.gz": appTarGz(t), "bundled/Inner.AppImage": inner, "AppRun": []byte("#!/bin/sh\n")}
		img := squashfsOf(t, comp, files)
		for _, input := range []struct {
			name, format string
			pkg          []byte
		}{{"appimage", inventory.FormatAppImage, appImageOf(t, img)}, {"squashfs", inventory.FormatSquashfs, img}} {
			t.Run(comp+"-"+input.name, func(t *testing.T) {
				res, _, err := stagedInventory(t, input.pkg, input.format, inventory.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if got, want := sortedFormats(res), strings.Join(slices.Sorted(slices.Values([]string{input.format, "zip", "asar", "tar.gz", "asar", "appimage", "asar"})), ","); got != want {
					t.Fatalf("containers %s, want %s: %s", got, want, paths(res))
				}
				if len(res.Limitations) != 0 {
					t.Errorf("limitations %v", res.Limitations)
				}
				wantNested(t, input.pkg, res, map[string]string{"zip:index.js": strings.Repeat("y;", 3000), "zip:noise.bin": string(noise),
					"tar.gz:index.js": strings.Repeat("x;", 300), "appimage:AppRun": "#!/bin/sh\n", "asar:main.js": "main1"})
				for _, e := range res.Entries {
					if res.Containers[e.Container].Depth > 0 && e.Data != nil && !readFromBlocks(*e.Data) {
						t.Errorf("%s is not read from a blocks stream: %+v", e.Path, e.Data)
					}
				}
				// On the wire, a member's blocks-stream names its holder.
				raw, err := InventoryStreams(fstest.MapFS{"x": {Data: input.pkg}}, stageOf(t, input.pkg, inventory.Limits{}), "x", input.format, inventory.Limits{}, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range raw.Entries {
					for r := e.Data; r != nil; r = r.Source {
						if r.Compression == inventory.CompressionBlocksStream && (r.BlocksOf == nil || r.Blocks != nil || r.Source != nil) {
							t.Fatalf("%s: blocks stream not compacted: %+v", e.Path, r)
						}
					}
				}
				compact, _ := json.Marshal(raw)
				resolved, _ := json.Marshal(res)
				if len(compact) >= len(resolved) {
					t.Errorf("the answer is %d bytes compacted, %d resolved", len(compact), len(resolved))
				}
				res, err = Inventory(fstest.MapFS{"x": {Data: input.pkg}}, "x", input.format, inventory.Limits{}, nil)
				if err != nil || len(res.Containers) != 1 {
					t.Fatalf("without a stage: %v %s", err, formatsOf(res))
				}
			})
		}
	}
}

// readFromBlocks reports whether r is read from a blocks stream, at some
// link of its Source chain.
func readFromBlocks(r inventory.Range) bool {
	for s := r.Source; s != nil; s = s.Source {
		if s.Compression == inventory.CompressionBlocksStream && len(s.Blocks) > 0 {
			return true
		}
	}
	return false
}

// stageOf is a stage over pkg written to a temporary directory as "x".
func stageOf(t testing.TB, pkg []byte, lim inventory.Limits) *stream.Stage {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), pkg, 0o644); err != nil {
		t.Fatal(err)
	}
	return &stream.Stage{Dir: t.TempDir(), Limits: lim, OpenInput: func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }}
}

// TestArchivesInAnASARAreExpanded: an ASAR holding a zip, a tar.gz and
// another ASAR has them expanded wherever the ASAR itself is: the input,
// stored or deflated in a zip, in a .deb's data.tar.xz, in a 7z folder,
// in an AppImage — its members are plain ranges of the ASAR, so each
// nested archive is read where the ASAR's bytes are.
func TestArchivesInAnASARAreExpanded(t *testing.T) {
	asar := asarOf(t, map[string][]byte{
		"main.js":             []byte("require('./vendor')"),
		"vendor/tool.zip":     zipOf(t, [][2]string{{"a.txt", strings.Repeat("a", 700)}}, nil),
		"vendor/data.tar.gz":  tarGzOf(t, map[string][]byte{"b.txt": []byte("bee\n")}),
		"nested/inner.asar":   staticASAR(),
		"vendor/readme.md.gz": gzipOf(t, []byte("readme\n")),
	})
	want := map[string]string{"zip:a.txt": strings.Repeat("a", 700), "tar.gz:b.txt": "bee\n", "asar:lib/a.js": "abc"}
	all := "asar,asar,tar.gz,zip"
	cases := []struct {
		name, format, formats string
		pkg                   []byte
	}{
		{"input", inventory.FormatASAR, all, asar},
		{"stored-in-zip", inventory.FormatZip, all + ",zip", zipOf(t, [][2]string{{"resources/app.asar", string(asar)}}, map[string]bool{"resources/app.asar": true})},
		{"deflated-in-zip", inventory.FormatZip, all + ",zip", zipOf(t, [][2]string{{"resources/app.asar", string(asar)}}, nil)},
		{"in-deb-xz", inventory.FormatDeb, "asar,asar,deb,tar,tar,tar.gz,zip", dpkgDeb(t, "xz", map[string][]byte{"resources/app.asar": asar})},
		{"in-7z", inventory.FormatSevenZip, "7z," + all, sevenZipOf(t, map[string][]byte{"resources/app.asar": asar})},
		{"in-appimage", inventory.FormatAppImage, "appimage," + all, appImageOf(t, squashfsOf(t, "zstd", map[string][]byte{"resources/app.asar": asar}))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := stagedInventory(t, c.pkg, c.format, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := sortedFormats(res); got != c.formats {
				t.Fatalf("containers %s, want %s: %s", got, c.formats, paths(res))
			}
			if len(res.Limitations) != 0 {
				t.Errorf("limitations %v", res.Limitations)
			}
			wantNested(t, c.pkg, res, want)
		})
	}
}

// TestArchivesPastMaxDepthAreSaid: an archive left unopened because its
// container is at max_depth is said, exactly, by the module itself.
func TestArchivesPastMaxDepthAreSaid(t *testing.T) {
	innerZip := zipOf(t, [][2]string{{"x.txt", "x"}}, nil)
	z := zipOf(t, [][2]string{{"app.tar.gz", string(tarGzOf(t, map[string][]byte{"inner.zip": innerZip}))}}, nil)
	res, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := formatsOf(res); got != "zip,tar.gz" {
		t.Fatalf("containers %s", got)
	}
	want := "1 file(s) named as an archive rea reads (first: app.tar.gz!/inner.zip) were listed and hashed but not opened: they are nested deeper than max_depth (1), so their entries are not in the inventory"
	if len(res.Limitations) != 1 || !strings.HasPrefix(res.Limitations[0], want) {
		t.Fatalf("limitations %q, want one starting %q", res.Limitations, want)
	}
	app := appImageOf(t, squashfsOf(t, "zstd", map[string][]byte{"app.zip": zipOf(t, [][2]string{{"app.asar", string(staticASAR())}}, nil)}))
	res, _, err = stagedInventory(t, app, inventory.FormatAppImage, inventory.Limits{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := formatsOf(res); got != "appimage,zip" || len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "(first: app.zip!/app.asar)") ||
		!strings.Contains(res.Limitations[0], "max_depth (1)") {
		t.Fatalf("containers %s, limitations %q", got, res.Limitations)
	}
	// Within the limit nothing is said (lib/a.js is at path depth 2).
	res, _, err = stagedInventory(t, app, inventory.FormatAppImage, inventory.Limits{MaxDepth: 2})
	if err != nil || formatsOf(res) != "appimage,zip,asar" || len(res.Limitations) != 0 {
		t.Fatalf("max_depth 2: %v %s %q", err, formatsOf(res), res.Limitations)
	}
}

// TestHeldArchivesAreHostile: a tar.gz that is a gzip bomb is refused at
// the ratio limit naming it, stored in a zip or held in an AppImage; a
// traversal in a nested tar.gz is refused naming it; a nested tar.gz cut
// short is refused, typed, naming it, wherever it is held.
func TestHeldArchivesAreHostile(t *testing.T) {
	bomb := tarGzOf(t, map[string][]byte{"zeros.bin": make([]byte, 16<<20)})
	lim := inventory.Limits{MaxCompressionRatio: 100}
	for _, c := range []struct {
		name, format string
		pkg          []byte
	}{
		{"stored-in-zip", inventory.FormatZip, zipOf(t, [][2]string{{"payload/app.tar.gz", string(bomb)}}, map[string]bool{"payload/app.tar.gz": true})},
		{"deflated-in-zip", inventory.FormatZip, zipOf(t, [][2]string{{"payload/app.tar.gz", string(bomb)}}, nil)},
		{"in-appimage", inventory.FormatAppImage, appImageOf(t, squashfsOf(t, "xz", map[string][]byte{"payload/app.tar.gz": bomb}))},
	} {
		t.Run("bomb-"+c.name, func(t *testing.T) {
			_, _, err := stagedInventory(t, c.pkg, c.format, lim)
			ae := wantCode(t, err, abi.CodeResourceConstraint)
			if ae.Details["limit"] != "max_compression_ratio" || !strings.Contains(ae.Message, "payload/app.tar.gz") {
				t.Fatalf("%v %v", ae.Message, ae.Details)
			}
			if _, _, err := stagedInventory(t, c.pkg, c.format, inventory.Limits{MaxCompressionRatio: 5000}); err != nil {
				t.Fatalf("within the ratio: %v", err)
			}
		})
	}

	needTool(t, "tar", "tar")
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "a"), map[string][]byte{"x": []byte("hi\n")})
	run(t, filepath.Join(dir, "a"), "tar", "-czPf", "../evil.tgz", "../a/x") // -P keeps the "../"
	evil, _ := os.ReadFile(filepath.Join(dir, "evil.tgz"))
	for _, c := range []struct {
		name, format string
		pkg          []byte
	}{
		{"stored-in-zip", inventory.FormatZip, zipOf(t, [][2]string{{"payload/evil.tgz", string(evil)}}, map[string]bool{"payload/evil.tgz": true})},
		{"in-squashfs", inventory.FormatSquashfs, squashfsOf(t, "gzip", map[string][]byte{"payload/evil.tgz": evil})},
	} {
		t.Run("traversal-"+c.name, func(t *testing.T) {
			_, _, err := stagedInventory(t, c.pkg, c.format, inventory.Limits{})
			var ae *abi.Error
			if !errors.As(err, &ae) || !strings.Contains(ae.Message, `nested container "payload/evil.tgz"`) || !strings.Contains(ae.Message, "..") {
				t.Fatalf("%v", err)
			}
		})
	}

	app := appTarGz(t)
	cut := app[:len(app)/2]
	for _, c := range []struct {
		name, format string
		pkg          []byte
	}{
		{"stored-in-zip", inventory.FormatZip, zipOf(t, [][2]string{{"payload/cut.tar.gz", string(cut)}}, map[string]bool{"payload/cut.tar.gz": true})},
		{"deflated-in-zip", inventory.FormatZip, zipOf(t, [][2]string{{"payload/cut.tar.gz", string(cut)}}, nil)},
		{"in-squashfs", inventory.FormatSquashfs, squashfsOf(t, "zstd", map[string][]byte{"payload/cut.tar.gz": cut})},
		{"in-asar", inventory.FormatASAR, asarOf(t, map[string][]byte{"payload/cut.tar.gz": cut})},
	} {
		t.Run("truncated-"+c.name, func(t *testing.T) {
			_, _, err := stagedInventory(t, c.pkg, c.format, inventory.Limits{})
			ae := wantCode(t, err, abi.CodeArtifactOperationFailed)
			if !strings.Contains(ae.Message, `nested container "payload/cut.tar.gz"`) || !strings.Contains(ae.Message, "corrupt or truncated") {
				t.Fatalf("%s", ae.Message)
			}
		})
	}
}
