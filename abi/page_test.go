package abi

import (
	"encoding/json"
	"testing"
)

func TestPageOfWindowsACollection(t *testing.T) {
	all := []int{10, 11, 12, 13, 14}
	for _, c := range []struct {
		offset, limit int
		want          string
	}{
		{0, 2, `{"total":5,"offset":0,"limit":2,"next_offset":2,"items":[10,11]}`},
		{4, 2, `{"total":5,"offset":4,"limit":2,"next_offset":null,"items":[14]}`},
		{3, 2, `{"total":5,"offset":3,"limit":2,"next_offset":null,"items":[13,14]}`},
		{5, 2, `{"total":5,"offset":5,"limit":2,"next_offset":null,"items":[]}`},
		{9, 2, `{"total":5,"offset":9,"limit":2,"next_offset":null,"items":[]}`},
	} {
		b, _ := json.Marshal(PageOf(all, c.offset, c.limit))
		if string(b) != c.want {
			t.Errorf("PageOf(%d, %d) = %s, want %s", c.offset, c.limit, b, c.want)
		}
	}
	if items, next := Window(all, 5, 2); items != nil || next != nil {
		t.Errorf("past the end: %v, %v", items, next)
	}
}

func TestSeverityRankOrdersLeastToMostSevere(t *testing.T) {
	order := []string{"", "critical", SeverityInfo, SeverityLow, SeverityMedium, SeverityHigh}
	for i := 2; i < len(order); i++ {
		if SeverityRank(order[i]) <= SeverityRank(order[i-1]) {
			t.Errorf("%q ranks %d, not above %q (%d)", order[i], SeverityRank(order[i]), order[i-1], SeverityRank(order[i-1]))
		}
	}
	if SeverityRank("critical") != 0 || SeverityRank("HIGH") != 0 {
		t.Error("an unrecognised severity must rank below every finding severity")
	}
}
