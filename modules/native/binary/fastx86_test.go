package binary

import (
	"math/rand"
	"testing"

	"rea/modules/native/nativetest"
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
// code and of random bytes with the hot path and the fast path: whenever
// the hot path answers, the fast path must give the same answer.
func TestHotX86AgreesWithFastX86(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	noise := make([]byte, 4<<20)
	rng.Read(noise)
	for _, bin := range []string{nativetest.ChainELF(t, "hardened"), nativetest.GeneratedELF(t), nativetest.GoBinary(t, "linux", "amd64"), nativetest.GoBinary(t, "windows", "amd64")} {
		f := openPath(t, bin, Options{})
		for _, s := range append(f.codeSections(), &Section{Name: "random"}) {
			code, base := noise, Addr(0x400000)
			if s.Name != "random" {
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
				var hot, fast decoded
				if !d.hotX86(code[off:], pc, &hot) {
					continue
				}
				hits++
				if !d.fastX86(code[off:], pc, &fast) || hot != fast {
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
