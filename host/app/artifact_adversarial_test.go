package app

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
)

// frame builds an ASAR from a header that may lie.
func frame(header string, data []byte) []byte {
	pad := (4 - len(header)%4) % 4
	payload := 4 + len(header) + pad
	b := make([]byte, 16, 16+payload+len(data))
	binary.LittleEndian.PutUint32(b[0:], 4)
	binary.LittleEndian.PutUint32(b[4:], uint32(payload+4))
	binary.LittleEndian.PutUint32(b[8:], uint32(payload))
	binary.LittleEndian.PutUint32(b[12:], uint32(len(header)))
	b = append(b, header...)
	b = append(b, make([]byte, pad)...)
	return append(b, data...)
}

func zipOf(t *testing.T, name string, body []byte, method uint16) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body)
	zw.Close()
	return buf.Bytes()
}

// TestExtractArtifactRefusesAdversarialArchives runs every hostile archive
// of the issue through the sandboxed module and the host: each gets a typed
// error and nothing is written anywhere.
func TestExtractArtifactRefusesAdversarialArchives(t *testing.T) {
	a := newArtifactApp(t)
	var good bytes.Buffer
	asarpack.Write(&good, []asarpack.File{asarpack.Bytes("a.txt", []byte("hello")), asarpack.Bytes("b.txt", []byte("world"))})
	headerTooBig := bytes.Clone(good.Bytes())
	binary.LittleEndian.PutUint32(headerTooBig[4:], uint32(len(headerTooBig)+100))
	tampered := bytes.Clone(good.Bytes())
	tampered[bytes.Index(tampered, []byte("world"))] = 'W'

	// A zip whose central directory understates what its member inflates to.
	lying := zipOf(t, "bomb.bin", bytes.Repeat([]byte{0}, 1<<20), zip.Deflate)
	cd := bytes.LastIndex(lying, []byte("PK\x01\x02"))
	binary.LittleEndian.PutUint32(lying[cd+24:], 1000)

	deep := strings.Repeat(`{"files":{"d":`, 30) + `{"size":0,"offset":"0"}` + strings.Repeat(`}}`, 30)
	cases := []struct {
		name string
		file string
		b    []byte
		code string
	}{
		{"header size larger than the file", "a.asar", headerTooBig, abi.CodeArtifactOperationFailed},
		{"offset past EOF", "a.asar", frame(`{"files":{"a":{"size":5,"offset":"99"}}}`, []byte("hello")), abi.CodeArtifactOperationFailed},
		{"overlapping entries", "a.asar", frame(`{"files":{"a":{"size":5,"offset":"0"},"b":{"size":5,"offset":"3"}}}`, []byte("helloworld")), abi.CodeArtifactOperationFailed},
		{"negative size", "a.asar", frame(`{"files":{"a":{"size":-5,"offset":"0"}}}`, []byte("hello")), abi.CodeArtifactOperationFailed},
		{"non-numeric size", "a.asar", frame(`{"files":{"a":{"size":"five","offset":"0"}}}`, []byte("hello")), abi.CodeArtifactOperationFailed},
		{"deeply nested directories", "a.asar", frame(deep, nil), abi.CodeResourceConstraint},
		{"dot-dot names", "a.asar", frame(`{"files":{"..":{"files":{"..":{"files":{"etc":{"files":{"passwd":{"size":5,"offset":"0"}}}}}}}}}`, []byte("hello")), abi.CodeArtifactOperationFailed},
		{"zip slip", "a.zip", zipOf(t, "../../../tmp/evil", []byte("x"), zip.Store), abi.CodeArtifactOperationFailed},
		{"zip bomb", "a.zip", zipOf(t, "zeros", bytes.Repeat([]byte{0}, 8<<20), zip.Deflate), abi.CodeResourceConstraint},
		{"zip bomb with lying sizes", "a.zip", lying, abi.CodeArtifactIntegrity},
		{"tampered byte", "a.asar", tampered, abi.CodeArtifactIntegrity},
		{"truncated file", "a.asar", good.Bytes()[:good.Len()-3], abi.CodeArtifactOperationFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := t.TempDir()
			p := filepath.Join(in, tc.file)
			if err := os.WriteFile(p, tc.b, 0o644); err != nil {
				t.Fatal(err)
			}
			parent := t.TempDir()
			_, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: p},
				OutputDir: filepath.Join(parent, "out")}, nil)
			wantError(t, err, tc.code)
			if got := listTree(t, parent); len(got) != 0 {
				t.Fatalf("wrote %v", got)
			}
			if got := listTree(t, in); len(got) != 1 {
				t.Fatalf("input directory changed: %v", got)
			}
		})
	}
}
