package executable

import (
	"crypto/sha256"
	"encoding/binary"
	"regexp"
	"sort"

	"golang.org/x/arch/arm64/arm64asm"
	"golang.org/x/arch/x86/x86asm"
)

// Digest is one procedure's comparable facts for a whole-binary diff,
// taken while decoding: no instruction text is rendered (x86) and no
// instruction list is kept, so digesting every procedure of a large
// binary costs little more than its decoded structs.
type Digest struct {
	// Instructions counts the instructions without trailing alignment
	// padding (int3, nop, hint), which a pclntab or unwind range takes in
	// and a symbol size leaves out.
	Instructions int
	Blocks       int
	Edges        int
	// Hash is the SHA-256 of the instructions with every address
	// normalised away: branch targets, rip-relative and absolute memory
	// operands, and immediates of 0x1000 or more (constants below stay).
	Hash [sha256.Size]byte
	// Ops is the multiset of operations, sorted by op.
	Ops []OpCount
	// Memory lists the addresses memory and address operands resolve to
	// (for the strings they point at), in instruction order.
	Memory []Addr
}

// OpCount is how often one operation occurs.
type OpCount struct {
	Op uint16
	N  uint32
}

// hexToken is an address-like number in arm64 text (which arm64asm keeps
// unexported, so its operands are read from their rendering).
var hexToken = regexp.MustCompile(`0x[0-9a-f]{4,}`)

// DigestOf decodes one procedure into its Digest.
func (a *Analysis) DigestOf(p *Procedure) (d Digest, err error) {
	defer recoverInto(&err, "digesting "+p.Name)
	if a.dec == nil || p.Kind == KindExternal || p.Size == 0 {
		d.Hash = sha256.Sum256(nil)
		return d, nil
	}
	n := int(min(p.Size, MaxBodyBytes))
	code, err := a.File.ReadAt(p.Address, n)
	if err != nil {
		return d, err
	}
	a.dec.reset()
	a.dec.keepRaw = true
	defer func() { a.dec.keepRaw = false }()
	// One fixed-size record per instruction (no pointers), for padding
	// trimming and the block count; the normalised form of each goes to
	// the hash only once it is known not to be trailing padding.
	type ins struct {
		dec     decoded
		op      uint16
		padding bool
		norm    [2]int // norm[0]:norm[1] in buf
	}
	var list []ins
	var buf []byte
	for off := 0; off < len(code); {
		pc := p.Address + Addr(off)
		in, ok := a.dec.decode(code[off:], pc)
		if !ok {
			off += a.dec.step()
			continue
		}
		start := len(buf)
		op, pad := uint16(0), false
		switch raw := a.dec.raw.(type) {
		case x86asm.Inst:
			op = uint16(raw.Op)
			pad = raw.Op == x86asm.NOP || (raw.Op == x86asm.INT && raw.Opcode>>24 == 0xCC)
			buf = normX86(buf, raw, in)
		case arm64asm.Inst:
			op = uint16(raw.Op)
			pad = raw.Op == arm64asm.NOP || raw.Op == arm64asm.HINT
			buf = binary.LittleEndian.AppendUint16(buf, op)
			if in.flow != FlowCall && in.flow != FlowJump && in.flow != FlowCondJump {
				buf = append(buf, hexToken.ReplaceAllString(raw.String(), "A")...)
			}
		}
		list = append(list, ins{dec: in, op: op, padding: pad, norm: [2]int{start, len(buf)}})
		off += in.size
	}
	keep := len(list)
	for keep > 0 && list[keep-1].padding {
		keep--
	}
	h := sha256.New()
	counts := map[uint16]uint32{}
	decs := make([]decoded, 0, len(list))
	for i, in := range list {
		decs = append(decs, in.dec)
		if i >= keep {
			continue
		}
		counts[in.op]++
		nb := buf[in.norm[0]:in.norm[1]]
		h.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(nb))))
		h.Write(nb)
		if in.dec.memKind != refNone {
			d.Memory = append(d.Memory, in.dec.mem)
		}
	}
	h.Sum(d.Hash[:0])
	d.Instructions = keep
	d.Ops = make([]OpCount, 0, len(counts))
	for op, n := range counts {
		d.Ops = append(d.Ops, OpCount{Op: op, N: n})
	}
	sort.Slice(d.Ops, func(i, j int) bool { return d.Ops[i].Op < d.Ops[j].Op })
	d.Blocks, d.Edges = countBlocks(p, decs)
	return d, nil
}

// normX86 appends an x86 instruction's normalised form: prefixes that
// show in the text, the operation, and each operand with addresses
// replaced by a marker. A direct branch is its operation alone: its target
// moves between builds.
func normX86(buf []byte, inst x86asm.Inst, in decoded) []byte {
	for _, p := range inst.Prefix {
		if p == 0 {
			break
		}
		if p&(x86asm.PrefixImplicit|x86asm.PrefixIgnored|x86asm.PrefixInvalid) == 0 {
			buf = binary.LittleEndian.AppendUint16(buf, uint16(p))
		}
	}
	buf = append(buf, 0xff)
	buf = binary.LittleEndian.AppendUint16(buf, uint16(inst.Op))
	if in.flow == FlowCall || in.flow == FlowJump || in.flow == FlowCondJump {
		return buf
	}
	const addr = 'A'
	norm := func(v int64) []byte {
		if v >= 0x1000 || v <= -0x1000 {
			return []byte{addr}
		}
		return binary.LittleEndian.AppendUint16([]byte{'#'}, uint16(v))
	}
	for _, a := range inst.Args {
		if a == nil {
			break
		}
		switch a := a.(type) {
		case x86asm.Reg:
			buf = append(buf, 'r', byte(a))
		case x86asm.Mem:
			buf = append(buf, 'm', byte(inst.MemBytes), byte(a.Segment), byte(a.Base), byte(a.Index), a.Scale)
			if a.Base == x86asm.RIP {
				buf = append(buf, addr)
			} else {
				buf = append(buf, norm(a.Disp)...)
			}
		case x86asm.Imm:
			buf = append(buf, 'i')
			buf = append(buf, norm(int64(a))...)
		case x86asm.Rel:
			buf = append(buf, addr)
		default:
			buf = append(buf, '?')
		}
	}
	return buf
}

// countBlocks is len(blocks(p, decs)) and the sum of their successors,
// without building them.
func countBlocks(p *Procedure, decs []decoded) (blocks, edges int) {
	if len(decs) == 0 {
		return 0, 0
	}
	inside := func(t Addr) bool { return t >= p.Address && t < p.End() }
	leaders := map[Addr]bool{decs[0].addr: true}
	for i, d := range decs {
		if (d.flow == FlowJump || d.flow == FlowCondJump) && inside(d.target) {
			leaders[d.target] = true
		}
		if d.flow.endsBlock() && i+1 < len(decs) {
			leaders[decs[i+1].addr] = true
		}
	}
	for i := range decs {
		last := i+1 == len(decs)
		if !last && !leaders[decs[i+1].addr] {
			continue
		}
		blocks++
		d := decs[i]
		switch d.flow {
		case FlowJump:
			if inside(d.target) {
				edges++
			}
		case FlowCondJump:
			if inside(d.target) {
				edges++
			}
			if !last {
				edges++
			}
		case FlowReturn, FlowTrap, FlowIndirectJump:
		default:
			if !last {
				edges++
			}
		}
	}
	return blocks, edges
}
