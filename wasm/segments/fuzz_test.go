package segments

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzCoalesce: any input either fails with ErrMalformed, comes back
// unchanged with a reason, or comes back rewritten such that a second pass
// has nothing left to join (the rewrite is a fixed point).
func FuzzCoalesce(f *testing.F) {
	f.Add(moduleWithData([]segment{{0, []byte("ab")}, {10, []byte("cd")}}))
	f.Add(moduleWithData([]segment{{100, []byte("x")}, {0, []byte("y")}}))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x01\x00"))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, st, err := Coalesce(in)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if st.Skipped != "" {
			if !bytes.Equal(in, out) {
				t.Fatal("skipped but changed")
			}
			return
		}
		again, st2, err := Coalesce(out)
		if err != nil || !bytes.Equal(again, out) || st2.After != st.After {
			t.Fatalf("second pass changed the output: %v %+v", err, st2)
		}
	})
}
