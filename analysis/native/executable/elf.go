package executable

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/arch/arm64/arm64asm"
	"golang.org/x/arch/x86/x86asm"
)

func (f *File) openELF(r io.ReaderAt, size int64) error {
	// Check the declared table sizes before debug/elf allocates for them.
	var ident [64]byte
	n, _ := r.ReadAt(ident[:], 0)
	if n < 52 {
		return malformed("the ELF header is truncated (%d of at least 52 bytes)", n)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if ident[elf.EI_DATA] == byte(elf.ELFDATA2MSB) {
		order = binary.BigEndian
	}
	var phnum, shnum int
	switch elf.Class(ident[elf.EI_CLASS]) {
	case elf.ELFCLASS64:
		if n < 64 {
			return malformed("the ELF64 header is truncated (%d of 64 bytes)", n)
		}
		phnum, shnum = int(order.Uint16(ident[56:])), int(order.Uint16(ident[60:]))
	case elf.ELFCLASS32:
		phnum, shnum = int(order.Uint16(ident[44:])), int(order.Uint16(ident[48:]))
	default:
		return malformed("unknown ELF class %d", ident[elf.EI_CLASS])
	}
	if shnum > f.limits.MaxSections {
		return tooMany("sections", shnum, f.limits.MaxSections, "max_sections")
	}
	if phnum > f.limits.MaxSegments {
		return tooMany("program headers", phnum, f.limits.MaxSegments, "max_segments")
	}
	ef, err := elf.NewFile(r)
	if err != nil {
		return malformed("%v", err)
	}
	f.Format, f.r, f.size, f.order = FormatELF, r, size, ef.ByteOrder
	f.ByteOrder = "little"
	if ef.ByteOrder == binary.BigEndian {
		f.ByteOrder = "big"
	}
	f.Bits = 32
	if ef.Class == elf.ELFCLASS64 {
		f.Bits = 64
	}
	f.Architecture = elfArch(ef.Machine)
	switch ef.Type {
	case elf.ET_EXEC:
		f.Type = "executable"
	case elf.ET_DYN:
		f.Type = "shared-library"
		if ef.Section(".interp") != nil || hasProg(ef, elf.PT_INTERP) {
			f.Type = "executable"
		}
	case elf.ET_REL:
		f.Type = "relocatable"
	case elf.ET_CORE:
		f.Type = "core"
	default:
		f.Type = "other"
	}
	if ef.Entry != 0 || ef.Type == elf.ET_EXEC {
		e := Addr(ef.Entry)
		f.Entry = &e
	}
	for _, s := range ef.Sections {
		if s.Type == elf.SHT_NULL {
			continue
		}
		alloc := s.Flags&elf.SHF_ALLOC != 0
		fileSize := int64(s.FileSize) // compressed sections hold fewer bytes than Size
		if s.Type == elf.SHT_NOBITS {
			fileSize = 0
		}
		if fileSize > 0 && (s.Offset > uint64(size) || s.Offset+s.FileSize > uint64(size) || s.Offset+s.FileSize < s.Offset) {
			return malformed("section %q claims bytes %d..%d past the end of the %d-byte file", s.Name, s.Offset, s.Offset+s.FileSize, size).WithDetail("section", s.Name)
		}
		kind := strings.TrimPrefix(s.Type.String(), "SHT_")
		if s.Flags&elf.SHF_COMPRESSED != 0 {
			kind += ",compressed"
		}
		f.Sections = append(f.Sections, Section{Name: s.Name, Address: Addr(s.Addr), Size: s.Size, FileOffset: int64(s.Offset), FileSize: fileSize,
			Permissions: perms(alloc, s.Flags&elf.SHF_WRITE != 0, s.Flags&elf.SHF_EXECINSTR != 0),
			Kind:        kind, Loaded: alloc && s.Addr != 0 || alloc && ef.Type == elf.ET_DYN,
			Code: alloc && s.Flags&elf.SHF_EXECINSTR != 0})
	}
	for _, p := range ef.Progs {
		f.Segments = append(f.Segments, Segment{Name: strings.TrimPrefix(p.Type.String(), "PT_"), Kind: strings.TrimPrefix(p.Type.String(), "PT_"),
			Address: Addr(p.Vaddr), MemorySize: p.Memsz, FileOffset: int64(p.Off), FileSize: int64(p.Filesz),
			Permissions: perms(p.Flags&elf.PF_R != 0, p.Flags&elf.PF_W != 0, p.Flags&elf.PF_X != 0)})
		if p.Type == elf.PT_INTERP && p.Filesz > 0 && p.Filesz < 4096 {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err == nil {
				f.Interpreter = strings.TrimRight(string(b), "\x00")
			}
		}
	}
	if len(f.Sections) == 0 {
		f.sectionsFromSegments(ef)
	}
	dyn, err := f.elfSymbols(ef)
	if err != nil {
		return err
	}
	libs, _ := ef.ImportedLibraries()
	f.Libraries = libs
	if v, err := ef.DynString(elf.DT_RPATH); err == nil {
		f.RPath = v
	}
	if v, err := ef.DynString(elf.DT_RUNPATH); err == nil {
		f.RunPath = v
	}
	if err := f.elfRelocations(ef, dyn); err != nil {
		return err
	}
	f.elfThunks()
	f.Mitigations = f.elfMitigations(ef)
	return nil
}

func hasProg(ef *elf.File, t elf.ProgType) bool {
	for _, p := range ef.Progs {
		if p.Type == t {
			return true
		}
	}
	return false
}

func elfArch(m elf.Machine) string {
	switch m {
	case elf.EM_X86_64:
		return "x86_64"
	case elf.EM_386:
		return "x86"
	case elf.EM_AARCH64:
		return "arm64"
	case elf.EM_ARM:
		return "arm"
	}
	return strings.ToLower(strings.TrimPrefix(m.String(), "EM_"))
}

func elfSymKind(t elf.SymType) string {
	switch t {
	case elf.STT_FUNC, elf.STT_GNU_IFUNC:
		return "function"
	case elf.STT_OBJECT, elf.STT_COMMON:
		return "object"
	case elf.STT_SECTION:
		return "section"
	case elf.STT_FILE:
		return "file"
	case elf.STT_TLS:
		return "tls"
	}
	return "other"
}

func elfBinding(b elf.SymBind) string {
	switch b {
	case elf.STB_LOCAL:
		return "local"
	case elf.STB_GLOBAL:
		return "global"
	case elf.STB_WEAK:
		return "weak"
	}
	return "other"
}

// elfSymbols reads both symbol tables and returns the dynamic one, which
// the relocations name their symbols in.
func (f *File) elfSymbols(ef *elf.File) (dyn []elf.Symbol, err error) {
	for _, table := range []struct {
		name string
		sec  elf.SectionType
		read func() ([]elf.Symbol, error)
	}{{"symtab", elf.SHT_SYMTAB, ef.Symbols}, {"dynsym", elf.SHT_DYNSYM, ef.DynamicSymbols}} {
		if s := ef.SectionByType(table.sec); s != nil && s.Entsize > 0 {
			if n := s.Size / s.Entsize; n > uint64(f.limits.MaxSymbols) {
				return nil, tooMany("symbols in ."+table.name, int(min(n, 1<<31)), f.limits.MaxSymbols, "max_symbols")
			}
		}
		syms, err := table.read()
		if err != nil {
			if err == elf.ErrNoSymbols {
				continue
			}
			return nil, malformed("reading .%s: %v", table.name, err)
		}
		if len(f.Symbols)+len(syms) > f.limits.MaxSymbols {
			return nil, tooMany("symbols", len(f.Symbols)+len(syms), f.limits.MaxSymbols, "max_symbols")
		}
		if table.name == "dynsym" {
			dyn = syms
		}
		f.Symbols = slices.Grow(f.Symbols, len(syms))
		for _, s := range syms {
			kind := elfSymKind(elf.ST_TYPE(s.Info))
			if s.Name == "" && kind != "function" {
				continue
			}
			defined := s.Section != elf.SHN_UNDEF
			sym := Symbol{Name: s.Name, Address: Addr(s.Value), Size: s.Size, Kind: kind, Binding: elfBinding(elf.ST_BIND(s.Info)), Table: table.name, Defined: defined}
			f.Symbols = append(f.Symbols, sym)
			if table.name != "dynsym" {
				continue
			}
			if !defined && s.Name != "" {
				lib := s.Library
				f.Imports = append(f.Imports, Import{Name: s.Name, Library: lib})
			} else if defined && sym.Binding != "local" && (kind == "function" || kind == "object") {
				f.Exports = append(f.Exports, Export{Name: s.Name, Address: sym.Address})
			}
		}
	}
	return dyn, nil
}

// elfRelocations counts relocation entries by type and records which
// GOT slot each imported symbol is bound to. A large binary has hundreds of
// thousands of them, so types are counted by number and named once each.
func (f *File) elfRelocations(ef *elf.File, dyn []elf.Symbol) error {
	byType := map[uint32]int{}
	total := 0
	for _, s := range ef.Sections {
		if s.Type != elf.SHT_RELA && s.Type != elf.SHT_REL {
			continue
		}
		entsize := uint64(8)
		switch {
		case ef.Class == elf.ELFCLASS64 && s.Type == elf.SHT_RELA:
			entsize = 24
		case ef.Class == elf.ELFCLASS64:
			entsize = 16
		case s.Type == elf.SHT_RELA:
			entsize = 12
		}
		n := int(min(s.Size/entsize, 1<<31))
		total += n
		if total > f.limits.MaxRelocations {
			return tooMany("relocations", total, f.limits.MaxRelocations, "max_relocations")
		}
		if s.Offset+s.Size > uint64(f.size) {
			return malformed("relocation section %q lies past the end of the file", s.Name)
		}
		data, err := s.Data()
		if err != nil {
			return malformed("reading %s: %v", s.Name, err)
		}
		dynamicSyms := ef.Sections[s.Link%uint32(len(ef.Sections))].Type == elf.SHT_DYNSYM
		for i := 0; i+int(entsize) <= len(data); i += int(entsize) {
			var off uint64
			var typ, sym uint32
			if ef.Class == elf.ELFCLASS64 {
				off = f.order.Uint64(data[i:])
				info := f.order.Uint64(data[i+8:])
				typ, sym = uint32(info), uint32(info>>32)
			} else {
				off = uint64(f.order.Uint32(data[i:]))
				info := f.order.Uint32(data[i+4:])
				typ, sym = info&0xff, info>>8
			}
			f.Relocations.Count++
			byType[typ]++
			if dynamicSyms && sym > 0 && int(sym) <= len(dyn) {
				if name := dyn[sym-1].Name; name != "" {
					f.slots[Addr(off)] = name
				}
			}
		}
	}
	for typ, n := range byType {
		if f.Relocations.ByType == nil {
			f.Relocations.ByType = map[string]int{}
		}
		f.Relocations.ByType[elfRelocName(ef.Machine, typ)] += n
	}
	// Each import's slot is the lowest one bound to its name.
	lowest := map[string]Addr{}
	for slot, name := range f.slots {
		if s, ok := lowest[name]; !ok || slot < s {
			lowest[name] = slot
		}
	}
	for i := range f.Imports {
		if s, ok := lowest[f.Imports[i].Name]; ok {
			f.Imports[i].Slot = &s
		}
	}
	return nil
}

func elfRelocName(m elf.Machine, t uint32) string {
	switch m {
	case elf.EM_X86_64:
		return elf.R_X86_64(t).String()
	case elf.EM_AARCH64:
		return elf.R_AARCH64(t).String()
	case elf.EM_386:
		return elf.R_386(t).String()
	case elf.EM_ARM:
		return elf.R_ARM(t).String()
	}
	return fmt.Sprintf("type_%d", t)
}

// elfThunks names PLT entries after the import whose GOT slot they jump
// through, the way objdump shows "puts@plt".
func (f *File) elfThunks() {
	for i := range f.Sections {
		s := &f.Sections[i]
		if !strings.HasPrefix(s.Name, ".plt") || s.FileSize == 0 || s.FileSize > 16<<20 {
			continue
		}
		data, err := f.sectionBytes(s, nil)
		if err != nil {
			continue
		}
		entry := uint64(16)
		if s.Name == ".plt.got" && f.Architecture == "x86_64" && s.Size%16 != 0 {
			entry = 8
		}
		for _, ref := range pltSlots(f.Architecture, s.Address, data) {
			name, ok := f.slots[ref.slot]
			if !ok {
				continue
			}
			start := s.Address + Addr((uint64(ref.at-s.Address)/entry)*entry)
			if _, taken := f.thunks[start]; !taken {
				f.thunks[start] = name
			}
		}
	}
}

type slotRef struct{ at, slot Addr }

// pltSlots decodes a stub section and reports every memory slot an
// indirect jump goes through.
func pltSlots(arch string, base Addr, code []byte) []slotRef {
	var out []slotRef
	switch arch {
	case "x86_64", "x86":
		mode := 64
		if arch == "x86" {
			mode = 32
		}
		for off := 0; off < len(code); {
			inst, err := x86asm.Decode(code[off:], mode)
			if err != nil || inst.Len == 0 {
				off++
				continue
			}
			pc := base + Addr(off)
			if inst.Op == x86asm.JMP {
				if m, ok := inst.Args[0].(x86asm.Mem); ok && m.Base == x86asm.RIP {
					out = append(out, slotRef{pc, pc + Addr(inst.Len) + Addr(m.Disp)})
				} else if ok && m.Base == 0 && m.Index == 0 {
					out = append(out, slotRef{pc, Addr(uint32(m.Disp))})
				}
			}
			off += inst.Len
		}
	case "arm64":
		var page Addr
		var pageReg arm64asm.Reg = 255
		for off := 0; off+4 <= len(code); off += 4 {
			inst, err := arm64asm.Decode(code[off:])
			if err != nil {
				continue
			}
			pc := base + Addr(off)
			switch inst.Op {
			case arm64asm.ADRP:
				if rel, ok := inst.Args[1].(arm64asm.PCRel); ok {
					page = Addr(int64(pc&^0xfff) + int64(rel))
					pageReg = regOf(inst.Args[0])
				}
			case arm64asm.LDR:
				if m, ok := inst.Args[1].(arm64asm.MemImmediate); ok && arm64asm.Reg(m.Base) == pageReg {
					out = append(out, slotRef{pc, page + Addr(memImmOffset(m))})
				}
			}
		}
	}
	return out
}

// elfMitigations decides each hardening property from the headers.
func (f *File) elfMitigations(ef *elf.File) []Mitigation {
	var out []Mitigation
	// NX
	var stack *elf.Prog
	for _, p := range ef.Progs {
		if p.Type == elf.PT_GNU_STACK {
			stack = p
		}
	}
	switch {
	case ef.Type == elf.ET_REL || ef.Type == elf.ET_CORE:
		out = append(out, Mitigation{Name: "nx", Status: StatusUnknown, Basis: "an object or core file has no program headers that decide the stack's permissions"})
	case stack == nil:
		out = append(out, Mitigation{Name: "nx", Status: StatusAbsent, Basis: "no PT_GNU_STACK program header; Linux then maps an executable stack"})
	case stack.Flags&elf.PF_X != 0:
		out = append(out, Mitigation{Name: "nx", Status: StatusAbsent, Basis: "PT_GNU_STACK requests an executable stack (" + perms(true, stack.Flags&elf.PF_W != 0, true) + ")"})
	default:
		out = append(out, Mitigation{Name: "nx", Status: StatusObserved, Basis: "PT_GNU_STACK requests a non-executable stack (" + perms(true, stack.Flags&elf.PF_W != 0, false) + ")"})
	}
	// PIE
	flags1, _ := dynValue(ef, elf.DT_FLAGS_1)
	flags, _ := dynValue(ef, elf.DT_FLAGS)
	_, bindNow := dynValue(ef, elf.DT_BIND_NOW)
	switch ef.Type {
	case elf.ET_DYN:
		switch {
		case flags1&uint64(elf.DF_1_PIE) != 0:
			out = append(out, Mitigation{Name: "pie", Status: StatusObserved, Value: "pie", Basis: "ET_DYN with DF_1_PIE in DT_FLAGS_1"})
		case f.Interpreter != "":
			out = append(out, Mitigation{Name: "pie", Status: StatusObserved, Value: "pie", Basis: "ET_DYN with a PT_INTERP interpreter"})
		default:
			out = append(out, Mitigation{Name: "pie", Status: StatusObserved, Value: "shared-object", Basis: "ET_DYN shared object (position independent by construction)"})
		}
	case elf.ET_EXEC:
		out = append(out, Mitigation{Name: "pie", Status: StatusAbsent, Basis: fmt.Sprintf("ET_EXEC loads at its fixed link address (entry %s)", Addr(ef.Entry))})
	default:
		out = append(out, Mitigation{Name: "pie", Status: StatusUnknown, Basis: "not a linked executable or shared object (" + ef.Type.String() + ")"})
	}
	// RELRO
	relro := hasProg(ef, elf.PT_GNU_RELRO)
	now := bindNow || flags&uint64(elf.DF_BIND_NOW) != 0 || flags1&uint64(elf.DF_1_NOW) != 0
	switch {
	case relro && now:
		out = append(out, Mitigation{Name: "relro", Status: StatusObserved, Value: "full", Basis: "PT_GNU_RELRO with immediate binding (BIND_NOW)"})
	case relro:
		out = append(out, Mitigation{Name: "relro", Status: StatusObserved, Value: "partial", Basis: "PT_GNU_RELRO without immediate binding; the PLT GOT stays writable"})
	default:
		out = append(out, Mitigation{Name: "relro", Status: StatusAbsent, Basis: "no PT_GNU_RELRO program header"})
	}
	out = append(out, f.canaryAndFortify("")...)
	out = append(out, f.elfCET(ef))
	for _, rp := range []struct {
		name string
		vals []string
		tag  string
	}{{"rpath", f.RPath, "DT_RPATH"}, {"runpath", f.RunPath, "DT_RUNPATH"}} {
		if len(rp.vals) > 0 {
			out = append(out, Mitigation{Name: rp.name, Status: StatusObserved, Value: strings.Join(rp.vals, ":"), Basis: rp.tag + " entry in the dynamic section (library search path set by the binary)"})
		} else {
			out = append(out, Mitigation{Name: rp.name, Status: StatusAbsent, Basis: "no " + rp.tag + " entry in the dynamic section"})
		}
	}
	return out
}

func dynValue(ef *elf.File, tag elf.DynTag) (uint64, bool) {
	vals, err := ef.DynValue(tag)
	if err != nil || len(vals) == 0 {
		return 0, false
	}
	return vals[0], true
}

// elfCET reads the GNU property note: x86 IBT/SHSTK or arm64 BTI/PAC.
func (f *File) elfCET(ef *elf.File) Mitigation {
	const (
		ntGNUPropertyType0 = 5
		x86Feature1And     = 0xc0000002
		aarch64Feature1And = 0xc0000000
	)
	s := ef.Section(".note.gnu.property")
	if s == nil || s.Size > 1<<16 {
		return Mitigation{Name: "cet_ibt", Status: StatusAbsent, Basis: "no .note.gnu.property note declaring control-flow protection"}
	}
	data, err := s.Data()
	if err != nil {
		return Mitigation{Name: "cet_ibt", Status: StatusUnknown, Basis: ".note.gnu.property is unreadable"}
	}
	align := 8
	if ef.Class == elf.ELFCLASS32 {
		align = 4
	}
	pad := func(n int) int { return (n + align - 1) &^ (align - 1) }
	for len(data) >= 12 {
		namesz, descsz, typ := int(f.order.Uint32(data)), int(f.order.Uint32(data[4:])), f.order.Uint32(data[8:])
		descOff := pad(12 + namesz)
		if namesz < 0 || descsz < 0 || descOff+descsz > len(data) {
			break
		}
		desc := data[descOff : descOff+descsz]
		if typ == ntGNUPropertyType0 {
			for len(desc) >= 8 {
				pt, sz := f.order.Uint32(desc), int(f.order.Uint32(desc[4:]))
				if sz < 0 || 8+sz > len(desc) {
					break
				}
				if (pt == x86Feature1And || pt == aarch64Feature1And) && sz >= 4 {
					bits := f.order.Uint32(desc[8:])
					var names []string
					if pt == x86Feature1And {
						if bits&1 != 0 {
							names = append(names, "ibt")
						}
						if bits&2 != 0 {
							names = append(names, "shstk")
						}
					} else {
						if bits&1 != 0 {
							names = append(names, "bti")
						}
						if bits&2 != 0 {
							names = append(names, "pac")
						}
					}
					if len(names) > 0 && (names[0] == "ibt" || names[0] == "bti") {
						return Mitigation{Name: "cet_ibt", Status: StatusObserved, Value: strings.Join(names, ","), Basis: fmt.Sprintf("GNU property FEATURE_1_AND = %#x", bits)}
					}
					return Mitigation{Name: "cet_ibt", Status: StatusAbsent, Value: strings.Join(names, ","), Basis: fmt.Sprintf("GNU property FEATURE_1_AND = %#x lacks the indirect-branch-tracking bit", bits)}
				}
				desc = desc[min(len(desc), pad(8+sz)):]
			}
		}
		data = data[min(len(data), pad(descOff+descsz)):]
	}
	return Mitigation{Name: "cet_ibt", Status: StatusAbsent, Basis: ".note.gnu.property declares no FEATURE_1_AND property"}
}

// sectionsFromSegments stands loadable segments in for the sections of a
// file whose section headers were removed (sstrip, packers): the loader
// never needs them, so analysis must not either.
func (f *File) sectionsFromSegments(ef *elf.File) {
	for i, p := range ef.Progs {
		if p.Type != elf.PT_LOAD || p.Memsz == 0 {
			continue
		}
		if p.Off > uint64(f.size) || p.Off+p.Filesz > uint64(f.size) {
			continue
		}
		f.Sections = append(f.Sections, Section{Name: fmt.Sprintf("segment[%d]", i), Address: Addr(p.Vaddr), Size: p.Memsz,
			FileOffset: int64(p.Off), FileSize: int64(p.Filesz), Permissions: perms(p.Flags&elf.PF_R != 0, p.Flags&elf.PF_W != 0, p.Flags&elf.PF_X != 0),
			Kind: "LOAD", Loaded: true, Code: p.Flags&elf.PF_X != 0})
	}
	if len(f.Sections) > 0 {
		f.Limitations = append(f.Limitations, "the file has no section headers; its loadable segments stand in for sections")
	}
}
