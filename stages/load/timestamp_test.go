package load

import (
	"reflect"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
)

// checkTimestampOf holds timestampOf to json.Unmarshal, its oracle: it
// stores what Unmarshal stores, and only what Unmarshal accepts.
func checkTimestampOf(t *testing.T, raw []byte) {
	var want time.Time
	err := json.Unmarshal(raw, &want)
	got, ok := timestampOf(raw)
	switch {
	case ok && err != nil:
		t.Fatalf("%s: timestampOf accepts what Unmarshal refuses (%v)", raw, err)
	case ok && !reflect.DeepEqual(got, want):
		t.Fatalf("%s: timestampOf %v, Unmarshal %v", raw, got, want)
	}
}

func TestTimestampOf(t *testing.T) {
	for _, s := range []string{
		`"2026-10-01T08:00:03.423Z"`, `"2027-07-10T23:00:00Z"`, `"2026-10-01T08:00:03+02:00"`,
		`"2026-10-01T08:00:03-07:30"`, `"2026-10-01T08:00:03.123456789+00:00"`,
		`"2026-10-01T8:00:03Z"`, `"2026-10-01T08:00:03,5Z"`, `"2026-10-01T08:00:03+24:00"`,
		`"2026-10-01T08:00:03+01:60"`, `"2026-02-30T08:00:03Z"`, `"2026-10-01T23:59:60Z"`,
		`"2026-10-01t08:00:03z"`, `"2026-10-01 08:00:03Z"`, `"\u0032026-10-01T08:00:03Z"`, `""`, `"x"`, `1`, `null`,
	} {
		checkTimestampOf(t, []byte(s))
	}
	if _, ok := timestampOf([]byte(`"2026-10-01T08:00:03.423Z"`)); !ok {
		t.Fatal("a receipt's timestamp takes the slow path")
	}
}

func FuzzTimestampOf(f *testing.F) {
	for _, s := range []string{`"2026-10-01T08:00:03.423Z"`, `"2026-10-01T08:00:03+02:00"`, `"2026-10-01T08:00:03,5Z"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkTimestampOf)
}
