package knowledge

import (
	"testing"

	"github.com/svcagent/svc/domain/knowledge"
)

// TestIndexCache: the cache keeps indexes up to its bytes, dropping the least recently used
// first; a stale version is a miss, an older build never replaces a newer one, and an index
// larger than the whole cache is not kept.
func TestIndexCache(t *testing.T) {
	ix := map[string]*knowledge.Index{}
	for _, id := range []string{"a", "b", "c", "d"} {
		ix[id] = knowledge.NewIndex(nil, nil, nil, nil)
	}
	c := newIndexCache(100)
	c.put("a", 1, ix["a"], 40)
	c.put("b", 1, ix["b"], 40)
	if got, ok := c.get("a", 1); !ok || got != ix["a"] { // a is now the most recently used
		t.Fatal("a missing")
	}
	c.put("c", 1, ix["c"], 40) // 120 > 100: b, the least recently used, goes
	if _, ok := c.get("b", 1); ok {
		t.Error("b kept past the cache's bytes")
	}
	if _, ok := c.get("a", 1); !ok {
		t.Error("a dropped although used more recently than b")
	}
	if _, ok := c.get("a", 2); ok {
		t.Error("a stale version answered")
	}
	c.put("a", 2, ix["d"], 50) // a's newer version replaces its older one: 50 + 40
	if got, ok := c.get("a", 2); !ok || got != ix["d"] {
		t.Error("a's new version missing")
	}
	c.put("a", 1, ix["a"], 10) // an older build finishing late
	if got, _ := c.get("a", 2); got != ix["d"] {
		t.Error("an older version replaced a newer one")
	}
	if c.size != 90 || len(c.entries) != 2 || c.order.Len() != 2 {
		t.Errorf("size %d with %d entries (%d in order), want 90 with 2", c.size, len(c.entries), c.order.Len())
	}
	c.put("b", 1, ix["b"], 101)
	if _, ok := c.get("b", 1); ok || c.size != 90 {
		t.Errorf("an index larger than the cache kept (size %d)", c.size)
	}
}
