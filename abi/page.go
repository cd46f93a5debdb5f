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
	// ByteLimited says the page stopped before limit items because its
	// serialised items reached the page byte budget (pagebytes.go); the
	// rest starts at NextOffset.
	ByteLimited bool `json:"byte_limited,omitempty"`
	Items       []T  `json:"items"`
}

// PageOf is the window of all at offset of at most limit items. Items is
// empty, never null, past the end.
func PageOf[T any](all []T, offset, limit int) Page[T] {
	return PageWithin(all, offset, limit, DefaultPageBytes)
}

// Window is the part of all at offset of at most limit items, and where the
// next window starts (nil when this one reaches the end). Past the end it
// is nil, nil, so a result that lays out its own paging fields keeps its
// own empty value. Offset and limit are the caller's validated request:
// offset ≥ 0, limit ≥ 0.
//
// Window stops early at DefaultPageBytes of serialised items too
// (pagebytes.go), with next pointing at the first item left out.
func Window[T any](all []T, offset, limit int) (items []T, next *int) {
	items, next = countWindow(all, offset, limit)
	if n := FitWithin(items, DefaultPageBytes); n < len(items) {
		items = items[:n]
		end := offset + n
		next = &end
	}
	return items, next
}

// countWindow is Window bounded by the item count alone.
func countWindow[T any](all []T, offset, limit int) (items []T, next *int) {
	if offset >= len(all) {
		return nil, nil
	}
	end := min(len(all), offset+limit)
	if end < len(all) {
		next = &end
	}
	return all[offset:end], next
}
