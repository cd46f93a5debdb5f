// Package segments rewrites a WebAssembly module's data section so that
// instantiating it costs a few large copies instead of tens of thousands of
// small ones.
//
// Go's wasm linker emits one active data segment per run of non-zero bytes:
// the guidance module has 51,392 of them for 1.4 MB of data, jsapp hits the
// linker's cap of 100,000. wazero evaluates each segment's offset expression
// and copies it separately on every instantiation, which made that the
// largest part of a fresh instance's fixed cost (about 2 ms of 8 ms for the
// guidance module). A fresh instance per request is the sandbox contract, so
// the cost is paid on every request; Coalesce pays it once, at build time.
//
// Only the data section changes. Segments are joined when they are active,
// for memory 0, at constant i32 offsets, in ascending order and no more than
// MaxGap bytes apart; the gap is filled with zeros, which is what linear
// memory holds there anyway. Anything else (passive segments, a data count
// section, offsets from globals, overlapping or descending segments) is left
// exactly as it was, so the rewrite can never change what a module computes.
package segments

import (
	"encoding/binary"
	"errors"
	"fmt"

	"rea/wasm/internal/leb128"
)

// MaxGap is the largest run of zero bytes Coalesce writes out to join two
// segments. wazero spends roughly as long per segment as memmove spends on
// a kilobyte, so joining across gaps up to this size always saves time.
const MaxGap = 1024

const (
	secData      = 11
	secDataCount = 12
	opI32Const   = 0x41
	opEnd        = 0x0b
)

var header = []byte("\x00asm\x01\x00\x00\x00")

// ErrMalformed marks input that is not a well-formed module.
var ErrMalformed = errors.New("malformed module")

// Stats says what Coalesce did.
type Stats struct {
	// Before and After count data segments.
	Before, After int
	// ZeroBytesAdded is how many gap bytes the joined segments now carry.
	ZeroBytesAdded int
	// Skipped, when not empty, says why the data section was left as it was.
	Skipped string
}

type segment struct {
	offset uint32
	data   []byte
}

// Coalesce returns module with adjacent active data segments joined (see the
// package documentation) and what it did. The same input always gives the
// same output; a module it cannot improve comes back unchanged (the same
// slice) with Stats.Skipped saying why.
func Coalesce(module []byte) ([]byte, Stats, error) {
	if len(module) < len(header) || string(module[:len(header)]) != string(header) {
		return nil, Stats{}, fmt.Errorf("%w: not a WebAssembly binary (bad magic or version)", ErrMalformed)
	}
	var dataStart, dataEnd, bodyStart int = -1, -1, -1
	for p := len(header); p < len(module); {
		id := module[p]
		size, n := binary.Uvarint(module[p+1:])
		if n <= 0 || size > uint64(len(module)-p-1-n) {
			return nil, Stats{}, fmt.Errorf("%w: section %d at offset %d: truncated or oversized length", ErrMalformed, id, p)
		}
		end := p + 1 + n + int(size)
		switch id {
		case secDataCount:
			return module, Stats{Skipped: "the module has a data count section (segments may be addressed by index)"}, nil
		case secData:
			dataStart, bodyStart, dataEnd = p, p+1+n, end
		}
		p = end
	}
	if dataStart < 0 {
		return module, Stats{Skipped: "the module has no data section"}, nil
	}
	segs, why, err := readSegments(module[bodyStart:dataEnd], bodyStart)
	if err != nil {
		return nil, Stats{}, err
	}
	st := Stats{Before: len(segs), After: len(segs)}
	if why != "" {
		st.Skipped = why
		return module, st, nil
	}
	joined := join(segs, &st)
	if len(joined) == len(segs) {
		st.Skipped = "no two segments are close enough to join"
		return module, st, nil
	}
	section := appendDataSection(nil, joined)
	out := make([]byte, 0, len(module)-(dataEnd-dataStart)+len(section))
	out = append(out, module[:dataStart]...)
	out = append(out, section...)
	out = append(out, module[dataEnd:]...)
	return out, st, nil
}

// appendDataSection appends a data section of active segments for memory 0
// at constant offsets.
func appendDataSection(out []byte, segs []segment) []byte {
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(segs)))
	for _, s := range segs {
		body = append(body, 0x00, opI32Const)
		body = leb128.AppendInt64(body, int64(int32(s.offset)))
		body = append(body, opEnd)
		body = binary.AppendUvarint(body, uint64(len(s.data)))
		body = append(body, s.data...)
	}
	out = append(out, secData)
	out = binary.AppendUvarint(out, uint64(len(body)))
	return append(out, body...)
}

// readSegments decodes the data section body at absolute offset base. A
// segment form Coalesce does not join is reported in why, not as an error.
func readSegments(b []byte, base int) (segs []segment, why string, err error) {
	r := reader{b: b, base: base}
	count, err := r.u32()
	if err != nil {
		return nil, "", err
	}
	if uint64(count) > uint64(len(b)) { // every segment takes at least one byte
		return nil, "", r.malformed("data section declares %d segments in %d bytes", count, len(b))
	}
	segs = make([]segment, 0, count)
	for i := uint32(0); i < count; i++ {
		flag, err := r.u32()
		if err != nil {
			return nil, "", err
		}
		if flag != 0 {
			return nil, fmt.Sprintf("segment %d is not an active segment of memory 0 (flag %d)", i, flag), nil
		}
		op, err := r.byte()
		if err != nil {
			return nil, "", err
		}
		if op != opI32Const {
			return nil, fmt.Sprintf("segment %d has a non-constant offset expression (opcode 0x%02x)", i, op), nil
		}
		off, err := r.s32()
		if err != nil {
			return nil, "", err
		}
		if end, err := r.byte(); err != nil {
			return nil, "", err
		} else if end != opEnd {
			return nil, fmt.Sprintf("segment %d has a longer offset expression", i), nil
		}
		n, err := r.u32()
		if err != nil {
			return nil, "", err
		}
		data, err := r.bytes(int(n))
		if err != nil {
			return nil, "", err
		}
		segs = append(segs, segment{offset: uint32(off), data: data})
	}
	if r.pos != len(b) {
		return nil, "", r.malformed("%d bytes after the last data segment", len(b)-r.pos)
	}
	return segs, "", nil
}

// join merges runs of segments that ascend without overlap and lie at most
// MaxGap bytes apart. A joined segment owns a fresh buffer that later
// segments are appended to, so joining n segments is linear in their size.
func join(segs []segment, st *Stats) []segment {
	var out []segment
	owned := false // whether out[len(out)-1].data is a buffer join made
	for _, s := range segs {
		if len(out) > 0 {
			last := &out[len(out)-1]
			end := uint64(last.offset) + uint64(len(last.data))
			if uint64(s.offset) >= end && uint64(s.offset)-end <= MaxGap {
				gap := int(uint64(s.offset) - end)
				if !owned {
					last.data = append([]byte(nil), last.data...)
					owned = true
				}
				last.data = append(last.data, make([]byte, gap)...)
				last.data = append(last.data, s.data...)
				st.ZeroBytesAdded += gap
				continue
			}
		}
		out = append(out, s)
		owned = false
	}
	st.After = len(out)
	return out
}
