package knowledge

import (
	"hash/maphash"
	"math/bits"
	"strings"
)

// keySeed seeds the hashes of every keyTable of the process.
var keySeed = maphash.MakeSeed()

// keyTable is a read-only map of strings (an index's terms, a matcher's features) to their ids
// 0…n-1, laid out to hold little memory: an index keeps one for each account, and a map of
// strings costs about 40 bytes per key beside the key's own allocation. The keys are kept end to
// end in one string, and an open-addressing table of their ids (linear probing, at most three
// quarters full) finds them by hash; a hit is checked against the key's bytes, so the table
// answers exactly what a map would.
type keyTable struct {
	text  string   // the keys in id order, end to end
	ends  []uint32 // the end of each key in text
	slots []int32  // id+1 of the key hashed there, 0 for none; a power of 2 long
}

// newKeyTable returns the table of keys, each key's id its index in keys (they are distinct).
func newKeyTable(keys []string) keyTable {
	size := 0
	for _, k := range keys {
		size += len(k)
	}
	var b strings.Builder
	b.Grow(size)
	t := keyTable{ends: make([]uint32, len(keys))}
	for i, k := range keys {
		b.WriteString(k)
		t.ends[i] = uint32(b.Len())
	}
	t.text = b.String()
	n := 8
	if len(keys) > 0 {
		n = max(n, 1<<bits.Len(uint(len(keys)*4/3)))
	}
	t.slots = make([]int32, n)
	mask := uint64(n - 1)
	for i, k := range keys {
		for s := maphash.String(keySeed, k) & mask; ; s = (s + 1) & mask {
			if t.slots[s] == 0 {
				t.slots[s] = int32(i + 1)
				break
			}
		}
	}
	return t
}

// len returns how many keys the table holds.
func (t *keyTable) len() int { return len(t.ends) }

// key returns the key of id.
func (t *keyTable) key(id int32) string {
	start := uint32(0)
	if id > 0 {
		start = t.ends[id-1]
	}
	return t.text[start:t.ends[id]]
}

// get returns the id of a key, and whether the table holds it.
func (t *keyTable) get(key string) (int32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for s := maphash.String(keySeed, key) & mask; ; s = (s + 1) & mask {
		id := t.slots[s] - 1
		if id < 0 {
			return 0, false
		}
		if t.key(id) == key {
			return id, true
		}
	}
}
