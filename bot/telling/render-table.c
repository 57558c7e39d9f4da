/* render-table.c: the table as players see it: the sides' melds, the pile, the stock, the player counts. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "telling.h"
#include "render-parts.h"

/* A player's name as a player span. */
static void
name_add(struct rbuf *b, const char *name)
{
	rbuf_printf(b, ST_PLAYER "%s" ST_END, name);
}

static void
render_meld(struct rbuf *b, const struct hf_meld *m)
{
	const char *kind = NULL, *mark = NULL;
	bool first = true;

	switch (m->kind) {
	case HF_KIND_CLEAN: kind = "clean"; mark = ST_CLEAN; break;
	case HF_KIND_DIRTY: kind = "dirty"; mark = ST_DIRTY; break;
	case HF_KIND_WILD: kind = "wild"; mark = ST_BOLD; break;
	case HF_KIND_SEVENS: kind = "sevens"; mark = ST_RED; break;
	default: break;
	}
	/* a closed book reads in its kind's colour, the cards in it as cards;
	 * a count follows a rank ("A×3"), and the wilds are named one by one
	 * after a "+" ("A×5 +2 2 JK"): "2×3" beside "A×3" would read as a rank */
	if (mark != NULL)
		rbuf_printf(b, "%s[", mark);
	card_run(b, m->rank == HF_JOKER ? HF_NOCARD : m->rank, m->rank == HF_JOKER ? 0 : m->naturals, &first);
	for (int k = 0; k < m->twos + m->jokers; k++) {
		rbuf_add(b, first ? "" : k == 0 ? " +" : " ");
		first = false;
		card_add(b, k < m->twos ? HF_TWO : HF_JOKER);
	}
	if (m->red3s > 0) {
		rbuf_add(b, " +");
		card_add(b, HF_RED3);
		rbuf_printf(b, "×%u", m->red3s);
	}
	if (mark != NULL)
		rbuf_printf(b, " %s]" ST_END, kind);
}

void
render_side_name(struct rbuf *b, const struct hf_view *v, int side, const char *const names[])
{
	bool first = true;
	int i;

	for (i = 0; i < v->nseats; i++)
		if (v->seats[i].side == side) {
			if (!first)
				rbuf_add(b, " & ");
			name_add(b, names[i]);
			first = false;
		}
}

void
render_table(struct rbuf *b, const struct hf_view *v, const char *const names[])
{
	const struct hf_side_view *sv;
	int side, i;

	for (side = 0; side < v->nsides; side++) {
		sv = &v->sides[side];
		if (side > 0)
			rbuf_add(b, "\n");
		rbuf_add(b, ST_BOLD);
		render_side_name(b, v, side, names);
		rbuf_printf(b, ST_END " (score %d): ", sv->score);
		if (!sv->down)
			rbuf_printf(b, "not down (needs %d)", sv->open_min);
		for (i = 0; i < sv->nmelds; i++) {
			if (i > 0)
				rbuf_add(b, ", ");
			render_meld(b, &sv->melds[i]);
		}
		if (sv->red3s > 0)
			rbuf_printf(b, "; red 3s: " ST_RED "%u" ST_END, sv->red3s);
		rbuf_add(b, ";");
		for (i = 0; i < v->nseats; i++)
			if (v->seats[i].side == side) {
				rbuf_add(b, " ");
				name_add(b, names[i]);
				rbuf_printf(b, " %u%s", v->seats[i].hand_count, v->seats[i].in_foot ? " (in foot)" : "+foot");
			}
	}
}

void
render_pile(struct rbuf *b, const struct hf_view *v)
{
	if (v->pile_size == 0) {
		rbuf_add(b, "Pile: empty");
	} else {
		rbuf_add(b, "Pile: ");
		card_add(b, v->pile_top);
		rbuf_printf(b, ", %u card%s%s", v->pile_size, v->pile_size == 1 ? "" : "s",
		            v->pile_frozen ? ", frozen" : "");
	}
	if (v->pile_size > 0 && v->rules != NULL) {
		unsigned blk = v->rules->pickup_blocked_by;
		int top = v->pile_top;
		/* what stops the next player taking it, said before they try */
		if ((top == HF_BLACK3 && (blk & HF_BLOCK_BLACK3)) || (top == HF_RED3 && (blk & HF_BLOCK_RED3)) ||
		    (hf_card_is_wild(top) && (blk & HF_BLOCK_WILD)))
			rbuf_add(b, ", blocked");
		else if (v->pile_size < v->rules->pickup_min_pile)
			rbuf_printf(b, ", too small to take (%u needed)", v->rules->pickup_min_pile);
	}
	rbuf_printf(b, ". Stock: %u.", v->stock);
}

void
render_pile_short(struct rbuf *b, const struct hf_view *v)
{
	if (v->pile_size == 0) {
		rbuf_add(b, "pile empty");
	} else {
		rbuf_add(b, "pile ");
		card_add(b, v->pile_top);
		rbuf_printf(b, ", %u card%s%s", v->pile_size, v->pile_size == 1 ? "" : "s", v->pile_frozen ? ", frozen" : "");
		if (v->rules != NULL) {
			unsigned blk = v->rules->pickup_blocked_by;
			int top = v->pile_top;

			if ((top == HF_BLACK3 && (blk & HF_BLOCK_BLACK3)) || (top == HF_RED3 && (blk & HF_BLOCK_RED3)) ||
			    (hf_card_is_wild(top) && (blk & HF_BLOCK_WILD)))
				rbuf_add(b, ", blocked");
		}
	}
	rbuf_printf(b, " · stock %u", v->stock);
}

void
render_counts(struct rbuf *b, const struct hf_rules *r)
{
	char counts[64];

	hf_rules_counts(r, counts, sizeof counts);
	rbuf_add(b, counts);
}
