package executable

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strconv"
	"strings"

	"rea/abi"
)

// AnalyzeOptions choose how much of the inventory to build.
type AnalyzeOptions struct {
	References bool
	Strings    bool
	// CountOnly counts strings and references without keeping them (an
	// overview needs totals, not rows).
	CountOnly bool
	MinString int
	// Progress is called now and then with bytes of code swept.
	Progress func(done, total int64)
	// windowBytes overrides sweepWindowBytes (tests cut windows small).
	windowBytes int64
}

// Analysis is the native-lite inventory of one binary.
type Analysis struct {
	File         *File
	Procedures   []Procedure
	Names        []Name
	Calls        []CallEdge // sorted by caller, site
	References   []Reference
	Strings      []String
	Instructions int64
	CodeBytes    int64
	// StringCount and ReferenceCount are exhaustive even with CountOnly.
	StringCount    int
	ReferenceCount int
	// StringsTruncated is true when MaxStrings cut the list short.
	StringsTruncated bool
	Limitations      []string

	byName map[string][]int
	dec    *decoder
	// jumps are the unconditional direct jumps of the sweep; those that
	// land on another procedure's entry become tail-jump edges.
	jumps     []CallEdge
	countOnly bool
}

// Analyze sweeps every code section once (linear sweep, as objdump does),
// adds call targets to the procedures from symbols, stubs and the entry,
// and collects call edges and, on request, references and strings.
func Analyze(f *File, opt AnalyzeOptions) (a *Analysis, err error) {
	defer recoverInto(&err, "analysing the binary")
	dec, derr := newDecoder(f.Architecture, f.inImage)
	a = &Analysis{File: f, dec: dec}
	procs := map[Addr]*Procedure{}
	add := func(addr Addr, name, source, kind string, size uint64) {
		if p, ok := procs[addr]; ok {
			if name != "" && name != p.Name && !contains(p.Aliases, name) {
				if rank(source) < rank(p.Source) || strings.HasPrefix(p.Name, "sub_") {
					if !strings.HasPrefix(p.Name, "sub_") {
						p.Aliases = append(p.Aliases, p.Name)
					}
					p.Name, p.Source = name, source
				} else {
					p.Aliases = append(p.Aliases, name)
				}
			}
			if p.Size == 0 && size > 0 {
				p.Size, p.SizeBasis = size, sizeBasis(source)
			}
			if kind == KindThunk {
				p.Kind, p.Thunk = KindThunk, true
			}
			return
		}
		p := &Procedure{Address: addr, Name: name, Source: source, Kind: kind, Thunk: kind == KindThunk, External: kind == KindExternal}
		if size > 0 {
			p.Size, p.SizeBasis = size, sizeBasis(source)
		}
		procs[addr] = p
	}
	for _, s := range f.Symbols {
		if s.Defined && s.Kind == "function" && s.Address != 0 && f.isCode(s.Address) {
			add(s.Address, s.Name, SourceSymbol, KindFunction, s.Size)
		}
	}
	for _, e := range f.Exports {
		if f.isCode(e.Address) {
			add(e.Address, e.Name, SourceExport, KindFunction, 0)
		}
	}
	// Unwind tables, function-start tables, Go's pclntab and (without a
	// symbol table) DWARF describe the functions strip leaves unnamed.
	starts, notes := f.FunctionStarts()
	a.Limitations = append(a.Limitations, notes...)
	if !f.hasFunctionSymbols() {
		ds, dnotes := f.DWARFFunctions()
		starts = append(starts, ds...)
		a.Limitations = append(a.Limitations, dnotes...)
	}
	for _, s := range starts {
		add(s.Address, s.Name, s.Source, KindFunction, s.Size)
	}
	for addr, name := range f.thunks {
		n := name
		if f.Format == FormatELF {
			n = name + "@plt"
		}
		add(addr, n, SourceStub, KindThunk, 0)
		procs[addr].Target = name
		procs[addr].External = true
	}
	if f.Entry != nil && f.isCode(*f.Entry) {
		add(*f.Entry, "entry", SourceEntry, KindFunction, 0)
	}
	// Symbols with sizes bound functions; a call or address into the middle
	// of one (a PIC thunk's call-next, a label) is not another procedure.
	var sized []span
	for _, p := range procs {
		if p.Size > 0 {
			sized = append(sized, span{p.Address, p.End()})
		}
	}
	slices.SortFunc(sized, func(x, y span) int { return cmp.Compare(x.start, y.start) })
	insideSized := func(addr Addr) bool {
		i := searchSpans(sized, addr)
		if i < len(sized) && sized[i].start == addr {
			return false
		}
		for j := i - 1; j >= 0 && j >= i-8; j-- {
			if addr > sized[j].start && addr < sized[j].end {
				return true
			}
		}
		return false
	}
	slotProcs := map[Addr]bool{}
	if derr != nil {
		a.Limitations = append(a.Limitations, derr.Error()+"; procedures come from symbols only and no call edges, references or disassembly are available")
	} else if err := a.sweep(opt, func(addr Addr, source string) {
		if !insideSized(addr) {
			add(addr, "", source, KindFunction, 0)
		}
	}, slotProcs); err != nil {
		return nil, err
	}
	for slot := range slotProcs {
		add(slot, f.slots[slot], SourceImport, KindExternal, 0)
	}
	// Collect in address order: sorting the structs themselves moved each
	// many times.
	addrs := make([]Addr, 0, len(procs))
	for addr := range procs {
		addrs = append(addrs, addr)
	}
	slices.Sort(addrs)
	a.Procedures = make([]Procedure, 0, len(addrs))
	for _, addr := range addrs {
		p := procs[addr]
		if p.Name == "" {
			p.Name = "sub_" + strconv.FormatUint(uint64(p.Address), 16)
		}
		p.Demangled = Demangle(p.Name)
		a.Procedures = append(a.Procedures, *p)
	}
	a.sizeProcedures()
	a.Calls = a.attribute(mergeBySite(a.Calls, a.tailJumps()))
	a.jumps = nil
	for i := range a.References {
		if p := a.Containing(a.References[i].From); p != nil {
			pa := p.Address
			a.References[i].Procedure = &pa
		}
	}
	slices.SortFunc(a.References, func(x, y Reference) int {
		if c := cmp.Compare(x.To, y.To); c != 0 {
			return c
		}
		return cmp.Compare(x.From, y.From)
	})
	a.buildNames()
	if opt.Strings || opt.CountOnly {
		a.countOnly = opt.CountOnly && !opt.Strings
		if err := a.findStrings(opt.MinString); err != nil {
			return nil, err
		}
	}
	if a.Limitations == nil {
		a.Limitations = []string{}
	}
	if f.Type == "relocatable" || f.Type == "core" {
		a.Limitations = append(a.Limitations, "a "+f.Type+" file is not laid out in memory; native-lite inventories linked executables and libraries")
	}
	a.Limitations = append(a.Limitations,
		"native-lite finds procedures from symbols, unwind and function-start tables (.eh_frame, .pdata, LC_FUNCTION_STARTS), Go's pclntab, DWARF (without a symbol table), stubs, the entry point and direct call targets of a linear sweep; functions none of these describe are not listed",
		"pseudocode is unavailable: native-lite has no decompiler")
	return a, nil
}

func rank(source string) int {
	switch source {
	case SourceSymbol:
		return 0
	case SourceExport:
		return 1
	case SourceStub:
		return 2
	case SourceImport:
		return 3
	case SourcePCLNTab, SourceDWARF:
		return 1
	case SourceEntry:
		return 4
	case SourceCallTarget:
		return 5
	}
	return 6
}

// sizeBasis names where a procedure's size came from.
func sizeBasis(source string) string {
	if source == SourceSymbol || source == SourceExport {
		return "symbol"
	}
	return source
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (f *File) isCode(a Addr) bool {
	s := f.sectionAt(a)
	return s != nil && s.Code
}

func (f *File) inImage(a Addr) bool {
	if a < 0x1000 {
		return false
	}
	s := f.sectionAt(a)
	return s != nil
}

// imageBounds are the lowest and highest addresses inImage can accept.
func (f *File) imageBounds() (lo, hi Addr) {
	lo = ^Addr(0)
	for i := range f.Sections {
		s := &f.Sections[i]
		if s.Loaded && s.Size > 0 && s.End() > s.Address {
			lo, hi = min(lo, s.Address), max(hi, s.End())
		}
	}
	return max(lo, 0x1000), hi
}

func (f *File) codeSections() []*Section {
	var out []*Section
	for i := range f.Sections {
		s := &f.Sections[i]
		if s.Code && s.Loaded && s.FileSize > 0 {
			out = append(out, s)
		}
	}
	return out
}

// sweep decodes every code section once. On x86-64 it takes runs of
// common instructions through hotRun and handles only those with effects,
// int3 padding as whole runs, and the rest one by one through decodeInto;
// in wasm every call and every taken branch counts, so the loop avoids both.
func (a *Analysis) sweep(opt AnalyzeOptions, target func(Addr, string), slotProcs map[Addr]bool) error {
	f := a.File
	budget := f.limits.MaxCodeBytes
	sections := f.codeSections()
	w := &sweeper{a: a, opt: opt, target: target, slotProcs: slotProcs, code: codeRanges{f: f},
		// The first sighting of a target decides its source; later ones
		// are skipped before the lookups target makes.
		seen: newAddrSet(sections),
		hot:  a.dec.mode == 64 && !a.dec.keepRaw && !a.dec.slowOnly,
		x86:  a.dec.arch != "arm64",
		recs: make([]decoded, 256)}
	for _, s := range sections {
		w.total += s.FileSize
	}
	a.dec.lo, a.dec.hi = f.imageBounds()
	// Code is read a window at a time (with the longest instruction's worth
	// of bytes beyond it), not a section at a time: a large binary's code
	// would otherwise sit whole in the sandbox's memory.
	var buf []byte
	for _, s := range sections {
		if err := f.claimCode(s, &budget); err != nil {
			return err
		}
		w.code.at(s.Address)
		a.CodeBytes += s.FileSize
		a.dec.reset()
		for start := int64(0); start < s.FileSize; {
			bytes, to, err := f.codeWindow(s, start, cmp.Or(opt.windowBytes, sweepWindowBytes), &buf)
			if err != nil {
				return err
			}
			start += int64(w.window(bytes, to, s.Address+Addr(start)))
		}
	}
	return nil
}

// sweeper is the state of one sweep.
type sweeper struct {
	a         *Analysis
	opt       AnalyzeOptions
	target    func(Addr, string)
	slotProcs map[Addr]bool
	code      codeRanges
	seen      *addrSet
	hot, x86  bool
	recs      []decoded
	in        decoded
	// done and total are bytes of code decoded and to decode.
	done, total int64
}

// sweepWindowBytes is how much code one window of the sweep holds.
const sweepWindowBytes = 1 << 20

// codeWindow reads the window of section s that starts start bytes in.
// The sweep starts instructions below to; bytes holds up to 16 more, so an
// instruction crossing the window's end decodes whole.
func (f *File) codeWindow(s *Section, start, window int64, buf *[]byte) (bytes []byte, to int, err error) {
	left := s.FileSize - start
	n := min(left, window+16)
	if *buf == nil {
		*buf = make([]byte, min(s.FileSize, window+16))
	}
	if int64(len(*buf)) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if got, rerr := f.r.ReadAt(b, s.FileOffset+start); int64(got) < n {
		return nil, 0, malformed("reading section %s: %v", s.Name, rerr)
	}
	return b, int(min(left, window)), nil
}

// window decodes the instructions starting in bytes[:to] (bytes[0] is at
// base) and returns where it stopped (at or after to).
func (w *sweeper) window(bytes []byte, to int, base Addr) int {
	a, opt, recs := w.a, w.opt, w.recs
	off := 0
	for off < to {
		if w.x86 && bytes[off] == 0xcc {
			// int3 padding (an eighth of a Go binary's instructions):
			// one-byte instructions without effects, taken as a run.
			n := int3Run(bytes[off:to])
			a.Instructions += int64(n)
			off += n
			w.done += int64(n)
			continue
		}
		if w.hot {
			// Runs of common instructions in one call; only those
			// with effects come back.
			next, count, n := a.dec.hotRun(bytes, off, to, base, recs)
			if count > 0 {
				a.Instructions += int64(count) - int64(n)
				for k := range recs[:n] {
					w.effects(&recs[k])
				}
				if opt.Progress != nil && (w.done+int64(next-off))>>20 != w.done>>20 {
					opt.Progress(w.done+int64(next-off), w.total)
				}
				w.done += int64(next - off)
				off = next
				continue
			}
		}
		if !a.dec.decodeInto(bytes[off:], base+Addr(off), &w.in) {
			off += a.dec.step()
			continue
		}
		w.effects(&w.in)
		off += w.in.size
		if w.done += int64(w.in.size); opt.Progress != nil && w.done&0xfffff < int64(w.in.size) {
			opt.Progress(w.done, w.total)
		}
	}
	return off
}

// effects takes one decoded instruction into the inventory: the count,
// call edges, jumps, import slots, targets and references.
func (w *sweeper) effects(in *decoded) {
	a, f := w.a, w.a.File
	code, seen, target, slotProcs := &w.code, w.seen, w.target, w.slotProcs
	pc := in.addr
	a.Instructions++
	switch in.flow {
	case FlowCall:
		if code.has(in.target) {
			if !seen.add(in.target) {
				target(in.target, SourceCallTarget)
			}
			a.Calls = append(a.Calls, CallEdge{Site: pc, Callee: in.target, Kind: EdgeCall})
		}
	case FlowJump:
		a.jumps = append(a.jumps, CallEdge{Site: pc, Callee: in.target, Kind: EdgeTailJump})
	case FlowIndirectCall, FlowIndirectJump:
		if _, ok := f.slots[in.mem]; ok && in.memKind == refRead {
			slotProcs[in.mem] = true
			if in.flow == FlowIndirectCall {
				a.Calls = append(a.Calls, CallEdge{Site: pc, Callee: in.mem, Kind: EdgeImport})
			}
		}
	}
	if in.memKind == refAddress && in.flow == FlowNext && code.has(in.mem) && !seen.add(in.mem) {
		target(in.mem, SourceAddressTaken)
	}
	switch in.flow {
	case FlowCall, FlowJump, FlowCondJump:
		a.ReferenceCount++
	}
	if in.memKind != refNone {
		a.ReferenceCount++
	}
	if w.opt.References {
		switch in.flow {
		case FlowCall:
			a.References = append(a.References, Reference{From: pc, To: in.target, Kind: RefCall})
		case FlowJump, FlowCondJump:
			a.References = append(a.References, Reference{From: pc, To: in.target, Kind: RefJump})
		}
		if in.memKind != refNone {
			a.References = append(a.References, Reference{From: pc, To: in.mem, Kind: in.memKind.String()})
		}
	}
}

// codeRanges answers isCode with the section index's interval of the
// section being swept remembered: most targets lie in it, and the answer
// for an address inside it is the answer for its start.
type codeRanges struct {
	f      *File
	lo, hi Addr
	code   bool
}

// at remembers the interval holding addr.
func (c *codeRanges) at(addr Addr) {
	c.lo, c.hi, c.code = 0, 0, false
	if x := c.f.index; x != nil {
		if lo, hi, sec := x.interval(addr); sec >= 0 {
			c.lo, c.hi, c.code = lo, hi, c.f.Sections[sec].Code
		}
	}
}

func (c *codeRanges) has(addr Addr) bool {
	if addr >= c.lo && addr < c.hi {
		return c.code
	}
	return c.f.isCode(addr)
}

// addrSet is a bitmap of addresses in the code sections' span (nil, and
// never holding anything, when the span is implausibly large).
type addrSet struct {
	lo   Addr
	bits []uint64
}

func newAddrSet(sections []*Section) *addrSet {
	lo, hi := ^Addr(0), Addr(0)
	for _, s := range sections {
		if s.End() > s.Address {
			lo, hi = min(lo, s.Address), max(hi, s.End())
		}
	}
	if hi <= lo || hi-lo > 1<<30 {
		return &addrSet{}
	}
	return &addrSet{lo: lo, bits: make([]uint64, (hi-lo+63)/64)}
}

// add records addr and says whether it was there already; addresses
// outside the span are never recorded.
func (s *addrSet) add(addr Addr) bool {
	i := uint64(addr - s.lo)
	if addr < s.lo || i/64 >= uint64(len(s.bits)) {
		return false
	}
	w, bit := &s.bits[i/64], uint64(1)<<(i%64)
	had := *w&bit != 0
	*w |= bit
	return had
}

// int3Run is the length of the run of 0xcc bytes that c starts with.
func int3Run(c []byte) int {
	n := 0
	for n+8 <= len(c) && binary.LittleEndian.Uint64(c[n:]) == 0xcccccccccccccccc {
		n += 8
	}
	for n < len(c) && c[n] == 0xcc {
		n++
	}
	return n
}

// span is an address range [start, end).
type span struct{ start, end Addr }

// searchSpans is the index of the first span starting at or after addr.
func searchSpans(s []span, addr Addr) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m].start < addr {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// searchProcedures is the index of the first procedure at or after addr
// (sort.Search without the call through a closure per step, which the
// sweep's hundreds of thousands of lookups felt in wasm).
func (a *Analysis) searchProcedures(addr Addr) int {
	ps := a.Procedures
	lo, hi := 0, len(ps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ps[m].Address < addr {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// mergeBySite merges two lists of edges each in site order into one.
func mergeBySite(x, y []CallEdge) []CallEdge {
	if len(y) == 0 {
		return x
	}
	out := make([]CallEdge, 0, len(x)+len(y))
	for len(x) > 0 && len(y) > 0 {
		if y[0].Site < x[0].Site {
			out, y = append(out, y[0]), y[1:]
		} else {
			out, x = append(out, x[0]), x[1:]
		}
	}
	return append(append(out, x...), y...)
}

// tailJumps keeps the jumps that leave their procedure for another's entry.
func (a *Analysis) tailJumps() []CallEdge {
	var out []CallEdge
	for _, j := range a.jumps {
		i := a.searchProcedures(j.Callee)
		if i == len(a.Procedures) || a.Procedures[i].Address != j.Callee {
			continue
		}
		if from := a.Containing(j.Site); from != nil && from.Address != j.Callee {
			out = append(out, j)
		}
	}
	return out
}

// sizeProcedures gives procedures without a symbol size the distance to the
// next procedure, bounded by their section.
func (a *Analysis) sizeProcedures() {
	f := a.File
	for i := range a.Procedures {
		p := &a.Procedures[i]
		s := f.sectionAt(p.Address)
		if s != nil {
			p.Section = s.Name
		}
		if p.Kind == KindExternal {
			p.SizeBasis = "import-slot"
			continue
		}
		if p.Size > 0 {
			continue
		}
		end := Addr(0)
		if s != nil {
			end = s.End()
		}
		for j := i + 1; j < len(a.Procedures); j++ {
			if a.Procedures[j].Address > p.Address && a.Procedures[j].Kind != KindExternal {
				if a.Procedures[j].Address < end || end == 0 {
					end = a.Procedures[j].Address
				}
				break
			}
		}
		if end > p.Address {
			p.Size, p.SizeBasis = uint64(end-p.Address), "next-procedure"
		}
	}
}

// Containing is the procedure whose [address, end) holds addr (the
// innermost when symbols overlap), or nil.
func (a *Analysis) Containing(addr Addr) *Procedure {
	i := a.searchProcedures(addr + 1) // first procedure above addr
	if addr+1 == 0 {
		i = len(a.Procedures)
	}
	for j := i - 1; j >= 0 && j >= i-64; j-- {
		p := &a.Procedures[j]
		if p.Kind != KindExternal && addr >= p.Address && addr < p.End() {
			return p
		}
	}
	return nil
}

// attribute fills each edge's caller and sorts by caller and site.
func (a *Analysis) attribute(edges []CallEdge) []CallEdge {
	out := edges[:0]
	for _, e := range edges {
		if p := a.Containing(e.Site); p != nil {
			e.Caller = p.Address
			out = append(out, e)
		}
	}
	byCaller := func(x, y CallEdge) int {
		if c := cmp.Compare(x.Caller, y.Caller); c != 0 {
			return c
		}
		return cmp.Compare(x.Site, y.Site)
	}
	// Edges arrive in site order, which is caller order unless procedures
	// nest or sections are out of address order; sites are unique, so
	// either way the order is the same.
	if !slices.IsSortedFunc(out, byCaller) {
		slices.SortFunc(out, byCaller)
	}
	return out
}

// buildNames lists the symbols and the procedures found without one,
// once per address and name, in address and name order. Symbols arrive
// sorted that way and procedures by address, so duplicates are neighbours
// or found by binary search, and the two lists merge in one pass.
func (a *Analysis) buildNames() {
	var syms []Name
	var last *Symbol
	for i := range a.File.Symbols {
		s := &a.File.Symbols[i]
		if s.Name == "" || s.Kind == "section" || s.Kind == "file" || (!s.Defined && s.Address == 0) {
			continue
		}
		if last != nil && last.Address == s.Address && last.Name == s.Name {
			continue
		}
		last = s
		j := a.searchProcedures(s.Address)
		primary := j < len(a.Procedures) && a.Procedures[j].Address == s.Address && a.Procedures[j].Name == s.Name
		syms = append(syms, Name{Address: s.Address, Name: s.Name, Kind: s.Kind, Source: s.Table, Primary: primary})
	}
	byAddrName := func(x, y *Name) int {
		if c := cmp.Compare(x.Address, y.Address); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	}
	var procs []Name
	for i := range a.Procedures {
		p := &a.Procedures[i]
		if p.Source == SourceSymbol {
			continue
		}
		n := Name{Address: p.Address, Name: p.Name, Kind: p.Kind, Source: p.Source, Primary: true}
		if _, found := slices.BinarySearchFunc(syms, &n, func(x Name, y *Name) int { return byAddrName(&x, y) }); found {
			continue
		}
		procs = append(procs, n)
	}
	if len(syms)+len(procs) > 0 {
		a.Names = make([]Name, 0, len(syms)+len(procs))
	}
	for len(syms) > 0 && len(procs) > 0 {
		if byAddrName(&procs[0], &syms[0]) < 0 {
			a.Names, procs = append(a.Names, procs[0]), procs[1:]
		} else {
			a.Names, syms = append(a.Names, syms[0]), syms[1:]
		}
	}
	a.Names = append(append(a.Names, syms...), procs...)
}

// indexNames maps every procedure name and alias to the procedures that
// carry it; Resolve builds it when first asked.
func (a *Analysis) indexNames() {
	a.byName = map[string][]int{}
	for i, p := range a.Procedures {
		a.byName[p.Name] = append(a.byName[p.Name], i)
		for _, al := range p.Aliases {
			a.byName[al] = append(a.byName[al], i)
		}
	}
}

// NameAt is the primary name of a procedure or symbol at addr ("" if none).
func (a *Analysis) NameAt(addr Addr) string {
	i := sort.Search(len(a.Procedures), func(i int) bool { return a.Procedures[i].Address >= addr })
	if i < len(a.Procedures) && a.Procedures[i].Address == addr {
		return a.Procedures[i].Name
	}
	if n, ok := a.File.slots[addr]; ok {
		return n
	}
	j := sort.Search(len(a.Names), func(i int) bool { return a.Names[i].Address >= addr })
	if j < len(a.Names) && a.Names[j].Address == addr {
		return a.Names[j].Name
	}
	return ""
}

// Resolve finds a procedure by address text or exact name.
func (a *Analysis) Resolve(ref string) (*Procedure, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name a procedure by address (0x401000) or exact name").WithDetail("field", "procedure")
	}
	if a.byName == nil {
		a.indexNames()
	}
	if idx, ok := a.byName[ref]; ok {
		if len(idx) == 1 || sameAddr(a.Procedures, idx) {
			return &a.Procedures[idx[0]], nil
		}
		var addrs []string
		for _, i := range idx {
			addrs = append(addrs, a.Procedures[i].Address.String())
		}
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the name %q names %d procedures; pass one of their addresses instead", ref, len(idx)).
			WithDetail("field", "procedure").WithDetail("addresses", addrs)
	}
	if addr, err := ParseAddr(ref); err == nil {
		i := sort.Search(len(a.Procedures), func(i int) bool { return a.Procedures[i].Address >= addr })
		if i < len(a.Procedures) && a.Procedures[i].Address == addr {
			return &a.Procedures[i], nil
		}
		if p := a.Containing(addr); p != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s is inside procedure %s at %s, not its entry; pass the entry address", addr, p.Name, p.Address).
				WithDetail("field", "procedure").WithDetail("containing_procedure", p.Address.String())
		}
	}
	return nil, abi.Errorf(abi.CodeInvalidRequest, "no procedure is named or starts at %q; list_procedures or search_procedures shows what exists", ref).
		WithDetail("field", "procedure").WithDetail("reason", "procedure_not_found")
}

func sameAddr(ps []Procedure, idx []int) bool {
	for _, i := range idx[1:] {
		if ps[i].Address != ps[idx[0]].Address {
			return false
		}
	}
	return true
}

// Callers are the edges into the procedure at addr.
func (a *Analysis) Callers(addr Addr) []CallEdge {
	var out []CallEdge
	for _, e := range a.Calls {
		if e.Callee == addr {
			out = append(out, e)
		}
	}
	return out
}

// Callees are the edges out of the procedure at addr.
func (a *Analysis) Callees(addr Addr) []CallEdge {
	i := sort.Search(len(a.Calls), func(i int) bool { return a.Calls[i].Caller >= addr })
	var out []CallEdge
	for ; i < len(a.Calls) && a.Calls[i].Caller == addr; i++ {
		out = append(out, a.Calls[i])
	}
	return out
}

// ReferencesTo are the references whose target is addr.
func (a *Analysis) ReferencesTo(addr Addr) []Reference {
	i := sort.Search(len(a.References), func(i int) bool { return a.References[i].To >= addr })
	var out []Reference
	for ; i < len(a.References) && a.References[i].To == addr; i++ {
		out = append(out, a.References[i])
	}
	return out
}
