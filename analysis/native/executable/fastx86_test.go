package executable

import (
	"math/rand"
	"reflect"
	"testing"

	"rea/analysis/native/nativetest"
)

// TestFastX86AgreesWithX86asm decodes every byte offset of real x86-64
// code (and of random bytes) with the fast path and with x86asm: whenever
// the fast path answers, length, flow, branch target and memory reference
// must be x86asm's.
func TestFastX86AgreesWithX86asm(t *testing.T) {
	type input struct {
		name string
		f    *File
		code []byte
		base Addr
	}
	var inputs []input
	for _, bin := range []string{nativetest.ChainELF(t, "hardened"), nativetest.GeneratedELF(t), nativetest.GoBinary(t, "linux", "amd64"), nativetest.GoBinary(t, "windows", "amd64")} {
		f := openPath(t, bin, Options{})
		for _, s := range f.codeSections() {
			code, err := f.sectionBytes(s, nil)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, input{bin + ":" + s.Name, f, code, s.Address})
		}
	}
	rng := rand.New(rand.NewSource(1))
	noise := make([]byte, 4<<20)
	rng.Read(noise)
	inputs = append(inputs, input{"random", inputs[0].f, noise, 0x400000})
	for _, in := range inputs {
		fast, _ := newDecoder("x86_64", in.f.inImage)
		fast.lo, fast.hi = in.f.imageBounds()
		slow, _ := newDecoder("x86_64", in.f.inImage)
		slow.slowOnly = true
		hits, mismatches := 0, 0
		for off := 0; off < len(in.code); off++ {
			pc := in.base + Addr(off)
			var got decoded
			if !fast.fastX86(in.code[off:], pc, &got) {
				continue
			}
			hits++
			want, wok := slow.decodeX86(in.code[off:], pc)
			if !wok || got != want {
				mismatches++
				if mismatches <= 5 {
					t.Errorf("%s at %s (% x): fast %+v, x86asm %+v (ok %v)", in.name, pc, in.code[off:min(len(in.code), off+12)], got, want, wok)
				}
			}
		}
		if in.name != "random" && hits < len(in.code)/4 {
			t.Errorf("%s: the fast path decoded only %d of %d offsets", in.name, hits, len(in.code))
		}
		t.Logf("%s: fast path answered %d of %d offsets, %d mismatches", in.name, hits, len(in.code), mismatches)
	}
}

// TestHotX86AgreesWithFastX86 decodes every byte offset of real x86-64
// code and of random bytes with the hot path and with what answers without
// it (the fast path, else x86asm): whenever the hot path answers, the
// answer must be the same.
func TestHotX86AgreesWithFastX86(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	noise := make([]byte, 4<<20)
	rng.Read(noise)
	// The padding nops of gcc, clang and Go (1 to 15 bytes) and their
	// rip-relative and register forms, in every order.
	var padding []byte
	nops := [][]byte{{0x90}, {0x66, 0x90}, {0x0f, 0x1f, 0x00}, {0x0f, 0x1f, 0x40, 0x00}, {0x0f, 0x1f, 0x44, 0x00, 0x00}, {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
		{0x0f, 0x1f, 0x80, 0, 0, 0, 0}, {0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, {0x66, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, {0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0},
		{0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, {0x66, 0x66, 0x66, 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0},
		{0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, {0x66, 0x2e, 0x0f, 0x1f, 0x05, 1, 2, 3, 4}, {0x66, 0x0f, 0x1f, 0xc0},
		{0x66, 0x2e, 0x0f, 0x1f, 0x48, 0x10}, {0x66, 0x48, 0x0f, 0x1f, 0x00}, {0x2e, 0x0f, 0x1f, 0x00}, {0x66, 0x2e, 0x2e, 0x0f, 0x1f, 0x00}}
	for k := 0; k < 20000; k++ {
		padding = append(padding, nops[rng.Intn(len(nops))]...)
	}
	for _, bin := range []string{nativetest.ChainELF(t, "hardened"), nativetest.GeneratedELF(t), nativetest.GoBinary(t, "linux", "amd64"), nativetest.GoBinary(t, "windows", "amd64")} {
		f := openPath(t, bin, Options{})
		for _, s := range append(f.codeSections(), &Section{Name: "random"}, &Section{Name: "padding"}) {
			code, base := noise, Addr(0x400000)
			if s.Name == "padding" {
				code = padding
			} else if s.Name != "random" {
				var err error
				if code, err = f.sectionBytes(s, nil); err != nil {
					t.Fatal(err)
				}
				base = s.Address
			}
			d, _ := newDecoder("x86_64", f.inImage)
			d.lo, d.hi = f.imageBounds()
			hits, mismatches := 0, 0
			for off := 0; off < len(code); off++ {
				pc := base + Addr(off)
				var hot decoded
				if !d.hotX86(code[off:], pc, &hot) {
					continue
				}
				hits++
				if fast, ok := d.decodeX86(code[off:], pc); !ok || hot != fast {
					mismatches++
					if mismatches <= 5 {
						t.Errorf("%s %s at %s (% x): hot %+v, fast %+v", bin, s.Name, pc, code[off:min(len(code), off+12)], hot, fast)
					}
				}
			}
			if s.Name == ".text" && hits < len(code)/8 {
				t.Errorf("%s: the hot path answered only %d of %d offsets", bin, hits, len(code))
			}
			t.Logf("%s %s: hot path answered %d of %d offsets, %d mismatches", bin, s.Name, hits, len(code), mismatches)
		}
	}
}

// TestHotRunEqualsOneInstructionAtATime walks real code with hotRun in
// batches of several sizes and with hotX86 one instruction at a time
// (stepping over what the hot path leaves to the others with decodeInto):
// the same instructions must be decoded hot and recorded.
func TestHotRunEqualsOneInstructionAtATime(t *testing.T) {
	f := openPath(t, nativetest.GoBinary(t, "linux", "amd64"), Options{})
	d, _ := newDecoder("x86_64", f.inImage)
	d.lo, d.hi = f.imageBounds()
	effect := func(in decoded) bool {
		return in.flow != FlowNext && in.flow != FlowReturn && in.flow != FlowTrap || in.memKind != refNone
	}
	for _, s := range f.codeSections() {
		code, err := f.sectionBytes(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		// skip steps over one instruction the hot path does not take.
		skip := func(off int) int {
			var in decoded
			if !d.decodeInto(code[off:], s.Address+Addr(off), &in) {
				return off + 1
			}
			return off + in.size
		}
		var want []decoded
		wantHot := 0
		for off := 0; off < len(code); {
			var in decoded
			if !d.hotX86(code[off:], s.Address+Addr(off), &in) {
				off = skip(off)
				continue
			}
			if effect(in) {
				want = append(want, in)
			}
			wantHot++
			off += in.size
		}
		if wantHot < 1000 {
			t.Fatalf("%s: the hot path decoded only %d instructions", s.Name, wantHot)
		}
		for _, batch := range []int{1, 7, 256} {
			var got []decoded
			hot := 0
			recs := make([]decoded, batch)
			for off := 0; off < len(code); {
				next, count, n := d.hotRun(code, off, len(code), s.Address, recs)
				got = append(got, recs[:n]...)
				hot += count
				if count == 0 {
					next = skip(off)
				}
				off = next
			}
			if hot != wantHot || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, batches of %d: %d instructions hot, %d recorded; one at a time %d and %d", s.Name, batch, hot, len(got), wantHot, len(want))
			}
		}
	}
}
