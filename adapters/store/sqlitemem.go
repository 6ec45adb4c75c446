package store

import (
	"sync"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
)

// keepAllocatorPages keeps pages of each size class of the pure-Go SQLite's memory allocator
// mapped for the life of the process. That allocator (modernc.org/memory) maps a 64 KiB page for
// a size class when the class has no free block, and unmaps the page as soon as its last block is
// freed: a statement that allocates and frees a block of a class nothing else holds (the charge's
// trigger frame and the page cache of its RETURNING rows, in the relay) mapped and unmapped
// memory every time it ran, three system calls per charge, and an unmap makes the kernel
// interrupt the other core's thread to flush its address translations. A block kept in a page
// keeps the page mapped. One page per class (11 of them, 704 KiB of address space) was not enough
// for the reply's exchanges: each statement of a transaction keeps its journal in 1 KiB chunks
// (the 2 KiB class, 31 to a page), a group's statements need several pages of them, and the page
// caches that connections reload after another's commit take 4 KiB pages with their headers (the
// 8 KiB class, 7 to a page); those pages were mapped and unmapped for every group. So those two
// classes keep keptPages pages each (4 MiB of address space, resident once used).
var keepAllocatorPages = sync.OnceFunc(func() {
	tls := libc.NewTLS()
	defer tls.Close()
	for log := 4; log <= 14; log++ { // 16 bytes to 16 KiB: the classes of shared pages
		pages := 1
		if log == 11 || log == 13 {
			pages = keptPages
		}
		keepPages(tls, types.Size_t(1)<<log, pages)
	}
})

// keptPages is how many pages of the 2 KiB and 8 KiB classes keepAllocatorPages keeps mapped.
const keptPages = 32

// keepPages allocates blocks of size until they fill pages pages of the allocator, and frees all
// but one block of each page (which keep the page mapped; never freed).
func keepPages(tls *libc.TLS, size types.Size_t, pages int) {
	const pageMask = 1<<16 - 1 // modernc.org/memory's 64 KiB pages
	kept := map[uintptr]bool{}
	var spare []uintptr
	for len(kept) < pages {
		p := libc.Xmalloc(tls, size)
		if p == 0 {
			break
		}
		if pg := p &^ pageMask; !kept[pg] {
			kept[pg] = true
			continue
		}
		spare = append(spare, p)
	}
	// The last page may not be full: the blocks left in it are still free for later calls.
	for _, p := range spare {
		libc.Xfree(tls, p)
	}
}
