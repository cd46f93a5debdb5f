package executable

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// fuzzTables feeds arbitrary bytes to every function-table reader as the
// table's contents: each must stop at the bytes' end, report what it
// skipped and never panic or list a start outside [base, base+len).
func fuzzTables(t *testing.T, data []byte) {
	f := &File{r: bytes.NewReader(data), size: int64(len(data)), order: binary.LittleEndian, limits: Limits{}.WithDefaults()}
	f.Bits, f.Format, f.Architecture = 64, FormatELF, "x86_64"
	sec := &Section{Name: ".t", Address: 0x1000, FileSize: int64(len(data)), Size: uint64(len(data)), Loaded: true}
	f.Sections = []Section{*sec}
	f.finish()
	for _, read := range []func(*Section) ([]FunctionStart, error){f.ehFrame, f.ehFrameHdr, f.goPCLN} {
		starts, _ := read(sec)
		if len(starts) > len(data) {
			t.Fatalf("%d starts from %d bytes", len(starts), len(data))
		}
	}
	f.funcStartsSize, f.textBase = uint32(len(data)), 0x1000
	if starts, _ := f.machoFunctionStarts(); len(starts) > len(data) {
		t.Fatalf("%d function starts from %d bytes", len(starts), len(data))
	}
	f.Architecture, f.exceptionRVA, f.exceptionSize, f.ImageBase = "x86_64", 0x1000, uint32(len(data)), 0
	if starts, _ := f.peFunctionTable(); len(starts) > len(data)/12+1 {
		t.Fatalf("%d pdata rows from %d bytes", len(starts), len(data))
	}
	f.FunctionStarts()
}

// FuzzFunctionTables: the committed corpus holds the heads of a gcc
// binary's .eh_frame and .eh_frame_hdr and of a Go pclntab.
func FuzzFunctionTables(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x14\x00\x00\x00\x00\x00\x00\x00\x01zR\x00\x01x\x10\x01\x1b\x0c\x07\x08\x90\x01\x00\x00"))
	f.Add([]byte("\x01\x1b\x03\x3b\x10\x00\x00\x00\x01\x00\x00\x00\x00\xf0\xff\xff\x2c\x00\x00\x00"))
	f.Add([]byte("\xf1\xff\xff\xff\x00\x00\x01\x08"))
	f.Fuzz(fuzzTables)
}
