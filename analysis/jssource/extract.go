package jssource

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"rea/abi"
	"rea/analysis/jssource/sourcewire"
)

// ExtractSources writes out (as files for the host to write) the
// sourcesContent of the source maps of fsys: one map, the map a file
// declares, or every .map file. Each source goes to its original path as
// the analysis names it; a path that is absolute, a URL, leaves the
// directory (../), is empty or is claimed twice with other content is
// rejected and listed with the reason, never written.
func ExtractSources(fsys fs.FS, req sourcewire.ExtractRequest) (*sourcewire.ExtractResult, error) {
	if err := outputBounds(&req.MaxFileBytes, &req.MaxOutputBytes, &req.MaxOutputFiles); err != nil {
		return nil, err
	}
	res := &sourcewire.ExtractResult{Maps: []string{}, Sources: []sourcewire.ExtractedSource{}, Files: []sourcewire.OutputFile{}, Limitations: []string{}}
	type mapIn struct {
		name string // as listed
		file string // the file whose map it is ("" for a .map itself)
	}
	var maps []mapIn
	if req.Path != "" {
		if !fs.ValidPath(req.Path) {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "path %q must be a clean relative path inside the application", req.Path).WithDetail("field", "path")
		}
		if strings.HasSuffix(req.Path, ".map") {
			maps = append(maps, mapIn{name: req.Path})
		} else {
			maps = append(maps, mapIn{name: req.Path, file: req.Path})
		}
	} else {
		_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".map") {
				maps = append(maps, mapIn{name: p})
			}
			return nil
		})
	}
	written := map[string]string{} // output path → sha256
	total := 0
	for _, mi := range maps {
		var sm *shipped
		if mi.file != "" {
			src, err := readFile(fsys, mi.file, req.MaxFileBytes, "path")
			if err != nil {
				return nil, err
			}
			var why string
			if sm, why = loadMap(fsys, mi.file, src, req.MaxFileBytes); sm == nil {
				if why == "" {
					why = mi.file + " declares no source map and has no " + path.Base(mi.file) + ".map beside it"
				}
				return nil, abi.Errorf(abi.CodeInvalidRequest, "%s", why).WithDetail("field", "path")
			}
		} else {
			data, err := readFile(fsys, mi.name, req.MaxFileBytes, "path")
			if err != nil {
				if req.Path != "" {
					return nil, err
				}
				res.Limitations = append(res.Limitations, fmt.Sprintf("%s was not read: %v", mi.name, err))
				continue
			}
			// A map is decoded like one a file declares.
			if sm = decodeMap(mi.name, []byte(data)); sm == nil {
				res.Limitations = append(res.Limitations, mi.name+" is not a version 3 source map")
				continue
			}
		}
		mapName := sm.path
		if mapName == "" {
			mapName = mi.name + " (inline)"
		}
		res.Maps = append(res.Maps, mapName)
		for i, raw := range sm.m.Sources {
			es := sourcewire.ExtractedSource{Map: mapName, Source: raw}
			content, ok := sm.content(i)
			out := path.Clean(sm.names[i])
			switch {
			case !ok:
				es.Rejected = "the map carries no sourcesContent for it"
			case strings.Contains(sm.names[i], "://") || strings.HasPrefix(sm.names[i], "/") || len(out) >= 2 && out[1] == ':':
				es.Rejected = "absolute path or URL: it would not stay under the output directory"
			case out == ".." || strings.HasPrefix(out, "../"):
				es.Rejected = "the path leaves the output directory (../)"
			case !fs.ValidPath(out) || out == "." || strings.ContainsAny(out, "\x00\\"):
				es.Rejected = "not a clean relative path"
			}
			if es.Rejected == "" {
				f := outputFile(out, content)
				if prev, dup := written[strings.ToLower(out)]; dup {
					if prev != f.SHA256 {
						es.Rejected = "duplicate path with other content (another source already wrote it)"
					} else {
						es.File = out // the same bytes: written once
					}
				} else {
					total += len(content)
					if total > req.MaxOutputBytes {
						return nil, abi.Errorf(abi.CodeResourceConstraint, "the sources come to more than max_output_bytes=%d", req.MaxOutputBytes).
							WithDetail("resource", "output").WithDetail("field", "max_output_bytes")
					}
					if len(res.Files) >= req.MaxOutputFiles {
						return nil, abi.Errorf(abi.CodeResourceConstraint, "more than max_output_files=%d sources", req.MaxOutputFiles).
							WithDetail("resource", "output").WithDetail("field", "max_output_files")
					}
					written[strings.ToLower(out)] = f.SHA256
					res.Files = append(res.Files, f)
					es.File = out
				}
			}
			res.Sources = append(res.Sources, es)
		}
	}
	sort.Slice(res.Files, func(i, j int) bool { return res.Files[i].Path < res.Files[j].Path })
	if len(res.Maps) == 0 && req.Path == "" {
		res.Limitations = append(res.Limitations, "the application ships no .map files")
	}
	return res, nil
}

// decodeMap decodes a .map file of the root.
func decodeMap(p string, data []byte) *shipped {
	sm, err := parseShipped(p, data)
	if err != nil {
		return nil
	}
	sm.path = p
	return sm
}
