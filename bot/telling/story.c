/* story.c: the round's story as the room was told it, in plain lines, for the pages that draw a
 * table (view.c): kept in the store ("story ID") so that a restart does not lose it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telling.h"
#include "style.h"

/* What one table keeps: the newest lines of its round, within both bounds (a round of six
 * seats is told in a few hundred lines at most; a page shows the newest). */
#define STORY_MAX_LINES 150
#define STORY_MAX_BYTES 24576

static void
story_reset(struct story *st, int round)
{
	rbuf_reset(&st->lines);
	st->n = 0;
	st->first = 0;
	st->round = round;
}

/* Drops the oldest lines past the bounds: counted in first, so a page knows which it has. */
static void
story_trim(struct story *st)
{
	while (st->n > 0 && (st->n > STORY_MAX_LINES || st->lines.len > STORY_MAX_BYTES)) {
		const char *nl = memchr(st->lines.s, '\n', st->lines.len);
		size_t cut = nl != NULL ? (size_t)(nl - st->lines.s) + 1 : st->lines.len;

		memmove(st->lines.s, st->lines.s + cut, st->lines.len - cut);
		st->lines.len -= cut;
		st->lines.s[st->lines.len] = '\0';
		st->n--;
		st->first++;
	}
}

static void
story_key(const struct session *s, char *key, size_t len)
{
	snprintf(key, len, "story %lld", (long long)s->id);
}

static void
story_save(struct bot *b, const struct session *s)
{
	struct rbuf val = { 0 };
	char key[48];

	if (s->id <= 0)
		return;
	story_key(s, key, sizeof key);
	rbuf_printf(&val, "%d %u\n", s->story.round, s->story.first);
	rbuf_addn(&val, s->story.lines.s != NULL ? s->story.lines.s : "", s->story.lines.len);
	if (store_kv_set(b->store, s->ad->id, key, val.s) < 0)
		log_msg(LOG_LVL_WARNING, "table %lld: its story could not be kept", (long long)s->id);
	rbuf_free(&val);
}

void
story_told(struct bot *b, struct session *s, const char *styled)
{
	struct story *st = &s->story;
	struct rbuf plain = { 0 };
	const char *p, *nl;
	int round;

	if (s->g == NULL)
		return;
	round = hf_game_round(s->g);
	if (round != st->round)
		story_reset(st, round);   /* a late spectator sees the round so far, not the game */
	style_plain(&plain, styled, strlen(styled), bot_adapter_of(s->ad)->prefix);
	for (p = plain.s != NULL ? plain.s : ""; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl == p)
			continue;
		rbuf_addn(&st->lines, p, (size_t)(nl - p));
		rbuf_add(&st->lines, "\n");
		st->n++;
	}
	rbuf_free(&plain);
	story_trim(st);
	story_save(b, s);
}

void
story_load(struct bot *b, struct session *s)
{
	struct story *st = &s->story;
	char key[48], *buf = xmalloc(STORY_MAX_BYTES + 64), *p, *end;
	long round;
	unsigned long first;

	story_key(s, key, sizeof key);
	story_reset(st, 0);
	if (store_kv_get(b->store, s->ad->id, key, buf, STORY_MAX_BYTES + 64) == 0) {
		round = strtol(buf, &p, 10);
		first = strtoul(p, &end, 10);
		if (end != p && *end == '\n' && round > 0 && round < 1000) {
			st->round = (int)round;
			st->first = (unsigned)first;
			for (p = end + 1; *p != '\0' && (end = strchr(p, '\n')) != NULL; p = end + 1) {
				rbuf_addn(&st->lines, p, (size_t)(end - p) + 1);
				st->n++;
			}
			story_trim(st);
		}
	}
	free(buf);
}

void
story_forget(struct bot *b, struct session *s)
{
	char key[48];

	story_key(s, key, sizeof key);
	store_kv_del(b->store, s->ad->id, key);
}

void
story_free(struct session *s)
{
	rbuf_free(&s->story.lines);
	memset(&s->story, 0, sizeof s->story);
}
