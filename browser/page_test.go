package browser_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// pageFacts is what the probe script reads off the loaded DOM.
type pageFacts struct {
	Title    string   `json:"title"`
	Decision string   `json:"decision"`
	Figures  []figure `json:"figures"`
	// UnnamedPlots counts <svg> elements without a data-figure name.
	UnnamedPlots int `json:"unnamed_plots"`
	// Tags are the distinct element names in the document.
	Tags []string `json:"tags"`
	// Handlers lists every attribute whose name starts with "on", as
	// element/attribute.
	Handlers []string `json:"handlers"`
	// Links lists every href, src, xlink:href and action attribute.
	Links []string `json:"links"`
	// Text is the body's text content.
	Text string `json:"text"`
	// CSP is the Content-Security-Policy meta tag's content.
	CSP string `json:"csp"`
	// Overflow lists the elements wider than the viewport that are not
	// inside a horizontal scroll wrapper.
	Overflow []string `json:"overflow"`
	// ViewportWidth is document.documentElement.clientWidth.
	ViewportWidth float64 `json:"viewport_width"`
	ScrollWidth   float64 `json:"scroll_width"`
	// Details counts the <details> elements (the per-task drill-down).
	Details int `json:"details"`
	// Counts are the page's stated counts (data-count name → data-value).
	Counts map[string]string `json:"counts"`
}

// figure is one drawn plot.
type figure struct {
	Name   string  `json:"name"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Marks  int     `json:"marks"` // circles and lines drawn
	// ViewBox is the svg's viewBox attribute ("" when none): it scales
	// with the page only with one.
	ViewBox string `json:"viewbox"`
	// Outside lists the marks and texts drawn outside the svg's box.
	Outside []string `json:"outside"`
	// AxisTitles are the texts of its axis titles (class axis-title).
	AxisTitles []string `json:"axis_titles"`
	// ArmColors maps each arm (data-arm of a mark) to the colours its
	// marks are drawn in (fill, stroke).
	ArmColors map[string][]string `json:"arm_colors"`
}

// probe runs in the page (through the DevTools protocol, which the page's
// Content-Security-Policy does not restrict) and returns pageFacts.
const probe = `(() => {
  const all = [...document.querySelectorAll('*')];
  const tags = [...new Set(all.map(e => e.localName))].sort();
  const handlers = [], links = [];
  for (const e of all) for (const a of e.attributes) {
    if (a.name.toLowerCase().startsWith('on')) handlers.push(e.localName + '/' + a.name);
    if (['href', 'src', 'xlink:href', 'action', 'srcset', 'formaction'].includes(a.name.toLowerCase())) links.push(e.localName + '/' + a.name + '=' + a.value);
  }
  const figures = [...document.querySelectorAll('svg[data-figure]')].map(s => {
    const r = s.getBoundingClientRect();
    const outside = [];
    for (const m of s.querySelectorAll('circle, line, rect, text')) {
      const b = m.getBoundingClientRect();
      if (b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1)
        outside.push(m.localName + ':' + (m.textContent || m.getAttribute('class') || '').slice(0, 60));
    }
    const armColors = {};
    for (const m of s.querySelectorAll('[data-arm]')) {
      const st = getComputedStyle(m);
      const c = st.fill + ' ' + st.stroke;
      const list = armColors[m.dataset.arm] ??= [];
      if (!list.includes(c)) list.push(c);
    }
    return {name: s.dataset.figure, width: r.width, height: r.height, marks: s.querySelectorAll('circle, line').length,
      viewbox: s.getAttribute('viewBox') || '', outside,
      axis_titles: [...s.querySelectorAll('.axis-title')].map(t => t.textContent), arm_colors: armColors};
  });
  const vw = document.documentElement.clientWidth;
  const overflow = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('.scroll') || e.closest('svg') && e.localName !== 'svg') continue;
    const r = e.getBoundingClientRect();
    if (r.right > vw + 1) overflow.push(e.localName + ':' + (e.dataset?.figure || e.querySelector?.('caption')?.textContent || e.textContent.slice(0, 60)));
  }
  const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
  return {
    title: document.title,
    decision: document.querySelector('[data-decision]')?.dataset.decision ?? '',
    figures, unnamed_plots: document.querySelectorAll('svg:not([data-figure])').length,
    tags, handlers, links, text: document.body.textContent,
    csp: csp ? csp.content : '', overflow, viewport_width: vw,
    scroll_width: document.documentElement.scrollWidth,
    details: document.querySelectorAll('details').length,
    counts: Object.fromEntries([...document.querySelectorAll('[data-count]')].map(e => [e.dataset.count, e.dataset.value])),
  };
})()`

// consoleMessage is one message the page produced: a console call, an
// uncaught exception or a browser log entry (CSP violations are these).
type consoleMessage struct {
	Source, Level, Text string
}

func (m consoleMessage) String() string { return m.Source + " " + m.Level + ": " + m.Text }

// load opens path in a new tab width px wide, waits for its load event
// and returns the facts and every console message the tab produced.
func (b *browser) load(ctx context.Context, path string, width int) (pageFacts, []consoleMessage, error) {
	var facts pageFacts
	msgs, err := b.evaluate(ctx, path, width, probe, &facts)
	return facts, msgs, err
}

// evaluate opens path in a new tab width CSS pixels wide, waits for its
// load event, runs script in the page and decodes its value into out; it
// returns every console message the tab produced.
func (b *browser) evaluate(ctx context.Context, path string, width int, script string, out any) ([]consoleMessage, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	defer b.call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target.TargetID}, nil) //nolint:errcheck
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return nil, err
	}
	s := attached.SessionID
	for _, domain := range []string{"Page", "Runtime", "Log"} {
		if err := b.call(ctx, s, domain+".enable", nil, nil); err != nil {
			return nil, err
		}
	}
	if err := b.call(ctx, s, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: path}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.call(ctx, s, "Page.navigate", map[string]any{"url": u.String()}, &nav); err != nil {
		return nil, err
	}
	if nav.ErrorText != "" {
		return nil, fmt.Errorf("navigate %s: %s", path, nav.ErrorText)
	}
	if err := b.waitEvent(ctx, s, "Page.loadEventFired"); err != nil {
		return nil, err
	}
	var eval struct {
		Result struct {
			Value jsontext.Value `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := b.call(ctx, s, "Runtime.evaluate", map[string]any{"expression": script, "returnByValue": true}, &eval); err != nil {
		return nil, err
	}
	if eval.ExceptionDetails != nil {
		return nil, fmt.Errorf("probe: %s", eval.ExceptionDetails.Text)
	}
	if err := json.Unmarshal(eval.Result.Value, out, json.RejectUnknownMembers(false)); err != nil {
		return nil, fmt.Errorf("probe result: %w", err)
	}
	return messagesOf(b.eventsOf(s)), nil
}

// messagesOf keeps the console-like events: every console API call,
// every uncaught exception and every browser log entry.
func messagesOf(events []event) []consoleMessage {
	var out []consoleMessage
	for _, ev := range events {
		switch ev.Method {
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string `json:"type"`
				Args []struct {
					Value       jsontext.Value `json:"value"`
					Description string         `json:"description"`
				} `json:"args"`
			}
			_ = json.Unmarshal(ev.Params, &p, json.RejectUnknownMembers(false))
			var parts []string
			for _, a := range p.Args {
				parts = append(parts, strings.TrimSpace(string(a.Value)+" "+a.Description))
			}
			out = append(out, consoleMessage{"console", p.Type, strings.Join(parts, " ")})
		case "Runtime.exceptionThrown":
			var p struct {
				ExceptionDetails struct {
					Text string `json:"text"`
				} `json:"exceptionDetails"`
			}
			_ = json.Unmarshal(ev.Params, &p, json.RejectUnknownMembers(false))
			out = append(out, consoleMessage{"exception", "error", p.ExceptionDetails.Text})
		case "Log.entryAdded":
			var p struct {
				Entry struct {
					Source string `json:"source"`
					Level  string `json:"level"`
					Text   string `json:"text"`
				} `json:"entry"`
			}
			_ = json.Unmarshal(ev.Params, &p, json.RejectUnknownMembers(false))
			out = append(out, consoleMessage{"log/" + p.Entry.Source, p.Entry.Level, p.Entry.Text})
		}
	}
	return out
}
