package executable

// A fast path for the x86-64 instructions that make up most code: their
// length and control flow come from a few tables instead of x86asm's full
// decoder, which dominates a sweep (and costs ten times more in wasm).
// Anything unusual — VEX/EVEX, 0F38/0F3A, lock, address-size or stacked
// prefixes, absolute memory, rip-relative operands of two-byte opcodes,
// immediates that look like image addresses — returns false and goes to
// x86asm, so results are identical (TestFastX86AgreesWithX86asm checks
// every byte offset). The commonest forms take hotx86.go's shorter path
// first.

const (
	fNone  = 0
	fModRM = 1 << iota
	fImm8
	fImmZ  // 4 bytes, 2 with a 66 prefix (and no REX.W)
	fImmV  // mov r, imm: 8 with REX.W, 2 with 66, else 4
	fImm16 // ret imm16
	fRel8
	fRel32
	fGroup // validity depends on ModRM.reg (see groupOK)
	fValid
)

var oneByte, twoByte [256]uint16

func init() {
	set := func(t *[256]uint16, flags uint16, ops ...int) {
		for _, op := range ops {
			t[op] = flags | fValid
		}
	}
	span := func(lo, hi int) []int {
		var out []int
		for i := lo; i <= hi; i++ {
			out = append(out, i)
		}
		return out
	}
	for base := 0x00; base <= 0x38; base += 8 { // add, or, adc, sbb, and, sub, xor, cmp
		set(&oneByte, fModRM, base, base+1, base+2, base+3)
		set(&oneByte, fImm8, base+4)
		set(&oneByte, fImmZ, base+5)
	}
	set(&oneByte, fModRM, 0x63, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8d)
	set(&oneByte, fNone, span(0x50, 0x5f)...)
	set(&oneByte, fNone, span(0x90, 0x99)...)
	set(&oneByte, fNone, 0xc3, 0xc9, 0xcc, 0xf4)
	set(&oneByte, fImm8, 0x6a, 0xa8)
	set(&oneByte, fImm8, span(0xb0, 0xb7)...)
	set(&oneByte, fImmZ, 0x68, 0xa9)
	set(&oneByte, fImmV, span(0xb8, 0xbf)...)
	set(&oneByte, fModRM|fImm8, 0x6b, 0x80, 0x83)
	set(&oneByte, fModRM|fImmZ, 0x69, 0x81)
	set(&oneByte, fModRM|fImm8|fGroup, 0xc0, 0xc1, 0xc6)
	set(&oneByte, fModRM|fImmZ|fGroup, 0xc7)
	set(&oneByte, fModRM|fGroup, 0xd0, 0xd1, 0xd2, 0xd3, 0xf6, 0xf7, 0xfe, 0xff)
	set(&oneByte, fRel8, span(0x70, 0x7f)...)
	set(&oneByte, fRel8, 0xeb)
	set(&oneByte, fRel32, 0xe8, 0xe9)

	set(&twoByte, fNone, 0x05, 0x0b, 0xa2)
	set(&twoByte, fNone, span(0xc8, 0xcf)...)
	set(&twoByte, fModRM, 0x1f, 0xa3, 0xab, 0xaf, 0xb0, 0xb1, 0xb3, 0xb6, 0xb7, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1)
	set(&twoByte, fModRM, span(0x10, 0x17)...)
	set(&twoByte, fModRM, span(0x28, 0x2f)...)
	set(&twoByte, fModRM, span(0x40, 0x4f)...)
	set(&twoByte, fModRM, span(0x51, 0x5f)...)
	set(&twoByte, fModRM, span(0x60, 0x6f)...)
	set(&twoByte, fModRM, 0x74, 0x75, 0x76, 0x7e, 0x7f, 0xd4, 0xdb, 0xeb, 0xef, 0xfa, 0xfb, 0xfe)
	set(&twoByte, fModRM, span(0x90, 0x9f)...)
	set(&twoByte, fRel32, span(0x80, 0x8f)...)
}

// scalarSSE are the two-byte opcodes taken with an F2/F3 prefix.
var scalarSSE = [256]bool{0x10: true, 0x11: true, 0x2a: true, 0x2c: true, 0x2d: true, 0x51: true, 0x58: true, 0x59: true, 0x5a: true, 0x5c: true, 0x5d: true, 0x5e: true, 0x5f: true}

// groupOK says whether ModRM.reg selects an instruction the fast path
// knows for a group opcode, and the flow it has.
func groupOK(op byte, reg byte) (Flow, bool) {
	switch op {
	case 0xc0, 0xc1, 0xd0, 0xd1, 0xd2, 0xd3:
		return FlowNext, reg != 6
	case 0xc6, 0xc7:
		return FlowNext, reg == 0
	case 0xf6, 0xf7:
		return FlowNext, reg != 1
	case 0xfe:
		return FlowNext, reg <= 1
	case 0xff:
		switch reg {
		case 0, 1, 6:
			return FlowNext, true
		case 2:
			return FlowIndirectCall, true
		case 4:
			return FlowIndirectJump, true
		}
	}
	return FlowNext, false
}

// ripAccess is how a one-byte opcode of the fast path uses its ModRM
// memory operand, in x86asm's terms: written when it is the destination
// of an instruction that writes, the address itself for lea.
func ripAccess(op, reg byte) refKind {
	switch op {
	case 0x8d:
		return refAddress
	case 0x86, 0x87, 0x88, 0x89, 0xc0, 0xc1, 0xc6, 0xc7, 0xd0, 0xd1, 0xd2, 0xd3, 0xfe:
		return refWrite
	case 0x80, 0x81, 0x83: // group 1: reg 7 is cmp
		if reg == 7 {
			return refRead
		}
		return refWrite
	case 0xf6, 0xf7: // group 3: reg 0 is test
		if reg == 0 {
			return refRead
		}
		return refWrite
	case 0xff: // inc and dec write; call, jmp and push read
		if reg >= 2 {
			return refRead
		}
		return refWrite
	}
	if op < 0x40 && op&7 <= 1 && op&0x38 != 0x38 { // alu r/m, reg (cmp only reads)
		return refWrite
	}
	return refRead
}

// fastX86 decodes one 64-bit instruction into out when it is one of the
// common forms; false sends it to x86asm (out is then undefined). It
// fills out in place: the sweep calls it for every instruction, and in
// wasm returning the struct by value through the call chain cost copies.
func (d *decoder) fastX86(code []byte, pc Addr, out *decoded) bool {
	i := 0
	var p66, rexW, rep, seg bool
	for ; i < len(code) && i < 4; i++ {
		switch code[i] {
		case 0x66:
			if p66 {
				return false
			}
			p66 = true
			continue
		case 0xf2, 0xf3:
			if rep {
				return false
			}
			rep = true
			continue
		case 0x64, 0x65:
			if seg {
				return false
			}
			seg = true
			continue
		}
		break
	}
	if i >= len(code) || i > 2 || p66 && rep {
		return false
	}
	if code[i]&0xf0 == 0x40 {
		rexW = code[i]&8 != 0
		i++
		if i >= len(code) {
			return false
		}
	}
	rex := i > 0 && code[i-1]&0xf0 == 0x40
	op := code[i]
	i++
	flags := oneByte[op]
	two := false
	if op == 0x0f {
		if i >= len(code) {
			return false
		}
		op = code[i]
		i++
		flags, two = twoByte[op], true
	}
	if flags&fValid == 0 {
		return false
	}
	// x86asm refuses a REX prefix on these; so must we.
	if two && rex && op == 0x1f {
		return false
	}
	// SSE opcodes change meaning with a mandatory F2/F3 prefix; only the
	// scalar forms compilers emit are taken here.
	if two && rep && !scalarSSE[op] {
		return false
	}
	if two && (op == 0x6c || op == 0x6d) && !p66 { // punpck*qdq exist only with 66
		return false
	}
	if two && (op == 0x13 || op == 0x17 || op == 0x2b) && (i >= len(code) || code[i]>>6 == 3) { // memory-only stores
		return false
	}
	if two && op == 0x1f && (i >= len(code) || code[i]>>6 == 3 || (code[i]>>3)&7 != 0) {
		return false
	}
	if rep && !two && op != 0x90 && op != 0xc3 {
		return false
	}
	if seg && flags&fModRM == 0 {
		return false
	}
	*out = decoded{addr: pc}
	ripAt, ripKind := -1, refNone
	if flags&fModRM != 0 {
		if i >= len(code) {
			return false
		}
		m := code[i]
		i++
		mod, reg, rm := m>>6, (m>>3)&7, m&7
		if flags&fGroup != 0 {
			f, ok := groupOK(op, reg)
			if !ok {
				return false
			}
			out.flow = f
			if op == 0xf6 && reg == 0 {
				flags |= fImm8
			} else if op == 0xf7 && reg == 0 {
				flags |= fImmZ
			}
		}
		if !two && op == 0x8d && mod == 3 {
			return false
		}
		if mod != 3 {
			if rm == 4 {
				if i >= len(code) {
					return false
				}
				sib := code[i]
				i++
				if sib&7 == 5 && mod == 0 {
					if (sib>>3)&7 == 4 {
						return false // absolute address
					}
					i += 4
				}
			} else if rm == 5 && mod == 0 {
				if two || seg {
					return false
				}
				// rip-relative: the most common memory operand of
				// position-independent code (lea, mov and cmp of globals,
				// calls through the GOT).
				ripAt, ripKind = i, ripAccess(op, reg)
				i += 4
			}
			switch mod {
			case 1:
				i++
			case 2:
				i += 4
			}
		} else if out.flow == FlowIndirectCall || out.flow == FlowIndirectJump {
			// register operand: fine
		}
		if seg && mod == 3 {
			return false
		}
	}
	var imm int64
	hasImm := false
	// n is the size of the immediate or relative operand, read below.
	n := 0
	switch {
	case flags&fImm8 != 0:
		n = 1
	case flags&fImmZ != 0:
		n = 4
		if p66 && !rexW {
			n = 2
		}
	case flags&fImmV != 0:
		n = 4
		if rexW {
			n = 8
		} else if p66 {
			n = 2
		}
	case flags&fImm16 != 0:
		if i+2 > len(code) {
			return false
		}
		i += 2
		out.flow = FlowReturn
	case flags&(fRel8|fRel32) != 0:
		n = 1
		if flags&fRel32 != 0 {
			if p66 {
				return false
			}
			n = 4
		}
	}
	if n > 0 {
		if i+n > len(code) {
			return false
		}
		var v uint64
		for k := n - 1; k >= 0; k-- {
			v = v<<8 | uint64(code[i+k])
		}
		shift := 64 - 8*uint(n)
		imm, hasImm = int64(v<<shift)>>shift, true
		i += n
	}
	if flags&(fRel8|fRel32) != 0 {
		hasImm = false
		out.target = Addr(int64(pc) + int64(i) + imm)
		switch {
		case !two && op == 0xe8:
			out.flow = FlowCall
		case !two && (op == 0xe9 || op == 0xeb):
			out.flow = FlowJump
		default:
			out.flow = FlowCondJump
		}
	}
	if i > len(code) || i > 15 {
		return false
	}
	if ripAt >= 0 {
		// The memory operand names the address; x86asm then ignores
		// the immediate.
		disp := int32(uint32(code[ripAt]) | uint32(code[ripAt+1])<<8 | uint32(code[ripAt+2])<<16 | uint32(code[ripAt+3])<<24)
		out.mem, out.memKind = pc+Addr(i)+Addr(int64(disp)), ripKind
	} else if hasImm && imm != 0 {
		// x86asm may present the immediate sign- or zero-extended.
		if d.image(Addr(imm)) || d.image(Addr(uint64(imm)&0xffffffff)) || d.image(Addr(uint64(imm)&0xffff)) || d.image(Addr(uint64(imm)&0xff)) {
			return false
		}
	}
	if !two {
		switch op {
		case 0xc3:
			out.flow = FlowReturn
		case 0xf4:
			out.flow = FlowTrap
		}
	} else if op == 0x0b {
		out.flow = FlowTrap
	}
	out.size = i
	return true
}
