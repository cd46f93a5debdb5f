package fuel

// Go's wasm backend does not rebuild structured control flow. It opens a
// function that has more than one basic block with a dispatch loop,
//
//	loop                      ;; entry loop
//	  block block … block     ;; one per resume point, innermost last
//	    local.get PC_B
//	    br_table t0 t1 … tn   ;; PC_B value → resume point
//	  end                     ;; segment 0 follows
//	  …                       ;; segment 1 follows the next end, and so on
//
// and compiles every jump between basic blocks, forward or backward, as
//
//	i32.const target; local.set PC_B; br <entry loop>
//
// so every jump re-enters the loop, pays the loop's fuel check and
// dispatches through br_table again. Profiles of the jsapp module show that
// most of these jumps go forward: an if/else, a switch case, the exit of a
// loop. A forward jump does not repeat work, so it needs no fuel, and it
// can reach its segment directly: the block that br_table would leave for
// that PC_B value still encloses the jump, so "br <that block>" continues
// at exactly the instruction the dispatch would have chosen, with PC_B
// holding the same value (the local.set is kept). Backward jumps still go
// through the loop and its check, so every repetition of work still
// passes a check and the bound on work between checks holds.
//
// The rewrite only happens when the loop header is exactly that pattern
// (the loop and its blocks of empty type, then local.get and br_table with
// nothing else), and a jump is only retargeted when the two instructions
// before its br set the dispatch local to a constant. Anything else is
// copied as it is, so a module from another compiler is metered exactly as
// before.

// frame is one open block, loop or if of the body being decoded.
type frame struct {
	id int // unique within the body, so a reopened depth is not mistaken for a closed frame
}

// dispatch recognises Go's dispatch loop in one body and retargets its
// forward jumps.
type dispatch struct {
	stack  []frame
	nextID int

	// While matching a loop header: the loop's frame and the blocks after it.
	matching    bool
	loopFrame   int // index in stack
	loopID      int
	blockIDs    []int // dispatch blocks, outermost first
	blockIdx    []int // their stack indexes
	local       uint32
	haveLocal   bool
	active      bool
	table       []uint32 // br_table label per PC_B value; the last is the default
	prev, prev2 instr    // the two instructions before the current one
}

// instr is the little the matcher remembers about an instruction.
type instr struct {
	op  byte
	imm int64
}

func (d *dispatch) push() int {
	d.nextID++
	d.stack = append(d.stack, frame{id: d.nextID})
	return len(d.stack) - 1
}

func (d *dispatch) pop() {
	if len(d.stack) > 0 {
		d.stack = d.stack[:len(d.stack)-1]
	}
}

// open records a block (op 0x02), loop (0x03) or if (0x04); empty says
// whether its block type is 0x40.
func (d *dispatch) open(op byte, empty bool) {
	d.prev2, d.prev = d.prev, instr{op: op}
	i := d.push()
	switch {
	case d.active:
	case op == 0x03 && empty:
		d.matching, d.loopFrame, d.loopID = true, i, d.stack[i].id
		d.blockIDs, d.blockIdx, d.haveLocal = d.blockIDs[:0], d.blockIdx[:0], false
	case op == 0x02 && empty && d.matching && !d.haveLocal:
		d.blockIDs = append(d.blockIDs, d.stack[i].id)
		d.blockIdx = append(d.blockIdx, i)
	default:
		d.matching = false
	}
}

// instruction notes an instruction other than block, loop, if and end (imm
// and labels as decodeImmediate returns them). For a forward jump of the
// dispatch loop it returns the label that reaches the jump's segment
// directly, and true.
func (d *dispatch) instruction(op byte, imm int64, labels []uint32) (uint32, bool) {
	defer func() { d.prev2, d.prev = d.prev, instr{op, imm} }()
	if d.matching {
		switch {
		case op == 0x20 && !d.haveLocal && len(d.blockIDs) > 0: // local.get PC_B
			d.local, d.haveLocal = uint32(imm), true
			return 0, false
		case op == 0x0e && d.haveLocal: // br_table over the dispatch blocks only
			d.matching = false
			for _, l := range labels {
				if int(l) >= len(d.blockIDs) {
					return 0, false
				}
			}
			d.table = append(d.table[:0], labels...)
			d.active = true
			return 0, false
		}
		d.matching = false
		return 0, false
	}
	if !d.active || op != 0x0c {
		return 0, false
	}
	label := uint32(imm)
	target := len(d.stack) - 1 - int(label)
	if target != d.loopFrame || target < 0 || d.stack[target].id != d.loopID {
		return 0, false
	}
	if d.prev.op != 0x21 || uint32(d.prev.imm) != d.local || d.prev2.op != 0x41 {
		return 0, false
	}
	pc := d.prev2.imm
	t := d.table[len(d.table)-1]
	if pc >= 0 && pc < int64(len(d.table)-1) {
		t = d.table[pc]
	}
	// br_table's label t, counted from the innermost dispatch block.
	k := len(d.blockIDs) - 1 - int(t)
	idx, id := d.blockIdx[k], d.blockIDs[k]
	if idx >= len(d.stack) || d.stack[idx].id != id {
		return 0, false // that block is closed: a backward jump
	}
	return uint32(len(d.stack) - 1 - idx), true
}

// close records an end.
func (d *dispatch) close() {
	d.matching = false
	d.pop()
	d.prev2, d.prev = d.prev, instr{op: 0x0b}
}
