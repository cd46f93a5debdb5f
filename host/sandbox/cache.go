package sandbox

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"rea/wasm/module"
)

// resultCache is the content-addressed result cache: a module run is a pure
// function of the module's bytes, the request and the mounted content, so a
// result keyed by (module digest, operation, params, content key) can be
// served again without running anything. Entries live in memory (bounded
// LRU) and on disk under the cache directory, so a second CLI process over
// unchanged input is served too. Only successful runs are cached.
type resultCache struct {
	dir string // "" = memory only

	mu      sync.Mutex
	order   *list.List
	entries map[string]*list.Element
	bytes   int64

	writes sync.WaitGroup // disk writes in flight; flush waits for them
}

const (
	memoryCacheBytes = 256 << 20
	diskCacheEntry   = 64 << 20 // larger results are not written to disk
)

type cachedResult struct {
	key   string
	value cachedOutcome
}

// cachedOutcome is what is stored: the result and the usage of the run that
// produced it (fuel counts are deterministic, so they stay true).
type cachedOutcome struct {
	Result json.RawMessage `json:"result"`
	Usage  Usage           `json:"usage"`
}

func newResultCache(dir string) *resultCache {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			dir = ""
		} else {
			sweep(dir, diskCacheBytes, time.Now(), isResultFile)
		}
	}
	return &resultCache{dir: dir, order: list.New(), entries: map[string]*list.Element{}}
}

// cacheKey derives the key; limits are part of it because a result under
// tighter limits may differ (partial coverage).
func cacheKey(mod module.Identity, call Call, limits Limits, params []byte) string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(mod.SHA256), []byte(call.Operation), params, []byte(call.CacheKey)} {
		h.Write([]byte{byte(len(part) >> 24), byte(len(part) >> 16), byte(len(part) >> 8), byte(len(part))})
		h.Write(part)
	}
	lb, _ := json.Marshal(limits)
	h.Write(lb)
	return hex.EncodeToString(h.Sum(nil))
}

func (c *resultCache) get(key string) (cachedOutcome, bool) {
	return c.lookup(key, ".json", func(b []byte) (cachedOutcome, bool) {
		var v cachedOutcome
		if json.Unmarshal(b, &v) != nil {
			return cachedOutcome{}, false
		}
		return v, true
	})
}

// getRaw is get for a result stored with putRaw: the file holds the
// result's bytes themselves, so a large one is read without a JSON
// envelope to scan.
func (c *resultCache) getRaw(key string) ([]byte, bool) {
	v, ok := c.lookup(key, rawSuffix, func(b []byte) (cachedOutcome, bool) { return cachedOutcome{Result: b}, true })
	return v.Result, ok
}

// rawSuffix names the files of results stored as plain bytes.
const rawSuffix = ".blob"

func (c *resultCache) lookup(key, suffix string, decode func([]byte) (cachedOutcome, bool)) (cachedOutcome, bool) {
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		v := el.Value.(*cachedResult).value
		c.mu.Unlock()
		return v, true
	}
	c.mu.Unlock()
	if c.dir == "" {
		return cachedOutcome{}, false
	}
	b, err := os.ReadFile(filepath.Join(c.dir, key[:2], key+suffix))
	if err != nil {
		return cachedOutcome{}, false
	}
	v, ok := decode(b)
	if !ok {
		return cachedOutcome{}, false
	}
	c.remember(key, v)
	return v, true
}

// put remembers a result and writes it to disk in the background, off the
// request's latency; flush (at Runner.Close) waits for the writes.
func (c *resultCache) put(key string, v cachedOutcome) {
	c.store(key, v, ".json", func() ([]byte, error) { return json.Marshal(v) })
}

// putRaw is put for a result kept as plain bytes (getRaw reads it).
func (c *resultCache) putRaw(key string, b []byte) {
	c.store(key, cachedOutcome{Result: b}, rawSuffix, func() ([]byte, error) { return b, nil })
}

func (c *resultCache) store(key string, v cachedOutcome, suffix string, encode func() ([]byte, error)) {
	c.remember(key, v)
	if c.dir == "" || len(v.Result) > diskCacheEntry {
		return
	}
	c.writes.Add(1)
	go func() {
		defer c.writes.Done()
		c.write(key, suffix, encode)
	}()
}

func (c *resultCache) flush() { c.writes.Wait() }

// clear drops every result: the memory LRU, and the disk directory's
// contents once pending writes have landed.
func (c *resultCache) clear() error {
	c.flush()
	c.mu.Lock()
	c.order.Init()
	c.entries = map[string]*list.Element{}
	c.bytes = 0
	c.mu.Unlock()
	if c.dir == "" {
		return nil
	}
	return removeContents(c.dir)
}

// removeContents empties dir, keeping dir itself.
func removeContents(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var errs []error
	for _, e := range entries {
		errs = append(errs, os.RemoveAll(filepath.Join(dir, e.Name())))
	}
	return errors.Join(errs...)
}

func (c *resultCache) write(key, suffix string, encode func() ([]byte, error)) {
	b, err := encode()
	if err != nil {
		return
	}
	dir := filepath.Join(c.dir, key[:2])
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, key+suffix)) != nil {
		_ = os.Remove(tmp.Name())
	}
}

func (c *resultCache) remember(key string, v cachedOutcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return
	}
	size := int64(len(v.Result))
	if size > memoryCacheBytes/4 {
		return
	}
	c.entries[key] = c.order.PushFront(&cachedResult{key: key, value: v})
	c.bytes += size
	for c.bytes > memoryCacheBytes {
		el := c.order.Back()
		old := el.Value.(*cachedResult)
		c.order.Remove(el)
		delete(c.entries, old.key)
		c.bytes -= int64(len(old.value.Result))
	}
}

// diskCacheBytes bounds the on-disk result cache, compiledCacheBytes the
// compiled-module cache; sweep trims them.
const (
	diskCacheBytes     = 1 << 30
	compiledCacheBytes = 2 << 30
)

func isResultFile(path string) bool {
	return strings.HasSuffix(path, ".json") || strings.HasSuffix(path, rawSuffix)
}

// isCompiledFile matches wazero's cache entries (<dir>/wazero-<version>-<arch>-<os>/<key>).
func isCompiledFile(path string) bool {
	return strings.HasPrefix(filepath.Base(filepath.Dir(path)), "wazero-")
}

// sweep removes the least recently written files that match until the
// cache holds at most max bytes of them. It runs at most once an hour per
// cache directory (a marker file records the last sweep), so short CLI runs
// pay nothing. For compiled modules "least recently written" is the best
// rea can know (wazero does not touch an entry it reads): an evicted module
// still in use is compiled again once and is then the newest.
func sweep(dir string, max int64, now time.Time, match func(path string) bool) {
	marker := filepath.Join(dir, ".swept")
	if st, err := os.Stat(marker); err == nil && now.Sub(st.ModTime()) < time.Hour {
		return
	}
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !match(p) {
			return nil
		}
		if info, err := d.Info(); err == nil {
			files = append(files, file{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= max {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
	_ = os.WriteFile(marker, nil, 0o644)
	_ = os.Chtimes(marker, now, now)
}
