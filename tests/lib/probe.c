/* probe.c: what a process holds, read from /proc: its resident set and open files. */
#include <dirent.h>
#include <stdio.h>

#include "probe.h"

struct probe
probe(pid_t pid)
{
	struct probe p = { -1, 0 };
	char path[64], line[256];
	struct dirent *de;
	FILE *f;
	DIR *d;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL)
			if (sscanf(line, "VmRSS: %ld", &p.rss_kb) == 1)
				break;
		fclose(f);
	}
	snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL)
			p.fds += de->d_name[0] != '.';
		closedir(d);
	}
	return p;
}

void
peak(struct probe *most, struct probe p)
{
	if (p.rss_kb > most->rss_kb)
		most->rss_kb = p.rss_kb;
	if (p.fds > most->fds)
		most->fds = p.fds;
}
