/* track.c: what everyone at the table knows of each hand: the cards a seat took from the pile and has not played since, and what its plays gave away. */
#include <string.h>

#include "game-internal.h"

/*
 * Every card in the discard pile went there face up, so a seat that takes
 * the pile takes cards the whole table saw.  They stay known while in that
 * hand; a card of the same kind melded, put under a book, laid out or
 * thrown may have been the known one, so it no longer counts as known (the
 * table cannot tell which of two 9s was played).
 */

/*
 * What a seat's plays give away, as the table reads them (it guesses, so a
 * look-ahead takes it as likely, not certain): a seat that throws a card
 * holds no other of its kind, and a seat that draws when a natural pair of
 * the top card would have taken the pile holds at most one.  A pickup
 * changes the hand too much for either to stand; so does a new round.
 */
static void guess(struct seat_state *ss, int card, int most)
{
	if (card > HF_NOCARD && card < HF_NCARD && (!ss->guessed[card] || ss->guessed[card] > most + 1))
		ss->guessed[card] = (uint8_t)(most + 1);
}

/* Before a draw: the top card a natural pair of would have taken the pile (HF_NOCARD: none). */
int track_declined(const struct hf_game *g, int seat)
{
	int top = g->npile ? g->pile[g->npile - 1] : HF_NOCARD;

	if (!pickup_may(g, seat) || !hf_card_is_natural(top))
		return HF_NOCARD;
	return g->rules.pickup_need == HF_NEED_NATURAL_PAIR || pickup_frozen(g) ? top : HF_NOCARD;
}

/* Before a pickup: the cards it will take from the top of the pile. */
void track_taken(const struct hf_game *g, uint8_t taken[HF_NCARD])
{
	int n = g->rules.pickup_count, i;

	memset(taken, 0, HF_NCARD);
	if (n == 0 || n > g->npile)
		n = g->npile;
	for (i = 0; i < n; i++)
		taken[g->pile[g->npile - 1 - i]]++;
}

static void played(struct seat_state *ss, int card, int n)
{
	if (card <= HF_NOCARD || card >= HF_NCARD || n <= 0)
		return;
	ss->known[card] = (uint8_t)(ss->known[card] > n ? ss->known[card] - n : 0);
}

static void add_taken(struct seat_state *ss, const uint8_t taken[HF_NCARD], int top, bool top_melded)
{
	for (int k = 1; k < HF_NCARD; k++)
		ss->known[k] = (uint8_t)(ss->known[k] + taken[k] - (top_melded && k == top));
}

/*
 * After action a of seat succeeded: its events say what the table saw.  A
 * pickup's melds come from the hand as it was before the pile (the top card
 * aside, melded with the first group where the rules say so); the pile's
 * other cards join the hand after them.
 */
void track_action(struct hf_game *g, int seat, const struct hf_action *a, const uint8_t taken[HF_NCARD],
                  int declined)
{
	struct seat_state *ss;
	bool pending = false, top_melded = false, top_in_meld = false;
	int i, k, top = 0;

	for (i = 0; i < g->nevents; i++) {
		const struct hf_event *e = &g->events[i];

		if (pending && e->type != HF_EV_MELD && e->type != HF_EV_CLOSED) {
			add_taken(&g->seats[seat], taken, top, top_melded);
			pending = false;
		}
		if (e->type == HF_EV_DEAL) {
			/* a new round (the action ended the last): nothing is known of the new hands */
			for (k = 0; k < HF_MAX_SEATS; k++) {
				memset(g->seats[k].known, 0, sizeof g->seats[k].known);
				memset(g->seats[k].guessed, 0, sizeof g->seats[k].guessed);
			}
			return;
		}
		if (e->seat < 0 || e->seat >= g->nseats)
			continue;
		ss = &g->seats[e->seat];
		switch (e->type) {
		case HF_EV_PICKUP:
			memset(ss->guessed, 0, sizeof ss->guessed);
			pending = e->seat == seat;
			top = e->card;
			top_melded = (a->ngroups > 0 && cards_total(a->groups[0].count) > 0) ||
			             g->rules.pickup_need == HF_NEED_PLAY_TOP;
			top_in_meld = pending && top_melded;
			break;
		case HF_EV_MELD:
			/* the first group of a pickup holds the top card, which came from the pile */
			for (k = 1; k < HF_NCARD; k++)
				played(ss, k, e->group.count[k] - (top_in_meld && k == top));
			top_in_meld = false;
			break;
		case HF_EV_UNDER:
		case HF_EV_RED3:
			played(ss, HF_RED3, e->count);
			break;
		case HF_EV_DISCARD:
			played(ss, e->card, 1);
			if (hf_card_is_natural(e->card))
				guess(ss, e->card, 0);
			break;
		case HF_EV_DRAW:
			guess(ss, declined, 1);
			break;
		default:
			break;
		}
	}
	if (pending)
		add_taken(&g->seats[seat], taken, top, top_melded);
	/* a full event list has dropped some: never claim more than a hand holds */
	if (g->nevents < HF_MAX_EVENTS)
		return;
	for (k = 0; k < g->nseats; k++)
		for (i = 1; i < HF_NCARD; i++)
			if (g->seats[k].known[i] > g->seats[k].hand[i])
				g->seats[k].known[i] = g->seats[k].hand[i];
}
