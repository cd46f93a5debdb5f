package container

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/inventory"
)

type member struct {
	name    string
	body    string
	mode    fs.FileMode
	deflate bool
}

func makeZip(t testing.TB, members ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		h := &zip.FileHeader{Name: m.name, Method: zip.Store}
		if m.deflate {
			h.Method = zip.Deflate
		}
		if m.mode != 0 {
			h.SetMode(m.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, m.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func makeTar(t testing.TB, gz bool, members ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.Writer = &buf
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		w = zw
	}
	tw := tar.NewWriter(w)
	for _, m := range members {
		h := &tar.Header{Name: m.name, Mode: int64(m.mode.Perm()), Size: int64(len(m.body)), Typeflag: tar.TypeReg}
		switch {
		case m.mode.IsDir():
			h.Typeflag, h.Size = tar.TypeDir, 0
		case m.mode&fs.ModeSymlink != 0:
			h.Typeflag, h.Size, h.Linkname = tar.TypeSymlink, 0, m.body
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			io.WriteString(tw, m.body)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		zw.Close()
	}
	return buf.Bytes()
}

// inventoryOf runs Inventory over one file called name.
func inventoryOf(t *testing.T, name string, b []byte, lim inventory.Limits) (*inventory.Result, error) {
	t.Helper()
	fsys := fstest.MapFS{name: &fstest.MapFile{Data: b, Mode: 0o644}}
	return Inventory(fsys, name, "", lim, nil)
}

func paths(res *inventory.Result) string {
	var out []string
	for _, e := range res.Entries {
		out = append(out, e.Kind[:1]+":"+e.Path)
	}
	return strings.Join(out, " ")
}

func TestInventoryListsZipMembersWithRangesThatInflateToThem(t *testing.T) {
	body := strings.Repeat("hello zip ", 100)
	b := makeZip(t,
		member{name: "dir/", mode: fs.ModeDir | 0o755},
		member{name: "dir/a.txt", body: body, deflate: true},
		member{name: "run.sh", body: "#!/bin/sh\n", mode: 0o755},
		member{name: "link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777},
	)
	res, err := inventoryOf(t, "x.zip", b, inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != inventory.FormatZip {
		t.Fatalf("format = %s", res.Format)
	}
	if got, want := paths(res), "d:dir f:dir/a.txt f:run.sh l:link"; got != want {
		t.Fatalf("entries = %s, want %s", got, want)
	}
	a := res.Entries[1]
	if a.Data.Compression != inventory.CompressionDeflate || a.Size != int64(len(body)) || a.CRC32 == nil {
		t.Fatalf("a.txt = %+v %+v", a, a.Data)
	}
	if !res.Entries[2].Executable || res.Entries[2].Data.Compression != "" {
		t.Fatalf("run.sh = %+v", res.Entries[2])
	}
	if string(b[res.Entries[2].Data.Offset:res.Entries[2].Data.End()]) != "#!/bin/sh\n" {
		t.Fatal("stored range does not hold the member")
	}
	if l := res.Entries[3].Link; l == nil || l.Target != "/etc/passwd" || !l.Absolute {
		t.Fatalf("link = %+v", l)
	}
}

func TestInventoryRefusesHostileZips(t *testing.T) {
	bomb := makeZip(t, member{name: "zeros", body: strings.Repeat("\x00", 4<<20), deflate: true})
	cases := []struct {
		name  string
		b     []byte
		code  string
		limit string
	}{
		{"zip slip", makeZip(t, member{name: "../../evil.sh", body: "x"}), abi.CodeArtifactOperationFailed, ""},
		{"absolute member", makeZip(t, member{name: "/etc/cron.d/x", body: "x"}), abi.CodeArtifactOperationFailed, ""},
		{"backslash member", makeZip(t, member{name: `..\evil`, body: "x"}), abi.CodeArtifactOperationFailed, ""},
		{"duplicate member", makeZip(t, member{name: "a", body: "1"}, member{name: "a", body: "2"}), abi.CodeArtifactOperationFailed, ""},
		{"zip bomb", bomb, abi.CodeResourceConstraint, "max_compression_ratio"},
		{"truncated", bomb[:len(bomb)-30], abi.CodeArtifactOperationFailed, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Inventory(fstest.MapFS{"x.zip": {Data: tc.b}}, "x.zip", inventory.FormatZip, inventory.Limits{}, nil)
			ae := wantCode(t, err, tc.code)
			if tc.limit != "" && ae.Details["limit"] != tc.limit {
				t.Fatalf("limit = %v, want %s", ae.Details["limit"], tc.limit)
			}
		})
	}
}

func TestInventoryListsTarAndTarGzWithDataRanges(t *testing.T) {
	members := []member{
		{name: "./", mode: fs.ModeDir | 0o755},
		{name: "./app/", mode: fs.ModeDir | 0o755},
		{name: "./app/main.js", body: "require('x')"},
		{name: "./app/bin", body: "ELF", mode: 0o755},
		{name: "./app/up", body: "../../etc/passwd", mode: fs.ModeSymlink | 0o777},
	}
	for _, gz := range []bool{false, true} {
		b := makeTar(t, gz, members...)
		res, err := inventoryOf(t, "a.tar", b, inventory.Limits{})
		if err != nil {
			t.Fatalf("gz=%v: %v", gz, err)
		}
		if got, want := paths(res), "d:app f:app/main.js f:app/bin l:app/up"; got != want {
			t.Fatalf("gz=%v entries = %s, want %s", gz, got, want)
		}
		if !res.Entries[3].Link.Escapes || !res.Entries[2].Executable {
			t.Fatalf("gz=%v link/executable flags lost: %+v %+v", gz, res.Entries[3].Link, res.Entries[2])
		}
		stream := b
		wantFormat := inventory.FormatTar
		if gz {
			wantFormat = inventory.FormatTarGz
			zr, _ := gzip.NewReader(bytes.NewReader(b))
			stream, _ = io.ReadAll(zr)
		}
		if res.Format != wantFormat {
			t.Fatalf("format = %s, want %s", res.Format, wantFormat)
		}
		d := res.Entries[1].Data
		if string(stream[d.Offset:d.End()]) != "require('x')" {
			t.Fatalf("gz=%v range %+v does not hold the member", gz, d)
		}
	}
}

func TestInventoryRefusesHostileTars(t *testing.T) {
	plain := makeTar(t, false, member{name: "a", body: strings.Repeat("x", 2000)})
	gz := makeTar(t, true, member{name: "a", body: strings.Repeat("x", 2000)})
	gzBomb := makeTar(t, true, member{name: "zeros", body: strings.Repeat("\x00", 3<<20)})
	cases := []struct {
		name   string
		format string
		b      []byte
		code   string
	}{
		{"dotdot member", "", makeTar(t, false, member{name: "../evil", body: "x"}), abi.CodeArtifactOperationFailed},
		{"truncated tar", inventory.FormatTar, plain[:1024], abi.CodeArtifactOperationFailed},
		{"truncated tar.gz", inventory.FormatTarGz, gz[:len(gz)-10], abi.CodeArtifactOperationFailed},
		{"gzip bomb", "", gzBomb, abi.CodeResourceConstraint},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Inventory(fstest.MapFS{"x": {Data: tc.b}}, "x", tc.format, inventory.Limits{}, nil)
			wantCode(t, err, tc.code)
		})
	}
}

func TestInventoryWalksDirectoriesAndExpandsNestedArchives(t *testing.T) {
	dir := t.TempDir()
	write := func(p string, b []byte, mode os.FileMode) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, mode); err != nil {
			t.Fatal(err)
		}
	}
	var asar bytes.Buffer
	if err := asarpack.Write(&asar, []asarpack.File{asarpack.Bytes("index.js", []byte("1"))}); err != nil {
		t.Fatal(err)
	}
	write("resources/app.asar", asar.Bytes(), 0o644)
	write("resources/extra.zip", makeZip(t, member{name: "x.txt", body: "x"}), 0o644)
	write("resources/fake.asar", []byte("not an asar at all"), 0o644)
	write("app", []byte("\x7fELF"), 0o755)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "passwd")); err != nil {
		t.Fatal(err)
	}
	res, err := Inventory(os.DirFS(dir), ".", "", inventory.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "f:app l:passwd d:resources f:resources/app.asar f:index.js f:resources/extra.zip f:x.txt f:resources/fake.asar"
	if got := paths(res); got != want {
		t.Fatalf("entries = %s\nwant      %s", got, want)
	}
	if len(res.Containers) != 3 || res.Containers[1].Format != inventory.FormatASAR || res.Containers[2].Format != inventory.FormatZip {
		t.Fatalf("containers = %+v", res.Containers)
	}
	if res.Entries[3].Nested != 1 || res.Entries[4].Container != 1 || res.Entries[4].Data.File != "resources/app.asar" {
		t.Fatalf("nesting not recorded: %+v / %+v", res.Entries[3], res.Entries[4])
	}
	if res.Entries[7].Nested != -1 || res.Entries[0].Nested != -1 {
		t.Fatalf("non-archives marked nested: %+v %+v", res.Entries[7], res.Entries[0])
	}
	if !res.Entries[0].Executable || !res.Entries[1].Link.Absolute {
		t.Fatalf("flags lost: %+v %+v", res.Entries[0], res.Entries[1].Link)
	}
	var nestedLimit inventory.Limits
	nestedLimit.MaxEntries = 4
	_, err = Inventory(os.DirFS(dir), ".", "", nestedLimit, nil)
	ae := wantCode(t, err, abi.CodeResourceConstraint)
	if ae.Details["limit"] != "max_entries" {
		t.Fatalf("limit = %v", ae.Details["limit"])
	}
}

func TestInventoryReportsNestedFailuresWithTheirContainer(t *testing.T) {
	dir := t.TempDir()
	bad := rawASAR(`{"files":{"a":{"size":9,"offset":"0"}}}`, []byte("abc"))
	if err := os.WriteFile(filepath.Join(dir, "bad.asar"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Inventory(os.DirFS(dir), ".", "", inventory.Limits{}, nil)
	ae := wantCode(t, err, abi.CodeArtifactOperationFailed)
	if ae.Details["container"] != "bad.asar" {
		t.Fatalf("details = %v", ae.Details)
	}
}

func TestInventoryRefusesUnknownInputs(t *testing.T) {
	_, err := inventoryOf(t, "x.bin", []byte("just some bytes"), inventory.Limits{})
	wantCode(t, err, abi.CodeArtifactOperationFailed)
	if !strings.Contains(err.Error(), "--archive-format") {
		t.Errorf("an unknown input's error does not say how to name a format: %v", err)
	}
	// A native executable is sent to the native tools.
	for _, head := range []string{"\x7fELF\x02\x01\x01", "MZ\x90\x00", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe"} {
		_, err = inventoryOf(t, "x.bin", []byte(head+"padding padding"), inventory.Limits{})
		wantCode(t, err, abi.CodeArtifactOperationFailed)
		if !strings.Contains(err.Error(), "native executable") || !strings.Contains(err.Error(), "binary_overview") {
			t.Errorf("%q: %v", head, err)
		}
	}
	_, err = Inventory(fstest.MapFS{}, "missing", "", inventory.Limits{}, nil)
	wantCode(t, err, abi.CodeInvalidRequest)
	_, err = Inventory(fstest.MapFS{"a": {Data: nil}}, "a", "", inventory.Limits{MaxEntries: -1}, nil)
	wantCode(t, err, abi.CodeInvalidRequest)
}
