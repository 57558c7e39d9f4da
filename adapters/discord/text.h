/* text.h: Discord text (cleaned by lib/utf8.h): length as Discord counts it, Markdown escaping, splitting under 2000 characters. */
#ifndef HF_DISCORD_TEXT_H
#define HF_DISCORD_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* resources/message.mdx: content "up to 2000 characters". Counted here in
 * UTF-16 code units, never fewer than code points: safe under either count. */
#define DISCORD_MAX_CONTENT 2000
#define DISCORD_MAX_NAME    64      /* bytes of a shown name given to the bot */
#define DISCORD_MAX_IN      1000    /* bytes of a command line or message given to the bot */


/* Length of valid UTF-8 s (len bytes) in UTF-16 code units. */
size_t discord_text_units(const char *s, size_t len);

/* Escapes s for Discord Markdown so that a player's name or quoted text shows
 * as typed: \ * _ ~ ` | < > [ ] # get a backslash; a leading - + or a
 * leading number's dot too (lists, at the start of a line); @ gets a zero-width
 * space after it (no @everyone, @here, even in looks). Returns the length
 * written, or -1 if out is too small (out is then empty). */
int discord_text_escape(const char *s, char *out, size_t outlen);
/* The same escaping of n bytes of s, appended to out; line_start: s starts a
 * line (so a leading list mark is escaped too). */
struct rbuf;
void discord_text_escape_add(struct rbuf *out, const char *s, size_t n, bool line_start);

/* The first piece of s (len bytes) that fits in max_units UTF-16 units:
 * cut after the last line break that fits, else the last space, else on a
 * character boundary (never inside a backslash escape or a <...> mention).
 * Returns its length in bytes (line break excluded) and sets *next to where
 * the rest starts. The whole of s if it fits (*next = len). */
size_t discord_text_chunk(const char *s, size_t len, size_t max_units, size_t *next);

/* Player ids: "discord:<user id>" from a user id and back (-1 if not one). */
int discord_text_player(const char *user_id, char *out, size_t outlen);
int discord_text_user_of(const char *player, char *out, size_t outlen);
/* True if s is a snowflake: 1-20 decimal digits. */
bool discord_text_snowflake(const char *s);

#endif
