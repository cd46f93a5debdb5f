package abi

// Page is one window of a collection as every paged result puts it on the
// wire: counts first, so a caller knows how much there is before reading
// it, and the offset of the next page (null on the last one).
type Page[T any] struct {
	Total  int `json:"total"`
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
	// NextOffset is where the next page starts; null on the last page.
	NextOffset *int `json:"next_offset"`
	Items      []T  `json:"items"`
}

// PageOf is the window of all at offset of at most limit items. Items is
// empty, never null, past the end.
func PageOf[T any](all []T, offset, limit int) Page[T] {
	p := Page[T]{Total: len(all), Offset: offset, Limit: limit, Items: []T{}}
	if items, next := Window(all, offset, limit); items != nil {
		p.Items, p.NextOffset = items, next
	}
	return p
}

// Window is the part of all at offset of at most limit items, and where the
// next window starts (nil when this one reaches the end). Past the end it
// is nil, nil, so a result that lays out its own paging fields keeps its
// own empty value. Offset and limit are the caller's validated request:
// offset ≥ 0, limit ≥ 0.
func Window[T any](all []T, offset, limit int) (items []T, next *int) {
	if offset >= len(all) {
		return nil, nil
	}
	end := min(len(all), offset+limit)
	if end < len(all) {
		next = &end
	}
	return all[offset:end], next
}
