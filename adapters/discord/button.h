/* button.h: the turn line's buttons (message components) and their custom_id; allowed_mentions that ping one player at most. */
#ifndef HF_DISCORD_BUTTON_H
#define HF_DISCORD_BUTTON_H

#include <stddef.h>

#include <jansson.h>

/* components/reference.mdx: an action row holds up to 5 buttons; a legacy
 * message up to 5 rows; a custom_id is 1-100 characters. */
#define DISCORD_BUTTONS_PER_ROW 5
#define DISCORD_ROWS_MAX        5
#define DISCORD_CUSTOM_ID_MAX   100

/* The action whose button anyone may press (it answers with the presser's own hand). */
#define DISCORD_BUTTON_HAND "hand"

/* "hf:<action>:<user id>" (user "" or NULL: for anyone). -1 if it does not fit or action is not a command name. */
int discord_button_custom_id(const char *action, const char *user, char *out, size_t outlen);
/* Reads a custom_id we made: action and the user it is for ("" if anyone). -1 if it is not ours. */
int discord_button_parse(const char *custom_id, char *action, size_t alen, char *user, size_t ulen);
/* The same with the turn line's prompt number: "hf:<action>:<user id>:<prompt>" (*prompt 0 if none). */
int discord_button_parse_n(const char *custom_id, char *action, size_t alen, char *user, size_t ulen,
                           unsigned *prompt);
/* The components array for a message: one button per action ("hand",
 * "draw", "pickup"...), for user ("hand" for anyone). NULL if there are none
 * or too many. */
json_t *discord_button_rows(const char *const *actions, size_t n, const char *user);
/* The same, the player's buttons numbered with prompt (0: none): a press of
 * an older turn line's button is then known to be stale. */
json_t *discord_button_rows_n(const char *const *actions, size_t n, const char *user, unsigned prompt);

/* The button on a hand's private answer that gives its player a new link to
 * their own page: it runs "web new" (the core keeps a seat's link only as a
 * hash, so the only way to hand it again is a new one), answered privately. */
#define DISCORD_BUTTON_PAGE "page"

/* What a button's action runs: "web new" for DISCORD_BUTTON_PAGE, else the action itself. */
const char *discord_button_command(const char *action);
/* Appends a link button (type 2, style 5: a url, no custom_id) saying label
 * to *rows (made if NULL), in its last row or a new one.  -1 (rows as they
 * were) if url is not http(s) or too long, or the 5 rows of 5 are full. */
int discord_button_add_link(json_t **rows, const char *label, const char *url);

/* allowed_mentions (resources/message.mdx) that let only user ping (NULL:
 * nobody): never @everyone, @here or roles, whatever the content says. */
json_t *discord_button_mentions(const char *user);

#endif
