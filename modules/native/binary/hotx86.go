package binary

// The hot path: in wasm, each branch the Go code takes costs a dispatch
// through the function's block table (and a fuel check), and fastX86 takes
// some fifty per instruction. hotX86 answers the forms that make up most
// compiled x86-64 code — an optional REX prefix, then a one-byte opcode
// that is a move, load, lea or ALU operation with a ModRM operand (and
// maybe an 8-bit immediate), a push/pop/ret/nop-like one-byte instruction,
// or a relative call or jump — along one short path. Anything else returns
// false and goes to fastX86. TestHotX86AgreesWithFastX86 holds it to
// fastX86's answer at every byte offset of real code and random bytes.

// Kinds of hot opcodes.
const (
	hotNone = iota
	hotPlain
	hotModRM
	hotModRMImm8
	hotRel8
	hotRel32
	hotModRMImm32 // ModRM then a 4-byte immediate
	hotImmV       // mov r, imm: 8 bytes with REX.W, else 4
	hotTwoByte    // 0x0f: see hotTwo
)

var hotKind = func() (t [256]uint8) {
	for op := 0; op < 0x40; op += 8 { // add, or, adc, sbb, and, sub, xor, cmp
		t[op], t[op+1], t[op+2], t[op+3] = hotModRM, hotModRM, hotModRM, hotModRM
	}
	for _, op := range []int{0x63, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8d} {
		t[op] = hotModRM
	}
	t[0x6b], t[0x80], t[0x83] = hotModRMImm8, hotModRMImm8, hotModRMImm8
	for op := 0x50; op <= 0x5f; op++ {
		t[op] = hotPlain
	}
	for op := 0x90; op <= 0x99; op++ {
		t[op] = hotPlain
	}
	t[0xc3], t[0xc9], t[0xcc], t[0xf4] = hotPlain, hotPlain, hotPlain, hotPlain
	for op := 0x70; op <= 0x7f; op++ {
		t[op] = hotRel8
	}
	t[0xeb] = hotRel8
	t[0xe8], t[0xe9] = hotRel32, hotRel32
	t[0x69], t[0x81], t[0xc7] = hotModRMImm32, hotModRMImm32, hotModRMImm32
	for op := 0xb8; op <= 0xbf; op++ {
		t[op] = hotImmV
	}
	t[0x0f] = hotTwoByte
	return t
}()

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
// base) on the hot path, one after another in this one loop: in wasm a
// call costs about as much as decoding an instruction. It stops at to,
// at an instruction the hot path does not know (for fastX86 to decode),
// or when recs is full. It returns where it stopped, how many
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
		if kind == hotTwoByte {
			op, i, kind, two = c[i], i+1, hotTwo[c[i]], true
			if op == 0x1f && (rex || c[i&15]>>6 == 3 || c[i&15]>>3&7 != 0) {
				break // x86asm refuses these nop forms
			}
		}
		switch kind {
		case hotModRM, hotModRMImm8, hotModRMImm32:
			m := c[i&15]
			i++
			mod, rm := m>>6, m&7
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
			if two && ripAt >= 0 || !two && op == 0xc7 && m>>3&7 != 0 {
				return off, count, n // only c7 /0 is mov
			}
			var imm int64
			if kind == hotModRMImm8 {
				imm = int64(int8(c[i&15]))
				i++
			} else if kind == hotModRMImm32 {
				imm = int64(int32(le32(c, i)))
				i += 4
			}
			if ripAt >= 0 {
				recs[n] = decoded{addr: pc, size: i, mem: pc + Addr(i) + Addr(int64(int32(le32(c, ripAt)))), memKind: ripAccess(op, (m>>3)&7)}
				n++
			} else if imm != 0 && d.imageLike(imm) {
				return off, count, n // fastX86 judges immediates that may be addresses
			}
			off += i
		case hotPlain:
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
			if imm := int64(v<<shift) >> shift; imm != 0 && d.imageLike(imm) {
				return off, count, n
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

// imageLike says whether an immediate, as x86asm may present it (sign- or
// zero-extended), could be an address of the image.
func (d *decoder) imageLike(imm int64) bool {
	return d.image(Addr(imm)) || d.image(Addr(uint64(imm)&0xffffffff)) || d.image(Addr(uint64(imm)&0xffff)) || d.image(Addr(uint64(imm)&0xff))
}
