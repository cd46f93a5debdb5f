package binary

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"rea/modules/abi"
)

// The linear sweep is most of an overview's work, and in wasm one
// instance runs on one core. So the sweep can run in parts, each in its
// own instance, and one more instance assembles the inventory from the
// parts (AnalyzeOptions.Parts) exactly as one sweep would have built it.
//
// A part must start where the whole sweep would have passed anyway, or
// the instructions it decodes differ. An x86 instruction is at most 15
// bytes long, and 0xcc (int3, the padding between functions that Go and
// MSVC emit) is a one-byte instruction: the first instruction a sweep
// starts inside a run of 0xcc bytes starts at most 14 bytes in, and from
// there it steps one byte at a time. So a sweep passes every point that
// has 14 (syncRun, with one to spare) 0xcc bytes before it. The largest
// code section is cut at the first such point after each nominal cut (k/n
// of the section); a cut without one moves on to the next run, or the part is
// empty. Architectures without that guarantee (arm64 keeps adrp state
// across instructions) are swept whole by the first part. Each part
// records where it stopped, and assembly refuses parts that do not join
// up, so a broken guarantee is an error, never a silently different
// inventory (TestPartsAssembleTheSameInventory compares them).

// syncRun is how many 0xcc bytes put any x86 sweep in step.
const syncRun = 15

// MaxSweepParts bounds how many parts a sweep can be cut into.
const MaxSweepParts = 64

// sweepPlan says which code a part sweeps: for part k of n, the code
// sections before the split section (part 0 only), bytes [from, to) of
// the split section, and the sections after it (the last part only).
type sweepPlan struct {
	split    int // index into codeSections, -1 when nothing is split
	from, to int
}

// planPart finds part k of n. code is the split section's bytes.
func (f *File) planPart(k, n int, sections []*Section, code func(*Section) ([]byte, error)) (sweepPlan, []byte, error) {
	if len(sections) == 0 {
		return sweepPlan{split: -1}, nil, nil
	}
	split := 0
	for i, s := range sections {
		if s.FileSize > sections[split].FileSize {
			split = i
		}
	}
	data, err := code(sections[split])
	if err != nil {
		return sweepPlan{}, nil, err
	}
	cut := func(k int) int {
		if k <= 0 {
			return 0
		}
		if k >= n || (f.Architecture != "x86_64" && f.Architecture != "x86") {
			return len(data)
		}
		nominal := int(int64(len(data)) * int64(k) / int64(n))
		run := 0
		// Count the run of 0xcc bytes reaching back from the nominal cut,
		// then walk forward to the first point preceded by syncRun of them.
		for j := nominal - 1; j >= 0 && data[j] == 0xcc && run < syncRun; j-- {
			run++
		}
		for j := nominal; j < len(data); j++ {
			if run >= syncRun {
				return j
			}
			if data[j] == 0xcc {
				run++
			} else {
				run = 0
			}
		}
		return len(data)
	}
	from, to := cut(k), cut(k+1)
	return sweepPlan{split: split, from: from, to: max(from, to)}, data, nil
}

// Part sources, in the order of the Source constants they stand for.
var partSources = []string{SourceCallTarget, SourceAddressTaken}

// sweepOut is what one sweep (whole or part) found, in sweep order.
type sweepOut struct {
	instructions, references int64
	// from and end are where the sweep of the split section started and
	// stopped.
	from, end int
	targets   []partTarget
	calls     []CallEdge
	jumps     []CallEdge
	slots     []Addr
}

type partTarget struct {
	addr   Addr
	source uint8 // index into partSources
}

const partMagic = "rea-sweep-part/1\n"

// SweepPart sweeps part k of n of f's code (see the comment at the top of
// parts.go) and returns it encoded for AnalyzeOptions.Parts.
func SweepPart(f *File, k, n int, progress func(done, total int64)) (b []byte, err error) {
	defer recoverInto(&err, "sweeping part of the binary")
	if n < 1 || n > MaxSweepParts || k < 0 || k >= n {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "part %d of %d: parts are numbered 0..n-1 with 1 <= n <= %d", k, n, MaxSweepParts).WithDetail("field", "part")
	}
	dec, derr := newDecoder(f.Architecture, f.inImage)
	if derr != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%v", derr)
	}
	a := &Analysis{File: f, dec: dec}
	out := &sweepOut{}
	seen := map[Addr]bool{}
	target := func(addr Addr, source string) {
		if seen[addr] { // only the first sighting of an address decides its source
			return
		}
		seen[addr] = true
		src := uint8(0)
		if source == SourceAddressTaken {
			src = 1
		}
		out.targets = append(out.targets, partTarget{addr, src})
	}
	slots := map[Addr]bool{}
	if err := a.sweepParts(AnalyzeOptions{Progress: progress}, k, n, target, slots, out); err != nil {
		return nil, err
	}
	for s := range slots {
		out.slots = append(out.slots, s)
	}
	return out.encode(k, n), nil
}

func (o *sweepOut) encode(k, n int) []byte {
	b := []byte(partMagic)
	b = binary.AppendUvarint(b, uint64(k))
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(o.from))
	b = binary.AppendUvarint(b, uint64(o.end))
	b = binary.AppendUvarint(b, uint64(o.instructions))
	b = binary.AppendUvarint(b, uint64(o.references))
	b = binary.AppendUvarint(b, uint64(len(o.targets)))
	for _, t := range o.targets {
		b = binary.AppendUvarint(b, uint64(t.addr))
		b = append(b, t.source)
	}
	for _, list := range [][]CallEdge{o.calls, o.jumps} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		prev := Addr(0)
		for _, e := range list {
			// Sites rise through a section: deltas stay small.
			b = binary.AppendVarint(b, int64(e.Site-prev))
			b = binary.AppendVarint(b, int64(e.Callee-e.Site))
			b = append(b, byte(e.Kind))
			prev = e.Site
		}
	}
	b = binary.AppendUvarint(b, uint64(len(o.slots)))
	for _, s := range o.slots {
		b = binary.AppendUvarint(b, uint64(s))
	}
	return b
}

// partReader decodes an encoded part, failing on the first bad field.
type partReader struct {
	b   []byte
	err error
}

func (r *partReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("truncated or overlong number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *partReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("truncated or overlong number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *partReader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		if r.err == nil {
			r.err = fmt.Errorf("truncated")
		}
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// count reads a length, refusing one the remaining bytes cannot hold.
func (r *partReader) count(each int) int {
	v := r.uvarint()
	if r.err == nil && v > uint64(len(r.b)/each) {
		r.err = fmt.Errorf("declares %d entries in %d bytes", v, len(r.b))
		return 0
	}
	return int(v)
}

func decodePart(b []byte, k, n int) (*sweepOut, error) {
	if !bytes.HasPrefix(b, []byte(partMagic)) {
		return nil, fmt.Errorf("not a sweep part")
	}
	r := &partReader{b: b[len(partMagic):]}
	if gk, gn := r.uvarint(), r.uvarint(); r.err == nil && (gk != uint64(k) || gn != uint64(n)) {
		return nil, fmt.Errorf("holds part %d of %d where part %d of %d belongs", gk, gn, k, n)
	}
	o := &sweepOut{from: int(r.uvarint()), end: int(r.uvarint()), instructions: int64(r.uvarint()), references: int64(r.uvarint())}
	o.targets = make([]partTarget, r.count(2))
	for i := range o.targets {
		o.targets[i] = partTarget{Addr(r.uvarint()), r.byte()}
		if int(o.targets[i].source) >= len(partSources) {
			r.err = fmt.Errorf("unknown target source %d", o.targets[i].source)
		}
	}
	for _, list := range []*[]CallEdge{&o.calls, &o.jumps} {
		*list = make([]CallEdge, r.count(3))
		prev := Addr(0)
		for i := range *list {
			site := prev + Addr(r.varint())
			callee := site + Addr(r.varint())
			kind := EdgeKind(r.byte())
			if kind > EdgeImport {
				r.err = fmt.Errorf("unknown edge kind %d", kind)
			}
			(*list)[i] = CallEdge{Site: site, Callee: callee, Kind: kind}
			prev = site
		}
	}
	o.slots = make([]Addr, r.count(1))
	for i := range o.slots {
		o.slots[i] = Addr(r.uvarint())
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the end", len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	return o, nil
}
