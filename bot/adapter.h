/* adapter.h: the adapter API: what a chat-service adapter implements, receives and may call. */
#ifndef HF_ADAPTER_H
#define HF_ADAPTER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "command.h"
#include "log.h"
#include "style.h"

struct loop;
struct http;
struct adapter;
struct rbuf;

/* What an adapter tells the bot. Strings are only valid during the call. */
enum bot_event_type {
	BOT_EV_MESSAGE = 1, /* text said in room, or directly to the bot (direct) */
	BOT_EV_JOIN,        /* user joined room */
	BOT_EV_LEAVE,       /* user left room (room NULL: left the service, e.g. IRC QUIT) */
	BOT_EV_RENAME,      /* user_id is now shown as text (display name / nick change) */
	BOT_EV_UP,          /* connected and ready; rooms joined */
	BOT_EV_DOWN,        /* connection lost; the adapter is reconnecting */
	BOT_EV_SEND_FAILED, /* a private message to user_id could not be delivered (text: why); or,
	                     * with room and no user_id, messages to room are refused (text: why) */
	BOT_EV_ROOM_MOVED   /* room was replaced by the room text (a Matrix room upgrade): its
	                     * table, if any, goes on there */
};

struct bot_event {
	enum bot_event_type type;
	const char *room;       /* the adapter's room id ("#chan", "!abc:server"); NULL if none */
	const char *user_id;    /* stable: services account or nick (IRC), user id (Matrix) */
	const char *user_name;  /* what to call them */
	const char *text;       /* MESSAGE: the line typed (NULL with command); RENAME: the new
	                         * name; SEND_FAILED: why */
	bool direct;            /* MESSAGE: said privately to the bot */
	bool notice;            /* MESSAGE: arrived as a NOTICE (never answered automatically) */
	int64_t ts_ms;          /* server time if known, else 0 */
	uint64_t ref;           /* the adapter's own handle for this event (an interaction, a
	                         * message), 0 if none: replies to it carry it as reply_to */
	const struct command *command; /* MESSAGE: a command as data (lib/command.h), from a service
	                        * that has them (Discord's slash commands and buttons, a web
	                        * page's action): its name and arguments, built by the adapter
	                        * from the service's own fields; text is then NULL, and no
	                        * prefix or address is looked for.  NULL: text is a typed line,
	                        * which the core reads into a command once.  An adapter may
	                        * also run a command for a user this way where it set a table
	                        * up itself (Matrix: a room made from a direct message, its
	                        * new, join and play as each person joins it). */
};

/* How a private line should reach its player, named for what the player
 * sees; each adapter maps it to what its service has.  DEFAULT lets the
 * adapter's own setting decide: a player who chose is told apart from one
 * who never did. */
enum adapter_private {
	PRIVATE_DEFAULT = 0,
	PRIVATE_QUIET,          /* shown privately beside the room (IRC NOTICE, Discord ephemeral) */
	PRIVATE_CONVERSATION    /* in a direct conversation (IRC query PRIVMSG, Matrix direct room,
	                         * Discord DM); where a service has only this (Matrix), both go here */
};

enum adapter_msg_kind {
	MSG_ROOM = 1,   /* to room, for everyone there */
	MSG_PRIVATE     /* to user_id only (a hand): NOTICE or PRIVMSG on IRC, a direct room on Matrix */
};

/* What the bot asks an adapter to send: one logical message (a reply, a
 * turn's events, a hand), in styled text (lib/style.h).  The adapter encodes
 * it for its service (mIRC codes, HTML and a plain body, ANSI, Markdown...)
 * and splits it to its own budget; the core never cuts a message nor makes a
 * wire format.  Every string is only valid during the call.
 *
 * Styled text is UTF-8 with in-band marks, one control byte each: a role's
 * byte opens it, STYLE_END closes the innermost, a line break ("\n") ends
 * the line and every role open.  The roles, and how to show them:
 *   ST_BOLD     emphasis ("Round 2", totals)           bold
 *   ST_CARD     one card's name ("K", "3♥")            as text, or card-like
 *   ST_PLAYER   a player's name                        as text (IRC: a wrapped nick
 *                                                      is not highlighted), or bold
 *   ST_CLEAN    a clean canasta                        red
 *   ST_DIRTY    a dirty canasta                        dark grey
 *   ST_RED      red threes, a sevens canasta           red
 *   ST_COMMAND  a bare command name ("draw")           with prefix before it: "!draw",
 *                                                      "/draw" on Discord
 *   "\n"        a line break                           a new line, <br>...
 *   ST_SEP      a part break, between the turns of a       a line break; IRC joins parts into
 *               told fold of computer turns                 as few lines as fit (style_pack)
 * The marks never reach a wire: the adapter encodes or drops every one
 * (lib/style.c: style_walk, style_look, style_plain, style_split).  No
 * player can forge one: the core strips control bytes from all it is given. */
struct adapter_msg {
	enum adapter_msg_kind kind;
	const char *room;          /* MSG_ROOM; for MSG_PRIVATE the room the game is in (context) */
	const char *user_id;       /* MSG_PRIVATE */
	const char *styled;        /* the message in styled text: valid UTF-8, no control byte but the
	                            * marks of lib/style.h, lines separated by the line-break role */
	const char *prefix;        /* the command prefix in force for this room ("!", or ""), to show
	                            * STYLE_COMMAND spans with */
	uint64_t reply_to;         /* ev->ref of the event being handled when this message was queued
	                            * (same adapter), else 0 */
	const char *prompt_user;   /* MSG_ROOM: the user this message asks to act now, or NULL */
	const char *const *actions; /* the command names prompt_user may use now ("hand", "draw",
	                            * "pickup"), for buttons; nactions of them */
	size_t nactions;
	const char *const *mentions; /* user ids pinged by this message */
	size_t nmentions;
	enum adapter_private private_as; /* MSG_PRIVATE: the player's choice, if any */
	const char *supersede;     /* NULL: a message that must be delivered, in its order (a turn, a
	                            * round's end, a prompt).  Else an answer, and its key ("pile",
	                            * "hand", "refused/alice"): a newer message with the same key to the
	                            * same target (the room; for MSG_PRIVATE the user) replaces it while
	                            * it is still unsent.  An adapter that queues hands these facts
	                            * (supersede, asker, player) to lib/outq, which decides the class
	                            * and what replaces what (docs/OUTQ.md).  The core sends an
	                            * unchanged answer once. */
	bool again;                /* an answer that only points at the same answer said a moment
	                            * ago ("the same as 20 s ago, above"): handed to lib/outq as its
	                            * fact again, it replaces nothing, and is not queued while the
	                            * answer it points at still waits (that one says it) */
	const char *asker;         /* an answer: the user whose command it answers, or NULL (its lane in
	                            * outq).  With supersede NULL, an answer that must be delivered, said
	                            * in its order ("bob steps away"), which is not the room's story:
	                            * PENDING_ROOM does not count it. */
	const char *watch_url;     /* room's table is dealt and playing and an adapter draws tables
	                            * (ops->link): the table's public page, the one !watch gives (what
	                            * the room sees), for MSG_ROOM and for MSG_PRIVATE (room: the
	                            * game's); else NULL.  Never a seat's private link.  A service
	                            * that can show a link apart from the text (a Discord link button,
	                            * a Matrix room widget) may. */
	bool player;               /* an answer to someone seated at the table of this room (or, with no
	                            * room, at one of this adapter's): an adapter that queues serves
	                            * it with the games' lines, before the answers of people who play
	                            * nothing, so that strangers' questions never slow a table. */
};

/* Pacing (every chat service has a budget; the core spends it with care and
 * each adapter keeps to its own): an adapter that queues orders its sends
 * with lib/outq, the one policy (docs/OUTQ.md): a lane per room with the
 * private lines of its game, a lane per asker for answers, the games and
 * seated players first, supersede, and pending() counting what must be
 * delivered (supersede NULL) only. */

/* What ops->pending counts. */
enum adapter_pending {
	PENDING_GAME,              /* the room's lines and the private lines of its game: computer seats
	                            * wait for 0 before moving, so that a game the computer plays alone
	                            * never outruns a paced, capped output queue (and loses lines to it) */
	PENDING_ROOM               /* the room's story (what must be delivered, with no asker, to the
	                            * room): an answer about its table never waits for it, but says how
	                            * much of it is still on its way (docs/OUTQ.md); not a player's hand
	                            * nor another's answer */
};

/* The bot's commands, for services that declare them (Discord's slash
 * commands): from the command table, in its order. */
enum adapter_arg {
	ADAPTER_ARG_NONE,          /* no argument */
	ADAPTER_ARG_WORD,          /* one word: a team, a player, a command */
	ADAPTER_ARG_CARD,          /* one card: "9", "JK" */
	ADAPTER_ARG_CARDS,         /* cards, melds separated by commas: "9 9 2, K K K" */
	ADAPTER_ARG_TEXT           /* free text: a preset and house rules */
};

struct adapter_command {
	const char *name;          /* "meld" */
	const char *alias;         /* short alias, or NULL */
	const char *summary;       /* one line, < 100 characters */
	const char *usage;         /* argument template as shown in help, "" if none */
	const char *arg_name;      /* the option's name where a service types options ("cards"), or NULL */
	enum adapter_arg arg;
	bool arg_required;
};

/* One INI section "[type name]", as given to init. Keys are looked up with
 * adapter_cfg_*; keys never looked up are reported as unknown, with their line. */
struct adapter_cfg;

/* The most seats at a table (an adapter's seat numbers are 0 to this - 1).
 * Adapters do not see the engine: the bot checks that this is its
 * HF_MAX_SEATS when it builds (bot/view.c), so no adapter keeps a copy. */
#define ADAPTER_MAX_SEATS 6

/* A table as data (ops->view), in the JSON of docs/WEB.md ("v": 1): the
 * sides' melds (each with its kind: open, clean, dirty, wild, sevens), red
 * 3s, the seats with names and hand and foot counts, the pile's top, size
 * and frozen state, the stock, whose turn and its phase, the scores by
 * round and the last round's sheets; for a seat, also its hand grouped in
 * the order the game reads it, its foot waiting, and the commands it may
 * use now.  A public view holds no card the room cannot see. */
struct adapter_view {
	int64_t table;             /* the game's id: stable for the table's life, unique */
	const char *adapter_id;    /* the adapter the table plays on ("irc/libera") */
	const char *room;          /* its room there */
	int seat;                  /* -1: the public view; else this seat's private view */
	const char *json;          /* the view, one JSON object */
	size_t len;
	bool over;                 /* the table is gone: forget it and its links */
	bool finished;             /* with over: the game was played to its end (never an aborted
	                            * one): its public link may become its replay (adapter_replay) */
	int64_t ended;             /* with finished: when, Unix seconds on the bot's clock */
};

/* A finished game as a room's page lists it (adapter_room_games). */
struct adapter_game {
	int64_t table;             /* the game's id, as in adapter_view */
	int64_t created, ended;    /* Unix seconds; ended 0 if not known */
	const char *rules;         /* the rule set as written ("duel rounds=1") */
	int nseats, nsides;
	const char *names[ADAPTER_MAX_SEATS];
	bool computer[ADAPTER_MAX_SEATS];
	int side[ADAPTER_MAX_SEATS];        /* each seat's side */
	long long scores[ADAPTER_MAX_SEATS]; /* each side's final score (scored false: none kept) */
	bool scored;
	int winner;                /* the side that won, -1 a tie, -2 not known */
};

struct adapter_ops {
	const char *type;          /* the section type: "irc", "matrix", "console" */
	/* Reads the configuration and allocates a->priv; no I/O yet. -1 with err set on error. */
	int  (*init)(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen);
	/* Starts connecting on a->loop; events come through adapter_emit. */
	int  (*start)(struct adapter *a);
	/* Queues one message: encodes and splits it for the service, paces and
	 * retries it.  -1 if it cannot be queued. */
	int  (*send)(struct adapter *a, const struct adapter_msg *m);
	/* Says goodbye (quit_message may be NULL) and disconnects; may be called before start. */
	void (*stop)(struct adapter *a, const char *quit_message);
	/* Frees a->priv. */
	void (*free)(struct adapter *a);
	/* True if a reloaded section (SIGHUP) differs so that a reconnect is
	 * needed; false lets the bot keep the adapter running (and call reload,
	 * if it has one).  Asked for an unchanged section too: true restarts an
	 * adapter whose secret files may hold something new. */
	bool (*needs_restart)(struct adapter *a, struct adapter_cfg *cfg);
	/* Optional: lines queued for room that must be delivered (supersede NULL)
	 * and are not sent yet: what (enum adapter_pending) says which. */
	size_t (*pending)(struct adapter *a, const char *room, enum adapter_pending what);
	/* Optional: whether user_id moderates room on the service, by the
	 * service's own rules (an IRC channel operator or half-op, a Matrix user
	 * at the room's kick or redact power level, a Discord member who may
	 * manage messages in the channel).  A moderator may end any table in the
	 * room.  Answered from what the adapter already knows, with no I/O, while
	 * an event is handled; NULL: nobody moderates, only owners and votes end
	 * tables. */
	bool (*is_moderator)(struct adapter *a, const char *room, const char *user_id);
	/* Optional: applies a changed section (already checked by an init) on the
	 * live connection, where it can, when needs_restart said no: rooms joined
	 * or left, display keys...  Appends to applied the names of the keys it
	 * applies so, space-separated; the bot logs the changed keys it did not
	 * as waiting for a restart. */
	void (*reload)(struct adapter *a, struct adapter_cfg *cfg, struct rbuf *applied);
	/* Optional: what is still to be sent, every room and person (lines,
	 * messages).  On a stop the bot waits, a few seconds at most, for 0
	 * before it calls stop: what a player was told goes out. */
	size_t (*queued)(struct adapter *a);
	/* Optional, for an adapter that draws tables (a web view): the core
	 * hands it views as data, never game state.  Called on the loop, in the
	 * loop turn a table changed (with its room's line), once with the
	 * public view (seat -1: what the room sees) and once per seated person
	 * with that seat's private view; v->over: the table is gone, its links
	 * die (the last public view comes with it).  Every table of every
	 * adapter is handed to every adapter that has this op. */
	void (*view)(struct adapter *a, const struct adapter_view *v);
	/* Optional, with view: a link to table's page (seat -1: for anyone,
	 * what the room sees) or to seat's private page, written to url.  The
	 * table's link is the same each time; a seat's is made once and kept
	 * only as a hash, so it cannot be shown again: asked without renew
	 * when it exists, 1 (url untouched).  renew (or none yet): a new link,
	 * which replaces the old one (that dies).  0, or -1 if none can be made. */
	int  (*link)(struct adapter *a, int64_t table, int seat, bool renew, char *url, size_t len);
	/* Optional, with view: a link to the page of room on adapter_id (the
	 * adapter a room is on, "irc/libera"), which lists the room's recent
	 * finished games with their replays, written to url; the same each
	 * time.  0, or -1 if none can be made. */
	int  (*room_link)(struct adapter *a, const char *adapter_id, const char *room, char *url, size_t len);
	/* Optional: one clause of styled text saying where private lines land
	 * on this service by default and how to have them elsewhere (a command
	 * named as ST_COMMAND), said with a player's first private line of a
	 * game while they have not chosen, and in !help; NULL: nothing to say. */
	const char *private_note;
};

/* An adapter's table, from its one name: const struct adapter_ops
 * NAME_adapter_ops, of type "NAME", with the six calls every adapter has,
 * named after it (NAME_init, NAME_start, NAME_send, NAME_stop, NAME_free,
 * NAME_needs_restart), then the optional members it has, as designated
 * initializers:
 *     ADAPTER_OPS(console, .is_moderator = console_is_moderator);
 * ADAPTER_OPS_AS(NAME, PREFIX, ...) is the same table with the six calls
 * named PREFIX_init ... PREFIX_needs_restart, for an adapter whose library
 * already owns NAME_send or NAME_free (libstrophe's xmpp_send):
 *     ADAPTER_OPS_AS(xmpp, hfxmpp, .queued = hfxmpp_queued);
 * The table's name, its type and its calls cannot disagree. */
#define ADAPTER_OPS_AS(name, prefix, ...)                                                       \
	const struct adapter_ops name##_adapter_ops = {                                         \
		.type = #name,                                                                  \
		.init = prefix##_init, .start = prefix##_start, .send = prefix##_send,          \
		.stop = prefix##_stop, .free = prefix##_free,                                   \
		.needs_restart = prefix##_needs_restart,                                        \
		__VA_ARGS__                                                                     \
	}
#define ADAPTER_OPS(name, ...) ADAPTER_OPS_AS(name, name, __VA_ARGS__)

struct adapter {
	const struct adapter_ops *ops;
	char id[96];               /* "irc/libera": type/name, stable: sessions are keyed by it */
	char name[64];             /* the section's name */
	struct loop *loop;
	struct http *http;
	void *host;                /* the bot's; opaque to the adapter */
	void *priv;                /* the adapter's */
};

/* ---- what adapters/ gives the bot (implemented in adapters/adapters.c) ---- */

/* Every adapter compiled in, in table order; *n gets their number.  The
 * table is the adapters' (one line per service the build has, as curl's
 * protocol table is curl's): main.c hands it to bot_new, so the core
 * reaches each adapter through its ops alone and never names one. */
const struct adapter_ops *const *adapters_table(size_t *n);

/* ---- what an adapter may call (implemented in bot/) ---- */

/* Hands an event to the bot; it is handled (and every resulting game action
 * committed) before this returns. */
void adapter_emit(struct adapter *a, const struct bot_event *ev);

/* "This link's seat does CMD" (an adapter that draws tables, from a
 * page): runs the command as seat's player giving it in table's room, on
 * the table's own adapter: the same checks, the same room line, the same
 * private answer, with no text and no prefix.  That command's own answer
 * (what the core said to that player privately while it ran: a refusal, a
 * hint, the hand after a draw) is copied to answer, in styled text ("" if
 * nothing).  0, or -1 with answer saying why (no such table or seat, a
 * computer's seat). */
int  adapter_act(struct adapter *a, int64_t table, int seat, const struct command *cmd, char *answer, size_t len);

/* A finished game's replay (an adapter that draws tables, for a page): the
 * game's stored moves played again through the engine, and after each the
 * view the room could see then, as JSON appended to json:
 * {"table":ID,"rules":"duel","moves":N,"frames":[VIEW, ...]}, N + 1 views
 * (the deal, then one per move) in the format of adapter_view's public
 * view, each view's "story" holding the lines that step told.  The adapter
 * and room it was played in are written to adapter_id and room.  Built on
 * each call, from the store: a call costs one game's replay.  0; -1 if the
 * game is not one played to its end, or no longer kept. */
int  adapter_replay(struct adapter *a, int64_t table, struct rbuf *json, char *adapter_id, size_t idlen,
                    char *room, size_t roomlen);

/* The finished games (played to their end; never an aborted one) of room on
 * adapter_id, newest first, at most max, each to fn.  Their number, or -1. */
int  adapter_room_games(struct adapter *a, const char *adapter_id, const char *room, int max,
                        void (*fn)(void *ctx, const struct adapter_game *g), void *ctx);

/* The bot's wall clock, Unix seconds (tests inject it): what an adapter that
 * keeps something for a number of days measures them with. */
int64_t adapter_wall_s(struct adapter *a);

/* Tells the bot the adapter's own name, once known and after each change, so
 * that "NAME: draw", "NAME, draw" and "NAME draw" (any case) work as commands.
 * The bot keeps one name of each kind, each call replacing its kind: a user id
 * "@bot:server" (whose localpart "bot" is accepted too), and a plain name
 * (the IRC nick, the Matrix display name, the console's "handfoot"). */
void adapter_set_self(struct adapter *a, const char *name);

/* The bot's commands in table order (one source: the command table); *n
 * gets their number.  The array lives as long as the bot. */
const struct adapter_command *adapter_commands(struct adapter *a, size_t *n);

/* level: LOG_LVL_* of lib/log.h. */
void adapter_log(struct adapter *a, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same from an adapter's own printf-like wrapper. */
void adapter_vlog(struct adapter *a, int level, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Configuration lookups; each marks the key as known. */
const char *adapter_cfg_get(struct adapter_cfg *cfg, const char *key, const char *def);
/* yes/no/true/false/on/off/1/0; -1 with err ("FILE:LINE: [irc x] tls: ...") if invalid. */
int  adapter_cfg_bool(struct adapter_cfg *cfg, const char *key, bool def, bool *out, char *err, size_t errlen);
int  adapter_cfg_int(struct adapter_cfg *cfg, const char *key, long def, long min, long max, long *out,
                     char *err, size_t errlen);
/* Formats an error about key: "FILE:LINE: [type name] key: <message>". */
void adapter_cfg_error(struct adapter_cfg *cfg, const char *key, char *err, size_t errlen,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Reads a secret file (first line, no newline). A relative name is looked up
 * in $CREDENTIALS_DIRECTORY first (systemd LoadCredential=). Never logged. */
int  adapter_read_secret(const char *path, char *buf, size_t len, char *err, size_t errlen);

/* Whether user_id holds a seat at a table of this adapter now (open or in
 * play): what an adapter remembers about a person across gaps it keeps for
 * players only, so that strangers cannot grow it nor flush it. */
bool adapter_seated(struct adapter *a, const char *user_id);

/* Whether table (an adapter_view's id) is a game in play now, on any
 * adapter: what an adapter that keeps something per table across restarts
 * (the web's links) asks at its start, to forget the tables that ended or
 * did not come back meanwhile.  A table is handed its views again once its
 * room is told where it stands after a restart. */
bool adapter_table_live(struct adapter *a, int64_t table);

/* Small persistent key-value store per adapter (Matrix next_batch, outbox...),
 * in the bot's database.  get returns -1 if absent. */
int  adapter_state_get(struct adapter *a, const char *key, char *buf, size_t len);
int  adapter_state_set(struct adapter *a, const char *key, const char *value);
int  adapter_state_del(struct adapter *a, const char *key);
/* Calls fn for each key starting with prefix, in key order. */
int  adapter_state_each(struct adapter *a, const char *prefix,
                        void (*fn)(void *ctx, const char *key, const char *value), void *ctx);

#endif
