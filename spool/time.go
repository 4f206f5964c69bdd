package spool

import (
	"math"
	"reflect"
	"time"
	"unsafe"
)

// A time.Time in a spool chunk is its instant and its location, never its
// unexported fields (a wall clock with a monotonic reading and a
// *time.Location the reflection codec would copy by address):
//
//	zig-zag varint  seconds since the Unix epoch (t.Unix())
//	uvarint         nanoseconds << 2 | location kind
//	kind 0  UTC     (time.UTC, and the zero Time)
//	kind 1  Local   (time.Local, the location the process runs in)
//	kind 2  a zone: its name (a string of the block) and its offset in
//	        seconds east of UTC (zig-zag varint), t.Zone() at the instant
//
// A time comes back with the same instant (Equal), the same
// Format(time.RFC3339Nano) and the same zone name and offset. Its
// monotonic clock reading is stripped, as t.Round(0) does. A time in UTC,
// in Local or in a fixed zone (time.FixedZone, which is every location the
// RFC 3339 parser builds: the loader's timestamps) comes back
// reflect.DeepEqual to the time added. A time in any other location (one
// from time.LoadLocation, with rules over time) comes back in a fixed zone
// of the name and offset in effect at its instant: the instant, its text
// and its offset are exact, while Location().String() is then that zone's
// name ("CET", not "Europe/Paris") and arithmetic across a transition
// keeps the offset. A spool lives for one run of one process, so Local is
// the same location when the time comes back.

// timeType is the one struct type the codec copies by its meaning instead
// of its fields.
var timeType = reflect.TypeFor[time.Time]()

// Location kinds of a spooled time.
const (
	spoolTimeUTC = iota
	spoolTimeLocal
	spoolTimeZone
	spoolTimeKinds
)

var timeCodec = &rowCodec{
	enc: func(e *blockEncoder, p unsafe.Pointer) { e.time(*(*time.Time)(p)) },
	dec: func(d *blockDecoder, p unsafe.Pointer) { *(*time.Time)(p) = d.time() },
}

func (e *blockEncoder) time(t time.Time) {
	kind := uint64(spoolTimeZone)
	switch t.Location() {
	case time.UTC:
		kind = spoolTimeUTC
	case time.Local:
		kind = spoolTimeLocal
	}
	e.varint(t.Unix())
	e.uvarint(uint64(t.Nanosecond())<<2 | kind)
	if kind == spoolTimeZone {
		name, offset := t.Zone()
		e.string(name)
		e.varint(int64(offset))
	}
}

func (d *blockDecoder) time() time.Time {
	sec := d.varint()
	x := d.uvarint()
	nsec, kind := int64(x>>2), x&3
	if nsec >= 1e9 || kind >= spoolTimeKinds {
		d.fail()
		return time.Time{}
	}
	t := time.Unix(sec, nsec) // in Local
	switch kind {
	case spoolTimeUTC:
		return t.UTC()
	case spoolTimeLocal:
		return t
	}
	name, offset := d.string(), d.varint()
	if offset < math.MinInt32 || offset > math.MaxInt32 {
		d.fail()
		return time.Time{}
	}
	return t.In(d.zone(name, int(offset)))
}

// zone returns the fixed zone of name and offset, the last one built when
// it is the same (a block's times mostly share one zone), so that decoding
// does not build a location per time.
func (d *blockDecoder) zone(name string, offset int) *time.Location {
	if z := d.lastZone; z.loc == nil || z.name != name || z.offset != offset {
		d.lastZone = spoolZone{name, offset, time.FixedZone(name, offset)}
	}
	return d.lastZone.loc
}

// spoolZone is a fixed zone a decoder built.
type spoolZone struct {
	name   string
	offset int
	loc    *time.Location
}
