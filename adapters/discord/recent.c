/* recent.c: a ring of recent events (ref -> user, channel, kind) and a table of shown names, for answering and pinging. */
#include <stdio.h>
#include <string.h>

#include "recent.h"
#include "utf8.h"

void
discord_recent_event(struct discord_recent *r, uint64_t ref, enum discord_recent_kind kind, const char *user,
                     const char *channel)
{
	struct discord_recent_ev *e = &r->ev[r->next_ev];

	if (ref == 0)
		return;
	r->next_ev = (r->next_ev + 1) % DISCORD_RECENT_EVENTS;
	e->ref = ref;
	e->kind = kind;
	snprintf(e->user, sizeof e->user, "%s", user);
	snprintf(e->channel, sizeof e->channel, "%s", channel);
}

const struct discord_recent_ev *
discord_recent_find(const struct discord_recent *r, uint64_t ref)
{
	if (ref == 0)
		return NULL;
	for (size_t i = 0; i < DISCORD_RECENT_EVENTS; i++)
		if (r->ev[i].ref == ref)
			return &r->ev[i];
	return NULL;
}

void
discord_recent_set_name(struct discord_recent *r, const char *user, const char *name)
{
	struct discord_recent_name *slot = NULL;
	size_t n;

	for (size_t i = 0; i < DISCORD_RECENT_NAMES && slot == NULL; i++)
		if (strcmp(r->names[i].user, user) == 0)
			slot = &r->names[i];
	if (slot == NULL) {
		slot = &r->names[r->next_name];
		r->next_name = (r->next_name + 1) % DISCORD_RECENT_NAMES;
	}
	snprintf(slot->user, sizeof slot->user, "%s", user);
	n = utf8_cut(name, strlen(name), DISCORD_RECENT_NAME_MAX);
	memcpy(slot->name, name, n);
	slot->name[n] = '\0';
}

const char *
discord_recent_name(const struct discord_recent *r, const char *user)
{
	if (user[0] == '\0')
		return NULL;
	for (size_t i = 0; i < DISCORD_RECENT_NAMES; i++)
		if (strcmp(r->names[i].user, user) == 0)
			return r->names[i].name;
	return NULL;
}
