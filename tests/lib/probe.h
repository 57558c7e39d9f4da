/* probe.h: what a process holds, read from /proc: its resident set and open files (the soaks' bounds). */
#ifndef HF_TEST_PROBE_H
#define HF_TEST_PROBE_H

#include <sys/types.h>

struct probe { long rss_kb, fds; };

/* pid's VmRSS (-1 if unreadable) and its open file descriptors. */
struct probe probe(pid_t pid);
/* Raises most to p where p is higher. */
void peak(struct probe *most, struct probe p);

#endif
