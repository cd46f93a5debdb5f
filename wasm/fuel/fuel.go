package fuel

import (
	"errors"
	"fmt"
	"math"

	"rea/wasm/internal/leb128"
)

// GlobalName is the export name of the fuel counter: a mutable i64 global.
const GlobalName = "rea_fuel"

// InitialFuel is the counter's value in an instrumented module before the
// host sets a budget. It is large enough that a module run standalone (by
// wazero's CLI, say) never runs out in practice.
const InitialFuel = math.MaxInt64

// Sentinel errors; every *Error wraps exactly one of them so callers can
// branch with errors.Is.
var (
	// ErrAlreadyMetered means the module already exports GlobalName as a
	// global: run it as it is.
	ErrAlreadyMetered = errors.New("module is already fuel-metered")
	// ErrMalformed means the bytes are not a well-formed WebAssembly binary.
	ErrMalformed = errors.New("malformed WebAssembly module")
	// ErrUnsupported means the module is well-formed as far as the
	// instrumenter reads it but uses something it cannot meter (an unknown
	// opcode, exception handling, GC types, a conflicting export).
	ErrUnsupported = errors.New("module uses a feature the fuel instrumenter cannot meter")
)

// Error says where instrumentation stopped and why.
type Error struct {
	// Kind is ErrMalformed, ErrUnsupported or ErrAlreadyMetered.
	Kind error
	// Func is the index of the function (in the function index space,
	// imports included) whose body holds the problem, or -1 when the
	// problem is outside any function body.
	Func int
	// Offset is the byte offset in the input module.
	Offset int
	// Opcode is the offending instruction ("0x06", "0xfc 0x13") or empty.
	Opcode string
	// Reason says what was wrong in words.
	Reason string
}

func (e *Error) Error() string {
	msg := e.Kind.Error() + ": " + e.Reason
	if e.Opcode != "" {
		msg += " (opcode " + e.Opcode + ")"
	}
	if e.Func >= 0 {
		msg += fmt.Sprintf(" in function %d", e.Func)
	}
	return msg + fmt.Sprintf(" at byte offset %d (0x%x)", e.Offset, e.Offset)
}

func (e *Error) Unwrap() error { return e.Kind }

func errorf(kind error, offset int, format string, args ...any) *Error {
	return &Error{Kind: kind, Func: -1, Offset: offset, Reason: fmt.Sprintf(format, args...)}
}

// Section ids of the core binary format.
const (
	secCustom    = 0
	secType      = 1
	secImport    = 2
	secFunction  = 3
	secTable     = 4
	secMemory    = 5
	secGlobal    = 6
	secExport    = 7
	secStart     = 8
	secElement   = 9
	secCode      = 10
	secData      = 11
	secDataCount = 12
	secTag       = 13
)

// sectionRank orders non-custom sections as the spec requires: datacount
// sits between element and code and tag between memory and global although
// their ids are larger. Unknown ids rank 0.
func sectionRank(id byte) int {
	switch id {
	case secType, secImport, secFunction, secTable, secMemory:
		return int(id)
	case secTag:
		return 6
	case secGlobal, secExport, secStart, secElement:
		return int(id) + 1
	case secDataCount:
		return 11
	case secCode, secData:
		return int(id) + 2
	}
	return 0
}

// section is one section of the input: id and the byte range of its content.
type section struct {
	id         byte
	start      int // offset of the id byte
	begin, end int // content range
}

// module is what the instrumenter needs to know about its input.
type module struct {
	sections       []section
	importedFuncs  int
	importedGlobal int
	definedGlobals int
	definedFuncs   int // from the function section
	memories       int // imported and defined
	memory0Is64    bool
	exportKind     map[string]byte
	fuelExportAt   int // offset of an existing GlobalName export, or -1
}

// header is the magic number and binary format version 1.
const header = "\x00asm\x01\x00\x00\x00"

// parse splits the module into sections, checks their order, and reads
// every section far enough to learn what Instrument needs (imports, counts
// of functions, globals and memories, exports) and to bound every count in
// it, so nothing that passes parse can make wazero's decoder allocate more
// than the module's size suggests. Instruction decoding is left to
// Instrument.
func parse(bin []byte) (*module, error) {
	if len(bin) < len(header) {
		return nil, errorf(ErrMalformed, 0, "%d bytes is too short for a module header", len(bin))
	}
	for i := 0; i < len(header); i++ {
		if bin[i] != header[i] {
			return nil, errorf(ErrMalformed, i, "not a WebAssembly binary module (want magic \\0asm and version 1)")
		}
	}
	m := &module{exportKind: map[string]byte{}, fuelExportAt: -1}
	r := &reader{b: bin, pos: len(header)}
	lastRank := 0
	for !r.eof() {
		start := r.off()
		id, _ := r.byte()
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		body, err := r.bytes(int(size))
		if err != nil {
			return nil, err
		}
		s := section{id: id, start: start, begin: r.pos - len(body), end: r.pos}
		if id > secTag {
			return nil, errorf(ErrMalformed, start, "unknown section id %d", id)
		}
		if id == secTag {
			return nil, errorf(ErrUnsupported, start, "tag section (exception handling) is not supported")
		}
		if id != secCustom {
			rank := sectionRank(id)
			if rank <= lastRank {
				return nil, errorf(ErrMalformed, start, "section id %d is out of order or repeated", id)
			}
			lastRank = rank
		}
		m.sections = append(m.sections, s)
		sr := &reader{b: body, base: s.begin}
		switch id {
		case secCustom:
			var name string
			if name, err = sr.name(); err == nil && name == "name" {
				err = readNames(sr)
			}
			sr.pos = len(body)
		case secImport:
			err = m.readImports(sr)
		case secFunction:
			err = m.readFunctions(sr)
		case secType:
			err = readTypes(sr)
		case secTable:
			err = readTables(sr)
		case secGlobal:
			m.definedGlobals, err = readGlobals(sr)
		case secElement:
			err = readElements(sr)
		case secData:
			err = readData(sr)
		case secExport:
			err = m.readExports(sr)
		case secMemory:
			err = m.readMemories(sr)
		case secCode:
			err = m.readCodeLocals(sr)
		default:
			sr.pos = len(body)
		}
		if err != nil {
			return nil, err
		}
		if !sr.eof() {
			return nil, errorf(ErrMalformed, sr.off(), "section id %d has %d bytes after its last entry", id, len(body)-sr.pos)
		}
	}
	return m, nil
}

func (m *module) readImports(r *reader) error {
	n, err := r.count(4)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if _, err := r.name(); err != nil {
			return err
		}
		if _, err := r.name(); err != nil {
			return err
		}
		at := r.off()
		kind, err := r.byte()
		if err != nil {
			return err
		}
		switch kind {
		case 0x00: // func: type index
			m.importedFuncs++
			_, err = r.u32()
		case 0x01: // table: reftype, limits
			if err = readRefType(r); err == nil {
				_, err = readLimits(r)
			}
		case 0x02: // memory: limits
			var is64 bool
			is64, err = readLimits(r)
			m.addMemory(is64)
		case 0x03: // global: valtype, mutability
			m.importedGlobal++
			if err = readValType(r); err == nil {
				err = readMutability(r)
			}
		case 0x04:
			return errorf(ErrUnsupported, at, "tag import (exception handling) is not supported")
		default:
			return errorf(ErrMalformed, at, "unknown import kind 0x%02x", kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (m *module) readFunctions(r *reader) error {
	n, err := r.count(1)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	m.definedFuncs = n
	return nil
}

func (m *module) readExports(r *reader) error {
	n, err := r.count(3)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		at := r.off()
		name, err := r.name()
		if err != nil {
			return err
		}
		kind, err := r.byte()
		if err != nil {
			return err
		}
		if kind > 0x03 {
			return errorf(ErrUnsupported, at, "export %q has unsupported kind 0x%02x", name, kind)
		}
		if _, err := r.u32(); err != nil {
			return err
		}
		if _, dup := m.exportKind[name]; dup {
			return errorf(ErrMalformed, at, "export name %q is used twice", name)
		}
		m.exportKind[name] = kind
		if name == GlobalName {
			m.fuelExportAt = at
		}
	}
	return nil
}

func (m *module) addMemory(is64 bool) {
	if m.memories == 0 {
		m.memory0Is64 = is64
	}
	m.memories++
}

func (m *module) readMemories(r *reader) error {
	n, err := r.count(2)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		is64, err := readLimits(r)
		if err != nil {
			return err
		}
		m.addMemory(is64)
	}
	return nil
}

// readLimits reads table or memory limits and reports whether they are
// 64-bit. Flag bit 0 says a maximum follows, bit 1 marks shared memory
// (threads), bit 2 64-bit limits (memory64).
func readLimits(r *reader) (is64 bool, err error) {
	at := r.off()
	flags, err := r.byte()
	if err != nil {
		return false, err
	}
	if flags > 0x07 {
		return false, errorf(ErrMalformed, at, "unknown limits flags 0x%02x", flags)
	}
	width := 5
	if flags&0x04 != 0 {
		width = 10
	}
	if err := r.skipLEB(width); err != nil {
		return false, err
	}
	if flags&0x01 != 0 {
		err = r.skipLEB(width)
	}
	return flags&0x04 != 0, err
}

func readMutability(r *reader) error {
	at := r.off()
	c, err := r.byte()
	if err != nil {
		return err
	}
	if c > 1 {
		return errorf(ErrMalformed, at, "global mutability must be 0 or 1, got 0x%02x", c)
	}
	return nil
}

// isValType reports whether c is one of the value types the instrumenter
// understands: numbers, v128, funcref and externref.
func isValType(c byte) bool {
	switch c {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
		return true
	}
	return false
}

func readValType(r *reader) error {
	at := r.off()
	c, err := r.byte()
	if err != nil {
		return err
	}
	if !isValType(c) {
		return errorf(ErrUnsupported, at, "value type 0x%02x is not supported (GC and typed references cannot be metered)", c)
	}
	return nil
}

func readRefType(r *reader) error {
	at := r.off()
	c, err := r.byte()
	if err != nil {
		return err
	}
	if c != 0x70 && c != 0x6f {
		return errorf(ErrUnsupported, at, "reference type 0x%02x is not supported", c)
	}
	return nil
}

// Metered reports whether module already exports GlobalName as a global, that
// is whether it was instrumented before. It checks the module's structure
// and every declared count (a cheap guard to run before handing a
// user-supplied module to wazero) but does not decode instructions.
func Metered(module []byte) (bool, error) {
	m, err := parse(module)
	if err != nil {
		return false, err
	}
	kind, ok := m.exportKind[GlobalName]
	return ok && kind == 0x03, nil
}

// Instrument returns a copy of module that counts fuel in an exported
// mutable i64 global named GlobalName, initialised to InitialFuel. Every
// function body and every loop body starts with a check that traps
// (unreachable) when the counter is zero and otherwise decrements it.
//
// Every section other than global, export and code is copied byte for byte
// and in its original place (a module without memory also gets an empty one
// for the check's yield, see checkSequence); the same input always gives
// the same output.
// A module that already exports GlobalName is refused with
// ErrAlreadyMetered; anything that cannot be metered is refused with an
// *Error naming the function, offset and opcode.
func Instrument(module []byte) ([]byte, error) {
	m, err := parse(module)
	if err != nil {
		return nil, err
	}
	if kind, ok := m.exportKind[GlobalName]; ok {
		if kind == 0x03 {
			return nil, &Error{Kind: ErrAlreadyMetered, Func: -1, Offset: m.fuelExportAt,
				Reason: "it already exports the global " + GlobalName + "; run it as it is"}
		}
		return nil, &Error{Kind: ErrUnsupported, Func: -1, Offset: m.fuelExportAt,
			Reason: "it exports a non-global named " + GlobalName + "; rename that export"}
	}
	total := uint64(m.importedGlobal) + uint64(m.definedGlobals)
	if total >= math.MaxUint32 {
		return nil, errorf(ErrUnsupported, 0, "module has too many globals to add one")
	}
	fuelIndex := uint32(total)
	check := checkSequence(fuelIndex, m.memory0Is64)

	out := make([]byte, 0, len(module)+len(module)/8+64)
	out = append(out, header...)
	var haveGlobal, haveExport, haveCode bool
	haveMemory := m.memories > 0
	emitMissing := func(beforeRank int) {
		if !haveMemory && beforeRank > sectionRank(secMemory) {
			// The yield in the check needs a memory to grow by 0 pages.
			out = appendSection(out, secMemory, []byte{0x01, 0x01, 0x00, 0x00})
			haveMemory = true
		}
		if !haveGlobal && beforeRank > sectionRank(secGlobal) {
			out = appendSection(out, secGlobal, appendGlobalEntry(leb128.AppendUint32(nil, 1)))
			haveGlobal = true
		}
		if !haveExport && beforeRank > sectionRank(secExport) {
			out = appendSection(out, secExport, appendExportEntry(leb128.AppendUint32(nil, 1), fuelIndex))
			haveExport = true
		}
	}
	for _, s := range m.sections {
		content := module[s.begin:s.end]
		if s.id != secCustom {
			emitMissing(sectionRank(s.id))
		}
		switch s.id {
		case secGlobal:
			n := uint32(m.definedGlobals)
			r := &reader{b: content, base: s.begin}
			_, _ = r.u32()
			c := leb128.AppendUint32(nil, n+1)
			c = append(c, content[r.pos:]...)
			out = appendSection(out, secGlobal, appendGlobalEntry(c))
			haveGlobal = true
		case secExport:
			r := &reader{b: content, base: s.begin}
			n, _ := r.u32()
			c := leb128.AppendUint32(nil, n+1)
			c = append(c, content[r.pos:]...)
			out = appendSection(out, secExport, appendExportEntry(c, fuelIndex))
			haveExport = true
		case secMemory:
			if !haveMemory { // a memory section with no entries
				out = appendSection(out, secMemory, []byte{0x01, 0x01, 0x00, 0x00})
				haveMemory = true
			} else {
				out = append(out, module[s.start:s.end]...)
			}
		case secCode:
			c, err := m.instrumentCode(content, s.begin, check)
			if err != nil {
				return nil, err
			}
			out = appendSection(out, secCode, c)
			haveCode = true
		default:
			out = append(out, module[s.start:s.end]...)
		}
	}
	emitMissing(math.MaxInt)
	if !haveCode && m.definedFuncs != 0 {
		return nil, errorf(ErrMalformed, len(module), "function section declares %d functions but there is no code section", m.definedFuncs)
	}
	return out, nil
}

func appendSection(out []byte, id byte, content []byte) []byte {
	out = append(out, id)
	out = leb128.AppendUint32(out, uint32(len(content)))
	return append(out, content...)
}

// appendGlobalEntry appends (global (mut i64) (i64.const InitialFuel)).
func appendGlobalEntry(b []byte) []byte {
	b = append(b, 0x7e, 0x01, 0x42)
	b = leb128.AppendInt64(b, InitialFuel)
	return append(b, 0x0b)
}

// appendExportEntry appends (export GlobalName (global index)).
func appendExportEntry(b []byte, index uint32) []byte {
	b = leb128.AppendUint32(b, uint32(len(GlobalName)))
	b = append(b, GlobalName...)
	b = append(b, 0x03)
	return leb128.AppendUint32(b, index)
}
