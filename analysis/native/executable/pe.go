package executable

import (
	"debug/pe"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

const (
	peDirExport    = 0
	peDirImport    = 1
	peDirException = 3
	peDirSecurity  = 4
	peDirBaseReloc = 5
	peDirLoadCfg   = 10
)

func (f *File) openPE(r io.ReaderAt, size int64) error {
	var hdr [0x40]byte
	if n, _ := r.ReadAt(hdr[:], 0); n < 0x40 {
		return malformed("the DOS header is truncated (%d of 64 bytes)", n)
	}
	peOff := int64(binary.LittleEndian.Uint32(hdr[0x3c:]))
	var coff [24]byte
	if n, _ := r.ReadAt(coff[:], peOff); n < 24 || string(coff[:4]) != "PE\x00\x00" {
		return malformed("no PE signature at offset %d (e_lfanew)", peOff)
	}
	if n := int(binary.LittleEndian.Uint16(coff[6:])); n > f.limits.MaxSections {
		return tooMany("sections", n, f.limits.MaxSections, "max_sections")
	}
	if n := int64(binary.LittleEndian.Uint32(coff[16:])); n > size {
		return malformed("the COFF header declares %d symbols, more than the file has bytes", n)
	}
	pf, err := pe.NewFile(r)
	if err != nil {
		return malformed("%v", err)
	}
	f.Format, f.r, f.size, f.order, f.ByteOrder = FormatPE, r, size, binary.LittleEndian, "little"
	var (
		imageBase uint64
		entry     uint32
		dllChars  uint16
		dirs      []pe.DataDirectory
		subsys    uint16
		is64      bool
	)
	switch oh := pf.OptionalHeader.(type) {
	case *pe.OptionalHeader64:
		imageBase, entry, dllChars, dirs, subsys, is64 = oh.ImageBase, oh.AddressOfEntryPoint, oh.DllCharacteristics, oh.DataDirectory[:min(int(oh.NumberOfRvaAndSizes), 16)], oh.Subsystem, true
	case *pe.OptionalHeader32:
		imageBase, entry, dllChars, dirs, subsys = uint64(oh.ImageBase), oh.AddressOfEntryPoint, oh.DllCharacteristics, oh.DataDirectory[:min(int(oh.NumberOfRvaAndSizes), 16)], oh.Subsystem
	default:
		return malformed("the PE file has no optional header (an object file, not an image)")
	}
	_ = subsys
	f.Bits = 32
	if is64 {
		f.Bits = 64
	}
	f.ImageBase = Addr(imageBase)
	switch pf.Machine {
	case pe.IMAGE_FILE_MACHINE_AMD64:
		f.Architecture = "x86_64"
	case pe.IMAGE_FILE_MACHINE_I386:
		f.Architecture = "x86"
	case pe.IMAGE_FILE_MACHINE_ARM64:
		f.Architecture = "arm64"
	case pe.IMAGE_FILE_MACHINE_ARMNT, pe.IMAGE_FILE_MACHINE_ARM:
		f.Architecture = "arm"
	default:
		f.Architecture = fmt.Sprintf("pe-machine-%#x", pf.Machine)
	}
	f.Type = "executable"
	if pf.Characteristics&pe.IMAGE_FILE_DLL != 0 {
		f.Type = "shared-library"
	}
	if entry != 0 {
		e := Addr(imageBase + uint64(entry))
		f.Entry = &e
	}
	for _, s := range pf.Sections {
		c := s.Characteristics
		fileSize := int64(min(s.Size, max(s.VirtualSize, s.Size)))
		if s.VirtualSize != 0 && s.VirtualSize < s.Size {
			fileSize = int64(s.VirtualSize)
		}
		if fileSize > 0 && int64(s.Offset)+fileSize > size {
			return malformed("section %q claims bytes %d..%d past the end of the %d-byte file", s.Name, s.Offset, int64(s.Offset)+fileSize, size).WithDetail("section", s.Name)
		}
		memSize := uint64(s.VirtualSize)
		if memSize == 0 {
			memSize = uint64(s.Size)
		}
		p := perms(c&pe.IMAGE_SCN_MEM_READ != 0, c&pe.IMAGE_SCN_MEM_WRITE != 0, c&pe.IMAGE_SCN_MEM_EXECUTE != 0)
		kind := "data"
		switch {
		case c&pe.IMAGE_SCN_CNT_CODE != 0:
			kind = "code"
		case c&pe.IMAGE_SCN_CNT_UNINITIALIZED_DATA != 0:
			kind = "bss"
		}
		addr := Addr(imageBase + uint64(s.VirtualAddress))
		f.Sections = append(f.Sections, Section{Name: s.Name, Address: addr, Size: memSize, FileOffset: int64(s.Offset), FileSize: fileSize,
			Permissions: p, Kind: kind, Loaded: true, Code: c&(pe.IMAGE_SCN_CNT_CODE|pe.IMAGE_SCN_MEM_EXECUTE) != 0})
		f.Segments = append(f.Segments, Segment{Name: s.Name, Kind: "section", Address: addr, MemorySize: memSize, FileOffset: int64(s.Offset), FileSize: fileSize, Permissions: p})
	}
	// The headers are mapped too; RVAs below the first section point there.
	if len(pf.COFFSymbols) > f.limits.MaxSymbols {
		return tooMany("symbols", len(pf.COFFSymbols), f.limits.MaxSymbols, "max_symbols")
	}
	for _, s := range pf.Symbols {
		if s.SectionNumber <= 0 || int(s.SectionNumber) > len(pf.Sections) || s.StorageClass == 103 /* FILE */ {
			continue
		}
		sec := f.Sections[s.SectionNumber-1]
		kind := "object"
		if s.Type&0xf0 == 0x20 || sec.Code {
			kind = "function"
		}
		if s.StorageClass == 3 && s.Value == 0 && strings.HasPrefix(s.Name, ".") {
			kind = "section"
		}
		bind := "global"
		if s.StorageClass == 3 {
			bind = "local"
		}
		f.Symbols = append(f.Symbols, Symbol{Name: s.Name, Address: sec.Address + Addr(s.Value), Kind: kind, Binding: bind, Table: "coff", Defined: true})
	}
	if len(dirs) > peDirImport {
		if err := f.peImports(dirs[peDirImport], is64); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, im := range f.Imports {
		if im.Library != "" && !seen[im.Library] {
			seen[im.Library] = true
			f.Libraries = append(f.Libraries, im.Library)
		}
	}
	if len(dirs) > peDirExport {
		if err := f.peExports(dirs[peDirExport]); err != nil {
			return err
		}
	}
	if len(dirs) > peDirBaseReloc {
		if err := f.peRelocations(dirs[peDirBaseReloc]); err != nil {
			return err
		}
	}
	if len(dirs) > peDirException {
		f.exceptionRVA, f.exceptionSize = dirs[peDirException].VirtualAddress, dirs[peDirException].Size
	}
	f.Mitigations = f.peMitigations(dllChars, dirs, is64)
	return nil
}

// rva reads n bytes at a relative virtual address.
func (f *File) rva(rva uint32, n int) ([]byte, error) {
	return f.ReadAt(f.ImageBase+Addr(rva), n)
}

func (f *File) cstringAt(rva uint32) string {
	b, err := f.rva(rva, 512)
	if err != nil {
		return ""
	}
	if i := indexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// peImports walks the import descriptors so each import knows its IAT
// slot; calls through that slot are then named after the import.
func (f *File) peImports(dir pe.DataDirectory, is64 bool) error {
	if dir.VirtualAddress == 0 || dir.Size == 0 {
		return nil
	}
	ptr := 4
	if is64 {
		ptr = 8
	}
	for i := 0; ; i++ {
		d, err := f.rva(dir.VirtualAddress+uint32(i*20), 20)
		if err != nil || len(d) < 20 {
			f.Limitations = append(f.Limitations, "the import directory runs past its section; imports after descriptor "+fmt.Sprint(i)+" are not listed")
			return nil
		}
		ilt, nameRVA, iat := binary.LittleEndian.Uint32(d), binary.LittleEndian.Uint32(d[12:]), binary.LittleEndian.Uint32(d[16:])
		if ilt == 0 && nameRVA == 0 && iat == 0 {
			return nil
		}
		lib := f.cstringAt(nameRVA)
		if ilt == 0 {
			ilt = iat
		}
		for j := 0; ; j++ {
			if len(f.Imports) >= f.limits.MaxImports {
				return tooMany("imports", len(f.Imports)+1, f.limits.MaxImports, "max_imports")
			}
			e, err := f.rva(ilt+uint32(j*ptr), ptr)
			if err != nil || len(e) < ptr {
				break
			}
			var v uint64
			var byOrdinal bool
			if is64 {
				v = binary.LittleEndian.Uint64(e)
				byOrdinal = v&(1<<63) != 0
			} else {
				v = uint64(binary.LittleEndian.Uint32(e))
				byOrdinal = v&(1<<31) != 0
			}
			if v == 0 {
				break
			}
			name := ""
			if byOrdinal {
				name = fmt.Sprintf("ordinal_%d", v&0xffff)
			} else {
				name = f.cstringAt(uint32(v) + 2)
			}
			slot := f.ImageBase + Addr(iat) + Addr(j*ptr)
			f.Imports = append(f.Imports, Import{Name: name, Library: lib, Slot: &slot})
			f.slots[slot] = lib + "!" + name
		}
	}
}

func (f *File) peExports(dir pe.DataDirectory) error {
	if dir.VirtualAddress == 0 || dir.Size < 40 {
		return nil
	}
	d, err := f.rva(dir.VirtualAddress, 40)
	if err != nil || len(d) < 40 {
		f.Limitations = append(f.Limitations, "the export directory is not backed by file bytes; exports are not listed")
		return nil
	}
	nFuncs, nNames := binary.LittleEndian.Uint32(d[20:]), binary.LittleEndian.Uint32(d[24:])
	funcs, names, ords := binary.LittleEndian.Uint32(d[28:]), binary.LittleEndian.Uint32(d[32:]), binary.LittleEndian.Uint32(d[36:])
	if int(nNames) > f.limits.MaxImports || int(nFuncs) > f.limits.MaxImports {
		return tooMany("exports", int(max(nNames, nFuncs)), f.limits.MaxImports, "max_imports")
	}
	for i := uint32(0); i < nNames; i++ {
		nb, err1 := f.rva(names+4*i, 4)
		ob, err2 := f.rva(ords+2*i, 2)
		if err1 != nil || err2 != nil || len(nb) < 4 || len(ob) < 2 {
			break
		}
		ord := uint32(binary.LittleEndian.Uint16(ob))
		if ord >= nFuncs {
			continue
		}
		fb, err := f.rva(funcs+4*ord, 4)
		if err != nil || len(fb) < 4 {
			continue
		}
		name := f.cstringAt(binary.LittleEndian.Uint32(nb))
		f.Exports = append(f.Exports, Export{Name: name, Address: f.ImageBase + Addr(binary.LittleEndian.Uint32(fb))})
	}
	return nil
}

func (f *File) peRelocations(dir pe.DataDirectory) error {
	if dir.VirtualAddress == 0 || dir.Size == 0 {
		return nil
	}
	data, err := f.rva(dir.VirtualAddress, int(min(dir.Size, 64<<20)))
	if err != nil {
		f.Limitations = append(f.Limitations, "the base relocation directory is not backed by file bytes")
		return nil
	}
	names := map[uint16]string{0: "IMAGE_REL_BASED_ABSOLUTE", 1: "IMAGE_REL_BASED_HIGH", 2: "IMAGE_REL_BASED_LOW", 3: "IMAGE_REL_BASED_HIGHLOW", 10: "IMAGE_REL_BASED_DIR64"}
	for len(data) >= 8 {
		blk := int(binary.LittleEndian.Uint32(data[4:]))
		if blk < 8 || blk > len(data) {
			break
		}
		for i := 8; i+2 <= blk; i += 2 {
			t := binary.LittleEndian.Uint16(data[i:]) >> 12
			n, ok := names[t]
			if !ok {
				n = fmt.Sprintf("type_%d", t)
			}
			f.Relocations.Count++
			if f.Relocations.ByType == nil {
				f.Relocations.ByType = map[string]int{}
			}
			f.Relocations.ByType[n]++
			if f.Relocations.Count > f.limits.MaxRelocations {
				return tooMany("relocations", f.Relocations.Count, f.limits.MaxRelocations, "max_relocations")
			}
		}
		data = data[blk:]
	}
	return nil
}

func (f *File) peMitigations(dc uint16, dirs []pe.DataDirectory, is64 bool) []Mitigation {
	flag := func(name string, bit uint16, what string) Mitigation {
		if dc&bit != 0 {
			return Mitigation{Name: name, Status: StatusObserved, Basis: fmt.Sprintf("DllCharacteristics has %s (%#x)", what, bit)}
		}
		return Mitigation{Name: name, Status: StatusAbsent, Basis: fmt.Sprintf("DllCharacteristics (%#x) lacks %s", dc, what)}
	}
	out := []Mitigation{
		flag("aslr", pe.IMAGE_DLLCHARACTERISTICS_DYNAMIC_BASE, "DYNAMIC_BASE"),
	}
	if is64 {
		out = append(out, flag("high_entropy_va", pe.IMAGE_DLLCHARACTERISTICS_HIGH_ENTROPY_VA, "HIGH_ENTROPY_VA"))
	}
	out = append(out, flag("dep", pe.IMAGE_DLLCHARACTERISTICS_NX_COMPAT, "NX_COMPAT"), flag("cfg", pe.IMAGE_DLLCHARACTERISTICS_GUARD_CF, "GUARD_CF"))
	switch {
	case is64 || f.Architecture != "x86":
		out = append(out, Mitigation{Name: "safeseh", Status: StatusObserved, Value: "not-applicable", Basis: "only 32-bit x86 images register exception handlers; others use table-based unwinding"})
	case dc&pe.IMAGE_DLLCHARACTERISTICS_NO_SEH != 0:
		out = append(out, Mitigation{Name: "safeseh", Status: StatusObserved, Value: "no-seh", Basis: "DllCharacteristics has NO_SEH: the image uses no structured exception handlers"})
	default:
		m := Mitigation{Name: "safeseh", Status: StatusAbsent, Basis: "no load configuration with a SafeSEH handler table"}
		if len(dirs) > peDirLoadCfg && dirs[peDirLoadCfg].VirtualAddress != 0 {
			if b, err := f.rva(dirs[peDirLoadCfg].VirtualAddress, 0x48); err == nil && len(b) >= 0x48 {
				if n := binary.LittleEndian.Uint32(b[0x44:]); binary.LittleEndian.Uint32(b[0x40:]) != 0 && n > 0 {
					m = Mitigation{Name: "safeseh", Status: StatusObserved, Value: fmt.Sprintf("%d handlers", n), Basis: "the load configuration registers a SafeSEH handler table"}
				}
			}
		}
		out = append(out, m)
	}
	if len(dirs) > peDirSecurity && dirs[peDirSecurity].Size > 0 {
		out = append(out, Mitigation{Name: "signature", Status: StatusObserved, Value: "present-unverified", Basis: fmt.Sprintf("certificate table of %d bytes at file offset %d (Authenticode not verified)", dirs[peDirSecurity].Size, dirs[peDirSecurity].VirtualAddress)})
	} else {
		out = append(out, Mitigation{Name: "signature", Status: StatusAbsent, Basis: "the security (certificate table) data directory is empty"})
	}
	out = append(out, f.canaryAndFortify("")[:1]...)
	return out
}
