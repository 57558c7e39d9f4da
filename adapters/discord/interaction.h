/* interaction.h: INTERACTION_CREATE and MESSAGE_CREATE read into plain, cleaned fields (pure: no I/O). */
#ifndef HF_DISCORD_INTERACTION_H
#define HF_DISCORD_INTERACTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "text.h"

#define DISCORD_ID_LEN    21      /* a snowflake and its NUL */
#define DISCORD_TOKEN_MAX 600     /* an interaction token's bytes */
/* permissions.mdx: the bits that make a moderator of a channel */
#define DISCORD_PERM_ADMINISTRATOR   (1ull << 3)
#define DISCORD_PERM_MANAGE_MESSAGES (1ull << 13)
/* what the bot needs to post in a channel, or in a thread */
#define DISCORD_PERM_VIEW_CHANNEL    (1ull << 10)
#define DISCORD_PERM_SEND_MESSAGES   (1ull << 11)
#define DISCORD_PERM_SEND_IN_THREADS (1ull << 38)

enum discord_interaction_kind {
	DISCORD_IA_COMMAND = 1,       /* a slash command: line is "meld 9 9 2" */
	DISCORD_IA_BUTTON             /* a button we made: line is its action ("draw"), target who it is for */
};

struct discord_interaction {
	enum discord_interaction_kind kind;
	char id[DISCORD_ID_LEN];
	char token[DISCORD_TOKEN_MAX + 1];
	char user_id[DISCORD_ID_LEN];
	char user_name[DISCORD_MAX_NAME + 1];   /* guild nick, else global name, else username */
	char guild_id[DISCORD_ID_LEN];          /* "" in a DM */
	char channel_id[DISCORD_ID_LEN];
	bool direct;                            /* used in a DM with the bot */
	char line[DISCORD_MAX_IN + 1];
	char target[DISCORD_ID_LEN];            /* BUTTON: the user it is for, "" if anyone */
	char message_id[DISCORD_ID_LEN];        /* BUTTON: the message it is on */
	bool moderator;                         /* in a guild, the member may manage messages in the channel */
	bool has_app_perms;                     /* app_permissions was given */
	unsigned long long app_perms;           /* the bot's own permissions in the channel */
	bool thread;                            /* the channel is a thread (types 10, 11, 12) */
	unsigned prompt;                        /* BUTTON: the turn line's prompt number, 0 if none */
};

/* When a snowflake was made: Unix ms (reference.mdx: ms since 2015-01-01 << 22); 0 if not one. */
int64_t discord_snowflake_ms(const char *id);

/* The permission the bot lacks to post in the interaction's channel
 * (permissions.mdx's name: "View Channel", "Send Messages", "Send Messages in
 * Threads"), or NULL if it may post there (or it is a DM, or nothing was said). */
const char *discord_interaction_cannot_post(const struct discord_interaction *ia);

/* Reads an INTERACTION_CREATE's d. app_id (NULL: not checked) must match its
 * application_id. -1 with why set if it is not one the bot acts on (another
 * type, malformed, a button that is not ours...). */
int discord_interaction_parse(json_t *d, const char *app_id, struct discord_interaction *out, const char **why);

struct discord_message {
	char id[DISCORD_ID_LEN];
	char user_id[DISCORD_ID_LEN];
	char user_name[DISCORD_MAX_NAME + 1];
	char guild_id[DISCORD_ID_LEN];
	char channel_id[DISCORD_ID_LEN];
	bool direct;
	char text[DISCORD_MAX_IN + 1];
};

/* Reads a MESSAGE_CREATE's d (message_commands = yes). -1 with why set for
 * what the bot ignores: our own messages, other bots', webhooks', system
 * messages, empty content (no MESSAGE_CONTENT), malformed ones. */
int discord_message_parse(json_t *d, const char *self_id, struct discord_message *out, const char **why);

#endif
