/* markdown.h: the core's styled text (lib/style.h) as Discord Markdown, cut into message contents under 2000 characters. */
#ifndef HF_DISCORD_MARKDOWN_H
#define HF_DISCORD_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>

struct rbuf;

/* Room for what is added after the cut: a ping's " <@id>" (24 bytes at most). */
#define DISCORD_MD_RESERVE 40

/* The player a message pings, if any: their user id (a snowflake) and the
 * name the core shows them by (the text of their ST_PLAYER span), or NULL
 * if not known. */
struct discord_md_ping {
	const char *user;
	const char *name;
};

/* Appends the Markdown of len bytes of styled text to out:
 *   ST_BOLD, ST_PLAYER, ST_CLEAN   **bold** (Discord has no colour in a message)
 *   ST_COMMAND                     `/draw`: the command as a slash command
 *   the other roles                their text only
 *   a line break                   a line break (bold closed before it)
 * and every run of text escaped (discord_text_escape_add): a name or a quoted
 * word can start no Markdown, mention nobody, link nothing.  With ping, the
 * first ST_PLAYER span whose text is ping->name is written <@id> instead:
 * Discord shows the player's own name there, and pings them. */
void   discord_markdown_encode(struct rbuf *out, const char *m, size_t len, const struct discord_md_ping *ping);

/* Cuts styled text into message contents of at most DISCORD_MAX_CONTENT
 * characters each (lines kept together where they fit; lib/style.c's
 * style_split, measured by the encoder above) and calls fn with each in
 * order.  With ping, a message whose spans never named them gets " <@id>"
 * at its end, so that the ping is always there.  Returns how many pieces. */
size_t discord_markdown_split(const char *m, size_t len, const struct discord_md_ping *ping,
                              void (*fn)(void *ctx, const char *content, size_t n), void *ctx);

#endif
