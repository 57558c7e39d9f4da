/* game-internal.h: the game struct and the engine's internal functions (engine files and tests only). */
#ifndef HF_GAME_INTERNAL_H
#define HF_GAME_INTERNAL_H

#include "handfoot.h"
#include "legal.h"

#define HF_DECK_CARDS 54
#define HF_SHOE_MAX   (HF_MAX_DECKS * HF_DECK_CARDS)

struct seat_state {
	uint8_t  hand[HF_NCARD];
	uint8_t  foot[HF_NCARD];
	uint16_t hand_n, foot_n;
	bool     in_foot;
	bool     foot_at_start;                   /* was in the foot when this turn began */
	uint16_t foot_turns;
	int8_t   answer;                          /* -1 none, 0 no, 1 yes */
	uint8_t  known[HF_NCARD];                 /* in the hand and seen by all: taken from the pile, not played since */
	uint8_t  guessed[HF_NCARD];               /* 0, or 1 + the most of the kind the table guesses it holds
	                                             beyond the known (its plays gave that away: track.c) */
};

struct side_state {
	struct hf_meld melds[HF_MAX_MELDS];
	uint8_t  nmelds;
	uint8_t  red3s;                           /* laid out (bonus mode) */
	bool     down;
	int32_t  score;
	int32_t  deal_bonus;                      /* this round */
};

/* Zeroed on creation and never holding a pointer: copy = memcpy, equal = memcmp. */
struct hf_game {
	struct hf_rules rules;
	uint64_t seed;
	uint64_t rng;                             /* this round's generator */
	uint8_t  nseats, nsides, round, dealer, turn, phase, first;
	int8_t   asker, winner;
	uint8_t  last_discard_seat;
	bool     melded, asked, permission, stock_turned;
	uint16_t nstock, npile, pile_freeze;    /* pile_freeze: cards in the pile that freeze it */
	uint8_t  stock[HF_SHOE_MAX];              /* drawn from the end */
	uint8_t  pile[HF_SHOE_MAX];               /* top is the end */
	struct seat_state seats[HF_MAX_SEATS];
	struct side_state sides[HF_MAX_SIDES];
	int32_t  nrounds_scored;
	struct hf_sheet last_sheet[HF_MAX_SIDES];
	uint16_t nevents;
	struct hf_event events[HF_MAX_EVENTS];
	int32_t  round_totals[HF_MAX_ROUNDS][HF_MAX_SIDES];
};

/* why-buffer helper: formats a refusal, returns err. */
enum hf_err hf_fail(enum hf_err err, char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* card.c */
int  card_value(const struct hf_rules *r, int card);
int  cards_value(const struct hf_rules *r, const uint8_t count[HF_NCARD]);
int  cards_total(const uint8_t count[HF_NCARD]);
const char *card_plural(int card);        /* "9s", "jokers", "black 3s" */

/* rules.c */
int32_t rules_open_min(const struct hf_rules *r, int round, int32_t score);

/* game.c */
struct hf_event *game_event(struct hf_game *g, int type, int seat, int card, int count, int flag);
int  game_side(const struct hf_game *g, int seat);
bool game_has_partners(const struct hf_game *g, int seat);
void game_after_round(struct hf_game *g);
/* The seat's position as the rulebook (legal.c) judges it. */
void game_pos(const struct hf_game *g, int seat, struct legal_pos *p);
int  game_pile_plain(const struct hf_game *g);

/* deal.c */
void deal_round(struct hf_game *g);
uint64_t deal_round_seed(uint64_t seed, int round);

/* turn.c */
void turn_start(struct hf_game *g, int seat);
enum hf_err turn_draw(struct hf_game *g, int seat, char *why, size_t len);
enum hf_err turn_discard(struct hf_game *g, int seat, int card, char *why, size_t len);
void turn_take_foot(struct hf_game *g, int seat, bool play_now);
void turn_red3s(struct hf_game *g, int seat, bool replace);
int  turn_draw_cards(struct hf_game *g, int seat, int n);

/* meld.c */
struct meld_ctx {
	int  seat;
	bool opening;                             /* the side is not down yet: opening restrictions */
	int  value;                               /* card value melded by this action */
	bool black3_book;                         /* a book of threes was made */
};
enum hf_err meld_group(struct hf_game *g, struct meld_ctx *c, const struct hf_group *grp,
                       int extra, bool pickup, char *why, size_t len);
enum hf_err meld_action(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len);
enum hf_err meld_after(struct hf_game *g, struct meld_ctx *c, bool was_down, int closed_before,
                       char *why, size_t len);
void meld_auto(struct hf_game *g, int seat);

/* pickup.c */
enum hf_err pickup_action(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len);
bool pickup_may(const struct hf_game *g, int seat);
bool pickup_frozen(const struct hf_game *g);

/* out.c */
enum hf_err out_check(const struct hf_game *g, int seat, bool *short_out, char *why, size_t len);
void out_go(struct hf_game *g, int seat, bool short_out);
enum hf_err out_ask(struct hf_game *g, int seat, char *why, size_t len);
enum hf_err out_answer(struct hf_game *g, int seat, bool yes, char *why, size_t len);

/* track.c */
void track_taken(const struct hf_game *g, uint8_t taken[HF_NCARD]);
int  track_declined(const struct hf_game *g, int seat);
void track_action(struct hf_game *g, int seat, const struct hf_action *a, const uint8_t taken[HF_NCARD],
                  int declined);

/* score.c */
void score_round(struct hf_game *g, int goer, bool short_out, bool tie);

#endif
