package fuel

import (
	"fmt"

	"rea/wasm/internal/leb128"
)

// yieldMask sets how often a check yields to the Go runtime: whenever the
// counter's low 16 bits were zero before the decrement, that is once per
// 65,536 checks.
const yieldMask = 0xffff

// checkSequence returns the instructions inserted at every function entry and
// loop header, for the fuel global at index g:
//
//	global.get g        ;; 0x23 g           v
//	i64.const 1         ;; 0x42 0x01
//	i64.sub             ;; 0x7d
//	global.set g        ;; 0x24 g           g = v-1
//	global.get g        ;; 0x23 g
//	i64.const 0xffff    ;; 0x42 0xff 0xff 0x03
//	i64.and             ;; 0x83
//	i64.const 0xffff    ;; 0x42 0xff 0xff 0x03
//	i64.eq              ;; 0x51             low 16 bits of v were zero?
//	if                  ;; 0x04 0x40        rare: 1 check in 65,536
//	  global.get g      ;; 0x23 g
//	  i64.const -1      ;; 0x42 0x7f
//	  i64.eq            ;; 0x51             v was 0: out of fuel or cancelled
//	  if                ;; 0x04 0x40
//	    i64.const 0     ;; 0x42 0x00
//	    global.set g    ;; 0x24 g           leave 0, not 2^64-1, for the host
//	    unreachable     ;; 0x00
//	  end               ;; 0x0b
//	  i32.const 0       ;; 0x41 0x00        (i64.const 0 for memory64)
//	  memory.grow 0     ;; 0x40 0x00        yield to the Go runtime
//	  drop              ;; 0x1a
//	end                 ;; 0x0b
//
// Why this sequence:
//   - The hot path is one load, subtract, store, and, compare, not-taken
//     branch. wazero's optimizing compiler forwards the value just stored to
//     the second global.get, so there is a single memory load, and it is at
//     the top of a function or loop header where the compiler always
//     reloads globals, which makes a concurrent store by the host visible at
//     the next check.
//   - "Low 16 bits of v were zero" includes v == 0, so exhaustion and
//     cancellation cost nothing extra on the hot path. A budget of N allows
//     exactly N checks; the N+1st traps and leaves the counter at 0, so fuel
//     used is budget minus what is left.
//   - The yield: Go cannot preempt a goroutine while it runs code wazero
//     compiled, so a guest looping without calling the host would block
//     every stop-the-world in the host process (each GC cycle) and every
//     goroutine waiting on it, including the one that wants to cancel the
//     guest. memory.grow by 0 pages changes nothing, but wazero's compiler
//     implements it as an exit into Go (MemoryInstance.Grow), where the
//     goroutine can be preempted. Once per 65,536 checks bounds the time
//     between preemption points to well under a millisecond of guest work.
//   - The yield comes after the store. A guest is most often descheduled
//     exactly there, and that is when the host's cancelling store runs; had
//     the guest still to write back a value it read before the yield, it
//     would overwrite the host's 0 every time (measured: 127 lost stores in
//     a row before this ordering).
//   - The if…end blocks are self-contained (block type 0x40, stack-neutral),
//     so no branch depth in the original code changes.
//
// The sequence is 40 bytes when g < 128.
func checkSequence(g uint32, memory64 bool) []byte {
	gi := leb128.AppendUint32(nil, g)
	b := []byte{0x23}
	b = append(b, gi...)
	b = append(b, 0x42, 0x01, 0x7d, 0x24)
	b = append(b, gi...)
	b = append(b, 0x23)
	b = append(b, gi...)
	b = append(b, 0x42)
	b = leb128.AppendInt64(b, yieldMask)
	b = append(b, 0x83, 0x42)
	b = leb128.AppendInt64(b, yieldMask)
	b = append(b, 0x51, 0x04, 0x40, 0x23)
	b = append(b, gi...)
	b = append(b, 0x42, 0x7f, 0x51, 0x04, 0x40, 0x42, 0x00, 0x24)
	b = append(b, gi...)
	b = append(b, 0x00, 0x0b)
	if memory64 {
		b = append(b, 0x42, 0x00)
	} else {
		b = append(b, 0x41, 0x00)
	}
	return append(b, 0x40, 0x00, 0x1a, 0x0b)
}

// instrumentCode rewrites the code section content (which starts at module
// offset base): each body gets the check after its locals and after every
// loop's block type.
func (m *module) instrumentCode(content []byte, base int, check []byte) ([]byte, error) {
	r := &reader{b: content, base: base}
	n, err := r.count(2)
	if err != nil {
		return nil, err
	}
	if n != m.definedFuncs {
		return nil, errorf(ErrMalformed, base, "code section has %d bodies but the function section declares %d", n, m.definedFuncs)
	}
	out := make([]byte, 0, len(content)+len(content)/4)
	out = leb128.AppendUint32(out, uint32(n))
	var body []byte
	for i := 0; i < n; i++ {
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		bodyStart := r.off()
		code, err := r.bytes(int(size))
		if err != nil {
			return nil, err
		}
		fn := &function{index: m.importedFuncs + i, r: reader{b: code, base: bodyStart}}
		body, err = fn.instrument(body[:0], check)
		if err != nil {
			return nil, err
		}
		out = leb128.AppendUint32(out, uint32(len(body)))
		out = append(out, body...)
	}
	if !r.eof() {
		return nil, errorf(ErrMalformed, r.off(), "code section has %d bytes after its last body", len(content)-r.pos)
	}
	return out, nil
}

// maxLocals bounds the locals of one function. The spec sets no limit, but
// wazero allocates the declared count before validating it, so a few forged
// bytes would make it allocate gigabytes; browsers stop at 50,000 and Go's
// wasm backend declares a handful.
const maxLocals = 50_000

// function decodes one body. Errors name the function index.
type function struct {
	index int
	r     reader
}

func (f *function) fail(kind error, at int, op string, format string, args ...any) error {
	return &Error{Kind: kind, Func: f.index, Offset: at, Opcode: op, Reason: fmt.Sprintf(format, args...)}
}

// wrap attaches the function index to a reader error.
func (f *function) wrap(err error, op string) error {
	if e, ok := err.(*Error); ok && e.Func < 0 {
		e.Func = f.index
		if e.Opcode == "" {
			e.Opcode = op
		}
	}
	return err
}

// inInstruction points an error at the start of the instruction (offset
// at, opcode op) that holds it, so a person looks at the opcode, not at a
// byte in the middle of its immediates.
func (f *function) inInstruction(err error, at int, op byte) error {
	if e, ok := err.(*Error); ok {
		e.Func = f.index
		e.Offset = at
		if e.Opcode == "" {
			e.Opcode = opName(op)
		}
	}
	return err
}

// instrument appends the instrumented body to out.
func (f *function) instrument(out []byte, check []byte) ([]byte, error) {
	r := &f.r
	groups, err := r.count(2)
	if err != nil {
		return nil, f.wrap(err, "")
	}
	var locals uint64
	for i := 0; i < groups; i++ {
		at := r.off()
		n, err := r.u32()
		if err != nil {
			return nil, f.wrap(err, "")
		}
		if locals += uint64(n); locals > maxLocals {
			return nil, f.fail(ErrUnsupported, at, "", "function declares more than %d locals", maxLocals)
		}
		if err := readValType(r); err != nil {
			return nil, f.wrap(err, "")
		}
	}
	out = append(out, r.b[:r.pos]...)
	copied := r.pos
	// The entry check is written lazily: if the body reaches a loop through
	// straight-line code only (Go's wasm backend opens every function with
	// global.get SP; local.set; block; loop), the loop's check runs on entry
	// anyway, bounded work later, and a second check would only cost time.
	entryPending := true
	depth := 1 // the function body is itself a block
	var d dispatch
	var labels []uint32
	for {
		if r.eof() {
			return nil, f.fail(ErrMalformed, r.off(), "", "body ends inside %d unclosed block(s)", depth)
		}
		at := r.off()
		op, _ := r.byte()
		if entryPending && op != 0x03 && !straightLine(op) {
			out = append(out, check...)
			entryPending = false
		}
		switch {
		case op == 0x02 || op == 0x04: // block, if
			empty := !r.eof() && r.b[r.pos] == 0x40
			if err := f.blockType(op); err != nil {
				return nil, f.inInstruction(err, at, op)
			}
			depth++
			d.open(op, empty)
		case op == 0x03: // loop: meter every iteration at the loop's label
			empty := !r.eof() && r.b[r.pos] == 0x40
			if err := f.blockType(op); err != nil {
				return nil, f.inInstruction(err, at, op)
			}
			depth++
			d.open(op, empty)
			out = append(out, r.b[copied:r.pos]...)
			out = append(out, check...)
			copied = r.pos
			entryPending = false
		case op == 0x0b: // end
			depth--
			d.close()
			if depth == 0 {
				if !r.eof() {
					return nil, f.fail(ErrMalformed, r.off(), "", "%d bytes follow the body's final end", len(r.b)-r.pos)
				}
				return append(out, r.b[copied:]...), nil
			}
		default:
			start := r.pos
			if err := f.immediates(op, at); err != nil {
				return nil, f.inInstruction(err, at, op)
			}
			var imm int64
			imm, labels = decodeImmediate(op, r.b[start:r.pos], labels[:0])
			if l, ok := d.instruction(op, imm, labels); ok {
				out = append(out, r.b[copied:start]...)
				out = leb128.AppendUint32(out, l)
				copied = r.pos
			}
		}
	}
}

// decodeImmediate returns the immediate the dispatch matcher needs: the
// label of br, the local of local.get/set, the value of i32.const, and the
// labels of br_table. The bytes were validated by immediates.
func decodeImmediate(op byte, b []byte, labels []uint32) (int64, []uint32) {
	switch op {
	case 0x0c, 0x20, 0x21:
		v, _, _ := leb128.Uint32(b)
		return int64(v), labels
	case 0x41:
		v, _, _ := leb128.Int32(b)
		return int64(v), labels
	case 0x0e:
		n, k, _ := leb128.Uint32(b)
		b = b[k:]
		for i := uint32(0); i <= n; i++ {
			v, k, _ := leb128.Uint32(b)
			labels = append(labels, v)
			b = b[k:]
		}
	}
	return 0, labels
}

// straightLine reports whether op neither calls, branches nor ends a block,
// so that a run of such instructions from the function entry to a loop is
// bounded work that the loop's check can account for.
func straightLine(op byte) bool {
	switch {
	case op == 0x01 || op == 0x02 || op == 0x1a || op == 0x1b: // nop, block, drop, select
		return true
	case op >= 0x20 && op <= 0x24: // local.*, global.*
		return true
	case op >= 0x28 && op <= 0x3e: // loads, stores
		return true
	case op >= 0x41 && op <= 0xc4: // constants, numeric
		return true
	}
	return false
}

// blockType skips a block type: 0x40 (empty), a single value type, or a
// non-negative s33 type index (multi-value).
func (f *function) blockType(op byte) error {
	r := &f.r
	at := r.off()
	c, err := r.byte()
	if err != nil {
		return f.wrap(err, opName(op))
	}
	if c == 0x40 || isValType(c) {
		return nil
	}
	if c&0x80 == 0 {
		if c&0x40 != 0 {
			return f.fail(ErrUnsupported, at, opName(op), "block type 0x%02x is not supported", c)
		}
		return nil // one-byte type index
	}
	r.pos--
	// s33: at most 5 bytes; the last byte's sign bit must be clear.
	for i := 0; i < 5; i++ {
		c, err := r.byte()
		if err != nil {
			return f.wrap(err, opName(op))
		}
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				return f.fail(ErrMalformed, at, opName(op), "negative block type index")
			}
			return nil
		}
	}
	return f.fail(ErrMalformed, at, opName(op), "block type index longer than 5 bytes")
}

// immediates skips the immediates of every opcode other than the block
// instructions and end, or refuses the opcode.
func (f *function) immediates(op byte, at int) error {
	r := &f.r
	var err error
	switch {
	case op == 0x00 || op == 0x01 || op == 0x05 || op == 0x0f: // unreachable, nop, else, return
	case op == 0x0c || op == 0x0d: // br, br_if
		_, err = r.u32()
	case op == 0x0e: // br_table: vec(label) default
		var n int
		if n, err = r.count(1); err == nil {
			for i := 0; i <= n && err == nil; i++ {
				_, err = r.u32()
			}
		}
	case op == 0x10 || op == 0x12: // call, return_call
		_, err = r.u32()
	case op == 0x11 || op == 0x13: // call_indirect, return_call_indirect: type, table
		if _, err = r.u32(); err == nil {
			_, err = r.u32()
		}
	case op == 0x1a || op == 0x1b: // drop, select
	case op == 0x1c: // select t*
		var n int
		if n, err = r.count(1); err == nil {
			for i := 0; i < n && err == nil; i++ {
				err = readValType(r)
			}
		}
	case op >= 0x20 && op <= 0x26: // local.*, global.*, table.get/set
		_, err = r.u32()
	case op >= 0x28 && op <= 0x3e: // loads and stores
		err = memarg(r)
	case op == 0x3f || op == 0x40: // memory.size, memory.grow
		_, err = r.u32()
	case op == 0x41: // i32.const
		err = r.skipLEB(5)
	case op == 0x42: // i64.const
		err = r.skipLEB(10)
	case op == 0x43: // f32.const
		_, err = r.bytes(4)
	case op == 0x44: // f64.const
		_, err = r.bytes(8)
	case op >= 0x45 && op <= 0xc4: // numeric, conversions, sign extension
	case op == 0xd0: // ref.null heaptype
		err = readRefType(r)
	case op == 0xd1: // ref.is_null
	case op == 0xd2: // ref.func
		_, err = r.u32()
	case op == 0xfc:
		return f.prefixFC(at)
	case op == 0xfd:
		return f.prefixFD(at)
	case op == 0xfe:
		return f.prefixFE(at)
	case op >= 0x06 && op <= 0x0a, op == 0x18, op == 0x19, op == 0x1f:
		return f.fail(ErrUnsupported, at, opName(op), "exception handling instructions cannot be metered")
	case op == 0x14 || op == 0x15 || (op >= 0xd3 && op <= 0xd6) || op == 0xfb:
		return f.fail(ErrUnsupported, at, opName(op), "typed function reference and GC instructions cannot be metered")
	default:
		return f.fail(ErrUnsupported, at, opName(op), "unknown opcode")
	}
	if err != nil {
		return f.wrap(err, opName(op))
	}
	return nil
}

// memarg skips alignment (bit 6 flags a multi-memory index), optional memory
// index and offset (64-bit under memory64).
func memarg(r *reader) error {
	align, err := r.u32()
	if err != nil {
		return err
	}
	if align&0x40 != 0 {
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	return r.skipLEB(10)
}

// prefixFC: saturating truncation (0–7), bulk memory (8–11), table ops (12–17).
func (f *function) prefixFC(at int) error {
	r := &f.r
	sub, err := r.u32()
	if err != nil {
		return f.wrap(err, "0xfc")
	}
	op := fmt.Sprintf("0xfc 0x%02x", sub)
	var imms int
	switch sub {
	case 0, 1, 2, 3, 4, 5, 6, 7:
		imms = 0
	case 9, 11, 13, 15, 16, 17: // data.drop, memory.fill, elem.drop, table.grow/size/fill
		imms = 1
	case 8, 10, 12, 14: // memory.init, memory.copy, table.init, table.copy
		imms = 2
	default:
		return f.fail(ErrUnsupported, at, op, "unknown 0xfc instruction")
	}
	for i := 0; i < imms; i++ {
		if _, err := r.u32(); err != nil {
			return f.wrap(err, op)
		}
	}
	return nil
}

// prefixFD decodes the 236 fixed-width SIMD instructions; relaxed SIMD and
// unassigned opcodes are refused.
func (f *function) prefixFD(at int) error {
	r := &f.r
	sub, err := r.u32()
	if err != nil {
		return f.wrap(err, "0xfd")
	}
	op := fmt.Sprintf("0xfd 0x%02x", sub)
	if !simdOpcode(sub) {
		return f.fail(ErrUnsupported, at, op, "unknown SIMD instruction")
	}
	switch {
	case sub <= 0x0b || sub == 0x5c || sub == 0x5d: // loads, store, load_zero
		err = memarg(r)
	case sub == 0x0c || sub == 0x0d: // v128.const, i8x16.shuffle
		_, err = r.bytes(16)
	case sub >= 0x15 && sub <= 0x22: // extract/replace lane
		_, err = r.byte()
	case sub >= 0x54 && sub <= 0x5b: // load/store lane
		if err = memarg(r); err == nil {
			_, err = r.byte()
		}
	}
	if err != nil {
		return f.wrap(err, op)
	}
	return nil
}

// simdOpcode reports whether sub is an assigned fixed-width SIMD opcode.
func simdOpcode(sub uint32) bool {
	switch {
	case sub > 0xff:
		return false
	case sub == 0x9a, sub == 0xa2, sub == 0xa5, sub == 0xa6, sub == 0xaf,
		sub == 0xb0, sub >= 0xb2 && sub <= 0xb4, sub == 0xbb, sub == 0xc2,
		sub == 0xc5, sub == 0xc6, sub == 0xcf, sub == 0xd0, sub >= 0xd2 && sub <= 0xd4,
		sub == 0xe2, sub == 0xee:
		return false
	}
	return true
}

// prefixFE decodes the threads proposal's atomic instructions.
func (f *function) prefixFE(at int) error {
	r := &f.r
	sub, err := r.u32()
	if err != nil {
		return f.wrap(err, "0xfe")
	}
	op := fmt.Sprintf("0xfe 0x%02x", sub)
	switch {
	case sub <= 0x02 || (sub >= 0x10 && sub <= 0x4e):
		err = memarg(r)
	case sub == 0x03: // atomic.fence 0x00
		_, err = r.byte()
	default:
		return f.fail(ErrUnsupported, at, op, "unknown atomic instruction")
	}
	if err != nil {
		return f.wrap(err, op)
	}
	return nil
}

func opName(op byte) string { return fmt.Sprintf("0x%02x", op) }
