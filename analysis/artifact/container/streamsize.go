package container

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"rea/analysis/artifact/inventory"
)

// decodedSize asks the host for the decoded size of the stream r points
// into, without its bytes (inventory.StreamSizeName): the host decodes
// and sums it but keeps no copy, and hashes a member that is the whole
// stream from that sum. ok is false when the host staged nothing
// (native callers decode the stream here). The size is held to the
// stream budget as a staged copy's is.
func (s *scope) decodedSize(r inventory.Range, fileSize int64) (n int64, ok bool, err error) {
	if s.b.streams == nil {
		return 0, false, nil
	}
	r = s.outer(r, fileSize)
	off, length := r.StreamOffset, r.StreamLength
	what := strings.TrimSuffix(r.Compression, "-stream")
	f, err := s.b.streams.Open(inventory.StreamSizeName(r))
	if err != nil {
		return 0, true, malformedf("the %s stream at bytes %d–%d is corrupt or truncated (the host could not decode it: %v)", what, off, off+length, err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, 24))
	if err == nil {
		n, err = strconv.ParseInt(string(text), 10, 64)
	}
	if err != nil || n < 0 {
		return 0, true, malformedf("the host answered the decoded size of the %s stream at bytes %d–%d with %q", what, off, off+length, text)
	}
	if length == 0 { // the whole file is the stream
		length = fileSize
	}
	return n, true, s.checkDecodedSize(what, length, n)
}

// checkDecodedSize refuses a stream of n compressed bytes that decoded
// to size bytes, past the stream budget (a staged copy stops one byte
// past it): the limit that cut it.
func (s *scope) checkDecodedSize(what string, n, size int64) error {
	budget, limit := inventory.StreamBudget(s.b.lim, n)
	if size <= budget {
		return nil
	}
	if limit == "max_total_bytes" {
		return limitError(limit, s.b.lim.MaxTotalBytes, size,
			fmt.Sprintf("the %s stream of %d bytes decodes past %d bytes, more than the entries max_total_bytes allows plus their headers", what, n, budget))
	}
	ratio := int64(s.b.lim.MaxCompressionRatio)
	return limitError(limit, ratio, size/max(n, 1), fmt.Sprintf("the %s stream of %d bytes expands past %d bytes", what, n, budget))
}
