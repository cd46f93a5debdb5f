package devtools

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
)

// Action is one step of a scenario, from a fixed vocabulary: navigate to
// a URL, click or type into the first element a CSS selector matches, wait
// a number of milliseconds, or wait for a selector to match. Actions are
// protocol input events (a mouse click, inserted text), never scripts.
type Action struct {
	Action    string `json:"action"` // navigate, click, type, wait, wait_for
	URL       string `json:"url,omitempty"`
	Selector  string `json:"selector,omitempty"`
	Text      string `json:"text,omitempty"`
	MS        int    `json:"ms,omitempty"`
	TimeoutMS int    `json:"timeout_ms,omitempty"`
}

// ActionResult is how one action went.
type ActionResult struct {
	Index  int    `json:"index"`
	Action string `json:"action"`
	Status string `json:"status"` // ok, failed, skipped
	Error  string `json:"error,omitempty"`
	AtMS   int64  `json:"at_ms"`
}

// Navigate loads url in the page and waits (at most timeout) for its load
// event.
func Navigate(ctx context.Context, s *Session, url string, timeout time.Duration) error {
	loaded, cancel := s.Subscribe(page.LoadEventFired.Method)
	defer cancel()
	if _, err := cdp.Call(ctx, s, page.Enable, page.EnableParams{}); err != nil {
		return err
	}
	res, err := cdp.Call(ctx, s, page.Navigate, page.NavigateParams{URL: url})
	if err != nil {
		return err
	}
	if res.ErrorText != "" {
		return fmt.Errorf("navigation failed: %s", res.ErrorText)
	}
	select {
	case <-loaded:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("the page did not finish loading within %s", timeout)
	case <-s.Closed():
		return ErrDetached
	case <-ctx.Done():
		return ctx.Err()
	}
}

// query returns the first element matching selector, or 0.
func query(ctx context.Context, s *Session, selector string) (cdp.NodeID, error) {
	doc, err := cdp.Call(ctx, s, dom.GetDocument, dom.GetDocumentParams{})
	if err != nil || doc.Root == nil {
		return 0, fmt.Errorf("the document is not readable: %v", err)
	}
	r, err := cdp.Call(ctx, s, dom.QuerySelector, dom.QuerySelectorParams{NodeID: doc.Root.NodeID, Selector: selector})
	if err != nil {
		return 0, fmt.Errorf("selector %q: %v", selector, err)
	}
	return r.NodeID, nil
}

// Click dispatches a left click at the centre of the first element the
// selector matches.
func Click(ctx context.Context, s *Session, selector string) error {
	id, err := query(ctx, s, selector)
	if err != nil {
		return err
	}
	if id == 0 {
		return fmt.Errorf("no element matches %q", selector)
	}
	_, _ = cdp.Call(ctx, s, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{NodeID: id})
	box, err := cdp.Call(ctx, s, dom.GetBoxModel, dom.GetBoxModelParams{NodeID: id})
	if err != nil || box.Model == nil || len(box.Model.Content) < 8 {
		return fmt.Errorf("element %q has no box to click: %v", selector, err)
	}
	q := box.Model.Content
	x, y := (q[0]+q[2]+q[4]+q[6])/4, (q[1]+q[3]+q[5]+q[7])/4
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		if _, err := cdp.Call(ctx, s, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, ClickCount: 1}); err != nil {
			return err
		}
	}
	return nil
}

// Type focuses the first element the selector matches and inserts text.
func Type(ctx context.Context, s *Session, selector, text string) error {
	id, err := query(ctx, s, selector)
	if err != nil {
		return err
	}
	if id == 0 {
		return fmt.Errorf("no element matches %q", selector)
	}
	if _, err := cdp.Call(ctx, s, dom.Focus, dom.FocusParams{NodeID: id}); err != nil {
		return fmt.Errorf("focus %q: %v", selector, err)
	}
	_, err = cdp.Call(ctx, s, input.InsertText, input.InsertTextParams{Text: text})
	return err
}

// WaitFor polls until the selector matches or timeout passes.
func WaitFor(ctx context.Context, s *Session, selector string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		id, err := query(ctx, s, selector)
		if err == nil && id != 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no element matched %q within %s", selector, timeout)
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-s.Closed():
			return ErrDetached
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
