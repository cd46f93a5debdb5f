package executable

import (
	"debug/macho"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

const (
	lcCodeSignature    = 0x1d
	lcFunctionStarts   = 0x26
	lcEncryptionInfo   = 0x21
	lcEncryptionInfo64 = 0x2c
	lcMain             = 0x80000028
	lcUnixThread       = 0x5
	machoPIE           = 0x200000
	sectionTypeMask    = 0xff
	sNonLazyPointers   = 0x6
	sLazyPointers      = 0x7
	sSymbolStubs       = 0x8
	sAttrInstructions  = 0x80000000 | 0x400
)

func isMachO(m [4]byte) bool {
	le, be := binary.LittleEndian.Uint32(m[:]), binary.BigEndian.Uint32(m[:])
	for _, v := range []uint32{macho.Magic32, macho.Magic64} {
		if le == v || be == v {
			return true
		}
	}
	return false
}

func isFat(m [4]byte) bool { return binary.BigEndian.Uint32(m[:]) == macho.MagicFat }

func machoArch(c macho.Cpu) string {
	switch c {
	case macho.CpuAmd64:
		return "x86_64"
	case macho.Cpu386:
		return "x86"
	case macho.CpuArm64:
		return "arm64"
	case macho.CpuArm:
		return "arm"
	}
	return strings.ToLower(strings.TrimPrefix(c.String(), "Cpu"))
}

func (f *File) openFat(r io.ReaderAt, size int64, want string) error {
	var hdr [8]byte
	if n, _ := r.ReadAt(hdr[:], 0); n < 8 {
		return malformed("the universal header is truncated")
	}
	if n := int(binary.BigEndian.Uint32(hdr[4:])); n > f.limits.MaxArchitectures || n == 0 {
		return tooMany("architectures", n, f.limits.MaxArchitectures, "max_architectures")
	}
	ff, err := macho.NewFatFile(r)
	if err != nil {
		return malformed("%v", err)
	}
	var pick *macho.FatArch
	for i := range ff.Arches {
		a := &ff.Arches[i]
		name := machoArch(a.Cpu)
		f.Architectures = append(f.Architectures, name)
		if pick == nil && (want == "" || want == name) {
			pick = a
		}
	}
	if pick == nil {
		return malformed("the universal binary has no %s slice (it holds %v); choose one of those", want, f.Architectures).WithDetail("field", "architecture")
	}
	if int64(pick.Offset)+int64(pick.Size) > size {
		return malformed("the %s slice claims bytes past the end of the file", machoArch(pick.Cpu))
	}
	if err := f.openMachO(io.NewSectionReader(r, int64(pick.Offset), int64(pick.Size)), int64(pick.Size), int64(pick.Offset)); err != nil {
		return err
	}
	f.Format = FormatMachOUniversal
	return nil
}

func (f *File) openMachO(r io.ReaderAt, size int64, sliceOffset int64) error {
	var hdr [28]byte
	if n, _ := r.ReadAt(hdr[:], 0); n < 28 {
		return malformed("the Mach-O header is truncated (%d of 28 bytes)", n)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if binary.BigEndian.Uint32(hdr[:]) == macho.Magic32 || binary.BigEndian.Uint32(hdr[:]) == macho.Magic64 {
		order = binary.BigEndian
	}
	ncmd, cmdsz := order.Uint32(hdr[16:]), order.Uint32(hdr[20:])
	if int64(cmdsz) > size || int(ncmd) > f.limits.MaxSegments*4 || int64(ncmd)*8 > int64(cmdsz) {
		return malformed("the Mach-O header declares %d load commands in %d bytes, which the %d-byte file cannot hold", ncmd, cmdsz, size)
	}
	mf, err := macho.NewFile(r)
	if err != nil {
		return malformed("%v", err)
	}
	f.Format, f.r, f.size, f.order, f.SliceOffset = FormatMachO, r, size, mf.ByteOrder, sliceOffset
	f.ByteOrder = "little"
	if mf.ByteOrder == binary.BigEndian {
		f.ByteOrder = "big"
	}
	f.Bits = 32
	if mf.Magic == macho.Magic64 {
		f.Bits = 64
	}
	f.Architecture = machoArch(mf.Cpu)
	switch mf.Type {
	case macho.TypeExec:
		f.Type = "executable"
	case macho.TypeDylib:
		f.Type = "shared-library"
	case macho.TypeBundle:
		f.Type = "bundle"
	case macho.TypeObj:
		f.Type = "relocatable"
	default:
		f.Type = "other"
	}
	if len(mf.Sections) > f.limits.MaxSections {
		return tooMany("sections", len(mf.Sections), f.limits.MaxSections, "max_sections")
	}
	var textBase uint64
	segPerm := map[string]string{}
	for _, l := range mf.Loads {
		seg, ok := l.(*macho.Segment)
		if !ok {
			continue
		}
		p := perms(seg.Prot&1 != 0, seg.Prot&2 != 0, seg.Prot&4 != 0)
		segPerm[seg.Name] = p
		if seg.Name == "__TEXT" {
			textBase = seg.Addr
		}
		f.Segments = append(f.Segments, Segment{Name: seg.Name, Kind: "segment", Address: Addr(seg.Addr), MemorySize: seg.Memsz,
			FileOffset: int64(seg.Offset), FileSize: int64(seg.Filesz), Permissions: p})
		f.machoSectionSlots(mf, seg)
	}
	for _, s := range mf.Sections {
		typ := s.Flags & sectionTypeMask
		fileSize := int64(s.Size)
		if typ == 0x1 || typ == 0xc || typ == 0x12 { // zerofill, gb_zerofill, thread_local_zerofill
			fileSize = 0
		}
		if fileSize > 0 && int64(s.Offset)+fileSize > size {
			return malformed("section %s,%s claims bytes past the end of the %d-byte file", s.Seg, s.Name, size).WithDetail("section", s.Seg+","+s.Name)
		}
		f.Sections = append(f.Sections, Section{Name: s.Seg + "," + s.Name, Address: Addr(s.Addr), Size: s.Size, FileOffset: int64(s.Offset), FileSize: fileSize,
			Permissions: segPerm[s.Seg], Kind: fmt.Sprintf("type_%#x", typ), Loaded: s.Seg != "__DWARF", Code: s.Flags&sAttrInstructions != 0})
	}
	if mf.Symtab != nil {
		if len(mf.Symtab.Syms) > f.limits.MaxSymbols {
			return tooMany("symbols", len(mf.Symtab.Syms), f.limits.MaxSymbols, "max_symbols")
		}
		for _, s := range mf.Symtab.Syms {
			if s.Type&0xe0 != 0 || s.Name == "" { // stabs
				continue
			}
			defined := s.Type&0x0e == 0x0e
			kind := "object"
			if defined && int(s.Sect) >= 1 && int(s.Sect) <= len(f.Sections) && f.Sections[s.Sect-1].Code {
				kind = "function"
			}
			if !defined {
				kind = "import"
			}
			bind := "local"
			if s.Type&0x01 != 0 {
				bind = "global"
			}
			f.Symbols = append(f.Symbols, Symbol{Name: s.Name, Address: Addr(s.Value), Kind: kind, Binding: bind, Table: "macho-symtab", Defined: defined})
			if defined && bind == "global" {
				f.Exports = append(f.Exports, Export{Name: s.Name, Address: Addr(s.Value)})
			}
		}
	}
	f.Libraries, _ = mf.ImportedLibraries()
	slotOf := map[string]Addr{}
	for a, n := range f.slots {
		if o, ok := slotOf[n]; !ok || a < o {
			slotOf[n] = a
		}
	}
	// Undefined external symbols are the imports; with a two-level
	// namespace, n_desc's high byte is the 1-based index of the library
	// (in load-command order) that provides each.
	if mf.Symtab != nil {
		seen := map[string]bool{}
		for _, sym := range mf.Symtab.Syms {
			if sym.Type&0xe0 != 0 || sym.Type&0x0e != 0 || sym.Type&0x01 == 0 || sym.Name == "" || seen[sym.Name] {
				continue
			}
			seen[sym.Name] = true
			im := Import{Name: sym.Name}
			if ord := int(sym.Desc >> 8); ord >= 1 && ord <= len(f.Libraries) && mf.Flags&0x80 != 0 { // MH_TWOLEVEL
				im.Library = f.Libraries[ord-1]
			}
			if a, ok := slotOf[sym.Name]; ok {
				im.Slot = &a
			}
			f.Imports = append(f.Imports, im)
		}
	}
	var signed, encrypted bool
	var cryptid uint32
	for _, l := range mf.Loads {
		raw := l.Raw()
		if len(raw) < 8 {
			continue
		}
		switch cmd := order.Uint32(raw); cmd {
		case lcMain:
			if len(raw) >= 16 {
				e := Addr(textBase + order.Uint64(raw[8:]))
				f.Entry = &e
			}
		case lcUnixThread:
			if pc, ok := unixThreadPC(raw, order, mf.Cpu); ok {
				e := Addr(pc)
				f.Entry = &e
			}
		case lcFunctionStarts:
			if len(raw) >= 16 {
				f.funcStartsOff, f.funcStartsSize, f.textBase = order.Uint32(raw[8:]), order.Uint32(raw[12:]), textBase
			}
		case lcCodeSignature:
			signed = true
		case lcEncryptionInfo, lcEncryptionInfo64:
			encrypted = true
			if len(raw) >= 20 {
				cryptid = order.Uint32(raw[16:])
			}
		}
	}
	for _, s := range mf.Sections {
		f.Relocations.Count += int(s.Nreloc)
	}
	if f.Relocations.Count > 0 {
		f.Relocations.ByType = map[string]int{"section": f.Relocations.Count}
	}
	var out []Mitigation
	if mf.Flags&machoPIE != 0 {
		out = append(out, Mitigation{Name: "pie", Status: StatusObserved, Value: "pie", Basis: "MH_PIE flag in the Mach-O header"})
	} else {
		out = append(out, Mitigation{Name: "pie", Status: StatusAbsent, Basis: fmt.Sprintf("the Mach-O header flags (%#x) lack MH_PIE", mf.Flags)})
	}
	if signed {
		out = append(out, Mitigation{Name: "code_signature", Status: StatusObserved, Value: "present-unverified", Basis: "LC_CODE_SIGNATURE load command (signature not verified)"})
	} else {
		out = append(out, Mitigation{Name: "code_signature", Status: StatusAbsent, Basis: "no LC_CODE_SIGNATURE load command"})
	}
	switch {
	case encrypted && cryptid != 0:
		out = append(out, Mitigation{Name: "encryption", Status: StatusObserved, Value: fmt.Sprintf("encrypted (cryptid %d)", cryptid), Basis: "LC_ENCRYPTION_INFO with a non-zero cryptid: the text is encrypted on disk"})
	case encrypted:
		out = append(out, Mitigation{Name: "encryption", Status: StatusObserved, Value: "not-encrypted", Basis: "LC_ENCRYPTION_INFO with cryptid 0"})
	default:
		out = append(out, Mitigation{Name: "encryption", Status: StatusAbsent, Basis: "no LC_ENCRYPTION_INFO load command"})
	}
	f.Mitigations = append(out, f.canaryAndFortify("_")...)
	return nil
}

// machoSectionSlots reads each section header's reserved fields (which
// debug/macho drops) to name symbol stubs and pointer slots after the
// indirect symbols they stand for.
func (f *File) machoSectionSlots(mf *macho.File, seg *macho.Segment) {
	if mf.Dysymtab == nil || mf.Symtab == nil {
		return
	}
	raw := seg.Raw()
	hdr, secSize, nameOff := 56, 68, 0
	if seg.Cmd == macho.LoadCmdSegment64 {
		hdr, secSize = 72, 80
	}
	order := mf.ByteOrder
	for i := 0; i < int(seg.Nsect); i++ {
		s := raw[min(len(raw), hdr+i*secSize):]
		if len(s) < secSize {
			return
		}
		_ = nameOff
		var addr, size uint64
		var flags, res1, res2 uint32
		if secSize == 80 {
			addr, size = order.Uint64(s[32:]), order.Uint64(s[40:])
			flags, res1, res2 = order.Uint32(s[64:]), order.Uint32(s[68:]), order.Uint32(s[72:])
		} else {
			addr, size = uint64(order.Uint32(s[32:])), uint64(order.Uint32(s[36:]))
			flags, res1, res2 = order.Uint32(s[56:]), order.Uint32(s[60:]), order.Uint32(s[64:])
		}
		var stride uint64
		stub := false
		switch flags & sectionTypeMask {
		case sSymbolStubs:
			stride, stub = uint64(res2), true
		case sNonLazyPointers, sLazyPointers:
			stride = uint64(f.Bits / 8)
			if stride == 0 {
				stride = 8
			}
		default:
			continue
		}
		if stride == 0 {
			continue
		}
		for j := uint64(0); j < size/stride && j < 1<<20; j++ {
			k := uint64(res1) + j
			if k >= uint64(len(mf.Dysymtab.IndirectSyms)) {
				break
			}
			idx := mf.Dysymtab.IndirectSyms[k]
			if idx&0xc0000000 != 0 || int(idx) >= len(mf.Symtab.Syms) {
				continue
			}
			name := mf.Symtab.Syms[idx].Name
			if stub {
				f.thunks[Addr(addr+j*stride)] = name
			} else {
				f.slots[Addr(addr+j*stride)] = name
			}
		}
	}
}

func unixThreadPC(raw []byte, order binary.ByteOrder, cpu macho.Cpu) (uint64, bool) {
	if len(raw) < 16 {
		return 0, false
	}
	regs := raw[16:]
	switch cpu {
	case macho.CpuAmd64:
		if len(regs) >= 17*8 {
			return order.Uint64(regs[16*8:]), true
		}
	case macho.CpuArm64:
		if len(regs) >= 33*8 {
			return order.Uint64(regs[32*8:]), true
		}
	case macho.Cpu386:
		if len(regs) >= 11*4 {
			return uint64(order.Uint32(regs[10*4:])), true
		}
	}
	return 0, false
}
