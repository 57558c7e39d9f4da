/* dcplay.h: players on the fake Discord against the real daemon: a guild, its members, slash commands and buttons, what the bot said. */
#ifndef HF_TEST_DCPLAY_H
#define HF_TEST_DCPLAY_H

#include <jansson.h>
#include <stdbool.h>

#include "e2e.h"
#include "fakedc.h"

#define DCPLAY_MAX_USERS 6
#define DCPLAY_TOKEN     "MTAwMDAwMDAwMDAwMDAwMDAw.dcplay.e2e-bot-token-for-tests"

struct dcplay {
	struct fakedc f;
	struct e2e_daemon d;
	char tag[32];
	char dir[256], conf[300], db[300];
	char guild[24], channel[24];
	char user[DCPLAY_MAX_USERS][24];
	char name[DCPLAY_MAX_USERS][32];
	int nusers;
	bool daemon_up;
};

/* Starts the fake with one guild (one channel, nusers members named ann, bob,
 * cy, dee, eve, fay; dee has a guild nick "Dee-Nick") and writes a
 * configuration: [bot] with bot_extra lines, [discord test] with the fake's
 * api_url, the token, guilds = the guild, and discord_extra lines.  0 or -1. */
int     dcplay_setup(struct dcplay *p, const char *tag, int nusers, const char *bot_extra, const char *discord_extra);
/* Starts the daemon and waits until its slash commands are registered (as
 * many bulk overwrites as before, plus one).  0 or -1. */
int     dcplay_start(struct dcplay *p);
/* How many bulk overwrites registering the slash commands the fake has had
 * (one per start and scope; the empty ones that clear a stale scope not counted). */
size_t  dcplay_puts(struct dcplay *p);
/* SIGTERM, and waits for the exit status (returned). */
int     dcplay_stop(struct dcplay *p);
/* Stops the daemon and the fake; removes the files. */
void    dcplay_teardown(struct dcplay *p);
/* A cmocka teardown for a test that calloc'd its dcplay into *state:
 * dcplay_teardown and free (nothing if *state is NULL). */
int     dcplay_teardown_state(void **state);
/* A test's dcplay calloc'd into *state (for dcplay_teardown_state), then
 * dcplay_setup with these arguments; fails the test if either fails. */
struct dcplay *dcplay_setup_state(void **state, const char *tag, int nusers, const char *bot_extra,
                                  const char *discord_extra);

/* A slash command by user i: opts is a JSON object of string options, or
 * NULL.  The interaction's id (static buffer), or NULL if the fake refused. */
const char *dcplay_command(struct dcplay *p, int i, const char *name, const char *opts);
/* User i presses the button custom_id on message message_id. */
const char *dcplay_press(struct dcplay *p, int i, const char *message_id, const char *custom_id);
/* The same press made age_ms ago, delivered now (as a Resume replays it): its id is its original snowflake. */
const char *dcplay_press_late(struct dcplay *p, int i, const char *message_id, const char *custom_id, int age_ms);
/* User i types text in the guild channel (message_commands). */
int     dcplay_say(struct dcplay *p, int i, const char *text);

/* The fake's state, and its recorded messages (borrowed from the state: decref the state). */
json_t *dcplay_state(struct dcplay *p);
/* How many messages the fake has recorded. */
size_t  dcplay_count(struct dcplay *p);
/* How many of them are in user i's DM and hold needle. */
int     dcplay_dm_count(struct dcplay *p, int i, const char *needle);
/* The first message at index >= from whose content holds needle and that
 * passes the filter (NULL: any): a new reference, or NULL after ms. */
json_t *dcplay_wait(struct dcplay *p, size_t from, const char *needle, bool (*ok)(json_t *m, void *ctx), void *ctx,
                    int ms);
/* The interaction's own messages (answer, follow-ups) holding needle, waited for; new reference or NULL. */
json_t *dcplay_reply(struct dcplay *p, const char *interaction, const char *needle, int ms);
/* Waits until the interaction has been acknowledged (answered or deferred); its ack ms, or -1. */
double  dcplay_acked(struct dcplay *p, const char *interaction, int ms);
/* The first card of a hand line: "... Your hand (13): A×3 Q ..." gives "A" (cmocka-asserts it is one). */
void    dcplay_first_card(const char *hand, char *out, size_t len);
/* The custom_id of the button labelled label on message m, or NULL. */
const char *dcplay_button(json_t *m, const char *label);

/* The url of the link button (style 5) labelled label on message m (NULL: any link button), or NULL. */
const char *dcplay_link(json_t *m, const char *label);

/* True for a message the guild channel shows to everyone (not ephemeral, not a DM). */
bool    dcplay_public(json_t *m, void *ctx);
/* The first turn line at index >= from (a public message whose Draw button
 * is a player's): a new reference, with *who set; NULL after ms. */
json_t *dcplay_turn_line(struct dcplay *p, size_t from, int *who, int ms);
/* Ann opens a table with rules ("classic rounds=1"), every other player
 * joins, Ann deals: the deal's turn line (new reference), *who to move. */
json_t *dcplay_deal(struct dcplay *p, const char *rules, int *who);
/* Every player hands their seat to the computer; 0 if each was answered. */
int     dcplay_auto_all(struct dcplay *p);

/* Checks every message the fake recorded: none holds a hand unless it is
 * ephemeral or in a DM; none pings anyone but who, where who is given;
 * none pings @everyone or a role.  Returns the number of bad messages (each
 * printed). */
int     dcplay_audit(struct dcplay *p);
/* Requests the fake refused as malformed or unknown (400, 401, 404): how many (each printed). */
int     dcplay_refused(struct dcplay *p);
/* Every interaction acknowledged, none late: the number that are not. */
int     dcplay_unanswered(struct dcplay *p);
/* How every game on the fake ends (cmocka assertions): the audit clean,
 * every interaction answered, nothing refused, the fake's protocol rules
 * kept, and the daemon stopped cleanly. */
void    dcplay_end(struct dcplay *p);

#endif
