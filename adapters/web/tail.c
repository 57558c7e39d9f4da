/* tail.c: a view sent whole to a page once, then with only the newest lines of its story (the lines the page lacks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbuf.h"
#include "web.h"

/* The view's story as the bot writes it (docs/WEB.md, "The message format"):
 * ,"story":{"round":R,"from":F,"lines":["...",...]}.  The pattern cannot
 * start inside a string (a quote there is escaped), so the first match is
 * the member.  Read by hand: a view goes to every table's sockets on every
 * move, and a JSON parser's pass over each was slower than sending it whole. */
struct tail_story {
	int round;
	unsigned from, n;
	size_t from_at, from_end;  /* the from number's bytes */
	size_t first_line[WEB_STORY_TAIL + 1]; /* where each of the newest lines starts (a ring) */
};

/* A number at *p (digits), advancing past it: -1 if none. */
static long
tail_number(const char **p, const char *end)
{
	long v = 0;
	const char *q = *p;

	if (q >= end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9' && v < 1000000000; q++)
		v = v * 10 + (*q - '0');
	*p = q;
	return v;
}

/* After the JSON string that starts at p (its opening quote): NULL if it does not end. */
static const char *
tail_string(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* Reads the story's window and where its newest lines start: false if the view has none. */
static bool
tail_read(const char *json, size_t len, struct tail_story *st)
{
	static const char key[] = ",\"story\":{\"round\":", from[] = ",\"from\":", lines[] = ",\"lines\":[";
	const char *end = json + len, *p = memmem(json, len, key, sizeof key - 1);
	long round, f;

	if (p == NULL)
		return false;
	p += sizeof key - 1;
	if ((round = tail_number(&p, end)) < 0 || (size_t)(end - p) < sizeof from - 1 || memcmp(p, from, sizeof from - 1))
		return false;
	p += sizeof from - 1;
	st->from_at = (size_t)(p - json);
	if ((f = tail_number(&p, end)) < 0 || (size_t)(end - p) < sizeof lines - 1 || memcmp(p, lines, sizeof lines - 1))
		return false;
	st->from_end = (size_t)(p - json);
	p += sizeof lines - 1;
	st->round = (int)round;
	st->from = (unsigned)f;
	st->n = 0;
	while (p < end && *p == '"') {
		st->first_line[st->n % (WEB_STORY_TAIL + 1)] = (size_t)(p - json);
		st->n++;
		if ((p = tail_string(p, end)) == NULL)
			return false;
		if (p < end && *p == ',')
			p++;
	}
	return p < end && *p == ']';
}

struct web_blob *
web_view_blob(const char *json, size_t len)
{
	struct web_blob *b = web_blob_new(json, len);
	struct tail_story st;
	struct rbuf t = { 0 };
	size_t at;

	if (!tail_read(json, len, &st))
		return b;
	b->story_round = st.round;
	b->story_from = st.from;
	b->story_upto = st.from + st.n;
	if (st.n <= WEB_STORY_TAIL)
		return b;
	/* the same view, its lines from the WEB_STORY_TAIL-th newest on */
	at = st.first_line[(st.n - WEB_STORY_TAIL) % (WEB_STORY_TAIL + 1)];
	rbuf_addn(&t, json, st.from_at);
	rbuf_printf(&t, "%u", b->story_upto - WEB_STORY_TAIL);
	rbuf_addn(&t, json + st.from_end, strlen(",\"lines\":["));
	rbuf_addn(&t, json + at, len - at);
	b->tail = web_blob_new(t.s, t.len);
	b->tail->story_round = b->story_round;
	b->tail->story_from = b->story_upto - WEB_STORY_TAIL;
	b->tail->story_upto = b->story_upto;
	rbuf_free(&t);
	return b;
}

const struct web_blob *
web_view_for(const struct web_blob *b, int round, unsigned upto)
{
	if (b->tail != NULL && round == b->story_round && upto >= b->tail->story_from && upto <= b->story_upto)
		return b->tail;
	return b;
}
