/* address.c: the names the bot answers to on an adapter, and lines that address it ("HandFoot: draw"). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

void
address_set(struct address *ad, const char *name)
{
	const char *colon;

	if (name == NULL || name[0] == '\0')
		return;
	/* A Matrix user id: people write it whole, or only its localpart. */
	if (name[0] == '@' && (colon = strchr(name, ':')) != NULL && colon > name + 1) {
		snprintf(ad->id, sizeof ad->id, "%s", name);
		snprintf(ad->local, sizeof ad->local, "%.*s", (int)(colon - name - 1), name + 1);
		return;
	}
	snprintf(ad->name, sizeof ad->name, "%s", name);
}

/* The text after "NAME:", "NAME," or "NAME " (any case), spaces skipped; NULL if not addressed so.
 * *loose is set when only a space followed the name. */
static const char *
address_after(const char *name, const char *text, bool *loose)
{
	size_t n = strlen(name);
	const char *p;

	if (n == 0 || strncasecmp(text, name, n) != 0)
		return NULL;
	p = text + n;
	*loose = false;
	if (*p == ':' || *p == ',')
		p++;
	else if (*p == ' ' || *p == '\t')
		*loose = true;
	else
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p != '\0' ? p : NULL;
}

const char *
address_strip(const struct address *ad, const char *text, bool *loose)
{
	const char *rest;

	/* The whole id first: "@bot:server: draw" must not read as "@bot" then ":server...". */
	if ((rest = address_after(ad->id, text, loose)) != NULL || (rest = address_after(ad->name, text, loose)) != NULL ||
	    (rest = address_after(ad->local, text, loose)) != NULL)
		return rest;
	/* Matrix clients write a mention of "@bot:server" as "@bot" or "@HandFoot" too. */
	if (text[0] == '@' && ((rest = address_after(ad->name, text + 1, loose)) != NULL ||
	                       (rest = address_after(ad->local, text + 1, loose)) != NULL))
		return rest;
	return NULL;
}
