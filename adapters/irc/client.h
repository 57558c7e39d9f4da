/* client.h: the IRC adapter's own state, struct irc, shared by the files that make up the adapter. */
#ifndef HF_IRC_CLIENT_H
#define HF_IRC_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "adapter.h"
#include "backoff.h"
#include "irc.h"

#define IRC_MAX_CHANS   64              /* a bit per channel in struct irc_user */
#define IRC_NICK_KEEP   2000            /* remembered renames ("nick/..." state) per network */
#define IRC_NICK_TTL_MS (7LL * 86400 * 1000) /* a remembered rename or address is trusted this long */
#define IRC_CHAN_RECENT 8               /* coloured lines kept per channel, to send again plain */
#define IRC_REHOST_MS   30000           /* a QUIT "Changing host" waits this long for its JOIN */
#define IRC_CHAN_BURST  3               /* lines to one channel at once after idle: +f 5:3 never trips */
#define IRC_JOIN_CHANS  5               /* channels in one JOIN line at most */
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
	int64_t retry_at;     /* a refused join goes again then (chan.c); 0 if not */
	int join_tries;       /* joins refused in a row */
	bool who_wait;        /* our WHO is sent, its end not seen */
	int64_t who_at;       /* a rate-limited WHO (263) goes again then; 0 if not */
	int who_tries;
	char key[64];         /* the channel key from the configuration ("#chan key"), "" if none */
	struct irc_bucket bucket; /* this channel's own pace: IRC_CHAN_BURST at once (flood modes, +f) */
	char inviter[64];     /* who invited us, until the members are known (invite.c); "" if none */
	bool inviter_ok;      /* they are on invite_from */
	/* the last coloured lines sent, to send again plain if colours are refused */
	struct { char *line; int64_t at; } recent[IRC_CHAN_RECENT];
	int nrecent;
};

/* ------------------------------------------------------------------ refused.c */
#define IRC_REFUSED_WHO   64    /* nicks private lines went to lately: their id and room */
#define IRC_REFUSED_SENT  32    /* private lines sent lately, which a refusal may answer */
#define IRC_REFUSED_RETRY 32    /* target-limited lines waiting to go again */
#define IRC_REFUSED_OK    10    /* Solanum's target slots: the targets that cost none again */

struct irc_sent {
	char nick[64];
	char line[IRC_MAX_LINE + 1];
	int64_t at;
	int tries;              /* times it was refused and sent again before */
	bool live;              /* no refusal answered it yet */
};

struct irc_refused {
	struct { char nick[64], id[96], room[64]; bool must; } who[IRC_REFUSED_WHO];
	char ok[IRC_REFUSED_OK][64]; /* the targets last written to and not refused, most recent first */
	int64_t gate_until;     /* after a 707: no new target before then (its lines wait) */
	unsigned who_next;
	struct irc_sent sent[IRC_REFUSED_SENT];
	unsigned sent_next;
	struct irc_retry {
		char nick[64];
		char line[IRC_MAX_LINE + 1];
		int64_t due;        /* when it goes again; 0: free, or queued */
		int tries;
		bool queued;        /* back in the queue, not sent yet */
		bool must;          /* a hand, not an answer: it goes first, and until delivered */
	} retry[IRC_REFUSED_RETRY];
	long long timer;        /* for the first retry due */
};

/* ------------------------------------------------------------------ keep.c */
#define IRC_KEEP_LINES 64       /* private lines of identified players kept across a reconnect */

struct irc_kept {
	char id[96];            /* "acct:..." */
	char cmd[8];            /* PRIVMSG or NOTICE */
	char text[IRC_MAX_LINE + 1];
	int64_t at;
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
	char ns_target[128];        /* whom IDENTIFY and REGAIN go to: NickServ, or NickServ@services.example */
	bool join_on_invite, private_notice, colors, sasl_required;
	char conf_chans[1024];      /* the configured channels, "#a,#b" (kept when a kick removes one) */
	char invite_from[512];      /* invite_from: nicks and "acct:NAME"s whose invitations are taken */
	int invite_max;             /* invite_max: invited channels at most */
	long sts_port;              /* IRCv3 sts: TLS on this port instead of the configuration's; 0 if none */
	bool private_auto;          /* private = auto: NOTICE unless the network drops them silently */
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
	struct irc_queue paced;     /* JOIN, WHO, PART, IDENTIFY: protocol lines paced as messages, in turn with them */
	bool paced_turn;            /* the last paced line went from paced */
	char held[IRC_MAX_LINE + 1]; /* a channel's line taken from out, waiting for that channel's pace */
	size_t held_len;
	struct irc_bucket bucket;
	long long flush_timer, tick_timer, retry_timer;
	long long chan_timer;       /* the next refused join to try again */
	long long join_timer;       /* joins wait for NickServ's login (register.c) until it fires */
	int64_t connected_at, last_rx, ping_sent, joins_sent_at, drop_logged;
	int64_t nick_polled, nick_tried;  /* the last ISON, the last NICK back to ours */
	struct backoff retry;        /* reconnects: reset once up a while (quit.c) */
	int64_t up_at;              /* when BOT_EV_UP was emitted for this connection */
	int64_t retry_floor_ms;     /* the next wait is at least this (a kill, a ban: quit.c) */
	char closing_why[256];      /* the server's reason for closing the link, "" if none */
	uint64_t rng;               /* xorshift: jitter and made-up nicks */

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
	bool ascii_casemap;         /* ISUPPORT CASEMAPPING=ascii: []\~ are not {}|^ */
	int nicklen;                /* ISUPPORT NICKLEN, 0 if not told */
	char chantypes[8];          /* ISUPPORT CHANTYPES ("#&" until told) */
	char statusmsg[8];          /* ISUPPORT STATUSMSG ("@+" until told) */
	bool notice_silent;         /* ISUPPORT CALLERID: a NOTICE to a +g user is dropped without a word */
	bool refusing;              /* SASL failed and sasl_required: QUIT sent, reconnecting */
	bool welcomed;              /* 376/422 handled */
	bool up;                    /* BOT_EV_UP emitted for this connection */
	bool stopping;
	char history_batches[8][32];
	struct irc_users users;
	long nick_saved;            /* "nick/..." entries in the adapter state, about */
	struct irc_modes modes;     /* which channel modes moderate, from ISUPPORT */
	struct irc_refused refused; /* private lines the server refused, and those sent lately */
	struct irc_kept kept[IRC_KEEP_LINES]; /* identified players' lines over a reconnect (keep.c) */
	int nkept;
};

/* ------------------------------------------------------------------ chan.c */
/* A channel name by its first character; a valid one to join. */
bool irc_chan_is(const char *s);
bool irc_chan_valid(const char *s);
/* A channel name on this network: its first character among ISUPPORT's CHANTYPES. */
bool irc_chan_typed(const struct irc *c, const char *s);
/* Index of the channel in c->chans; -1 if not there. */
int  irc_chan_find(struct irc *c, const char *name);
/* Adds a channel (or finds it); -1 if the name is bad or the list full. */
int  irc_chan_add(struct irc *c, const char *name, bool configured);
/* Sets channel i's own pace (its bucket) from flood_burst and flood_rate. */
void irc_chan_pace(struct irc *c, int i);
/* Forgets channel i; the last one moves into its place. */
void irc_chan_remove(struct irc *c, int i);
/* Joins channel i (with its key), paced; nothing unless registered. */
void irc_chan_join(struct irc *c, int i);
void irc_chan_join_failed(struct irc *c, const struct irc_msg *m);       /* ERR_CHANNELISFULL... */
void irc_chan_retry_reset(struct irc *c);                               /* a new connection */
void irc_chan_try_again(struct irc *c, const struct irc_msg *m);        /* RPL_TRYAGAIN */

void irc_chan_cannot_send(struct irc *c, const struct irc_msg *m);      /* ERR_CANNOTSENDTOCHAN, 408 */
/* A line about to go to channel i: kept if coloured (to go again plain); stripped if i is plain. */
void irc_chan_outgoing(struct irc *c, int i, char *line, size_t *len);
void irc_chan_forget_recent(struct irc_chan *ch);
/* SIGHUP: the configured channels are now those of fresh: new ones joined, dropped ones parted. */
void irc_chan_reconfigure(struct irc *c, const struct irc *fresh);

/* ------------------------------------------------------------------ invite.c */
void irc_invite_got(struct irc *c, const struct irc_msg *m);            /* INVITE */
/* Channel i's members are known: leaves it if whoever invited us is no operator there. */
void irc_invite_check(struct irc *c, int i);

/* ------------------------------------------------------------------ config.c */
int  irc_config_read(struct irc *c, struct adapter_cfg *cfg, char *err, size_t errlen);
/* Whether cfg changes what the connection was made with (server, port, tls,
 * nick, login, certificates): the adapter's needs_restart. */
bool irc_config_needs_restart(const struct irc *c, struct adapter_cfg *cfg);
/* Frees c, which irc_config_read filled: its channels' recent lines go and
 * its passwords are wiped (the adapter's end, a failed start, a reload's
 * fresh copy: one place, so no path forgets a secret). */
void irc_config_free(struct irc *c);
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

/* The handlers of events.c's table take the line as parsed: one per command
 * or numeric (or a few alike), in the file of their concept. */

/* ------------------------------------------------------------------ quit.c */
void        irc_quit_error(struct irc *c, const struct irc_msg *m);    /* ERROR */
void        irc_quit_banned(struct irc *c, const struct irc_msg *m);   /* ERR_YOUREBANNEDCREEP */
void        irc_quit_kill(struct irc *c, const struct irc_msg *m);     /* KILL */
/* The link is gone: the server's reason if it gave one, else why; the backoff reset after a stable period. */
const char *irc_quit_down(struct irc *c, const char *why, bool was_up);
/* The next wait: at least what the last quit asks; the ask is spent. */
int64_t     irc_quit_floor(struct irc *c, int64_t delay);

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
void irc_members_chghost(struct irc *c, const struct irc_msg *m);        /* CHGHOST */
/* Once a second: a "Changing host" QUIT not followed by its JOIN is a quit. */
void irc_members_tick(struct irc *c, int64_t now);
void irc_members_account(struct irc *c, const struct irc_msg *m);        /* ACCOUNT */
void irc_members_names(struct irc *c, const struct irc_msg *m);          /* RPL_NAMREPLY */
void irc_members_who(struct irc *c, const struct irc_msg *m);            /* RPL_WHOREPLY, RPL_WHOSPCRPL */
void irc_members_who_end(struct irc *c, const struct irc_msg *m);        /* RPL_ENDOFWHO */
/* Asks who is in channel i (WHO, or WHOX), paced. */
void irc_members_who_send(struct irc *c, int i);
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

/* ------------------------------------------------------------------ refused.c */
/* A private line for user_id about room goes to nick: whom a refusal names;
 * must: one that must be delivered (a hand), not an answer. */
void irc_refused_for(struct irc *c, const char *nick, const char *user_id, const char *room, bool must);
/* A private line about to be written to a new target while the target
 * limit holds (a 707 less than a minute ago): kept to go when it lifts (true). */
bool irc_refused_defer(struct irc *c, const char *line, size_t len);
/* A line written to the server (private lines are remembered a while). */
void irc_refused_sent(struct irc *c, const char *line, size_t len);
void irc_refused_target(struct irc *c, const struct irc_msg *m);      /* ERR_TARGCHANGE 707, 439 */
void irc_refused_callerid(struct irc *c, const struct irc_msg *m);    /* ERR_TARGUMODEG 716, 717 */
void irc_refused_registered(struct irc *c, const struct irc_msg *m);  /* 486, 477, 531 */
void irc_refused_reset(struct irc *c);

/* ------------------------------------------------------------------ keep.c */
/* The link is lost: queued private lines of account holders are kept (the rest go as before). */
void irc_keep_disconnected(struct irc *c);
/* Kept lines whose account is seen again are queued to its nick (after every line read). */
void irc_keep_resend(struct irc *c);

/* ------------------------------------------------------------------ sts.c */
/* CAP LS offered "sts=value": a move to TLS, or the policy kept. */
void irc_sts_offered(struct irc *c, const char *value);
/* Before connecting: a kept policy for this server moves us to TLS. */
void irc_sts_load(struct irc *c);
/* TLS and the port to use: the configuration's, or the policy's. */
bool irc_sts_tls(const struct irc *c);
long irc_sts_port(const struct irc *c);

/* ------------------------------------------------------------------ send.c */
void   irc_send_flush(struct irc *c);
/* A line taken from the queues to be written now: kept where a refusal or colours may want it again. */
void   irc_send_written(struct irc *c, char *line, size_t *n);
/* The line to write now (protocol first, then paced ones whose time has come); its length, 0 if none. */
size_t irc_send_next(struct irc *c, char *line, size_t size);
void   irc_send_proto(struct irc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A protocol line that waits for the bucket (once registered), before any message. */
void   irc_send_paced(struct irc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int    irc_send(struct adapter *a, const struct adapter_msg *m);
size_t irc_send_pending(struct adapter *a, const char *room, enum adapter_pending what);
/* Private lines still queued for nick: to newnick (the same person renamed)
 * or dropped (NULL: gone), so that none reaches whoever wears the nick
 * next; nick NULL: every private line (a lost connection). */
void   irc_send_forget(struct irc *c, const char *nick, const char *newnick);

#endif
