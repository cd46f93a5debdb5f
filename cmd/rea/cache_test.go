package main_test

import (
	"strings"
	"testing"
)

type cacheReport struct {
	Caches []struct {
		Name  string `json:"name"`
		Dir   string `json:"dir"`
		Files int    `json:"files"`
		Bytes int64  `json:"bytes"`
	} `json:"caches"`
}

func cacheUsage(t *testing.T, env []string) map[string]int {
	t.Helper()
	r := rea(t, "", env, "cache", "show", "--format", "json")
	if r.code != 0 {
		t.Fatalf("cache show: %d %s", r.code, r.stderr)
	}
	var rep cacheReport
	decode(t, r.stdout, &rep)
	files := map[string]int{}
	for _, c := range rep.Caches {
		files[c.Name] = c.Files
	}
	return files
}

// `rea cache show` counts what a run left in the compiled-module and result
// caches; `rea cache clear --only results` empties one and keeps the other;
// an unknown cache name is invalid_request naming the field.
func TestCacheShowAndClearWhatARunLeft(t *testing.T) {
	env := []string{"XDG_CACHE_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "REA_RESULT_CACHE_DIR="}
	if r := rea(t, "", env, "guidance", "--query", "preload contextBridge"); r.code != 0 {
		t.Fatalf("guidance: %d %s", r.code, r.stderr)
	}
	before := cacheUsage(t, env)
	if before["compiled"] == 0 || before["results"] == 0 {
		t.Fatalf("a guidance search left nothing in the caches: %v", before)
	}
	r := rea(t, "", env, "cache", "clear", "--only", "results")
	if r.code != 0 || !strings.Contains(r.stdout, "cleared results") {
		t.Fatalf("clear: %d %q %s", r.code, r.stdout, r.stderr)
	}
	after := cacheUsage(t, env)
	if after["results"] != 0 || after["compiled"] != before["compiled"] {
		t.Fatalf("after clearing results: %v (before %v)", after, before)
	}
	r = rea(t, "", env, "cache", "clear", "--only", "everything", "--format", "json")
	if r.code != 1 || !strings.Contains(r.stdout, `"invalid_request"`) || !strings.Contains(r.stdout, `"cache"`) {
		t.Fatalf("unknown cache: %d %s %s", r.code, r.stdout, r.stderr)
	}
}
