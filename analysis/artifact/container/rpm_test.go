package container

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// cpioEntry is one member of a test payload.
type cpioEntry struct {
	name  string
	mode  uint32
	body  string
	ino   uint32
	nlink uint32
}

// makeCpio writes a newc archive the way rpm does (./-relative names, a
// TRAILER!!! member, 4-byte padding).
func makeCpio(entries ...cpioEntry) []byte {
	var b bytes.Buffer
	write := func(e cpioEntry) {
		nlink := max(e.nlink, 1)
		fmt.Fprintf(&b, "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
			e.ino, e.mode, 0, 0, nlink, 0, len(e.body), 0, 0, 0, 0, len(e.name)+1, 0)
		b.WriteString(e.name + "\x00")
		for b.Len()%4 != 0 {
			b.WriteByte(0)
		}
		b.WriteString(e.body)
		for b.Len()%4 != 0 {
			b.WriteByte(0)
		}
	}
	for _, e := range entries {
		write(e)
	}
	write(cpioEntry{name: "TRAILER!!!"})
	return b.Bytes()
}

// rpmHeader writes a header structure holding the string tags.
func rpmHeader(tags map[uint32]string) []byte {
	var index, store bytes.Buffer
	for _, tag := range []uint32{rpmTagPayloadFormat, rpmTagPayloadCompressor} {
		v, ok := tags[tag]
		if !ok {
			continue
		}
		binary.Write(&index, binary.BigEndian, [4]uint32{tag, rpmTypeString, uint32(store.Len()), 1})
		store.WriteString(v + "\x00")
	}
	var h bytes.Buffer
	h.WriteString(rpmHeaderMagic + "\x00\x00\x00\x00")
	binary.Write(&h, binary.BigEndian, [2]uint32{uint32(index.Len() / 16), uint32(store.Len())})
	h.Write(index.Bytes())
	h.Write(store.Bytes())
	return h.Bytes()
}

// makeRPM lays out lead, signature, header and the compressed payload.
func makeRPM(t testing.TB, compressor string, payload []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	lead := make([]byte, rpmLeadSize)
	copy(lead, rpmLeadMagic+"\x03\x00")
	b.Write(lead)
	b.Write(rpmHeader(nil))
	for b.Len()%8 != 0 {
		b.WriteByte(0)
	}
	b.Write(rpmHeader(map[uint32]string{rpmTagPayloadFormat: "cpio", rpmTagPayloadCompressor: compressor}))
	comp := map[string]string{"gzip": inventory.CompressionGzipStream, "xz": inventory.CompressionXzStream, "zstd": inventory.CompressionZstdStream}[compressor]
	b.Write(compressAs(t, comp, payload))
	return b.Bytes()
}

func TestRPMListsThePayloadForEachCompressor(t *testing.T) {
	payload := makeCpio(
		cpioEntry{name: "./opt", mode: cpioDir | 0o755, ino: 1},
		cpioEntry{name: "./opt/app.asar", mode: cpioReg | 0o644, body: "asar bytes", ino: 2},
		cpioEntry{name: "./opt/run", mode: cpioReg | 0o755, body: "#!/bin/sh\n", ino: 3},
		cpioEntry{name: "./opt/esc", mode: cpioLink | 0o777, body: "../../etc/passwd", ino: 4},
		// A hard-linked pair: the first name has no data, the last has it.
		cpioEntry{name: "./opt/h1", mode: cpioReg | 0o644, ino: 5, nlink: 2},
		cpioEntry{name: "./opt/h2", mode: cpioReg | 0o644, body: "shared", ino: 5, nlink: 2},
	)
	for _, comp := range []string{"gzip", "xz", "zstd"} {
		t.Run(comp, func(t *testing.T) {
			data := makeRPM(t, comp, payload)
			res, err := Inventory(fstest.MapFS{"x.rpm": {Data: data}}, "x.rpm", "", inventory.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != inventory.FormatRPM {
				t.Fatalf("format %q", res.Format)
			}
			got := map[string]inventory.Entry{}
			for _, e := range res.Entries {
				got[e.Path] = e
			}
			for p, body := range map[string]string{"opt/app.asar": "asar bytes", "opt/run": "#!/bin/sh\n", "opt/h2": "shared"} {
				e := got[p]
				if e.Kind != inventory.KindFile || e.Size != int64(len(body)) {
					t.Fatalf("%s: %+v", p, e)
				}
				r, err := stream.Open(bytes.NewReader(data), int64(len(data)), *e.Data)
				if err != nil {
					t.Fatal(err)
				}
				io.CopyN(io.Discard, r, e.Data.Offset)
				b := make([]byte, e.Size)
				io.ReadFull(r, b)
				if string(b) != body {
					t.Errorf("%s reads %q", p, b)
				}
			}
			if !got["opt/run"].Executable || got["opt/app.asar"].Executable {
				t.Error("executable bits lost")
			}
			if l := got["opt/esc"].Link; l == nil || !l.Escapes {
				t.Errorf("escaping link: %+v", l)
			}
			if l := got["opt/h1"].Link; l == nil || !l.Hard || l.Target != "opt/h2" {
				t.Errorf("hard link: %+v", got["opt/h1"])
			}
		})
	}
}

func TestRPMRefusesHostilePackages(t *testing.T) {
	reg := func(name string) cpioEntry { return cpioEntry{name: name, mode: cpioReg | 0o644, body: "x", ino: 9} }
	bomb := makeCpio(cpioEntry{name: "./z", mode: cpioReg | 0o644, body: strings.Repeat("\x00", 4<<20), ino: 1})
	cases := []struct {
		name string
		data []byte
		lim  inventory.Limits
		code string
		text string
	}{
		{"traversal", makeRPM(t, "gzip", makeCpio(reg("./../../etc/cron.d/x"))), inventory.Limits{}, abi.CodeArtifactOperationFailed, ".."},
		{"device", makeRPM(t, "gzip", makeCpio(cpioEntry{name: "./dev/sda", mode: 0o060644, ino: 1})), inventory.Limits{}, abi.CodeArtifactOperationFailed, "device"},
		{"duplicate", makeRPM(t, "gzip", makeCpio(reg("./a"), reg("./a"))), inventory.Limits{}, abi.CodeArtifactOperationFailed, "a"},
		{"bomb", makeRPM(t, "zstd", bomb), inventory.Limits{MaxCompressionRatio: 100}, abi.CodeResourceConstraint, "max_compression_ratio"},
		{"no trailer", makeRPM(t, "gzip", makeCpio(reg("./a"))[:120]), inventory.Limits{}, abi.CodeArtifactOperationFailed, "truncated"},
		{"bad magic", makeRPM(t, "gzip", []byte(strings.Repeat("x", 200))), inventory.Limits{}, abi.CodeArtifactOperationFailed, "magic"},
		{"unknown compressor", makeRPM(t, "lzip", makeCpio(reg("./a"))), inventory.Limits{}, abi.CodeCapabilityUnavailable, "lzip"},
		{"entries", makeRPM(t, "gzip", makeCpio(reg("./a"), cpioEntry{name: "./b", mode: cpioReg, ino: 2}, cpioEntry{name: "./c", mode: cpioReg, ino: 3})),
			inventory.Limits{MaxEntries: 2}, abi.CodeResourceConstraint, "max_entries"},
		{"truncated header", makeRPM(t, "gzip", nil)[:rpmLeadSize+20], inventory.Limits{}, abi.CodeArtifactOperationFailed, "lacks its magic"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Inventory(fstest.MapFS{"x": {Data: tc.data}}, "x", inventory.FormatRPM, tc.lim, nil)
			wantTyped(t, err, tc.code, tc.text)
		})
	}
}

// FuzzInventoryRPM: arbitrary bytes as an RPM never panic, fail typed,
// and every stream an entry names lies inside the file.
func FuzzInventoryRPM(f *testing.F) {
	f.Add(makeRPM(f, "gzip", makeCpio(cpioEntry{name: "./a", mode: cpioReg | 0o644, body: "hello", ino: 1})))
	f.Add(makeRPM(f, "xz", makeCpio(cpioEntry{name: "./l", mode: cpioLink | 0o777, body: "../x", ino: 1})))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Inventory(fstest.MapFS{"x": {Data: data}}, "x", inventory.FormatRPM, inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxDepth: 8}, nil)
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, e := range res.Entries {
			if e.Data != nil && (e.Data.StreamOffset < 0 || e.Data.StreamOffset+e.Data.StreamLength > int64(len(data))) {
				t.Fatalf("stream %+v outside a %d-byte file", e.Data, len(data))
			}
		}
	})
}
