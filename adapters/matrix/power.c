/* power.c: each room's moderators, from its m.room.power_levels, kept across restarts (a resumed /sync tells only changes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "find.h"
#include "matrix.h"

#define POWER_KEY   "power/"
#define CREATOR_KEY "creators/"

static struct matrix_power *
power_find(struct matrix_client *c, const char *room)
{
	return FIND_STR_PTR(c->powers, c->npowers, room, room);
}

static void
power_clear(struct matrix_power *p)
{
	matrix_strlist_free(p->mods, p->nmods);
	p->mods = NULL;
	p->nmods = 0;
}

static void
creators_clear(struct matrix_power *p)
{
	matrix_strlist_free(p->creators, p->ncreators);
	p->creators = NULL;
	p->ncreators = 0;
}

/* room's entry, made if new; NULL past the cap. */
static struct matrix_power *
power_entry(struct matrix_client *c, const char *room)
{
	struct matrix_power *p = power_find(c, room);

	if (p == NULL) {
		/* as many rooms as the account may be in: a hostile server's list of
		 * rooms beyond that gets no moderators, which only owners and votes miss */
		if (c->npowers >= (size_t)c->cfg.max_rooms + 64)
			return NULL;
		c->powers = xreallocarray(c->powers, c->npowers + 1, sizeof *c->powers);
		p = &c->powers[c->npowers++];
		memset(p, 0, sizeof *p);
		p->room = xstrdup(room);
	}
	return p;
}

/* Sets room's creators: "P id id...", P 1 if they have infinite power. */
static void
creators_put(struct matrix_client *c, const char *room, const char *value, bool persist)
{
	struct matrix_power *p = power_entry(c, room);
	char *copy, *tok, *save = NULL, key[MATRIX_MAX_ID + sizeof CREATOR_KEY];

	if (p == NULL || (value[0] != '0' && value[0] != '1'))
		return;
	creators_clear(p);
	p->privileged = value[0] == '1';
	copy = xstrdup(value + 1);
	for (tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		if (p->ncreators < MATRIX_POWER_MODS && matrix_text_id_ok(tok, '@'))
			matrix_strlist_add(&p->creators, &p->ncreators, tok);
	free(copy);
	if (persist) {
		snprintf(key, sizeof key, CREATOR_KEY "%s", room);
		matrix_client_set(c, key, value);
	}
}

void
matrix_power_creators(struct matrix_client *c, const struct matrix_item *it)
{
	struct rbuf v = { 0 };

	if (it->room == NULL || it->user == NULL)
		return;
	rbuf_printf(&v, "%c %s %s", it->everyone ? '1' : '0', it->user, it->text != NULL ? it->text : "");
	creators_put(c, it->room, v.s, true);
	rbuf_free(&v);
}

/* Sets room's moderators: list of ids, space separated; everyone: each member is one;
 * widget: we may set the room widget.  Stored as "1" or "0" (everyone), "w" if
 * widget, then the ids. */
static void
power_put(struct matrix_client *c, const char *room, bool everyone, bool widget, const char *list, bool persist)
{
	struct matrix_power *p = power_entry(c, room);
	char *copy, *tok, *save = NULL, key[MATRIX_MAX_ID + sizeof POWER_KEY];
	struct rbuf v = { 0 };

	if (p == NULL)
		return;
	power_clear(p);
	p->has_levels = true;
	p->everyone = everyone;
	p->widget = widget;
	rbuf_add(&v, everyone ? "1" : "0");
	rbuf_add(&v, widget ? "w" : "");
	copy = xstrdup(list);
	for (tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		if (p->nmods < MATRIX_POWER_MODS && matrix_text_id_ok(tok, '@') && !matrix_strlist_has(p->mods, p->nmods, tok)) {
			matrix_strlist_add(&p->mods, &p->nmods, tok);
			rbuf_printf(&v, " %s", tok);
		}
	free(copy);
	if (persist) {
		snprintf(key, sizeof key, POWER_KEY "%s", room);
		matrix_client_set(c, key, v.s);
	}
	rbuf_free(&v);
}

void
matrix_power_set(struct matrix_client *c, const struct matrix_item *it)
{
	if (it->room != NULL && it->text != NULL)
		power_put(c, it->room, it->everyone, it->widget, it->text, true);
}

struct matrix_power *
matrix_power_find(struct matrix_client *c, const char *room)
{
	return power_find(c, room);
}

struct matrix_power *
matrix_power_widget_due(struct matrix_client *c)
{
	for (size_t i = 0; i < c->npowers; i++)
		if (c->powers[i].widget_due && !c->powers[i].widget_flying)
			return &c->powers[i];
	return NULL;
}

void
matrix_power_forget(struct matrix_client *c, const char *room)
{
	struct matrix_power *p = power_find(c, room);
	char key[MATRIX_MAX_ID + sizeof POWER_KEY];

	if (p == NULL)
		return;
	power_clear(p);
	creators_clear(p);
	free(p->widget_url);
	free(p->room);
	*p = c->powers[--c->npowers];
	snprintf(key, sizeof key, POWER_KEY "%s", room);
	matrix_client_del(c, key);
	snprintf(key, sizeof key, CREATOR_KEY "%s", room);
	matrix_client_del(c, key);
}

static void
power_restore_one(void *ctx, const char *key, const char *value)
{
	const char *room = key + strlen(POWER_KEY);
	bool widget = value[0] != '\0' && value[1] == 'w';
	const char *list = value + 1 + widget;

	if (matrix_text_id_ok(room, '!') && (value[0] == '0' || value[0] == '1') && (list[0] == '\0' || list[0] == ' '))
		power_put(ctx, room, value[0] == '1', widget, list, false);
}

static void
creators_restore_one(void *ctx, const char *key, const char *value)
{
	const char *room = key + strlen(CREATOR_KEY);

	if (matrix_text_id_ok(room, '!'))
		creators_put(ctx, room, value, false);
}

void
matrix_power_restore(struct matrix_client *c)
{
	if (c->host.store.each != NULL) {
		c->host.store.each(c->host.store.ctx, POWER_KEY, power_restore_one, c);
		c->host.store.each(c->host.store.ctx, CREATOR_KEY, creators_restore_one, c);
	}
}

bool
matrix_power_is_moderator(struct matrix_client *c, const char *room, const char *user)
{
	struct matrix_power *p;

	if (room == NULL || user == NULL || (p = power_find(c, room)) == NULL)
		return false;
	/* a creator: of a room version 12 on (infinite power, in no users
	 * list), or of a room without power levels (the spec's default: 100) */
	if (matrix_strlist_has(p->creators, p->ncreators, user) && (p->privileged || !p->has_levels))
		return true;
	return (p->has_levels && p->everyone) || matrix_strlist_has(p->mods, p->nmods, user);
}

void
matrix_power_free(struct matrix_client *c)
{
	for (size_t i = 0; i < c->npowers; i++) {
		power_clear(&c->powers[i]);
		creators_clear(&c->powers[i]);
		free(c->powers[i].widget_url);
		free(c->powers[i].room);
	}
	free(c->powers);
	c->powers = NULL;
	c->npowers = 0;
}
