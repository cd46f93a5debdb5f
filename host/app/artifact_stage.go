package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"rea/abi"
)

// extractionStage makes an extraction all-or-nothing: files are written
// into a fresh directory beside the destination (same parent, so the same
// file system) and published with one rename when every file was written
// and checked. A failure or a cancel removes the stage; the destination
// never holds part of an extraction.
type extractionStage struct {
	dir       string // where files are written
	dest      string // where they are published; "" when dir is the result
	published bool
}

// newExtractionStage checks the destination and creates the stage. An
// empty want means a fresh temporary directory, which is its own stage.
func newExtractionStage(want string) (*extractionStage, error) {
	if want == "" {
		d, err := os.MkdirTemp("", "rea-extract-")
		if err != nil {
			return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot create a temporary output directory: %v", err)
		}
		return &extractionStage{dir: d}, nil
	}
	abs, err := filepath.Abs(want)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot resolve output directory %q: %v", want, err).WithDetail("field", "output_dir")
	}
	if _, err := os.Lstat(abs); err == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "output directory %q already exists; rea never writes into an existing directory, so name a new one", want).
			WithDetail("field", "output_dir")
	}
	parent := filepath.Dir(abs)
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the parent of output directory %q must be an existing directory: %v", want, causeOf(err, "not a directory")).
			WithDetail("field", "output_dir")
	}
	d, err := os.MkdirTemp(parent, ".rea-extract-")
	if err != nil {
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot stage the extraction in %s: %v", parent, err).WithDetail("field", "output_dir")
	}
	if err := os.Chmod(d, 0o700); err != nil {
		_ = os.RemoveAll(d)
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot stage the extraction in %s: %v", parent, err)
	}
	return &extractionStage{dir: d, dest: abs}, nil
}

// publish moves the stage to its destination and returns where the files
// are. A cancel that arrived before is honoured; after the rename the
// extraction is complete whatever arrives.
func (s *extractionStage) publish(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", abi.Errorf(abi.CodeCancelled, "extraction was cancelled before it was published; nothing was written")
	}
	if s.dest == "" {
		s.published = true
		return s.dir, nil
	}
	// rename(2) fails on a non-empty directory that appeared meanwhile, so
	// nothing of anyone else's is replaced.
	if err := os.Rename(s.dir, s.dest); err != nil {
		return "", abi.Errorf(abi.CodeArtifactOperationFailed, "cannot publish the extraction at %q: %v; nothing was written", s.dest, err).
			WithDetail("field", "output_dir")
	}
	s.published = true
	return s.dest, nil
}

// discard removes an unpublished stage.
func (s *extractionStage) discard() {
	if !s.published {
		_ = os.RemoveAll(s.dir)
	}
}

// writeError names the real cause of a failed write: an existing file
// (two entries with one output path), a name too long for the output file
// system, no space, or what the system said.
func writeError(what string, t extractTarget, err error) error {
	reason := err.Error()
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrExist):
		reason = "another entry of the artifact already wrote this path, and rea never overwrites a file"
	case errors.As(err, &errno) && errno == syscall.ENAMETOOLONG:
		reason = "the name is too long for the output file system"
	case errors.As(err, &errno) && errno == syscall.ENOSPC:
		reason = "the output file system is full"
	}
	if reason != err.Error() {
		reason += " (" + err.Error() + ")"
	}
	return abi.Errorf(abi.CodeArtifactOperationFailed, "%s %q: %s; nothing was published", what, t.out, reason).
		WithDetail("logical_path", t.occ.LogicalPath)
}

func causeOf(err error, otherwise string) any {
	if err != nil {
		return err
	}
	return fmt.Errorf("%s", otherwise)
}
