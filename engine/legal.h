/* legal.h: the rulebook: what the rules allow, asked alike by the rule files and the computer players (engine only). */
#ifndef HF_LEGAL_H
#define HF_LEGAL_H

#include "handfoot.h"

/*
 * Every rule a move must keep is answered here, from the rules and a seat's
 * position.  The rule files (meld.c, pickup.c, turn.c, out.c) ask before
 * they change a game; the computer players (ai-*.c) ask the same functions
 * about the moves they plan, so they cannot drift from the engine.  A
 * position holds only what the seat may know, so both build the same one.
 */

/* What stops a seat going out, apart from its side's canastas. */
enum legal_go { LEGAL_GO_OK, LEGAL_GO_PARTNER_FOOT, LEGAL_GO_PARTNER_TURN, LEGAL_GO_ASK };

struct legal_pos {
	const struct hf_rules *r;
	int      nseats;
	const uint8_t *hand;                      /* the seat's hand, by kind */
	int      hand_n;
	const struct hf_meld *melds;              /* its side's table */
	int      nmelds;
	bool     down;                            /* the side has opened this round */
	int32_t  open_min;                        /* the opening minimum that applies */
	bool     in_foot;                         /* the seat has taken up its foot */
	int      foot_n;                          /* cards in its untaken foot (0 once taken) */
	int      stock;                           /* cards in the stock */
	int      pile_top, pile_n;                /* the discard pile */
	int      pile_plain;                      /* its top card not counting wilds on it (HF_NOCARD: none) */
	bool     frozen;                          /* the pile is frozen */
	uint8_t  go;                              /* enum legal_go: partners and permission */
};

/* ------------------------------------------------------------------ melds */

int  legal_size(const struct hf_meld *m);
/* The side's open meld of rank (the first), or its last closed one; -1 if none. */
int  legal_find(const struct hf_meld *melds, int nmelds, int rank, bool open);
int  legal_closed(const struct hf_meld *melds, int nmelds);
/* Sevens close as a sevens canasta where the rules pay for one or ask for one. */
bool legal_sevens(const struct hf_rules *r, int rank);
/* The kind a full meld closes as. */
int  legal_kind(const struct hf_rules *r, const struct hf_meld *m);
/* The wild limit of a meld of naturals (an all-wild meld has none). */
bool legal_wilds(const struct hf_rules *r, int naturals, int wilds);
/* Naturals a new meld needs (with wilds making it up to three cards). */
int  legal_start(const struct hf_rules *r);

#define LEGAL_OPENING 0x1   /* the side is not down: the opening's restrictions apply */
#define LEGAL_PICKUP  0x2   /* the group is the one melded with the pile's top card */

/* Where a group goes: its meld's rank, the naturals it adds, and the meld (-1: a new one). */
struct legal_spot {
	int rank;                                 /* 4..A, HF_JOKER (all wild) or HF_BLACK3 (a book of threes) */
	int naturals;
	int idx;
};

/* The seat holds the cards a group names. */
enum hf_err legal_holds(const uint8_t hand[HF_NCARD], const struct hf_group *grp, char *why, size_t len);
/* One group (cnt: its cards, the pile's top card included) on a side's table: where it goes, or why not. */
enum hf_err legal_group(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, const uint8_t cnt[HF_NCARD],
                        int target, unsigned flags, struct legal_spot *spot, char *why, size_t len);
/* Puts a group legal_group placed on the table (closing a full meld); returns the meld's index. */
int  legal_add(const struct hf_rules *r, struct hf_meld *melds, int *nmelds, const struct legal_spot *spot,
               const uint8_t cnt[HF_NCARD]);
/* Red 3s under closed books ("K: 3h"): the books they go under, in idx[]. */
enum hf_err legal_under(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, const struct hf_group *grp,
                        bool pickup, int idx[], char *why, size_t len);

/* ------------------------------------------------------------------ going out */

int  legal_need_total(const struct hf_rules *r, int nseats);
/* The side's closed canastas allow going out; *short_out: only with the severe penalty. */
enum hf_err legal_canastas(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, int nseats,
                           bool *short_out, char *why, size_t len);
/* The canastas the side still lacks to go out (0: none), in buf as "1
 * clean and 2 more" (kinds first, then of any kind). */
int  legal_missing(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, int nseats, char *buf,
                   size_t len);
/* What one partner's foot allows. */
enum legal_go legal_partner(const struct hf_rules *r, bool in_foot, int foot_turns);
/* The seat may go out with this table (its side's, after the melds of this move). */
enum hf_err legal_out(const struct legal_pos *p, const struct hf_meld *melds, int nmelds, bool *short_out,
                      char *why, size_t len);

/* After the melds of one move: the opening minimum, the last play, the cards to keep. */
struct legal_end {
	bool     opening;                         /* the side was not down before this move */
	int      value;                           /* card value melded by this move */
	int32_t  open_min;
	int      left;                            /* cards in hand after it, the foot taken up if it was */
	bool     in_foot;
	bool     black3_book;
	int      stock;
};
/* Whether the end of this move depends on the seat being allowed to go out. */
bool legal_end_asks(const struct legal_end *e);
/* out, outwhy: whether the seat may go out after the move (legal_out; only read where legal_end_asks). */
enum hf_err legal_end(const struct hf_rules *r, const struct legal_end *e, enum hf_err out, const char *outwhy,
                      char *why, size_t len);

/* A whole meld move on a position, or a pickup's melds (top: the pile's top card, melded with
 * group 0; gained: the pile's other cards that join the hand).  *goes_out: it ends the round. */
enum hf_err legal_melds(const struct legal_pos *p, const struct hf_action *a, int top, int gained, bool *goes_out,
                        char *why, size_t len);

/* ------------------------------------------------------------------ the pile */

/* A card in the pile that freezes it. */
bool legal_freezes(const struct hf_rules *r, int card);
int  legal_taken(const struct hf_rules *r, int npile);
/* Nothing blocks the pile for this seat (its top, its size, the side not down). */
enum hf_err legal_pile_open(const struct legal_pos *p, char *why, size_t len);
/* The top card is melded by this pickup (with the group shown, if any). */
bool legal_top_melded(const struct hf_rules *r, const struct hf_action *a);
/* The pile may be taken with this action: open, justified by the cards shown, within the hand cap.
 * Where the top card goes is legal_group's (legal_melds') question. */
enum hf_err legal_pickup(const struct legal_pos *p, const struct hf_action *a, char *why, size_t len);

/* ------------------------------------------------------------------ discards */

/* A card the rules never let go to the pile while another play remains. */
bool legal_forbidden(const struct hf_rules *r, int card);
/* No meld of the seat's forbidden cards is legal (the hand's other cards aside); if one is,
 * *play (may be NULL) is such a meld. */
bool legal_stuck(const struct legal_pos *p, struct hf_action *play);
/* A card held may go with no more asked: not forbidden, and not the last card from the foot. */
bool legal_discard_plain(const struct hf_rules *r, int card, int hand_n, bool in_foot);
enum hf_err legal_discard(const struct legal_pos *p, int card, char *why, size_t len);

#endif
