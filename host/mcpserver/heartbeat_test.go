package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/abi"
)

// recorder is a progress whose notifications are kept, with a clock the
// test moves by setting lastSent.
func recorder() (*progress, *[]*mcp.ProgressNotificationParams) {
	var sent []*mcp.ProgressNotificationParams
	p := &progress{ctx: context.Background(), token: "t", start: time.Now()}
	p.notify = func(n *mcp.ProgressNotificationParams) { sent = append(sent, n) }
	return p, &sent
}

func TestHeartbeatFillsSilenceAndKeepsProgressStrictlyIncreasing(t *testing.T) {
	p, sent := recorder()
	p.module(abi.Progress{Phase: "sweep", Done: 1, Total: 4})
	if len(*sent) != 1 || (*sent)[0].Total != 4 || (*sent)[0].Progress != 1 {
		t.Fatalf("first observation: %+v", (*sent)[0])
	}
	// Silence shorter than the interval: no heartbeat.
	p.beat()
	if len(*sent) != 1 {
		t.Fatalf("heartbeat before the interval passed: %d notifications", len(*sent))
	}
	// Silence longer than the interval: one heartbeat naming the phase,
	// progress one more, total keeping the phase's fraction (1 of 4).
	p.lastSent = time.Now().Add(-heartbeatInterval - time.Millisecond)
	p.beat()
	if len(*sent) != 2 {
		t.Fatalf("no heartbeat after %s of silence", heartbeatInterval)
	}
	hb := (*sent)[1]
	if hb.Progress != 2 || hb.Total != 8 || !strings.Contains(hb.Message, "still in sweep 1/4") {
		t.Errorf("heartbeat: %+v", hb)
	}
	// An observation held back by the rate bound is flushed by the next
	// tick rather than waiting for the next observation.
	p.module(abi.Progress{Phase: "sweep", Done: 3, Total: 4})
	if len(*sent) != 2 || p.pending == "" {
		t.Fatalf("a second observation within 100 ms was not held back")
	}
	p.lastSent = time.Now().Add(-progressInterval - time.Millisecond)
	p.beat()
	if len(*sent) != 3 || !strings.HasPrefix((*sent)[2].Message, "sweep 3/4") || (*sent)[2].Progress != 3 {
		t.Fatalf("held-back observation not flushed: %+v", (*sent)[len(*sent)-1])
	}
	if got := (*sent)[2].Total; got != 4 {
		t.Errorf("total %v: progress/total must be the phase's 3/4", got)
	}
	// A phase that does not count its work has no total.
	p.module(abi.Progress{Phase: "index"})
	p.lastSent = time.Now().Add(-progressInterval - time.Millisecond)
	p.beat()
	if last := (*sent)[len(*sent)-1]; last.Total != 0 {
		t.Errorf("a phase without a count got total %v", last.Total)
	}
	p.finish("completed")
	last := (*sent)[len(*sent)-1]
	if last.Total != last.Progress || !strings.HasPrefix(last.Message, "completed") {
		t.Errorf("terminal update: %+v", last)
	}
	for i := 1; i < len(*sent); i++ {
		if (*sent)[i].Progress <= (*sent)[i-1].Progress {
			t.Fatalf("progress not strictly increasing at %d: %v then %v", i, (*sent)[i-1].Progress, (*sent)[i].Progress)
		}
		if tot := (*sent)[i].Total; tot != 0 && tot < (*sent)[i].Progress {
			t.Fatalf("total %v below progress %v", tot, (*sent)[i].Progress)
		}
	}
}

func TestNoHeartbeatWithoutAToken(t *testing.T) {
	p, sent := recorder()
	p.token = nil
	stop := p.heartbeat()
	stop()
	stop()
	p.module(abi.Progress{Phase: "x", Done: 1, Total: 2})
	if len(*sent) != 0 {
		t.Fatalf("%d notifications without a token", len(*sent))
	}
}
