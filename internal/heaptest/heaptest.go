// Package heaptest measures the peak heap of a piece of work, for tests
// that bound memory (hostile inputs at scale) and benchmarks that report
// it. The peak is sampled from runtime.MemStats.HeapAlloc every 2 ms, so
// it can miss a spike shorter than that: bounds built on it are generous.
//
// Only tests import this package.
package heaptest

import (
	"runtime"
	"time"
)

// Peak collects garbage, runs f while sampling the heap and returns the
// largest HeapAlloc seen.
func Peak(f func()) uint64 {
	runtime.GC()
	var peak uint64
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-quit:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(quit)
	<-done
	return peak
}
