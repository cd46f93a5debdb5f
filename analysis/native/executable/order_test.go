package executable

import (
	"cmp"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestSortedStableEqualsSortSliceStable(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	type item struct {
		key  int
		name string
		seq  int
	}
	for round := 0; round < 200; round++ {
		n := rng.Intn(300)
		in := make([]item, n)
		for i := range in {
			in[i] = item{key: rng.Intn(20), name: string(rune('a' + rng.Intn(3))), seq: i}
		}
		if round%5 == 0 { // already in order: returned as is
			sort.SliceStable(in, func(i, j int) bool { return in[i].key < in[j].key })
		}
		want := append([]item(nil), in...)
		sort.SliceStable(want, func(i, j int) bool {
			if want[i].key != want[j].key {
				return want[i].key < want[j].key
			}
			return want[i].name < want[j].name
		})
		got := sortedStable(append([]item(nil), in...), func(a, b *item) int {
			return cmp.Or(cmp.Compare(a.key, b.key), strings.Compare(a.name, b.name))
		})
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("round %d: sortedStable %v, sort.SliceStable %v", round, got, want)
		}
	}
}

func TestSortedByAddressEqualsSortSliceStable(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	type item struct {
		addr Addr
		name string
		seq  int
	}
	for round := 0; round < 300; round++ {
		n := rng.Intn(400)
		in := make([]item, n)
		for i := range in {
			in[i] = item{addr: Addr(rng.Intn(30)), name: string(rune('a' + rng.Intn(3))), seq: i}
			if round%7 == 3 && i == n/2 {
				in[i].addr = 1 << 60 // beyond what packs: the general path
			}
		}
		if round%5 == 0 {
			sort.SliceStable(in, func(i, j int) bool { return in[i].addr < in[j].addr })
		}
		want := append([]item(nil), in...)
		sort.SliceStable(want, func(i, j int) bool {
			if want[i].addr != want[j].addr {
				return want[i].addr < want[j].addr
			}
			return want[i].name < want[j].name
		})
		got := sortedByAddress(append([]item(nil), in...), func(x *item) Addr { return x.addr }, func(x, y *item) int {
			return strings.Compare(x.name, y.name)
		})
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("round %d: sortedByAddress %v, sort.SliceStable %v", round, got, want)
		}
	}
}
