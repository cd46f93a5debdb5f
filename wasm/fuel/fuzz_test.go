package fuel_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/tetratelabs/wazero"

	"rea/wasm/fuel"
)

// kitchenSink is a valid module whose one exported function f(a) uses a
// block with a result, sign extension, saturating truncation, SIMD,
// reference types, bulk memory, a table op and a multi-value loop (block
// type index with a parameter). f(a) = int8(a) + 16.
func kitchenSink() []byte {
	v128 := cat([]byte{0x07}, bytes.Repeat([]byte{0x00}, 15))
	body := cat(
		[]byte{0x02, 0x7f, 0x20, 0x00, 0x0b}, // block (result i32) local.get 0 end
		[]byte{0xc0},                         // i32.extend8_s
		[]byte{0x43, 0x00, 0x00, 0xc0, 0x3f}, // f32.const 1.5
		[]byte{0xfc, 0x00, 0x6a},             // i32.trunc_sat_f32_s; i32.add
		[]byte{0xfd, 0x0c}, v128,             // v128.const i32x4 7 0 0 0
		[]byte{0xfd, 0x1b, 0x00, 0x6a},                               // i32x4.extract_lane 0; i32.add
		[]byte{0xd0, 0x70, 0xd1, 0x6a},                               // ref.null func; ref.is_null; i32.add
		[]byte{0x41, 0x00, 0x41, 0x00, 0x41, 0x00, 0xfc, 0x0b, 0x00}, // memory.fill
		[]byte{0x3f, 0x00, 0x6a},                                     // memory.size; i32.add
		[]byte{0xfc, 0x10, 0x00, 0x6a},                               // table.size 0; i32.add
		[]byte{0x41, 0x05, 0x21, 0x01},                               // local.set 1 (5)
		[]byte{0x03, 0x00},                                           // loop (type 0: [i32] -> [i32])
		[]byte{0x41, 0x01, 0x6a},                                     // +1
		[]byte{0x20, 0x01, 0x41, 0x01, 0x6b, 0x22, 0x01, 0x0d, 0x00}, // br_if while --local1
		[]byte{0x0b},
	)
	return wasmModule(
		sec(1, vec([]byte{0x60, 0x01, 0x7f, 0x01, 0x7f})),
		sec(3, vec([]byte{0x00})),
		sec(4, vec([]byte{0x70, 0x00, 0x01})),
		sec(5, vec([]byte{0x00, 0x01})),
		sec(7, vec(cat(str("f"), []byte{0x00, 0x00}))),
		sec(10, vec(fn([]byte{0x01, 0x01, 0x7f}, body))),
	)
}

// countingModule exports count(n), a loop that runs n times.
func countingModule() []byte {
	return wasmModule(
		sec(1, vec([]byte{0x60, 0x01, 0x7f, 0x00})),
		sec(3, vec([]byte{0x00})),
		sec(7, vec(cat(str("count"), []byte{0x00, 0x00}))),
		sec(10, vec(fn(noLocals(),
			[]byte{0x03, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b}))),
	)
}

// callPlainAndMetered runs export(arg) on a fresh instance of plain and of
// its instrumented form, under wazero's compiler and its interpreter, and
// hands check each engine's results: plain, metered, and the fuel the
// metered call used.
func callPlainAndMetered(t *testing.T, plain []byte, export string, args []uint64, check func(engine string, arg, plain, metered, fuelUsed uint64)) {
	t.Helper()
	ctx := context.Background()
	metered, err := fuel.Instrument(plain)
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]wazero.RuntimeConfig{
		"compiler":    wazero.NewRuntimeConfigCompiler(),
		"interpreter": wazero.NewRuntimeConfigInterpreter(),
	} {
		rt := wazero.NewRuntimeWithConfig(ctx, cfg)
		defer rt.Close(ctx)
		for _, a := range args {
			var results [2]uint64
			var used uint64
			for i, bin := range [][]byte{plain, metered} {
				mod, err := rt.InstantiateWithConfig(ctx, bin, wazero.NewModuleConfig().WithName(""))
				if err != nil {
					t.Fatalf("%s: instantiate module %d: %v", name, i, err)
				}
				res, err := mod.ExportedFunction(export).Call(ctx, a)
				if err != nil {
					t.Fatalf("%s: %s(%d) on module %d: %v", name, export, a, i, err)
				}
				results[i] = res[0]
				if g := mod.ExportedGlobal(fuel.GlobalName); g != nil {
					used = uint64(math.MaxInt64) - g.Get()
				}
				mod.Close(ctx)
			}
			check(name, a, results[0], results[1], used)
		}
	}
}

func TestKitchenSinkComputesTheSameWhenMetered(t *testing.T) {
	callPlainAndMetered(t, kitchenSink(), "f", []uint64{3, 0x80, 0xffffffff}, func(engine string, a, plain, metered, _ uint64) {
		want := uint64(uint32(int32(int8(a)) + 16))
		if plain != want || metered != want {
			t.Fatalf("%s: f(%#x) = %d plain, %d metered; want %d", engine, a, plain, metered, want)
		}
	})
}

// FuzzInstrument checks that the instrumenter never panics, that what it
// returns is metered and refuses a second pass, and that it never turns a
// module wazero accepts into one wazero rejects. (It is not a validator:
// an invalid input may come back instrumented and still invalid.)
func FuzzInstrument(f *testing.F) {
	f.Add(kitchenSink())
	f.Add(countingModule())
	f.Add(goShapedSum())
	f.Add(fullModule(true, true))
	f.Add(fullModule(false, false))
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	f.Cleanup(func() { rt.Close(ctx) })
	accepts := func(bin []byte) bool {
		c, err := rt.CompileModule(ctx, bin)
		if err != nil {
			return false
		}
		c.Close(ctx)
		return true
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := fuel.Instrument(in)
		if err != nil {
			var fe *fuel.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error is %T, not *fuel.Error: %v", err, err)
			}
			return
		}
		if m, err := fuel.Metered(out); err != nil || !m {
			t.Fatalf("Metered(output) = %v, %v", m, err)
		}
		if _, err := fuel.Instrument(out); !errors.Is(err, fuel.ErrAlreadyMetered) {
			t.Fatalf("second pass: %v; want ErrAlreadyMetered", err)
		}
		if accepts(in) && !accepts(out) {
			_, cerr := rt.CompileModule(ctx, out)
			t.Fatalf("wazero accepts the input but rejects the output: %v", cerr)
		}
	})
}
