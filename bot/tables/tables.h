/* tables.h: tables before and during a game: opening and seating, the flow of a game, clocks, a table's end, restore and resume. */
#ifndef HF_TABLES_H
#define HF_TABLES_H

#include "telling.h"

/* ----------------------------------------------------------- clock.c */
struct session;
/* A clock as typed ("2m", "3h", "1d": from 2m to 7d), in ms; -1 with why. */
int     clock_parse(const char *text, int64_t *ms, char *why, size_t whylen);
void    clock_format(int64_t ms, char *buf, size_t len);
/* Takes a "clock=..." word out of a rules text (in place): *ms, 0 if none; -1 with why. */
int     clock_take(char *rules, int64_t *ms, char *why, size_t whylen);
/* The room's default clock (!clock), 0 if none; setting it: 0, or -1. */
int64_t clock_room(struct bot *b, struct adapter *ad, const char *room);
int     clock_room_set(struct bot *b, struct adapter *ad, const char *room, int64_t ms);
/* A table's clock in the store ("clock ID"), back at a restore, gone with the table. */
void    clock_keep(struct bot *b, struct session *s);
void    clock_load(struct bot *b, struct session *s);
void    clock_forget(struct bot *b, struct session *s);
/* When the reminder and the takeover come after a wait begins, ms (0: never). */
int64_t clock_remind_ms(const struct bot *b, const struct session *s);
int64_t clock_takeover_ms(const struct bot *b, const struct session *s);

/* ----------------------------------------------------------- table.c */
struct cmd_ctx;
struct session *table_open(struct cmd_ctx *c, const char *rules_text, char *why, size_t whylen);
/* Whether user_id may take one more seat on ad (opening: and one more table
 * there): the caps max_tables and max_tables_per_user.  false with why. */
bool table_may_sit(struct bot *b, struct adapter *ad, const char *user_id, const char *name, bool opening,
                   char *why, size_t whylen);
int  table_sit(struct bot *b, struct session *s, const char *user_id, const char *name, int team);
int  table_add_ai(struct bot *b, struct session *s, int level);
/* Whether the rules deal to n players (with their default sides). */
bool table_count_ok(const struct hf_rules *r, int n);
void table_remove_seat(struct session *s, int seat);
/* The teams a deal would make: the sides (returned), and the team each
 * seat plays in (0-based; a seat that asked for none joins the smallest).
 * The count is the table's, or the next one the rules deal to (or, not
 * dealing, the next one where the teams asked for fit).  -1 with why if the
 * teams asked for cannot be. */
int  table_teams(const struct session *s, int team[HF_MAX_SEATS], bool dealing, char *why, size_t whylen);
/* Puts seat in team (0-based; -1 any) if the teams can still be: 0, else -1 with why. */
int  table_set_team(struct session *s, int seat, int team, char *why, size_t whylen);
/* The player count the table heads for: its own, or the next the rules deal to. */
int  table_target_count(const struct session *s);
/* The partner a !play asked for sits down in the opener's team; the
 * computer fills the rest and deals.  0, or -1 with the refusal said. */
int  table_partner_sits(struct cmd_ctx *c);
/* The most teams the rules ever make (a team number goes up to it). */
int  table_team_max(const struct hf_rules *r);
/* Whether the rules seat partners at their biggest table (so one may join as a partner). */
bool table_has_partners(const struct hf_rules *r);
void table_close(struct bot *b, struct session *s, const char *state);

/* ------------------------------------------------------------ flow.c */
/* Applies action for seat: engine, store (committed), what is told (tell.c),
 * timers.  0, 1 if the game ended (the session is gone), or -1 with why. */
int  flow_apply(struct bot *b, struct session *s, int seat, const struct hf_action *a, char *why, size_t whylen);
/* Deals: creates the game of an open table and starts play. */
int  flow_start(struct bot *b, struct session *s, char *why, size_t whylen);
/* Re-arms the session's timer for whoever must act now. */
void flow_schedule(struct bot *b, struct session *s);
void flow_cancel(struct bot *b, struct session *s);
/* A human typed: ends the computer stand-in. */
void flow_back(struct bot *b, struct session *s, int seat);
/* A person back at a table that waited (taken over, or reminded): the
 * table and their hand, privately, in one answer. */
void flow_catch_up(struct bot *b, struct session *s, int seat);
/* The computer plays seat for its player (away) or not; kept in the store. */
void flow_away(struct bot *b, struct session *s, int seat, bool away);
/* Writes the seats of the table to the store. */
int  flow_save_seats(struct bot *b, struct session *s);

/* --------------------------------------------------------- restore.c */
/* Restores every unfinished game from the store whose adapter is configured
 * and which is not live already: replays its actions, re-arms its timers. */
int  restore_games(struct bot *b);

/* ---------------------------------------------------------- resume.c */
/* The line that tells a restored table where it stands: round, whose turn
 * and what they may do, the pile; *ping gets the seat asked to act (-1 none). */
void resume_line(struct rbuf *b, const struct session *s, int *ping);
/* That line for the room, and the hand of each person the game waits for. */
void resume_table(struct bot *b, struct session *s);
/* On a's first "up" after a restore: every restored table of a told, its timers armed. */
void resume_adapter(struct bot *b, struct adapter *a);

/* ------------------------------------------------------------ bot-session.c */
/* Ends a session: removes its timers and frees it. */
void bot_session_end(struct bot *b, struct session *s);

/* ----------------------------------------------------------- moved.c */
/* BOT_EV_ROOM_MOVED: the table of ev->room moves to ev->text, both rooms told. */
void bot_room_moved(struct bot *b, struct adapter *a, const struct bot_event *ev);

#endif
