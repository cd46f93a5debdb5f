package abi

import "encoding/json"

// DefaultPageBytes is the byte budget of one page's serialised items: a
// page stops at limit items or when its items reach 64 KiB, whichever
// comes first, so one page costs an agent a bounded part of its context
// whatever the items hold (a 64-item page of application modules was 121
// KB, one item 21 KB). A page always holds at least one item, so paging
// makes progress.
const DefaultPageBytes = 64 << 10

// PageWithin is PageOf with an explicit byte budget (0: none).
func PageWithin[T any](all []T, offset, limit, budget int) Page[T] {
	p := Page[T]{Total: len(all), Offset: offset, Limit: limit, Items: []T{}}
	items, next := countWindow(all, offset, limit)
	if items == nil {
		return p
	}
	if budget > 0 {
		if n := FitWithin(items, budget); n < len(items) {
			items = items[:n]
			end := offset + n
			next = &end
			p.ByteLimited = true
		}
	}
	p.Items, p.NextOffset = items, next
	return p
}

// FitWithin is how many leading items fit the budget as JSON (each with its
// separating comma), at least one.
func FitWithin[T any](items []T, budget int) int {
	size := 0
	for i, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return len(items) // the page's own encoding reports it
		}
		size += len(b) + 1
		if size > budget && i > 0 {
			return i
		}
	}
	return len(items)
}
