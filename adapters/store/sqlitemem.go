package store

import (
	"sync"

	"modernc.org/libc"
)

// The pure-Go SQLite allocates its memory from modernc.org/libc's allocator, which carves each
// size class (16 bytes to 16 KiB, by powers of two) out of 64 KiB pages it maps from the kernel,
// and unmaps a page the moment its last allocation is freed. A statement that allocates and
// frees a block of a class nothing else holds at that moment (a cursor, a statement journal's
// chunk) so maps and unmaps a page each time: under load the chat process spent about a tenth of
// its CPU in those two system calls. One block of each class, allocated once and never freed,
// keeps a page of every class mapped, and the blocks freed in it are reused.

var pinOnce sync.Once

// pinAllocatorPages keeps one page of each of the allocator's size classes for the life of the
// process (11 blocks; the pages' untouched memory costs no resident memory).
func pinAllocatorPages() {
	pinOnce.Do(func() {
		tls := libc.NewTLS() // kept: it owns nothing the blocks need, but closing it serves no end
		for size := 16; size <= 16<<10; size *= 2 {
			libc.Xmalloc(tls, libc.Tsize_t(size))
		}
	})
}
