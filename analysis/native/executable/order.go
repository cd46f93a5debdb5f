package executable

import (
	"cmp"
	"slices"
)

// sortedStable returns s ordered by compare, equal elements in their
// original order. Symbols, names and procedures are structs holding
// strings; sorting them in place moves each many times, and every move of
// a pointer-holding struct pays write barriers while the collector marks
// (in wasm the reflection-based sort.SliceStable spent seconds there). So
// it sorts a permutation and moves each element once, and returns s itself
// when it is already in order, as symbol tables often nearly are.
func sortedStable[T any](s []T, compare func(a, b *T) int) []T {
	sorted := true
	for i := 1; i < len(s); i++ {
		if compare(&s[i-1], &s[i]) > 0 {
			sorted = false
			break
		}
	}
	if sorted {
		return s
	}
	idx := make([]int32, len(s))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(x, y int32) int {
		if c := compare(&s[x], &s[y]); c != 0 {
			return c
		}
		return cmp.Compare(x, y) // the original order breaks ties: stable
	})
	out := make([]T, len(s))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// sortedByAddress is sortedStable for elements ordered by address, then by
// tie: it sorts packed address-and-position integers, which needs no
// comparison function (in wasm a call per comparison dominated sorting a
// large binary's hundred thousand symbols), and orders only runs of equal
// addresses by tie. Addresses at or above 2^43 (or two million elements)
// take sortedStable.
func sortedByAddress[T any](s []T, addr func(*T) Addr, tie func(a, b *T) int) []T {
	const idxBits = 21
	packable := len(s) < 1<<idxBits
	keys := make([]uint64, len(s))
	for i := range s {
		a := addr(&s[i])
		if a >= 1<<(64-idxBits) {
			packable = false
			break
		}
		keys[i] = uint64(a)<<idxBits | uint64(i)
	}
	if !packable {
		return sortedStable(s, func(x, y *T) int {
			if c := cmp.Compare(addr(x), addr(y)); c != 0 {
				return c
			}
			return tie(x, y)
		})
	}
	slices.Sort(keys)
	idx := make([]int32, len(keys))
	for i, k := range keys {
		idx[i] = int32(k & (1<<idxBits - 1))
	}
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>idxBits == keys[i]>>idxBits {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(idx[i:j], func(x, y int32) int {
				if c := tie(&s[x], &s[y]); c != 0 {
					return c
				}
				return cmp.Compare(x, y)
			})
		}
		i = j
	}
	inOrder := true
	for i, j := range idx {
		if int(j) != i {
			inOrder = false
			break
		}
	}
	if inOrder {
		return s
	}
	out := make([]T, len(s))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}
