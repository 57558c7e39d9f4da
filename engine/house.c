/* house.c: house rules as key=value text: one table entry per key (name, values, help, setter, getter). */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"

enum ktype { K_BOOL, K_U8, K_I16, K_I32, K_ENUM, K_CUSTOM };

struct key {
	enum ktype type;
	size_t off;
	long min, max;
	const char *const *names;
	enum hf_err (*set)(struct hf_rules *r, const char *v, const char *key, char *why, size_t len);
	void (*get)(const struct hf_rules *r, char *buf, size_t len);
};

static const char *const n_bonus[] = { "none", "dealer", "each", NULL };
static const char *const n_first[] = { "top", "natural", "reshuffle", NULL };
static const char *const n_start[] = { "left", "dealer", "red3", "behind", NULL };
static const char *const n_red3[] = { "bonus", "book", "plain", NULL };
static const char *const n_need[] = { "nothing", "pair", "top", NULL };
static const char *const n_limit[] = { "fewer", "half", "equal", "any", NULL };
static const char *const n_open[] = { "round", "score", NULL };
static const char *const n_foot[] = { "empty", "canasta", NULL };
static const char *const n_pfoot[] = { "any", "in_foot", "played_foot", NULL };
static const char *const n_final[] = { "optional", "required", NULL };
static const char *const n_stock[] = { "score", "turn_pile", NULL };

/* ------------------------------------------------------------------ custom keys */

static bool
in_players(const struct hf_rules *r, int n)
{
	return n >= r->players_min && n <= r->players_max && n >= 2 && n <= HF_MAX_SEATS;
}

static long
parse_long(const char *v, bool *ok)
{
	char *end;
	long x = strtol(v, &end, 10);
	*ok = *v != '\0' && *end == '\0';
	return x;
}

static enum hf_err
set_decks(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	bool ok;
	long d = parse_long(v, &ok);
	bool plus = strcasecmp(v, "players+1") == 0;
	if (!plus && (!ok || d < 1 || d > HF_MAX_DECKS))
		return hf_fail(HF_E_RULES, why, len, "%s must be 1-%d or players+1, not %s", key, HF_MAX_DECKS, v);
	for (int n = 2; n <= HF_MAX_SEATS; n++)
		r->decks[n] = (uint8_t)(plus ? (n + 1 > HF_MAX_DECKS ? HF_MAX_DECKS : n + 1) : d);
	return HF_OK;
}

static void
get_decks(const struct hf_rules *r, char *buf, size_t len)
{
	bool same = true, plus = true;
	int first = -1;
	for (int n = 2; n <= HF_MAX_SEATS; n++) {
		if (!in_players(r, n))
			continue;
		if (first < 0)
			first = r->decks[n];
		same &= r->decks[n] == first;
		plus &= r->decks[n] == n + 1;
	}
	if (same)
		snprintf(buf, len, "%d", first);
	else if (plus)
		snprintf(buf, len, "players+1");
	else
		snprintf(buf, len, "by-players");
}

static enum hf_err
set_players(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	int a, b;
	char tail;
	if (sscanf(v, "%d-%d%c", &a, &b, &tail) != 2) {
		if (sscanf(v, "%d%c", &a, &tail) != 1)
			a = -1;
		b = a;
	}
	if (a < 2 || b > HF_MAX_SEATS || a > b)
		return hf_fail(HF_E_RULES, why, len, "%s must be a count or a range within 2-%d, not %s", key,
		               HF_MAX_SEATS, v);
	int fallback = 0;
	for (int n = 2; n <= HF_MAX_SEATS; n++)
		if (r->decks[n] > fallback)
			fallback = r->decks[n];
	r->players_min = (uint8_t)a;
	r->players_max = (uint8_t)b;
	for (int n = a; n <= b; n++) {
		if (r->sides_allowed[n] == 0) {
			r->sides_allowed[n] = (uint8_t)(1u << n);
			r->sides_default[n] = (uint8_t)n;
		}
		if (r->decks[n] == 0)
			r->decks[n] = (uint8_t)(fallback ? fallback : n + 1);
	}
	return HF_OK;
}

static void
get_players(const struct hf_rules *r, char *buf, size_t len)
{
	snprintf(buf, len, "%d-%d", r->players_min, r->players_max);
}

static bool
has_partners(const struct hf_rules *r)
{
	for (int n = 2; n <= HF_MAX_SEATS; n++)
		if (in_players(r, n) && r->sides_default[n] && r->sides_default[n] < n)
			return true;
	return false;
}

static enum hf_err
set_partners(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	bool yes = strcasecmp(v, "yes") == 0;
	if (!yes && strcasecmp(v, "no") != 0)
		return hf_fail(HF_E_RULES, why, len, "%s must be yes or no, not %s", key, v);
	const struct hf_rules *base = hf_preset(r->name);
	for (int n = 2; n <= HF_MAX_SEATS; n++) {
		if (!yes || n % 2) {
			r->sides_allowed[n] = (uint8_t)(1u << n);
			r->sides_default[n] = (uint8_t)n;
		} else if (base != NULL && base->sides_default[n] && base->sides_default[n] < n) {
			r->sides_allowed[n] = base->sides_allowed[n];
			r->sides_default[n] = base->sides_default[n];
		} else {
			r->sides_allowed[n] = (uint8_t)((1u << 2) | (n == 6 ? 1u << 3 : 0));
			r->sides_default[n] = 2;
		}
	}
	return HF_OK;
}

static void
get_partners(const struct hf_rules *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", has_partners(r) ? "yes" : "no");
}

static enum hf_err
set_values(struct hf_rules *r, const char *v, const char *key, int lo, int hi, char *why,
           size_t len)
{
	bool ok;
	long x = parse_long(v, &ok);
	if (!ok || x < 0 || x > 500)
		return hf_fail(HF_E_RULES, why, len, "%s must be 0-500, not %s", key, v);
	for (int k = lo; k <= hi; k++)
		r->value[k] = (int16_t)x;
	return HF_OK;
}

static enum hf_err
set_high(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	return set_values(r, v, key, HF_EIGHT, HF_KING, why, len);
}

static enum hf_err
set_low(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	return set_values(r, v, key, HF_FOUR, HF_SEVEN, why, len);
}

static void
get_high(const struct hf_rules *r, char *buf, size_t len)
{
	snprintf(buf, len, "%d", r->value[HF_KING]);
}

static void
get_low(const struct hf_rules *r, char *buf, size_t len)
{
	snprintf(buf, len, "%d", r->value[HF_FOUR]);
}

/* A comma list of words from names[]: bit i for names[i]; "none" = 0. */
static enum hf_err
set_bits(uint8_t *bits, const char *v, const char *key, const char *const *names,
         const char *allowed, char *why, size_t len)
{
	uint8_t out = 0;
	if (strcasecmp(v, "none") != 0) {
		const char *s = v;
		while (*s) {
			size_t n = strcspn(s, ",");
			int found = -1;
			for (int i = 0; names[i]; i++)
				if (strlen(names[i]) == n && strncasecmp(s, names[i], n) == 0)
					found = i;
			if (found < 0)
				return hf_fail(HF_E_RULES, why, len, "%s must be none or a comma list of %s, not %s", key,
				               allowed, v);
			out = (uint8_t)(out | (1u << found));
			s += n;
			if (*s == ',')
				s++;
		}
	}
	*bits = out;
	return HF_OK;
}

static void
get_bits(uint8_t bits, const char *const *names, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; names[i]; i++)
		if (bits & (1u << i))
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "," : "", names[i]);
	if (n == 0)
		snprintf(buf, len, "none");
}

static const char *const n_block[] = { "black3", "red3", "wild", "under_wild", NULL };
static const char *const n_repl[] = { "deal", "draw", "foot", NULL };

static enum hf_err
set_blocked(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	return set_bits(&r->pickup_blocked_by, v, key, n_block, "black3,red3,wild,under_wild", why, len);
}

static void
get_blocked(const struct hf_rules *r, char *buf, size_t len)
{
	get_bits(r->pickup_blocked_by, n_block, buf, len);
}

static enum hf_err
set_replace(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	uint8_t b;
	enum hf_err e = set_bits(&b, v, key, n_repl, "deal,draw,foot", why, len);
	if (e == HF_OK) {
		r->red3_replace_deal = b & 1;
		r->red3_replace_draw = (b >> 1) & 1;
		r->red3_replace_foot = (b >> 2) & 1;
	}
	return e;
}

static void
get_replace(const struct hf_rules *r, char *buf, size_t len)
{
	get_bits((uint8_t)(r->red3_replace_deal | r->red3_replace_draw << 1 | r->red3_replace_foot << 2), n_repl,
	         buf, len);
}

static enum hf_err
set_pickup(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	bool ok;
	long x = parse_long(v, &ok);
	if (strcasecmp(v, "all") == 0)
		x = 0;
	else if (!ok || x < 1 || x > 20)
		return hf_fail(HF_E_RULES, why, len, "%s must be all or 1-20, not %s", key, v);
	r->pickup_count = (uint8_t)x;
	return HF_OK;
}

static void
get_pickup(const struct hf_rules *r, char *buf, size_t len)
{
	if (r->pickup_count)
		snprintf(buf, len, "%d", r->pickup_count);
	else
		snprintf(buf, len, "all");
}

/* "60,90,120,150": a short list repeats its last value. */
static enum hf_err
set_list(int32_t out[4], const char *v, const char *key, long lo, long hi, char *why, size_t len)
{
	int32_t tmp[4];
	int n = 0;
	const char *s = v;
	while (*s && n < 4) {
		char *end;
		long x = strtol(s, &end, 10);
		if (end == s || x < lo || x > hi || (*end && *end != ','))
			break;
		tmp[n++] = (int32_t)x;
		s = *end ? end + 1 : end;
	}
	if (n == 0 || *s)
		return hf_fail(HF_E_RULES, why, len, "%s must be 1 to 4 numbers %ld-%ld separated by commas, not %s", key,
		               lo, hi, v);
	for (int i = 0; i < 4; i++)
		out[i] = tmp[i < n ? i : n - 1];
	return HF_OK;
}

static enum hf_err
set_hints(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	bool yes = strcasecmp(v, "yes") == 0;
	if (!yes && strcasecmp(v, "no") != 0)
		return hf_fail(HF_E_RULES, why, len, "%s must be yes or no, not %s", key, v);
	r->hints_off = !yes;
	return HF_OK;
}

static void
get_hints(const struct hf_rules *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", r->hints_off ? "no" : "yes");
}

static enum hf_err
set_open(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	int32_t x[4];
	enum hf_err e = set_list(x, v, key, 0, 5000, why, len);
	if (e == HF_OK)
		for (int i = 0; i < 4; i++)
			r->open_min[i] = (int16_t)x[i];
	return e;
}

static void
get_open(const struct hf_rules *r, char *buf, size_t len)
{
	snprintf(buf, len, "%d,%d,%d,%d", r->open_min[0], r->open_min[1], r->open_min[2], r->open_min[3]);
}

static enum hf_err
set_open_at(struct hf_rules *r, const char *v, const char *key, char *why, size_t len)
{
	int32_t x[4];
	enum hf_err e = set_list(x, v, key, 0, 1000000, why, len);
	if (e == HF_OK)
		memcpy(r->open_at, x, sizeof x);
	return e;
}

static void
get_open_at(const struct hf_rules *r, char *buf, size_t len)
{
	snprintf(buf, len, "%ld,%ld,%ld,%ld", (long)r->open_at[0], (long)r->open_at[1], (long)r->open_at[2],
	         (long)r->open_at[3]);
}

/* ------------------------------------------------------------------ the table */

#define F(field) offsetof(struct hf_rules, field)
#define KEYS(X) \
	X("players", "2-6 or A-B", "players allowed at the table", K_CUSTOM, 0, 0, 0, NULL, set_players, get_players) \
	X("partners", "yes|no", "teams of partners where the count allows (seat i plays for side i % sides)", K_CUSTOM, 0, 0, 0, NULL, set_partners, get_partners) \
	X("decks", "1-8|players+1", "decks in the shoe, each with 2 jokers", K_CUSTOM, 0, 0, 0, NULL, set_decks, get_decks) \
	X("hand", "1-30", "cards dealt to each hand", K_U8, F(hand_size), 1, 30, NULL, NULL, NULL) \
	X("foot", "1-30", "cards dealt to each foot", K_U8, F(foot_size), 1, 30, NULL, NULL, NULL) \
	X("hand_cap", "0-99", "most cards a hand may hold after taking the pile; 0 = no cap", K_U8, F(hand_cap), 0, 99, NULL, NULL, NULL) \
	X("deal_bonus", "none|dealer|each", "who may earn the exact-cut bonus", K_ENUM, F(deal_bonus), 0, 0, n_bonus, NULL, NULL) \
	X("deal_bonus_points", "0-1000", "the exact-cut bonus", K_I16, F(deal_bonus_points), 0, 1000, NULL, NULL, NULL) \
	X("first_discard", "top|natural|reshuffle", "how the pile starts", K_ENUM, F(first_discard), 0, 0, n_first, NULL, NULL) \
	X("first_player", "left|dealer|red3|behind", "who plays first in a round", K_ENUM, F(first_player), 0, 0, n_start, NULL, NULL) \
	X("joker", "0-500", "value of a joker", K_I16, F(value[HF_JOKER]), 0, 500, NULL, NULL, NULL) \
	X("two", "0-500", "value of a 2", K_I16, F(value[HF_TWO]), 0, 500, NULL, NULL, NULL) \
	X("ace", "0-500", "value of an ace", K_I16, F(value[HF_ACE]), 0, 500, NULL, NULL, NULL) \
	X("high", "0-500", "value of 8 to K", K_CUSTOM, 0, 0, 0, NULL, set_high, get_high) \
	X("low", "0-500", "value of 4 to 7", K_CUSTOM, 0, 0, 0, NULL, set_low, get_low) \
	X("black3", "0-500", "value of a black 3 (against you when caught)", K_I16, F(value[HF_BLACK3]), 0, 500, NULL, NULL, NULL) \
	X("red3_value", "0-500", "value of a red 3 left in hand or foot at the end of a round (bonus and plain modes; book mode when nobody went out)", K_I16, F(value[HF_RED3]), 0, 500, NULL, NULL, NULL) \
	X("red3", "bonus|book|plain", "red 3s: laid out for a bonus, kept for books, or plain", K_ENUM, F(red3_mode), 0, 0, n_red3, NULL, NULL) \
	X("red3_bonus", "0-1000", "bonus per red 3 laid out or under a book", K_I16, F(red3_bonus), 0, 1000, NULL, NULL, NULL) \
	X("red3_caught", "0-1000", "points against per red 3 left in hand or foot when a player goes out (book mode)", K_I16, F(red3_caught), 0, 1000, NULL, NULL, NULL) \
	X("red3_replace", "none|deal,draw,foot", "where a laid-out red 3 is replaced from the stock", K_CUSTOM, 0, 0, 0, NULL, set_replace, get_replace) \
	X("red3_first_turn", "yes|no", "dealt red 3s laid out at the first turn instead of at the deal", K_BOOL, F(red3_at_first_turn), 0, 1, NULL, NULL, NULL) \
	X("black3_book", "yes|no", "a book of 7+ black 3s as the very last play before going out", K_BOOL, F(black3_book), 0, 1, NULL, NULL, NULL) \
	X("pickup", "all|1-20", "cards taken from the pile", K_CUSTOM, 0, 0, 0, NULL, set_pickup, get_pickup) \
	X("pickup_min", "0-50", "cards the pile must hold to be taken", K_U8, F(pickup_min_pile), 0, 50, NULL, NULL, NULL) \
	X("blocked", "none|black3,red3,wild,under_wild", "what on top of the pile blocks it (under_wild: a 3 blocks under wilds too)", K_CUSTOM, 0, 0, 0, NULL, set_blocked, get_blocked) \
	X("pickup_down", "yes|no", "the side must have melded before taking the pile", K_BOOL, F(pickup_needs_down), 0, 1, NULL, NULL, NULL) \
	X("pickup_need", "nothing|pair|top", "what justifies taking the pile", K_ENUM, F(pickup_need), 0, 0, n_need, NULL, NULL) \
	X("frozen", "yes|no", "a 2 in the pile freezes it: natural pair needed", K_BOOL, F(freeze_on_two), 0, 1, NULL, NULL, NULL) \
	X("discard_joker", "yes|no", "jokers may be discarded", K_BOOL, F(discard_joker_ok), 0, 1, NULL, NULL, NULL) \
	X("discard_red3", "yes|no", "red 3s may be discarded", K_BOOL, F(discard_red3_ok), 0, 1, NULL, NULL, NULL) \
	X("open_by", "round|score", "the opening minimum depends on the round or on the score", K_ENUM, F(open_by), 0, 0, n_open, NULL, NULL) \
	X("open", "N[,N,N,N]", "opening minimums (by round 1-4, or by score step)", K_CUSTOM, 0, 0, 0, NULL, set_open, get_open) \
	X("min1", "0-5000", "opening minimum, round 1 (or first score step)", K_I16, F(open_min[0]), 0, 5000, NULL, NULL, NULL) \
	X("min2", "0-5000", "opening minimum, round 2", K_I16, F(open_min[1]), 0, 5000, NULL, NULL, NULL) \
	X("min3", "0-5000", "opening minimum, round 3", K_I16, F(open_min[2]), 0, 5000, NULL, NULL, NULL) \
	X("min4", "0-5000", "opening minimum, round 4 and later", K_I16, F(open_min[3]), 0, 5000, NULL, NULL, NULL) \
	X("open_at", "N[,N,N,N]", "scores from which each minimum applies (by score)", K_CUSTOM, 0, 0, 0, NULL, set_open_at, get_open_at) \
	X("wild_limit", "fewer|half|equal|any", "wilds in a meld: fewer than naturals, at most half, at most equal, or any number beside one natural", K_ENUM, F(wild_limit), 0, 0, n_limit, NULL, NULL) \
	X("wild_melds", "yes|no", "melds of wild cards alone", K_BOOL, F(wild_melds), 0, 1, NULL, NULL, NULL) \
	X("add_after_close", "yes|no", "naturals may be added to a closed canasta", K_BOOL, F(add_after_close), 0, 1, NULL, NULL, NULL) \
	X("opening_wild_pair", "yes|no", "in the opening, wilds only with a pair starting a new meld", K_BOOL, F(opening_wild_pair_only), 0, 1, NULL, NULL, NULL) \
	X("canasta", "5-10", "cards that close a canasta", K_U8, F(canasta_size), 5, 10, NULL, NULL, NULL) \
	X("foot_when", "empty|canasta", "the foot is taken when the hand is empty, or at the side's first canasta", K_ENUM, F(foot_when), 0, 0, n_foot, NULL, NULL) \
	X("need_clean", "0-20", "clean canastas needed to go out", K_U8, F(need_clean), 0, 20, NULL, NULL, NULL) \
	X("need_dirty", "0-20", "dirty canastas needed to go out", K_U8, F(need_dirty), 0, 20, NULL, NULL, NULL) \
	X("need_wild", "0-20", "wild canastas needed to go out", K_U8, F(need_wild), 0, 20, NULL, NULL, NULL) \
	X("need_sevens", "0-20", "sevens canastas needed to go out", K_U8, F(need_sevens), 0, 20, NULL, NULL, NULL) \
	X("need_total", "0-20", "canastas of any kind needed to go out", K_U8, F(need_total), 0, 20, NULL, NULL, NULL) \
	X("need_plus_players", "yes|no", "need_total is added to the number of players", K_BOOL, F(need_total_plus_players), 0, 1, NULL, NULL, NULL) \
	X("partner_foot", "any|in_foot|played_foot", "what the partners must have done before you go out", K_ENUM, F(partner_foot), 0, 0, n_pfoot, NULL, NULL) \
	X("ask", "yes|no", "ask the partners before going out", K_BOOL, F(ask_partner), 0, 1, NULL, NULL, NULL) \
	X("ask_first", "yes|no", "the ask must come before melding in that turn", K_BOOL, F(ask_before_meld), 0, 1, NULL, NULL, NULL) \
	X("final_discard", "required|optional", "going out needs a final discard", K_ENUM, F(final_discard_required), 0, 0, n_final, NULL, NULL) \
	X("out_melds_rest", "yes|no", "the going-out side melds what it can from the partners' hands", K_BOOL, F(out_melds_rest), 0, 1, NULL, NULL, NULL) \
	X("short_out", "yes|no", "going out short of canastas is allowed, with the penalty", K_BOOL, F(short_out_allowed), 0, 1, NULL, NULL, NULL) \
	X("short_penalty", "0-10000", "the severe penalty for going out short", K_I16, F(short_out_penalty), 0, 10000, NULL, NULL, NULL) \
	X("stock_out", "score|turn_pile", "when the stock runs out: score the round, or turn the pile over until its cards are used (then a tie)", K_ENUM, F(stock_out), 0, 0, n_stock, NULL, NULL) \
	X("clean", "0-30000", "bonus per clean canasta", K_I16, F(clean_bonus), 0, 30000, NULL, NULL, NULL) \
	X("dirty", "0-30000", "bonus per dirty canasta", K_I16, F(dirty_bonus), 0, 30000, NULL, NULL, NULL) \
	X("wild", "0-30000", "bonus per wild canasta", K_I16, F(wild_bonus), 0, 30000, NULL, NULL, NULL) \
	X("sevens", "0-30000", "bonus per sevens canasta (clean 7s are a kind of their own where this or need_sevens is set)", K_I16, F(sevens_bonus), 0, 30000, NULL, NULL, NULL) \
	X("out_bonus", "0-30000", "bonus for going out", K_I16, F(out_bonus), 0, 30000, NULL, NULL, NULL) \
	X("partners_dismissed", "yes|no", "the goer's partners' cards do not count", K_BOOL, F(partners_dismissed), 0, 1, NULL, NULL, NULL) \
	X("caught_foot", "yes|no", "an untaken foot counts against, as the hand", K_BOOL, F(caught_counts_foot), 0, 1, NULL, NULL, NULL) \
	X("rounds", "0-100", "rounds in a game; 0 = play to the target", K_U8, F(rounds), 0, 100, NULL, NULL, NULL) \
	X("target", "0-1000000", "score that ends the game; 0 = play the rounds", K_I32, F(target), 0, 1000000, NULL, NULL, NULL) \
	X("hints", "yes|no", "players may ask the computer for a hint (!hint)", K_CUSTOM, 0, 0, 0, NULL, set_hints, get_hints)

#define PUB(k, v, h, t, o, lo, hi, nm, s, g) { k, v, h },
#define IMPL(k, v, h, t, o, lo, hi, nm, s, g) { t, o, lo, hi, nm, s, g },

static const struct hf_rule_key pub[] = { KEYS(PUB) };
static const struct key impl[] = { KEYS(IMPL) };
#define NKEYS (sizeof pub / sizeof pub[0])

const struct hf_rule_key *
hf_rule_keys(size_t *n)
{
	*n = NKEYS;
	return pub;
}

static enum hf_err
set_generic(struct hf_rules *r, size_t i, const char *v, char *why, size_t len)
{
	const struct key *k = &impl[i];
	unsigned char *p = (unsigned char *)r + k->off;
	const char *key = pub[i].key;
	bool ok;
	long x;
	switch (k->type) {
	case K_CUSTOM:
		return k->set(r, v, key, why, len);
	case K_BOOL:
		if (strcasecmp(v, "yes") != 0 && strcasecmp(v, "no") != 0)
			return hf_fail(HF_E_RULES, why, len, "%s must be yes or no, not %s", key, v);
		*(bool *)p = strcasecmp(v, "yes") == 0;
		return HF_OK;
	case K_ENUM:
		for (int j = 0; k->names[j]; j++)
			if (strcasecmp(v, k->names[j]) == 0) {
				*p = (unsigned char)j;
				return HF_OK;
			}
		return hf_fail(HF_E_RULES, why, len, "%s must be %s, not %s", key, pub[i].values, v);
	default:
		x = parse_long(v, &ok);
		if (!ok || x < k->min || x > k->max)
			return hf_fail(HF_E_RULES, why, len, "%s must be %ld-%ld, not %s", key, k->min, k->max, v);
		if (k->type == K_U8)
			*(uint8_t *)p = (uint8_t)x;
		else if (k->type == K_I16)
			*(int16_t *)(void *)p = (int16_t)x;
		else
			*(int32_t *)(void *)p = (int32_t)x;
		return HF_OK;
	}
}

static void
get_generic(const struct hf_rules *r, size_t i, char *buf, size_t len)
{
	const struct key *k = &impl[i];
	const unsigned char *p = (const unsigned char *)r + k->off;
	switch (k->type) {
	case K_CUSTOM: k->get(r, buf, len); break;
	case K_BOOL: snprintf(buf, len, "%s", *(const bool *)p ? "yes" : "no"); break;
	case K_ENUM: snprintf(buf, len, "%s", k->names[*p]); break;
	case K_U8: snprintf(buf, len, "%d", *p); break;
	case K_I16: snprintf(buf, len, "%d", *(const int16_t *)(const void *)p); break;
	default: snprintf(buf, len, "%ld", (long)*(const int32_t *)(const void *)p); break;
	}
}

static void
key_list(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < NKEYS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", pub[i].key);
}

enum hf_err
hf_rules_set(struct hf_rules *r, const char *kv, char *why, size_t len)
{
	char key[32], val[64];
	const char *eq = strchr(kv, '=');
	if (eq == NULL || eq == kv || (size_t)(eq - kv) >= sizeof key || strlen(eq + 1) >= sizeof val ||
	    eq[1] == '\0')
		return hf_fail(HF_E_RULES, why, len, "a house rule is key=value, as in pickup=7");
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	snprintf(val, sizeof val, "%s", eq + 1);
	for (size_t i = 0; i < NKEYS; i++) {
		if (strcasecmp(key, pub[i].key) != 0)
			continue;
		struct hf_rules tmp = *r;
		enum hf_err e = set_generic(&tmp, i, val, why, len);
		if (e == HF_OK)
			*r = tmp;
		return e;
	}
	char list[1024];
	key_list(list, sizeof list);
	return hf_fail(HF_E_RULES, why, len, "no house rule \"%.20s\"; the keys are: %s", key, list);
}

enum hf_err
hf_rules_parse(struct hf_rules *r, const char *text, char *why, size_t len)
{
	struct hf_rules tmp = *hf_preset("classic");
	char word[128];
	const char *s = text ? text : "";
	bool first = true;
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		size_t n = 0;
		while (s[n] && !isspace((unsigned char)s[n]))
			n++;
		if (n >= sizeof word)
			return hf_fail(HF_E_RULES, why, len, "\"%.20s...\" is too long for a house rule", s);
		memcpy(word, s, n);
		word[n] = '\0';
		s += n;
		if (first && strchr(word, '=') == NULL) {
			const struct hf_rules *p = hf_preset(word);
			if (p == NULL)
				return hf_fail(HF_E_RULES, why, len, "no preset \"%.20s\": classic, sevens, family, pcio or duel",
				               word);
			tmp = *p;
		} else {
			enum hf_err e = hf_rules_set(&tmp, word, why, len);
			if (e != HF_OK)
				return e;
		}
		first = false;
	}
	*r = tmp;
	return HF_OK;
}

size_t
hf_rules_get(const struct hf_rules *r, const char *key, char *buf, size_t len)
{
	char tmp[64];
	for (size_t i = 0; i < NKEYS; i++)
		if (strcasecmp(key, pub[i].key) == 0) {
			get_generic(r, i, tmp, sizeof tmp);
			return (size_t)snprintf(buf, len, "%s", tmp);
		}
	if (len > 0)
		buf[0] = '\0';
	return 0;
}

size_t
hf_rules_format(const struct hf_rules *r, char *buf, size_t len)
{
	const struct hf_rules *base = hf_preset(r->name);
	size_t n = 0;
	if (base == NULL)
		base = hf_preset("classic");
	n += (size_t)snprintf(buf, len, "%s", base->name);
	for (size_t i = 0; i < NKEYS; i++) {
		char a[64], b[64];
		get_generic(r, i, a, sizeof a);
		get_generic(base, i, b, sizeof b);
		if (strcmp(a, b) != 0)
			n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, " %s=%s", pub[i].key, a);
	}
	return n;
}
