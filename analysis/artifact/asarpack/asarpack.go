// Package asarpack writes ASAR archives in the layout @electron/asar
// produces: size pickle, header pickle with the JSON header, then the packed
// file bytes in header order, with SHA256 integrity for every file. rea
// reads archives, it does not ship them; this writer exists so tests and
// benchmarks can build archives of any size (multi-block files, a gibibyte)
// without committing them.
package asarpack

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// BlockSize is the integrity block size @electron/asar uses.
const BlockSize = 4 << 20

// File is one member to pack.
type File struct {
	// Path is a slash path relative to the archive root.
	Path string
	// Size and Open give the bytes; Open is called twice (hash, then write)
	// and must return the same bytes each time.
	Size int64
	Open func() io.Reader
	// Executable sets the executable flag.
	Executable bool
	// Unpacked files are recorded with integrity but their bytes are not
	// written (they belong in the .asar.unpacked companion).
	Unpacked bool
	// Link, when set, makes this member a link to Link (a path from the
	// archive root, as @electron/asar records it).
	Link string
}

// Bytes is a File over an in-memory byte slice.
func Bytes(path string, b []byte) File {
	return File{Path: path, Size: int64(len(b)), Open: func() io.Reader { return strings.NewReader(string(b)) }}
}

type node struct {
	Files      map[string]*node `json:"files,omitempty"`
	Size       *int64           `json:"size,omitempty"`
	Offset     string           `json:"offset,omitempty"`
	Unpacked   bool             `json:"unpacked,omitempty"`
	Executable bool             `json:"executable,omitempty"`
	Link       string           `json:"link,omitempty"`
	Integrity  *integrity       `json:"integrity,omitempty"`
	dir        bool
}

type integrity struct {
	Algorithm string   `json:"algorithm"`
	Hash      string   `json:"hash"`
	BlockSize int      `json:"blockSize"`
	Blocks    []string `json:"blocks"`
}

// MarshalJSON writes directories with their "files" object even when empty
// and members in sorted order, as @electron/asar does for a sorted walk.
func (n *node) MarshalJSON() ([]byte, error) {
	if n.dir {
		names := make([]string, 0, len(n.Files))
		for k := range n.Files {
			names = append(names, k)
		}
		slices.Sort(names)
		var sb strings.Builder
		sb.WriteString(`{"files":{`)
		for i, k := range names {
			if i > 0 {
				sb.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			sb.Write(kb)
			sb.WriteByte(':')
			vb, err := n.Files[k].MarshalJSON()
			if err != nil {
				return nil, err
			}
			sb.Write(vb)
		}
		sb.WriteString("}}")
		return []byte(sb.String()), nil
	}
	type plain node
	return json.Marshal((*plain)(n))
}

// Write packs files into w. Files are written in sorted path order.
func Write(w io.Writer, files []File) error {
	root := &node{dir: true, Files: map[string]*node{}}
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	var offset int64
	var packed []File
	for _, f := range sorted {
		parts := strings.Split(f.Path, "/")
		dir := root
		for _, p := range parts[:len(parts)-1] {
			child, ok := dir.Files[p]
			if !ok {
				child = &node{dir: true, Files: map[string]*node{}}
				dir.Files[p] = child
			}
			dir = child
		}
		leaf := parts[len(parts)-1]
		if f.Link != "" {
			dir.Files[leaf] = &node{Link: f.Link}
			continue
		}
		in, err := hashFile(f)
		if err != nil {
			return fmt.Errorf("hash %s: %w", f.Path, err)
		}
		size := f.Size
		n := &node{Size: &size, Executable: f.Executable, Unpacked: f.Unpacked, Integrity: in}
		if !f.Unpacked {
			n.Offset = strconv.FormatInt(offset, 10)
			offset += f.Size
			packed = append(packed, f)
		}
		dir.Files[leaf] = n
	}
	header, err := root.MarshalJSON()
	if err != nil {
		return err
	}
	pad := (4 - len(header)%4) % 4
	payload := 4 + len(header) + pad
	prefix := make([]byte, 16, 16+len(header)+pad)
	binary.LittleEndian.PutUint32(prefix[0:], 4)
	binary.LittleEndian.PutUint32(prefix[4:], uint32(payload+4))
	binary.LittleEndian.PutUint32(prefix[8:], uint32(payload))
	binary.LittleEndian.PutUint32(prefix[12:], uint32(len(header)))
	buf := append(append(prefix, header...), make([]byte, pad)...)
	if _, err := w.Write(buf); err != nil {
		return err
	}
	for _, f := range packed {
		n, err := io.Copy(w, io.LimitReader(f.Open(), f.Size))
		if err != nil {
			return fmt.Errorf("write %s: %w", f.Path, err)
		}
		if n != f.Size {
			return fmt.Errorf("write %s: got %d bytes, declared %d", f.Path, n, f.Size)
		}
	}
	return nil
}

// hashFile computes @electron/asar's integrity: the whole-file SHA-256 and
// one SHA-256 per 4 MiB block, plus one for the (possibly empty) remainder.
func hashFile(f File) (*integrity, error) {
	whole := sha256.New()
	block := sha256.New()
	var blocks []string
	var inBlock int64
	buf := make([]byte, 64<<10)
	r := io.LimitReader(f.Open(), f.Size)
	var total int64
	for {
		n, err := r.Read(buf)
		b := buf[:n]
		total += int64(n)
		whole.Write(b)
		for len(b) > 0 {
			take := min(int64(len(b)), BlockSize-inBlock)
			block.Write(b[:take])
			inBlock += take
			b = b[take:]
			if inBlock == BlockSize {
				blocks = append(blocks, hex.EncodeToString(block.Sum(nil)))
				block.Reset()
				inBlock = 0
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if total != f.Size {
		return nil, fmt.Errorf("got %d bytes, declared %d", total, f.Size)
	}
	blocks = append(blocks, hex.EncodeToString(block.Sum(nil)))
	return &integrity{Algorithm: "SHA256", Hash: hex.EncodeToString(whole.Sum(nil)), BlockSize: BlockSize, Blocks: blocks}, nil
}
