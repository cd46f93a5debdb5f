package artifacts

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// inv builds a one-page inventory of files under root "art_root".
type file struct {
	path, digest, kind string
	size               int64
	exec               bool
	hash               string // hash_status; "" → verified
}

func inv(manifest string, files ...file) Inventory {
	i := Inventory{ManifestID: manifest, RootArtifactID: "art_root", Coverage: "complete"}
	seen := map[string]bool{}
	for _, f := range files {
		o := Occurrence{OccurrenceID: "occ_" + manifest + f.path, ParentArtifactID: "art_root", LogicalPath: f.path, EntryKind: "file", Size: f.size, Executable: f.exec, HashStatus: f.hash}
		if o.HashStatus == "" {
			o.HashStatus = "verified"
		}
		if f.hash != "unavailable" {
			id, d := "art_"+f.digest, f.digest
			o.ArtifactID, o.ObservedSHA256 = &id, &d
			if !seen[id] {
				seen[id] = true
				kind := f.kind
				if kind == "" {
					kind = "javascript"
				}
				i.Nodes.Items = append(i.Nodes.Items, Node{ArtifactID: id, Kind: kind, SHA256: d, Size: f.size})
			}
		}
		i.Occurrences.Items = append(i.Occurrences.Items, o)
	}
	i.Nodes.Total, i.Occurrences.Total = len(i.Nodes.Items), len(i.Occurrences.Items)
	return i
}

func pages(evidence string, i Inventory) Side {
	return Side{Pages: []PageRecord{{EvidenceID: evidence, Inventory: i}}}
}

func run(t *testing.T, l, r Side) *Result {
	t.Helper()
	req := &Request{Left: l, Right: r, IncludeUnchanged: true}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Compare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func kinds(res *Result) map[string]string {
	out := map[string]string{}
	for _, c := range res.Changes {
		out[c.LogicalPath] = c.Kind
	}
	return out
}

func TestEveryPathIsClassifiedWithItsChangedDimensions(t *testing.T) {
	left := inv("m1",
		file{path: "same.js", digest: "aa", size: 1},
		file{path: "edited.js", digest: "bb", size: 2},
		file{path: "gone.js", digest: "cc", size: 3},
		file{path: "tool", digest: "dd", size: 4, kind: "executable"},
		file{path: "tampered.js", digest: "ee", size: 5},
	)
	right := inv("m2",
		file{path: "same.js", digest: "aa", size: 1},
		file{path: "edited.js", digest: "b2", size: 9},
		file{path: "new.js", digest: "ff", size: 6},
		file{path: "tool", digest: "dd", size: 4, kind: "executable", exec: true},
		file{path: "tampered.js", digest: "e2", size: 5, hash: "mismatched"},
	)
	res := run(t, pages("ev_l", left), pages("ev_r", right))
	want := map[string]string{"same.js": StatusUnchanged, "edited.js": StatusChanged, "gone.js": StatusRemoved, "new.js": StatusAdded,
		"tool": StatusChanged, "tampered.js": StatusContradiction}
	if got := kinds(res); !reflect.DeepEqual(got, want) {
		t.Errorf("kinds %v, want %v", got, want)
	}
	for _, c := range res.Changes {
		switch c.LogicalPath {
		case "edited.js":
			if !reflect.DeepEqual(c.ChangedDimensions, []string{"content", "size"}) {
				t.Errorf("edited.js dims %v", c.ChangedDimensions)
			}
		case "tool":
			if !reflect.DeepEqual(c.ChangedDimensions, []string{"executable"}) {
				t.Errorf("tool dims %v", c.ChangedDimensions)
			}
		}
	}
	if res.Status != StatusContradiction {
		t.Errorf("status %s, want contradiction", res.Status)
	}
	if res.Summary[StatusUnchanged] != 1 || res.Summary[StatusChanged] != 2 || res.Summary[StatusAdded] != 1 || res.Summary[StatusRemoved] != 1 {
		t.Errorf("summary %v", res.Summary)
	}
}

func TestOverallStatus(t *testing.T) {
	a := file{path: "a.js", digest: "aa", size: 1}
	b := file{path: "b.js", digest: "bb", size: 1}
	a2 := file{path: "a.js", digest: "a2", size: 1}
	cases := []struct {
		name        string
		left, right Inventory
		want        string
	}{
		{"identical", inv("m", a, b), inv("m", a, b), StatusUnchanged},
		{"only an addition", inv("m", a), inv("n", a, b), StatusAdded},
		{"only a removal", inv("m", a, b), inv("n", a), StatusRemoved},
		{"an edit", inv("m", a, b), inv("n", a2, b), StatusChanged},
		{"an addition and a removal", inv("m", a), inv("n", b), StatusChanged},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := run(t, pages("l", c.left), pages("r", c.right)).Status; got != c.want {
				t.Errorf("status %s, want %s", got, c.want)
			}
		})
	}
}

func TestGapsNeverGiveEquivalence(t *testing.T) {
	a := file{path: "a.js", digest: "aa", size: 1}
	b := file{path: "b.js", digest: "bb", size: 1}
	full := inv("m", a, b)

	t.Run("an unread occurrence page makes absence unknown and the whole truncated", func(t *testing.T) {
		paged := full
		paged.Occurrences.Items = paged.Occurrences.Items[:1] // b.js is on the next page
		res := run(t, pages("l", full), pages("r", paged))
		if k := kinds(res); k["a.js"] != StatusUnchanged || k["b.js"] != StatusUnknown {
			t.Errorf("kinds %v", k)
		}
		if res.Status != StatusTruncated {
			t.Errorf("status %s, want truncated", res.Status)
		}
		if len(res.Limitations) == 0 || !strings.Contains(res.Limitations[0], "1 of 2 occurrences") {
			t.Errorf("limitations %v", res.Limitations)
		}
	})
	t.Run("the second page completes the side", func(t *testing.T) {
		p1, p2 := full, full
		p1.Occurrences.Items = full.Occurrences.Items[:1]
		p2.Occurrences.Items = full.Occurrences.Items[1:]
		two := Side{Pages: []PageRecord{{EvidenceID: "r1", Inventory: p1}, {EvidenceID: "r2", Inventory: p2}}}
		res := run(t, pages("l", full), two)
		if res.Status != StatusUnchanged || !reflect.DeepEqual(res.Right.EvidenceIDs, []string{"r1", "r2"}) {
			t.Errorf("status %s, right %+v", res.Status, res.Right)
		}
	})
	t.Run("partial coverage claims no addition", func(t *testing.T) {
		partial := inv("m", a)
		partial.Coverage = "partial"
		res := run(t, pages("l", partial), pages("r", full))
		if k := kinds(res); k["b.js"] != StatusUnknown {
			t.Errorf("kinds %v", k)
		}
		if res.Status != StatusUnknown {
			t.Errorf("status %s, want unknown", res.Status)
		}
	})
	t.Run("unavailable bytes make content unknown", func(t *testing.T) {
		dark := inv("m", file{path: "a.js", size: 1, hash: "unavailable"}, b)
		res := run(t, pages("l", full), pages("r", dark))
		var got Change
		for _, c := range res.Changes {
			if c.LogicalPath == "a.js" {
				got = c
			}
		}
		if got.Kind != StatusChanged || !reflect.DeepEqual(got.ChangedDimensions, []string{"availability"}) ||
			!reflect.DeepEqual(got.UnknownDimensions, []string{"content", "kind", "format", "integrity"}) {
			t.Errorf("a.js %+v", got)
		}
	})
	t.Run("an artifact node off the pages makes kind unknown", func(t *testing.T) {
		paged := full
		paged.Nodes.Items = paged.Nodes.Items[:1]
		res := run(t, pages("l", full), pages("r", paged))
		if k := kinds(res); k["a.js"] != StatusUnchanged || k["b.js"] != StatusUnknown {
			t.Errorf("kinds %v", k)
		}
		if res.Status != StatusTruncated {
			t.Errorf("status %s", res.Status)
		}
	})
}

func TestNestedContainerEntriesAndRelations(t *testing.T) {
	build := func(manifest, inner string) Inventory {
		i := inv(manifest, file{path: "app.asar", digest: "c1" + inner, size: 10, kind: "container"})
		cid := "art_c1" + inner
		d := inner
		id := "art_" + inner
		i.Occurrences.Items = append(i.Occurrences.Items, Occurrence{OccurrenceID: "occ_in" + manifest, ArtifactID: &id, ObservedSHA256: &d,
			ParentArtifactID: cid, LogicalPath: "main.js", EntryKind: "file", Size: 1, HashStatus: "verified"})
		i.Nodes.Items = append(i.Nodes.Items, Node{ArtifactID: id, Kind: "javascript", SHA256: d, Size: 1})
		i.Edges.Items = []Edge{{EdgeID: "e" + manifest, Relation: "contains", FromArtifactID: cid, ToArtifactID: id}}
		i.Nodes.Total, i.Occurrences.Total, i.Edges.Total = len(i.Nodes.Items), len(i.Occurrences.Items), 1
		return i
	}
	res := run(t, pages("l", build("m1", "11")), pages("r", build("m2", "22")))
	got := map[string]Change{}
	for _, c := range res.Changes {
		got[c.LogicalPath] = c
	}
	if got["app.asar!/main.js"].Kind != StatusChanged {
		t.Errorf("nested entry %+v", got["app.asar!/main.js"])
	}
	if c := got["app.asar"]; c.Kind != StatusChanged || !reflect.DeepEqual(c.ChangedDimensions, []string{"content", "relations"}) {
		t.Errorf("container %+v", c)
	}
	// The container's edges off the pages: relations unknown, not equal.
	l, r := build("m1", "11"), build("m2", "11")
	r.Edges.Items = nil
	res = run(t, pages("l", l), pages("r", r))
	for _, c := range res.Changes {
		if c.LogicalPath == "app.asar" && (c.Kind != StatusUnknown || !reflect.DeepEqual(c.UnknownDimensions, []string{"relations"})) {
			t.Errorf("container with unread edges %+v", c)
		}
	}
	if res.Status != StatusTruncated {
		t.Errorf("status %s", res.Status)
	}
}

func TestRequestsAreCheckedAndPaged(t *testing.T) {
	a := inv("m", file{path: "a.js", digest: "aa", size: 1})
	other := inv("other", file{path: "a.js", digest: "aa", size: 1})
	bad := []struct {
		name string
		req  Request
		want string
	}{
		{"no left pages", Request{Right: pages("r", a)}, "left: give 1 to 100"},
		{"pages of two scans", Request{Left: Side{Pages: []PageRecord{{"x", a}, {"y", other}}}, Right: pages("r", a)}, "graph commitment"},
		{"limit too large", Request{Left: pages("l", a), Right: pages("r", a), Limit: 501}, "limit must be between 1 and 500"},
		{"negative offset", Request{Left: pages("l", a), Right: pages("r", a), Offset: -1}, "offset"},
	}
	for _, c := range bad {
		if err := c.req.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := DecodeRequest([]byte(`{"left":{"pages":[]},"right":{"pages":[]},"bogus":1}`)); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("unknown param: %v", err)
	}
	var files []file
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		files = append(files, file{path: p, digest: p + p, size: 1})
	}
	req := &Request{Left: pages("l", inv("m")), Right: pages("r", inv("n", files...)), Offset: 2, Limit: 2}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Compare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 5 || len(res.Changes) != 2 || res.Changes[0].LogicalPath != "c" || res.NextOffset == nil || *res.NextOffset != 4 {
		b, _ := json.Marshal(res)
		t.Errorf("page: %s", b)
	}
}

func TestCancelledComparisonReturnsNoResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := inv("m", file{path: "a.js", digest: "aa", size: 1})
	req := &Request{Left: pages("l", a), Right: pages("r", a)}
	_ = req.Validate()
	if res, err := Compare(ctx, req); err == nil || res != nil {
		t.Errorf("cancelled: %v %v", res, err)
	}
}
