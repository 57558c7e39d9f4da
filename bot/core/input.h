/* input.h: what comes in from chat: text hygiene and words, addresses to the bot, near names, the flood table. */
#ifndef HF_INPUT_H
#define HF_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct bot;
struct session;

/* ------------------------------------------------------------ text.c */
/* Cleans hostile input in place: invalid UTF-8 bytes become '?', tabs
 * spaces, and every other control character (CR/LF included; utf8_hostile)
 * is dropped.  Returns the new length. */
size_t text_clean(char *s);
/* True if s is valid UTF-8 with no control character: safe to echo as it is
 * (a room or user id, which the bot never rewrites). */
bool   text_plain(const char *s);

/* --------------------------------------------------------- address.c */
/* The names the bot answers to on one adapter (adapter_set_self). */
struct address {
	char id[128];            /* a user id "@bot:server", or empty */
	char local[96];          /* its localpart "bot" */
	char name[96];           /* a nick or display name */
};
/* Records a name: a "@local:server" id replaces the id (and localpart); anything else the name. */
void address_set(struct address *ad, const char *name);
/* The command in a line addressed to the bot by name, or NULL; *loose when
 * only a space followed the name ("handfoot draw"), where chatter is likely. */
const char *address_strip(const struct address *ad, const char *text, bool *loose);

/* ------------------------------------------------------------ near.c */
/* Whether a and b are near variants of one name ("bob_", "bob|away", "Bob2"
 * of "bob"), not the same name. */
bool near_variant(const char *a, const char *b);
/* The human seat of s whose name name is a near variant of; -1 if none. */
int  near_seat(const struct session *s, const char *name);

/* ----------------------------------------------------------- flood.c */
/* One bucket per user of an adapter, whatever the room: a user's allowance
 * (flood_burst, flood_refill) is stricter than a connection's send rate, so
 * no one holds a share of the budget.  A set-associative table, bounded
 * however many users pass through. */
#define FLOOD_SLOTS 4096
#define FLOOD_WAYS  4
struct flood_slot {
	uint64_t key;
	int64_t last_ms;         /* tokens counted up to here */
	int64_t seen_ms;         /* last command */
	int32_t tokens_milli;
	bool warned;
};
#define FLOOD_KEY_LEN 16
struct flood {
	struct flood_slot slots[FLOOD_SLOTS];
	uint8_t key[FLOOD_KEY_LEN];   /* the slots' hash key: secret, new at each start */
};
/* Empties the table and sets its key (random: bot_new draws one). */
void flood_init(struct flood *f, const uint8_t key[FLOOD_KEY_LEN]);
enum flood_verdict { FLOOD_OK, FLOOD_WARN, FLOOD_DROP };
enum flood_verdict flood_check(struct flood *f, const char *adapter, const char *user, int64_t now, int burst,
                               int refill_ms);
/* Gives back the command just counted: a move accepted in the player's own
 * turn adds nothing to the budget (the turn is told once, whatever its
 * steps), so a quick player is never slowed down by their own game. */
void flood_refund(struct flood *f, const char *adapter, const char *user, int64_t now, int burst, int refill_ms);

#endif
