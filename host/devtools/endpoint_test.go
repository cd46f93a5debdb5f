package devtools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"rea/abi"
)

func TestParseEndpointAcceptsLoopbackOnly(t *testing.T) {
	for _, c := range []struct {
		in, host, reason string
	}{
		{"http://127.0.0.1:9222", "127.0.0.1:9222", ""},
		{"127.0.0.1:9229", "127.0.0.1:9229", ""},
		{"localhost:9229", "127.0.0.1:9229", ""},
		{"[::1]:9222", "[::1]:9222", ""},
		{"ws://127.0.0.2:9222/devtools/browser/x", "127.0.0.2:9222", ""},
		{"10.0.0.1:9222", "", "non_loopback_endpoint"},
		{"http://example.com:9222", "", "non_loopback_endpoint"},
		{"http://192.168.1.2:9222", "", "non_loopback_endpoint"},
		{"http://127.0.0.1", "", ""},
		{"https://127.0.0.1:9222", "", ""},
		{"http://u:p@127.0.0.1:9222", "", ""},
		{"", "", ""},
	} {
		ep, err := ParseEndpoint("cdp_endpoint", c.in)
		if c.host != "" {
			if err != nil || ep.Host != c.host {
				t.Errorf("%q: %v %v, want %s", c.in, ep, err, c.host)
			}
			continue
		}
		var ae *abi.Error
		if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
			t.Errorf("%q: %v, want invalid_request", c.in, err)
			continue
		}
		if c.reason != "" && ae.Details["reason"] != c.reason {
			t.Errorf("%q: reason %v, want %s", c.in, ae.Details["reason"], c.reason)
		}
	}
}

func TestRedactURLDropsCredentialsQueryAndFragment(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:p@example.com/a/b?token=1#frag": "https://example.com/a/b?redacted",
		"file:///opt/app/index.html#x":             "file:///opt/app/index.html",
		"node:internal/fs":                         "node:internal/fs",
		"":                                         "",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// An endpoint cannot send rea to a debugger socket elsewhere: such targets
// are dropped and counted.
func TestListTargetsRefusesSocketsOffTheEndpoint(t *testing.T) {
	var host string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `[{"id":"b","type":"page","url":"http://x/","webSocketDebuggerUrl":"ws://10.0.0.9:9222/devtools/page/b"},
{"id":"a","type":"page","url":"http://x/","webSocketDebuggerUrl":"ws://%s/devtools/page/a"},
{"id":"c","type":"page","url":"http://x/","webSocketDebuggerUrl":"ws://127.0.0.1:1/devtools/page/c"}]`, host)
	}))
	defer srv.Close()
	host = strings.TrimPrefix(srv.URL, "http://")
	ep, err := ParseEndpoint("e", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	targets, refused, err := ListTargets(context.Background(), ep, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if refused != 2 || len(targets) != 1 || targets[0].ID != "a" || !strings.HasPrefix(targets[0].WebSocketURL, "ws://"+host+"/") {
		t.Fatalf("targets %+v, refused %d", targets, refused)
	}
}

func TestListTargetsBoundsTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("["))
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for i := 0; i < 10; i++ {
			w.Write(chunk)
		}
	}))
	defer srv.Close()
	ep, _ := ParseEndpoint("e", srv.URL)
	_, _, err := ListTargets(context.Background(), ep, 5*time.Second)
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeResourceConstraint {
		t.Fatalf("a 10 MiB target list: %v", err)
	}
}
