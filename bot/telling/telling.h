/* telling.h: what players see and how it reaches them: rendering, the reply queue's calls, what the room is told and when, the story, views. */
#ifndef HF_TELLING_H
#define HF_TELLING_H

#include "store.h"

/* ---------------------------------------------------------- render.c */
/* (and what it renders by concept: render-table.c, render-scores.c,
 * render-events.c, render-turn.c; what they share: render-parts.h) */
/* Everything the bot says is styled text (lib/style.h): the renderers below
 * and every reply write roles, never a service's codes, and each adapter
 * encodes them.  Text from players is cleaned of control bytes on the way
 * in (text_clean), so it can never carry a mark.  A command named in a
 * reply is written CMD("draw"): the adapter shows it with its prefix. */
#define CMD(name) ST_COMMAND name ST_END

const char *render_card(int card);            /* "A" "10" "3♦" "3♣" "2" "JK" */
const char *render_rank_plural(int rank);      /* "9s", "As", "jokers" */
void render_hand(struct rbuf *b, const struct hf_view *v);
void render_table(struct rbuf *b, const struct hf_view *v, const char *const names[]);
void render_pile(struct rbuf *b, const struct hf_view *v);
void render_scores(struct rbuf *b, const struct hf_view *v, const char *const names[]);
/* The last round's score sheet, one line per side, each line starting with "\n". */
void render_last_sheets(struct rbuf *b, const struct hf_view *v, const char *const names[]);
void render_side_name(struct rbuf *b, const struct hf_view *v, int side, const char *const names[]);
void render_group(struct rbuf *b, const struct hf_group *g);
/* The room line(s) for the events of one accepted action, '\n' between lines
 * (a room that asked for play-by-play). */
void render_events(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n,
                   const char *const names[]);
/* One turn told when it ends, in the past tense, from its events (seat's,
 * and its partners' answers): "ann took the pile (6 cards, top 9), melded 9 9
 * 9 2 (new 9s), discarded 7".  round_over: the melds are gone from v. */
void render_turn(struct rbuf *b, const struct hf_view *v, int seat, const struct hf_event *ev, size_t n,
                 const char *const names[], bool round_over);
/* A player's own step, told to them alone: "You drew K 9", "You melded 9 9 2
 * (new 9s)"; before and v are their views before and after. */
void render_step(struct rbuf *b, const struct hf_view *before, const struct hf_view *v, const struct hf_event *ev,
                 size_t n);
/* "pile 7, 5 cards, frozen · stock 231" */
void render_pile_short(struct rbuf *b, const struct hf_view *v);
/* The player counts the rules allow: "4 or 6", "2, 3, 4 or 6", "2 to 6", "2". */
void render_counts(struct rbuf *b, const struct hf_rules *r);
/* A round's deal from its events: "Round 2: ann deals, 11 + 11 cards each; the pile starts with 9." */
void render_deal(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n,
                 const char *const names[]);
/* "Round 1 scored: ..." and each side's sheet, a line each. */
void render_round_end(struct rbuf *b, const struct hf_view *v, const char *const names[]);
void render_game_end(struct rbuf *b, const struct hf_view *v, int winner, const char *const names[]);

/* ------------------------------------------------------------------ reply.c */
/* Queues one message (styled text), sent whole at the flush. */
void reply_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room,
                 const char *user_id, const char *styled, const char *mention, enum adapter_private private_as);
/* An answer (adapter_msg.supersede = key): replaced by a newer one with the
 * same key and target while unsent, and not said again unchanged. */
void reply_answer_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room,
                        const char *user_id, const char *styled, const char *key, enum adapter_private private_as);
/* A line for the table's room, printf-style (styled text). */
void reply_table(struct bot *b, struct session *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A room line that asks user_id to act now, with the commands they may use (static strings). */
void reply_prompt(struct bot *b, struct session *s, const char *styled, const char *user_id,
                  const char *const *actions, size_t nactions);
/* A private line to a seat's player (none for a computer seat). */
void reply_seat(struct bot *b, struct session *s, int seat, const char *styled);
/* The seat's hand, privately (none for a computer seat); step, if not NULL,
 * goes before it on the same line ("You drew K 9"). */
void reply_hand(struct bot *b, struct session *s, int seat);
/* The same with step before it, and as an answer with key (NULL: it must be delivered). */
void reply_hand_step(struct bot *b, struct session *s, int seat, const char *step, const char *key);
/* The hand a view holds, as a number (never 0), to tell a changed one. */
uint32_t reply_hand_hash(const struct hf_view *v);
/* Forgets the answers said to room and to user_id (either may be NULL): who
 * joins a room, or comes back, has not seen them. */
void reply_forget(struct bot *b, struct adapter *ad, const char *room, const char *user_id);
/* Sends every queued message, in order (the loop's before-sleep hook does it). */
void reply_flush(struct bot *b);
void reply_free(struct bot *b);
/* "NAME: usage: !meld CARDS", for c->entry. */
void reply_usage(struct cmd_ctx *c);
/* Speaks to the user: in the room (public), or privately (private). */
void reply(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void reply_private(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void reply_room(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An answer to a question (!pile, !table...), keyed (adapter_msg.supersede):
 * where it was asked, or privately. */
void reply_answer(struct cmd_ctx *c, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void reply_answer_private(struct cmd_ctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A refusal: privately to a player of this table, else where it was said;
 * keyed per user, so a flood of them queues one. */
void reply_refuse(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------ tell.c */
/* After an accepted action of actor (or the deal: actor -1, a and before
 * NULL; before is the game before it): the turn that ended joins what is
 * held; the room is told when a person must act (with the ping), at a
 * round's end, or once a table of computers has gone round; the actor's own
 * step (draw, pickup, meld) goes to them alone with their hand; every other
 * hand that changed goes to its player, if a person plays it. */
void tell_action(struct bot *b, struct session *s, int actor, const struct hf_action *a, const struct hf_game *before);
/* Everything held, to the room now (with the prompt for whoever must act, if prompt). */
void tell_flush(struct bot *b, struct session *s, bool prompt);
/* A line of its own (a round's end), held with the rest. */
void tell_line(struct session *s, const char *styled);
/* A heading held with the rest ("Dealing..."): the line after it (the
 * deal) is a part of it, which IRC sends on the same line where it fits. */
void tell_heading(struct session *s, const char *styled);
/* The game a question of seat's describes: as the room was last told it
 * (computer turns held to go out together are not told yet), or the live
 * game for the seat whose turn is in progress (their own steps). */
const struct hf_game *tell_shown(const struct session *s, int seat);
/* Keeps in the store how far the room has heard the story, once the
 * adapter has sent every line of the room handed to it (its pending). */
void tell_keep(struct bot *b, struct session *s);
/* After a restart: the moves the room was never told (a SIGKILL), told now. */
void tell_untold(struct bot *b, struct session *s);
/* The commands the seat waited for may use now, for buttons. */
const char *const *tell_actions(const struct session *s, size_t *n);
/* Whether the room asked for play-by-play (every move told as it happens). */
bool tell_moves(const struct session *s);
bool tell_room_moves(struct bot *b, struct adapter *ad, const char *room);
void tell_load(struct bot *b, struct session *s);
/* Sets the room's preference (kept in the store): 0, or -1 if it could not be saved. */
int  tell_set(struct bot *b, struct adapter *ad, const char *room, bool moves);
void tell_free(struct session *s);

/* story.c: a room line told (styled) joins the round's story, kept in the store; loaded at a
 * restore; forgotten when the table ends. */
void story_told(struct bot *b, struct session *s, const char *styled);
void story_load(struct bot *b, struct session *s);
void story_forget(struct bot *b, struct session *s);
void story_free(struct session *s);

/* ------------------------------------------------------------ view.c */
/* The table as data for adapters that draw it (adapter_ops.view): seat -1
 * the public view, else that seat's; JSON, docs/WEB.md. */
void view_json(struct rbuf *out, const struct session *s, int seat);
/* Hands the views of every changed table to the adapters that draw (the
 * loop's before-sleep hook, with the replies). */
void view_flush(struct bot *b);
/* A table is ending: its last public view, over (its links die). */
void view_end(struct bot *b, struct session *s);
/* A link to s's page (seat -1) or to seat's (renew: a new one, the old one
 * dies), from the first adapter that makes links: 0; 1 if seat's exists
 * and cannot be shown again (adapter_ops.link); -1 if no adapter makes one. */
int  view_link(struct bot *b, struct session *s, int seat, bool renew, char *url, size_t len);
/* The public page of the table dealt in ad's room (adapter_msg.watch_url), written to url, with no
 * side effect; -1 if there is none (no table dealt there, no adapter draws tables). */
int  view_watch_url(struct bot *b, const struct adapter *ad, const char *room, char *url, size_t len);

/* ------------------------------------------------------------ replay.c */
/* The replay of finished game table, as adapter_replay describes it,
 * appended to json (its lines with commands after prefix); r gets the game
 * as the store has it.  0, or -1 with why (json as it was). */
int     replay_json(struct store *st, int64_t table, const char *prefix, struct rbuf *json, struct store_replayed *r,
                    char *why, size_t whylen);

#endif
