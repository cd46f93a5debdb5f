package fuel

import "fmt"

// The readers below walk sections the instrumenter copies unchanged. They
// exist to refuse malformed input early and, above all, to bound every
// declared count by the bytes that follow it: wazero's decoder allocates
// what a count declares before reading the entries, so a forged count in a
// user-supplied module could otherwise exhaust the host's memory.

func readTypes(r *reader) error {
	n, err := r.count(3)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		at := r.off()
		form, err := r.byte()
		if err != nil {
			return err
		}
		if form != 0x60 {
			return errorf(ErrUnsupported, at, "type form 0x%02x is not a function type (GC types cannot be metered)", form)
		}
		for j := 0; j < 2; j++ { // params, results
			k, err := r.count(1)
			if err != nil {
				return err
			}
			for ; k > 0; k-- {
				if err := readValType(r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func readTables(r *reader) error {
	n, err := r.count(3)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := readRefType(r); err != nil {
			return err
		}
		if _, err := readLimits(r); err != nil {
			return err
		}
	}
	return nil
}

func readGlobals(r *reader) (int, error) {
	n, err := r.count(4)
	if err != nil {
		return 0, err
	}
	for i := 0; i < n; i++ {
		if err := readValType(r); err != nil {
			return 0, err
		}
		if err := readMutability(r); err != nil {
			return 0, err
		}
		if err := readConstExpr(r); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// readElements reads the eight element segment encodings (flags 0–7):
// bit 0 passive/declarative, bit 1 explicit table index (active) or
// declarative (passive), bit 2 expressions instead of function indices.
func readElements(r *reader) error {
	n, err := r.count(2)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		at := r.off()
		flags, err := r.u32()
		if err != nil {
			return err
		}
		if flags > 7 {
			return errorf(ErrMalformed, at, "unknown element segment flags %d", flags)
		}
		active := flags&1 == 0
		if active && flags&2 != 0 {
			if _, err := r.u32(); err != nil { // table index
				return err
			}
		}
		if active {
			if err := readConstExpr(r); err != nil {
				return err
			}
		}
		if flags&3 != 0 { // element kind or reference type follows
			if flags&4 != 0 {
				err = readRefType(r)
			} else {
				var kind byte
				kindAt := r.off()
				if kind, err = r.byte(); err == nil && kind != 0x00 {
					err = errorf(ErrMalformed, kindAt, "element kind 0x%02x is not funcref", kind)
				}
			}
			if err != nil {
				return err
			}
		}
		k, err := r.count(1)
		if err != nil {
			return err
		}
		for ; k > 0; k-- {
			if flags&4 != 0 {
				err = readConstExpr(r)
			} else {
				_, err = r.u32()
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// readData reads data segments: 0 active in memory 0, 1 passive, 2 active
// with an explicit memory index.
func readData(r *reader) error {
	n, err := r.count(2)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		at := r.off()
		flags, err := r.u32()
		if err != nil {
			return err
		}
		switch flags {
		case 0:
			err = readConstExpr(r)
		case 1:
		case 2:
			if _, err = r.u32(); err == nil {
				err = readConstExpr(r)
			}
		default:
			return errorf(ErrMalformed, at, "unknown data segment flags %d", flags)
		}
		if err != nil {
			return err
		}
		size, err := r.u32()
		if err != nil {
			return err
		}
		if _, err := r.bytes(int(size)); err != nil {
			return err
		}
	}
	return nil
}

// readConstExpr skips a constant expression up to its end: constants,
// global.get, ref.null, ref.func and the extended-const arithmetic.
func readConstExpr(r *reader) error {
	for {
		at := r.off()
		op, err := r.byte()
		if err != nil {
			return err
		}
		switch op {
		case 0x0b:
			return nil
		case 0x41:
			err = r.skipLEB(5)
		case 0x42:
			err = r.skipLEB(10)
		case 0x43:
			_, err = r.bytes(4)
		case 0x44:
			_, err = r.bytes(8)
		case 0x23, 0xd2: // global.get, ref.func
			_, err = r.u32()
		case 0xd0:
			err = readRefType(r)
		case 0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e: // i32/i64 add, sub, mul
		case 0xfd:
			var sub uint32
			if sub, err = r.u32(); err == nil {
				if sub != 0x0c {
					return errorf(ErrUnsupported, at, "SIMD opcode 0x%02x in a constant expression", sub)
				}
				_, err = r.bytes(16)
			}
		default:
			return errorf(ErrUnsupported, at, "opcode 0x%02x in a constant expression", op)
		}
		if err != nil {
			return err
		}
	}
}

// readNames checks the name section's module-name (0), function-names (1)
// and local-names (2) subsections, the ones wazero decodes: counts bounded,
// content consumed exactly. wazero reads a malformed subsection past the end
// of the section when other sections follow it, so a name section that is
// harmless as the last section would break the module once sections are
// appended after it. Other subsections are skipped by their size.
func readNames(r *reader) error {
	for !r.eof() {
		id, err := r.byte()
		if err != nil {
			return err
		}
		size, err := r.u32()
		if err != nil {
			return err
		}
		content, err := r.bytes(int(size))
		if err != nil {
			return err
		}
		sub := &reader{b: content, base: r.off() - len(content)}
		switch id {
		case 0:
			_, err = sub.name()
		case 1:
			err = readNameMap(sub)
		case 2:
			var n int
			if n, err = sub.count(2); err == nil {
				for ; n > 0 && err == nil; n-- {
					if _, err = sub.u32(); err == nil {
						err = readNameMap(sub)
					}
				}
			}
		default:
			continue
		}
		if err == nil && !sub.eof() {
			err = errorf(ErrMalformed, sub.off(), "name subsection %d has %d bytes after its content", id, len(content)-sub.pos)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func readNameMap(r *reader) error {
	n, err := r.count(2)
	if err != nil {
		return err
	}
	for ; n > 0; n-- {
		if _, err := r.u32(); err != nil {
			return err
		}
		if _, err := r.name(); err != nil {
			return err
		}
	}
	return nil
}

// readCodeLocals walks the code section's bodies and bounds each one's
// declared locals; instructions are decoded later, by Instrument.
func (m *module) readCodeLocals(r *reader) error {
	n, err := r.count(2)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		size, err := r.u32()
		if err != nil {
			return err
		}
		bodyAt := r.off()
		code, err := r.bytes(int(size))
		if err != nil {
			return err
		}
		br := &reader{b: code, base: bodyAt}
		groups, err := br.count(2)
		if err != nil {
			return err
		}
		var locals uint64
		for j := 0; j < groups; j++ {
			at := br.off()
			k, err := br.u32()
			if err != nil {
				return err
			}
			if locals += uint64(k); locals > maxLocals {
				return &Error{Kind: ErrUnsupported, Func: m.importedFuncs + i, Offset: at,
					Reason: fmt.Sprintf("function declares more than %d locals", maxLocals)}
			}
			if err := readValType(br); err != nil {
				return err
			}
		}
	}
	return nil
}
