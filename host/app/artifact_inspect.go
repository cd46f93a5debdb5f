package app

import (
	"context"
	"fmt"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/host/evidence"
)

// InspectArtifactRequest asks for one page of an artifact's graph.
type InspectArtifactRequest struct {
	ArtifactRequest
	// Nodes, Occurrences and Edges page the graph's three collections,
	// each on its own: {offset, limit}.
	Nodes       PageRequest `json:"nodes"`
	Occurrences PageRequest `json:"occurrences"`
	Edges       PageRequest `json:"edges"`
}

// ArtifactCounts summarises the whole graph, whatever the page.
type ArtifactCounts struct {
	Nodes          int   `json:"nodes"`
	Occurrences    int   `json:"occurrences"`
	Edges          int   `json:"edges"`
	Files          int   `json:"files"`
	Directories    int   `json:"directories"`
	Links          int   `json:"links"`
	Verified       int   `json:"verified"`
	Mismatched     int   `json:"mismatched"`
	Unavailable    int   `json:"unavailable"`
	Containers     int   `json:"containers"`
	DeclaredBytes  int64 `json:"declared_bytes"`
	Contradictions int   `json:"integrity_contradictions"`
}

// ArtifactProvenance says what produced the structure so a run can be
// reproduced: the module's digest, its sandbox limits and the fuel it used.
type ArtifactProvenance struct {
	Module        string       `json:"module"`
	ModuleSHA256  string       `json:"module_sha256"`
	ABIVersion    int          `json:"abi_version"`
	SandboxLimits LimitsReport `json:"sandbox_limits"`
	FuelUsed      uint64       `json:"fuel_used"`
}

// ArtifactInventory is the normalized result of inspect_artifact.
type ArtifactInventory struct {
	ManifestID              string                       `json:"manifest_id"`
	RootArtifactID          string                       `json:"root_artifact_id"`
	Format                  string                       `json:"format"`
	Coverage                string                       `json:"coverage"`
	IntegrityPolicy         string                       `json:"integrity_policy"`
	Counts                  ArtifactCounts               `json:"counts"`
	Nodes                   abi.Page[ArtifactNode]       `json:"nodes"`
	Occurrences             abi.Page[ArtifactOccurrence] `json:"occurrences"`
	Edges                   abi.Page[ArtifactEdge]       `json:"edges"`
	IntegrityContradictions []IntegrityContradiction     `json:"integrity_contradictions"`
	Limitations             []string                     `json:"limitations"`
	Limits                  inventory.Limits             `json:"limits"`
	MaxIntegrityMismatches  int                          `json:"max_integrity_mismatches"`
	Provenance              ArtifactProvenance           `json:"provenance"`
}

// InspectArtifactResult is the Evidence record and the inventory it holds.
type InspectArtifactResult struct {
	Evidence  evidence.Record    `json:"evidence"`
	Inventory *ArtifactInventory `json:"-"`
}

func checkPage(offset, limit *int, name string) error {
	if *offset < 0 {
		return abi.Errorf(abi.CodeInvalidRequest, "%s.offset must not be negative", name).WithDetail("field", name+".offset")
	}
	switch {
	case *limit == 0:
		*limit = DefaultPageLimit
	case *limit < 0 || *limit > MaxPageLimit:
		return abi.Errorf(abi.CodeInvalidRequest, "%s.limit must be between 1 and %d, got %d", name, MaxPageLimit, *limit).
			WithDetail("field", name+".limit")
	}
	return nil
}

// InspectArtifact inventories a container (ASAR, zip, tar, tar.gz or
// directory): the module parses its structure in the sandbox, the host
// hashes the bytes, applies the integrity policy and returns one page of
// the content-addressed graph as an Evidence record.
func (a *App) InspectArtifact(ctx context.Context, req InspectArtifactRequest, progress func(abi.Progress)) (*InspectArtifactResult, error) {
	for _, p := range []struct {
		o, l *int
		name string
	}{{&req.Nodes.Offset, &req.Nodes.Limit, "nodes"}, {&req.Occurrences.Offset, &req.Occurrences.Limit, "occurrences"}, {&req.Edges.Offset, &req.Edges.Limit, "edges"}} {
		if err := checkPage(p.o, p.l, p.name); err != nil {
			return nil, err
		}
	}
	s, err := a.scanArtifact(ctx, req.ArtifactRequest, progress)
	if err != nil {
		return nil, err
	}
	inv := s.inventory(req)
	params := req
	params.ArtifactRequest = s.req // with defaults filled: one request, one id
	params.InputPath = ""          // paths never enter identity; the subject digest does
	rec, err := s.evidenceRecord("inspect_artifact", params, inv)
	if err != nil {
		return nil, err
	}
	return &InspectArtifactResult{Evidence: rec, Inventory: inv}, nil
}

func (s *artifactScan) inventory(req InspectArtifactRequest) *ArtifactInventory {
	g := s.graph
	inv := &ArtifactInventory{
		ManifestID: g.manifestID, RootArtifactID: g.rootID, Format: s.res.Format, Coverage: "complete",
		IntegrityPolicy:         s.req.IntegrityPolicy,
		Nodes:                   abi.PageOf(g.nodes, req.Nodes.Offset, req.Nodes.Limit),
		Occurrences:             abi.PageOf(g.occurrences, req.Occurrences.Offset, req.Occurrences.Limit),
		Edges:                   abi.PageOf(g.edges, req.Edges.Offset, req.Edges.Limit),
		IntegrityContradictions: append([]IntegrityContradiction{}, g.contradictions...),
		Limitations:             append([]string{}, g.limitations...),
		Limits:                  s.res.Limits,
		MaxIntegrityMismatches:  s.req.MaxIntegrityMismatches,
		Provenance: ArtifactProvenance{Module: s.module.Name, ModuleSHA256: s.module.SHA256, ABIVersion: s.module.ABIVersion,
			SandboxLimits: ReportLimits(s.limits), FuelUsed: s.usage.FuelUsed},
	}
	if len(s.res.Limitations) > 0 {
		s.partial = true
	}
	if n := s.unexpandedContainers(); n != "" {
		inv.Limitations = append(inv.Limitations, n)
		s.partial = true
	}
	if n := s.unexpandedArchives(g); n != "" {
		// An ASAR rea listed but did not expand (past max_depth, not an
		// ASAR, a zip member) is hashed but its own entries are not: the
		// inventory is not the whole application.
		inv.Limitations = append(inv.Limitations, n)
		s.partial = true
	}
	if s.partial || len(g.contradictions) > 0 {
		inv.Coverage = "partial"
	}
	c := &inv.Counts
	c.Nodes, c.Occurrences, c.Edges, c.Containers = len(g.nodes), len(g.occurrences), len(g.edges), len(s.res.Containers)
	c.DeclaredBytes, c.Contradictions = s.res.TotalBytes, len(g.contradictions)
	for _, o := range g.occurrences {
		switch o.EntryKind {
		case inventory.KindFile:
			c.Files++
		case inventory.KindDirectory:
			c.Directories++
		case inventory.KindLink:
			c.Links++
		}
		switch o.HashStatus {
		case statusVerified:
			c.Verified++
		case statusMismatched:
			c.Mismatched++
		case statusUnavailable:
			c.Unavailable++
		}
	}
	if c.Unavailable > 0 {
		inv.Coverage = "partial"
	}
	return inv
}

// unexpandedArchives says which .asar files the inventory lists without
// expanding them (no container node of their own), or "" when none. rea
// expands an ASAR wherever it is held (stored or compressed in any
// container it reads, squashfs blocks, another ASAR), so what is left is
// a file named .asar that is not one; one past max_depth is said by the
// module itself (its limitations) and not counted again here.
func (s *artifactScan) unexpandedArchives(g *artifactGraph) string {
	containers := map[string]bool{}
	for _, n := range g.nodes {
		if n.Kind == "container" && n.Format != "" { // a container rea read, not one named so
			containers[n.ArtifactID] = true
		}
	}
	cut := map[int]bool{} // occurrences of files left at max_depth
	for i, e := range s.res.Entries {
		if s.depthCut(e) && i < len(g.occurrenceOf) && g.occurrenceOf[i] >= 0 {
			cut[g.occurrenceOf[i]] = true
		}
	}
	var paths []string
	for k, o := range g.occurrences {
		if o.EntryKind == inventory.KindFile && o.ArtifactID != nil && strings.HasSuffix(strings.ToLower(o.LogicalPath), ".asar") &&
			!containers[*o.ArtifactID] && !cut[k] {
			paths = append(paths, o.LogicalPath)
		}
	}
	if len(paths) == 0 {
		return ""
	}
	return fmt.Sprintf("%d file(s) named .asar were listed and hashed but their entries were not (first: %s): they do not hold a readable ASAR header, so their entries are not in the inventory; extract the file (extract_artifact) and look at it", len(paths), paths[0])
}

// depthCut reports whether e is a file the module left unopened because
// its container is at max_depth (the module says so itself). The depth is
// the request's, never the one the module's answer repeats: an answer
// that lowered it must not excuse archives it did not open.
func (s *artifactScan) depthCut(e inventory.Entry) bool {
	return e.Kind == inventory.KindFile && e.Nested < 0 && s.res.Containers[e.Container].Depth >= s.req.Limits.WithDefaults().MaxDepth
}

// containerMagic is how an archive rea expands by name starts (a tar's
// magic is at offset 257: the module alone decides whether a .tar is one).
var containerMagic = []struct{ suffix, magic string }{
	{".tar.gz", "\x1f\x8b"}, {".tgz", "\x1f\x8b"},
	{".zip", "PK\x03\x04"}, {".jar", "PK\x03\x04"}, {".apk", "PK\x03\x04"}, {".ipa", "PK\x03\x04"}, {".xpi", "PK\x03\x04"},
	{".crx", "PK\x03\x04"}, {".nupkg", "PK\x03\x04"}, {".vsix", "PK\x03\x04"}, {".whl", "PK\x03\x04"}, {".aar", "PK\x03\x04"},
	{".appx", "PK\x03\x04"}, {".msix", "PK\x03\x04"},
	{".7z", "7z\xbc\xaf"}, {".deb", "!<ar"}, {".rpm", "\xed\xab\xee\xdb"}, {".appimage", "\x7fELF"},
	{".squashfs", "hsqs"}, {".sqfs", "hsqs"}, {".snap", "hsqs"},
}

// unexpandedContainers says which files named and starting like an
// archive rea reads (a zip, tar.gz, 7z, .deb, .rpm, AppImage or squashfs
// image) were listed but not expanded, or "". rea expands such an
// archive wherever it is held — stored or compressed in a zip member, a
// 7-Zip folder, a tar stream, an RPM payload or an NSIS item, in a
// squashfs image's blocks, in an ASAR — to max_depth (past it the module
// says so, and those are not counted again here), so what is left is a
// file not recognised as the format it is named though it starts like it
// (an ELF named .AppImage with no squashfs image after it, a gzip named
// .tar.gz that holds no tar). Its entries are in nobody's inventory, so
// it is partial.
func (s *artifactScan) unexpandedContainers() string {
	var paths []string
	for i, e := range s.res.Entries {
		// An unpacked ASAR member's bytes are a file of their own (of
		// the directory or the package beside the ASAR), judged there.
		if e.Kind != inventory.KindFile || e.Nested > 0 || e.Unpacked || i >= len(s.obs) || s.depthCut(e) {
			continue
		}
		lower := strings.ToLower(e.Path)
		for _, m := range containerMagic {
			if o := s.obs[i]; strings.HasSuffix(lower, m.suffix) && strings.HasPrefix(string(o.head[:o.headN]), m.magic) {
				paths = append(paths, e.Path)
				break
			}
		}
	}
	if len(paths) == 0 {
		return ""
	}
	return fmt.Sprintf("%d archive(s) were listed and hashed but their entries were not (first: %s): not recognised as the format they are named, though they start like it, so their entries are not in the inventory; extract the archive (extract_artifact) and inspect it itself", len(paths), paths[0])
}
