package executable

import (
	"debug/gosym"
	"encoding/binary"
	"fmt"
	"strings"
)

// Function starts recorded by the format itself: unwind tables (.eh_frame,
// .eh_frame_hdr, PE .pdata), Mach-O LC_FUNCTION_STARTS and Go's pclntab.
// None of them is removed by strip, so a stripped binary's functions are
// found from them where a sweep sees only direct call targets.

// Sources of procedures found from format metadata.
const (
	SourceEHFrame        = "eh-frame"
	SourceEHFrameHdr     = "eh-frame-hdr"
	SourcePData          = "pdata"
	SourceFunctionStarts = "function-starts"
	SourcePCLNTab        = "pclntab"
	SourceDWARF          = "dwarf"
)

// FunctionStart is one function a table describes; Size is 0 when the
// table gives none and Name "" when it names none.
type FunctionStart struct {
	Address Addr
	Size    uint64
	Name    string
	Source  string
}

// maxTableBytes bounds one metadata table read into memory; larger tables
// are reported and skipped rather than read.
const maxTableBytes = 256 << 20

// FunctionStarts lists the starts every table of the file describes, in
// table order, with the limitations met (a table too large or malformed
// is skipped with a note, never fatal: the symbols still stand).
func (f *File) FunctionStarts() (out []FunctionStart, notes []string) {
	defer func() {
		if r := recover(); r != nil {
			notes = append(notes, fmt.Sprintf("reading function tables stopped: %v", r))
		}
	}()
	limit := f.limits.MaxSymbols
	add := func(fs []FunctionStart, err error) {
		if err != nil {
			notes = append(notes, err.Error())
		}
		for _, s := range fs {
			if len(out) >= limit {
				notes = append(notes, fmt.Sprintf("function tables describe more than %d functions; the rest are not listed", limit))
				return
			}
			if s.Address != 0 && f.isCode(s.Address) {
				out = append(out, s)
			}
		}
	}
	switch f.Format {
	case FormatELF:
		add(f.ehFrame(f.sectionNamed(".eh_frame")))
		add(f.ehFrameHdr(f.sectionNamed(".eh_frame_hdr")))
		add(f.goPCLN(f.sectionNamed(".gopclntab")))
	case FormatMachO, FormatMachOUniversal:
		add(f.ehFrame(f.sectionNamed("__TEXT,__eh_frame")))
		add(f.machoFunctionStarts())
		add(f.goPCLN(f.sectionNamed("__TEXT,__gopclntab")))
	case FormatPE:
		add(f.peFunctionTable())
		add(f.goPCLN(f.pePCLN()))
	}
	return out, notes
}

func (f *File) sectionNamed(name string) *Section {
	for i := range f.Sections {
		if f.Sections[i].Name == name && f.Sections[i].FileSize > 0 {
			return &f.Sections[i]
		}
	}
	return nil
}

// sectionData reads a section's file bytes, bounded by maxTableBytes.
func (f *File) sectionData(s *Section) ([]byte, error) {
	if s.FileSize > maxTableBytes {
		return nil, fmt.Errorf("section %s has %d bytes, above the %d-byte limit for a function table; its functions are not listed", s.Name, s.FileSize, maxTableBytes)
	}
	b := make([]byte, s.FileSize)
	if n, err := f.r.ReadAt(b, s.FileOffset); int64(n) < s.FileSize {
		return nil, fmt.Errorf("reading section %s: %v", s.Name, err)
	}
	return b, nil
}

// cursor reads a table with bounds checks; a read past the end sets bad.
type cursor struct {
	b     []byte
	off   int
	order binary.ByteOrder
	bad   bool
}

func (c *cursor) need(n int) bool {
	if n < 0 || c.off+n > len(c.b) || c.off+n < c.off {
		c.bad = true
		return false
	}
	return true
}

func (c *cursor) u8() uint8 {
	if !c.need(1) {
		return 0
	}
	c.off++
	return c.b[c.off-1]
}

func (c *cursor) u16() uint16 {
	if !c.need(2) {
		return 0
	}
	c.off += 2
	return c.order.Uint16(c.b[c.off-2:])
}

func (c *cursor) u32() uint32 {
	if !c.need(4) {
		return 0
	}
	c.off += 4
	return c.order.Uint32(c.b[c.off-4:])
}

func (c *cursor) u64() uint64 {
	if !c.need(8) {
		return 0
	}
	c.off += 8
	return c.order.Uint64(c.b[c.off-8:])
}

func (c *cursor) uleb() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		b := c.u8()
		if c.bad {
			return 0
		}
		if shift < 64 {
			v |= uint64(b&0x7f) << shift
		}
		if b&0x80 == 0 {
			return v
		}
		if shift > 70 {
			c.bad = true
			return 0
		}
	}
}

func (c *cursor) sleb() int64 {
	var v int64
	var shift uint
	var b byte
	for {
		b = c.u8()
		if c.bad {
			return 0
		}
		if shift < 64 {
			v |= int64(b&0x7f) << shift
		}
		shift += 7
		if b&0x80 == 0 {
			break
		}
		if shift > 70 {
			c.bad = true
			return 0
		}
	}
	if shift < 64 && b&0x40 != 0 {
		v |= -1 << shift
	}
	return v
}

func (c *cursor) cstring() string {
	i := indexByte(c.b[min(c.off, len(c.b)):], 0)
	if i < 0 {
		c.bad = true
		return ""
	}
	s := string(c.b[c.off : c.off+i])
	c.off += i + 1
	return s
}

// DW_EH_PE pointer encodings.
const (
	pePtrOmit   = 0xff
	pePtrAbs    = 0x00
	pePtrULEB   = 0x01
	pePtrU2     = 0x02
	pePtrU4     = 0x03
	pePtrU8     = 0x04
	pePtrSLEB   = 0x09
	pePtrS2     = 0x0a
	pePtrS4     = 0x0b
	pePtrS8     = 0x0c
	pePtrPCRel  = 0x10
	pePtrData   = 0x30
	pePtrFormat = 0x0f
	pePtrApply  = 0x70
)

// encoded reads a DW_EH_PE pointer; base is the address of c.b[0] and
// dataRel what datarel pointers are relative to. ok is false for an
// encoding this reader does not know (the table is then left).
func (c *cursor) encoded(enc byte, base, dataRel Addr, ptrSize int, applyRel bool) (v uint64, ok bool) {
	if enc == pePtrOmit {
		return 0, true
	}
	at := base + Addr(c.off)
	switch enc & pePtrFormat {
	case pePtrAbs:
		if ptrSize == 8 {
			v = c.u64()
		} else {
			v = uint64(c.u32())
		}
	case pePtrULEB:
		v = c.uleb()
	case pePtrU2:
		v = uint64(c.u16())
	case pePtrU4:
		v = uint64(c.u32())
	case pePtrU8:
		v = c.u64()
	case pePtrSLEB:
		v = uint64(c.sleb())
	case pePtrS2:
		v = uint64(int64(int16(c.u16())))
	case pePtrS4:
		v = uint64(int64(int32(c.u32())))
	case pePtrS8:
		v = c.u64()
	default:
		return 0, false
	}
	if !applyRel {
		return v, !c.bad
	}
	switch enc & pePtrApply {
	case 0:
	case pePtrPCRel:
		v += uint64(at)
	case pePtrData:
		v += uint64(dataRel)
	default:
		return 0, false
	}
	return v, !c.bad
}

// cie is what an FDE needs of its Common Information Entry.
type cie struct {
	fdeEnc  byte
	hasAug  bool
	ok      bool
	lsdaEnc byte
}

func (f *File) ptrSize() int {
	if f.Bits == 32 {
		return 4
	}
	return 8
}

// ehFrame reads every FDE's pc_begin and pc_range.
func (f *File) ehFrame(s *Section) ([]FunctionStart, error) {
	if s == nil {
		return nil, nil
	}
	b, err := f.sectionData(s)
	if err != nil {
		return nil, err
	}
	var out []FunctionStart
	cies := map[int]cie{}
	c := &cursor{b: b, order: f.order}
	ps := f.ptrSize()
	for c.off+4 <= len(b) {
		start := c.off
		length := uint64(c.u32())
		if length == 0 { // terminator
			break
		}
		idSize := 4
		if length == 0xffffffff {
			length = c.u64()
			idSize = 8
		}
		body := c.off
		end := body + int(length)
		if length > uint64(len(b)) || end > len(b) || end < body {
			return out, fmt.Errorf("%s: entry at offset %d claims %d bytes past the section's end; the entries after it are not read", s.Name, start, length)
		}
		var id uint64
		if idSize == 8 {
			id = c.u64()
		} else {
			id = uint64(c.u32())
		}
		if id == 0 {
			cies[start] = f.readCIE(&cursor{b: b[:end], off: c.off, order: f.order})
		} else {
			cieAt := body - int(id)
			ci, ok := cies[cieAt]
			if !ok && cieAt >= 0 && cieAt < len(b) {
				ci = f.parseCIEAt(b, cieAt)
				cies[cieAt] = ci
			}
			if ci.ok {
				fc := &cursor{b: b[:end], off: c.off, order: f.order}
				begin, ok1 := fc.encoded(ci.fdeEnc, s.Address, 0, ps, true)
				size, ok2 := fc.encoded(ci.fdeEnc&pePtrFormat, s.Address, 0, ps, false)
				if ok1 && ok2 && begin != 0 && size > 0 && size < 1<<32 {
					out = append(out, FunctionStart{Address: Addr(begin), Size: size, Source: SourceEHFrame})
				}
			}
		}
		c.off = end
	}
	return out, nil
}

func (f *File) parseCIEAt(b []byte, at int) cie {
	c := &cursor{b: b, off: at, order: f.order}
	length := uint64(c.u32())
	if length == 0xffffffff {
		length = c.u64()
		c.u64()
	} else {
		c.u32()
	}
	end := c.off + int(length) - 4
	if c.bad || length > uint64(len(b)) || end > len(b) || end < c.off {
		return cie{}
	}
	c.b = b[:end]
	return f.readCIE(c)
}

// readCIE reads a CIE body after its id.
func (f *File) readCIE(c *cursor) cie {
	version := c.u8()
	aug := c.cstring()
	if c.bad || (version != 1 && version != 3 && version != 4) {
		return cie{}
	}
	if strings.Contains(aug, "eh") {
		c.off += f.ptrSize()
	}
	if version == 4 {
		c.u8() // address_size
		c.u8() // segment_size
	}
	c.uleb() // code alignment
	c.sleb() // data alignment
	if version == 1 {
		c.u8()
	} else {
		c.uleb()
	}
	ci := cie{fdeEnc: pePtrAbs, lsdaEnc: pePtrOmit}
	if strings.HasPrefix(aug, "z") {
		ci.hasAug = true
		c.uleb()
		for _, ch := range aug[1:] {
			switch ch {
			case 'R':
				ci.fdeEnc = c.u8()
			case 'L':
				ci.lsdaEnc = c.u8()
			case 'P':
				enc := c.u8()
				if _, ok := c.encoded(enc&^0x80, 0, 0, f.ptrSize(), false); !ok {
					return cie{}
				}
			case 'S', 'B', 'G':
			default:
				return cie{} // unknown augmentation: the FDE layout is unknown
			}
		}
	} else if aug != "" {
		return cie{}
	}
	ci.ok = !c.bad
	return ci
}

// ehFrameHdr reads the binary-search table of .eh_frame_hdr (starts only).
func (f *File) ehFrameHdr(s *Section) ([]FunctionStart, error) {
	if s == nil {
		return nil, nil
	}
	b, err := f.sectionData(s)
	if err != nil {
		return nil, err
	}
	c := &cursor{b: b, order: f.order}
	if c.u8() != 1 {
		return nil, nil
	}
	ptrEnc, countEnc, tableEnc := c.u8(), c.u8(), c.u8()
	ps := f.ptrSize()
	if _, ok := c.encoded(ptrEnc, s.Address, s.Address, ps, true); !ok {
		return nil, nil
	}
	n, ok := c.encoded(countEnc, s.Address, s.Address, ps, true)
	if !ok || countEnc == pePtrOmit || tableEnc == pePtrOmit {
		return nil, nil
	}
	if n > uint64(len(b)/2) {
		return nil, fmt.Errorf("%s declares %d entries, more than its %d bytes hold; it is not read", s.Name, n, len(b))
	}
	out := make([]FunctionStart, 0, n)
	for i := uint64(0); i < n; i++ {
		loc, ok := c.encoded(tableEnc, s.Address, s.Address, ps, true)
		if _, ok2 := c.encoded(tableEnc, s.Address, s.Address, ps, true); !ok || !ok2 {
			break
		}
		out = append(out, FunctionStart{Address: Addr(loc), Source: SourceEHFrameHdr})
	}
	return out, nil
}

// machoFunctionStarts decodes LC_FUNCTION_STARTS: ULEB128 deltas from the
// __TEXT segment's address, ending at a zero.
func (f *File) machoFunctionStarts() ([]FunctionStart, error) {
	if f.funcStartsSize == 0 {
		return nil, nil
	}
	if f.funcStartsSize > maxTableBytes || int64(f.funcStartsOff)+int64(f.funcStartsSize) > f.size {
		return nil, fmt.Errorf("LC_FUNCTION_STARTS claims %d bytes at offset %d, outside the file; it is not read", f.funcStartsSize, f.funcStartsOff)
	}
	b := make([]byte, f.funcStartsSize)
	if n, err := f.r.ReadAt(b, int64(f.funcStartsOff)); n < len(b) {
		return nil, fmt.Errorf("reading LC_FUNCTION_STARTS: %v", err)
	}
	c := &cursor{b: b, order: f.order}
	addr := Addr(f.textBase)
	var out []FunctionStart
	for c.off < len(b) {
		d := c.uleb()
		if c.bad || d == 0 {
			break
		}
		addr += Addr(d)
		out = append(out, FunctionStart{Address: addr, Source: SourceFunctionStarts})
	}
	return out, nil
}

// peFunctionTable reads the exception directory's RUNTIME_FUNCTION rows
// (x64: begin, end, unwind; arm64: begin, packed or unwind RVA), leaving
// out x64 chained entries, which continue a function rather than start one.
func (f *File) peFunctionTable() ([]FunctionStart, error) {
	rva, size := f.exceptionRVA, f.exceptionSize
	if size == 0 {
		return nil, nil
	}
	row := 12
	switch f.Architecture {
	case "x86_64":
	case "arm64", "arm":
		row = 8
	default:
		return nil, nil
	}
	if size > maxTableBytes {
		return nil, fmt.Errorf("the exception directory has %d bytes, above the %d-byte limit; its functions are not listed", size, maxTableBytes)
	}
	b, err := f.rva(rva, int(size))
	if err != nil || len(b) < int(size) {
		return nil, fmt.Errorf("the exception directory (RVA %#x, %d bytes) is not backed by the file", rva, size)
	}
	base := f.ImageBase
	var out []FunctionStart
	for off := 0; off+row <= len(b); off += row {
		begin := binary.LittleEndian.Uint32(b[off:])
		if begin == 0 {
			continue
		}
		st := FunctionStart{Address: base + Addr(begin), Source: SourcePData}
		if row == 12 {
			end := binary.LittleEndian.Uint32(b[off+4:])
			if end > begin {
				st.Size = uint64(end - begin)
			}
			unwind := binary.LittleEndian.Uint32(b[off+8:])
			if u, err := f.rva(unwind&^1, 1); err == nil && len(u) == 1 && (u[0]>>3)&0x4 != 0 {
				continue // UNW_FLAG_CHAININFO
			}
		} else {
			w := binary.LittleEndian.Uint32(b[off+4:])
			if w&3 != 0 && f.Architecture == "arm64" {
				st.Size = uint64((w>>2)&0x7ff) * 4
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// pePCLN finds a Go pclntab in a PE file, which has no section of its own:
// the runtime.pclntab symbol when there is one, else the header's magic at
// the start of a read-only data section's 16-byte-aligned words.
func (f *File) pePCLN() *Section {
	for _, s := range f.Symbols {
		if s.Name == "runtime.pclntab" || s.Name == "runtime.epclntab" {
			if s.Name == "runtime.pclntab" {
				if sec := f.sectionAt(s.Address); sec != nil && sec.FileSize > 0 {
					off := int64(s.Address - sec.Address)
					return &Section{Name: "runtime.pclntab", Address: s.Address, FileOffset: sec.FileOffset + off, FileSize: sec.FileSize - off}
				}
			}
		}
	}
	for i := range f.Sections {
		sec := &f.Sections[i]
		if sec.Name != ".rdata" || sec.FileSize < 16 {
			continue
		}
		b, err := f.sectionData(sec)
		if err != nil {
			return nil
		}
		for off := 0; off+16 <= len(b); off += 8 {
			if isPCLNHeader(b[off:], f.order) {
				return &Section{Name: "pclntab", Address: sec.Address + Addr(off), FileOffset: sec.FileOffset + int64(off), FileSize: sec.FileSize - int64(off)}
			}
		}
	}
	return nil
}

// isPCLNHeader checks a Go 1.2+ pclntab header: magic, two zero bytes,
// instruction quantum 1, 2 or 4 and pointer size 4 or 8.
func isPCLNHeader(b []byte, order binary.ByteOrder) bool {
	if len(b) < 8 {
		return false
	}
	switch order.Uint32(b) {
	case 0xfffffffb, 0xfffffffa, 0xfffffff0, 0xfffffff1:
	default:
		return false
	}
	return b[4] == 0 && b[5] == 0 && (b[6] == 1 || b[6] == 2 || b[6] == 4) && (b[7] == 4 || b[7] == 8)
}

// pclnFuncCount is the function count a Go 1.2+ pclntab header declares
// (a pointer-sized word after the 8-byte prefix isPCLNHeader checked).
func pclnFuncCount(b []byte, order binary.ByteOrder) (uint64, bool) {
	switch ptr := int(b[7]); {
	case ptr == 4 && len(b) >= 12:
		return uint64(order.Uint32(b[8:])), true
	case ptr == 8 && len(b) >= 16:
		return order.Uint64(b[8:]), true
	}
	return 0, false
}

// goPCLN reads Go's function table: every function's entry, end and name,
// which the linker keeps for tracebacks even in a stripped binary.
func (f *File) goPCLN(s *Section) (out []FunctionStart, err error) {
	if s == nil {
		return nil, nil
	}
	b, err := f.sectionData(s)
	if err != nil {
		return nil, err
	}
	if !isPCLNHeader(b, f.order) {
		return nil, fmt.Errorf("%s does not start with a Go pclntab header; Go function names are not read", s.Name)
	}
	// debug/gosym allocates a Func per declared function before it reads
	// the table: a header declaring billions would exhaust memory. Every
	// function takes at least 8 bytes of the function table (two 4-byte
	// offsets from Go 1.18, two pointers before), so a count the section
	// cannot hold is a lie.
	if nfunc, ok := pclnFuncCount(b, f.order); !ok || nfunc > uint64(len(b))/8 {
		return nil, fmt.Errorf("%s declares %d functions, more than its %d bytes can hold; Go function names are not read", s.Name, nfunc, len(b))
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%s is malformed (%v); Go function names are not read", s.Name, r)
		}
	}()
	text := f.goTextStart(b)
	t, err := gosym.NewTable(nil, gosym.NewLineTable(b, uint64(text)))
	if err != nil {
		return nil, fmt.Errorf("%s: %v; Go function names are not read", s.Name, err)
	}
	out = make([]FunctionStart, 0, len(t.Funcs))
	for _, fn := range t.Funcs {
		if fn.End > fn.Entry {
			out = append(out, FunctionStart{Address: Addr(fn.Entry), Size: fn.End - fn.Entry, Name: fn.Name, Source: SourcePCLNTab})
		}
	}
	return out, nil
}

// goTextStart is runtime.text: the header's own field (Go 1.18+) when it
// lies in code, else the first code section's address.
func (f *File) goTextStart(b []byte) Addr {
	magic := f.order.Uint32(b)
	ps := int(b[7])
	if (magic == 0xfffffff0 || magic == 0xfffffff1) && len(b) >= 8+3*ps {
		var v uint64
		if ps == 8 {
			v = f.order.Uint64(b[8+2*ps:])
		} else {
			v = uint64(f.order.Uint32(b[8+2*ps:]))
		}
		if v != 0 && f.isCode(Addr(v)) {
			return Addr(v)
		}
	}
	for _, name := range []string{".text", "__TEXT,__text"} {
		if s := f.sectionNamed(name); s != nil {
			return s.Address
		}
	}
	if cs := f.codeSections(); len(cs) > 0 {
		return cs[0].Address
	}
	return 0
}
