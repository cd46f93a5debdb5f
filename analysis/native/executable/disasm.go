package executable

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/arch/arm64/arm64asm"
	"golang.org/x/arch/x86/x86asm"
)

// Flow is how an instruction passes control on.
type Flow uint8

// Flow kinds.
const (
	FlowNext         Flow = iota // falls through
	FlowCall                     // direct call
	FlowIndirectCall             // call through a register or memory
	FlowJump                     // unconditional direct jump
	FlowCondJump                 // conditional direct jump
	FlowIndirectJump             // jump through a register or memory
	FlowReturn                   // return
	FlowTrap                     // halts: hlt, ud2, brk
)

func (k Flow) String() string {
	return [...]string{"next", "call", "indirect-call", "jump", "conditional-jump", "indirect-jump", "return", "trap"}[k]
}

// endsBlock says whether control never simply falls through.
func (k Flow) endsBlock() bool { return k >= FlowJump }

// Operand reference kinds.
const (
	RefCall    = "call"
	RefJump    = "jump"
	RefRead    = "read"
	RefWrite   = "write"
	RefAddress = "address" // the address itself is computed or loaded as a constant
)

// decoded is one decoded instruction, without its text.
type decoded struct {
	addr   Addr
	size   int
	flow   Flow
	target Addr // direct branch target when flow is call/jump/cond-jump
	// mem is a memory or address operand resolved to an absolute address
	// (rip-relative, absolute, adrp pairs, immediates pointing into the
	// image); memKind is read, write or address.
	mem     Addr
	memKind refKind
}

// refKind is a memory operand's use, kept small and pointer-free in
// decoded: the sweep fills a decoded per instruction, and a struct with
// pointers costs write barriers whenever the collector marks.
type refKind uint8

const (
	refNone refKind = iota
	refRead
	refWrite
	refAddress
)

var refKindNames = [...]string{"", RefRead, RefWrite, RefAddress}

// String is the kind's Reference.Kind.
func (k refKind) String() string { return refKindNames[k] }

// decoder walks code of one architecture and keeps the little state an
// adrp/add pair needs.
type decoder struct {
	arch string
	mode int
	// inImage says whether a constant looks like an address of the image;
	// nothing outside [lo, hi) does, which spares most calls.
	inImage func(Addr) bool
	lo, hi  Addr
	pages   [32]Addr
	hasPage [32]bool
	// keepRaw keeps the last decoded instruction in raw for text
	// rendering; the sweep leaves it off, since boxing every instruction
	// costs an allocation (and in wasm, garbage collection dominates).
	keepRaw bool
	raw     any // x86asm.Inst or arm64asm.Inst
	// slowOnly turns the fast path off (its equivalence test compares).
	slowOnly bool
}

func newDecoder(arch string, inImage func(Addr) bool) (*decoder, error) {
	d := &decoder{arch: arch, inImage: inImage, hi: ^Addr(0)}
	switch arch {
	case "x86_64":
		d.mode = 64
	case "x86":
		d.mode = 32
	case "arm64":
	default:
		return nil, fmt.Errorf("no disassembler for architecture %q (native-lite reads x86, x86_64 and arm64)", arch)
	}
	return d, nil
}

// image says whether a constant looks like an address of the image.
func (d *decoder) image(a Addr) bool {
	return a >= d.lo && a < d.hi && d.inImage != nil && d.inImage(a)
}

// step is the minimal stride after undecodable bytes.
func (d *decoder) step() int {
	if d.arch == "arm64" {
		return 4
	}
	return 1
}

func (d *decoder) reset() { d.hasPage = [32]bool{} }

// decode reads one instruction at pc; ok is false for undecodable bytes.
func (d *decoder) decode(code []byte, pc Addr) (decoded, bool) {
	if d.arch == "arm64" {
		return d.decodeARM64(code, pc)
	}
	return d.decodeX86(code, pc)
}

// decodeInto decodes one instruction at pc into out, the fast path first.
func (d *decoder) decodeInto(code []byte, pc Addr, out *decoded) bool {
	if d.mode == 64 && !d.keepRaw && !d.slowOnly && (d.hotX86(code, pc, out) || d.fastX86(code, pc, out)) {
		return true
	}
	var ok bool
	if d.arch == "arm64" {
		*out, ok = d.decodeARM64(code, pc)
	} else {
		*out, ok = d.slowX86(code, pc)
	}
	return ok
}

func (d *decoder) decodeX86(code []byte, pc Addr) (decoded, bool) {
	var out decoded
	if d.mode == 64 && !d.keepRaw && !d.slowOnly && d.fastX86(code, pc, &out) {
		return out, true
	}
	return d.slowX86(code, pc)
}

// slowX86 decodes with x86asm.
func (d *decoder) slowX86(code []byte, pc Addr) (decoded, bool) {
	inst, err := x86asm.Decode(code, d.mode)
	if err != nil || inst.Len == 0 {
		return decoded{}, false
	}
	out := decoded{addr: pc, size: inst.Len}
	if d.keepRaw {
		d.raw = inst
	}
	next := pc + Addr(inst.Len)
	switch inst.Op {
	case x86asm.CALL, x86asm.LCALL:
		out.flow = FlowIndirectCall
	case x86asm.JMP, x86asm.LJMP:
		out.flow = FlowIndirectJump
	case x86asm.RET, x86asm.LRET, x86asm.IRET, x86asm.IRETD, x86asm.IRETQ, x86asm.SYSRET:
		out.flow = FlowReturn
	case x86asm.HLT, x86asm.UD2, x86asm.UD1, x86asm.UD0:
		out.flow = FlowTrap
	case x86asm.JA, x86asm.JAE, x86asm.JB, x86asm.JBE, x86asm.JCXZ, x86asm.JE, x86asm.JECXZ, x86asm.JG, x86asm.JGE, x86asm.JL, x86asm.JLE,
		x86asm.JNE, x86asm.JNO, x86asm.JNP, x86asm.JNS, x86asm.JO, x86asm.JP, x86asm.JRCXZ, x86asm.JS, x86asm.LOOP, x86asm.LOOPE, x86asm.LOOPNE:
		out.flow = FlowCondJump
	}
	for i, a := range inst.Args {
		if a == nil {
			break
		}
		switch a := a.(type) {
		case x86asm.Rel:
			t := Addr(int64(next) + int64(a))
			if d.mode == 32 {
				t = Addr(uint32(t))
			}
			out.target = t
			switch out.flow {
			case FlowIndirectCall:
				out.flow = FlowCall
			case FlowIndirectJump:
				out.flow = FlowJump
			}
		case x86asm.Mem:
			var at Addr
			switch {
			case a.Base == x86asm.RIP:
				at = Addr(int64(next) + a.Disp)
			case a.Base == 0 && a.Index == 0 && a.Segment == 0 && a.Disp != 0:
				at = Addr(uint64(a.Disp) & mask(d.mode))
			default:
				continue
			}
			out.mem = at
			switch {
			case inst.Op == x86asm.LEA:
				out.memKind = refAddress
			case i == 0 && writes(inst.Op):
				out.memKind = refWrite
			default:
				out.memKind = refRead
			}
		case x86asm.Imm:
			if out.memKind == refNone && a != 0 && d.image(Addr(uint64(a)&mask(d.mode))) {
				out.mem, out.memKind = Addr(uint64(a)&mask(d.mode)), refAddress
			}
		}
	}
	return out, true
}

func mask(mode int) uint64 {
	if mode == 32 {
		return 0xffffffff
	}
	return ^uint64(0)
}

func writes(op x86asm.Op) bool {
	switch op {
	case x86asm.CMP, x86asm.TEST, x86asm.PUSH, x86asm.CALL, x86asm.JMP, x86asm.UCOMISD, x86asm.UCOMISS, x86asm.COMISD, x86asm.COMISS, x86asm.BT, x86asm.NOP, x86asm.PREFETCHT0, x86asm.PREFETCHNTA:
		return false
	}
	return true
}

func regOf(a arm64asm.Arg) arm64asm.Reg {
	switch r := a.(type) {
	case arm64asm.Reg:
		return r
	case arm64asm.RegSP:
		return arm64asm.Reg(r)
	}
	return 255
}

// xIndex maps X0..X30 (and W0..W30) to 0..30, anything else to -1.
func xIndex(r arm64asm.Reg) int {
	switch {
	case r >= arm64asm.X0 && r <= arm64asm.X30:
		return int(r - arm64asm.X0)
	case r >= arm64asm.W0 && r <= arm64asm.W30:
		return int(r - arm64asm.W0)
	}
	return -1
}

// immOf reads the last "#…" number of an operand's text; arm64asm keeps
// immediates unexported.
func immOf(a arm64asm.Arg) (int64, bool) {
	s := a.String()
	i := strings.LastIndexByte(s, '#')
	if i < 0 {
		return 0, false
	}
	t := strings.TrimRight(s[i+1:], "]!")
	if j := strings.IndexAny(t, ", "); j >= 0 {
		t = t[:j]
	}
	v, err := strconv.ParseInt(t, 0, 64)
	return v, err == nil
}

func memImmOffset(m arm64asm.MemImmediate) int64 {
	v, _ := immOf(m)
	return v
}

func (d *decoder) decodeARM64(code []byte, pc Addr) (decoded, bool) {
	if len(code) < 4 {
		return decoded{}, false
	}
	inst, err := arm64asm.Decode(code)
	if err != nil {
		return decoded{}, false
	}
	out := decoded{addr: pc, size: 4}
	if d.keepRaw {
		d.raw = inst
	}
	rel := func(i int) Addr {
		if r, ok := inst.Args[i].(arm64asm.PCRel); ok {
			return Addr(int64(pc) + int64(r))
		}
		return 0
	}
	switch inst.Op {
	case arm64asm.BL:
		out.flow, out.target = FlowCall, rel(0)
	case arm64asm.B:
		if c, ok := inst.Args[0].(arm64asm.Cond); ok {
			out.flow, out.target = FlowCondJump, rel(1)
			if c.Value >= 14 {
				out.flow = FlowJump
			}
		} else {
			out.flow, out.target = FlowJump, rel(0)
		}
	case arm64asm.CBZ, arm64asm.CBNZ:
		out.flow, out.target = FlowCondJump, rel(1)
	case arm64asm.TBZ, arm64asm.TBNZ:
		out.flow, out.target = FlowCondJump, rel(2)
	case arm64asm.BR:
		out.flow = FlowIndirectJump
	case arm64asm.BLR:
		out.flow = FlowIndirectCall
	case arm64asm.RET, arm64asm.ERET:
		out.flow = FlowReturn
	case arm64asm.BRK, arm64asm.HLT:
		out.flow = FlowTrap
	case arm64asm.ADR:
		out.mem, out.memKind = rel(1), refAddress
	case arm64asm.ADRP:
		if r := xIndex(regOf(inst.Args[0])); r >= 0 {
			if p, ok := inst.Args[1].(arm64asm.PCRel); ok {
				d.pages[r], d.hasPage[r] = Addr(int64(pc&^0xfff)+int64(p)), true
			}
		}
		return out, true
	case arm64asm.ADD:
		dst, src := xIndex(regOf(inst.Args[0])), xIndex(regOf(inst.Args[1]))
		if src >= 0 && d.hasPage[src] {
			if v, ok := immOf(inst.Args[2]); ok {
				out.mem, out.memKind = d.pages[src]+Addr(v), refAddress
			}
		}
		if dst >= 0 {
			d.hasPage[dst] = false
		}
		return out, true
	case arm64asm.LDR, arm64asm.LDRB, arm64asm.LDRH, arm64asm.LDRSW, arm64asm.LDRSB, arm64asm.LDRSH, arm64asm.LDUR,
		arm64asm.STR, arm64asm.STRB, arm64asm.STRH, arm64asm.STUR:
		for _, a := range inst.Args {
			if a == nil {
				break
			}
			if m, ok := a.(arm64asm.MemImmediate); ok && m.Mode == arm64asm.AddrOffset {
				if b := xIndex(arm64asm.Reg(m.Base)); b >= 0 && d.hasPage[b] {
					out.mem, out.memKind = d.pages[b]+Addr(memImmOffset(m)), refRead
					if inst.Op == arm64asm.STR || inst.Op == arm64asm.STRB || inst.Op == arm64asm.STRH || inst.Op == arm64asm.STUR {
						out.memKind = refWrite
					}
				}
			}
			if r, ok := a.(arm64asm.PCRel); ok { // literal load
				out.mem, out.memKind = Addr(int64(pc)+int64(r)), refRead
			}
		}
	}
	// A register written by anything else no longer holds a page.
	if inst.Args[0] != nil {
		if r := xIndex(regOf(inst.Args[0])); r >= 0 && out.memKind != refWrite {
			d.hasPage[r] = false
		}
	}
	if out.flow.endsBlock() || out.flow == FlowCall || out.flow == FlowIndirectCall {
		d.reset()
	}
	return out, true
}

// text renders the instruction decoded last (with keepRaw) in Intel (x86)
// or GNU (arm64) syntax with branch targets named.
func (d *decoder) text(in decoded, name func(Addr) string) string {
	switch inst := d.raw.(type) {
	case x86asm.Inst:
		return x86asm.IntelSyntax(inst, uint64(in.addr), func(a uint64) (string, uint64) {
			if n := name(Addr(a)); n != "" {
				return n, a
			}
			return "", 0
		})
	case arm64asm.Inst:
		s := arm64asm.GNUSyntax(inst)
		if in.flow == FlowCall || in.flow == FlowJump || in.flow == FlowCondJump {
			if i := strings.LastIndex(s, " "); i >= 0 && strings.HasPrefix(s[i+1:], ".") {
				s = s[:i+1] + in.target.String()
			}
			if n := name(in.target); n != "" {
				s += " <" + n + ">"
			}
		} else if in.memKind != refNone {
			s += " // " + in.mem.String()
			if n := name(in.mem); n != "" {
				s += " <" + n + ">"
			}
		}
		return s
	}
	return "(bad)"
}
