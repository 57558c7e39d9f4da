/* hftest.h: test-only helpers: stack a game's cards, play text moves, and a random player. */
#ifndef HFTEST_H
#define HFTEST_H

#include "game-internal.h"

/* A new game of a preset (with house rules "key=value ..."), asserting success. */
struct hf_game *t_game(const char *rules, int nplayers, uint64_t seed);
/* Parses "A A K 2 JK" into counts (asserting). */
void t_counts(const char *cards, uint8_t out[HF_NCARD]);
/* Gives seat exactly these cards in hand / foot, moving cards to and from the stock. */
void t_hand(struct hf_game *g, int seat, const char *cards);
void t_foot(struct hf_game *g, int seat, const char *cards);
/* Sets the pile (bottom first) and puts cards on top of the stock (first drawn first). */
void t_pile(struct hf_game *g, const char *cards);
void t_stock_top(struct hf_game *g, const char *cards);
/* Leaves only n cards in the stock (the rest go into the given seat's foot or the pile bottom). */
void t_stock_keep(struct hf_game *g, int n);
/* Puts a meld on side's table from the stock: rank, naturals, twos, jokers. Returns its index. */
int  t_meld(struct hf_game *g, int side, int rank, int naturals, int twos, int jokers);
/* Applies a text move, returns the error; why gets the sentence. */
enum hf_err t_play(struct hf_game *g, int seat, const char *text, char *why, size_t len);
/* Asserts a move is accepted / refused with err, and that a refusal left the game untouched. */
void t_ok(struct hf_game *g, int seat, const char *text);
void t_refused(struct hf_game *g, int seat, const char *text, enum hf_err err, const char *needle);
/* Asserts census == shoe and the internal checks. */
void t_check(const struct hf_game *g);
/* Starts seat's turn afresh (phase DRAW), as the engine does. */
void t_turn(struct hf_game *g, int seat);

/* Puts laid-out red 3s back in the stock and clears deal bonuses: a quiet table for scoring tests. */
void t_quiet(struct hf_game *g);
/* A quiet table (t_quiet) of a preset: every seat holding 4 5 6, seat 0's turn. */
struct hf_game *t_table(const char *rules, int nplayers, uint64_t seed);
/* The first event of a type in the last action, or NULL. */
const struct hf_event *t_event(const struct hf_game *g, int type);

/* A random player: proposes a candidate action (often illegal) for a seat that may act. */
void rp_propose(const struct hf_view *v, uint64_t *rng, int attempt, struct hf_action *a);

#endif
