package mcpserver

import (
	"context"
	"maps"

	"rea/host/app"
)

// artifactInputProps are the fields inspect_artifact and extract_artifact
// share: the input, its format, limits and the integrity policy.
func artifactInputProps() map[string]Schema {
	props := map[string]Schema{
		"input_path":               str("Local ASAR, zip, tar, tar.gz file or directory to inventory."),
		"format":                   enum("Container format; auto (default) detects it.", "auto", "asar", "zip", "tar", "tar.gz", "deb", "directory"),
		"integrity_policy":         enum("fail (default) stops at the first declared-versus-observed hash mismatch; record-and-continue records it as an integrity contradiction and keeps verified siblings.", "fail", "record-and-continue"),
		"max_integrity_mismatches": integer("Contradictions recorded before failing (record-and-continue; default 10).", 1, 100),
	}
	maps.Copy(props, inventoryLimitProps())
	return props
}

// inventoryLimitProps bound what a container may declare; the artifact
// tools and analyze_javascript_application share them.
func inventoryLimitProps() map[string]Schema {
	return map[string]Schema{
		"max_entries":           integer("Entries the container may declare (default 10,000).", 1, 1_000_000),
		"max_total_bytes":       integer("Total declared bytes (default 1 GiB).", 1, 1<<50),
		"max_entry_bytes":       integer("Bytes of one entry (default 256 MiB).", 1, 1<<50),
		"max_compression_ratio": integer("Uncompressed-to-compressed ratio of an entry (default 1,000).", 1, 1_000_000),
		"max_depth":             integer("Directory and nesting depth (default 20).", 1, 1_000),
		"max_path_bytes":        integer("Bytes of one logical path (default 4,096).", 1, 65_536),
		"max_header_bytes":      integer("Bytes of an ASAR JSON header (default 64 MiB).", 1, 1<<32),
	}
}

func (s *Server) artifactTools() []*Tool {
	inspectProps := artifactInputProps()
	for _, c := range []string{"node", "occurrence", "edge"} {
		inspectProps[c+"_offset"] = integer("First "+c+" of the page (default 0).", 0, 1<<31)
		inspectProps[c+"_limit"] = integer("Page size of "+c+"s (default 100, at most 500).", 1, 500)
	}
	extractProps := artifactInputProps()
	extractProps["paths"] = array("Globs over logical paths (path.Match syntax); a directory match selects everything under it. Nested entries are named \"<container>!/<path>\".", str("Glob."), 500)
	extractProps["occurrence_ids"] = array("Occurrence IDs from inspect_artifact.", str("Occurrence ID (occ_…)."), 500)
	return []*Tool{
		{
			Name:    "inspect_artifact",
			Title:   "Inventory an archive or directory",
			Family:  "artifact",
			Modules: []string{"artifact"},
			Description: "Parse a container's structure in the sandbox (ASAR with integrity, zip, tar, tar.gz, directories with nested ASAR/zip), hash every " +
				"file natively, verify declared whole-file and 4 MiB block hashes, and return a content-addressed graph of nodes, occurrences and edges " +
				"(paged, counts first) as Evidence. Mismatches fail closed unless integrity_policy is record-and-continue.",
			Effects:  Effects{MutatesSession: true, Idempotent: true},
			Input:    object("", inspectProps, "input_path"),
			Examples: []map[string]any{{"input_path": "/tmp/app/resources/app.asar"}, {"input_path": "/tmp/app/resources/app.asar", "integrity_policy": "record-and-continue", "occurrence_limit": 500}},
			CLI:      "inspect-artifact",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.InspectArtifactRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				res, err := s.app.InspectArtifact(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return res.Evidence, nil
			},
		},
		{
			Name:    "extract_artifact",
			Title:   "Extract files from an archive",
			Family:  "artifact",
			Modules: []string{"artifact"},
			Description: "Materialise selected regular files of an artifact (by path globs or occurrence IDs) into a fresh rea-chosen temporary directory, " +
				"never overwriting and never writing outside it; the directory is reported beside the Evidence. A missing .asar.unpacked companion " +
				"fails as unavailable with its logical path.",
			Effects:  Effects{MutatesSession: true, WritesFilesystem: true},
			Input:    object("", extractProps, "input_path"),
			Examples: []map[string]any{{"input_path": "/tmp/app/resources/app.asar", "paths": []any{"package.json", "dist/**"}}},
			CLI:      "extract-artifact",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.ExtractArtifactRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				req.OutputDir = "" // rea chooses a fresh directory
				res, err := s.app.ExtractArtifact(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return &Extra{Result: res.Evidence, Note: "output_dir: " + res.OutputDir, Meta: map[string]any{"rea/output_dir": res.OutputDir}}, nil
			},
		},
	}
}
