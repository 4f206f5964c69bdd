package browser_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// browser is one headless Chromium driven through the DevTools protocol
// over --remote-debugging-pipe: Chromium reads NUL-terminated JSON
// commands on its fd 3 and writes replies and events on its fd 4. A pipe
// needs no port, no WebSocket and no npm package.
type browser struct {
	cmd      *exec.Cmd
	toChrome io.WriteCloser
	stderr   bytes.Buffer

	mu      sync.Mutex
	nextID  int64
	waiting map[int64]chan reply
	events  []event
	eventCh chan struct{} // signalled (non-blocking) on every event
	readErr error
	done    chan struct{}
}

type reply struct {
	Result jsontext.Value `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type event struct {
	Method    string         `json:"method"`
	Params    jsontext.Value `json:"params"`
	SessionID string         `json:"sessionId"`
}

// startBrowser starts bin headless with the flags that work on a closed
// network as root (no sandbox, no background networking, a fresh
// profile directory).
func startBrowser(ctx context.Context, bin, profile string) (*browser, error) {
	toR, toW, err := os.Pipe() // Chromium reads commands from fd 3
	if err != nil {
		return nil, err
	}
	fromR, fromW, err := os.Pipe() // and writes replies to fd 4
	if err != nil {
		return nil, err
	}
	b := &browser{toChrome: toW, waiting: map[int64]chan reply{}, eventCh: make(chan struct{}, 1), done: make(chan struct{})}
	b.cmd = exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--mute-audio", "--window-size=1280,900",
		"--user-data-dir="+profile, "--remote-debugging-pipe", "about:blank")
	b.cmd.ExtraFiles = []*os.File{toR, fromW}
	b.cmd.Stderr = &b.stderr
	if err := b.cmd.Start(); err != nil {
		return nil, err
	}
	toR.Close()
	fromW.Close()
	go b.read(fromR)
	return b, nil
}

func (b *browser) read(r io.Reader) {
	defer close(b.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			for _, ch := range b.waiting {
				close(ch)
			}
			b.waiting = map[int64]chan reply{}
			b.mu.Unlock()
			return
		}
		msg = msg[:len(msg)-1]
		var head struct {
			ID *int64 `json:"id"`
		}
		if err := json.Unmarshal(msg, &head, json.RejectUnknownMembers(false)); err != nil {
			continue
		}
		if head.ID != nil {
			var rep reply
			_ = json.Unmarshal(msg, &rep, json.RejectUnknownMembers(false))
			b.mu.Lock()
			ch := b.waiting[*head.ID]
			delete(b.waiting, *head.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- rep
			}
			continue
		}
		var ev event
		if json.Unmarshal(msg, &ev, json.RejectUnknownMembers(false)) == nil {
			b.mu.Lock()
			b.events = append(b.events, ev)
			b.mu.Unlock()
			select {
			case b.eventCh <- struct{}{}:
			default:
			}
		}
	}
}

// call sends method with params (to sessionID's target when not empty)
// and decodes the result into out (when not nil).
func (b *browser) call(ctx context.Context, sessionID, method string, params, out any) error {
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return fmt.Errorf("%s: browser gone: %v; stderr:\n%s", method, b.readErr, b.stderr.String())
	}
	b.nextID++
	id := b.nextID
	ch := make(chan reply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	msg := struct {
		ID        int64  `json:"id"`
		Method    string `json:"method"`
		Params    any    `json:"params"`
		SessionID string `json:"sessionId,omitempty"`
	}{id, method, params, sessionID}
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := b.toChrome.Write(append(data, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case rep, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: browser closed the pipe", method)
		}
		if rep.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, rep.Error.Message, rep.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(rep.Result, out, json.RejectUnknownMembers(false))
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// waitEvent waits until an event named method has arrived for sessionID.
func (b *browser) waitEvent(ctx context.Context, sessionID, method string) error {
	for {
		b.mu.Lock()
		for _, ev := range b.events {
			if ev.Method == method && ev.SessionID == sessionID {
				b.mu.Unlock()
				return nil
			}
		}
		b.mu.Unlock()
		select {
		case <-b.eventCh:
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", method, ctx.Err())
		}
	}
}

// eventsOf returns every event received so far for sessionID.
func (b *browser) eventsOf(sessionID string) []event {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []event
	for _, ev := range b.events {
		if ev.SessionID == sessionID {
			out = append(out, ev)
		}
	}
	return out
}

// close asks the browser to exit, then waits for it (killing it after a
// grace period).
func (b *browser) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.call(ctx, "", "Browser.close", nil, nil)
	b.toChrome.Close()
	waited := make(chan error, 1)
	go func() { waited <- b.cmd.Wait() }()
	select {
	case err := <-waited:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil // killed or closed: the pages were already read
		}
		return err
	case <-time.After(5 * time.Second):
		_ = b.cmd.Process.Kill()
		return <-waited
	}
}
