package html

import (
	"fmt"
	stdhtml "html"
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/stats"
)

// Inline SVG plots of report.html, generated as text. Every label that
// came from the inputs goes through svgText (control characters blanked,
// then HTML-escaped and shortened); every number is printed with fixed
// decimals, so the bytes are deterministic.

// defaultTaskFloor is the evaluation preset's task-median R floor (rule G2), used when the
// gates table has no parsable g2_task_floor threshold.
const defaultTaskFloor = "0.80"

// svg accumulates one <svg> element.
type svg struct {
	b strings.Builder
}

// newSVG starts the plot of figure (a fixed name, never input text: the
// browser test finds plots by it).
func newSVG(figure string, width, height int, label string) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg data-figure="%s" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		svgText(figure, 60), width, height, width, height, svgText(label, 200))
	s.b.WriteByte('\n')
	return s
}

func (s *svg) line(x1, y1, x2, y2 float64, class string) {
	// What fmt.Fprintf(`<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n",
	// class, ff(x1), ff(y1), ff(x2), ff(y2)) writes, without its strings.
	s.b.WriteString(`<line class="`)
	s.b.WriteString(class)
	s.b.WriteString(`" x1="`)
	s.ff(x1)
	s.b.WriteString(`" y1="`)
	s.ff(y1)
	s.b.WriteString(`" x2="`)
	s.ff(x2)
	s.b.WriteString(`" y2="`)
	s.ff(y2)
	s.b.WriteString("\"/>\n")
}

// ff writes ff(x).
func (s *svg) ff(x float64) {
	var buf [32]byte
	s.b.Write(appendFF(buf[:0], x))
}

// armCircle is a mark of arm (its k-th in the plot's arm order): one
// colour-blind-safe colour per arm (the Okabe–Ito palette; the baseline,
// k = 0, hollow), data-arm naming the arm.
func (s *svg) armCircle(x, y, r float64, k int, arm, title string) {
	// What fmt.Fprintf(`<circle class="arm-%d" data-arm="%s" cx="%s" cy="%s" r="%s"><title>%s</title></circle>`+"\n",
	// k%armColors, svgText(arm, 200), ff(x), ff(y), ff(r), svgText(title, 200)) writes.
	s.b.WriteString(`<circle class="arm-`)
	s.b.WriteString(strconv.Itoa(k % armColors))
	s.b.WriteString(`" data-arm="`)
	s.b.WriteString(svgText(arm, 200))
	s.b.WriteString(`" cx="`)
	s.ff(x)
	s.b.WriteString(`" cy="`)
	s.ff(y)
	s.b.WriteString(`" r="`)
	s.ff(r)
	s.b.WriteString(`"><title>`)
	s.b.WriteString(svgText(title, 200))
	s.b.WriteString("</title></circle>\n")
}

// armColors is how many arm colours the page's style defines (arm-0 …).
const armColors = 7

// axisTitle writes an axis's title; vertical rotates it to read upwards
// along a y axis.
func (s *svg) axisTitle(x, y float64, anchor, label string, vertical bool) {
	rotate := ""
	if vertical {
		rotate = fmt.Sprintf(` transform="rotate(-90 %s %s)"`, ff(x), ff(y))
	}
	fmt.Fprintf(&s.b, `<text class="axis-title" x="%s" y="%s" text-anchor="%s"%s>%s</text>`+"\n", ff(x), ff(y), anchor, rotate, svgText(label, 120))
}

func (s *svg) circle(x, y, r float64, class, title string) {
	fmt.Fprintf(&s.b, `<circle class="%s" cx="%s" cy="%s" r="%s"><title>%s</title></circle>`+"\n",
		class, ff(x), ff(y), ff(r), svgText(title, 200))
}

// titledLine is a line with a hover title.
func (s *svg) titledLine(x1, y1, x2, y2 float64, class, title string) {
	fmt.Fprintf(&s.b, `<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"><title>%s</title></line>`+"\n",
		class, ff(x1), ff(y1), ff(x2), ff(y2), svgText(title, 200))
}

// text writes an already built label; anchor is start, middle or end.
func (s *svg) text(x, y float64, anchor, label string) {
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" text-anchor="%s">%s</text>`+"\n", ff(x), ff(y), anchor, label)
}

func (s *svg) html() template.HTML {
	s.b.WriteString("</svg>")
	return template.HTML(s.b.String()) //nolint:gosec // every input string went through svgText
}

// ff prints a coordinate with a fixed two decimals.
func ff(x float64) string {
	var buf [32]byte
	return string(appendFF(buf[:0], x))
}

// appendFF appends ff(x) to dst.
func appendFF(dst []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		x = 0
	}
	return strconv.AppendFloat(dst, x, 'f', 2, 64)
}

// svgText makes untrusted text safe inside SVG text or an attribute:
// control characters blanked, shortened to max runes, HTML-escaped. Plot
// labels do not shorten: they wrap (wrapLabel); max bounds hover titles
// and fixed texts.
func svgText(s string, max int) string {
	s = plainText(s)
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max-1]) + "…"
	}
	return stdhtml.EscapeString(s)
}

// ratFloat converts exact text ("7/8", "0.875", "2") to a float for
// plotting only; ok is false when it does not parse.
func ratFloat(s string) (float64, bool) {
	r, ok := scorecard.ParseExact(strings.TrimSpace(s))
	if !ok {
		return 0, false
	}
	return stats.Float64(r), true
}

// gateNumber parses the leading exact number of a gate's observed or
// threshold text: "711959/610945 (≈1.165341)" → 711959/610945,
// "<= 1.10" → 1.10 with op "<=".
func gateNumber(s string) (op string, value float64, ok bool) {
	fields := strings.Fields(s)
	if len(fields) > 0 && (fields[0] == "<=" || fields[0] == ">=" || fields[0] == "=") {
		op, fields = fields[0], fields[1:]
	}
	if len(fields) == 0 {
		return op, 0, false
	}
	value, ok = ratFloat(fields[0])
	return op, value, ok
}
