package fuel_test

import (
	"bytes"
	"testing"

	"rea/wasm/fuel"
)

// Go's wasm backend compiles a function with several basic blocks as a
// dispatch loop: every jump sets PC_B and branches back to the loop, whose
// br_table picks the block. sumSegments is sum(n) = n + (n-1) + … + 1 in
// that shape, with three segments:
//
//	seg0: if n == 0 goto seg2 else goto seg1   (two forward jumps)
//	seg1: acc += n; n--; if n != 0 goto seg1   (a backward jump: the loop)
//	      goto seg2                            (a forward jump)
//	seg2: return acc
//
// Locals: 0 = n (param), 1 = PC_B, 2 = acc.
var (
	dispatchHeader = []byte{
		0x03, 0x40, // loop
		0x02, 0x40, 0x02, 0x40, 0x02, 0x40, // block ×3
		0x20, 0x01, // local.get PC_B
		0x0e, 0x02, 0x00, 0x01, 0x02, // br_table 0 1 default 2
		0x0b, // end: segment 0 follows
	}
	seg0 = func(toSeg2, toSeg1 byte) []byte {
		return []byte{
			0x20, 0x00, 0x45, 0x04, 0x40, // local.get n; i32.eqz; if
			0x41, 0x02, 0x21, 0x01, 0x0c, toSeg2, // i32.const 2; local.set PC_B; br
			0x0b,                                 // end if
			0x41, 0x01, 0x21, 0x01, 0x0c, toSeg1, // i32.const 1; local.set PC_B; br
			0x0b, // end: segment 1 follows
		}
	}
	seg1 = func(toSeg2 byte) []byte {
		return []byte{
			0x20, 0x02, 0x20, 0x00, 0x6a, 0x21, 0x02, // acc += n
			0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, // n--, leaving n
			0x04, 0x40, 0x41, 0x01, 0x21, 0x01, 0x0c, 0x02, 0x0b, // if n != 0: PC_B = 1; br loop (backward)
			0x41, 0x02, 0x21, 0x01, 0x0c, toSeg2, // PC_B = 2; br
			0x0b, // end: segment 2 follows
		}
	}
	seg2 = []byte{0x20, 0x02, 0x0f, 0x0b, 0x00} // local.get acc; return; end loop; unreachable
	// Locals: one group of two i32 (PC_B, acc).
	dispatchLocals = []byte{0x01, 0x02, 0x7f}
)

// sumModule exports sum(n i32) i32 with the given body code.
func sumModule(code []byte) []byte {
	return wasmModule(
		sec(1, vec([]byte{0x60, 0x01, 0x7f, 0x01, 0x7f})),
		sec(3, vec([]byte{0x00})),
		sec(7, vec(cat(str("sum"), []byte{0x00, 0x00}))),
		sec(10, vec(fn(dispatchLocals, code))),
	)
}

// As Go emits it, every jump targets the loop: label 3 from inside seg0's
// if, 2 elsewhere in seg0, 1 in seg1 (2 from inside its if).
func goShapedSum() []byte {
	return sumModule(cat(dispatchHeader, seg0(3, 2), seg1(1), seg2))
}

func TestForwardJumpsOfGosDispatchLoopBranchStraightToTheirSegment(t *testing.T) {
	out, err := fuel.Instrument(goShapedSum())
	if err != nil {
		t.Fatal(err)
	}
	// The check lands after the loop's block type. seg0's jumps to seg2
	// and seg1 become br 2 (from inside the if) and br 0; seg1's exit to
	// seg2 becomes br 0; seg1's jump to itself still goes through the loop.
	want := cat(dispatchLocals, dispatchHeader[:2], checkFor(0), dispatchHeader[2:], seg0(2, 0), seg1(0), seg2, []byte{0x0b})
	if got := firstBody(t, findSection(t, out, 10)); !bytes.Equal(got, want) {
		t.Fatalf("\n got % x\nwant % x", got, want)
	}
}

// TestGoShapedLoopComputesTheSameAndPaysOnlyForRepetition runs the module
// plain and metered under both of wazero's engines: the results agree, and
// fuel counts the entry plus one check per repetition, not the forward
// jumps.
func TestGoShapedLoopComputesTheSameAndPaysOnlyForRepetition(t *testing.T) {
	callPlainAndMetered(t, goShapedSum(), "sum", []uint64{0, 1, 7, 1000}, func(engine string, n, plain, metered, used uint64) {
		if want := n * (n + 1) / 2; plain != want || metered != want {
			t.Fatalf("%s: sum(%d) = %d plain, %d metered; want %d", engine, n, plain, metered, want)
		}
		if want := max(n, 1); used != want { // the entry, then n-1 repetitions
			t.Errorf("%s: sum(%d) used %d fuel; want %d", engine, n, used, want)
		}
	})
}

// TestJumpsThatOnlyLookLikeDispatchKeepTheirTarget: a header with anything
// extra, or a jump whose PC_B is not set right before it, is left alone.
func TestJumpsThatOnlyLookLikeDispatchKeepTheirTarget(t *testing.T) {
	extra := append([]byte{}, dispatchHeader...)
	// A nop between local.get and br_table makes the header not Go's.
	extra = cat(extra[:8], []byte{0x20, 0x01, 0x01}, extra[10:])
	noSet := []byte{
		0x20, 0x00, 0x45, 0x04, 0x40,
		0x41, 0x02, 0x21, 0x02, 0x0c, 0x03, // sets acc, not PC_B
		0x0b,
		0x41, 0x01, 0x21, 0x01, 0x01, 0x0c, 0x02, // a nop between the set and the br
		0x0b,
	}
	for name, tc := range map[string]struct{ code, want []byte }{
		// Nothing is threaded: there is no dispatch loop.
		"extra instruction in the header": {cat(extra, seg0(3, 2), seg1(1), seg2), cat(extra, seg0(3, 2), seg1(1), seg2)},
		// seg0's jumps stay; seg1's well-formed exit is still threaded.
		"jump without its PC_B set": {cat(dispatchHeader, noSet, seg1(1), seg2), cat(dispatchHeader, noSet, seg1(0), seg2)},
	} {
		t.Run(name, func(t *testing.T) {
			code := tc.code
			out, err := fuel.Instrument(sumModule(code))
			if err != nil {
				t.Fatal(err)
			}
			body := firstBody(t, findSection(t, out, 10))
			check := checkFor(0)
			want := cat(dispatchLocals, tc.want[:2], check, tc.want[2:], []byte{0x0b})
			if !bytes.Equal(body, want) {
				t.Fatalf("\n got % x\nwant % x", body, want)
			}
		})
	}
}
