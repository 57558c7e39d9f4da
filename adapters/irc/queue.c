/* queue.c: IRC's output queues on lib/outq (lanes, games first, answers replaced): wire lines as its items, lane names case-folded; the token bucket paces the pops (send.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irc.h"

/* One wire line (no CR LF), an outq payload. */
struct irc_qline {
	size_t len;
	char text[];
};

static void
line_drop(void *ctx, void *payload)
{
	struct irc_queue *q = ctx;

	q->lines--;
	free(payload);
}

static struct irc_qline *
line_new(const char *text, size_t len)
{
	struct irc_qline *l = xmalloc(sizeof *l + len + 1);

	l->len = len;
	memcpy(l->text, text, len);
	l->text[len] = '\0';
	return l;
}

void
irc_queue_init(struct irc_queue *q, size_t max_per_target)
{
	memset(q, 0, sizeof *q);
	q->max_per_target = max_per_target;
}

/* The queue, made on first use (irc_queue_clear frees it: init has no free). */
static struct outq *
oq(struct irc_queue *q)
{
	struct outq_limits lim = { .lane_items = q->max_per_target };

	if (q->oq == NULL)
		q->oq = outq_new(&lim, line_drop, q);
	return q->oq;
}

/* The facts of a line in lane (case-folded into name), for lib/outq,
 * which decides its class and what it replaces. */
static struct outq_msg
msg_of(const char *lane, const struct irc_qfacts *f, char *name, size_t namelen, char *keys, size_t keyslen)
{
	irc_parse_casefold(name, namelen, lane);
	snprintf(keys, keyslen, "%016llx", (unsigned long long)f->key);
	return (struct outq_msg){ .lane = name, .target = name, .key = f->key != 0 ? keys : NULL, .asker = f->asker,
	                          .player = f->player, .piece = f->piece, .again = f->again, .stranger = f->stranger,
	                          .room = f->about_room ? name : NULL };
}

int
irc_queue_push_key(struct irc_queue *q, const char *target, uint64_t key, const char *line, size_t len)
{
	return irc_queue_push_facts(q, target, &(struct irc_qfacts){ .key = key }, line, len);
}

int
irc_queue_push_facts(struct irc_queue *q, const char *target, const struct irc_qfacts *f, const char *line,
                     size_t len)
{
	char name[IRC_QUEUE_LANE], keys[24];
	struct outq_msg m = msg_of(target, f, name, sizeof name, keys, sizeof keys);

	struct outq_item *it;

	m.bytes = len;
	m.payload = line_new(line, len);
	if ((it = outq_push(oq(q), &m)) == NULL) {
		free(m.payload);
		return -1;
	}
	if (outq_payload(it) != m.payload) {
		/* a pointer at an answer still waiting: that one says it */
		free(m.payload);
		return 0;
	}
	q->lines++;
	return 0;
}

int
irc_queue_push(struct irc_queue *q, const char *target, const char *line, size_t len)
{
	return irc_queue_push_facts(q, target, &(struct irc_qfacts){ 0 }, line, len);
}

struct rewrite {
	struct irc_queue *q;
	int (*fn)(void *ctx, const char *line, size_t len, char *buf, size_t buflen);
	void *ctx;
};

static int
rewrite_line(void *ctx, void **payload, size_t *bytes, char *target, size_t targetlen)
{
	struct rewrite *rw = ctx;
	struct irc_qline *l = *payload;
	char buf[IRC_MAX_LINE + 1];
	int r = rw->fn(rw->ctx, l->text, l->len, buf, sizeof buf);

	(void)target;
	(void)targetlen;
	if (r > 0) {
		*bytes = (size_t)r < sizeof buf ? (size_t)r : sizeof buf - 1;
		*payload = line_new(buf, *bytes);
		free(l);
	}
	return r;
}

size_t
irc_queue_rewrite(struct irc_queue *q, int (*fn)(void *ctx, const char *line, size_t len, char *buf, size_t buflen),
                  void *ctx)
{
	struct rewrite rw = { q, fn, ctx };

	return q->oq != NULL ? outq_rewrite(q->oq, rewrite_line, &rw) : 0;
}

/* One of outq's counts of target's lane (its name casefolded, as queued). */
static size_t
lane_count(const struct irc_queue *q, const char *target, size_t (*count)(const struct outq *, const char *))
{
	char name[IRC_QUEUE_LANE];

	irc_parse_casefold(name, sizeof name, target);
	return q->oq != NULL ? count(q->oq, name) : 0;
}

size_t
irc_queue_count(const struct irc_queue *q, const char *target)
{
	return lane_count(q, target, outq_count);
}

size_t
irc_queue_count_keep(const struct irc_queue *q, const char *target)
{
	return lane_count(q, target, outq_pending);
}

size_t
irc_queue_count_room(const struct irc_queue *q, const char *target)
{
	return lane_count(q, target, outq_pending_room);
}

size_t
irc_queue_pop(struct irc_queue *q, char *buf, size_t buflen)
{
	struct outq_item *it;
	struct irc_qline *l;
	size_t n;

	if (q->oq == NULL || buflen == 0 || (it = outq_next(q->oq, NULL, NULL)) == NULL)
		return 0;
	l = outq_remove(q->oq, it);
	q->lines--;
	n = l->len < buflen - 1 ? l->len : buflen - 1;
	memcpy(buf, l->text, n);
	buf[n] = '\0';
	free(l);
	return n;
}

size_t
irc_queue_drop_lane(struct irc_queue *q, const char *lane)
{
	char name[IRC_QUEUE_LANE];

	irc_parse_casefold(name, sizeof name, lane);
	return q->oq != NULL ? outq_drop_lane(q->oq, name) : 0;
}

void
irc_queue_clear(struct irc_queue *q)
{
	outq_free(q->oq);
	q->oq = NULL;
	q->lines = 0;
}
