/* client.h: the IRC adapter's own state, struct irc, shared by the files that make up the adapter. */
#ifndef HF_IRC_CLIENT_H
#define HF_IRC_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "adapter.h"
#include "irc.h"

#define IRC_MAX_CHANS   64              /* a bit per channel in struct irc_user */
#define IRC_NICK_KEEP   2000            /* remembered renames ("nick/..." state) per network */
#define IRC_NICK_TTL_MS (7LL * 86400 * 1000) /* a remembered rename or address is trusted this long */
#define IRC_CHAN_RECENT 8               /* coloured lines kept per channel, to send again plain */
#define IRC_RBUF_SIZE   (2 * IRC_MAX_WIRE + 2)

enum irc_conn_state { IRC_IDLE, IRC_CONNECTING, IRC_REGISTERING, IRC_READY };

/* ------------------------------------------------------------------ modes.c */
/* The channel modes of ISUPPORT that the adapter needs to read a MODE line
 * and a NAMES reply: the prefix modes and their symbols ("PREFIX=(qaohv)~&@%+"),
 * and the modes that take a parameter ("CHANMODES=beI,k,l,imnpst"). */
struct irc_modes {
	char letters[16];           /* prefix modes, highest first: "qaohv" */
	char symbols[16];           /* their symbols: "~&@%+" */
	char always[64];            /* CHANMODES A and B: a parameter either way */
	char when_set[64];          /* CHANMODES C: a parameter when set */
};

struct irc_chan {
	char name[64];
	bool configured;      /* from the configuration: always rejoined */
	bool joined;          /* our JOIN came back, and the WHO of its members ended */
	bool failed;          /* the server refused the join */
	bool in;              /* our JOIN came back (the WHO may still run) */
	bool plain;           /* the channel refuses colours: plain text there */
	bool refused_told;    /* a refused message was logged (and the bot told) on this connection */
	/* the last coloured lines sent, to send again plain if colours are refused */
	struct { char *line; int64_t at; } recent[IRC_CHAN_RECENT];
	int nrecent;
};

struct irc {
	struct adapter *a;

	/* configuration */
	char server[256];
	long port;
	bool tls;
	char ca_file[256], client_cert[256], client_key[256];
	char nick[32], username[32], realname[128];
	char sasl_mech[16], sasl_user[64], sasl_pass[256];
	char ns_pass[256], server_pass[256];
	bool join_on_invite, private_notice, colors, sasl_required;
	long burst, rate_ms, ping_interval_ms, ping_timeout_ms, reconnect_max_ms, nick_poll_ms;

	/* channels: configured first, then those we were invited to */
	struct irc_chan chans[IRC_MAX_CHANS];
	int nchans;

	/* the connection */
	enum irc_conn_state state;
	CURL *easy;
	int fd;
	unsigned gen;               /* bumped at every disconnect: stale work notices it */
	char rbuf[IRC_RBUF_SIZE];
	size_t rlen;
	bool rskip;                 /* discarding an over-long line up to its LF */
	char wbuf[IRC_MAX_LINE + 2];
	size_t wlen, woff;
	struct irc_queue proto;     /* PONG, CAP, AUTHENTICATE...: always first */
	struct irc_queue out;       /* messages, per target, round-robin */
	struct irc_bucket bucket;
	long long flush_timer, tick_timer, retry_timer;
	int64_t connected_at, last_rx, ping_sent, joins_sent_at, drop_logged;
	int64_t nick_polled, nick_tried;  /* the last ISON, the last NICK back to ours */
	int attempts;
	uint64_t rng;

	/* what this connection learnt */
	char cur_nick[64];
	char userhost[192];         /* user@host as others see us; "" if unknown */
	int nick_try;
	bool cap_sasl, cap_account_tag, cap_extjoin, cap_account_notify, cap_batch, cap_server_time;
	bool cap_listing, cap_requested, cap_ended, sasl_ok;
	char sasl_offer[128];       /* the mechanisms in "sasl=..." of CAP LS */
	char cap_req[IRC_MAX_LINE]; /* caps to request, gathered over a multi-line LS */
	char bot_mode[8];           /* ISUPPORT BOT=, "" if none */
	char prefix_chars[16];      /* ISUPPORT PREFIX symbols */
	bool monitor;               /* ISUPPORT MONITOR: the server tells when our nick frees */
	bool monitoring;            /* MONITOR + nick sent on this connection */
	bool whox;                  /* ISUPPORT WHOX: WHO tells accounts too */
	bool refusing;              /* SASL failed and sasl_required: QUIT sent, reconnecting */
	bool welcomed;              /* 376/422 handled */
	bool up;                    /* BOT_EV_UP emitted for this connection */
	bool stopping;
	char history_batches[8][32];
	struct irc_users users;
	long nick_saved;            /* "nick/..." entries in the adapter state, about */
	struct irc_modes modes;     /* which channel modes moderate, from ISUPPORT */
};

/* ------------------------------------------------------------------ chan.c */
/* A channel name by its first character; a valid one to join. */
bool irc_chan_is(const char *s);
bool irc_chan_valid(const char *s);
/* Index of the channel in c->chans; -1 if not there. */
int  irc_chan_find(struct irc *c, const char *name);
/* Adds a channel (or finds it); -1 if the name is bad or the list full. */
int  irc_chan_add(struct irc *c, const char *name, bool configured);
/* Forgets channel i; the last one moves into its place. */
void irc_chan_remove(struct irc *c, int i);
void irc_chan_invited(struct irc *c, const struct irc_msg *m);           /* INVITE */
void irc_chan_join_failed(struct irc *c, const struct irc_msg *m);       /* ERR_CHANNELISFULL... */

void irc_chan_cannot_send(struct irc *c, const struct irc_msg *m);      /* ERR_CANNOTSENDTOCHAN, 408 */
/* A line about to go to channel i: kept if coloured (to go again plain); stripped if i is plain. */
void irc_chan_outgoing(struct irc *c, int i, char *line, size_t *len);
void irc_chan_forget_recent(struct irc_chan *ch);
/* SIGHUP: the configured channels are now those of fresh: new ones joined, dropped ones parted. */
void irc_chan_reconfigure(struct irc *c, const struct irc *fresh);

/* ------------------------------------------------------------------ config.c */
int  irc_config_read(struct irc *c, struct adapter_cfg *cfg, char *err, size_t errlen);
bool irc_config_needs_restart(struct adapter *a, struct adapter_cfg *cfg);
/* SIGHUP without a reconnect: what can change on a live connection does. */
void irc_config_reload(struct adapter *a, struct adapter_cfg *cfg, struct rbuf *applied);
/* Whether host names this machine (secrets sent there in clear cross no network). */
bool irc_config_loopback(const char *host);

/* ------------------------------------------------------------------ regain.c */
/* Our nick back when it frees: MONITOR where offered, else a slow ISON;
 * the holder's QUIT or NICK; NickServ REGAIN with credentials. */
void irc_regain_start(struct irc *c);                                  /* after the MOTD */
void irc_regain_freed(struct irc *c, const char *nick);                /* someone left nick */
void irc_regain_tick(struct irc *c, int64_t now);
void irc_regain_ours(struct irc *c);                                   /* we wear our nick now */
void irc_regain_offline(struct irc *c, const struct irc_msg *m);       /* RPL_MONOFFLINE */
void irc_regain_ison(struct irc *c, const struct irc_msg *m);          /* RPL_ISON */

/* ------------------------------------------------------------------ conn.c */
void     irc_conn_connect(struct irc *c);
/* Drops the connection; unless stopping, reports DOWN and schedules a reconnect. */
void     irc_conn_disconnect(struct irc *c, const char *why);
void     irc_conn_stop(struct irc *c, const char *quit_message);
/* The once-a-second timer: keep-alive, dead link, time-outs. */
int64_t  irc_conn_tick(struct loop *l, long long id, void *data);
/* Watches the socket for reading, and for writing when want_write. */
void     irc_conn_watch(struct irc *c, bool want_write);
/* A line as it may appear in the log (debug level): secrets and private lines redacted. */
void     irc_conn_log(struct irc *c, const char *dir, const char *line);
/* "irc://host:port" or "ircs://host:port": the server as the log names it. */
void     irc_conn_where(const struct irc *c, char *buf, size_t len);
uint64_t irc_conn_random(struct irc *c);

/* The handlers of events.c's table take the line as parsed: one per command
 * or numeric (or a few alike), in the file of their concept. */

/* ------------------------------------------------------------------ register.c */
void irc_register_cap_end(struct irc *c);
/* Registration ends without the SASL login required: QUIT and retry later (true), else false. */
bool irc_register_sasl_missing(struct irc *c);
void irc_register_next_nick(struct irc *c);
void irc_register_cap(struct irc *c, const struct irc_msg *m);           /* CAP */
void irc_register_authenticate(struct irc *c, const struct irc_msg *m);  /* AUTHENTICATE */
void irc_register_welcome(struct irc *c, const struct irc_msg *m);       /* RPL_WELCOME */
void irc_register_isupport(struct irc *c, const struct irc_msg *m);      /* RPL_ISUPPORT */
void irc_register_motd_end(struct irc *c, const struct irc_msg *m);      /* RPL_ENDOFMOTD, ERR_NOMOTD */
void irc_register_host(struct irc *c, const struct irc_msg *m);          /* RPL_HOSTHIDDEN */
void irc_register_logged_in(struct irc *c, const struct irc_msg *m);     /* RPL_LOGGEDIN */
void irc_register_sasl_ok(struct irc *c, const struct irc_msg *m);       /* RPL_SASLSUCCESS */
void irc_register_sasl_failed(struct irc *c, const struct irc_msg *m);   /* ERR_SASLFAIL... */
void irc_register_nick_refused(struct irc *c, const struct irc_msg *m);  /* ERR_NICKNAMEINUSE... */

/* ------------------------------------------------------------------ message.c */
void irc_message_privmsg(struct irc *c, const struct irc_msg *m);        /* PRIVMSG */
void irc_message_notice(struct irc *c, const struct irc_msg *m);         /* NOTICE */
void irc_message_batch(struct irc *c, const struct irc_msg *m);          /* BATCH */
void irc_message_no_such_nick(struct irc *c, const struct irc_msg *m);   /* ERR_NOSUCHNICK */

/* ------------------------------------------------------------------ members.c */
void irc_members_join(struct irc *c, const struct irc_msg *m);           /* JOIN */
void irc_members_part(struct irc *c, const struct irc_msg *m);           /* PART */
void irc_members_kick(struct irc *c, const struct irc_msg *m);           /* KICK */
void irc_members_quit(struct irc *c, const struct irc_msg *m);           /* QUIT */
void irc_members_nick(struct irc *c, const struct irc_msg *m);           /* NICK */
void irc_members_account(struct irc *c, const struct irc_msg *m);        /* ACCOUNT */
void irc_members_names(struct irc *c, const struct irc_msg *m);          /* RPL_NAMREPLY */
void irc_members_who(struct irc *c, const struct irc_msg *m);            /* RPL_WHOREPLY, RPL_WHOSPCRPL */
void irc_members_who_end(struct irc *c, const struct irc_msg *m);        /* RPL_ENDOFWHO */
/* Whether the line comes from us. */
bool irc_members_from_us(struct irc *c, const struct irc_msg *m);
/* The user a line is from, with the account its tags tell (NULL for servers). */
struct irc_user *irc_members_source(struct irc *c, const struct irc_msg *m);
/* The visible user who holds id now (a nick-keyed one only once their
 * address is checked): whom a private line for id may go to; NULL if none. */
struct irc_user *irc_members_holder(struct irc *c, const char *id);

/* ------------------------------------------------------------------ modes.c */
/* Moderators of a channel: who holds a prefix mode of half-op or above
 * (owner ~, admin &, op @, half-op %), from NAMES and MODE lines. */
void irc_modes_reset(struct irc_modes *md);                             /* RFC defaults, before ISUPPORT */
void irc_modes_isupport(struct irc *c, const struct irc_msg *m);        /* PREFIX=, CHANMODES= of RPL_ISUPPORT */
void irc_modes_mode(struct irc *c, const struct irc_msg *m);            /* MODE */
/* A NAMES entry's n prefix symbols ("@+") for u in channel i. */
void irc_modes_names(struct irc *c, struct irc_user *u, int i, const char *symbols, size_t n);
/* Channel index from's modes move to index to (irc_chan_remove). */
void irc_modes_move(struct irc_user *u, int from, int to);
/* adapter_ops.is_moderator */
bool irc_modes_is_moderator(struct adapter *a, const char *room, const char *user_id);

/* ------------------------------------------------------------------ nicks.c */
/* A user seen under a nick that is not the one their id is made of, remembered
 * with the address they had ("nick/<nick>" -> "<first> <user@host> <ms>"). */
void irc_nicks_remember(struct irc *c, const struct irc_user *u);
void irc_nicks_forget(struct irc *c, const struct irc_user *u);
/* The case-folded first nick remembered for nick, in buf, and the address it
 * was remembered with in addr (addrlen); NULL if none or expired. */
const char *irc_nicks_first(struct irc *c, const char *nick, char *buf, size_t len, char *addr, size_t addrlen);
/* The address a nick-keyed id (its first nick) was last given private lines at
 * ("seen/<first>" -> "<user@host> <ms>"), in buf; NULL if none or expired. */
const char *irc_nicks_seen(struct irc *c, const char *first, char *buf, size_t len);
/* Records u's address as the one its id's private lines go to (once per connection). */
void irc_nicks_bind(struct irc *c, struct irc_user *u);
/* Whether two addresses ("user@host") are the same person's: the same host. */
bool irc_nicks_same_person(const char *a, const char *b);
/* Whether "nick:<first>" holds a seat now. */
bool irc_nicks_seated(struct irc *c, const char *first);
/* Bounds the remembered nicks and addresses (IRC_NICK_KEEP each), expired and oldest dropped. */
void irc_nicks_prune(struct irc *c);

/* ------------------------------------------------------------------ events.c */
/* One line from the server (no CR LF), modified in place, to its handler. */
void irc_events_line(struct irc *c, char *line, size_t len);
void irc_events_emit(struct irc *c, enum bot_event_type type, const char *room, struct irc_user *u,
                     const char *text, bool direct, bool notice, int64_t ts);
/* Emits UP once every channel answered (or at once when force). */
void irc_events_check_up(struct irc *c, bool force);

/* ------------------------------------------------------------------ send.c */
void   irc_send_flush(struct irc *c);
void   irc_send_proto(struct irc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int    irc_send(struct adapter *a, const struct adapter_msg *m);
size_t irc_send_pending(struct adapter *a, const char *room);
/* Private lines still queued for nick: to newnick (the same person renamed)
 * or dropped (NULL: gone), so that none reaches whoever wears the nick
 * next; nick NULL: every private line (a lost connection). */
void   irc_send_forget(struct irc *c, const char *nick, const char *newnick);

#endif
