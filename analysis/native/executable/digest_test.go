package executable

import (
	"testing"

	"rea/analysis/native/nativetest"
)

// TestDigestAgreesWithDecode holds the streaming digest to the dossier's
// decoder: the same block and edge counts as Decode's blocks, the same
// instructions less trailing padding, and an operation multiset that adds
// up — on a gcc fixture (x86-64) and a Go arm64 build.
func TestDigestAgreesWithDecode(t *testing.T) {
	for _, bin := range []string{nativetest.ChainELF(t, "plain"), nativetest.GoBinary(t, "linux", "arm64")} {
		a := analyzePath(t, bin)
		checked := 0
		for i := range a.Procedures {
			p := &a.Procedures[i]
			if p.Kind != KindFunction || p.External || p.Size == 0 {
				continue
			}
			body, err := a.DecodeUnnamed(p)
			if err != nil {
				continue
			}
			d, err := a.DigestOf(p)
			if err != nil {
				t.Fatalf("%s: DigestOf(%s): %v", bin, p.Name, err)
			}
			edges := 0
			for _, b := range body.Blocks {
				edges += len(b.Successors)
			}
			if d.Blocks != len(body.Blocks) || d.Edges != edges {
				t.Fatalf("%s %s: digest %d blocks %d edges, Decode %d blocks %d edges", bin, p.Name, d.Blocks, d.Edges, len(body.Blocks), edges)
			}
			if d.Instructions > len(body.Instructions) || d.Instructions == 0 && len(body.Instructions) > 0 && body.Instructions[0].Text != "int3" && body.Instructions[0].Text != "nop" {
				t.Fatalf("%s %s: digest %d instructions, Decode %d", bin, p.Name, d.Instructions, len(body.Instructions))
			}
			for _, in := range body.Instructions[d.Instructions:] {
				if m := in.Text; m != "int3" && m != "nop" && m[:min(len(m), 3)] != "nop" && m[:min(len(m), 4)] != "hint" {
					t.Fatalf("%s %s: %q after the digest's %d instructions is not padding", bin, p.Name, m, d.Instructions)
				}
			}
			n := 0
			for i, o := range d.Ops {
				n += int(o.N)
				if i > 0 && d.Ops[i-1].Op >= o.Op {
					t.Fatalf("%s %s: ops not sorted: %v", bin, p.Name, d.Ops)
				}
			}
			if n != d.Instructions {
				t.Fatalf("%s %s: ops count %d instructions, digest %d", bin, p.Name, n, d.Instructions)
			}
			checked++
		}
		if checked < 5 {
			t.Fatalf("%s: only %d functions checked", bin, checked)
		}
	}
}
