package executable

import (
	"encoding/hex"
	"sort"
)

// Body is a procedure decoded instruction by instruction.
type Body struct {
	Procedure    Procedure
	Instructions []Instruction
	Blocks       []Block
	// Out are the references made from inside the procedure.
	Out []Reference
	// Undecodable counts byte positions skipped as not instructions.
	Undecodable int
}

// MaxBodyBytes bounds one procedure's decoded size so a bogus symbol size
// cannot make a dossier decode a whole section.
const MaxBodyBytes = 4 << 20

// Decode disassembles one procedure and builds its basic blocks.
func (a *Analysis) Decode(p *Procedure) (b *Body, err error) { return a.decode(p, a.NameAt) }

// DecodeUnnamed is Decode with operands as addresses only, never symbol
// names, so a stripped and an unstripped build render alike.
func (a *Analysis) DecodeUnnamed(p *Procedure) (b *Body, err error) {
	return a.decode(p, func(Addr) string { return "" })
}

func (a *Analysis) decode(p *Procedure, names func(Addr) string) (b *Body, err error) {
	defer recoverInto(&err, "disassembling "+p.Name)
	b = &Body{Procedure: *p, Instructions: []Instruction{}, Blocks: []Block{}, Out: []Reference{}}
	if a.dec == nil || p.Kind == KindExternal || p.Size == 0 {
		return b, nil
	}
	n := int(min(p.Size, MaxBodyBytes))
	code, err := a.File.ReadAt(p.Address, n)
	if err != nil {
		return nil, err
	}
	a.dec.reset()
	a.dec.keepRaw = true
	defer func() { a.dec.keepRaw = false }()
	var decs []decoded
	for off := 0; off < len(code); {
		pc := p.Address + Addr(off)
		in, ok := a.dec.decode(code[off:], pc)
		if !ok {
			b.Undecodable++
			off += a.dec.step()
			continue
		}
		decs = append(decs, in)
		ins := Instruction{Address: pc, Bytes: hex.EncodeToString(code[off : off+in.size]), Text: a.dec.text(in, names), Flow: in.flow.String()}
		if in.flow == FlowCall || in.flow == FlowJump || in.flow == FlowCondJump {
			t := in.target
			ins.Target = &t
			kind := RefJump
			if in.flow == FlowCall {
				kind = RefCall
			}
			b.Out = append(b.Out, Reference{From: pc, To: t, Kind: kind})
		}
		if in.memKind != refNone {
			b.Out = append(b.Out, Reference{From: pc, To: in.mem, Kind: in.memKind.String()})
		}
		b.Instructions = append(b.Instructions, ins)
		off += in.size
	}
	for i := range b.Out {
		pa := p.Address
		b.Out[i].Procedure = &pa
	}
	b.Blocks = blocks(p, decs)
	return b, nil
}

// blocks splits decoded instructions at branch targets inside the
// procedure and after every instruction that does not fall through.
func blocks(p *Procedure, decs []decoded) []Block {
	if len(decs) == 0 {
		return []Block{}
	}
	inside := func(t Addr) bool { return t >= p.Address && t < p.End() }
	leaders := map[Addr]bool{decs[0].addr: true}
	for i, d := range decs {
		if (d.flow == FlowJump || d.flow == FlowCondJump) && inside(d.target) {
			leaders[d.target] = true
		}
		if (d.flow.endsBlock()) && i+1 < len(decs) {
			leaders[decs[i+1].addr] = true
		}
	}
	var out []Block
	for i := 0; i < len(decs); {
		start := i
		for i++; i < len(decs) && !leaders[decs[i].addr]; i++ {
		}
		last := decs[i-1]
		blk := Block{Start: decs[start].addr, End: last.addr + Addr(last.size), Instructions: i - start, Terminator: last.flow.String(), Successors: []Addr{}}
		switch last.flow {
		case FlowJump:
			if inside(last.target) {
				blk.Successors = append(blk.Successors, last.target)
			}
		case FlowCondJump:
			if inside(last.target) {
				blk.Successors = append(blk.Successors, last.target)
			}
			if i < len(decs) {
				blk.Successors = append(blk.Successors, decs[i].addr)
			}
		case FlowReturn, FlowTrap, FlowIndirectJump:
		default:
			if i < len(decs) {
				blk.Successors = append(blk.Successors, decs[i].addr)
			}
		}
		sort.Slice(blk.Successors, func(x, y int) bool { return blk.Successors[x] < blk.Successors[y] })
		out = append(out, blk)
	}
	return out
}
