package abi

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPagesStopAtTheByteBudget(t *testing.T) {
	big := strings.Repeat("x", 1000) // 1002 bytes as JSON, 1003 with its comma
	all := make([]string, 10)
	for i := range all {
		all[i] = big
	}
	for _, c := range []struct {
		offset, limit, budget int
		items                 int
		next                  any // nil: last page
		limited               bool
	}{
		{0, 10, 0, 10, nil, false},       // no budget
		{0, 10, 1 << 20, 10, nil, false}, // fits
		{0, 10, 3009, 3, 3, true},        // exactly three
		{0, 10, 3008, 2, 2, true},        // one byte short of three
		{2, 3, 3008, 2, 4, true},         // from an offset
		{0, 10, 10, 1, 1, true},          // one item always, even over budget
		{9, 10, 10, 1, nil, false},       // the last item alone
		{0, 2, 3009, 2, 2, false},        // the count limit first
	} {
		p := PageWithin(all, c.offset, c.limit, c.budget)
		if len(p.Items) != c.items || p.ByteLimited != c.limited {
			t.Errorf("%+v: %d items, byte_limited %v", c, len(p.Items), p.ByteLimited)
		}
		switch {
		case c.next == nil && p.NextOffset != nil:
			t.Errorf("%+v: next_offset %d, want null", c, *p.NextOffset)
		case c.next != nil && (p.NextOffset == nil || *p.NextOffset != c.next.(int)):
			t.Errorf("%+v: next_offset %v, want %v", c, p.NextOffset, c.next)
		}
	}
	// Paging through with next_offset visits every item once.
	seen := 0
	for off := 0; ; {
		p := PageWithin(all, off, 64, 2500)
		seen += len(p.Items)
		if p.NextOffset == nil {
			break
		}
		off = *p.NextOffset
	}
	if seen != len(all) {
		t.Fatalf("paging by next_offset saw %d of %d items", seen, len(all))
	}
	b, _ := json.Marshal(PageOf([]int{1, 2}, 0, 5))
	if strings.Contains(string(b), "byte_limited") {
		t.Errorf("a page within budget says byte_limited: %s", b)
	}
}

func TestWindowStopsAtTheByteBudgetToo(t *testing.T) {
	item := strings.Repeat("y", 30<<10)
	all := []string{item, item, item, item}
	items, next := Window(all, 0, 4)
	if len(items) != 2 || next == nil || *next != 2 {
		t.Fatalf("Window of four 30 KiB items: %d items, next %v; want 2 and 2", len(items), next)
	}
}
