package property

import (
	"math"

	"github.com/upkg/upkg/ue"
)

// VersionTrace records the version questions a decode asked of its
// [Context] and the answers it got. The decoder is deterministic: given the
// same bytes, names, objects and schemas, a decode under another Context
// that answers every recorded question the same way produces the same
// result. Engine inference uses this to decode a package once for all the
// candidate engine layouts that read its tables alike, instead of once per
// candidate.
//
// A trace is not safe for concurrent use; give each Context its own.
type VersionTrace struct {
	objects []objectQuestion
	customs []customQuestion
}

// objectQuestion is "is the UE4 (ue5 false) or UE5 object version at least v".
type objectQuestion struct {
	ue5 bool
	v   int32
	ans bool
}

// customQuestion is "is custom version key in [lo, hi)", and when recorded
// is set, "does the package record key, with a version in [lo, hi)".
type customQuestion struct {
	key      ue.Guid
	lo, hi   int64
	recorded bool
	ans      bool
}

// Holds reports whether c answers every question of the trace as it was
// answered when the trace was recorded.
func (t *VersionTrace) Holds(c *Context) bool {
	for _, q := range t.objects {
		if c.objectVersionAtLeast(q.ue5, q.v) != q.ans {
			return false
		}
	}
	for _, q := range t.customs {
		if c.customIn(q.key, q.lo, q.hi, q.recorded) != q.ans {
			return false
		}
	}
	return true
}

// Len is the number of distinct questions recorded.
func (t *VersionTrace) Len() int { return len(t.objects) + len(t.customs) }

func (t *VersionTrace) object(ue5 bool, v int32, ans bool) {
	for _, q := range t.objects {
		if q.v == v && q.ue5 == ue5 {
			return
		}
	}
	t.objects = append(t.objects, objectQuestion{ue5, v, ans})
}

func (t *VersionTrace) custom(key ue.Guid, lo, hi int64, recorded, ans bool) {
	for _, q := range t.customs {
		if q.key == key && q.lo == lo && q.hi == hi && q.recorded == recorded {
			return
		}
	}
	t.customs = append(t.customs, customQuestion{key, lo, hi, recorded, ans})
}

func (c *Context) objectVersionAtLeast(ue5 bool, v int32) bool {
	if ue5 {
		return c.FileVersionUE5 >= v
	}
	return c.FileVersionUE4 >= v || c.FileVersionUE5 > 0
}

func (c *Context) ue5(v int32) bool {
	ans := c.FileVersionUE5 >= v
	if c.Trace != nil {
		c.Trace.object(true, v, ans)
	}
	return ans
}

func (c *Context) ue4(v int32) bool {
	ans := c.FileVersionUE4 >= v || c.FileVersionUE5 > 0
	if c.Trace != nil {
		c.Trace.object(false, v, ans)
	}
	return ans
}

// customIn answers "custom version key lies in [lo, hi)"; with recorded,
// the package must also record key (see lookupCustom).
func (c *Context) customIn(key ue.Guid, lo, hi int64, recorded bool) bool {
	var v int32
	if recorded {
		var ok bool
		if v, ok = c.lookupCustom(key); !ok {
			return false
		}
	} else {
		v = c.customVersion(key)
	}
	return lo <= int64(v) && int64(v) < hi
}

// Bounds for customIn meaning "no bound".
const (
	cvMin = math.MinInt64
	cvMax = math.MaxInt64
)

func (c *Context) cvIn(key ue.Guid, lo, hi int64, recorded bool) bool {
	ans := c.customIn(key, lo, hi, recorded)
	if c.Trace != nil {
		c.Trace.custom(key, lo, hi, recorded, ans)
	}
	return ans
}

// cvAtLeast reports customVersion(key) >= v.
func (c *Context) cvAtLeast(key ue.Guid, v int64) bool { return c.cvIn(key, v, cvMax, false) }

// cvBelow reports customVersion(key) < v.
func (c *Context) cvBelow(key ue.Guid, v int64) bool { return c.cvIn(key, cvMin, v, false) }

// cvRecorded reports whether the package records custom version key.
func (c *Context) cvRecorded(key ue.Guid) bool { return c.cvIn(key, cvMin, cvMax, true) }

// cvRecordedAtLeast reports whether the package records key with a version
// of at least v.
func (c *Context) cvRecordedAtLeast(key ue.Guid, v int64) bool { return c.cvIn(key, v, cvMax, true) }
