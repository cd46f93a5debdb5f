package executable

import (
	"bytes"
	"debug/dwarf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"rea/abi"
)

// Options select what Open reads.
type Options struct {
	// Architecture picks one slice of a universal Mach-O (x86_64, arm64,
	// …); empty takes the first.
	Architecture string `json:"architecture,omitempty"`
	Limits       Limits `json:"limits,omitempty"`
}

// File is an opened binary: its layout (the wire Image) plus what the
// inventory needs.
type File struct {
	Image

	r      io.ReaderAt // the chosen slice
	size   int64
	limits Limits
	order  binary.ByteOrder
	// thunks maps a PLT entry or stub address to the imported name it
	// jumps through; slots maps a GOT/IAT/pointer slot to that name.
	thunks map[Addr]string
	slots  map[Addr]string
	// index answers sectionAt once Open has finished the section list.
	index *sectionIndex
	// Function tables outside sections: Mach-O LC_FUNCTION_STARTS (file
	// offset and size, deltas from textBase) and the PE exception directory.
	funcStartsOff, funcStartsSize uint32
	textBase                      uint64
	exceptionRVA, exceptionSize   uint32
	// dwarf is the debug information DWARF opened once.
	dwarf     *dwarf.Data
	dwarfErr  error
	dwarfDone bool
}

// Open reads a binary's layout. A malformed file is an *abi.Error with
// code artifact_operation_failed; nothing panics out of Open.
func Open(r io.ReaderAt, size int64, opt Options) (f *File, err error) {
	lim := opt.Limits.WithDefaults()
	defer recoverInto(&err, "reading the binary")
	if size > lim.MaxFileBytes {
		return nil, abi.Errorf(abi.CodeResourceConstraint, "the binary has %d bytes, above rea's fixed %d-byte limit for one binary", size, lim.MaxFileBytes).
			WithDetail("limit", "max_file_bytes")
	}
	var magic [4]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil {
		return nil, malformed("the file is shorter than any executable header (%d bytes)", size)
	}
	base := &File{Image: Image{FileSize: size}, limits: lim, thunks: map[Addr]string{}, slots: map[Addr]string{}}
	switch {
	case bytes.Equal(magic[:], []byte("\x7fELF")):
		err = base.openELF(r, size)
	case magic[0] == 'M' && magic[1] == 'Z':
		err = base.openPE(r, size)
	case isMachO(magic):
		err = base.openMachO(r, size, 0)
	case isFat(magic):
		err = base.openFat(r, size, opt.Architecture)
	default:
		if kind := containerKind(magic); kind != "" {
			return nil, malformed("the file is %s, not an ELF, PE or Mach-O binary; list and extract its members as an artifact (inspect_artifact, rea inspect-artifact)", kind).
				WithDetail("reason", "unknown_format")
		}
		return nil, malformed("the file is not an ELF, PE or Mach-O binary (magic % x)", magic).WithDetail("reason", "unknown_format")
	}
	if err != nil {
		return nil, err
	}
	if err := base.checkOverlap(); err != nil {
		return nil, err
	}
	base.finish()
	return base, nil
}

// checkOverlap refuses loadable segments that claim the same memory: no
// loader maps such a file, and every address lookup would be ambiguous.
func (f *File) checkOverlap() error {
	var load []Segment
	for _, s := range f.Segments {
		if (s.Kind == "LOAD" || s.Kind == "segment" || s.Kind == "section") && s.MemorySize > 0 {
			load = append(load, s)
		}
	}
	sort.Slice(load, func(i, j int) bool { return load[i].Address < load[j].Address })
	for i := 1; i < len(load); i++ {
		prev := load[i-1]
		if end := prev.Address + Addr(prev.MemorySize); end > load[i].Address && end > prev.Address {
			return malformed("segments %s (%s..%s) and %s (from %s) overlap in memory", prev.Name, prev.Address, end, load[i].Name, load[i].Address).
				WithDetail("reason", "overlapping_segments")
		}
	}
	return nil
}

// finish sorts what the parsers collected so every answer is deterministic.
func (f *File) finish() {
	f.Symbols = sortedByAddress(f.Symbols, func(s *Symbol) Addr { return s.Address }, func(a, b *Symbol) int { return strings.Compare(a.Name, b.Name) })
	f.Exports = sortedByAddress(f.Exports, func(e *Export) Addr { return e.Address }, func(a, b *Export) int { return strings.Compare(a.Name, b.Name) })
	for _, s := range []*[]string{&f.Libraries, &f.Limitations} {
		if *s == nil {
			*s = []string{}
		}
	}
	if f.Imports == nil {
		f.Imports = []Import{}
	}
	if f.Exports == nil {
		f.Exports = []Export{}
	}
	if f.Relocations.ByType == nil {
		f.Relocations.ByType = map[string]int{}
	}
	if f.Sections == nil {
		f.Sections = []Section{}
	}
	if f.Segments == nil {
		f.Segments = []Segment{}
	}
	f.index = newSectionIndex(f.Sections)
}

func malformed(format string, args ...any) *abi.Error {
	return abi.Errorf(abi.CodeArtifactOperationFailed, "malformed binary: "+format, args...)
}

func tooMany(what string, got, limit int, field string) *abi.Error {
	return abi.Errorf(abi.CodeArtifactOperationFailed, "malformed binary: it declares %d %s, above rea's fixed limit of %d (no flag or field changes it: real binaries stay far below)", got, what, limit).
		WithDetail("limit", field).WithDetail("declared", got)
}

// recoverInto turns a panic of a parser into a typed error and passes
// typed errors through; other errors become artifact_operation_failed.
func recoverInto(err *error, doing string) {
	if p := recover(); p != nil {
		*err = malformed("%s failed on malformed input (%v)", doing, p).WithDetail("panic", string(firstLine(debug.Stack())))
		return
	}
	if *err == nil {
		return
	}
	var typed *abi.Error
	if !errors.As(*err, &typed) {
		*err = malformed("%s: %v", doing, *err)
	}
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// ReadAt reads n bytes at virtual address a from the file bytes backing it.
func (f *File) ReadAt(a Addr, n int) ([]byte, error) {
	s := f.sectionAt(a)
	if s == nil || s.FileSize <= 0 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "address %s is not backed by file bytes in any section", a).WithDetail("reason", "unmapped")
	}
	off := int64(a - s.Address)
	if off >= s.FileSize {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "address %s lies in %s beyond its file bytes (zero-filled at run time)", a, s.Name).WithDetail("reason", "not_file_backed")
	}
	n = int(min(int64(n), s.FileSize-off))
	buf := make([]byte, n)
	got, err := f.r.ReadAt(buf, s.FileOffset+off)
	if got < n {
		return nil, malformed("section %s claims bytes past the end of the file (%v)", s.Name, err)
	}
	return buf, nil
}

// FileOffset maps a virtual address to its offset in the original file.
func (f *File) FileOffset(a Addr) (int64, *Section, error) {
	s := f.sectionAt(a)
	if s == nil {
		return 0, nil, abi.Errorf(abi.CodeInvalidRequest, "address %s is outside every section", a).WithDetail("reason", "outside_sections")
	}
	off := int64(a - s.Address)
	if off >= s.FileSize {
		return 0, s, abi.Errorf(abi.CodeInvalidRequest, "address %s lies in %s but has no file bytes (zero-filled at run time)", a, s.Name).WithDetail("reason", "not_file_backed")
	}
	return f.SliceOffset + s.FileOffset + off, s, nil
}

// sectionAt is the loaded section containing a (smallest wins on overlap).
func (f *File) sectionAt(a Addr) *Section {
	if f.index != nil {
		if i := f.index.lookup(a); i >= 0 {
			return &f.Sections[i]
		}
		return nil
	}
	if i := scanSections(f.Sections, a); i >= 0 {
		return &f.Sections[i]
	}
	return nil
}

// scanSections is sectionAt by looking at every section: the index of
// the smallest loaded section holding a (the first of equals), or -1.
func scanSections(sections []Section, a Addr) int {
	best := -1
	for i := range sections {
		s := &sections[i]
		if !s.Loaded || s.Size == 0 || a < s.Address || a >= s.End() {
			continue
		}
		if best < 0 || s.Size < sections[best].Size {
			best = i
		}
	}
	return best
}

// sectionBytes reads a whole section's file bytes within the code limit.
func (f *File) sectionBytes(s *Section, budget *int64) ([]byte, error) {
	if s.FileSize <= 0 {
		return nil, nil
	}
	if err := f.claimCode(s, budget); err != nil {
		return nil, err
	}
	buf := make([]byte, s.FileSize)
	if _, err := f.r.ReadAt(buf, s.FileOffset); err != nil && err != io.EOF {
		return nil, malformed("reading section %s: %v", s.Name, err)
	}
	return buf, nil
}

// claimCode checks that a section's file bytes exist and takes their size
// from the max_code_bytes budget (when budget is not nil).
func (f *File) claimCode(s *Section, budget *int64) error {
	if s.FileSize <= 0 {
		return nil
	}
	if err := f.checkFileBytes(s); err != nil {
		return err
	}
	if budget != nil {
		if *budget < s.FileSize {
			return abi.Errorf(abi.CodeResourceConstraint, "reading section %s would pass rea's fixed %d-byte limit of code read from one binary", s.Name, f.limits.MaxCodeBytes).
				WithDetail("limit", "max_code_bytes")
		}
		*budget -= s.FileSize
	}
	return nil
}

// checkFileBytes refuses a section whose file bytes lie past the end of
// the file.
func (f *File) checkFileBytes(s *Section) error {
	if s.FileOffset < 0 || s.FileOffset+s.FileSize > f.size || s.FileOffset+s.FileSize < s.FileOffset {
		return malformed("section %s lies past the end of the file (offset %d, %d bytes, file %d bytes)", s.Name, s.FileOffset, s.FileSize, f.size).
			WithDetail("section", s.Name)
	}
	return nil
}

func perms(r, w, x bool) string {
	b := []byte("---")
	if r {
		b[0] = 'r'
	}
	if w {
		b[1] = 'w'
	}
	if x {
		b[2] = 'x'
	}
	return string(b)
}

func (f *File) symbolNamed(names ...string) (string, bool) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, s := range f.Symbols {
		if want[s.Name] {
			return s.Name, true
		}
	}
	for _, im := range f.Imports {
		if want[im.Name] {
			return im.Name, true
		}
	}
	return "", false
}

// canaryAndFortify infers the stack protector and FORTIFY_SOURCE from the
// runtime helpers they call; prefix is "" for ELF/PE, "_" for Mach-O.
func (f *File) canaryAndFortify(prefix string) []Mitigation {
	noSymbols := len(f.Symbols) == 0 && len(f.Imports) == 0
	var out []Mitigation
	// MSVC's /GS checks __security_cookie; gcc and clang (MinGW too) call
	// __stack_chk_fail.
	if n, ok := f.symbolNamed(prefix+"__stack_chk_fail", prefix+"__stack_chk_guard", prefix+"__stack_chk_fail_local", "__security_check_cookie", "__security_cookie", "__GSHandlerCheck"); ok {
		out = append(out, Mitigation{Name: "stack_canary", Status: StatusInferred, Basis: fmt.Sprintf("references %s, the stack protector's failure handler or guard", n)})
	} else if noSymbols {
		out = append(out, Mitigation{Name: "stack_canary", Status: StatusUnknown, Basis: "no symbol table or imports to look for __stack_chk_fail in (stripped)"})
	} else {
		out = append(out, Mitigation{Name: "stack_canary", Status: StatusAbsent, Basis: "no reference to __stack_chk_fail, __stack_chk_guard or __security_cookie in the symbol tables or imports"})
	}
	seen := map[string]bool{}
	var chk []string
	consider := func(name string) {
		n := name
		if prefix != "" {
			n = n[min(len(prefix), len(n)):]
		}
		if len(n) > 6 && n[:2] == "__" && n[len(n)-4:] == "_chk" && n != "__stack_chk_fail" && !seen[n] {
			seen[n] = true
			chk = append(chk, n)
		}
	}
	for _, s := range f.Symbols {
		consider(s.Name)
	}
	for _, im := range f.Imports {
		consider(im.Name)
	}
	sort.Strings(chk)
	switch {
	case len(chk) > 0:
		shown := chk[:min(len(chk), 8)]
		out = append(out, Mitigation{Name: "fortify_source", Status: StatusInferred, Value: fmt.Sprintf("%d fortified functions", len(chk)),
			Basis: fmt.Sprintf("references checked variants %v", shown)})
	case noSymbols:
		out = append(out, Mitigation{Name: "fortify_source", Status: StatusUnknown, Basis: "no symbol table or imports to look for __*_chk functions in (stripped)"})
	default:
		out = append(out, Mitigation{Name: "fortify_source", Status: StatusAbsent, Basis: "no __*_chk function referenced (the binary may also use no fortifiable call)"})
	}
	return out
}

// sectionIndex answers sectionAt by binary search: the sweep asks it for
// every call target, address-like immediate and loaded address, and a
// scan of every section per question was a large part of its cost.
// The loaded sections' bounds cut the address space into intervals, each
// holding the section scanSections would pick anywhere inside it.
type sectionIndex struct {
	starts  []Addr  // interval i is [starts[i], starts[i+1])
	section []int32 // the section of interval i, or -1
}

func newSectionIndex(sections []Section) *sectionIndex {
	var bounds []Addr
	for i := range sections {
		s := &sections[i]
		if s.Loaded && s.Size > 0 && s.End() > s.Address {
			bounds = append(bounds, s.Address, s.End())
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	x := &sectionIndex{starts: bounds, section: make([]int32, len(bounds))}
	for i, start := range bounds {
		x.section[i] = int32(scanSections(sections, start))
	}
	return x
}

// interval is the interval holding a and its section (-1 for none).
func (x *sectionIndex) interval(a Addr) (lo, hi Addr, section int) {
	st := x.starts
	i := x.upper(a)
	if i == 0 || i == len(st) {
		return 0, 0, -1
	}
	return st[i-1], st[i], int(x.section[i-1])
}

// upper is the index of the first interval start above a.
func (x *sectionIndex) upper(a Addr) int {
	st := x.starts
	lo, hi := 0, len(st)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if st[m] <= a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// lookup is the index of the section scanSections picks for a, or -1.
func (x *sectionIndex) lookup(a Addr) int {
	i := x.upper(a) // inlined: no call per lookup in wasm either
	if i == 0 || i == len(x.starts) {
		return -1
	}
	return int(x.section[i-1])
}

// containerKind names the archive formats rea reads as artifacts, by their
// first four bytes, so that a binary request for one says where to go.
func containerKind(magic [4]byte) string {
	switch {
	case bytes.Equal(magic[:], []byte("PK\x03\x04")), bytes.Equal(magic[:], []byte("PK\x05\x06")):
		return "a zip archive"
	case magic[0] == 0x1f && magic[1] == 0x8b:
		return "gzip-compressed (a .tar.gz?)"
	case bytes.Equal(magic[:], []byte{4, 0, 0, 0}):
		return "an ASAR archive"
	}
	return ""
}
