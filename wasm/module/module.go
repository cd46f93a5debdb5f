// Package module knows rea's analyzer modules as artifacts: their identity
// (name, sha256, ABI version, metering), where they come from (embedded in
// the binary or a --module-dir override) and how an unmetered module is
// metered before it may run.
package module

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"rea/abi"
	"rea/wasm/fuel"
)

// Source says where a module's bytes came from.
type Source string

const (
	// SourceEmbedded modules are compiled into the rea binary by `make`.
	SourceEmbedded Source = "embedded"
	// SourceDir modules come from --module-dir / REA_MODULE_DIR and replace
	// embedded modules of the same name.
	SourceDir Source = "dir"
)

// Identity is what provenance records about a module so that a result can be
// reproduced bit for bit: the digest is of the bytes that actually ran.
type Identity struct {
	Name       string `json:"name"`
	SHA256     string `json:"sha256"`
	ABIVersion int    `json:"abi_version"`
	Size       int64  `json:"size"`
	Source     Source `json:"source"`
	// Metered is true when the module's file already carries the fuel
	// counter. A module loaded without it is metered at load time, and
	// MeteredAtLoad says so.
	Metered       bool   `json:"metered"`
	MeteredAtLoad bool   `json:"metered_at_load,omitempty"`
	Path          string `json:"path,omitempty"`
}

// Module is a metered module ready to compile. It does not hold the
// module's bytes: a compiled module needs them only while it compiles, and
// keeping a copy of every module used (16–30 MB) for the process's life was
// most of the host heap of a small analysis. Read reads them again.
type Module struct {
	Identity
	// metered holds the bytes of a module metered at load (a development
	// path: instrumenting again on every read would cost more than the
	// copy); nil for modules read from their file.
	metered []byte
	entry   *entry
}

// Read returns the bytes the module's Identity describes, read again from
// where they came from. A file that no longer matches its identity (a
// module directory rebuilt under a running rea, or an embedded identity
// stamp that does not match its module) is an error, never other bytes
// under the old name.
func (m *Module) Read() ([]byte, error) {
	if m.metered != nil {
		return m.metered, nil
	}
	raw, err := readInPlace(m.entry.fsys, m.entry.file)
	if err != nil {
		return nil, m.entry.wrap(m.Name, err)
	}
	if got := digest(raw); got != m.SHA256 {
		return nil, m.entry.wrap(m.Name, fmt.Errorf("its bytes (sha256 %s) are not the ones it was identified by (%s): it changed since this rea started, or its identity stamp is stale; rebuild with `make` and restart", got[:12], m.SHA256[:12]))
	}
	return raw, nil
}

// InPlaceBytes returns the module's bytes where the linker put them —
// read-only data of rea's executable, which the caller may release from
// memory once it is done with them (they are read back from the executable
// if touched again) — without touching or checking them (Read hashes every
// byte); ok is false for a module that is not embedded in place.
func (m *Module) InPlaceBytes() ([]byte, bool) {
	if m.metered != nil {
		return nil, false
	}
	f, ok := m.entry.fsys.(inPlaceFS)
	if !ok {
		return nil, false
	}
	return f.ReadFileInPlace(m.entry.file)
}

// inPlaceFS is a module directory that can hand out a file's bytes without
// copying them (package embedded's, when `make modules` generated its
// index): the bytes are then read-only and must not be written.
type inPlaceFS interface {
	ReadFileInPlace(name string) ([]byte, bool)
}

// readInPlace reads a module file for reading only: from where the linker
// put it when fsys can say, else a fresh copy.
func readInPlace(fsys fs.FS, name string) ([]byte, error) {
	if f, ok := fsys.(inPlaceFS); ok {
		if b, ok := f.ReadFileInPlace(name); ok {
			return b, nil
		}
	}
	return fs.ReadFile(fsys, name)
}

// Catalog is the set of modules this process can run.
type Catalog struct {
	mu      sync.Mutex
	entries map[string]*entry
	dir     string
}

type entry struct {
	fsys       fs.FS
	file       string
	id         Identity
	identified bool
	loaded     *Module
	err        error
}

// IdentitySuffix names the file beside an embedded NAME.wasm that stamps
// its identity (digest, size, ABI version, metering), written by the build
// (wasm/cmd/reawasm) with the module. The catalog takes an embedded
// module's identity from it without reading the module: a run that never
// compiles a module (the normaliser of a CommonJS application, whose digest
// is in the jsapp result's cache key) then never reads or hashes its
// megabytes. The stamp is checked against the bytes whenever they are read
// (Module.Read). Modules from a module directory are always read and
// hashed: they are files that may change.
const IdentitySuffix = ".identity.json"

// StampedIdentity is the content of an identity stamp.
type StampedIdentity struct {
	SHA256     string `json:"sha256"`
	Size       int64  `json:"size"`
	ABIVersion int    `json:"abi_version"`
	Metered    bool   `json:"metered"`
}

// IdentifyBytes computes the identity stamp of a module's bytes.
func IdentifyBytes(wasm []byte) (StampedIdentity, error) {
	secs, err := customSections(wasm)
	if err != nil {
		return StampedIdentity{}, err
	}
	metered, err := fuel.Metered(wasm)
	if err != nil {
		return StampedIdentity{}, err
	}
	return StampedIdentity{SHA256: digest(wasm), Size: int64(len(wasm)), ABIVersion: abiVersion(secs), Metered: metered}, nil
}

// Load builds the catalog from the embedded modules and, when dir is not
// empty, the NAME.wasm files in dir, which replace embedded modules of the
// same name. A dir that does not exist is an error: the user asked for it.
func Load(embedded fs.FS, dir string) (*Catalog, error) {
	c := &Catalog{entries: map[string]*entry{}, dir: dir}
	if embedded != nil {
		if err := c.addFS(embedded, SourceEmbedded, ""); err != nil {
			return nil, fmt.Errorf("embedded modules: %w", err)
		}
	}
	if dir != "" {
		info, err := os.Stat(dir)
		if err != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "module directory %q: %v; pass an existing directory to --module-dir (or REA_MODULE_DIR)", dir, err).WithDetail("flag", "--module-dir")
		}
		if !info.IsDir() {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "module directory %q is not a directory", dir).WithDetail("flag", "--module-dir")
		}
		abs, _ := filepath.Abs(dir)
		if err := c.addFS(os.DirFS(dir), SourceDir, abs); err != nil {
			return nil, fmt.Errorf("module directory %s: %w", dir, err)
		}
	}
	return c, nil
}

func (c *Catalog) addFS(fsys fs.FS, src Source, dir string) error {
	names, err := fs.Glob(fsys, "*.wasm")
	if err != nil {
		return err
	}
	for _, file := range names {
		info, err := fs.Stat(fsys, file)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(file, ".wasm")
		e := &entry{fsys: fsys, file: file}
		e.id = Identity{Name: name, Size: info.Size(), Source: src}
		if dir != "" {
			e.id.Path = filepath.Join(dir, file)
		}
		if src == SourceEmbedded {
			e.readStamp(info.Size())
		}
		// Otherwise bytes, metering, ABI stamp and digest are read on
		// first use: loading every module would cost `rea mcp` tens of
		// milliseconds before it can answer tools/list.
		c.entries[name] = e
	}
	return nil
}

// readStamp takes an embedded module's identity from its stamp; a missing
// stamp, or one for a file of another size, leaves it to be read.
func (e *entry) readStamp(size int64) {
	b, err := fs.ReadFile(e.fsys, e.file+IdentitySuffix)
	if err != nil {
		return
	}
	var st StampedIdentity
	if json.Unmarshal(b, &st) != nil || st.Size != size || len(st.SHA256) != 64 {
		return
	}
	e.id.SHA256, e.id.ABIVersion, e.id.Metered = st.SHA256, st.ABIVersion, st.Metered
	e.identified = true
}

// ensureIdentified reads the module file for its identity when no stamp
// gave it; callers hold the catalog lock. The bytes are not kept.
func (e *entry) ensureIdentified() {
	if e.identified || e.err != nil {
		return
	}
	raw, err := readInPlace(e.fsys, e.file)
	if err != nil {
		e.err = err
		return
	}
	st, err := IdentifyBytes(raw)
	if err != nil {
		e.err = fmt.Errorf("%s: %w", e.file, err)
		return
	}
	e.id.Size, e.id.SHA256, e.id.ABIVersion, e.id.Metered = st.Size, st.SHA256, st.ABIVersion, st.Metered
	e.identified = true
}

// List returns the identity of every module, sorted by name. Digests of
// modules that would be metered at load are of their file bytes.
func (c *Catalog) List() []Identity {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Identity, 0, len(c.entries))
	for _, e := range c.entries {
		e.ensureIdentified()
		id := e.id
		if e.loaded != nil {
			id = e.loaded.Identity
		}
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the sorted module names.
func (c *Catalog) Names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.entries))
	for name := range c.entries {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get returns the named module, metering it first if its file carries no
// fuel counter. A missing module is module_unavailable with the list of
// modules that exist and how to build the rest.
func (c *Catalog) Get(name string) (*Module, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[name]
	if !ok {
		return nil, c.unavailable(name)
	}
	e.ensureIdentified()
	if e.loaded != nil || e.err != nil {
		return e.loaded, e.wrapErr(name)
	}
	if e.id.ABIVersion != 0 && e.id.ABIVersion != abi.Version {
		e.err = fmt.Errorf("built for ABI %d but this rea speaks ABI %d; rebuild it with `make modules`", e.id.ABIVersion, abi.Version)
		return nil, e.wrapErr(name)
	}
	id := e.id
	m := &Module{Identity: id, entry: e}
	if !id.Metered {
		raw, err := fs.ReadFile(e.fsys, e.file)
		if err == nil && digest(raw) != id.SHA256 {
			err = errors.New("its file changed while rea read it")
		}
		if err != nil {
			e.err = err
			return nil, e.wrapErr(name)
		}
		metered, err := fuel.Instrument(raw)
		if err != nil {
			e.err = fmt.Errorf("cannot meter it: %w", err)
			return nil, e.wrapErr(name)
		}
		m.metered = metered
		m.Metered, m.MeteredAtLoad = true, true
		m.SHA256 = digest(metered)
		m.Size = int64(len(metered))
	}
	e.loaded = m
	return e.loaded, nil
}

// Stamp identifies the named module's bytes for a cache key without
// reading an embedded module: an embedded module is part of the rea binary,
// so the binary's build ID (which the caller includes) commits to it; a
// module from the module directory is read and stamped with its digest.
func (c *Catalog) Stamp(name string) (string, error) {
	c.mu.Lock()
	e, ok := c.entries[name]
	embeddedOnly := ok && e.id.Source == SourceEmbedded
	c.mu.Unlock()
	if !ok {
		return "", c.unavailable(name)
	}
	if embeddedOnly {
		return "embedded:" + name, nil
	}
	m, err := c.Get(name)
	if err != nil {
		return "", err
	}
	return "sha256:" + m.SHA256, nil
}

// BuildInfo returns the Go build information of the named module (read
// from its file, whatever its ABI).
func (c *Catalog) BuildInfo(name string) (*debug.BuildInfo, error) {
	c.mu.Lock()
	e, ok := c.entries[name]
	c.mu.Unlock()
	if !ok {
		return nil, c.unavailable(name)
	}
	raw, err := readInPlace(e.fsys, e.file)
	if err != nil {
		return nil, e.wrap(name, err)
	}
	return BuildInfo(raw)
}

func (e *entry) wrapErr(name string) error {
	if e.err == nil {
		return nil
	}
	return e.wrap(name, e.err)
}

func (e *entry) wrap(name string, err error) error {
	return abi.Errorf(abi.CodeModuleUnavailable, "module %q (%s) cannot run: %v", name, e.id.Source, err).
		WithDetail("module", name)
}

func (c *Catalog) unavailable(name string) error {
	names := make([]string, 0, len(c.entries))
	for n := range c.entries {
		names = append(names, n)
	}
	sort.Strings(names)
	msg := fmt.Sprintf("module %q is not available", name)
	if len(names) == 0 {
		msg += "; this rea binary was built without modules: run `make` (or `make modules` and pass --module-dir build/modules)"
	} else {
		msg += fmt.Sprintf("; available: %s. Build missing modules with `make modules`", strings.Join(names, ", "))
	}
	return abi.Errorf(abi.CodeModuleUnavailable, "%s", msg).
		WithDetail("module", name).WithDetail("available", names)
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
