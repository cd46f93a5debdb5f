//go:build linux

package capture

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// subreaper makes rea the child subreaper of everything it starts
// (PR_SET_CHILD_SUBREAPER): a process whose parent exits — a daemon's
// double fork — is re-parented to rea instead of init, so ancestry keeps
// finding it. The attribute is process-wide and stays set; rea reaps the
// adopted children it owns (reapAdopted).
var subreaper = sync.OnceValue(func() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
})

// reapAdopted collects the exit status of an adopted child that is now a
// zombie, so it does not linger in rea's process table.
func reapAdopted(pid int) {
	var ws unix.WaitStatus
	_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
}

// pseudoMagic are the statfs magic numbers of filesystems that describe
// the running system rather than store files (linux/magic.h): a snapshot
// never descends into one it was not named to.
var pseudoMagic = map[int64]string{
	0x9fa0: "proc", 0x62656572: "sysfs", 0x27e0eb: "cgroup", 0x63677270: "cgroup2", 0x1cd1: "devpts",
	0x64626720: "debugfs", 0x74726163: "tracefs", 0x73636673: "securityfs", 0xcafe4a11: "bpf",
	0x6165676c: "pstore", 0x62656570: "configfs", 0x65735543: "fusectl", 0x19800202: "mqueue",
	0x42494e4d: "binfmt_misc", 0xf97cff8c: "selinuxfs", 0xde5e81e4: "efivarfs", 0x6e736673: "nsfs",
	0x0187: "autofs", 0x67596969: "rpc_pipefs",
}

// fsClassifier names the pseudo-filesystem a directory lives on ("" for
// one that stores files), asking statfs once per device. devtmpfs reports
// tmpfs's magic, so its devices come from /proc/self/mountinfo.
type fsClassifier struct {
	byDev    map[uint64]string
	devtmpfs map[uint64]bool
}

func newFSClassifier() *fsClassifier {
	c := &fsClassifier{byDev: map[uint64]string{}, devtmpfs: map[uint64]bool{}}
	if b, err := readBounded(procRoot+"/self/mountinfo", 4<<20); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			// id parent major:minor root mountpoint options [optional…] - fstype source super
			f := strings.Fields(line)
			sep := slices.Index(f, "-")
			if len(f) < 3 || sep < 0 || sep+1 >= len(f) || f[sep+1] != "devtmpfs" {
				continue
			}
			var maj, min uint32
			if _, err := fmt.Sscanf(f[2], "%d:%d", &maj, &min); err == nil {
				c.devtmpfs[unix.Mkdev(maj, min)] = true
			}
		}
	}
	return c
}

// pseudo names the pseudo-filesystem of directory path when it is not the
// filesystem of root (a root named on /proc is walked; /proc under / is
// not).
func (c *fsClassifier) pseudo(path string, info, root fs.FileInfo) string {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if rst, ok := root.Sys().(*syscall.Stat_t); ok && rst.Dev == st.Dev {
		return ""
	}
	dev := uint64(st.Dev)
	if name, ok := c.byDev[dev]; ok {
		return name
	}
	name := ""
	var sf unix.Statfs_t
	if c.devtmpfs[dev] {
		name = "devtmpfs"
	} else if err := unix.Statfs(path, &sf); err == nil {
		name = pseudoMagic[int64(sf.Type)]
	}
	c.byDev[dev] = name
	return name
}
