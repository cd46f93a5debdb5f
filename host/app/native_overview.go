package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"sync"
	"time"

	"rea/host/sandbox"
	"rea/modules/abi"
	"rea/modules/native/query"
)

// An overview of a large binary runs in parts, side by side: one module
// instance per part of the linear sweep (cut where the sweep is provably
// in step, see modules/native/binary/parts.go), one counting strings, and
// then one assembling the inventory from the parts. A wasm instance runs
// on one core; this is how an overview uses more than one. The number of
// parts is fixed, not taken from the machine, so the fuel the instances
// use (which Evidence records) is the same everywhere; the inventory is
// byte-identical to one instance's either way.
const (
	overviewSweepParts = 2
	// overviewInPartsFrom is the file size from which an overview runs in
	// parts; below it the extra instances' fixed cost outweighs the gain.
	overviewInPartsFrom = 8 << 20
)

// runOverview runs binary_overview: in parts for a large binary, in one
// instance otherwise. If any part fails, the overview runs again in one
// instance, so errors are those of the single sweep.
func (a *App) runOverview(ctx context.Context, in *nativeInput, params query.Params, out any, progress func(abi.Progress)) (*sandbox.Outcome, error) {
	if in.info.Size() < overviewInPartsFrom {
		return a.runNativeWhole(ctx, in, query.OpOverview, params, out, progress)
	}
	res, err := a.runOverviewInParts(ctx, in, params, out, progress)
	var typed *abi.Error
	if err != nil && ctx.Err() == nil && (!errors.As(err, &typed) || typed.Code == abi.CodeInternal || typed.Code == abi.CodeModuleFailed) {
		// Parts that do not assemble: the one-instance overview decides.
		return a.runNativeWhole(ctx, in, query.OpOverview, params, out, progress)
	}
	return res, err
}

func (a *App) runOverviewInParts(ctx context.Context, in *nativeInput, params query.Params, out any, progress func(abi.Progress)) (*sandbox.Outcome, error) {
	start := time.Now()
	n := overviewSweepParts
	parts := make([]query.SweepPart, n)
	var count query.StringCount
	results := make([]*sandbox.Outcome, n+1)
	errs := make([]error, n+1)
	report := progressOfParts(n, progress)
	var wg sync.WaitGroup
	for k := 0; k <= n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := params
			p.Offset, p.Limit = 0, 0 // parts answer no page
			if k < n {
				p.Part, p.SweepParts = k, n
				results[k], errs[k] = a.runNativeWhole(ctx, in, query.OpSweepPart, p, &parts[k], func(pr abi.Progress) { report(k, pr) })
			} else {
				results[k], errs[k] = a.runNativeWhole(ctx, in, query.OpStringCount, p, &count, nil)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs { // in sweep order: the error one sweep would meet first
		if err != nil {
			return nil, err
		}
	}
	mount := memFS{}
	for k, part := range parts {
		if part.Part != k || part.Parts != n {
			return nil, abi.Errorf(abi.CodeInternal, "the native module answered part %d of %d with part %d of %d", k, n, part.Part, part.Parts)
		}
		mount[strconv.Itoa(k)] = part.Data
	}
	params.SweepParts, params.PartsMount, params.StringCount = n, "/parts", &count.Count
	res, err := a.runNativeCall(ctx, in, query.OpOverview, params, out, progress, sandbox.Mount{GuestPath: "/parts", FS: mount})
	if err != nil {
		return nil, err
	}
	// The record tells what the whole overview used: fuel adds up, and
	// the parts ran at the same time, so their memory does too.
	combined := *res
	var partsPeak uint64
	for _, r := range results {
		combined.Usage.FuelUsed += r.Usage.FuelUsed
		partsPeak += r.Usage.PeakMemoryBytes
		combined.Cached = combined.Cached && r.Cached
	}
	combined.Usage.PeakMemoryBytes = max(partsPeak, res.Usage.PeakMemoryBytes)
	combined.Usage.Wall = time.Since(start)
	return &combined, nil
}

// progressOfParts reports the parts' sweep progress as one: bytes swept
// by all parts of all the code. Parts report from their own goroutines.
func progressOfParts(n int, progress func(abi.Progress)) func(int, abi.Progress) {
	var mu sync.Mutex
	done := make([]int64, n)
	return func(k int, p abi.Progress) {
		if progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done[k] = p.Done
		var sum int64
		for _, d := range done {
			sum += d
		}
		p.Done = sum
		progress(p)
	}
}

// runNativeCall is runNativeWhole with more mounts beside the binary's.
func (a *App) runNativeCall(ctx context.Context, in *nativeInput, op string, params query.Params, out any, progress func(abi.Progress), mounts ...sandbox.Mount) (*sandbox.Outcome, error) {
	params.Input = in.info.Name()
	params.MemoryLimitBytes = a.Config.Limits.WithDefaults().MemoryBytes
	res, err := a.Runner.Run(ctx, sandbox.Call{
		Module: NativeModule, Operation: op, Params: params,
		Mounts:   append([]sandbox.Mount{{GuestPath: "/in", FS: &fileFS{name: in.info.Name(), f: in.f, info: in.info}}}, mounts...),
		Limits:   a.Config.Limits,
		Progress: progress,
		// The module sees exactly this file (and, for an assembled
		// overview, parts computed from it), whose digest names the
		// content: a repeated query is served from the result cache.
		CacheKey: "native-file:" + in.sha256,
	})
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(res.Result, out); err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "the native module answered %s with an unreadable result: %v", op, err)
	}
	return res, nil
}

// memFS is a read-only file system of named byte slices, all at its root.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	if name == "." {
		return &memDir{m: m}, nil
	}
	b, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{Reader: bytes.NewReader(b), info: memInfo{name: name, size: int64(len(b))}}, nil
}

type memFile struct {
	*bytes.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

type memDir struct {
	m    memFS
	read bool
}

func (d *memDir) Stat() (fs.FileInfo, error) { return dirInfo{}, nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: fs.ErrInvalid}
}
func (d *memDir) Close() error { return nil }
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.read {
		if n > 0 {
			return nil, io.EOF
		}
		return nil, nil
	}
	d.read = true
	names := make([]string, 0, len(d.m))
	for name := range d.m {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]fs.DirEntry, 0, len(names))
	for _, name := range names {
		out = append(out, fs.FileInfoToDirEntry(memInfo{name: name, size: int64(len(d.m[name]))}))
	}
	return out, nil
}
