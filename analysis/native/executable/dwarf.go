package executable

import (
	"debug/dwarf"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"rea/abi"
)

// maxDebugBytes bounds the debug sections debug/dwarf reads into memory
// (uncompressed); a binary with more is answered without DWARF.
const maxDebugBytes = 384 << 20

// ErrNoDWARF says the binary carries no debug information.
var ErrNoDWARF = errors.New("the binary has no DWARF debug information")

// DWARF opens the binary's debug information once. It is nil with
// ErrNoDWARF when there is none, and a typed error when it is malformed or
// larger than rea reads.
func (f *File) DWARF() (d *dwarf.Data, err error) {
	if f.dwarfDone {
		return f.dwarf, f.dwarfErr
	}
	f.dwarfDone = true
	defer func() {
		if r := recover(); r != nil {
			err = malformed("the DWARF debug information is malformed: %v", r)
		}
		f.dwarf, f.dwarfErr = d, err
	}()
	var total uint64
	has := false
	for _, s := range f.Sections {
		n := strings.TrimPrefix(strings.TrimPrefix(s.Name, "__DWARF,"), ".")
		if strings.HasPrefix(n, "debug_") || strings.HasPrefix(n, "zdebug_") || strings.HasPrefix(n, "__debug_") || strings.HasPrefix(n, "__zdebug_") {
			total += s.Size
			has = has || strings.Contains(n, "debug_info")
		}
	}
	if !has {
		return nil, ErrNoDWARF
	}
	if total > maxDebugBytes {
		return nil, abi.Errorf(abi.CodeResourceConstraint, "the debug sections hold %d bytes, above rea's fixed %d-byte limit for DWARF", total, maxDebugBytes).WithDetail("limit", "max_debug_bytes")
	}
	var r io.ReaderAt = f.r
	switch f.Format {
	case FormatELF:
		ef, e := elf.NewFile(r)
		if e != nil {
			return nil, malformed("%v", e)
		}
		d, err = ef.DWARF()
	case FormatMachO, FormatMachOUniversal:
		mf, e := macho.NewFile(r)
		if e != nil {
			return nil, malformed("%v", e)
		}
		d, err = mf.DWARF()
	case FormatPE:
		pf, e := pe.NewFile(r)
		if e != nil {
			return nil, malformed("%v", e)
		}
		d, err = pf.DWARF()
	default:
		return nil, ErrNoDWARF
	}
	if err != nil {
		return nil, malformed("the DWARF debug information cannot be read: %v", err)
	}
	return d, nil
}

// hasFunctionSymbols says a symbol table names functions.
func (f *File) hasFunctionSymbols() bool {
	for _, s := range f.Symbols {
		if s.Defined && s.Kind == "function" && (s.Table == "symtab" || s.Table == "macho-symtab" || s.Table == "coff") {
			return true
		}
	}
	return false
}

// DWARFFunctions lists DW_TAG_subprogram entries with code: a stripped
// symbol table's functions when debug information was kept apart from it.
func (f *File) DWARFFunctions() (out []FunctionStart, notes []string) {
	d, err := f.DWARF()
	if err != nil {
		if !errors.Is(err, ErrNoDWARF) {
			notes = append(notes, "DWARF subprograms are not listed: "+err.Error())
		}
		return nil, notes
	}
	defer func() {
		if r := recover(); r != nil {
			notes = append(notes, fmt.Sprintf("reading DWARF subprograms stopped: %v", r))
		}
	}()
	rd := d.Reader()
	for {
		e, err := rd.Next()
		if err != nil {
			notes = append(notes, "reading DWARF subprograms stopped: "+err.Error())
			break
		}
		if e == nil {
			break
		}
		if e.Tag != dwarf.TagSubprogram {
			continue
		}
		lo, hi, ok := entryRange(e)
		if !ok || hi <= lo {
			continue
		}
		if len(out) >= f.limits.MaxSymbols {
			notes = append(notes, fmt.Sprintf("DWARF describes more than %d subprograms; the rest are not listed", f.limits.MaxSymbols))
			break
		}
		out = append(out, FunctionStart{Address: Addr(lo), Size: hi - lo, Name: entryName(e), Source: SourceDWARF})
	}
	return out, notes
}

// entryRange is an entry's [low_pc, high_pc) when it has one.
func entryRange(e *dwarf.Entry) (lo, hi uint64, ok bool) {
	lo, ok = e.Val(dwarf.AttrLowpc).(uint64)
	if !ok {
		return 0, 0, false
	}
	f := e.AttrField(dwarf.AttrHighpc)
	if f == nil {
		return 0, 0, false
	}
	switch v := f.Val.(type) {
	case uint64:
		hi = v
	case int64:
		hi = lo + uint64(v)
	default:
		return 0, 0, false
	}
	if f.Class == dwarf.ClassConstant {
		if v, ok := f.Val.(int64); ok {
			hi = lo + uint64(v)
		}
	}
	return lo, hi, true
}

// entryName prefers the linkage (mangled) name, which the symbol table
// would have carried.
func entryName(e *dwarf.Entry) string {
	if n, ok := e.Val(dwarf.AttrLinkageName).(string); ok && n != "" {
		return n
	}
	if n, ok := e.Val(dwarf.Attr(0x2007)).(string); ok && n != "" { // DW_AT_MIPS_linkage_name
		return n
	}
	n, _ := e.Val(dwarf.AttrName).(string)
	return n
}

// Demangle is the C++ (Itanium) or Rust name a symbol encodes, "" when it
// is not mangled or does not decode.
func Demangle(name string) string {
	n := name
	if strings.HasPrefix(n, "__Z") || strings.HasPrefix(n, "__R") { // Mach-O's extra underscore
		n = n[1:]
	}
	if !strings.HasPrefix(n, "_Z") && !strings.HasPrefix(n, "_R") {
		return ""
	}
	if at := strings.IndexByte(n, '@'); at > 0 { // versioned symbol
		n = n[:at]
	}
	out, err := demangle.ToString(n, demangle.NoClones)
	if err != nil || out == n {
		return ""
	}
	return out
}

// LineIndex maps addresses to source lines, one compilation unit at a
// time as asked.
type LineIndex struct {
	d      *dwarf.Data
	ranges []cuRange
}

type cuRange struct {
	lo, hi uint64
	cu     *dwarf.Entry
}

// Lines builds the index of compilation units' address ranges.
func (f *File) Lines() (*LineIndex, error) {
	d, err := f.DWARF()
	if err != nil {
		return nil, err
	}
	x := &LineIndex{d: d}
	rd := d.Reader()
	for {
		e, err := rd.Next()
		if err != nil || e == nil {
			break
		}
		if e.Tag == dwarf.TagCompileUnit || e.Tag == dwarf.TagPartialUnit {
			if rs, err := d.Ranges(e); err == nil {
				for _, r := range rs {
					if r[1] > r[0] {
						x.ranges = append(x.ranges, cuRange{r[0], r[1], e})
					}
				}
			}
		}
		rd.SkipChildren()
	}
	sort.Slice(x.ranges, func(i, j int) bool { return x.ranges[i].lo < x.ranges[j].lo })
	return x, nil
}

// At is the source line of addr, nil when no line table row covers it.
func (x *LineIndex) At(addr Addr) *SourceLine {
	if x == nil {
		return nil
	}
	pc := uint64(addr)
	i := sort.Search(len(x.ranges), func(i int) bool { return x.ranges[i].lo > pc })
	for j := i - 1; j >= 0 && j >= i-16; j-- {
		r := x.ranges[j]
		if pc < r.lo || pc >= r.hi {
			continue
		}
		lr, err := x.d.LineReader(r.cu)
		if err != nil || lr == nil {
			continue
		}
		var e dwarf.LineEntry
		if err := lr.SeekPC(pc, &e); err == nil && e.File != nil {
			return &SourceLine{Address: addr, File: e.File.Name, Line: e.Line, Column: e.Column}
		}
	}
	return nil
}

// Rows lists the line table rows in [lo, hi), at most max of them.
func (x *LineIndex) Rows(lo, hi Addr, max int) []SourceLine {
	out := []SourceLine{}
	if x == nil {
		return out
	}
	for _, r := range x.ranges {
		if uint64(hi) <= r.lo || uint64(lo) >= r.hi {
			continue
		}
		lr, err := x.d.LineReader(r.cu)
		if err != nil || lr == nil {
			continue
		}
		var e dwarf.LineEntry
		if lr.SeekPC(uint64(lo), &e) != nil {
			lr.Reset()
		} else if e.Address >= uint64(lo) && e.Address < uint64(hi) && !e.EndSequence && e.File != nil {
			out = append(out, SourceLine{Address: Addr(e.Address), File: e.File.Name, Line: e.Line, Column: e.Column})
		}
		for len(out) < max {
			if err := lr.Next(&e); err != nil {
				break
			}
			if e.EndSequence || e.File == nil || e.Address < uint64(lo) || e.Address >= uint64(hi) {
				if e.Address >= uint64(hi) {
					break
				}
				continue
			}
			if n := len(out); n > 0 && out[n-1].Address == Addr(e.Address) && out[n-1].Line == e.Line {
				continue
			}
			out = append(out, SourceLine{Address: Addr(e.Address), File: e.File.Name, Line: e.Line, Column: e.Column})
		}
		if len(out) > 0 {
			break
		}
	}
	return out
}
