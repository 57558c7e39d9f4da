/* cardpick.c: a quick human's discard from their hand as the bot shows it (see cardpick.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardpick.h"

void
cardpick_discard(const char *line, char *out, size_t len)
{
	const char *p = strstr(line, "Your hand (");
	char buf[1024], *tok, *save = NULL, best[8] = "";
	int bestn = 99;

	if (p == NULL)
		p = strstr(line, "Your foot (");
	out[0] = '\0';
	if (p == NULL || (p = strstr(p, "): ")) == NULL)
		return;
	snprintf(buf, sizeof buf, "%s", p + 3);
	buf[strcspn(buf, "|")] = '\0';
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		char rank[8];
		const char *x = strstr(tok, "×");
		int n = x != NULL ? atoi(x + strlen("×")) : 1;

		snprintf(rank, sizeof rank, "%.*s", (int)(x != NULL ? (size_t)(x - tok) : strlen(tok)), tok);
		if (strcmp(rank, "3♣") == 0) {
			snprintf(out, len, "3c");
			return;
		}
		if (strcmp(rank, "JK") == 0 || strncmp(rank, "3", 1) == 0)
			continue;
		if (strcmp(rank, "2") == 0) {
			if (bestn == 99)
				snprintf(best, sizeof best, "2"), bestn = 98;
			continue;
		}
		if (n <= bestn) {
			snprintf(best, sizeof best, "%s", rank);
			bestn = n;
		}
	}
	snprintf(out, len, "%s", best);
}
