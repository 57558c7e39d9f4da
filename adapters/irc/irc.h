/* irc.h: the IRC adapter's internal header: line parser, text cleaning, token bucket, queues, users. */
#ifndef HF_IRC_INTERNAL_H
#define HF_IRC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outq.h"
#include "rbuf.h"
#include "style.h"
#include "xmalloc.h"

/* ------------------------------------------------------------------ numerics */
/* The replies the adapter acts on, by their names in RFC 1459 / RFC 2812 and
 * the IRCv3 SASL specification (events.c dispatches on them). */
#define RPL_WELCOME          "001"
#define RPL_ISUPPORT         "005"
#define RPL_TRYAGAIN         "263"   /* a command rate-limited (Solanum: WHO) */
#define RPL_ISON             "303"
#define RPL_ENDOFWHO         "315"
#define RPL_WHOREPLY         "352"
#define RPL_NAMREPLY         "353"
#define RPL_WHOSPCRPL        "354"   /* WHOX */
#define RPL_ENDOFMOTD        "376"
#define RPL_HOSTHIDDEN       "396"
#define ERR_NOSUCHNICK       "401"
#define ERR_NOSUCHCHANNEL    "403"
#define ERR_CANNOTSENDTOCHAN "404"
#define ERR_NOCOLORSONCHAN   "408"   /* Bahamut; ERR_NOCTRLSONCHAN on hybrid: control codes refused */
#define ERR_TOOMANYCHANNELS  "405"
#define ERR_NOMOTD           "422"
#define ERR_ERRONEUSNICKNAME "432"
#define ERR_NICKNAMEINUSE    "433"
#define ERR_NICKCOLLISION    "436"
#define ERR_UNAVAILRESOURCE  "437"
#define ERR_LINKCHANNEL      "470"   /* forwarded to another channel (+f on Solanum) */
#define ERR_CHANNELISFULL    "471"
#define ERR_INVITEONLYCHAN   "473"
#define ERR_BANNEDFROMCHAN   "474"
#define ERR_BADCHANNELKEY    "475"
#define ERR_YOUREBANNEDCREEP "465"   /* K-lined (or throttled) */
#define ERR_NEEDREGGEDNICK   "477"
#define ERR_BADCHANNAME      "479"
#define ERR_THROTTLE         "480"   /* Solanum: join throttled */
#define ERR_SECUREONLYCHAN   "489"
#define ERR_TARGETTOOFAST    "439"   /* UnrealIRCd: target change too fast */
#define ERR_NONONREG         "486"   /* the target takes messages from identified users only */
#define ERR_CANTSENDTOUSER   "531"   /* InspIRCd */
#define ERR_TARGCHANGE       "707"   /* Solanum: targets changing too fast, message dropped */
#define ERR_TARGUMODEG       "716"   /* the target's +g (caller id) */
#define RPL_TARGNOTIFY       "717"
#define RPL_LOGGEDIN         "900"
#define ERR_NICKLOCKED       "902"
#define RPL_SASLSUCCESS      "903"
#define ERR_SASLFAIL         "904"
#define ERR_SASLTOOLONG      "905"
#define ERR_SASLABORTED      "906"
#define RPL_MONONLINE        "730"   /* IRCv3 MONITOR */
#define RPL_MONOFFLINE       "731"

/* ------------------------------------------------------------------ parse.c */
#define IRC_MAX_PARAMS 15
#define IRC_MAX_TAGS   32
#define IRC_MAX_LINE   512           /* the message proper, CR LF included */
#define IRC_MAX_TAGS_LEN 8191        /* IRCv3 message-tags: "@...;... " at most */
#define IRC_MAX_WIRE   (IRC_MAX_TAGS_LEN + IRC_MAX_LINE)

struct irc_tag {
	const char *key;
	const char *value;               /* unescaped; "" when absent */
};

/* One line, tokenised in place (after suckless ii): every pointer points
 * into the buffer given to irc_parse. */
struct irc_msg {
	struct irc_tag tags[IRC_MAX_TAGS];
	int ntags;
	const char *nick;                /* source: nick or server name; NULL if none */
	const char *user;                /* NULL if absent */
	const char *host;                /* NULL if absent */
	const char *command;             /* upper-cased in place */
	const char *params[IRC_MAX_PARAMS];
	int nparams;
};

/* Parses one line (no CR LF) of len bytes in buf, which it modifies.
 * -1 if the line is not a valid message (empty, NUL inside, too long, no command). */
int         irc_parse(char *buf, size_t len, struct irc_msg *m);
/* The value of tag key, or NULL if the message has none. */
const char *irc_parse_tag(const struct irc_msg *m, const char *key);
/* A "time" tag (2024-01-31T12:34:56.789Z) as Unix milliseconds; 0 if invalid. */
int64_t     irc_parse_time(const char *s);
/* RFC 1459 case mapping into dst (NUL-terminated, cut to dstlen). */
void        irc_parse_casefold(char *dst, size_t dstlen, const char *src);
/* Whether a and b are the same nick or channel under that case mapping (63 bytes compared). */
bool        irc_parse_same(const char *a, const char *b);
/* The same under ISUPPORT CASEMAPPING: ascii (only A-Z fold; InspIRCd 4's
 * default) or rfc1459 ([]\~ fold to {}|^ too). */
void        irc_parse_fold(char *dst, size_t dstlen, const char *src, bool ascii);
bool        irc_parse_same_as(const char *a, const char *b, bool ascii);

/* ------------------------------------------------------------------ text.c */
/* Incoming text: mIRC formatting codes (colours with their digits) and C0
 * controls are taken out, as the IRC wire format's, never the bot's
 * business; then utf8_clean: invalid UTF-8 dropped, hostile characters
 * (C1, bidi overrides) and runs of spaces one space, none at the ends.
 * Writes at most dstlen-1 bytes (on a character boundary) and returns them. */
size_t irc_text_in(char *dst, size_t dstlen, const char *src);
/* A message's text for the bot: only the mIRC formatting codes are taken
 * out (the bot cleans the rest, once, for every service); cut to dstlen-1
 * bytes on a character boundary. */
size_t irc_text_unformat(char *dst, size_t dstlen, const char *src);
/* Copies src (NULL: "") into dst, cut to len on a character boundary. */
void   irc_text_copy(char *dst, size_t len, const char *src);

/* ------------------------------------------------------------------ format.c */
/* Appends len bytes of styled text as one IRC line's text: mIRC bold (\x02)
 * and colours (\x03 04 red, 14 grey) when colors, plain text otherwise;
 * commands shown with prefix.  No CR, LF or NUL comes out. */
void irc_format(struct rbuf *out, const char *m, size_t len, const char *prefix, bool colors);

/* ------------------------------------------------------------------ bucket.c */
/* A token bucket kept as a virtual clock (RFC 1459 8.10 style): each line
 * costs rate_ms; up to burst lines may go at once. */
struct irc_bucket {
	int64_t next;                    /* virtual time when the bucket is full again */
	int64_t rate_ms;
	int burst;
};

void    irc_bucket_init(struct irc_bucket *b, int burst, int64_t rate_ms);
/* Milliseconds until one line may be sent (0: now). */
int64_t irc_bucket_wait(const struct irc_bucket *b, int64_t now);
/* Spends one line (call only when irc_bucket_wait said 0). */
void    irc_bucket_take(struct irc_bucket *b, int64_t now);

/* ------------------------------------------------------------------ base64.c */
/* Standard base64 of len bytes into dst (dstlen >= 4*((len+2)/3)+1); -1 if too small. */
int irc_base64(char *dst, size_t dstlen, const unsigned char *src, size_t len);

/* ------------------------------------------------------------------ queue.c */
/* Output queues on lib/outq (docs/OUTQ.md): a lane is a channel with its
 * players' private lines, one asker's answers, or a nick; a line goes in
 * with its facts (struct irc_qfacts), and lib/outq decides its class and
 * which older answer it replaces.  Lane names are case-folded here. */
#define IRC_QUEUE_FIRST_RUN OUTQ_FIRST_RUN
#define IRC_QUEUE_FEW_RESTS OUTQ_FEW_RESTS
#define IRC_QUEUE_LANE      128      /* a lane's name, case-folded, at most */

struct irc_queue {
	struct outq *oq;                  /* NULL until the first line */
	size_t lines;
	size_t max_per_target;
};

/* What a line is, as the adapter knows it (never its class). */
struct irc_qfacts {
	uint64_t key;           /* an answer's key (its target and supersede key); 0: it must be delivered */
	const char *asker;      /* whose question it answers (NULL: nobody's) */
	bool player;            /* the asker is seated at a table */
	bool about_room;        /* a private line about the game of the lane's room */
	bool piece;             /* the next line of the message queued just before it */
	bool again;             /* it only points at the same answer said a moment ago: it replaces nothing */
	bool stranger;          /* must be delivered, to a stranger, for no game (a CTCP reply) */
};

void   irc_queue_init(struct irc_queue *q, size_t max_per_target);
/* Appends a wire line (no CR LF) with its facts to lane; -1 if the lane
 * is full.  An answer (not a piece) replaces the same one still queued. */
int    irc_queue_push_facts(struct irc_queue *q, const char *lane, const struct irc_qfacts *f, const char *line,
                            size_t len);
/* The same for a line that must be delivered, and a stranger's answer. */
int    irc_queue_push(struct irc_queue *q, const char *lane, const char *line, size_t len);
int    irc_queue_push_key(struct irc_queue *q, const char *lane, uint64_t key, const char *line, size_t len);
/* Lines waiting in lane; those of them that must be delivered; and of
 * those, the room's story (not aside). */
size_t irc_queue_count(const struct irc_queue *q, const char *lane);
size_t irc_queue_count_keep(const struct irc_queue *q, const char *lane);
size_t irc_queue_count_room(const struct irc_queue *q, const char *lane);
/* Passes every queued line to fn, which keeps it (0), drops it (< 0), or
 * replaces it with the n bytes it wrote into buf (n > 0); lanes left empty
 * go.  How many lines were dropped or replaced. */
size_t irc_queue_rewrite(struct irc_queue *q, int (*fn)(void *ctx, const char *line, size_t len, char *buf,
                                                       size_t buflen), void *ctx);
/* Takes the next line into buf (NUL-terminated); its length, 0 if none. */
size_t irc_queue_pop(struct irc_queue *q, char *buf, size_t buflen);
/* Drops the lines waiting in lane (a channel whose messages are refused, a
 * nick gone); how many. */
size_t irc_queue_drop_lane(struct irc_queue *q, const char *lane);
/* Drops every line (it may be used again). */
void   irc_queue_clear(struct irc_queue *q);

/* ------------------------------------------------------------------ users.c */
/* The users the adapter can see (in its channels, or who spoke to it), to
 * turn a nick into a stable user id and back.  Ids: "acct:<account>" when
 * services told us the account, else "nick:<nick when first seen>",
 * both case-folded. */
#define IRC_MAX_LOOSE 256             /* users in none of our channels (who only spoke to us) kept;
                                      * past it the one heard from longest ago is forgotten */
#define IRC_MOD_LEVELS 4             /* channel modes that moderate: owner, admin, op, half-op */

struct irc_user {
	char nick[64];                   /* as shown */
	char key[64];                    /* case-folded nick */
	char account[64];                /* case-folded services account; "" if unknown */
	char first[80];                  /* case-folded nick when first seen; a newcomer who
	                                  * is not that nick's player gets "<nick>#<tag>" */
	char addr[128];                  /* "user@host" as last seen; "" if unknown yet */
	bool unsure;                     /* nick-keyed, first seen after a gap: who they are waits
	                                  * for their address (no private line goes to them) */
	bool bound;                      /* their address recorded for their id on this connection */
	int64_t rehost_at;               /* a QUIT "Changing host" (no chghost): the same person's JOIN
	                                  * with a new host follows; 0 if none */
	uint64_t chans;                  /* bit i: in the adapter's channel i */
	uint64_t heard;                  /* when last heard from, on the table's own count */
	uint64_t mod[IRC_MOD_LEVELS];    /* bit i of mod[k]: holds the k-th moderating prefix mode
	                                  * (modes.c) in channel i */
};

struct irc_users {
	struct irc_user *v;
	size_t n, cap;
	uint64_t clock;                  /* counts lookups: the stamps of "heard" */
	bool ascii;                      /* ISUPPORT CASEMAPPING=ascii: []\~ are not {}|^ */
};

/* The server's CASEMAPPING (ascii, else rfc1459): nicks are told apart by it;
 * the keys of the users already known are folded again. */
void   irc_users_casemap(struct irc_users *u, bool ascii);
struct irc_user *irc_users_find(struct irc_users *u, const char *nick);
/* Finds or adds nick, and marks them heard from now.  The channels' members
 * are all kept (the server bounds them); of those in none of our channels,
 * IRC_MAX_LOOSE at most: a newcomer makes room by forgetting the one heard
 * from longest ago, so a flood of private lines from rotating nicks can
 * never fill the table against a new player.  Pointers into the table are
 * good until the next call. */
struct irc_user *irc_users_get(struct irc_users *u, const char *nick);
/* The same, a new user taking first (case-folded; NULL or "": their nick) as
 * the nick their id is made of, unless someone present already has it. */
struct irc_user *irc_users_get_as(struct irc_users *u, const char *nick, const char *first);
/* Sets p's first nick (case-folded); someone present has it already, or
 * tag is given: "<first>#<tag>" (tag NULL: a number), never an id of another. */
void   irc_users_set_first(struct irc_users *u, struct irc_user *p, const char *first, const char *tag);
void   irc_users_remove(struct irc_users *u, struct irc_user *p);
/* Renames; the first-seen nick (and so a nick-based id) stays. */
void   irc_users_rename(struct irc_users *u, struct irc_user *p, const char *newnick);
/* Account "*" or "" means logged out. */
void   irc_users_set_account(struct irc_user *p, const char *account);
/* Writes the user's id into buf. */
void   irc_users_id(const struct irc_user *p, char *buf, size_t len);
/* The nick to reach id at: NULL if no visible user has it. */
const char *irc_users_nick_for(struct irc_users *u, const char *id);
/* Forgets channel bit i (and users left in no channel); for every user. */
void   irc_users_part_all(struct irc_users *u, int chan);

/* ------------------------------------------------------------------ modes.c (the pure part) */
/* The user holds no moderating mode in channel chan (a JOIN, a PART...). */
void   irc_modes_forget(struct irc_user *u, int chan);
void   irc_users_clear(struct irc_users *u);

#endif
