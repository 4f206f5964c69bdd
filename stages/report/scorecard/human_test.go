package scorecard

import "testing"

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
		{Amount("USD", s("0.1472032")), "USD 0.1472"},
		{Amount("EUR", s("2.00005")), "EUR 2.0001"},
		{Amount("", s("3")), "3.0000"},
		{Amount("USD", nil), "unavailable"},
		{Times(&Ratio{Exact: "711959/610945"}), "×1.165 (+16.5%)"}, // 1.1653410...
		{Times(&Ratio{Exact: "9/10"}), "×0.900 (-10.0%)"},
		{Times(&Ratio{Exact: "1"}), "×1.000 (+0.0%)"},
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
