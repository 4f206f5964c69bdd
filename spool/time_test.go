package spool

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
	_ "time/tzdata" // LoadLocation finds its zones on every machine: the test below always runs
)

// timeRow holds a time.Time the ways the receipts and ratings do: a value,
// a pointer that may be nil, and a list.
type timeRow struct {
	At    time.Time
	Ended *time.Time
	Marks []time.Time
}

// roundTripTimes encodes rows as one chunk and decodes them back.
func roundTripTimes(t *testing.T, rows []timeRow) []timeRow {
	t.Helper()
	chunk, err := encodeSpoolChunk(rows)
	if err != nil {
		t.Fatal(err)
	}
	c, err := codecOf[timeRow]()
	if err != nil {
		t.Fatal(err)
	}
	d := &blockDecoder{chunk: chunk}
	buf := make([]timeRow, spoolBlockRows)
	var got []timeRow
	for b := decodeSpoolBlock(d, c, buf); b != nil; b = decodeSpoolBlock(d, c, buf) {
		got = append(got, b...)
	}
	if d.err != nil {
		t.Fatal(d.err)
	}
	if len(got) != len(rows) {
		t.Fatalf("%d rows back, want %d", len(got), len(rows))
	}
	return got
}

// checkTime holds got to want: the same instant, text and zone always;
// the same location name, and reflect.DeepEqual to want without its
// monotonic reading, when want's location is UTC, Local or fixed.
func checkTime(t *testing.T, got, want time.Time, fixed bool) {
	t.Helper()
	if !got.Equal(want) {
		t.Fatalf("instant: got %v, want %v", got, want)
	}
	if g, w := got.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano); g != w {
		t.Fatalf("RFC 3339 text: got %s, want %s", g, w)
	}
	gn, go_ := got.Zone()
	wn, wo := want.Zone()
	if gn != wn || go_ != wo {
		t.Fatalf("zone: got %q %d, want %q %d", gn, go_, wn, wo)
	}
	if got.Nanosecond() != want.Nanosecond() || got.Unix() != want.Unix() {
		t.Fatalf("seconds and nanoseconds: got %d.%09d, want %d.%09d", got.Unix(), got.Nanosecond(), want.Unix(), want.Nanosecond())
	}
	if !fixed {
		return
	}
	if g, w := got.Location().String(), want.Location().String(); g != w {
		t.Fatalf("location: got %q, want %q", g, w)
	}
	if w := want.Round(0); !reflect.DeepEqual(got, w) {
		t.Fatalf("not DeepEqual: got %#v, want %#v", got, w)
	}
}

// fixedLocations are the locations a time comes back in exactly.
func fixedLocations() []*time.Location {
	return []*time.Location{
		time.UTC, time.Local,
		time.FixedZone("", 0), time.FixedZone("", 2*3600), time.FixedZone("", -12*3600), time.FixedZone("", 14*3600),
		time.FixedZone("", 5*3600+30*60), time.FixedZone("", -(9*3600 + 30*60 + 7)), time.FixedZone("", 15*3600), // not cached by FixedZone
		time.FixedZone("CEST", 2*3600), time.FixedZone("ünï\x00", -1), time.FixedZone("UTC", 0), time.FixedZone("Local", 3600),
	}
}

// TestSpoolTimeProperties: times over the whole range of seconds and
// nanoseconds, in every kind of fixed location, with and without a
// monotonic reading, nil and not, come back exactly.
func TestSpoolTimeProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	locs := fixedLocations()
	secs := []int64{0, -1, 1, math.MinInt64, math.MaxInt64, math.MinInt64 + 62135596800, -62135596800, 253402300799}
	var rows []timeRow
	var want []time.Time // every time of rows, in order
	add := func(tm time.Time) {
		want = append(want, tm)
	}
	for i := range 3*spoolBlockRows + 11 {
		var sec int64
		switch i % 3 {
		case 0:
			sec = secs[(i/3)%len(secs)]
		case 1:
			sec = int64(r.Uint64())
		default:
			sec = r.Int64N(1<<34) - 1<<33 // near the present, either side of 1970
		}
		nsec := r.Int64N(1e9)
		if i%5 == 0 {
			nsec = []int64{0, 1, 999_999_999}[i%3]
		}
		row := timeRow{At: time.Unix(sec, nsec).In(locs[i%len(locs)])}
		add(row.At)
		if i%4 != 0 {
			e := time.Unix(sec, nsec).In(locs[(i+3)%len(locs)])
			row.Ended = &e
			add(e)
		}
		switch i % 7 {
		case 0:
			row.Marks = []time.Time{}
		case 1:
			row.Marks = []time.Time{time.Now(), {}, time.Now().In(locs[i%len(locs)])} // monotonic readings
			for _, m := range row.Marks {
				add(m)
			}
		}
		rows = append(rows, row)
	}
	got := roundTripTimes(t, rows)
	var back []time.Time
	for i, g := range got {
		back = append(back, g.At)
		if (g.Ended == nil) != (rows[i].Ended == nil) {
			t.Fatalf("row %d: Ended nil %v, want %v", i, g.Ended == nil, rows[i].Ended == nil)
		}
		if g.Ended != nil {
			back = append(back, *g.Ended)
		}
		if (g.Marks == nil) != (rows[i].Marks == nil) || len(g.Marks) != len(rows[i].Marks) {
			t.Fatalf("row %d: Marks %v, want %v", i, g.Marks, rows[i].Marks)
		}
		back = append(back, g.Marks...)
	}
	for i := range want {
		checkTime(t, back[i], want[i], true)
	}
}

// TestSpoolTimeParsed: a timestamp read as the loader reads one
// (time.Time.UnmarshalText, which picks UTC for Z, Local when the offset
// is Local's at that instant, else an unnamed fixed zone) comes back
// reflect.DeepEqual, with Local set to a zone of its own as well.
func TestSpoolTimeParsed(t *testing.T) {
	texts := []string{
		"2026-10-01T08:00:03.789Z", "2026-10-01T08:00:03Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
		"2026-10-01T08:00:03+00:00", "2026-10-01T08:00:03-00:00", "2026-10-01T08:00:03.5+05:30", "2026-03-29T01:30:00+01:00",
		"2026-10-01T08:00:03.000000001-09:30", "2026-10-01T08:00:03+14:00", "2026-10-01T08:00:03-12:00", "2026-10-01T08:00:03+23:59",
	}
	for _, local := range []*time.Location{time.Local, time.FixedZone("IST", 5*3600+30*60), time.FixedZone("X", 0)} {
		old := time.Local
		time.Local = local
		var rows []timeRow
		for _, s := range texts {
			var tm time.Time
			if err := tm.UnmarshalText([]byte(s)); err != nil {
				time.Local = old
				t.Fatalf("%s: %v", s, err)
			}
			rows = append(rows, timeRow{At: tm, Ended: &tm})
		}
		got := roundTripTimes(t, rows)
		time.Local = old
		if !reflect.DeepEqual(got, rows) {
			for i := range rows {
				if !reflect.DeepEqual(got[i], rows[i]) {
					t.Errorf("Local %s: %s came back %#v, want %#v", local, texts[i], got[i].At, rows[i].At)
				}
			}
		}
	}
}

// TestSpoolTimeLoadedLocation: a time in a location with rules over time
// keeps its instant, its text and the zone in effect at it.
func TestSpoolTimeLoadedLocation(t *testing.T) {
	var rows []timeRow
	for _, name := range []string{"Europe/Paris", "America/St_Johns", "Asia/Kolkata", "Australia/Lord_Howe"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatalf("zone %s: %v", name, err) // time/tzdata is embedded
		}
		for _, sec := range []int64{0, 1_790_000_000, 1_774_000_000, -2_000_000_000} {
			rows = append(rows, timeRow{At: time.Unix(sec, 123).In(loc)})
		}
	}
	for i, g := range roundTripTimes(t, rows) {
		checkTime(t, g.At, rows[i].At, false)
	}
}

// FuzzSpoolTime: a time of any instant, nanosecond, zone name and offset
// comes back exactly (the time encoded is the oracle), and a timestamp
// the loader accepts comes back reflect.DeepEqual.
func FuzzSpoolTime(f *testing.F) {
	f.Add(int64(1_790_000_000), int64(789_000_000), "", 19800, uint8(2), "2026-10-01T08:00:03.5+05:30")
	f.Add(int64(math.MinInt64), int64(0), "CEST", 7200, uint8(0), "2026-10-01T08:00:03Z")
	f.Add(int64(-1), int64(999_999_999), "\xff", -1, uint8(1), "0001-01-01T00:00:00-00:00")
	f.Fuzz(func(t *testing.T, sec, nsec int64, name string, offset int, kind uint8, text string) {
		nsec = (nsec%1e9 + 1e9) % 1e9
		offset = int(int32(offset))
		tm := time.Unix(sec, nsec)
		switch kind % 3 {
		case 0:
			tm = tm.UTC()
		case 2:
			tm = tm.In(time.FixedZone(name, offset))
		}
		rows := []timeRow{{At: tm, Ended: &tm, Marks: []time.Time{tm}}}
		var parsed time.Time
		if parsed.UnmarshalText([]byte(text)) == nil {
			rows = append(rows, timeRow{At: parsed})
		}
		got := roundTripTimes(t, rows)
		checkTime(t, got[0].At, tm, true)
		checkTime(t, *got[0].Ended, tm, true)
		checkTime(t, got[0].Marks[0], tm, true)
		if len(rows) > 1 && !reflect.DeepEqual(got[1], rows[1]) {
			t.Fatalf("%q came back %#v, want %#v", text, got[1].At, rows[1].At)
		}
	})
}
