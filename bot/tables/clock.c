/* clock.c: a table's clock (clock=2m up to clock=7d): a table setting and a room default, the reminder and the takeover derived from it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tables.h"

#define CLOCK_MIN_MS (2 * 60 * 1000LL)
#define CLOCK_MAX_MS (7 * 24 * 3600 * 1000LL)

int
clock_parse(const char *text, int64_t *ms, char *why, size_t whylen)
{
	char *end;
	long long n = strtoll(text, &end, 10);
	int64_t unit;

	switch (*end) {
	case 's': unit = 1000; break;
	case 'm': unit = 60 * 1000; break;
	case 'h': unit = 3600 * 1000LL; break;
	case 'd': unit = 24 * 3600 * 1000LL; break;
	default: unit = 0; break;
	}
	if (end == text || unit == 0 || end[1] != '\0' || n <= 0 || n > 100000 || n * unit < CLOCK_MIN_MS ||
	    n * unit > CLOCK_MAX_MS) {
		snprintf(why, whylen, "the clock is a time from 2m to 7d, as in: clock=2m, clock=3h, clock=1d");
		return -1;
	}
	*ms = n * unit;
	return 0;
}

void
clock_format(int64_t ms, char *buf, size_t len)
{
	if (ms % (24 * 3600 * 1000LL) == 0)
		snprintf(buf, len, "%lldd", (long long)(ms / (24 * 3600 * 1000LL)));
	else if (ms % (3600 * 1000LL) == 0)
		snprintf(buf, len, "%lldh", (long long)(ms / (3600 * 1000LL)));
	else if (ms % (60 * 1000LL) == 0)
		snprintf(buf, len, "%lldm", (long long)(ms / (60 * 1000LL)));
	else
		snprintf(buf, len, "%llds", (long long)(ms / 1000));
}

int
clock_take(char *rules, int64_t *ms, char *why, size_t whylen)
{
	char *p = rules, *word, *end;

	*ms = 0;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		word = p;
		end = word + strcspn(word, " ");
		if ((size_t)(end - word) > 6 && strncasecmp(word, "clock=", 6) == 0) {
			char value[32];

			snprintf(value, sizeof value, "%.*s", (int)(end - word - 6), word + 6);
			if (clock_parse(value, ms, why, whylen) < 0)
				return -1;
			memmove(word, *end == ' ' ? end + 1 : end, strlen(*end == ' ' ? end + 1 : end) + 1);
			continue;
		}
		p = end;
	}
	/* no trailing space left where the word was */
	for (size_t n = strlen(rules); n > 0 && rules[n - 1] == ' '; n--)
		rules[n - 1] = '\0';
	return 0;
}

int64_t
clock_room(struct bot *b, struct adapter *ad, const char *room)
{
	char who[160], buf[32], why[128];
	int64_t ms = 0;

	snprintf(who, sizeof who, "room %s", room);
	if (store_pref_get(b->store, ad->id, who, "clock", buf, sizeof buf) != 0 || clock_parse(buf, &ms, why, sizeof why) < 0)
		return 0;
	return ms;
}

int
clock_room_set(struct bot *b, struct adapter *ad, const char *room, int64_t ms)
{
	char who[160], buf[32];

	snprintf(who, sizeof who, "room %s", room);
	clock_format(ms, buf, sizeof buf);
	return store_pref_set(b->store, ad->id, who, "clock", buf);
}

void
clock_keep(struct bot *b, struct session *s)
{
	char key[48], val[32];

	if (s->clock_ms <= 0 || s->id <= 0)
		return;
	snprintf(key, sizeof key, "clock %lld", (long long)s->id);
	clock_format(s->clock_ms, val, sizeof val);
	store_kv_set(b->store, s->ad->id, key, val);
}

void
clock_load(struct bot *b, struct session *s)
{
	char key[48], val[32], why[128];

	snprintf(key, sizeof key, "clock %lld", (long long)s->id);
	if (store_kv_get(b->store, s->ad->id, key, val, sizeof val) == 0 && clock_parse(val, &s->clock_ms, why, sizeof why) < 0)
		s->clock_ms = 0;
}

void
clock_forget(struct bot *b, struct session *s)
{
	char key[48];

	snprintf(key, sizeof key, "clock %lld", (long long)s->id);
	store_kv_del(b->store, s->ad->id, key);
}

/* A table's clock is the takeover; the reminder comes at two fifths of it
 * (the defaults' 120 s of 300 s).  Without one, the [bot] keys. */
int64_t
clock_remind_ms(const struct bot *b, const struct session *s)
{
	return s->clock_ms > 0 ? s->clock_ms * 2 / 5 : (int64_t)b->cfg->turn_reminder * 1000;
}

int64_t
clock_takeover_ms(const struct bot *b, const struct session *s)
{
	return s->clock_ms > 0 ? s->clock_ms : (int64_t)b->cfg->turn_timeout * 1000;
}
