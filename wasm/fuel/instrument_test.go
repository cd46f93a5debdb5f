package fuel_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"

	"rea/wasm/fuel"
)

// oneFunc is a module with one (func) whose body is code.
func oneFunc(code ...[]byte) []byte {
	return wasmModule(
		sec(1, vec(voidType())),
		sec(3, vec([]byte{0x00})),
		sec(10, vec(fn(noLocals(), code...))),
	)
}

// sixteen is a v128 immediate full of bytes that look like loop (0x03) and
// end (0x0b), so a decoder that skips the wrong number of bytes misplaces
// or misses the check.
func sixteen() []byte {
	return bytes.Repeat([]byte{0x03, 0x0b}, 8)
}

// TestEveryOpcodeFamilyIsSkippedExactly puts each instruction before a loop
// and checks the fuel check lands exactly after the loop's block type. The
// immediates are chosen to contain 0x03 and 0x0b bytes, so a wrong
// immediate length moves or breaks the insertion. Each body opens with
// unreachable so the entry check is always written at the top.
func TestEveryOpcodeFamilyIsSkippedExactly(t *testing.T) {
	cases := []struct {
		name  string
		instr []byte
	}{
		{"unreachable", []byte{0x00}},
		{"nop", []byte{0x01}},
		{"block empty", []byte{0x02, 0x40, 0x0b}},
		{"block i32", []byte{0x02, 0x7f, 0x41, 0x03, 0x0b, 0x1a}},
		{"block type index one byte", []byte{0x02, 0x03, 0x0b}},
		{"block type index two bytes", []byte{0x02, 0x83, 0x00, 0x0b}},
		{"if else", []byte{0x41, 0x01, 0x04, 0x40, 0x01, 0x05, 0x01, 0x0b}},
		{"br", []byte{0x0c, 0x03}},
		{"br_if", []byte{0x0d, 0x03}},
		{"br_table", []byte{0x0e, 0x02, 0x03, 0x0b, 0x03}},
		{"br_table long labels", []byte{0x0e, 0x01, 0x83, 0x80, 0x00, 0x8b, 0x00}},
		{"return", []byte{0x0f}},
		{"call", []byte{0x10, 0x83, 0x03}},
		{"call_indirect", []byte{0x11, 0x03, 0x03}},
		{"return_call", []byte{0x12, 0x03}},
		{"return_call_indirect", []byte{0x13, 0x03, 0x00}},
		{"drop", []byte{0x1a}},
		{"select", []byte{0x1b}},
		{"select typed", []byte{0x1c, 0x02, 0x7f, 0x70}},
		{"local.get", []byte{0x20, 0x03}},
		{"local.set", []byte{0x21, 0x8b, 0x03}},
		{"local.tee", []byte{0x22, 0x03}},
		{"global.get", []byte{0x23, 0x03}},
		{"global.set", []byte{0x24, 0x03}},
		{"table.get", []byte{0x25, 0x03}},
		{"table.set", []byte{0x26, 0x03}},
		{"i32.load", []byte{0x28, 0x03, 0x8b, 0x03}},
		{"i64.store32 multi-memory", []byte{0x3e, 0x43, 0x03, 0x0b}},
		{"i32.load memory64 offset", []byte{0x28, 0x02, 0x83, 0x83, 0x83, 0x83, 0x83, 0x83, 0x83, 0x03}},
		{"memory.size", []byte{0x3f, 0x00}},
		{"memory.grow", []byte{0x40, 0x00}},
		{"i32.const", []byte{0x41, 0x83, 0x03}},
		{"i32.const max", []byte{0x41, 0xff, 0xff, 0xff, 0xff, 0x07}},
		{"i64.const 10 bytes", []byte{0x42, 0x83, 0x83, 0x83, 0x83, 0x83, 0x83, 0x83, 0x83, 0x83, 0x0b}},
		{"f32.const", []byte{0x43, 0x03, 0x0b, 0x03, 0x0b}},
		{"f64.const", []byte{0x44, 0x03, 0x0b, 0x03, 0x0b, 0x03, 0x0b, 0x03, 0x0b}},
		{"i32.eqz", []byte{0x45}},
		{"i32.add", []byte{0x6a}},
		{"i32.wrap_i64", []byte{0xa7}},
		{"f64.reinterpret_i64", []byte{0xbf}},
		{"i32.extend8_s", []byte{0xc0}},
		{"i64.extend32_s", []byte{0xc4}},
		{"ref.null func", []byte{0xd0, 0x70}},
		{"ref.null extern", []byte{0xd0, 0x6f}},
		{"ref.is_null", []byte{0xd1}},
		{"ref.func", []byte{0xd2, 0x03}},
		{"i32.trunc_sat_f32_s", []byte{0xfc, 0x00}},
		{"i64.trunc_sat_f64_u", []byte{0xfc, 0x07}},
		{"memory.init", []byte{0xfc, 0x08, 0x03, 0x00}},
		{"data.drop", []byte{0xfc, 0x09, 0x03}},
		{"memory.copy", []byte{0xfc, 0x0a, 0x00, 0x00}},
		{"memory.fill", []byte{0xfc, 0x0b, 0x00}},
		{"table.init", []byte{0xfc, 0x0c, 0x03, 0x03}},
		{"elem.drop", []byte{0xfc, 0x0d, 0x03}},
		{"table.copy", []byte{0xfc, 0x0e, 0x03, 0x03}},
		{"table.grow", []byte{0xfc, 0x0f, 0x03}},
		{"table.size", []byte{0xfc, 0x10, 0x03}},
		{"table.fill", []byte{0xfc, 0x11, 0x03}},
		{"trunc_sat two-byte sub-opcode", []byte{0xfc, 0x83, 0x00}},
		{"v128.load", []byte{0xfd, 0x00, 0x03, 0x03}},
		{"v128.store", []byte{0xfd, 0x0b, 0x03, 0x0b}},
		{"v128.const", cat([]byte{0xfd, 0x0c}, sixteen())},
		{"i8x16.shuffle", cat([]byte{0xfd, 0x0d}, sixteen())},
		{"i8x16.extract_lane_s", []byte{0xfd, 0x15, 0x03}},
		{"f64x2.replace_lane", []byte{0xfd, 0x22, 0x0b}},
		{"v128.load8_lane", []byte{0xfd, 0x54, 0x03, 0x03, 0x0b}},
		{"v128.store64_lane", []byte{0xfd, 0x5b, 0x03, 0x03, 0x03}},
		{"v128.load32_zero", []byte{0xfd, 0x5c, 0x03, 0x0b}},
		{"i8x16.add", []byte{0xfd, 0x6e}},
		{"i16x8.abs", []byte{0xfd, 0x80, 0x01}},
		{"f64x2.convert_low_i32x4_u", []byte{0xfd, 0xff, 0x01}},
		{"memory.atomic.notify", []byte{0xfe, 0x00, 0x03, 0x03}},
		{"atomic.fence", []byte{0xfe, 0x03, 0x00}},
		{"i32.atomic.rmw.cmpxchg", []byte{0xfe, 0x48, 0x03, 0x0b}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := oneFunc([]byte{0x00}, tc.instr, []byte{0x03, 0x40}, []byte{0x0b})
			out, err := fuel.Instrument(in)
			if err != nil {
				t.Fatalf("Instrument: %v", err)
			}
			got := firstBody(t, findSection(t, out, 10))
			want := cat(noLocals(), checkFor(0), []byte{0x00}, tc.instr, []byte{0x03, 0x40}, checkFor(0), []byte{0x0b, 0x0b})
			if !bytes.Equal(got, want) {
				t.Fatalf("body\n got % x\nwant % x", got, want)
			}
		})
	}
}

func TestLoopBlockTypesAreKeptBeforeTheCheck(t *testing.T) {
	for _, bt := range [][]byte{{0x40}, {0x7f}, {0x7b}, {0x00}, {0x3f}, {0x80, 0x01}, {0x80, 0x80, 0x80, 0x80, 0x00}} {
		in := oneFunc([]byte{0x00, 0x03}, bt, []byte{0x0b})
		out, err := fuel.Instrument(in)
		if err != nil {
			t.Fatalf("block type % x: %v", bt, err)
		}
		got := firstBody(t, findSection(t, out, 10))
		want := cat(noLocals(), checkFor(0), []byte{0x00, 0x03}, bt, checkFor(0), []byte{0x0b, 0x0b})
		if !bytes.Equal(got, want) {
			t.Fatalf("block type % x:\n got % x\nwant % x", bt, got, want)
		}
	}
}

func TestNestedLoopsAndLocalsEachGetACheck(t *testing.T) {
	locals := []byte{0x02, 0x03, 0x7f, 0x01, 0x7e} // 3 x i32, 1 x i64
	body := cat([]byte{0x10, 0x00, 0x03, 0x40, 0x02, 0x40, 0x03, 0x40, 0x0c, 0x02, 0x0b, 0x0b, 0x0b})
	in := wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})), sec(10, vec(fn(locals, body))))
	out, err := fuel.Instrument(in)
	if err != nil {
		t.Fatal(err)
	}
	want := cat(locals, checkFor(0),
		[]byte{0x10, 0x00, 0x03, 0x40}, checkFor(0),
		[]byte{0x02, 0x40, 0x03, 0x40}, checkFor(0),
		[]byte{0x0c, 0x02, 0x0b, 0x0b, 0x0b, 0x0b})
	if got := firstBody(t, findSection(t, out, 10)); !bytes.Equal(got, want) {
		t.Fatalf("\n got % x\nwant % x", got, want)
	}
}

// TestEntryCheckIsLeftToALoopReachedInStraightLine covers the one place the
// instrumenter saves a check: when every path from the entry reaches a loop
// header through straight-line code, the loop's check is the entry check.
func TestEntryCheckIsLeftToALoopReachedInStraightLine(t *testing.T) {
	loop := []byte{0x03, 0x40, 0x0b}
	cases := []struct {
		name   string
		prefix []byte
		tail   []byte // ends for blocks the prefix opened
		entry  bool
	}{
		{"loop first", nil, nil, false},
		{"Go prologue", []byte{0x23, 0x00, 0x21, 0x00, 0x02, 0x40}, []byte{0x0b}, false},
		{"arithmetic and a load", []byte{0x41, 0x01, 0x41, 0x02, 0x6a, 0x28, 0x02, 0x00, 0x1a}, nil, false},
		{"call before the loop", []byte{0x10, 0x00}, nil, true},
		{"branch before the loop", []byte{0x02, 0x40, 0x0c, 0x00, 0x0b}, nil, true},
		{"if before the loop", []byte{0x41, 0x01, 0x04, 0x40, 0x0b}, nil, true},
		{"unreachable", []byte{0x00}, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tail := tc.tail
			out, err := fuel.Instrument(oneFunc(tc.prefix, loop[:2], loop[2:], tail))
			if err != nil {
				t.Fatal(err)
			}
			want := cat(tc.prefix, loop[:2], checkFor(0), loop[2:], tail, []byte{0x0b})
			if tc.entry {
				want = cat(checkFor(0), want)
			}
			want = cat(noLocals(), want)
			if got := firstBody(t, findSection(t, out, 10)); !bytes.Equal(got, want) {
				t.Fatalf("\n got % x\nwant % x", got, want)
			}
		})
	}
	// A body without any loop always gets its entry check.
	out, err := fuel.Instrument(oneFunc([]byte{0x41, 0x01, 0x1a}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := firstBody(t, findSection(t, out, 10)), cat(noLocals(), checkFor(0), []byte{0x41, 0x01, 0x1a, 0x0b}); !bytes.Equal(got, want) {
		t.Fatalf("loop-free body\n got % x\nwant % x", got, want)
	}
}

// TestUnmeterableCodeIsRefusedWithFunctionOffsetAndOpcode checks the error
// names what a person needs to find the instruction: the function index
// (imports counted), the byte offset in the input and the opcode.
func TestUnmeterableCodeIsRefusedWithFunctionOffsetAndOpcode(t *testing.T) {
	marker := []byte{0x41, 0xef, 0xfd, 0xb6, 0xf5, 0x0d, 0x1a} // i32.const 0xdeadbeef; drop
	cases := []struct {
		name   string
		bad    []byte
		kind   error
		opcode string
	}{
		{"try (exceptions)", []byte{0x06, 0x40}, fuel.ErrUnsupported, "0x06"},
		{"throw", []byte{0x08, 0x00}, fuel.ErrUnsupported, "0x08"},
		{"try_table", []byte{0x1f, 0x40, 0x00}, fuel.ErrUnsupported, "0x1f"},
		{"call_ref", []byte{0x14, 0x00}, fuel.ErrUnsupported, "0x14"},
		{"GC prefix", []byte{0xfb, 0x00}, fuel.ErrUnsupported, "0xfb"},
		{"unassigned opcode", []byte{0x27}, fuel.ErrUnsupported, "0x27"},
		{"unknown 0xfc", []byte{0xfc, 0x12, 0x00}, fuel.ErrUnsupported, "0xfc 0x12"},
		{"unassigned SIMD", []byte{0xfd, 0x9a, 0x01}, fuel.ErrUnsupported, "0xfd 0x9a"},
		{"relaxed SIMD", []byte{0xfd, 0x80, 0x02}, fuel.ErrUnsupported, "0xfd 0x100"},
		{"unknown atomic", []byte{0xfe, 0x04}, fuel.ErrUnsupported, "0xfe 0x04"},
		{"GC heap type", []byte{0xd0, 0x63}, fuel.ErrUnsupported, "0xd0"},
		{"GC block type", []byte{0x02, 0x63, 0x00, 0x0b}, fuel.ErrUnsupported, "0x02"},
		{"truncated i32.const", []byte{0x41, 0x80}, fuel.ErrMalformed, "0x41"},
		{"u32 index too long", []byte{0x20, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, fuel.ErrMalformed, "0x20"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Function 0 is imported, function 1 is fine, function 2 holds
			// the bad instruction after the marker.
			code := cat(marker, tc.bad)
			in := wasmModule(
				sec(1, vec(voidType())),
				sec(2, vec(cat(str("env"), str("f"), []byte{0x00, 0x00}))),
				sec(3, vec([]byte{0x00}, []byte{0x00})),
				sec(10, vec(fn(noLocals(), []byte{0x01}), cat(leb(uint64(len(code)+1)), noLocals(), code))),
			)
			_, err := fuel.Instrument(in)
			var fe *fuel.Error
			if !errors.As(err, &fe) {
				t.Fatalf("want *fuel.Error, got %v", err)
			}
			if !errors.Is(err, tc.kind) {
				t.Fatalf("want %v, got %v", tc.kind, err)
			}
			wantOff := bytes.Index(in, marker) + len(marker)
			if fe.Func != 2 || fe.Offset != wantOff || fe.Opcode != tc.opcode {
				t.Fatalf("got func %d offset %d opcode %q; want 2, %d, %q (%v)", fe.Func, fe.Offset, fe.Opcode, wantOff, tc.opcode, err)
			}
			msg := err.Error()
			for _, part := range []string{"function 2", fmt.Sprint(wantOff), tc.opcode} {
				if !strings.Contains(msg, part) {
					t.Fatalf("message %q does not mention %q", msg, part)
				}
			}
		})
	}
}

func TestMalformedModulesAreRefused(t *testing.T) {
	// structural cases are wrong before any function body is read, so
	// Metered must refuse them too.
	cases := []struct {
		name       string
		in         []byte
		structural bool
	}{
		{"empty", []byte{}, true},
		{"wrong magic", []byte("\x00asn\x01\x00\x00\x00"), true},
		{"version 2", []byte("\x00asm\x02\x00\x00\x00"), true},
		{"section past end", append([]byte("\x00asm\x01\x00\x00\x00"), 0x01, 0x10, 0x00), true},
		{"unknown section", wasmModule(sec(14, []byte{0x00})), true},
		{"sections out of order", wasmModule(sec(3, vec([]byte{0x00})), sec(1, vec(voidType()))), true},
		{"repeated section", wasmModule(sec(1, vec(voidType())), sec(1, vec(voidType()))), true},
		{"tag section", wasmModule(sec(13, vec())), true},
		{"huge vector count", wasmModule(sec(2, []byte{0xff, 0xff, 0xff, 0xff, 0x0f})), true},
		{"trailing section bytes", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00}), []byte{0x00}),
			sec(10, vec(fn(noLocals())))), true},
		{"duplicate export", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})),
			sec(7, vec(cat(str("a"), []byte{0x00, 0x00}), cat(str("a"), []byte{0x00, 0x00}))), sec(10, vec(fn(noLocals())))), true},
		{"custom section name past end", wasmModule(sec(0, []byte{0x05, 'a'})), true},
		// Counts wazero would allocate from before noticing the bytes are
		// missing: refusing them protects the host from user modules.
		{"forged locals count", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})),
			sec(10, vec(fn([]byte{0x01, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x7f})))), true},
		{"forged param count", wasmModule(sec(1, []byte{0x01, 0x60, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00})), true},
		{"forged data length", wasmModule(sec(5, vec([]byte{0x00, 0x01})),
			sec(11, vec(cat([]byte{0x01, 0xff, 0xff, 0xff, 0xff, 0x0f}, []byte("x"))))), true},
		{"forged element count", wasmModule(sec(9, vec([]byte{0x01, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f}))), true},
		{"forged local-names count", wasmModule(sec(0, str("name"), []byte{0x02, 0x05, 0xff, 0xff, 0xff, 0xff, 0x0f})), true},
		{"name subsection with trailing bytes", wasmModule(sec(0, str("name"), []byte{0x00, 0x03, 0x01, 'm', 0x00})), true},
		{"code without function section", wasmModule(sec(1, vec(voidType())), sec(10, vec(fn(noLocals())))), false},
		{"function without code", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00}))), false},
		{"body missing end", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})), sec(10, vec([]byte{0x02, 0x00, 0x01}))), false},
		{"bytes after end", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})), sec(10, vec([]byte{0x03, 0x00, 0x0b, 0x01}))), false},
		{"unclosed loop", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})), sec(10, vec([]byte{0x04, 0x00, 0x03, 0x40, 0x0b}))), false},
		{"export named rea_fuel as a function", wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})),
			sec(7, vec(cat(str(fuel.GlobalName), []byte{0x00, 0x00}))), sec(10, vec(fn(noLocals())))), false},
	}
	for _, tc := range cases {
		out, err := fuel.Instrument(tc.in)
		if err == nil {
			t.Errorf("%s: accepted, returned %d bytes", tc.name, len(out))
		} else if errors.Is(err, fuel.ErrAlreadyMetered) {
			t.Errorf("%s: %v", tc.name, err)
		}
		if _, err := fuel.Metered(tc.in); tc.structural && err == nil {
			t.Errorf("%s: Metered accepted it", tc.name)
		}
	}
}

// TestPrefixesOfAValidModuleNeverBreakIt cuts a module at every length: the
// instrumenter must not panic, and whenever a cut happens to leave a module
// wazero accepts (a cut between sections), the instrumented one is accepted
// too. The instrumenter is not a validator, so an invalid cut it accepts is
// fine as long as wazero rejects it as it would have rejected the input.
func TestPrefixesOfAValidModuleNeverBreakIt(t *testing.T) {
	valid := fullModule(true, true)
	for i := 0; i < len(valid); i++ {
		out, err := fuel.Instrument(valid[:i])
		if err != nil {
			continue
		}
		if compiles(valid[:i]) && !compiles(out) {
			t.Errorf("cut at %d: accepted %d bytes that wazero rejects", i, len(out))
		}
	}
}

func compiles(bin []byte) bool {
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	_, err := rt.CompileModule(ctx, bin)
	return err == nil
}

// fullModule has imports (one global), one defined global, a memory, a
// custom section in the middle, datacount, passive data and a name section.
// Sections are listed so tests can drop some.
func fullModule(withGlobals, withExports bool) []byte {
	secs := [][]byte{
		sec(1, vec(voidType(), []byte{0x60, 0x01, 0x7f, 0x01, 0x7f})),
		sec(2, vec(
			cat(str("env"), str("f"), []byte{0x00, 0x00}),
			cat(str("env"), str("g"), []byte{0x03, 0x7f, 0x00}),
		)),
		sec(3, vec([]byte{0x01}, []byte{0x00})),
		sec(5, vec([]byte{0x00, 0x01})),
		sec(0, str("between"), []byte("custom payload")),
	}
	if withGlobals {
		secs = append(secs, sec(6, vec([]byte{0x7f, 0x01, 0x41, 0x00, 0x0b})))
	}
	if withExports {
		secs = append(secs, sec(7, vec(cat(str("count"), []byte{0x00, 0x01}))))
	}
	secs = append(secs,
		sec(12, leb(1)),
		sec(10, vec(
			// (func (param i32) (result i32) loop: n-- while n != 0; return n
			fn(noLocals(),
				[]byte{0x03, 0x40},
				[]byte{0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00},
				[]byte{0x0b},
				[]byte{0x41, 0x00, 0x41, 0x00, 0x41, 0x02, 0xfc, 0x08, 0x00, 0x00, 0xfc, 0x09, 0x00},
				[]byte{0x20, 0x00}),
			fn(noLocals(), []byte{0x41, 0x03, 0x10, 0x01, 0x1a}),
		)),
		sec(11, vec(cat([]byte{0x01}, str("hi")))),
		sec(0, str("name"), []byte{0x01}, leb(uint64(len(vec(cat(leb(1), str("count")))))), vec(cat(leb(1), str("count")))),
	)
	return wasmModule(secs...)
}

func TestSectionsArePreservedAndGlobalAddedInPlace(t *testing.T) {
	for _, tc := range []struct {
		globals, exports bool
		wantIndex        byte // 1 imported global (+1 defined)
	}{
		{true, true, 2},
		{false, true, 1},
		{true, false, 2},
		{false, false, 1},
	} {
		t.Run(fmt.Sprintf("globals=%v,exports=%v", tc.globals, tc.exports), func(t *testing.T) {
			in := fullModule(tc.globals, tc.exports)
			if !compiles(in) {
				t.Fatal("test module itself does not compile")
			}
			out, err := fuel.Instrument(in)
			if err != nil {
				t.Fatal(err)
			}
			if !compiles(out) {
				t.Fatal("wazero rejects the instrumented module")
			}
			inSecs, outSecs := sectionsOf(t, in), sectionsOf(t, out)
			// Same sequence apart from global/export being inserted, and every
			// section but global, export and code byte-for-byte equal.
			var kept []rawSection
			for _, s := range outSecs {
				if (s.id == 6 && !tc.globals) || (s.id == 7 && !tc.exports) {
					continue
				}
				kept = append(kept, s)
			}
			if len(kept) != len(inSecs) {
				t.Fatalf("got %d sections after dropping the added ones; want %d", len(kept), len(inSecs))
			}
			for i := range inSecs {
				a, b := inSecs[i], kept[i]
				if a.id != b.id {
					t.Fatalf("section %d is id %d; want %d", i, b.id, a.id)
				}
				if a.id != 6 && a.id != 7 && a.id != 10 && !bytes.Equal(in[a.start:a.end], out[b.start:b.end]) {
					t.Fatalf("section %d (id %d) changed", i, a.id)
				}
			}
			var ids []byte
			for _, s := range outSecs {
				ids = append(ids, s.id)
			}
			if want := []byte{1, 2, 3, 5, 0, 6, 7, 12, 10, 11, 0}; !bytes.Equal(ids, want) {
				t.Fatalf("section ids % d; want % d", ids, want)
			}
			global := findSection(t, out, 6).content
			wantGlobal := []byte{0x7e, 0x01, 0x42, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x0b}
			if !bytes.HasSuffix(global, wantGlobal) {
				t.Fatalf("global section % x does not end with (mut i64) MaxInt64", global)
			}
			export := findSection(t, out, 7).content
			if want := cat(str(fuel.GlobalName), []byte{0x03, tc.wantIndex}); !bytes.HasSuffix(export, want) {
				t.Fatalf("export section % x does not end with % x", export, want)
			}
			if got := firstBody(t, findSection(t, out, 10)); !bytes.HasPrefix(got, cat(noLocals(), []byte{0x03, 0x40}, checkFor(tc.wantIndex))) {
				t.Fatalf("first body % x does not start with a loop check on global %d", got, tc.wantIndex)
			}
		})
	}
}

func TestWideGlobalIndexIsEncodedAsLEB(t *testing.T) {
	// 200 defined globals: the fuel global is index 200, two LEB bytes.
	var globals [][]byte
	for i := 0; i < 200; i++ {
		globals = append(globals, []byte{0x7f, 0x00, 0x41, 0x00, 0x0b})
	}
	in := wasmModule(sec(1, vec(voidType())), sec(3, vec([]byte{0x00})), sec(6, vec(globals...)),
		sec(10, vec(fn(noLocals(), []byte{0x03, 0x40, 0x0b}))))
	out, err := fuel.Instrument(in)
	if err != nil {
		t.Fatal(err)
	}
	if !compiles(out) {
		t.Fatal("wazero rejects the instrumented module")
	}
	check := checkForLEB([]byte{0xc8, 0x01})
	want := cat(noLocals(), []byte{0x03, 0x40}, check, []byte{0x0b, 0x0b})
	if got := firstBody(t, findSection(t, out, 10)); !bytes.Equal(got, want) {
		t.Fatalf("\n got % x\nwant % x", got, want)
	}
}

// TestBudgetAllowsExactlyThatManyChecks runs a hand-written counting loop:
// calling it with n costs one check per iteration (the body opens with the
// loop, whose check doubles as the entry check), so a budget of n finishes
// with nothing left and a budget of n-1 traps. The module has no memory, so
// this also proves the added one works for the yield.
func TestBudgetAllowsExactlyThatManyChecks(t *testing.T) {
	out, err := fuel.Instrument(countingModule())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, cfg := range map[string]wazero.RuntimeConfig{
		"compiler":    wazero.NewRuntimeConfigCompiler(),
		"interpreter": wazero.NewRuntimeConfigInterpreter(),
	} {
		rt := wazero.NewRuntimeWithConfig(ctx, cfg)
		defer rt.Close(ctx)
		mod, err := rt.Instantiate(ctx, out)
		if err != nil {
			t.Fatal(err)
		}
		g := mod.ExportedGlobal(fuel.GlobalName)
		set := g.(interface{ Set(uint64) }).Set
		for _, n := range []uint64{1, 7, 1000, 200_000} {
			set(n)
			if _, err := mod.ExportedFunction("count").Call(ctx, n); err != nil {
				t.Fatalf("count(%d) with %d fuel: %v", n, n, err)
			}
			if left := g.Get(); left != 0 {
				t.Fatalf("count(%d) left %d fuel; want 0", n, left)
			}
			set(n - 1)
			_, err := mod.ExportedFunction("count").Call(ctx, n)
			if err == nil || !strings.Contains(err.Error(), "unreachable") {
				t.Fatalf("count(%d) with %d fuel: %v; want an unreachable trap", n, n-1, err)
			}
		}
	}
}
