package scorecard

import (
	"os"
	"strings"
	"testing"
)

func TestHumanUnits(t *testing.T) {
	s := func(v string) *string { return &v }
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct{ got, want string }{
		{Duration(s("135411000000")), "2 min 15.4 s"}, // 135.411 s
		{Duration(s("45250000000")), "45.3 s"},        // 45.25 s, half away from zero
		{Duration(s("120000000000")), "2 min"},
		{Duration(s("59990000000")), "1 min"}, // 59.99 s rounds to 60.0 s
		{Duration(s("12.5")), "0 s"},
		{Duration(nil), "unavailable"},
		{DurationNS(164724000000), "2 min 44.7 s"},
		{DurationNS(28_800_000_000_000), "8 h"},             // the 8-hour campaign ceiling
		{DurationNS(3_651_900_000_000), "1 h 0 min 51.9 s"}, // 3651.9 s
		{DurationNS(5_400_000_000_000), "1 h 30 min"},       // 5400 s
		{Duration(s("-1500000000")), "-1.5 s"},
		{Amount("USD", s("0.1472032")), "USD 0.1472"},
		{Amount("EUR", s("2.00005")), "EUR 2.0001"},
		{Amount("", s("3")), "3.0000"},
		{Amount("USD", nil), "unavailable"},
		{Times(&Ratio{Exact: "711959/610945"}), "×1.165 (+16.5%)"}, // 1.1653410...
		{Times(&Ratio{Exact: "9/10"}), "×0.900 (-10.0%)"},
		{Times(&Ratio{Exact: "1"}), "×1.000 (+0.0%)"},
		{TimesExact(&Ratio{Exact: "753517/643266"}), "×1.171 (+17.1%; exactly 753517/643266)"}, // 1.17139...
		{TimesExact(&Ratio{Exact: "23/20"}), "×1.150 (+15.0%)"},                                // exact at three decimals
		{TimesChangeExact(nil), "n/a"},
		{ExactRatio(&Change{Ratio: Ratio{Exact: "9/10"}}), "9/10"},
		{Shown(&Ratio{Exact: "123/160"}), "0.7688 (123/160)"}, // 0.76875
		{Shown(&Ratio{Exact: "4/5"}), "0.8"},
		{Shown(&Ratio{Exact: "2/3"}), "0.6667 (2/3)"},
		{Shown(nil), "n/a"},
		{Bound(f(1.1793349765149048)), "1.1793"},
		{Bound(f(0.95)), "0.95"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// withCompared sets the number a gate compared against its threshold.
func withCompared(g GateResult, n int64) GateResult {
	one := int64(1)
	g.ObservedNum, g.ObservedDen = &n, &one
	return g
}

func TestGateObserved(t *testing.T) {
	g := func(name, observed, threshold string, failing ...string) GateResult {
		return GateResult{Gate: name, Arm: "B", Observed: observed, Threshold: threshold, Failing: failing}
	}
	for _, c := range []struct{ got, want string }{
		{GateObserved(g("g5_cost_aggregate", "753517/643266 (≈1.171393)", "<= 1.10"), "USD"), "×1.171 (+17.1%)"},
		{GateObservedWithExact(g("g5_cost_aggregate", "753517/643266 (≈1.171393)", "<= 1.10"), "USD"), "×1.171 (+17.1%; exactly 753517/643266)"},
		{GateObservedExact(g("g5_cost_aggregate", "753517/643266 (≈1.171393)", "<= 1.10")), "753517/643266"},
		{GateObserved(g("g2_macro_floor", "0.94375", ">= 0.90"), ""), "0.9438 (0.94375)"}, // half away from zero
		{GateObserved(g("g2_macro_floor", "23/24 (≈0.958333)", ">= 0.90"), ""), "0.9583 (23/24)"},
		{GateObserved(g("g2_task_floor", "0.75", ">= 0.80"), ""), "0.75"},
		{GateObserved(g("g1_critical_source", "2", "<= 0"), ""), "2"},
		{GateObserved(g("rb_budget", "128.649117", ">= 0"), "USD"), "USD 128.6491"},
		{GateObserved(g("rb_budget", "cap 150.00 − (accounted 1 + held 0) = remaining 149", ">= 0"), "USD"), "cap 150.00 − (accounted 1 + held 0) = remaining 149"},
		{GateObserved(g("g5_cost_task", "null", "<= 1.15"), "USD"), "null"},
		{FailingGateLine(g("g5_cost_task", "172397/129310 (≈1.333207)", "<= 1.15", "T2", "T4"), "USD"),
			"g5_cost_task: observed ×1.333 (+33.3%; exactly 172397/129310), needs <= 1.15; failing: T2, T4"},
		{FailingGateLine(g("g1_critical_source", "2", "<= 0"), ""), "g1_critical_source: observed 2, needs <= 0"},
		{FailingGateLine(g("g2_task_floor", "0.5", ">= 0.80", "T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08", "T09", "T10"), ""),
			"g2_task_floor: observed 0.5, needs >= 0.80; failing: T01, T02, T03, T04, T05, T06, T07, T08, T09, T10"},
		{FailingGateLine(g("g2_task_floor", "0.5", ">= 0.80", "T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08", "T09", "T10", "T11", "T12", "T13"), ""),
			"g2_task_floor: observed 0.5, needs >= 0.80; failing: T01, T02, T03, T04, T05, T06, T07, T08, T09, T10 and 3 more (all in scorecard.json and gates.parquet)"},
		// A reviewer-benchmark gate's observed text describes both
		// profiles' counts; its line adds the difference it compared
		// (3 - 1 = 2 blocked), or that nothing was compared.
		{FailingGateLine(withCompared(g("rb_blocking_selection", "baseline 3/10, candidate 1/10 audited clean attempts blocked", ">= 3"), 2), ""),
			"rb_blocking_selection: observed baseline 3/10, candidate 1/10 audited clean attempts blocked; compared 2, needs >= 3"},
		{FailingGateLine(g("rb_detection_final", "baseline 0/0, candidate 0/0 planted defects detected", ">= 0"), ""),
			"rb_detection_final: observed baseline 0/0, candidate 0/0 planted defects detected; nothing compared, needs >= 0"},
		{FailingGateLine(g("g5_cost_task", "null", "<= 1.15"), "USD"), "g5_cost_task: observed null, needs <= 1.15"},
		{MetricValue(MetricResult{Metric: "median_latency_ns", Exact: strPtr("62379500000")}, "USD"), "1 min 2.4 s"}, // 62.3795 s
		{MetricValue(MetricResult{Metric: "cost", Exact: strPtr("4.563495")}, "USD"), "USD 4.5635"},
		{MetricValue(MetricResult{Metric: "cost", Exact: nil}, "USD"), "unavailable"},
		{MetricValue(MetricResult{Metric: "input_tokens", Exact: strPtr("1069225")}, "USD"), "1069225"},
		{MetricValue(MetricResult{Metric: "detection", Numerator: 29, Denominator: 40, Exact: strPtr("29/40")}, "USD"), "29/40"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func strPtr(v string) *string { return &v }

// docs/cli.md's table of number rules shows what the layer prints.
func TestNumberRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	s := func(v string) *string { return &v }
	f := 1.10690001
	for _, want := range []string{
		DurationNS(45_250_000_000), DurationNS(135_411_000_000), DurationNS(5_675_500_000_000), DurationNS(28_800_000_000_000),
		Amount("USD", s("5.110872")), TimesExact(&Ratio{Exact: "753517/643266"}), Shown(&Ratio{Exact: "123/160"}), Bound(&f),
	} {
		if !strings.Contains(string(doc), "`"+want+"`") {
			t.Errorf("docs/cli.md does not show %q", want)
		}
	}
}

// TestOneRoundingRule: a value prints the same wherever it is shown: an
// interval's estimate (a float) and a gate's exact observation, 0.94375 =
// 151/160, both round half away from zero to 0.9438.
func TestOneRoundingRule(t *testing.T) {
	f := 0.94375 // the float64 nearest 151/160 is 0.943749999999999966…
	if got := Bound(&f); got != "0.9438" {
		t.Errorf("Bound(0.94375) = %q, want 0.9438", got)
	}
	if got := Shown(&Ratio{Exact: "151/160"}); got != "0.9438 (151/160)" {
		t.Errorf("Shown(151/160) = %q, want 0.9438 (151/160)", got)
	}
	if got := Quantity(UnitR, ptr("151/160"), ""); got != "0.9438 (151/160)" {
		t.Errorf("Quantity(r, 151/160) = %q", got)
	}
	g := -0.00005 // halves away from zero: -0.0001
	if got := Bound(&g); got != "-0.0001" {
		t.Errorf("Bound(-0.00005) = %q, want -0.0001", got)
	}
}

func ptr(s string) *string { return &s }
