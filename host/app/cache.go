package app

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"rea/abi"
)

// Names of rea's local caches, as `rea cache` shows and clears them.
const (
	// CacheCompiled holds modules compiled to machine code by wazero, keyed
	// by module digest: a hit saves seconds at the first run of a module.
	CacheCompiled = "compiled"
	// CacheResults holds results of module runs over content-addressed
	// input (see sandbox.Call.CacheKey).
	CacheResults = "results"
)

// CacheUsage is what one cache holds.
type CacheUsage struct {
	Name string `json:"name"`
	// Dir is empty when the cache is off (results are then kept in memory
	// for the life of the process only).
	Dir   string `json:"dir"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// CacheReport lists rea's caches.
type CacheReport struct {
	Caches []CacheUsage `json:"caches"`
}

// Caches reports what the compiled-module and result caches hold on disk.
func (a *App) Caches() (CacheReport, error) {
	compiled, results := a.Runner.CacheDirs()
	var rep CacheReport
	for _, c := range []struct{ name, dir string }{{CacheCompiled, compiled}, {CacheResults, results}} {
		u := CacheUsage{Name: c.name, Dir: c.dir}
		if c.dir != "" {
			err := filepath.WalkDir(c.dir, func(_ string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || bookkeeping(d.Name()) {
					return err
				}
				if info, err := d.Info(); err == nil {
					u.Files++
					u.Bytes += info.Size()
				}
				return nil
			})
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return rep, fmt.Errorf("reading the %s cache at %s: %w", c.name, c.dir, err)
			}
		}
		rep.Caches = append(rep.Caches, u)
	}
	return rep, nil
}

// ClearCaches empties the named caches (CacheCompiled, CacheResults; none
// means both) and reports what they held before. Clearing is always safe:
// compiled modules are compiled again and results computed again on use.
func (a *App) ClearCaches(names []string) (CacheReport, error) {
	if len(names) == 0 {
		names = []string{CacheCompiled, CacheResults}
	}
	for _, n := range names {
		if n != CacheCompiled && n != CacheResults {
			return CacheReport{}, abi.Errorf(abi.CodeInvalidRequest, "unknown cache %q; the caches are %q and %q", n, CacheCompiled, CacheResults).
				WithDetail("field", "cache")
		}
	}
	before, err := a.Caches()
	if err != nil {
		return before, err
	}
	var cleared CacheReport
	for _, u := range before.Caches {
		if !slices.Contains(names, u.Name) {
			continue
		}
		cleared.Caches = append(cleared.Caches, u)
		if u.Name == CacheResults {
			err = a.Runner.ClearResults()
		} else {
			err = a.Runner.ClearCompiled()
		}
		if err != nil {
			return cleared, fmt.Errorf("clearing the %s cache at %s: %w", u.Name, u.Dir, err)
		}
	}
	return cleared, nil
}

// bookkeeping tells marker files (last sweep, modules seen) from cached
// content.
func bookkeeping(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "rea-seen-")
}
