package segments

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"
)

// moduleWithData builds a minimal module: one memory of one page and a data
// section holding segs (offset, bytes), plus optional raw extra sections.
func moduleWithData(segs []segment, extra ...[]byte) []byte {
	m := append([]byte(nil), header...)
	m = append(m, 5, 3, 1, 0, 1) // memory section: 1 memory, min 1 page
	for _, e := range extra {
		m = append(m, e...)
	}
	return appendDataSection(m, segs)
}

// memoryAfterInstantiation instantiates module in wazero and returns its
// first page of linear memory.
func memoryAfterInstantiation(t *testing.T, module []byte) []byte {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	mod, err := r.Instantiate(ctx, module)
	if err != nil {
		t.Fatalf("instantiate: %v", err)
	}
	b, ok := mod.Memory().Read(0, 1<<16)
	if !ok {
		t.Fatal("memory read failed")
	}
	return bytes.Clone(b)
}

func TestCoalesceJoinsCloseSegmentsAndKeepsMemoryIdentical(t *testing.T) {
	in := moduleWithData([]segment{
		{0, []byte("ab")},
		{10, []byte("cd")},             // gap 8: joined
		{12, []byte("ef")},             // gap 0: joined
		{14 + MaxGap + 1, []byte("x")}, // gap MaxGap+1: new segment
		{5000, []byte("y")},
	})
	out, st, err := Coalesce(in)
	if err != nil {
		t.Fatal(err)
	}
	if st.Before != 5 || st.After != 3 || st.ZeroBytesAdded != 8 {
		t.Fatalf("stats %+v", st)
	}
	if !bytes.Equal(memoryAfterInstantiation(t, in), memoryAfterInstantiation(t, out)) {
		t.Fatal("linear memory differs after coalescing")
	}
}

func TestCoalesceLeavesOverlappingAndDescendingSegmentsApart(t *testing.T) {
	in := moduleWithData([]segment{
		{100, []byte("later")},
		{0, []byte("first")},   // descending: kept apart
		{3, []byte("overlap")}, // overlaps the one before: kept apart, still wins
	})
	out, st, err := Coalesce(in)
	if err != nil {
		t.Fatal(err)
	}
	if st.After != 3 || st.Skipped == "" || !bytes.Equal(in, out) {
		t.Fatalf("stats %+v, changed %v", st, !bytes.Equal(in, out))
	}
	mem := memoryAfterInstantiation(t, out)
	if string(mem[0:10]) != "firoverlap" {
		t.Fatalf("memory %q", mem[:10])
	}
}

func TestCoalesceSkipsModulesItCannotRewriteSafely(t *testing.T) {
	passive := append([]byte(nil), header...)
	passive = append(passive, 5, 3, 1, 0, 1, secData, 4, 1, 1, 1, 'z')
	dataCount := moduleWithData([]segment{{0, []byte("a")}, {2, []byte("b")}}, []byte{secDataCount, 1, 2})
	noData := append(append([]byte(nil), header...), 5, 3, 1, 0, 1)
	for name, in := range map[string][]byte{"passive": passive, "data count": dataCount, "no data": noData} {
		out, st, err := Coalesce(in)
		if err != nil || st.Skipped == "" || !bytes.Equal(in, out) {
			t.Errorf("%s: err %v stats %+v changed %v", name, err, st, !bytes.Equal(in, out))
		}
	}
}

func TestCoalesceRejectsMalformedModulesWithTypedErrors(t *testing.T) {
	good := moduleWithData([]segment{{0, []byte("abc")}, {4, []byte("d")}})
	cases := map[string][]byte{
		"not wasm":           []byte("hello"),
		"truncated section":  good[:len(good)-2],
		"huge segment count": append(append([]byte(nil), header...), secData, 2, 0xff, 0x01),
	}
	for name, in := range cases {
		if _, _, err := Coalesce(in); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err %v, want ErrMalformed", name, err)
		}
	}
}
