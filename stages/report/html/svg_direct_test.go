package html

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// armCircle and line write what their fmt.Fprintf forms wrote, on edge
// coordinates (NaN, infinities, negative zero, halves of a hundredth,
// huge values) and on labels that need escaping.
func TestSVGDirectWritesMatchFprintf(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.005, 0.015, 0.125, -2.675, 4.5, 1e21, -1e300, 123456.789,
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1)}
	labels := []string{"", "arm", `a"b<c>&d'`, "tâche\x01\n", strings.Repeat("é", 250)}
	for i, x := range xs {
		y := xs[(i+3)%len(xs)]
		for k := range 9 {
			for _, label := range labels {
				var got svg
				got.armCircle(x, y, 4.5, k, label, label+" title")
				want := fmt.Sprintf(`<circle class="arm-%d" data-arm="%s" cx="%s" cy="%s" r="%s"><title>%s</title></circle>`+"\n",
					k%armColors, svgText(label, 200), ff(x), ff(y), ff(4.5), svgText(label+" title", 200))
				if got.b.String() != want {
					t.Fatalf("armCircle(%v, %v, %d, %q) = %q, want %q", x, y, k, label, got.b.String(), want)
				}
			}
		}
		var got svg
		got.line(x, y, y, x, "slope")
		want := fmt.Sprintf(`<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", "slope", ff(x), ff(y), ff(y), ff(x))
		if got.b.String() != want {
			t.Fatalf("line(%v, %v) = %q, want %q", x, y, got.b.String(), want)
		}
		if ff(x) != fmt.Sprintf("%.2f", zeroIfNotFinite(x)) {
			t.Fatalf("ff(%v) = %q", x, ff(x))
		}
	}
}

func zeroIfNotFinite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}
