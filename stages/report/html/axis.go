package html

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Axes and labels of the plots. Ticks fall on round numbers: multiples
// of a step of 1, 2 or 5 × 10^k, chosen so that about five ticks show,
// and the axis ends on a tick. Labels are never shortened: a long label
// wraps onto as many lines as it needs.

// axis is a linear scale over [lo, hi]; lo and hi are multiples of step.
type axis struct {
	lo, hi, step float64
	decimals     int // decimals a tick label needs to show step exactly
}

// niceAxis returns the smallest round axis covering [lo, hi] with about
// target ticks.
func niceAxis(lo, hi float64, target int) axis {
	if math.IsNaN(lo) || math.IsInf(lo, 0) || math.IsNaN(hi) || math.IsInf(hi, 0) {
		lo, hi = 0, 1
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	step := niceStep((hi - lo) / float64(max(target, 1)))
	// A tolerance of a millionth of a step keeps a bound that is already
	// on a tick (0.8 = 4 × 0.2 in floating point) from adding a tick.
	kLo := math.Floor(lo/step + 1e-6)
	kHi := math.Ceil(hi/step - 1e-6)
	if kHi <= kLo {
		kHi = kLo + 1
	}
	return axis{lo: kLo * step, hi: kHi * step, step: step, decimals: stepDecimals(step)}
}

// niceStep is the smallest 1, 2 or 5 × 10^k at least raw.
func niceStep(raw float64) float64 {
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// stepDecimals is how many decimals print a multiple of step exactly.
func stepDecimals(step float64) int {
	d := -int(math.Floor(math.Log10(step) + 1e-9))
	return max(d, 0)
}

// ticks are the axis's tick values, lo to hi, each k × step.
func (a axis) ticks() []float64 {
	n := int(math.Round((a.hi - a.lo) / a.step))
	k0 := math.Round(a.lo / a.step)
	out := make([]float64, 0, n+1)
	for i := 0; i <= n; i++ {
		out = append(out, (k0+float64(i))*a.step)
	}
	return out
}

// label prints tick v with the axis's decimals ("0.2", "1.5", "10").
func (a axis) label(v float64) string {
	s := strconv.FormatFloat(v, 'f', a.decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // never "-0.0"
	}
	return s
}

// pos maps v to [from, to].
func (a axis) pos(v, from, to float64) float64 {
	return from + (v-a.lo)/(a.hi-a.lo)*(to-from)
}

// wrapLabel splits untrusted text into lines of at most width runes,
// breaking after a space in the line's last two thirds, else after '_',
// '-', '.', '/' or ':' in its last half, else inside a word; nothing is
// dropped. Each line is blanked
// of control characters and HTML-escaped.
func wrapLabel(s string, width int) []string {
	width = max(width, 4)
	rs := []rune(plainText(s))
	var lines []string
	for len(rs) > width {
		cut := breakAt(rs, width)
		lines = append(lines, escapeLine(string(rs[:cut])))
		rs = rs[cut:]
	}
	return append(lines, escapeLine(string(rs)))
}

// breakAt is how many runes of rs (longer than width) the line takes.
func breakAt(rs []rune, width int) int {
	for i := width; i > width/3; i-- {
		if rs[i-1] == ' ' {
			return i
		}
	}
	for i := width; i > width/2; i-- {
		if strings.ContainsRune("_-./:", rs[i-1]) {
			return i
		}
	}
	return width
}

func escapeLine(s string) string {
	return svgText(strings.TrimSpace(s), utf8.RuneCountInString(s)+1)
}

// lineHeight is the distance between wrapped label lines, in px (11 px font).
const lineHeight = 13.0

// textLines writes lines as one <text> with a <tspan> per line, the first
// line's baseline at y.
func (s *svg) textLines(x, y float64, anchor string, lines []string) {
	if len(lines) == 1 {
		s.text(x, y, anchor, lines[0])
		return
	}
	var b strings.Builder
	for i, l := range lines {
		dy := "0"
		if i > 0 {
			dy = ff(lineHeight)
		}
		b.WriteString(`<tspan x="` + ff(x) + `" dy="` + dy + `">` + l + `</tspan>`)
	}
	s.text(x, y, anchor, b.String())
}
