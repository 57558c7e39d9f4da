/* ai-hint.c: a hint on request: what the hard player would do with this seat's turn, as one line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"

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

/* Asking the partners is a step only when the side could go out now: its
 * canastas, its partners' feet.  Otherwise the hard player's ask (to meld
 * after a yes) is a step the table refuses; the hint discards instead. */
static bool
ask_ready(const struct hf_view *v)
{
	struct ai_pos p;

	ai_pos_init(&p, v);
	return ai_pos_melds_ready(&p) && ai_pos_partners_ready(&p);
}

void
hf_ai_hint_plan(const struct hf_view *v, uint32_t budget, uint64_t seed, struct hf_hint *h)
{
	struct hf_view *cur = NULL;
	struct hf_game *world = NULL;
	struct hf_action a;
	char why[HF_ERRLEN];
	uint64_t rng = seed;
	bool out, foot;
	int step;

	memset(h, 0, sizeof *h);
	if (v->rules->hints_off) {
		h->kind = HF_HINT_OFF;
		return;
	}
	if (!may_act(v)) {
		h->kind = HF_HINT_WAIT;
		return;
	}
	h->kind = HF_HINT_NONE;
	cur = malloc(sizeof *cur);
	world = hf_game_sample(v, seed);
	if (!cur || !world)
		goto done;
	*cur = *v;
	for (step = 0; step < HF_HINT_STEPS; step++) {
		ai_hard_choose(cur, budget, &rng, &a);
		if (a.type == HF_ACT_OUT && cur->phase == HF_PHASE_PLAY && !ask_ready(cur)) {
			struct ai_pos p;

			ai_pos_init(&p, cur);
			memset(&a, 0, sizeof a);
			a.type = HF_ACT_DISCARD;
			a.card = (uint8_t)ai_discard_choose(&p, &rng, true);
		}
		/* played in a world dealt from the view: the seat's next view is the
		 * same in every world, and a step the engine refuses is never told */
		if (hf_apply(world, cur->seat, &a, why, sizeof why) != HF_OK)
			break;
		h->steps[h->nsteps++] = a;
		h->kind = HF_HINT_PLAN;
		outcome(world, cur->seat, &out, &foot);
		if (out) {
			h->out = true;
			break;
		}
		if (a.type == HF_ACT_DRAW || a.type == HF_ACT_PICKUP || a.type == HF_ACT_OUT) {
			h->again = true;   /* what comes next depends on cards or answers not seen yet */
			break;
		}
		if (a.type == HF_ACT_DISCARD || a.type == HF_ACT_YES || a.type == HF_ACT_NO)
			break;
		if (foot) {
			h->foot = h->again = true;
			break;
		}
		hf_game_view(world, cur->seat, cur);
	}
	if (h->kind == HF_HINT_PLAN && h->nsteps == HF_HINT_STEPS && !h->out)
		h->again = true;
done:
	hf_game_free(world);
	free(cur);
}

size_t
hf_ai_hint(const struct hf_view *v, uint32_t budget, uint64_t seed, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };
	struct hf_hint h;
	int i;

	if (len)
		buf[0] = '\0';
	hf_ai_hint_plan(v, budget, seed, &h);
	switch (h.kind) {
	case HF_HINT_OFF:
		put(&l, "hints are off at this table (house rule hints=no)");
		return l.n;
	case HF_HINT_WAIT:
		put(&l, "hint: nothing to do now: wait for your turn");
		return l.n;
	case HF_HINT_NONE:
		put(&l, "hint: no hint now");
		return l.n;
	case HF_HINT_PLAN:
		break;
	}
	put(&l, "hint: ");
	for (i = 0; i < h.nsteps; i++) {
		const struct hf_action *a = &h.steps[i];

		if (i)
			put(&l, ", ");
		switch (a->type) {
		case HF_ACT_DRAW:
			put(&l, "draw");
			break;
		case HF_ACT_PICKUP:
			put(&l, "take the pile");
			if (a->ngroups && !a->groups[0].target && shown(&a->groups[0])) {
				put(&l, " with ");
				put_groups(&l, &(struct hf_action){ .ngroups = 1, .groups = { a->groups[0] } }, 0);
			}
			if (a->ngroups > 1) {
				put(&l, ", meld ");
				put_groups(&l, a, 1);
			}
			break;
		case HF_ACT_OUT:
			put(&l, "ask your partners to go out (out)");
			break;
		case HF_ACT_YES:
		case HF_ACT_NO:
			put(&l, "answer %s", a->type == HF_ACT_YES ? "yes" : "no");
			break;
		case HF_ACT_DISCARD:
			put(&l, "discard %s", hf_card_name(a->card));
			break;
		case HF_ACT_MELD:
			put(&l, "meld ");
			put_groups(&l, a, 0);
			break;
		default:
			break;
		}
	}
	if (h.out)
		put(&l, " to go out");
	else if (h.foot)
		put(&l, ", then play your foot");
	if (h.again)
		put(&l, " (then ask again)");
	return l.n;
}
