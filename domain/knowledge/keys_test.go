package knowledge

import (
	"fmt"
	"testing"
)

// TestKeyTable: every key is found with its id, keys that only share a prefix, a hash's slot or
// nothing with the table's are not, and an empty table finds nothing.
func TestKeyTable(t *testing.T) {
	var empty keyTable
	if _, ok := empty.get("gab"); ok || empty.len() != 0 {
		t.Error("the zero table finds a key")
	}
	none := newKeyTable(nil)
	if _, ok := none.get(""); ok {
		t.Error("an empty table finds the empty key")
	}
	var keys []string
	for i := range 3000 {
		keys = append(keys, fmt.Sprintf("g%d", i), fmt.Sprintf("w%d", i))
	}
	keys = append(keys, "", "g", "w")
	tab := newKeyTable(keys)
	if tab.len() != len(keys) {
		t.Fatalf("len %d, want %d", tab.len(), len(keys))
	}
	for i, k := range keys {
		if id, ok := tab.get(k); !ok || id != int32(i) {
			t.Errorf("get(%q) = %d, %v; want %d", k, id, ok, i)
		}
		if got := tab.key(int32(i)); got != k {
			t.Errorf("key(%d) = %q, want %q", i, got, k)
		}
	}
	for _, k := range []string{"g3000", "w-1", "x1", "g12 ", "gg", "ww1"} {
		if id, ok := tab.get(k); ok {
			t.Errorf("get(%q) = %d for a key not in the table", k, id)
		}
	}
	if len(tab.slots)*3 > len(keys)*8 || len(tab.slots)*3 < len(keys)*4 {
		t.Errorf("%d slots for %d keys: want them between a third and three quarters full", len(tab.slots), len(keys))
	}
}
