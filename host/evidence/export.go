package evidence

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"rea/abi"
	"rea/host/regularfile"
)

// ExportResult describes a published bundle file.
type ExportResult struct {
	Path     string `json:"path"`
	Bytes    int64  `json:"bytes"`
	SHA256   string `json:"sha256"`
	Records  int    `json:"records"`
	Unknowns int    `json:"unknowns"`
}

// BundleSource is what Export publishes: a Bundle, or a *Ledger (its
// snapshot at the start of the export).
type BundleSource interface{ bundle() Bundle }

func (b Bundle) bundle() Bundle { return b }

func (l *Ledger) bundle() Bundle { return l.Snapshot() }

// Export streams the bundle's canonical JSON into a staging file next to
// path, fsyncs it and publishes it atomically, so the destination is either
// untouched or the complete bundle. An existing destination is replaced only
// with overwrite; without it the export fails with invalid_request. A
// cancelled ctx (checked on every write) stops serialisation, removes the
// staging file and returns cancelled.
func Export(ctx context.Context, src BundleSource, path string, overwrite bool) (ExportResult, error) {
	if path == "" {
		return ExportResult{}, invalid(fieldPath{"path"}, ReasonMissing, "a destination file path", "no destination path was given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ExportResult{}, invalid(fieldPath{"path"}, ReasonInvalidFormat, "a file path", "%v", err)
	}
	dir := filepath.Dir(abs)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ExportResult{}, invalid(fieldPath{"path"}, ReasonInvalidValue, "a path in an existing directory",
			"the directory %s does not exist; create it first or choose another path", dir)
	}
	if st, err := os.Lstat(abs); err == nil {
		if st.IsDir() {
			return ExportResult{}, invalid(fieldPath{"path"}, ReasonInvalidValue, "a file path", "%s is a directory; name a file inside it", abs)
		}
		if !overwrite {
			return ExportResult{}, invalid(fieldPath{"overwrite"}, ReasonInvalidValue, "true to replace the file",
				"%s already exists; pass overwrite: true to replace it, or choose another path", abs)
		}
	}
	staging, err := os.CreateTemp(dir, "."+filepath.Base(abs)+".staging-*")
	if err != nil {
		return ExportResult{}, abi.Errorf(abi.CodeUnavailable, "Cannot create a staging file in %s: %v. Choose a writable directory.", dir, err)
	}
	published := false
	defer func() {
		if !published {
			staging.Close()
			os.Remove(staging.Name())
		}
	}()
	b := src.bundle()
	h := sha256.New()
	bw := bufio.NewWriterSize(&ctxWriter{ctx: ctx, w: io.MultiWriter(staging, h)}, 64<<10)
	n, err := b.WriteTo(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ExportResult{}, cancelled("Exporting the Evidence bundle")
		}
		return ExportResult{}, abi.Errorf(abi.CodeUnavailable, "Writing the Evidence bundle to %s failed: %v. Check free space and permissions, then export again.", dir, err)
	}
	if err := staging.Sync(); err != nil {
		return ExportResult{}, abi.Errorf(abi.CodeUnavailable, "Flushing the Evidence bundle to disk failed: %v.", err)
	}
	if err := staging.Close(); err != nil {
		return ExportResult{}, abi.Errorf(abi.CodeUnavailable, "Closing the Evidence bundle staging file failed: %v.", err)
	}
	// The cancel decision and the publish are one step: once commit says
	// go, the destination is replaced whatever arrives later, and the
	// caller reports the export as done; if it says cancelled, nothing is.
	if !commit(ctx) {
		return ExportResult{}, cancelled("Exporting the Evidence bundle")
	}
	if err := publish(staging.Name(), abs, overwrite); err != nil {
		return ExportResult{}, err
	}
	published = true
	syncDir(dir)
	return ExportResult{Path: abs, Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil)), Records: len(b.Records), Unknowns: len(b.Unknowns)}, nil
}

type commitKey struct{}

// WithCommit returns ctx carrying the commit point of an operation that
// publishes: commit reports whether to publish (false: the operation was
// cancelled) and, once it said true, the caller must treat the operation
// as done even if ctx is cancelled afterwards. Without one, commit is
// ctx.Err() == nil.
func WithCommit(ctx context.Context, commit func() bool) context.Context {
	return context.WithValue(ctx, commitKey{}, commit)
}

func commit(ctx context.Context) bool {
	if f, ok := ctx.Value(commitKey{}).(func() bool); ok {
		return f()
	}
	return ctx.Err() == nil
}

// publish moves the staging file to dest. Without overwrite it links instead
// of renaming, which fails if dest appeared meanwhile rather than replacing
// it.
func publish(staging, dest string, overwrite bool) error {
	if overwrite {
		if err := os.Rename(staging, dest); err != nil {
			return abi.Errorf(abi.CodeUnavailable, "Publishing the Evidence bundle to %s failed: %v.", dest, err)
		}
		return nil
	}
	exists := func() error {
		return invalid(fieldPath{"overwrite"}, ReasonInvalidValue, "true to replace the file",
			"%s already exists; pass overwrite: true to replace it, or choose another path", dest)
	}
	if err := os.Link(staging, dest); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return exists()
		}
		// Filesystems without hard links: check, then rename (a narrow race
		// with a concurrent writer of the same path remains).
		if _, statErr := os.Lstat(dest); statErr == nil {
			return exists()
		}
		if err := os.Rename(staging, dest); err != nil {
			return abi.Errorf(abi.CodeUnavailable, "Publishing the Evidence bundle to %s failed: %v.", dest, err)
		}
		return nil
	}
	os.Remove(staging) // dest holds the bytes now; a leftover name is harmless
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: not every filesystem syncs directories
		d.Close()
	}
}

// ctxWriter fails writes once ctx is done, so cancellation stops a long
// serialisation at the next buffered chunk.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// ReadBundleFile reads and parses a bundle file within the CLI import
// budget: at most limits.MaxBytes of file and limits.MaxRecords records (zero
// fields take DefaultLimits). A larger file is refused with truncated before
// it is parsed.
func ReadBundleFile(ctx context.Context, path string, limits Limits, v UnknownValidator) (Bundle, error) {
	def := DefaultLimits()
	if limits.MaxBytes <= 0 {
		limits.MaxBytes = def.MaxBytes
	}
	if limits.MaxRecords <= 0 {
		limits.MaxRecords = def.MaxRecords
	}
	f, err := regularfile.Open(path)
	if errors.Is(err, regularfile.ErrNotRegular) {
		return Bundle{}, invalid(fieldPath{"path"}, ReasonInvalidValue, "a regular file", "%s is not a regular file", path)
	}
	if err != nil {
		return Bundle{}, invalid(fieldPath{"path"}, ReasonInvalidValue, "a readable bundle file", "cannot open %s: %v", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return Bundle{}, invalid(fieldPath{"path"}, ReasonInvalidValue, "a regular file", "%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limits.MaxBytes+1))
	if err != nil {
		return Bundle{}, abi.Errorf(abi.CodeUnavailable, "Reading %s failed: %v.", path, err)
	}
	if int64(len(data)) > limits.MaxBytes {
		return Bundle{}, abi.Errorf(abi.CodeTruncated,
			"The bundle file %s is larger than the import budget of %d bytes; split the investigation into smaller exports.", path, limits.MaxBytes).
			WithDetail("limit", "bytes").WithDetail("maximum", limits.MaxBytes)
	}
	b, err := ParseBundle(ctx, data, v)
	if err != nil {
		return Bundle{}, fmt.Errorf("bundle %s: %w", path, err)
	}
	if len(b.Records) > limits.MaxRecords {
		return Bundle{}, abi.Errorf(abi.CodeTruncated,
			"The bundle file %s holds %d records, more than the import budget of %d; split the investigation into smaller exports.", path, len(b.Records), limits.MaxRecords).
			WithDetail("limit", "records").WithDetail("maximum", limits.MaxRecords)
	}
	return b, nil
}
