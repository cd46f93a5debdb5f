// Package devtools speaks the Chrome DevTools Protocol to endpoints on this
// machine's loopback interface: Chromium and Electron pages
// (--remote-debugging-port) and Node.js inspectors (--inspect). It lists
// targets, attaches to one over its WebSocket, and observes it within hard
// bounds of time, events and bytes. It never navigates, never evaluates page
// code and never invokes what a page registers; the one exception, reading the
// names of a page's own global properties, is a protocol call
// (Runtime.getProperties), not a script.
//
// What an endpoint returns is untrusted: every URL it names is checked to be
// loopback before it is dialled, and every answer is size-bounded.
package devtools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"rea/abi"
)

// Endpoint is a validated loopback DevTools HTTP endpoint.
type Endpoint struct {
	// Host is "127.0.0.1:9222" (or "[::1]:9222").
	Host string
}

// String is the endpoint as http://host.
func (e Endpoint) String() string { return "http://" + e.Host }

// ParseEndpoint accepts "http://127.0.0.1:9222", "127.0.0.1:9222",
// "ws://127.0.0.1:9222/devtools/browser/…", "localhost:9229" or
// "[::1]:9229". Anything not on the loopback interface is invalid_request:
// rea observes only what runs on this machine.
func ParseEndpoint(field, raw string) (Endpoint, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return Endpoint{}, abi.Errorf(abi.CodeInvalidRequest, "%s: give the DevTools endpoint, e.g. http://127.0.0.1:9222 (start Chromium with --remote-debugging-port=9222, Node with --inspect=127.0.0.1:9229)", field).WithDetail("field", field)
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return Endpoint{}, abi.Errorf(abi.CodeInvalidRequest, "%s: %q is not a URL: %v", field, raw, err).WithDetail("field", field)
	}
	switch u.Scheme {
	case "http", "ws":
	default:
		return Endpoint{}, abi.Errorf(abi.CodeInvalidRequest, "%s: scheme %q; DevTools endpoints are http:// or ws:// on loopback", field, u.Scheme).WithDetail("field", field)
	}
	if u.User != nil {
		return Endpoint{}, abi.Errorf(abi.CodeInvalidRequest, "%s: an endpoint carries no credentials", field).WithDetail("field", field)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		return Endpoint{}, abi.Errorf(abi.CodeInvalidRequest, "%s: %q names no port; give the debugging port, e.g. 127.0.0.1:9222", field, raw).WithDetail("field", field)
	}
	if !IsLoopbackHost(host) {
		return Endpoint{}, abi.Errorf(abi.CodeInvalidRequest, "%s: %q is not a loopback address; rea attaches only to endpoints on this machine (127.0.0.0/8, ::1, localhost)", field, host).
			WithDetail("field", field).WithDetail("reason", "non_loopback_endpoint")
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	return Endpoint{Host: net.JoinHostPort(host, port)}, nil
}

// IsLoopbackHost is true for 127.0.0.0/8, ::1 and "localhost". Names other
// than localhost are refused rather than resolved: a resolver could answer
// with anything.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Target is one debuggable target an endpoint lists.
type Target struct {
	ID          string `json:"id"`
	Type        string `json:"type"` // page, iframe, worker, service_worker, node, browser, …
	Title       string `json:"title"`
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
	// WebSocketURL is the target's debugger socket (loopback, checked).
	WebSocketURL string `json:"-"`
	Attached     bool   `json:"attached,omitempty"`
}

// MaxListBytes bounds an endpoint's /json/list answer.
const MaxListBytes = 8 << 20

// ListTargets asks the endpoint for its targets (GET /json/list), sorted by
// id. A target whose WebSocket is not on the same loopback host and port is
// dropped and counted: an endpoint cannot send rea elsewhere.
func ListTargets(ctx context.Context, ep Endpoint, timeout time.Duration) (targets []Target, refused int, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ep.String()+"/json/list", nil)
	if err != nil {
		return nil, 0, abi.Errorf(abi.CodeInvalidRequest, "cdp_endpoint: %v", err).WithDetail("field", "cdp_endpoint")
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil && context.Cause(ctx) != context.Canceled {
			return nil, 0, abi.Errorf(abi.CodeResourceConstraint, "the DevTools endpoint %s did not answer within %s", ep, timeout).WithDetail("resource", "deadline")
		}
		return nil, 0, abi.Errorf(abi.CodeCapabilityUnavailable, "no DevTools endpoint answers at %s: %v — start the browser with --remote-debugging-port or Node with --inspect", ep, err).
			WithDetail("field", "cdp_endpoint").WithDetail("reason", "endpoint_unreachable")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, 0, abi.Errorf(abi.CodeCapabilityUnavailable, "%s/json/list answered HTTP %d; is this a DevTools endpoint?", ep, resp.StatusCode).WithDetail("field", "cdp_endpoint")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxListBytes+1))
	if err != nil {
		return nil, 0, abi.Errorf(abi.CodeCapabilityUnavailable, "reading %s/json/list: %v", ep, err).WithDetail("field", "cdp_endpoint")
	}
	if len(body) > MaxListBytes {
		return nil, 0, abi.Errorf(abi.CodeResourceConstraint, "%s/json/list is over %d bytes", ep, MaxListBytes).WithDetail("resource", "output")
	}
	var raw []struct {
		ID                   string `json:"id"`
		Type                 string `json:"type"`
		Title                string `json:"title"`
		URL                  string `json:"url"`
		Description          string `json:"description"`
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
		Attached             bool   `json:"attached"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, 0, abi.Errorf(abi.CodeCapabilityUnavailable, "%s/json/list is not a DevTools target list: %v", ep, err).WithDetail("field", "cdp_endpoint")
	}
	for _, t := range raw {
		ws, err := url.Parse(t.WebSocketDebuggerURL)
		if t.WebSocketDebuggerURL != "" && (err != nil || ws.Scheme != "ws" || ws.Host != ep.Host && !(strings.HasPrefix(ws.Host, "localhost:") && strings.TrimPrefix(ws.Host, "localhost:") == portOf(ep.Host))) {
			refused++
			continue
		}
		wsURL := ""
		if t.WebSocketDebuggerURL != "" {
			ws.Host = ep.Host
			wsURL = ws.String()
		}
		targets = append(targets, Target{ID: t.ID, Type: t.Type, Title: t.Title, URL: t.URL, Description: t.Description, WebSocketURL: wsURL, Attached: t.Attached})
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].ID < targets[j].ID })
	return targets, refused, nil
}

func portOf(hostport string) string {
	_, p, _ := net.SplitHostPort(hostport)
	return p
}

// FindTarget returns the target with the id, or a typed error listing what
// the endpoint has.
func FindTarget(targets []Target, id string) (Target, error) {
	var ids []string
	for _, t := range targets {
		if t.ID == id {
			if t.WebSocketURL == "" {
				return Target{}, abi.Errorf(abi.CodeCapabilityUnavailable, "target %s has no debugger socket (another client may be attached)", id).WithDetail("field", "target_id")
			}
			return t, nil
		}
		ids = append(ids, t.ID)
	}
	if len(ids) > 10 {
		ids = append(ids[:10], fmt.Sprintf("… %d more", len(ids)-10))
	}
	return Target{}, abi.Errorf(abi.CodeInvalidRequest, "target_id %q is not a target of this endpoint (it has %s); list them first", id, strings.Join(ids, ", ")).
		WithDetail("field", "target_id").WithDetail("reason", "target_not_found")
}

// RedactURL removes credentials, query and fragment from a URL for
// Evidence: they often carry tokens.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			return raw[:i]
		}
		return raw
	}
	u.User = nil
	if u.RawQuery != "" {
		u.RawQuery = "redacted"
	}
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}
