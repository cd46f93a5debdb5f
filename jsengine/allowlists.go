package jsengine

import (
	"sort"
	"strconv"
	"strings"
)

// An allow-list guard in a wrapper (`if (!ALLOWED.includes(channel))
// return; ipcRenderer.send(channel)`) makes the wrapper's own call one
// inferred operation per allowed channel: what the wrapper lets through.
// When calls of the wrapper are in the analysed code, they say which
// channels are used; an allowed channel none of them names is permitted
// but never sent or listened for, so stating it as an operation would be
// a fact the code does not hold. Those channels are folded into one
// operation with a dynamic channel whose candidates they are: the site
// may still carry them (from code rea did not see), none is claimed.

type siteKey struct {
	file      string
	line, col int
}

func siteOf(l Location) siteKey { return siteKey{l.File, l.Line, l.Column} }

// narrowAllowLists folds the allowed-but-unnamed channels of each wrapper
// site that analysed calls reach.
func (e *engine) narrowAllowLists() {
	named := map[siteKey]map[string]bool{}
	for _, op := range e.ipc {
		if op.ChannelState == "dynamic" || allowListed(op) || len(op.ChannelVia) == 0 {
			continue
		}
		last := op.ChannelVia[len(op.ChannelVia)-1]
		if !strings.HasPrefix(last.Description, "passed to `") && !strings.HasPrefix(last.Description, "window.") {
			continue // not a call of a wrapper
		}
		k := siteOf(last.Location)
		if named[k] == nil {
			named[k] = map[string]bool{}
		}
		named[k][op.Channel] = true
	}
	if len(named) == 0 {
		return
	}
	type fold struct {
		op    IPCOperation
		cands []string
	}
	folds := map[string]*fold{}
	var order []string
	keep := e.ipc[:0]
	for _, op := range e.ipc {
		ns, reached := named[siteOf(op.Location)]
		if !reached || op.ChannelState == "dynamic" || !allowListed(op) || ns[op.Channel] {
			keep = append(keep, op)
			continue
		}
		k := op.Module + "\x00" + op.API + "\x00" + op.Role + "\x00" + op.Side
		f := folds[k+"\x00"+siteKeyString(op.Location)]
		if f == nil {
			d := op
			d.Channel, d.ChannelState = "", "dynamic"
			as := allowStep(op)
			d.ChannelVia = []Step{{Description: as.Description + "; no analysed call of the wrapper names these channels", Location: as.Location}}
			f = &fold{op: d}
			folds[k+"\x00"+siteKeyString(op.Location)] = f
			order = append(order, k+"\x00"+siteKeyString(op.Location))
		}
		f.cands = append(f.cands, op.Channel)
	}
	for _, k := range order {
		f := folds[k]
		sort.Strings(f.cands)
		f.op.ChannelCandidates = f.cands
		keep = append(keep, f.op)
	}
	e.ipc = keep
}

func siteKeyString(l Location) string {
	return l.File + ":" + strconv.Itoa(l.Line) + ":" + strconv.Itoa(l.Column)
}

// allowStep is the "allowed by …" step of an allow-listed operation.
func allowStep(op IPCOperation) Step {
	for _, s := range op.ChannelVia {
		if strings.HasPrefix(s.Description, "allowed by ") {
			return s
		}
	}
	return Step{Location: op.Location}
}
