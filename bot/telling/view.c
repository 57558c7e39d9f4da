/* view.c: a table as data (JSON) for adapters that draw it, from the engine's views only. */
#include <string.h>

#include "telling.h"

/* The order a hand is read in (as render.c shows it): aces down to fours, threes, wilds. */
static const int view_order[] = {
	HF_ACE, HF_KING, HF_QUEEN, HF_JACK, HF_TEN, HF_NINE, HF_EIGHT, HF_SEVEN, HF_SIX, HF_FIVE, HF_FOUR,
	HF_RED3, HF_BLACK3, HF_TWO, HF_JOKER
};

/* The adapter API numbers seats as the engine does (adapters do not see the engine). */
_Static_assert(ADAPTER_MAX_SEATS == HF_MAX_SEATS, "bot/adapter.h: ADAPTER_MAX_SEATS must be the engine's HF_MAX_SEATS");

static const char *const view_phases[] = { "draw", "play", "ask", "over" };
static const char *const view_kinds[] = { "open", "clean", "dirty", "wild", "sevens" };

/* A JSON string: names come from chat, so every quote, backslash and control byte is escaped. */
static void
view_str(struct rbuf *b, const char *s)
{
	const char *run = s;

	rbuf_add(b, "\"");
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		/* markup characters too: never markup, even where a page would forget to escape */
		if (ch == '"' || ch == '\\' || ch < 0x20 || ch == 0x7f || ch == '<' || ch == '>' || ch == '&') {
			rbuf_addn(b, run, (size_t)(s - run));
			rbuf_printf(b, "\\u%04x", ch);
			run = s + 1;
		}
	}
	rbuf_addn(b, run, (size_t)(s - run));
	rbuf_add(b, "\"");
}

static void
view_card(struct rbuf *b, int card)
{
	if (card == HF_NOCARD)
		rbuf_add(b, "null");
	else
		view_str(b, hf_card_name(card));
}

static void
view_seats(struct rbuf *b, const struct session *s, const struct hf_view *v)
{
	int i;

	rbuf_add(b, ",\"seats\":[");
	for (i = 0; i < v->nseats; i++) {
		const struct hf_seat_view *sv = &v->seats[i];

		rbuf_printf(b, "%s{\"name\":", i ? "," : "");
		view_str(b, s->seats[i].name);
		rbuf_printf(b, ",\"side\":%u,\"hand\":%u,\"foot\":%u,\"in_foot\":%s,\"computer\":%s,\"away\":%s,"
		            "\"answer\":%d}", sv->side, sv->hand_count, sv->foot_count, sv->in_foot ? "true" : "false",
		            s->seats[i].ai >= 0 ? "true" : "false", s->seats[i].away ? "true" : "false", sv->answer);
	}
	rbuf_add(b, "]");
}

static void
view_sides(struct rbuf *b, const struct hf_view *v)
{
	int i, k;

	rbuf_add(b, ",\"sides\":[");
	for (i = 0; i < v->nsides; i++) {
		const struct hf_side_view *sd = &v->sides[i];

		rbuf_printf(b, "%s{\"score\":%d,\"down\":%s,\"open_min\":%d,\"red3s\":%u,\"melds\":[", i ? "," : "",
		            (int)sd->score, sd->down ? "true" : "false", (int)sd->open_min, sd->red3s);
		for (k = 0; k < sd->nmelds; k++) {
			const struct hf_meld *m = &sd->melds[k];

			rbuf_printf(b, "%s{\"rank\":", k ? "," : "");
			view_card(b, m->rank);
			rbuf_printf(b, ",\"naturals\":%u,\"twos\":%u,\"jokers\":%u,\"red3s\":%u,\"kind\":\"%s\"}",
			            m->naturals, m->twos, m->jokers, m->red3s,
			            m->kind < 5 ? view_kinds[m->kind] : "open");
		}
		rbuf_add(b, "]}");
	}
	rbuf_add(b, "]");
}

static void
view_scores(struct rbuf *b, const struct hf_view *v)
{
	int r, i;

	rbuf_add(b, ",\"rounds\":[");
	for (r = 0; r < v->nrounds_scored && r < HF_MAX_ROUNDS; r++) {
		rbuf_add(b, r ? ",[" : "[");
		for (i = 0; i < v->nsides; i++)
			rbuf_printf(b, "%s%d", i ? "," : "", (int)v->round_totals[r][i]);
		rbuf_add(b, "]");
	}
	rbuf_add(b, "],\"sheet\":[");
	for (i = 0; v->nrounds_scored > 0 && i < v->nsides; i++) {
		const struct hf_sheet *h = &v->last_sheet[i];

		rbuf_printf(b, "%s{\"going_out\":%d,\"red3s\":%d,\"clean\":%d,\"dirty\":%d,\"wild\":%d,\"sevens\":%d,"
		            "\"laid_out\":%d,\"caught\":%d,\"penalty\":%d,\"deal_bonus\":%d,\"total\":%d}", i ? "," : "",
		            (int)h->going_out, (int)h->red3s, (int)h->clean, (int)h->dirty, (int)h->wild,
		            (int)h->sevens, (int)h->laid_out, (int)h->caught, (int)h->penalty, (int)h->deal_bonus,
		            (int)h->total);
	}
	rbuf_add(b, "]");
}

/* What seat may type now, as the page offers it: the moves the game waits for, then help. */
static void
view_may(struct rbuf *b, const struct session *s, const struct hf_view *v, int seat)
{
	int waiting[HF_MAX_SEATS], n = hf_game_waiting(s->g, waiting), i;
	bool mine = false;

	for (i = 0; i < n; i++)
		mine |= waiting[i] == seat;
	rbuf_add(b, ",\"may\":[");
	if (v->phase == HF_PHASE_OVER) {
		rbuf_add(b, "]");
		return;
	}
	if (mine && v->phase == HF_PHASE_DRAW)
		rbuf_add(b, "\"draw\",\"pickup\",");
	else if (mine && v->phase == HF_PHASE_PLAY)
		rbuf_add(b, "\"meld\",\"discard\",\"out\",");
	else if (mine && v->phase == HF_PHASE_ASK)
		rbuf_add(b, "\"yes\",\"no\",");
	rbuf_add(b, "\"hint\",\"auto\"]");
}

static void
view_hand(struct rbuf *b, const struct session *s, const struct hf_view *v, int seat)
{
	const struct hf_seat_view *me = &v->seats[seat];
	size_t i;
	bool first = true;

	rbuf_add(b, ",\"hand\":[");
	for (i = 0; i < sizeof view_order / sizeof view_order[0]; i++) {
		int c = view_order[i];

		if (v->hand[c] == 0)
			continue;
		rbuf_printf(b, "%s{\"card\":", first ? "" : ",");
		view_card(b, c);
		rbuf_printf(b, ",\"n\":%u}", v->hand[c]);
		first = false;
	}
	rbuf_printf(b, "],\"in_foot\":%s,\"foot_waiting\":%u,\"permission\":%s", me->in_foot ? "true" : "false",
	            me->in_foot ? 0u : me->foot_count, v->permission ? "true" : "false");
	view_may(b, s, v, seat);
}

/* The round's story as the room was told it: public, so in every view (docs/WEB.md). */
static void
view_story(struct rbuf *b, const struct session *s)
{
	const struct story *st = &s->story;
	const char *p = st->lines.s != NULL ? st->lines.s : "", *nl;
	struct rbuf line = { 0 };
	bool first = true;

	rbuf_printf(b, ",\"story\":{\"round\":%d,\"from\":%u,\"lines\":[", st->round, st->first);
	for (; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		rbuf_reset(&line);
		rbuf_addn(&line, p, (size_t)(nl - p));
		if (!first)
			rbuf_add(b, ",");
		first = false;
		view_str(b, line.s);
	}
	rbuf_add(b, "]}");
	rbuf_free(&line);
}

/* The card names the engine says are wild: the page keeps no list of its own. */
static void
view_wilds(struct rbuf *b)
{
	bool first = true;
	int c;

	rbuf_add(b, ",\"wilds\":[");
	for (c = HF_NOCARD + 1; c < HF_NCARD; c++)
		if (hf_card_is_wild(c)) {
			rbuf_add(b, first ? "" : ",");
			view_card(b, c);
			first = false;
		}
	rbuf_add(b, "]");
}

void
view_json(struct rbuf *b, const struct session *s, int seat)
{
	struct hf_view v;

	hf_game_view(s->g, seat, &v);
	rbuf_printf(b, "{\"v\":1,\"type\":\"view\",\"table\":%lld,\"seat\":%d,\"rules\":", (long long)s->id, seat);
	view_str(b, s->rules.name);
	view_wilds(b);
	rbuf_printf(b, ",\"round\":%u,\"dealer\":%u,\"turn\":%u,\"phase\":\"%s\",\"asker\":%d,\"winner\":%d,"
	            "\"stock\":%u,\"pile\":{\"top\":", v.round, v.dealer, v.turn,
	            v.phase < 4 ? view_phases[v.phase] : "over", v.asker, v.winner, v.stock);
	view_card(b, v.pile_top);
	rbuf_printf(b, ",\"size\":%u,\"frozen\":%s}", v.pile_size, v.pile_frozen ? "true" : "false");
	view_seats(b, s, &v);
	view_sides(b, &v);
	view_scores(b, &v);
	view_story(b, s);
	if (seat >= 0)
		view_hand(b, s, &v, seat);
	rbuf_add(b, "}");
}
