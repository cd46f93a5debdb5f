package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"rea/abi/canonical"
	"rea/analysis/artifact/inventory"
)

// ArtifactNode is one distinct content in the graph: the same bytes found
// at many paths are one node.
type ArtifactNode struct {
	// ArtifactID is "art_" + the content's SHA-256: the id commits to it.
	ArtifactID string `json:"artifact_id"`
	// Kind is container, executable, dynamic-library, native-addon,
	// javascript, source-map, package-metadata, resource or unknown.
	Kind   string `json:"kind"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// Format of a container node (asar, zip, tar, tar.gz, directory).
	Format string `json:"format,omitempty"`
}

// ArtifactOccurrence is one entry of one container: where some content
// (or a directory or link) sits.
type ArtifactOccurrence struct {
	OccurrenceID string `json:"occurrence_id"`
	// ArtifactID is null for directories, links and unobserved files.
	ArtifactID       *string `json:"artifact_id"`
	ParentArtifactID string  `json:"parent_artifact_id"`
	LogicalPath      string  `json:"logical_path"`
	// EntryKind is file, directory or link.
	EntryKind      string  `json:"entry_kind"`
	Size           int64   `json:"size"`
	DeclaredSHA256 *string `json:"declared_sha256"`
	ObservedSHA256 *string `json:"observed_sha256"`
	// HashStatus of a file: verified, mismatched or unavailable.
	HashStatus string `json:"hash_status,omitempty"`
	// FirstMismatchedBlock is the first declared integrity block that
	// differs from the observed bytes.
	FirstMismatchedBlock *int   `json:"first_mismatched_block,omitempty"`
	Executable           bool   `json:"executable"`
	Unpacked             bool   `json:"unpacked"`
	LinkTarget           string `json:"link_target,omitempty"`
	// LinkAbsolute and LinkEscapes flag link targets outside the container;
	// links are recorded, never followed.
	LinkAbsolute bool     `json:"link_absolute,omitempty"`
	LinkEscapes  bool     `json:"link_escapes,omitempty"`
	Limitations  []string `json:"limitations,omitempty"`
}

// ArtifactEdge relates two artifacts; "contains" edges carry the
// occurrence that places the child in the parent.
type ArtifactEdge struct {
	EdgeID         string `json:"edge_id"`
	Relation       string `json:"relation"`
	FromArtifactID string `json:"from_artifact_id"`
	ToArtifactID   string `json:"to_artifact_id"`
	OccurrenceID   string `json:"occurrence_id"`
}

// IntegrityContradiction records bytes that contradict the container's
// declared integrity, kept under the record-and-continue policy.
type IntegrityContradiction struct {
	ContradictionID      string   `json:"contradiction_id"`
	OccurrenceID         string   `json:"occurrence_id"`
	ParentArtifactID     string   `json:"parent_artifact_id"`
	LogicalPath          string   `json:"logical_path"`
	DeclaredSHA256       string   `json:"declared_sha256"`
	ObservedSHA256       string   `json:"observed_sha256"`
	FirstMismatchedBlock *int     `json:"first_mismatched_block,omitempty"`
	EntryKind            string   `json:"entry_kind"`
	Unpacked             bool     `json:"unpacked"`
	Trust                string   `json:"trust"`
	Provenance           string   `json:"provenance"`
	Limitations          []string `json:"limitations"`
}

// artifactGraph is the whole content-addressed graph of one scan.
type artifactGraph struct {
	rootID      string
	rootDigest  string
	manifestID  string
	nodes       []ArtifactNode
	occurrences []ArtifactOccurrence
	// occurrenceOf maps an entry index to its occurrence (-1 when the
	// entry sits in a quarantined container).
	occurrenceOf   []int
	edges          []ArtifactEdge
	contradictions []IntegrityContradiction
	limitations    []string
}

// fieldsID is prefix + sha256 of the RFC 8785 form of a flat object of
// string fields, given as key, value pairs with keys in ascending order. It
// writes the canonical bytes directly: graphs have an id per entry, and
// going through a general canonicaliser cost more than parsing them.
func fieldsID(prefix string, kv ...string) string {
	h := sha256.New()
	buf := make([]byte, 0, 256)
	buf = append(buf, '{')
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendJCSString(buf, kv[i])
		buf = append(buf, ':')
		buf = appendJCSString(buf, kv[i+1])
	}
	buf = append(buf, '}')
	h.Write(buf)
	return prefix + hex.EncodeToString(h.Sum(nil))
}

// appendJCSString writes s as RFC 8785 (ECMAScript JSON.stringify) does:
// only the quote, the backslash and control characters are escaped.
func appendJCSString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// contentID is prefix + sha256 of the RFC 8785 form of v.
func contentID(prefix string, v any) (string, error) {
	d, err := canonical.Digest(v)
	return prefix + d, err
}

func buildGraph(s *artifactScan) (*artifactGraph, error) {
	g := &artifactGraph{occurrenceOf: make([]int, len(s.res.Entries))}
	g.rootDigest = s.digest
	if s.input.isDir {
		d, err := directoryDigest(s)
		if err != nil {
			return nil, err
		}
		g.rootDigest = d
	}
	g.rootID = "art_" + g.rootDigest
	nodes := map[string]int{}
	addNode := func(n ArtifactNode) {
		if i, ok := nodes[n.ArtifactID]; ok {
			if n.Kind == "container" && g.nodes[i].Kind != "container" {
				g.nodes[i] = n
			}
			return
		}
		nodes[n.ArtifactID] = len(g.nodes)
		g.nodes = append(g.nodes, n)
	}
	rootSize := s.input.size
	if s.input.isDir {
		rootSize = s.res.TotalBytes
	}
	addNode(ArtifactNode{ArtifactID: g.rootID, Kind: "container", SHA256: g.rootDigest, Size: rootSize, Format: s.res.Format})

	// Each container's artifact id; a nested container whose bytes
	// contradict their declaration is quarantined (left opaque).
	containerID := make([]string, len(s.res.Containers))
	quarantined := make([]bool, len(s.res.Containers))
	containerID[0] = g.rootID
	for ci := 1; ci < len(s.res.Containers); ci++ {
		c := s.res.Containers[ci]
		o := s.obs[c.Entry]
		containerID[ci] = "art_" + o.sha256
		if o.status != statusVerified || quarantined[c.Parent] {
			quarantined[ci] = true
			if !quarantined[c.Parent] {
				g.limitations = append(g.limitations, fmt.Sprintf(
					"Nested container %q was not expanded: its bytes contradict the integrity its parent declares.", c.File))
			}
		}
	}
	// What the module listed without reading it fully (an NSIS item
	// whose name the script computes at run time).
	g.limitations = append(g.limitations, s.res.Limitations...)
	seen := map[string]int{}
	for i, e := range s.res.Entries {
		g.occurrenceOf[i] = -1
		if quarantined[e.Container] {
			continue
		}
		parent := containerID[e.Container]
		id := fieldsID("occ_", "entry_kind", e.Kind, "logical_path", e.Path, "parent_artifact_id", parent)
		if k, ok := seen[id]; ok { // the same container content seen twice
			g.occurrenceOf[i] = k
			continue
		}
		o := s.obs[i]
		occ := ArtifactOccurrence{OccurrenceID: id, ParentArtifactID: parent, LogicalPath: e.Path, EntryKind: e.Kind,
			Size: e.Size, Executable: e.Executable, Unpacked: e.Unpacked}
		if e.Link != nil {
			occ.LinkTarget, occ.LinkAbsolute, occ.LinkEscapes = e.Link.Target, e.Link.Absolute, e.Link.Escapes
			if e.Link.Unread {
				occ.Limitations = []string{fmt.Sprintf("The target of link %q could not be read.", e.Path)}
				g.limitations = append(g.limitations, occ.Limitations[0])
			}
		}
		if e.Kind == inventory.KindFile {
			occ.HashStatus = o.status
			if e.Integrity.Known() {
				d := e.Integrity.Hash
				occ.DeclaredSHA256 = &d
			}
			if o.limitation != "" {
				occ.Limitations = []string{o.limitation}
				g.limitations = append(g.limitations, o.limitation)
			}
			if o.sha256 != "" {
				sum := o.sha256
				art := "art_" + sum
				occ.ObservedSHA256, occ.ArtifactID = &sum, &art
				n := ArtifactNode{ArtifactID: art, SHA256: sum, Size: e.Size,
					Kind: classify(e.Path, e.Executable, o.head[:o.headN], e.Nested > 0)}
				if e.Nested > 0 {
					n.Format = s.res.Containers[e.Nested].Format
				}
				addNode(n)
				g.edges = append(g.edges, ArtifactEdge{
					EdgeID:         fieldsID("edge_", "from", parent, "occurrence_id", id, "relation", "contains", "to", art),
					Relation:       "contains",
					FromArtifactID: parent, ToArtifactID: art, OccurrenceID: id,
				})
			}
			if o.badBlock >= 0 {
				b := o.badBlock
				occ.FirstMismatchedBlock = &b
			}
			if o.status == statusMismatched {
				g.contradictions = append(g.contradictions, contradiction(occ, e))
			}
		}
		seen[id] = len(g.occurrences)
		g.occurrenceOf[i] = len(g.occurrences)
		g.occurrences = append(g.occurrences, occ)
	}
	slices.SortFunc(g.nodes, func(a, b ArtifactNode) int { return strings.Compare(a.ArtifactID, b.ArtifactID) })
	slices.SortFunc(g.edges, func(a, b ArtifactEdge) int { return strings.Compare(a.EdgeID, b.EdgeID) })
	g.edges = slices.CompactFunc(g.edges, func(a, b ArtifactEdge) bool { return a.EdgeID == b.EdgeID })
	if len(g.contradictions) > 0 {
		g.limitations = append(g.limitations, fmt.Sprintf(
			"%d entries contradict their declared integrity; they were recorded under record-and-continue and the graph coverage is partial.", len(g.contradictions)))
	}
	g.manifestID = manifestID(g)
	return g, nil
}

func contradiction(occ ArtifactOccurrence, e inventory.Entry) IntegrityContradiction {
	declared := ""
	if occ.DeclaredSHA256 != nil {
		declared = *occ.DeclaredSHA256
	}
	observed := *occ.ObservedSHA256
	lim := []string{"The observed bytes differ from the hash the container declares; the declaration and the bytes cannot both describe the shipped artifact."}
	if e.Unpacked {
		lim = append(lim, "This is an .asar.unpacked companion: packaging tools commonly re-sign or strip such binaries after writing the archive header, and Electron does not check them at runtime.")
	}
	return IntegrityContradiction{
		ContradictionID: fieldsID("ic_", "declared_sha256", declared, "observed_sha256", observed, "occurrence_id", occ.OccurrenceID),
		OccurrenceID:    occ.OccurrenceID, ParentArtifactID: occ.ParentArtifactID, LogicalPath: occ.LogicalPath,
		DeclaredSHA256: declared, ObservedSHA256: observed, FirstMismatchedBlock: occ.FirstMismatchedBlock,
		EntryKind: "file", Unpacked: e.Unpacked,
		Trust: "observed-untrusted", Provenance: "container-integrity-metadata-versus-observed-bytes",
		Limitations: lim,
	}
}

// directoryDigest identifies a directory by the canonical listing of what
// it holds (paths, kinds, content hashes, link targets): a directory has no
// bytes of its own.
func directoryDigest(s *artifactScan) (string, error) {
	type item struct {
		Path   string `json:"path"`
		Kind   string `json:"kind"`
		SHA256 string `json:"sha256,omitempty"`
		Link   string `json:"link,omitempty"`
	}
	var items []item
	for i, e := range s.res.Entries {
		if e.Container != 0 {
			continue
		}
		it := item{Path: e.Path, Kind: e.Kind, SHA256: s.obs[i].sha256}
		if e.Link != nil {
			it.Link = e.Link.Target
		}
		items = append(items, it)
	}
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.Path, b.Path) })
	return contentID("", items)
}

func manifestID(g *artifactGraph) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.Encode(g.rootID)
	enc.Encode(g.nodes)
	enc.Encode(g.occurrences)
	enc.Encode(g.edges)
	enc.Encode(g.contradictions)
	sum := sha256.Sum256(buf.Bytes())
	return "agm_" + hex.EncodeToString(sum[:])
}

// classify names a node kind from the entry's name, flags and first bytes.
func classify(p string, executable bool, head []byte, container bool) string {
	if container {
		return "container"
	}
	base := path.Base(p)
	ext := strings.ToLower(path.Ext(base))
	switch {
	case ext == ".node":
		return "native-addon"
	case ext == ".so" || ext == ".dylib" || ext == ".dll" || strings.Contains(base, ".so."):
		return "dynamic-library"
	case ext == ".js" || ext == ".cjs" || ext == ".mjs" || ext == ".jsx" || ext == ".ts" || ext == ".tsx":
		return "javascript"
	case ext == ".map":
		return "source-map"
	case base == "package.json":
		return "package-metadata"
	case ext == ".asar" || ext == ".zip":
		return "container"
	case ext == ".exe" || isNativeMagic(head):
		return "executable"
	case executable:
		return "executable"
	case ext != "":
		return "resource"
	}
	return "unknown"
}

func isNativeMagic(h []byte) bool {
	if len(h) < 4 {
		return len(h) >= 2 && h[0] == 'M' && h[1] == 'Z'
	}
	switch {
	case bytes.Equal(h, []byte{0x7f, 'E', 'L', 'F'}), h[0] == 'M' && h[1] == 'Z':
		return true
	case bytes.Equal(h, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.Equal(h, []byte{0xfe, 0xed, 0xfa, 0xcf}),
		bytes.Equal(h, []byte{0xce, 0xfa, 0xed, 0xfe}), bytes.Equal(h, []byte{0xcf, 0xfa, 0xed, 0xfe}),
		bytes.Equal(h, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return true
	}
	return false
}
