/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Mapped input files; see filemap.h.
 *
 * The live mappings sit in a fixed table of slots that the SIGBUS handler
 * reads without a lock: a slot is published by storing its end last and
 * retired by clearing its start first, each an atomic store, so that the
 * handler never sees a range that is not, or no longer, a mapping.  The
 * handler is installed again at each mapping (a test harness or a library
 * may have put its own since), and hands a SIGBUS that is not ours to
 * whatever handler was there before.
 */
#define _GNU_SOURCE
#include "filemap.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SLOTS 64		/* inputs mapped at once (8 in flight is usual) */

struct slot {
	_Atomic uintptr_t start, end;	/* [start, end) mapped; 0: free */
	atomic_int truncated;
	size_t len;			/* the mapping's length (owner only) */
	int fd;				/* the file, kept open to fstat() */
};

static struct slot slots[SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous;	/* the SIGBUS action before ours */
static size_t page_size;

static struct slot *slot_of(uintptr_t addr)
{
	for (size_t i = 0; i < SLOTS; i++) {
		uintptr_t s = atomic_load(&slots[i].start);

		if (s && addr >= s && addr < atomic_load(&slots[i].end))
			return &slots[i];
	}
	return NULL;
}

/*
 * A page of a mapped file is gone (BUS_ADRERR: the file shrank, or the
 * page could not be read): zeros take its place and the mapping is
 * marked.  Any other SIGBUS -- elsewhere, a machine check, one sent by
 * kill -- is not ours: the previous action is restored and meets it (the
 * faulting access, retried; a sent signal, raised again).
 */
static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t addr = (uintptr_t)si->si_addr;
	struct slot *s = si->si_code == BUS_ADRERR ? slot_of(addr) : NULL;

	(void)ctx;
	if (s) {
		void *page = (void *)(addr & ~(uintptr_t)(page_size - 1));

		if (mmap(page, page_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
		    MAP_FAILED) {
			atomic_store(&s->truncated, 1);
			return;
		}
	}
	sigaction(sig, &previous, NULL);
	if (si->si_code <= 0)	/* sent, not raised by an access */
		raise(sig);
}

/* Under slots_lock.  Returns -1 when no handler could be installed. */
static int install_handler(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (!page_size)
		page_size = (size_t)sysconf(_SC_PAGESIZE);
	if (sigaction(SIGBUS, &sa, &old))
		return -1;
	if (!(old.sa_flags & SA_SIGINFO) || old.sa_sigaction != on_sigbus)
		previous = old;
	return 0;
}

static struct slot *take_slot(void)
{
	struct slot *s = NULL;

	pthread_mutex_lock(&slots_lock);
	if (install_handler()) {	/* no handler: no mapping either */
		pthread_mutex_unlock(&slots_lock);
		return NULL;
	}
	for (size_t i = 0; i < SLOTS && !s; i++)
		if (!atomic_load(&slots[i].end) &&
		    !atomic_load(&slots[i].start))
			s = &slots[i];
	if (s)	/* reserved: a start of 1 matches no address */
		atomic_store(&s->start, 1);
	pthread_mutex_unlock(&slots_lock);
	return s;
}

char *filemap_open(int fd, size_t size)
{
	struct slot *s;
	size_t len;
	void *p;

	if (size < FILEMAP_MIN || !(s = take_slot()))
		return NULL;
	/* the NUL is the byte after the end, in the last page: the kernel
	 * shows zeros there, unless the file fills that page exactly */
	if (size % page_size == 0) {
		atomic_store(&s->start, 0);
		return NULL;
	}
	len = size + 1;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED || (s->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		if (p != MAP_FAILED)
			munmap(p, len);
		atomic_store(&s->start, 0);
		return NULL;
	}
	s->len = len;
	atomic_store(&s->truncated, 0);
	atomic_store(&s->start, (uintptr_t)p);
	atomic_store(&s->end, (uintptr_t)p + len);
	/* Written, the last page becomes this mapping's own copy: bytes
	 * appended to the file from now on (a log still being written)
	 * would show through it, and the NUL readers stop at be gone. */
	((char *)p)[size] = '\0';
	return p;
}

int filemap_truncated(const char *data)
{
	struct slot *s = data ? slot_of((uintptr_t)data) : NULL;
	struct stat st;

	if (!s)
		return 0;
	if (atomic_load(&s->truncated))
		return 1;
	/* a shrink within the last page raises no SIGBUS: its lost bytes
	 * just read as zeros */
	return !fstat(s->fd, &st) && (uint64_t)st.st_size < s->len - 1;
}

size_t filemap_page_floor(size_t off)
{
	return page_size ? off / page_size * page_size : off;
}

void filemap_drop(const char *data, size_t from, size_t to)
{
	struct slot *s = data ? slot_of((uintptr_t)data) : NULL;
	size_t first, last;

	if (!s || atomic_load(&s->start) != (uintptr_t)data)
		return;
	if (to > s->len - 1)
		to = s->len - 1;
	first = (from + page_size - 1) / page_size * page_size;
	last = to / page_size * page_size;	/* the last page stays */
	if (last > (s->len - 1) / page_size * page_size)
		last = (s->len - 1) / page_size * page_size;
	if (first < last)
		madvise((char *)(uintptr_t)data + first, last - first,
			MADV_DONTNEED);
}

int filemap_close(char *data)
{
	struct slot *s = data ? slot_of((uintptr_t)data) : NULL;
	size_t len;

	if (!s || atomic_load(&s->start) != (uintptr_t)data)
		return 0;
	len = s->len;
	close(s->fd);
	/* retired before unmapping: a SIGBUS in between is not ours */
	atomic_store(&s->start, 0);
	atomic_store(&s->end, 0);
	munmap(data, len);
	return 1;
}
