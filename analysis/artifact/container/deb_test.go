package container

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// compress wraps raw in the named stream compression.
func compressAs(t testing.TB, compression string, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	var err error
	switch compression {
	case inventory.CompressionNone:
		return raw
	case inventory.CompressionXzStream:
		w, err = xz.NewWriter(&buf)
	case inventory.CompressionZstdStream:
		w, err = zstd.NewWriter(&buf)
	default:
		return makeGzip(t, raw)
	}
	if err != nil {
		t.Fatal(err)
	}
	w.Write(raw)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func makeGzip(t testing.TB, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(raw)
	zw.Close()
	return buf.Bytes()
}

// makeAr lays out an ar archive the way dpkg-deb writes it.
func makeAr(members ...[2]string) []byte {
	var b bytes.Buffer
	b.WriteString(arMagic)
	for _, m := range members {
		fmt.Fprintf(&b, "%-16s%-12d%-6d%-6d%-8s%-10d`\n", m[0], 0, 0, 0, "100644", len(m[1]))
		b.WriteString(m[1])
		if len(m[1])%2 == 1 {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func makeDeb(t testing.TB, ext, compression string, data []member) []byte {
	t.Helper()
	control := makeTar(t, false, member{name: "./control", body: "Package: x\n", mode: 0o644})
	payload := makeTar(t, false, data...)
	return makeAr([2]string{"debian-binary", "2.0\n"}, [2]string{"control.tar.gz", string(compressAs(t, inventory.CompressionGzipStream, control))},
		[2]string{"data.tar" + ext, string(compressAs(t, compression, payload))})
}

func TestInventoryDeb(t *testing.T) {
	data := []member{{name: "./usr/", mode: fs.ModeDir | 0o755}, {name: "./usr/lib/x/resources/app.asar", body: "asar bytes", mode: 0o644},
		{name: "./usr/bin/x", body: "../lib/x/x", mode: fs.ModeSymlink | 0o777}, {name: "./usr/lib/x/x", body: "\x7fELF", mode: 0o755}}
	for _, c := range []struct{ ext, compression string }{{"", inventory.CompressionNone}, {".gz", inventory.CompressionGzipStream},
		{".xz", inventory.CompressionXzStream}, {".zst", inventory.CompressionZstdStream}} {
		t.Run("data.tar"+c.ext, func(t *testing.T) {
			deb := makeDeb(t, c.ext, c.compression, data)
			fsys := fstest.MapFS{"x.deb": {Data: deb, Mode: 0o644}}
			res, err := Inventory(fsys, "x.deb", "", inventory.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != inventory.FormatDeb || len(res.Containers) != 3 {
				t.Fatalf("format %s, %d containers", res.Format, len(res.Containers))
			}
			var got []string
			for _, e := range res.Entries {
				got = append(got, fmt.Sprintf("%d:%s:%s", e.Container, e.Kind, e.Path))
				if e.Kind != inventory.KindFile || e.Container == 0 {
					continue
				}
				// Each member's range, decoded the way the host will, holds
				// exactly its bytes.
				rc, err := stream.Open(bytes.NewReader(deb), int64(len(deb)), *e.Data)
				if e.Data.Compression == inventory.CompressionNone {
					rc, err = io.NopCloser(bytes.NewReader(deb)), nil
				}
				if err != nil {
					t.Fatal(err)
				}
				all, _ := io.ReadAll(rc)
				body := string(all[e.Data.Offset : e.Data.Offset+e.Size])
				if e.Path == "usr/lib/x/resources/app.asar" && body != "asar bytes" {
					t.Errorf("%s holds %q", e.Path, body)
				}
			}
			want := "0:file:debian-binary,0:file:control.tar.gz,1:file:control,0:file:data.tar" + c.ext +
				",2:directory:usr,2:file:usr/lib/x/resources/app.asar,2:link:usr/bin/x,2:file:usr/lib/x/x"
			if strings.Join(got, ",") != want {
				t.Errorf("entries\n got %s\nwant %s", strings.Join(got, ","), want)
			}
		})
	}
}

func TestInventoryDebHostile(t *testing.T) {
	bomb := makeTar(t, false, member{name: "zeros", body: strings.Repeat("\x00", 8<<20), mode: 0o644})
	cases := []struct {
		name string
		deb  []byte
		code string
		msg  string
	}{
		{"traversal", makeDeb(t, ".xz", inventory.CompressionXzStream, []member{{name: "../../etc/passwd", body: "x", mode: 0o644}}), abi.CodeArtifactOperationFailed, "data.tar.xz"},
		{"bomb", makeAr([2]string{"debian-binary", "2.0\n"}, [2]string{"data.tar.zst", string(compressAs(t, inventory.CompressionZstdStream, bomb))}), abi.CodeResourceConstraint, "max_compression_ratio"},
		{"not a deb", makeAr([2]string{"foo.o", "x"}), abi.CodeArtifactOperationFailed, "not a Debian package"},
		{"truncated member", makeAr([2]string{"debian-binary", "2.0\n"})[:70], abi.CodeArtifactOperationFailed, "past the end"},
		{"corrupt stream", makeAr([2]string{"debian-binary", "2.0\n"}, [2]string{"data.tar.xz", "\xfd7zXZ\x00garbage"}), abi.CodeArtifactOperationFailed, "xz"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{"x.deb": {Data: c.deb, Mode: 0o644}}
			_, err := Inventory(fsys, "x.deb", inventory.FormatDeb, inventory.Limits{MaxCompressionRatio: 100}, nil)
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != c.code || !strings.Contains(ae.Message, c.msg) {
				t.Fatalf("err = %v, want %s containing %q", err, c.code, c.msg)
			}
		})
	}
	// A symlink that escapes the package is recorded, never followed.
	deb := makeDeb(t, ".gz", inventory.CompressionGzipStream, []member{{name: "./evil", body: "../../../../etc/shadow", mode: fs.ModeSymlink | 0o777}})
	res, err := Inventory(fstest.MapFS{"x.deb": {Data: deb, Mode: 0o644}}, "x.deb", "", inventory.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Entries[len(res.Entries)-1]
	if last.Kind != inventory.KindLink || !last.Link.Escapes {
		t.Errorf("escaping link = %+v", last)
	}
}

// FuzzInventoryDeb feeds arbitrary bytes to the .deb reader: no panic,
// typed failures, and every plain range inside the file.
func FuzzInventoryDeb(f *testing.F) {
	f.Add(makeDeb(f, ".xz", inventory.CompressionXzStream, []member{{name: "./a", body: "hello", mode: 0o644}}))
	f.Add(makeDeb(f, ".zst", inventory.CompressionZstdStream, []member{{name: "./a", body: "hello", mode: 0o644}}))
	f.Add(makeAr([2]string{"debian-binary", "2.0\n"}))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"x": {Data: data, Mode: 0o644}}
		res, err := Inventory(fsys, "x", inventory.FormatDeb, inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxDepth: 8}, nil)
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, e := range res.Entries {
			if e.Data == nil {
				continue
			}
			if stream.IsStream(e.Data.Compression) {
				if e.Data.StreamOffset < 0 || e.Data.StreamOffset+e.Data.StreamLength > int64(len(data)) {
					t.Fatalf("stream %+v outside a %d-byte file", e.Data, len(data))
				}
				continue
			}
			if e.Data.Offset < 0 || e.Data.Length < 0 || e.Data.End() > int64(len(data)) {
				t.Fatalf("range %+v outside a %d-byte file", e.Data, len(data))
			}
		}
	})
}
