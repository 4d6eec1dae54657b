package property

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestTicksTime checks ticksTime against package time's RFC3339Nano
// rendering: FDateTime's ends, the days around every leap rule, whole
// seconds and fractions, and random ticks over the whole range.
func TestTicksTime(t *testing.T) {
	const maxTicks = 3155378975999999999
	epoch := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	want := func(ticks int64) string {
		const ticksPerDay = 864000000000
		return epoch.AddDate(0, 0, int(ticks/ticksPerDay)).Add(time.Duration(ticks%ticksPerDay) * 100).Format(time.RFC3339Nano)
	}
	ticks := []int64{0, 1, 9999999, 10000000, 10000001, 1234567, 1200000, maxTicks, maxTicks - 1}
	for _, y := range []int{1, 4, 100, 400, 1600, 1700, 1900, 1970, 2000, 2024, 2100, 2400, 9999} {
		for _, md := range [][2]int{{1, 1}, {2, 28}, {3, 1}, {12, 31}} {
			d := time.Date(y, time.Month(md[0]), md[1], 23, 59, 59, 999999900, time.UTC)
			for _, at := range []time.Time{d, d.Add(100), d.Truncate(24 * time.Hour)} {
				if n := at.Sub(epoch); at.Year() <= 9999 && n >= 0 && n < time.Duration(1<<62) {
					ticks = append(ticks, int64(n/100))
				}
			}
			// Years beyond time.Duration's 292: count days instead.
			days := int64(d.Truncate(24*time.Hour).Sub(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC))/(24*time.Hour)) + daysBeforeYear(y)
			ticks = append(ticks, days*864000000000, days*864000000000+863999999999)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		ticks = append(ticks, r.Int64N(maxTicks+1))
	}
	for _, n := range ticks {
		if n < 0 || n > maxTicks {
			continue
		}
		if got, w := ticksTime(n), want(n); got != w {
			t.Fatalf("ticksTime(%d) = %q, want %q", n, got, w)
		}
	}
	for _, n := range []int64{-1, maxTicks + 1, -1 << 63, 1<<63 - 1} {
		if got := ticksTime(n); got != "" {
			t.Errorf("ticksTime(%d) = %q, want \"\"", n, got)
		}
	}
}

// daysBeforeYear counts the days from 0001-01-01 to 1 January of year y.
func daysBeforeYear(y int) int64 {
	n := int64(y - 1)
	return n*365 + n/4 - n/100 + n/400
}
