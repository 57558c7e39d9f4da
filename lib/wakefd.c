/* wakefd.c: an eventfd by which a thread wakes the loop. */
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "wakefd.h"

int
wakefd_open(void)
{
	return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

void
wakefd_ring(int fd)
{
	uint64_t one = 1;
	/* a full counter (2^64 - 2 rings unread) already wakes the watcher: nothing is lost */
	ssize_t r = write(fd, &one, sizeof one);

	(void)r;
}

void
wakefd_drain(int fd)
{
	uint64_t n;
	ssize_t r = read(fd, &n, sizeof n);

	(void)r;
}
