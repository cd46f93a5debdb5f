package app

import (
	"context"
	"io"
	"os"

	"rea/abi"
	"rea/analysis/artifact/stream"
)

// hashBlocks hashes an entry stored as separately compressed blocks (a
// squashfs file): each block is decoded on its own, bounded by what the
// inventory declared for it.
func (s *artifactScan) hashBlocks(ctx context.Context, fh *os.File, size int64, i int, cache *stream.BlockCache) error {
	e := s.res.Entries[i]
	if err := stream.CheckBlocks(e.Data.Blocks, size, e.Size); err != nil {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "%q: %v; the file changed after it was inventoried or the inventory is wrong", e.Path, err).
			WithDetail("logical_path", e.Path)
	}
	br := stream.OpenBlocks(fh, *e.Data, cache)
	job := &digestJob{offset: 0, length: e.Size}
	// The job's own hash is the file's; no second whole-stream hash. The
	// reader cannot yield more than e.Size: CheckBlocks made the blocks add
	// up to it and each block is cut to its declared size (a block that
	// decodes short is an error). Each decoded block is hashed where it
	// was decoded, not copied into a buffer of the file's size.
	var n int64
	for {
		if ctx.Err() != nil {
			return abi.Errorf(abi.CodeCancelled, "hashing was cancelled")
		}
		p, err := br.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return abi.Errorf(abi.CodeArtifactIntegrity, "%q cannot be decoded: %v; the image is corrupt or was tampered with", e.Path, err).
				WithDetail("logical_path", e.Path)
		}
		if n += int64(len(p)); n > e.Size {
			break
		}
		job.write(p)
	}
	job.finish()
	if n != e.Size {
		return abi.Errorf(abi.CodeArtifactIntegrity, "%q decodes to %d bytes, but the image declares %d; the image is corrupt or was tampered with", e.Path, n, e.Size).
			WithDetail("logical_path", e.Path)
	}
	s.observe(i, job)
	return nil
}
