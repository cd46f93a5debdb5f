package binary

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
