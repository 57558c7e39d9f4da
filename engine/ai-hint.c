/* ai-hint.c: a hint on request: what the hard player would do with this seat's turn, as one line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"

/* Steps of one turn a hint spells out (melds, then the discard, is three or four). */
#define HINT_STEPS 8

struct line {
	char  *buf;
	size_t len, n;
};

static void put(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(l->buf + (l->n < l->len ? l->n : l->len), l->n < l->len ? l->len - l->n : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n += (size_t)k;
}

/* "9 9 2, K K K": groups from..to of a, as the meld command writes them. */
static void
put_groups(struct line *l, const struct hf_action *a, int from)
{
	struct hf_action m;
	char text[512];
	int i;

	memset(&m, 0, sizeof m);
	m.type = HF_ACT_MELD;
	for (i = from; i < a->ngroups; i++)
		m.groups[m.ngroups++] = a->groups[i];
	hf_action_format(&m, text, sizeof text);
	put(l, "%s", strncmp(text, "meld ", 5) ? text : text + 5);
}

static bool
shown(const struct hf_group *g)
{
	int c;

	for (c = 1; c < HF_NCARD; c++)
		if (g->count[c])
			return true;
	return false;
}

/* The seat may act now (its turn, or a partner's ask to answer). */
static bool
may_act(const struct hf_view *v)
{
	if (v->seat < 0 || v->phase == HF_PHASE_OVER)
		return false;
	if (v->phase == HF_PHASE_ASK)
		return v->seat != v->asker && v->seats[v->seat].side == v->seats[v->asker].side &&
		       v->seats[v->seat].answer < 0;
	return v->turn == v->seat;
}

/* What the action did in the world: the round ended (went out), or the foot came up. */
static void
outcome(const struct hf_game *g, int seat, bool *out, bool *foot)
{
	const struct hf_event *ev;
	size_t n, i;

	*out = *foot = false;
	ev = hf_game_events(g, &n);
	for (i = 0; i < n; i++) {
		*out |= ev[i].type == HF_EV_OUT && ev[i].seat == seat;
		*foot |= ev[i].type == HF_EV_FOOT && ev[i].seat == seat;
	}
}

size_t
hf_ai_hint(const struct hf_view *v, uint32_t budget, uint64_t seed, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };
	struct hf_view *cur = NULL;
	struct hf_game *world = NULL;
	struct hf_action a;
	char why[HF_ERRLEN];
	uint64_t rng = seed;
	bool out, foot, more = false;
	int step;

	if (len)
		buf[0] = '\0';
	if (v->rules->hints_off) {
		put(&l, "hints are off at this table (house rule hints=no)");
		return l.n;
	}
	if (!may_act(v)) {
		put(&l, "hint: nothing to do now: wait for your turn");
		return l.n;
	}
	cur = malloc(sizeof *cur);
	world = hf_game_sample(v, seed);
	if (!cur || !world) {
		put(&l, "hint: no hint now (out of memory)");
		goto done;
	}
	*cur = *v;
	put(&l, "hint: ");
	for (step = 0; step < HINT_STEPS; step++) {
		ai_hard_choose(cur, budget, &rng, &a);
		if (step)
			put(&l, ", ");
		switch (a.type) {
		case HF_ACT_DRAW:
			put(&l, "draw");
			more = true;
			goto done;
		case HF_ACT_PICKUP:
			put(&l, "take the pile");
			if (a.ngroups && !a.groups[0].target && shown(&a.groups[0])) {
				put(&l, " with ");
				put_groups(&l, &(struct hf_action){ .ngroups = 1, .groups = { a.groups[0] } }, 0);
			}
			if (a.ngroups > 1) {
				put(&l, ", meld ");
				put_groups(&l, &a, 1);
			}
			more = true;
			goto done;
		case HF_ACT_OUT:
			put(&l, "ask your partners to go out (out)");
			goto done;
		case HF_ACT_YES:
		case HF_ACT_NO:
			put(&l, "answer %s", a.type == HF_ACT_YES ? "yes" : "no");
			goto done;
		case HF_ACT_DISCARD:
			put(&l, "discard %s", hf_card_name(a.card));
			break;
		case HF_ACT_MELD:
			put(&l, "meld ");
			put_groups(&l, &a, 0);
			break;
		default:
			goto done;
		}
		/* play it in a world dealt from the view: the seat's next view is the same in every world */
		if (hf_apply(world, cur->seat, &a, why, sizeof why) != HF_OK)
			goto done;
		outcome(world, cur->seat, &out, &foot);
		if (out) {
			put(&l, " to go out");
			goto done;
		}
		if (a.type == HF_ACT_DISCARD)
			goto done;
		if (foot) {
			put(&l, ", then play your foot");
			more = true;
			goto done;
		}
		hf_game_view(world, cur->seat, cur);
	}
done:
	if (more)
		put(&l, " (then ask again)");
	hf_game_free(world);
	free(cur);
	return l.n;
}
