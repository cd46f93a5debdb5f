package app

import (
	"os"
	"path"
	"sort"

	"rea/abi"
	"rea/host/sandbox"
)

// dirMounts opens each host directory as an os.Root so the guest can never
// leave it, not even through a symlink planted inside (wazero's own
// directory mount would follow it).
func (a *App) dirMounts(m map[string]string) ([]sandbox.Mount, func(), error) {
	guests := make([]string, 0, len(m))
	for g := range m {
		guests = append(guests, g)
	}
	sort.Strings(guests)
	var out []sandbox.Mount
	var roots []*os.Root
	closeAll := func() {
		for _, r := range roots {
			_ = r.Close()
		}
	}
	for _, g := range guests {
		if !path.IsAbs(g) || path.Clean(g) != g {
			closeAll()
			return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "mount point %q must be a clean absolute guest path such as /in", g).
				WithDetail("field", "mounts")
		}
		root, err := os.OpenRoot(m[g])
		if err != nil {
			closeAll()
			return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "cannot mount %q at %s: %v", m[g], g, err).
				WithDetail("field", "mounts."+g)
		}
		roots = append(roots, root)
		out = append(out, sandbox.Mount{GuestPath: g, FS: sandbox.DirFS(root)})
	}
	return out, closeAll, nil
}
