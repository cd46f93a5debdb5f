package executable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"testing"

	"rea/abi"
	"rea/analysis/native/nativetest"
)

func readFixture(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func patched(b []byte, at int, v any) []byte {
	out := append([]byte{}, b...)
	var w bytes.Buffer
	binary.Write(&w, binary.LittleEndian, v)
	copy(out[at:], w.Bytes())
	return out
}

// elfSection returns the file offset of section i's header.
func elfSectionHeader(b []byte, i int) int {
	shoff := int(binary.LittleEndian.Uint64(b[0x28:]))
	return shoff + i*int(binary.LittleEndian.Uint16(b[0x3a:]))
}

// elfProgHeader returns the file offset of program header i.
func elfProgHeader(b []byte, i int) int {
	return int(binary.LittleEndian.Uint64(b[0x20:])) + i*int(binary.LittleEndian.Uint16(b[0x36:]))
}

func TestMalformedBinariesGiveTypedErrors(t *testing.T) {
	elf := readFixture(t, nativetest.ChainELF(t, "plain"))
	pe := readFixture(t, nativetest.GoBinary(t, "windows", "amd64"))
	mo := readFixture(t, nativetest.GoBinary(t, "darwin", "arm64"))
	peOff := int(binary.LittleEndian.Uint32(pe[0x3c:]))
	// The first LOAD header of the plain fixture and the one after it.
	var loads []int
	for i := 0; i < int(binary.LittleEndian.Uint16(elf[0x38:])); i++ {
		if binary.LittleEndian.Uint32(elf[elfProgHeader(elf, i):]) == 1 {
			loads = append(loads, elfProgHeader(elf, i))
		}
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		code   string
		detail string
	}{
		{"empty", nil, abi.CodeArtifactOperationFailed, ""},
		{"garbage", []byte("#!/bin/sh\necho not a binary\n"), abi.CodeArtifactOperationFailed, "reason"},
		{"elf header cut at 40 bytes", elf[:40], abi.CodeArtifactOperationFailed, ""},
		{"elf header cut at 60 bytes", elf[:60], abi.CodeArtifactOperationFailed, ""},
		{"elf cut in its section headers", elf[:len(elf)-100], abi.CodeArtifactOperationFailed, ""},
		{"elf with 65535 sections", patched(elf, 0x3c, uint16(0xffff)), abi.CodeArtifactOperationFailed, "limit"},
		{"elf with 65535 program headers", patched(elf, 0x38, uint16(0xffff)), abi.CodeArtifactOperationFailed, "limit"},
		{"elf section headers past EOF", patched(elf, 0x28, uint64(1<<40)), abi.CodeArtifactOperationFailed, ""},
		{"elf section offset past EOF", patched(elf, elfSectionHeader(elf, 14)+0x18, uint64(1<<30)), abi.CodeArtifactOperationFailed, "section"},
		{"elf loads overlapping in memory", patched(elf, loads[1]+0x10, binary.LittleEndian.Uint64(elf[loads[0]+0x10:])), abi.CodeArtifactOperationFailed, "reason"},
		{"pe cut after the DOS header", pe[:0x40], abi.CodeArtifactOperationFailed, ""},
		{"pe e_lfanew past EOF", patched(pe, 0x3c, uint32(len(pe)+10)), abi.CodeArtifactOperationFailed, ""},
		{"pe with 65535 sections", patched(pe, peOff+6, uint16(0xffff)), abi.CodeArtifactOperationFailed, "limit"},
		{"pe with a billion symbols", patched(pe, peOff+16, uint32(1<<30)), abi.CodeArtifactOperationFailed, ""},
		{"mach-o header cut", mo[:20], abi.CodeArtifactOperationFailed, ""},
		{"mach-o with a million load commands", patched(mo, 16, uint32(1<<20)), abi.CodeArtifactOperationFailed, ""},
		{"mach-o commands past EOF", patched(mo, 20, uint32(len(mo)+1)), abi.CodeArtifactOperationFailed, ""},
		{"universal with 1000 slices", append([]byte{0xca, 0xfe, 0xba, 0xbe, 0, 0, 3, 0xe8}, make([]byte, 64)...), abi.CodeArtifactOperationFailed, "limit"},
		{"universal slice past EOF", fatPastEOF(), abi.CodeArtifactOperationFailed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(bytes.NewReader(tc.data), int64(len(tc.data)), Options{})
			var e *abi.Error
			if !errors.As(err, &e) || e.Code != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
			if tc.detail != "" && e.Details[tc.detail] == nil {
				t.Errorf("error %v lacks detail %q", e, tc.detail)
			}
		})
	}
}

func fatPastEOF() []byte {
	b := make([]byte, 8+20)
	binary.BigEndian.PutUint32(b, 0xcafebabe)
	binary.BigEndian.PutUint32(b[4:], 1)
	binary.BigEndian.PutUint32(b[8:], 0x0100000c)
	binary.BigEndian.PutUint32(b[16:], 0x1000)
	binary.BigEndian.PutUint32(b[20:], 0x100000)
	return b
}

func TestLimitsStopLargeInputs(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	data := readFixture(t, bin)
	_, err := Open(bytes.NewReader(data), int64(len(data)), Options{Limits: Limits{MaxFileBytes: 1000}})
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.CodeResourceConstraint {
		t.Fatalf("file limit: %v", err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)), Options{Limits: Limits{MaxCodeBytes: 64}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze(f, AnalyzeOptions{}); !errors.As(err, &e) || e.Code != abi.CodeResourceConstraint {
		t.Fatalf("code limit: %v", err)
	}
	f, _ = Open(bytes.NewReader(data), int64(len(data)), Options{Limits: Limits{MaxStrings: 2}})
	a, err := Analyze(f, AnalyzeOptions{Strings: true})
	if err != nil || len(a.Strings) != 2 || !a.StringsTruncated {
		t.Fatalf("string limit: %d strings, truncated %v, %v", len(a.Strings), a.StringsTruncated, err)
	}
	if _, err := Open(bytes.NewReader(data), int64(len(data)), Options{Limits: Limits{MaxSymbols: 3}}); !errors.As(err, &e) || e.Details["limit"] != "max_symbols" {
		t.Fatalf("symbol limit: %v", err)
	}
}

// panicReader makes the parser panic, standing in for a bug in a standard
// library parser: Open must report it, not crash.
type panicReader struct{ b []byte }

func (p panicReader) ReadAt(b []byte, off int64) (int, error) {
	if off > 64 {
		panic("parser bug")
	}
	return bytes.NewReader(p.b).ReadAt(b, off)
}

func TestParserPanicsBecomeTypedErrors(t *testing.T) {
	data := readFixture(t, nativetest.ChainELF(t, "plain"))
	_, err := Open(panicReader{data}, int64(len(data)), Options{})
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.CodeArtifactOperationFailed || e.Details["panic"] == nil {
		t.Fatalf("err = %v", err)
	}
}

func TestSectionlessELFIsAnalysedFromItsSegments(t *testing.T) {
	full := analyzePath(t, nativetest.ChainELF(t, "stripped"))
	data := readFixture(t, nativetest.ChainELF(t, "stripped"))
	// Remove the section headers, as sstrip does.
	data = patched(data, 0x28, uint64(0))
	data = patched(data, 0x3c, uint16(0))
	data = patched(data, 0x3e, uint16(0))
	f, err := Open(bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Sections) == 0 || len(f.Limitations) == 0 {
		t.Fatalf("sections %v limitations %v", f.Sections, f.Limitations)
	}
	a, err := Analyze(f, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Without section headers the PLT names are gone, but the code and
	// its call edges are the same.
	edges := func(a *Analysis) map[string]bool {
		m := map[string]bool{}
		for _, e := range a.Calls {
			if e.Kind == EdgeCall {
				m[e.Site.String()+" "+e.Callee.String()] = true
			}
		}
		return m
	}
	want, got := edges(full), edges(a)
	for e := range want {
		if !got[e] {
			t.Errorf("edge %s lost without section headers", e)
		}
	}
	if len(want) == 0 {
		t.Fatal("no edges in the stripped fixture")
	}
}
