package html

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/intervals"
	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// TestNiceAxis: ticks are multiples of 1, 2 or 5 × 10^k, worked by hand:
// the range over five ticks gives the raw step, rounded up to a round one.
func TestNiceAxis(t *testing.T) {
	for _, c := range []struct {
		name   string
		lo, hi float64
		labels []string
	}{
		// raw 1.53/5 = 0.306 → 0.5; the old axis showed 0.44/0.88/1.31.
		{"ratio_gates", 0, 1.53, []string{"0.0", "0.5", "1.0", "1.5", "2.0"}},
		// raw 0.4/5 = 0.08 → 0.1, ends widened to 0.6 and 1.1.
		{"fraction", 0.649, 1.0315, []string{"0.6", "0.7", "0.8", "0.9", "1.0", "1.1"}},
		// raw 0.37/5 = 0.074 → 0.1, through 0.
		{"difference", -0.0116, 0.3616, []string{"-0.1", "0.0", "0.1", "0.2", "0.3", "0.4"}},
		// raw 0.16/5 = 0.032 → 0.05: two decimals.
		{"narrow", 1.1, 1.26, []string{"1.10", "1.15", "1.20", "1.25", "1.30"}},
		// raw 0.2 exactly: step 0.2, bounds already on ticks add none.
		{"unit", 0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		// raw 34/5 = 6.8 → 10: no decimals.
		{"counts", 3, 37, []string{"0", "10", "20", "30", "40"}},
		{"single_value", 0.5, 0.5, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ax := niceAxis(c.lo, c.hi, 5)
			var got []string
			for _, v := range ax.ticks() {
				got = append(got, ax.label(v))
			}
			if !slices.Equal(got, c.labels) {
				t.Errorf("niceAxis(%v, %v) ticks %q, want %q", c.lo, c.hi, got, c.labels)
			}
			if ax.lo > c.lo || ax.hi < c.hi {
				t.Errorf("axis [%v, %v] does not cover [%v, %v]", ax.lo, ax.hi, c.lo, c.hi)
			}
		})
	}
}

// TestWrapLabel: no rune is dropped and no line is longer than its width.
func TestWrapLabel(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"T1", 10, []string{"T1"}},
		{"family_bootstrap_expanded_percentile", 20, []string{"family_bootstrap_", "expanded_percentile"}},
		{"r.macro_task_median B-A", 20, []string{"r.macro_task_median", "B-A"}},
		{"abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"<b>&x", 4, []string{"&lt;b&gt;&amp;", "x"}}, // escaped after wrapping
	} {
		got := wrapLabel(c.in, c.width)
		if !slices.Equal(got, c.want) {
			t.Errorf("wrapLabel(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
	long := strings.Repeat("family_bo", 30)
	lines := wrapLabel(long, 46)
	if strings.Join(lines, "") != long {
		t.Errorf("wrapped %q lost text: %q", long, lines)
	}
	for _, l := range lines {
		if len(l) > 46 {
			t.Errorf("line %q longer than 46", l)
		}
	}
}

// TestIntervalGatesNames pins the statistic names to the intervals
// stage's own constants, so a renamed statistic cannot silently lose its
// gate reference.
func TestIntervalGatesNames(t *testing.T) {
	want := map[string]rules.GateName{
		intervals.StatMacroR:    rules.GateMacroFloor,
		intervals.StatMacroDiff: rules.GateMacroGain,
		intervals.StatCostRatio: rules.GateCostAggregate,
		intervals.StatTimeRatio: rules.GateTimeAggregate,
	}
	for k, v := range want {
		if intervalGates[k] != v {
			t.Errorf("intervalGates[%q] = %q, want %q", k, intervalGates[k], v)
		}
	}
	if len(intervalGates) != len(want) {
		t.Errorf("intervalGates has %d statistics, want %d", len(intervalGates), len(want))
	}
}

// TestForestReferenceLines: a difference has its zero line, a ratio its
// parity line, and a row whose statistic a gate reads for the same arm
// carries that gate's threshold; worked by hand.
func TestForestReferenceLines(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	rows := []scorecard.IntervalResult{
		{Statistic: intervals.StatMacroDiff, Arm: "B", Contrast: "B-A", Method: "m", Status: "ok", Unit: "difference",
			Estimate: f(0.175), Lo: f(0.02), Hi: f(0.31), Clipped: true},
		{Statistic: intervals.StatCostRatio, Arm: "B", Contrast: "B/A", Method: "m", Status: "ok", Unit: "ratio",
			Estimate: f(1.17), Lo: f(1.11), Hi: f(1.24)},
	}
	gates := []scorecard.GateResult{
		{Gate: string(rules.GateMacroGain), Arm: "B", Observed: "0.175", Threshold: ">= 0.10"},
		{Gate: string(rules.GateCostAggregate), Arm: "C", Observed: "1.17", Threshold: "<= 1.10"}, // another arm: no tick
	}
	plots := forestPlots(rows, gates)
	if len(plots) != 2 {
		t.Fatalf("%d plots, want one per unit", len(plots))
	}
	diff, ratio := string(plots[0]), string(plots[1])
	// Difference: data [0.02, 0.31] with 0 and the threshold 0.10 → [0, 0.31],
	// raw step 0.062 → 0.1, axis [0, 0.4]: x(v) = 300 + v/0.4 × 360.
	// Zero at 300.00; threshold 0.10 at 390.00. One row, two label lines:
	// height 37, centre 42.50, tick from 33.50 to 51.50.
	for _, want := range []string{
		`<line class="zero" x1="300.00" y1="18.00" x2="300.00" y2="61.00"/>`,
		`<line class="gate-ref" x1="390.00" y1="33.50" x2="390.00" y2="51.50"><title>gate g3_macro_gain threshold &gt;= 0.10`,
	} {
		if !strings.Contains(diff, want) {
			t.Errorf("difference forest lacks %s:\n%s", want, diff)
		}
	}
	// Ratio: data [1.11, 1.24] with parity 1 → raw step 0.048 → 0.05,
	// axis [1, 1.25]: parity at 300.00. The cost gate is for arm C: no tick.
	if !strings.Contains(ratio, `<line class="zero" x1="300.00"`) {
		t.Errorf("ratio forest lacks its parity line at 1:\n%s", ratio)
	}
	if !strings.Contains(diff, "0.175 [0.02, 0.31] clipped*") || !strings.Contains(diff, "*clipped: a bound fell outside") {
		t.Errorf("a clipped row carries no visible note:\n%s", diff)
	}
	if strings.Contains(ratio, "clipped") {
		t.Error("a row that was not clipped says it was")
	}
	if strings.Contains(ratio, "gate-ref") {
		t.Error("a gate of another arm marked a threshold on the ratio forest")
	}
}
