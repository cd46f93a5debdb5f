package executable

// The hot path: in wasm a call costs about as much as decoding an
// instruction, and each branch the Go code takes is a dispatch through the
// function's block table (and a fuel check); fastX86 takes some fifty per
// instruction. hotRun decodes the forms that make up most compiled x86-64
// code, one after another in one loop: an optional REX prefix (or 66 for
// the padding nops, with a cs override too), then a one-byte opcode — a move, load, lea, ALU,
// shift or group operation with a ModRM operand and maybe an immediate, a
// push/pop/ret/nop-like one-byte instruction, an operation on the
// accumulator with an immediate, a relative call or jump — or one of a few
// two-byte ones. Anything else stops it, for fastX86 (or x86asm) to
// decode. TestHotX86AgreesWithFastX86 holds it to their answer at every
// byte offset of real code and of random bytes.

// Kinds of hot opcodes.
const (
	hotNone = iota
	hotPlain
	hotModRM
	hotRel8
	hotRel32
	hotImm   // an immediate and no ModRM (push, test/alu on the accumulator, mov r8)
	hotImmV  // mov r, imm: 8 bytes with REX.W, else 4
	hotGroup // ModRM whose reg field picks the operation: see hotGroupOp
	hotTwoByte
	hotP66 // 66: the nop forms compilers pad with
)

// Immediates of hot opcodes, as x86asm presents them: 8-bit operations
// zero-extend an 8-bit immediate (never an address of an image above
// 0x1000), wider ones sign-extend theirs.
const (
	immNone = iota
	immZero8
	immSign8
	immSign32
)

var hotKind, hotImmOf = func() (kind, imm [256]uint8) {
	for op := 0; op < 0x40; op += 8 { // add, or, adc, sbb, and, sub, xor, cmp
		kind[op], kind[op+1], kind[op+2], kind[op+3] = hotModRM, hotModRM, hotModRM, hotModRM
		kind[op+4], imm[op+4] = hotImm, immZero8  // op al, imm8
		kind[op+5], imm[op+5] = hotImm, immSign32 // op eax, imm32
	}
	for _, op := range []int{0x63, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8d} {
		kind[op] = hotModRM
	}
	kind[0x6b], imm[0x6b] = hotModRM, immSign8
	kind[0x80], imm[0x80] = hotModRM, immZero8
	kind[0x83], imm[0x83] = hotModRM, immSign8
	kind[0x69], imm[0x69] = hotModRM, immSign32
	kind[0x81], imm[0x81] = hotModRM, immSign32
	for op := 0x50; op <= 0x5f; op++ {
		kind[op] = hotPlain
	}
	for op := 0x90; op <= 0x99; op++ {
		kind[op] = hotPlain
	}
	kind[0xc3], kind[0xc9], kind[0xcc], kind[0xf4] = hotPlain, hotPlain, hotPlain, hotPlain
	for op := 0x70; op <= 0x7f; op++ {
		kind[op] = hotRel8
	}
	kind[0xeb] = hotRel8
	kind[0xe8], kind[0xe9] = hotRel32, hotRel32
	kind[0x6a], imm[0x6a] = hotImm, immSign8
	kind[0x68], imm[0x68] = hotImm, immSign32
	kind[0xa8], imm[0xa8] = hotImm, immZero8
	kind[0xa9], imm[0xa9] = hotImm, immSign32
	for op := 0xb0; op <= 0xb7; op++ {
		kind[op], imm[op] = hotImm, immZero8
	}
	for op := 0xb8; op <= 0xbf; op++ {
		kind[op] = hotImmV
	}
	for _, op := range []int{0xc0, 0xc1, 0xc6, 0xc7, 0xd0, 0xd1, 0xd2, 0xd3, 0xf6, 0xf7, 0xfe, 0xff} {
		kind[op] = hotGroup
	}
	kind[0x0f] = hotTwoByte
	kind[0x66] = hotP66
	return kind, imm
}()

// hotGroupOp says, for a group opcode and its ModRM reg field, whether the
// hot path takes it, its immediate and its flow.
func hotGroupOp(op, reg byte) (ok bool, imm uint8, flow Flow) {
	switch op {
	case 0xc0, 0xc1: // shifts by imm8
		return reg != 6, immZero8, FlowNext
	case 0xd0, 0xd1, 0xd2, 0xd3: // shifts by 1 or cl
		return reg != 6, immNone, FlowNext
	case 0xc6: // mov r/m8, imm8
		return reg == 0, immZero8, FlowNext
	case 0xc7: // mov r/m, imm32
		return reg == 0, immSign32, FlowNext
	case 0xf6: // test imm8, not, neg, mul, imul, div, idiv
		if reg == 0 {
			return true, immZero8, FlowNext
		}
		return reg != 1, immNone, FlowNext
	case 0xf7:
		if reg == 0 {
			return true, immSign32, FlowNext
		}
		return reg != 1, immNone, FlowNext
	case 0xfe: // inc, dec
		return reg <= 1, immNone, FlowNext
	case 0xff: // inc, dec, call, jmp, push
		switch reg {
		case 0, 1, 6:
			return true, immNone, FlowNext
		case 2:
			return true, immNone, FlowIndirectCall
		case 4:
			return true, immNone, FlowIndirectJump
		}
	}
	return false, immNone, FlowNext
}

// hotTwo are the hot two-byte opcodes (after 0x0f): jcc rel32, movzx,
// movsx, cmovcc, imul and the multi-byte nop.
var hotTwo = func() (t [256]uint8) {
	for op := 0x80; op <= 0x8f; op++ {
		t[op] = hotRel32
	}
	for op := 0x40; op <= 0x4f; op++ {
		t[op] = hotModRM
	}
	t[0xb6], t[0xb7], t[0xbe], t[0xbf], t[0xaf], t[0x1f] = hotModRM, hotModRM, hotModRM, hotModRM, hotModRM, hotModRM
	return t
}()

// dispBytes is the displacement size of a ModRM mod field (rip-relative
// and SIB-without-base forms are handled apart).
var dispBytes = [4]int{0, 1, 4, 0}

// hotX86 decodes one common 64-bit instruction into out, or returns false.
// It needs 16 bytes of code (an instruction is at most 15) so it can read
// without checking lengths.
func (d *decoder) hotX86(code []byte, pc Addr, out *decoded) bool {
	var rec [1]decoded
	next, count, n := d.hotRun(code, 0, 1, pc, rec[:])
	switch {
	case count == 0:
		return false
	case n == 1:
		*out = rec[0]
	default: // not recorded: only ret and hlt of the plain ones have a flow
		*out = decoded{addr: pc, size: next}
		op := code[0]
		if op&0xf0 == 0x40 {
			op = code[1]
		}
		if hotKind[op] == hotPlain && op == 0xc3 {
			out.flow = FlowReturn
		} else if hotKind[op] == hotPlain && op == 0xf4 {
			out.flow = FlowTrap
		}
	}
	return true
}

// hotRun decodes the instructions starting in code[off:to] (code[0] is at
// base) on the hot path, one after another in this one loop. It stops at
// to, at an instruction the hot path does not know (for fastX86 to
// decode), or when recs is full. It returns where it stopped, how many
// instructions it decoded, and how many of them it put in recs: those that
// branch or name a memory address. The others fall through and reference
// nothing, so a sweep only counts them.
func (d *decoder) hotRun(code []byte, off, to int, base Addr, recs []decoded) (next, count, n int) {
	for off < to && n < len(recs) && len(code)-off >= 16 {
		c := code[off : off+16 : off+16]
		pc := base + Addr(off)
		op, i := c[0], 1
		rex, rexW := false, false
		if op&0xf0 == 0x40 { // REX
			rex, rexW = true, op&8 != 0
			op, i = c[1], 2
		}
		kind, two := hotKind[op], false
		if kind >= hotTwoByte {
			if kind == hotP66 {
				switch {
				case rex:
					return off, count, n
				case c[1] == 0x90: // data16 nop
					off += 2
					count++
					continue
				default:
					// nopw r/m, as compilers pad: 66 prefixes, maybe a cs
					// override, then 0f 1f.
					j := 1
					for j < 8 && c[j] == 0x66 {
						j++
					}
					if c[j&15] == 0x2e {
						j++
					}
					if c[j&15] != 0x0f || c[(j+1)&15] != 0x1f {
						return off, count, n
					}
					op, i, kind, two = 0x1f, j+2, hotModRM, true
				}
			} else {
				op, i, kind, two = c[i], i+1, hotTwo[c[i]], true
			}
			if op == 0x1f && (rex || c[i&15]>>6 == 3 || c[i&15]>>3&7 != 0) {
				return off, count, n // x86asm refuses these nop forms
			}
		}
		switch kind {
		case hotModRM, hotGroup:
			m := c[i&15]
			i++
			mod, rm, reg := m>>6, m&7, m>>3&7
			flow, immKind := FlowNext, uint8(immNone)
			if kind == hotGroup {
				var ok bool
				if ok, immKind, flow = hotGroupOp(op, reg); !ok {
					return off, count, n
				}
			} else if !two {
				immKind = hotImmOf[op]
			}
			ripAt := -1
			if mod != 3 {
				if rm == 4 {
					sib := c[i&15]
					i++
					if sib&7 == 5 && mod == 0 {
						if (sib>>3)&7 == 4 {
							return off, count, n // absolute address: x86asm names it
						}
						i += 4
					}
				} else if rm == 5 && mod == 0 {
					ripAt = i
					i += 4
				}
				i += dispBytes[mod]
			} else if op == 0x8d && !two {
				return off, count, n // lea needs memory
			}
			if two && ripAt >= 0 || i > 15 { // at most 15 bytes make an instruction
				return off, count, n
			}
			var imm int64
			if immKind != immNone {
				switch immKind {
				case immZero8:
					imm = int64(c[i&15])
					i++
				case immSign8:
					imm = int64(int8(c[i&15]))
					i++
				case immSign32:
					imm = int64(int32(le32(c, i)))
					i += 4
				}
			}
			switch {
			case ripAt < 0 && imm == 0 && flow == FlowNext: // most of them
			case ripAt >= 0:
				// The memory operand names the address; x86asm then
				// ignores the immediate.
				recs[n] = decoded{addr: pc, size: i, flow: flow, mem: pc + Addr(i) + Addr(int64(int32(le32(c, ripAt)))), memKind: ripAccess(op, reg)}
				n++
			case imm != 0 && d.image(Addr(imm)):
				recs[n] = decoded{addr: pc, size: i, flow: flow, mem: Addr(imm), memKind: refAddress}
				n++
			case flow != FlowNext:
				recs[n] = decoded{addr: pc, size: i, flow: flow}
				n++
			}
			off += i
		case hotPlain:
			off += i
		case hotImm:
			var imm int64
			switch hotImmOf[op] {
			case immZero8:
				i++ // an 8-bit value: below any image
			case immSign8:
				imm = int64(int8(c[i&15]))
				i++
			case immSign32:
				imm = int64(int32(le32(c, i)))
				i += 4
			}
			if imm != 0 && d.image(Addr(imm)) {
				recs[n] = decoded{addr: pc, size: i, mem: Addr(imm), memKind: refAddress}
				n++
			}
			off += i
		case hotRel8:
			flow := FlowCondJump
			if op == 0xeb {
				flow = FlowJump
			}
			recs[n] = decoded{addr: pc, size: i + 1, flow: flow, target: pc + Addr(i+1) + Addr(int64(int8(c[i&15])))}
			n++
			off += i + 1
		case hotRel32:
			flow := FlowCall
			if two {
				flow = FlowCondJump
			} else if op == 0xe9 {
				flow = FlowJump
			}
			recs[n] = decoded{addr: pc, size: i + 4, flow: flow, target: pc + Addr(i+4) + Addr(int64(int32(le32(c, i))))}
			n++
			off += i + 4
		case hotImmV:
			w := 4
			if rexW {
				w = 8
			}
			var v uint64
			for k := w - 1; k >= 0; k-- {
				v = v<<8 | uint64(c[(i+k)&15])
			}
			shift := 64 - 8*uint(w)
			if imm := int64(v<<shift) >> shift; imm != 0 && d.image(Addr(imm)) {
				recs[n] = decoded{addr: pc, size: i + w, mem: Addr(imm), memKind: refAddress}
				n++
			}
			off += i + w
		default:
			return off, count, n
		}
		count++
	}
	return off, count, n
}

// le32 reads the little-endian 32 bits at c[i:] of a 16-byte window.
func le32(c []byte, i int) uint32 {
	return uint32(c[i&15]) | uint32(c[(i+1)&15])<<8 | uint32(c[(i+2)&15])<<16 | uint32(c[(i+3)&15])<<24
}
