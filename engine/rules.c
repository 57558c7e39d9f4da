/* rules.c: the five presets as data, table checks and the human description of a rule set. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

#define B(k) (1u << (k))
#define VALUES(jk, ace, b3, r3) { [HF_RED3] = (r3), [HF_TWO] = 20, [HF_BLACK3] = (b3), \
	[HF_FOUR] = 5, [HF_FIVE] = 5, [HF_SIX] = 5, [HF_SEVEN] = 5, [HF_EIGHT] = 10, [HF_NINE] = 10, \
	[HF_TEN] = 10, [HF_JACK] = 10, [HF_QUEEN] = 10, [HF_KING] = 10, [HF_ACE] = (ace), [HF_JOKER] = (jk) }

static const struct hf_rules classic = {
	.name = "classic", .players_min = 4, .players_max = 6,
	.sides_allowed = { [4] = B(2), [6] = B(2) }, .sides_default = { [4] = 2, [6] = 2 },
	.decks = { [4] = 6, [6] = 6 }, .hand_size = 11, .foot_size = 11,
	.deal_bonus = HF_BONUS_DEALER_SIDE, .deal_bonus_points = 100,
	.first_discard = HF_FIRST_UNTIL_NATURAL, .first_player = HF_START_LEFT_OF_DEALER,
	.value = VALUES(50, 15, 0, 100),
	.red3_mode = HF_RED3_BONUS, .red3_bonus = 100,
	.red3_replace_deal = true, .red3_replace_draw = true, .red3_replace_foot = true,
	.red3_at_first_turn = true,
	.pickup_count = 6, .pickup_min_pile = 1, .pickup_blocked_by = HF_BLOCK_BLACK3,
	.pickup_need = HF_NEED_PLAY_TOP, .freeze_on_two = true,
	.open_by = HF_OPEN_BY_ROUND, .open_min = { 60, 90, 120, 150 },
	.wild_limit = HF_WILDS_FEWER, .wild_melds = true, .add_after_close = true, .canasta_size = 7,
	.foot_when = HF_FOOT_HAND_EMPTY, .need_clean = 2, .need_dirty = 3, .need_total = 5,
	.partner_foot = HF_PARTNERS_IN_FOOT, .ask_partner = true,
	.stock_out = HF_STOCK_OUT_SCORE,
	.clean_bonus = 500, .dirty_bonus = 300, .wild_bonus = 1500, .out_bonus = 100,
	.partners_dismissed = true, .caught_counts_foot = true, .rounds = 4,
};

static const struct hf_rules sevens = {
	.name = "sevens", .players_min = 2, .players_max = 6,
	.sides_allowed = { [2] = B(2), [3] = B(3), [4] = B(2) | B(4), [6] = B(2) | B(3) | B(6) },
	.sides_default = { [2] = 2, [3] = 3, [4] = 2, [6] = 2 },
	.decks = { [2] = 6, [3] = 6, [4] = 6, [6] = 7 }, .hand_size = 15, .foot_size = 13,
	.first_discard = HF_FIRST_TOP, .first_player = HF_START_RED3_HOLDER,
	.value = VALUES(50, 20, 100, 0),
	.red3_mode = HF_RED3_BONUS, .red3_bonus = 100,
	.red3_replace_deal = true, .red3_replace_draw = true,
	.pickup_count = 0, .pickup_min_pile = 1, .pickup_blocked_by = HF_BLOCK_BLACK3 | HF_BLOCK_UNDER_WILD,
	.pickup_needs_down = true, .pickup_need = HF_NEED_NATURAL_PAIR, .discard_joker_ok = true,
	.open_by = HF_OPEN_BY_SCORE, .open_min = { 50, 90, 120, 120 }, .open_at = { 0, 15000, 30000, 30000 },
	.wild_limit = HF_WILDS_FEWER, .wild_melds = true, .canasta_size = 7,
	.foot_when = HF_FOOT_FIRST_CANASTA,
	.need_clean = 1, .need_dirty = 1, .need_wild = 1, .need_sevens = 1, .need_total = 4,
	.partner_foot = HF_PARTNERS_ANY, .ask_partner = true, .final_discard_required = true,
	.stock_out = HF_STOCK_OUT_SCORE,
	.clean_bonus = 500, .dirty_bonus = 300, .wild_bonus = 2500, .sevens_bonus = 5000, .out_bonus = 200,
	.target = 50000, .ask_before_meld = true,
};

static const struct hf_rules family = {
	.name = "family", .players_min = 2, .players_max = 6,
	.sides_allowed = { [2] = B(2), [3] = B(3), [4] = B(2) | B(4), [5] = B(5), [6] = B(3) | B(6) },
	.sides_default = { [2] = 2, [3] = 3, [4] = 2, [5] = 5, [6] = 3 },
	.decks = { [2] = 3, [3] = 4, [4] = 5, [5] = 6, [6] = 7 }, .hand_size = 13, .foot_size = 13,
	.deal_bonus = HF_BONUS_EACH_PLAYER, .deal_bonus_points = 100,
	.first_discard = HF_FIRST_TOP, .first_player = HF_START_LEFT_OF_DEALER,
	.value = VALUES(20, 20, 5, 5),
	.red3_mode = HF_RED3_BOOK, .red3_bonus = 100, .red3_caught = 500, .black3_book = true,
	.pickup_count = 0, .pickup_min_pile = 1, .pickup_blocked_by = HF_BLOCK_BLACK3 | HF_BLOCK_RED3,
	.pickup_need = HF_NEED_PLAY_TOP, .discard_joker_ok = true, .discard_red3_ok = true,
	.open_by = HF_OPEN_BY_ROUND, .open_min = { 60, 90, 120, 150 },
	.wild_limit = HF_WILDS_ANY, .wild_melds = true, .canasta_size = 7,
	.foot_when = HF_FOOT_HAND_EMPTY, .need_total = 1, .need_total_plus_players = true,
	.partner_foot = HF_PARTNERS_ANY, .stock_out = HF_STOCK_OUT_SCORE,
	.clean_bonus = 500, .dirty_bonus = 300, .wild_bonus = 2500, .out_bonus = 100,
	.rounds = 4,
};

static const struct hf_rules pcio = {
	.name = "pcio", .players_min = 4, .players_max = 4,
	.sides_allowed = { [4] = B(2) }, .sides_default = { [4] = 2 },
	.decks = { [4] = 5 }, .hand_size = 13, .foot_size = 13,
	.first_discard = HF_FIRST_RESHUFFLE_SPECIAL, .first_player = HF_START_DEALER,
	.value = VALUES(50, 20, 5, 0),
	.red3_mode = HF_RED3_BONUS, .red3_bonus = 100,
	.red3_replace_deal = true, .red3_replace_draw = true, .red3_replace_foot = true,
	.red3_at_first_turn = true,
	.pickup_count = 7, .pickup_min_pile = 1, .pickup_blocked_by = HF_BLOCK_BLACK3,
	.pickup_need = HF_NEED_NATURAL_PAIR, .discard_joker_ok = true,
	.open_by = HF_OPEN_BY_ROUND, .open_min = { 50, 90, 120, 150 },
	.wild_limit = HF_WILDS_HALF, .wild_melds = true, .canasta_size = 7,
	.foot_when = HF_FOOT_HAND_EMPTY, .need_clean = 2, .need_dirty = 2, .need_wild = 1, .need_total = 5,
	.partner_foot = HF_PARTNERS_PLAYED_FOOT, .ask_partner = true, .out_melds_rest = true,
	.stock_out = HF_STOCK_OUT_SCORE,
	.clean_bonus = 500, .dirty_bonus = 300, .wild_bonus = 1500, .out_bonus = 100,
	.rounds = 4,
};

static const struct hf_rules duel = {
	.name = "duel", .players_min = 2, .players_max = 2,
	.sides_allowed = { [2] = B(2) }, .sides_default = { [2] = 2 },
	.decks = { [2] = 3 }, .hand_size = 11, .foot_size = 11,
	.first_discard = HF_FIRST_TOP, .first_player = HF_START_BEHIND,
	.value = VALUES(50, 20, 5, 5),
	.red3_mode = HF_RED3_PLAIN,
	.pickup_count = 7, .pickup_min_pile = 7,
	.pickup_blocked_by = HF_BLOCK_BLACK3 | HF_BLOCK_RED3 | HF_BLOCK_WILD,
	.pickup_need = HF_NEED_NOTHING, .discard_joker_ok = true, .discard_red3_ok = true,
	.open_by = HF_OPEN_BY_SCORE, .open_min = { 50, 90, 120, 120 }, .open_at = { 0, 3001, 6001, 6001 },
	.wild_limit = HF_WILDS_EQUAL, .add_after_close = true, .opening_wild_pair_only = true,
	.canasta_size = 7,
	.foot_when = HF_FOOT_HAND_EMPTY, .need_clean = 1, .need_dirty = 1,
	.partner_foot = HF_PARTNERS_ANY, .short_out_allowed = true, .short_out_penalty = 500,
	.stock_out = HF_STOCK_OUT_TURN_PILE,
	.clean_bonus = 500, .dirty_bonus = 300, .out_bonus = 100,
	.caught_counts_foot = true, .target = 10000,
};

static const struct hf_rules *const presets[] = { &classic, &sevens, &family, &pcio, &duel };
static const char *const preset_names[] = { "classic", "sevens", "family", "pcio", "duel", NULL };

const struct hf_rules *
hf_preset(const char *name)
{
	if (name == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (strcasecmp(name, presets[i]->name) == 0)
			return presets[i];
	return NULL;
}

const char *const *
hf_preset_names(void)
{
	return preset_names;
}

int32_t
rules_open_min(const struct hf_rules *r, int round, int32_t score)
{
	if (r->open_by == HF_OPEN_BY_ROUND) {
		int i = round < 1 ? 0 : round > 4 ? 3 : round - 1;
		return r->open_min[i];
	}
	int32_t m = r->open_min[0];
	for (int i = 1; i < 4; i++)
		if (r->open_at[i] > 0 && score >= r->open_at[i])
			m = r->open_min[i];
	return m;
}

enum hf_err
hf_rules_check_table(const struct hf_rules *r, int nplayers, int nsides, char *why, size_t len)
{
	if (nplayers < r->players_min || nplayers > r->players_max || nplayers < 2 || nplayers > HF_MAX_SEATS ||
	    r->sides_allowed[nplayers] == 0)
		return hf_fail(HF_E_RULES, why, len, "%s is played by %d to %d players, not %d",
		               r->name, r->players_min, r->players_max, nplayers);
	if (nsides == 0)
		nsides = r->sides_default[nplayers];
	if (nsides < 1 || nsides > HF_MAX_SIDES || !(r->sides_allowed[nplayers] & (1u << nsides))) {
		char list[64] = "";
		for (int k = 1; k <= HF_MAX_SIDES; k++)
			if (r->sides_allowed[nplayers] & (1u << k))
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", list[0] ? " or " : "", k);
		return hf_fail(HF_E_RULES, why, len, "with %d players %s allows %s sides, not %d",
		               nplayers, r->name, list, nsides);
	}
	if (nplayers % nsides != 0)
		return hf_fail(HF_E_RULES, why, len, "%d players cannot make %d equal sides", nplayers, nsides);
	int decks = r->decks[nplayers];
	if (decks < 1 || decks > HF_MAX_DECKS)
		return hf_fail(HF_E_RULES, why, len, "%s has no deck count for %d players", r->name, nplayers);
	int need = nplayers * (r->hand_size + r->foot_size) + 8;
	if (need > decks * HF_DECK_CARDS)
		return hf_fail(HF_E_RULES, why, len, "%d decks are too few to deal %d+%d cards to %d players",
		               decks, r->hand_size, r->foot_size, nplayers);
	if (r->canasta_size < 3 || r->hand_size < 1 || r->foot_size < 1)
		return hf_fail(HF_E_RULES, why, len, "hand, foot and canasta sizes must be positive");
	return HF_OK;
}

/* ------------------------------------------------------------------ describe */

struct out { char *buf; size_t len, n; };

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
put(struct out *o, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if (o->len > 0 && o->n < o->len)
		snprintf(o->buf + o->n, o->len - o->n, "%s\n", line);
	o->n += (size_t)k + 1;
}

static const char *
yesno(bool b)
{
	return b ? "yes" : "no";
}

/* The player counts the rules deal to, as a newcomer reads them: "2", "4 or
 * 6", "2, 3, 4 or 6", "2 to 6" (a range only where every count in it is). */
void
hf_rules_counts(const struct hf_rules *r, char *buf, size_t len)
{
	char why[HF_ERRLEN];
	int ok[HF_MAX_SEATS + 1], n = 0, i;
	size_t at = 0;

	buf[0] = '\0';
	for (i = 2; i <= HF_MAX_SEATS; i++)
		if (i >= r->players_min && i <= r->players_max && r->sides_default[i] > 0 &&
		    hf_rules_check_table(r, i, r->sides_default[i], why, sizeof why) == HF_OK)
			ok[n++] = i;
	if (n == 0) {
		snprintf(buf, len, "no number of");
		return;
	}
	if (n >= 3 && ok[n - 1] - ok[0] == n - 1) {
		snprintf(buf, len, "%d to %d", ok[0], ok[n - 1]);
		return;
	}
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d", i == 0 ? "" : i == n - 1 ? " or " : ", ", ok[i]);
}

static void
describe_table(struct out *o, const struct hf_rules *r, int np)
{
	char counts[64];

	hf_rules_counts(r, counts, sizeof counts);
	put(o, "rules: %s; %s players; %d decks with jokers for %d players; hand %d + foot %d",
	    r->name, counts, np >= 0 && np <= HF_MAX_SEATS ? r->decks[np] : 0, np,
	    r->hand_size, r->foot_size);
	if (r->deal_bonus != HF_BONUS_NONE)
		put(o, "deal bonus: %d to %s when the cut is exact (1 chance in 9)", r->deal_bonus_points,
		    r->deal_bonus == HF_BONUS_DEALER_SIDE ? "the dealer's side" : "each player");
	static const char *const fd[] = { "the top card", "cards until a natural 4..A shows",
	                                  "the top card, shuffled back if a red 3 or a wild" };
	static const char *const fp[] = { "left of the dealer", "the dealer", "the red-3 holder",
	                                  "the player behind in score" };
	put(o, "first discard: %s; first player: %s", fd[r->first_discard % 3], fp[r->first_player % 4]);
	put(o, "values: joker %d, 2 %d, A %d, 8-K %d, 4-7 %d; a black 3 left in hand %d", r->value[HF_JOKER],
	    r->value[HF_TWO], r->value[HF_ACE], r->value[HF_KING], r->value[HF_FOUR], -r->value[HF_BLACK3]);
}

static void
describe_play(struct out *o, const struct hf_rules *r)
{
	static const char *const rm[] = { "laid out for a bonus", "kept; one under each closed book",
	                                  "plain threes, discard only" };
	if (r->red3_mode == HF_RED3_PLAIN)
		put(o, "red 3s: %s, %d against when caught", rm[2], r->value[HF_RED3]);
	else if (r->red3_mode == HF_RED3_BOOK)
		put(o, "red 3s: %s, %d each; %d against each left in hand or foot when a player goes out", rm[1],
		    r->red3_bonus, r->red3_caught);
	else
		put(o, "red 3s: %s, %d each", rm[0], r->red3_bonus);
	char cnt[16];
	if (r->pickup_count)
		snprintf(cnt, sizeof cnt, "top %d", r->pickup_count);
	else
		snprintf(cnt, sizeof cnt, "the whole pile");
	static const char *const need[] = { "nothing", "a pair of the top card (natural, or the same wild)",
	                                    "to play the top card (pair, natural + wild, or on an open meld)" };
	char blk[80];
	snprintf(blk, sizeof blk, "%s%s%s%s", r->pickup_blocked_by & HF_BLOCK_BLACK3 ? " black 3" : "",
	         r->pickup_blocked_by & HF_BLOCK_RED3 ? " red 3" : "", r->pickup_blocked_by & HF_BLOCK_WILD ? " wild" : "",
	         r->pickup_blocked_by & HF_BLOCK_UNDER_WILD ? " (a 3 also under wilds, until a natural covers it)" : "");
	char min[40] = "";
	if (r->pickup_min_pile > 1)
		snprintf(min, sizeof min, " (the pile must hold %d+)", r->pickup_min_pile);
	put(o, "pile: take %s%s; needs %s%s%s; blocked by:%s", cnt, min, need[r->pickup_need % 3],
	    r->freeze_on_two ? "; a 2 in the pile freezes it (natural pair only)" : "",
	    r->pickup_needs_down ? "; your side must be down" : "", blk[0] ? blk : " nothing");
	put(o, "discard jokers: %s; discard red 3s: %s%s", yesno(r->discard_joker_ok), yesno(r->discard_red3_ok),
	    r->hand_cap ? "; a hand holds at most the cap after taking the pile" : "");
	if (r->open_by == HF_OPEN_BY_ROUND)
		put(o, "opening meld by round: %d/%d/%d/%d", r->open_min[0], r->open_min[1], r->open_min[2],
		    r->open_min[3]);
	else
		put(o, "opening meld by score: %d; %d from %d; %d from %d", r->open_min[0], r->open_min[1],
		    r->open_at[1], r->open_min[2], r->open_at[2]);
	static const char *const wl[] = { "more naturals than wilds", "twice as many naturals as wilds",
	                                  "at least as many naturals as wilds", "one natural or more, any number of wilds" };
	put(o, "melds: %s; all-wild melds %s; canastas close at %d; add after closing %s", wl[r->wild_limit % 4],
	    yesno(r->wild_melds), r->canasta_size, yesno(r->add_after_close));
}

static void
describe_out(struct out *o, const struct hf_rules *r, int np)
{
	put(o, "foot: taken when %s", r->foot_when == HF_FOOT_HAND_EMPTY ? "the hand is empty"
	                                                                 : "the side closes its first canasta");
	put(o, "going out needs: %d clean, %d dirty, %d wild, %d sevens, %d in all%s", r->need_clean,
	    r->need_dirty, r->need_wild, r->need_sevens, legal_need_total(r, np),
	    r->short_out_allowed ? "; short of it: all meld points lost and a penalty" : "");
	put(o, "stock out: %s; cards left: %s%s", r->stock_out == HF_STOCK_OUT_SCORE ? "the round is scored" :
	    "the pile under its top turned over, while 2+ cards lie there; then a tied round",
	    r->partners_dismissed ? "the goer's partners' cards are dismissed" : "count against every other player",
	    r->caught_counts_foot ? " (hand and untaken foot)" : " (hand only)");
	put(o, "ask partners %s; final discard %s; partners in foot: %s", yesno(r->ask_partner),
	    r->final_discard_required ? "required" : "optional",
	    r->partner_foot == HF_PARTNERS_ANY ? "not needed" :
	    r->partner_foot == HF_PARTNERS_IN_FOOT ? "all" : "all, after a turn from it");
	put(o, "bonuses: clean %d, dirty %d, wild %d, sevens %d, going out %d", r->clean_bonus, r->dirty_bonus,
	    r->wild_bonus, r->sevens_bonus, r->out_bonus);
	if (r->rounds)
		put(o, "game: %d rounds; hints: %s", r->rounds, r->hints_off ? "off" : "on");
	else
		put(o, "game: to %ld points; hints: %s", (long)r->target, r->hints_off ? "off" : "on");
}

size_t
hf_rules_describe(const struct hf_rules *r, int nplayers, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	if (len > 0)
		buf[0] = '\0';
	describe_table(&o, r, nplayers);
	describe_play(&o, r);
	describe_out(&o, r, nplayers);
	if (o.n > 0 && o.n <= len && buf[o.n - 1] == '\n')
		buf[o.n - 1] = '\0';
	return o.n;
}
