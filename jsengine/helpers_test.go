package jsengine

import (
	"strings"

	"github.com/dop251/goja/file"
)

func indexOf(s, sub string) int { return strings.Index(s, sub) }

func idxAt(off int) file.Idx { return idxOf(off) }
