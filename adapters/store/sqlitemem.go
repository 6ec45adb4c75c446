package store

import (
	"sync"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
)

// keepAllocatorPages keeps one block of each size class of the pure-Go SQLite's memory allocator
// allocated for the life of the process. That allocator (modernc.org/memory) maps a 64 KiB page
// for a size class when the class has no free block, and unmaps the page as soon as its last
// block is freed: a statement that allocates and frees a block of a class nothing else holds
// (the charge's trigger frame and the page cache of its RETURNING rows, in the relay) mapped and
// unmapped memory every time it ran, three system calls per charge, and an unmap makes the kernel
// interrupt the other core's thread to flush its address translations. A block kept in each
// class keeps the class's first page mapped. It costs a page per class (11 of them, 704 KiB of
// address space, of which only the touched 4 KiB pages are resident).
var keepAllocatorPages = sync.OnceFunc(func() {
	tls := libc.NewTLS()
	defer tls.Close()
	for log := 4; log <= 14; log++ { // 16 bytes to 16 KiB: the classes of shared pages
		_ = libc.Xmalloc(tls, types.Size_t(1)<<log) // never freed
	}
})
