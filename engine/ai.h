/* ai.h: internals shared by the computer players (engine/ai*.c); they see a game only through a view. */
#ifndef HF_AI_H
#define HF_AI_H

#include "handfoot.h"
#include "legal.h"

/*
 * A position as one seat reasons about it: its hand and its side's table,
 * copied out of the view so a plan can be tried on it without touching the
 * view.  Everything here is derived from the view alone.
 */
struct ai_pos {
	const struct hf_view  *v;
	const struct hf_rules *r;
	int     me, side;
	uint8_t hand[HF_NCARD];
	int     hand_n;
	bool    down;
	int     nmelds;
	struct hf_meld melds[HF_MAX_MELDS];
	int8_t  open_idx[HF_NCARD];   /* the side's open meld of each rank (HF_JOKER: wild), or -1 */
	bool    closed_before[HF_MAX_MELDS]; /* closed in the view (a red 3 may go under it) */
	bool    permission;           /* the partners agreed to going out (a plan may assume it, to see if asking pays) */
	bool    sharp;                /* the hard player's plans: odd naturals onto closed canastas, sharp discards */
};

void ai_pos_init(struct ai_pos *p, const struct hf_view *v);
bool ai_pos_wild_ok(const struct ai_pos *p, int rank, int naturals, int wilds);
int  ai_pos_meld_size(const struct hf_meld *m);
/* The position as the rulebook judges it (engine/legal.h): the engine builds the same one. */
void ai_pos_legal(const struct ai_pos *p, struct legal_pos *lp);
/* Puts a group on the side's table as the engine would (open meld of the rank, else new). */
void ai_pos_add(struct ai_pos *p, const struct hf_group *g);
/* The side's closed melds meet the going-out requirements. */
bool ai_pos_melds_ready(const struct ai_pos *p);
/* Every partner meets the foot condition for this seat to go out. */
bool ai_pos_partners_ready(const struct ai_pos *p);
bool ai_pos_has_partners(const struct ai_pos *p);
/* A card the rules forbid to discard while another play remains. */
bool ai_pos_forbidden(const struct ai_pos *p, int card);
/* The engine takes this discard (legal_discard). */
bool ai_pos_can_discard(const struct ai_pos *p, int card);
/* No card may be discarded (classic's jokers while one can be melded): the meld the rulebook finds. */
bool ai_pos_forced(const struct ai_pos *p, struct hf_action *out);
int  ai_pos_value(const struct ai_pos *p, const uint8_t count[HF_NCARD]);
bool ai_pos_sevens_rank(const struct ai_pos *p, int rank);

/* How hard a plan melds. */
struct ai_style {
	bool pairs;          /* start melds from a natural pair and a wild */
	bool wilds_close;    /* spend wilds to close canastas */
	bool wilds_all;      /* put every wild somewhere it may go */
	bool wild_meld;      /* start an all-wild meld */
	int  keep;           /* cards that must stay in hand */
};

/* A meld action built on a position: groups, the cards left, the table after. */
struct ai_plan {
	struct hf_action act;
	struct ai_pos    after;
	int     value;                /* card values melded (what counts to open) */
	int8_t  group_of[HF_NCARD];   /* group index per meld rank (HF_JOKER: wild meld) */
	const struct ai_pos *opening; /* the position planned from (its down says if this opens) */
	int8_t  pair_only;            /* the pickup's rank where only a natural pair may be shown */
};

/* Plans melds from p's hand. first (may be NULL) is the shown group of a
 * pickup, already on after's table with the top card; its value counts.
 * Returns false if nothing legal could be planned (e.g. the opening falls short). */
bool ai_plan_melds(struct ai_plan *pl, const struct ai_pos *p, const struct ai_style *st,
                   const struct hf_group *first, int top);
/* A meld action the rulebook accepts from p (legal_melds). */
bool ai_plan_legal(const struct ai_pos *p, const struct hf_action *a);
/* The most that can be melded, keeping keep cards (for going out and for the opening). */
bool ai_plan_all(struct ai_plan *pl, const struct ai_pos *p, int keep);

/* A plan that ends the round: melds (maybe none) then possibly a last discard. */
struct ai_out {
	struct ai_plan plan;
	int  discard;                 /* HF_NOCARD: the melds empty the hand */
};
bool ai_out_plan(struct ai_out *o, const struct ai_pos *p);
/* May this seat go out this turn as far as asking goes: true if it must ask first. */
bool ai_out_need_ask(const struct ai_pos *p);
bool ai_out_answer(const struct ai_pos *p);

/* Pickup: the action that justifies taking the pile (and opens if need be). */
bool ai_pickup_plan(struct hf_action *a, const struct ai_pos *p, int *gain);

/* Discard: the card to throw from hand (never one the rules forbid). */
int  ai_discard_choose(const struct ai_pos *p, uint64_t *rng, bool careful);
int  ai_discard_danger(const struct ai_pos *p, int card);
/* The hard player's discard: as careful, and it blocks an open pile with a 2 rather than give it away. */
int  ai_discard_sharp(const struct ai_pos *p);
/* Its cost for every card kind (INT32_MAX where the card cannot be thrown); returns the cheapest. */
int  ai_discard_sharp_costs(const struct ai_pos *p, int cost[HF_NCARD]);

/* The hard player's search (ai-search.c): candidates (ai-cand.c) played out in sampled worlds (ai-rollout.c). */
#define AI_CANDS 10
/* A cap on the worlds of one decision, whatever the budget. */
#define AI_SEARCH_MAX_WORLDS 4096
/* What winning the game is worth beside the round's margin, where a rollout's round ends the game. */
#define AI_WIN_VALUE 2000
int  ai_cand_list(const struct ai_pos *p, const struct hf_action *base, struct hf_action list[AI_CANDS]);
void ai_rollout_scores(const struct hf_game *g, int32_t score[HF_MAX_SIDES]);
int  ai_rollout_play(struct hf_game *g, struct hf_view *w, int side, uint64_t *rng);
int32_t ai_rollout_value(const struct hf_game *g, int side, const int32_t before[HF_MAX_SIDES]);
void ai_search_choose(const struct hf_view *v, uint32_t budget, uint64_t *rng, struct hf_action *out);

/* Levels. */
void ai_easy_choose(const struct hf_view *v, uint64_t *rng, struct hf_action *out);
void ai_normal_choose(const struct hf_view *v, uint64_t *rng, struct hf_action *out);
/* The hard player: its policy (the normal player sharpened), overruled by its search within the budget. */
void ai_hard_choose(const struct hf_view *v, uint32_t budget, uint64_t *rng, struct hf_action *out);
void ai_hard_policy(const struct hf_view *v, uint64_t *rng, struct hf_action *out);
/* The normal player's move from a position (a sharp one plays as the hard player's base). */
void ai_normal_move(const struct ai_pos *p, uint64_t *rng, struct hf_action *out);
/* Answers an ask, or returns false if this seat has nothing to answer. */
bool ai_normal_common(const struct ai_pos *p, struct hf_action *out);

#endif
