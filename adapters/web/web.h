/* web.h: the web table adapter's own header: its config, the tables it is handed, links, frames, the server thread. */
#ifndef HF_WEB_H
#define HF_WEB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter.h"
#include "fifo.h"

struct adapter;
struct loop;
struct lws_context;

#define WEB_TOKEN_BYTES   16           /* 128 bits from getrandom */
#define WEB_TOKEN_CHARS   (WEB_TOKEN_BYTES * 2)
#define WEB_HASH_BYTES    32           /* SHA-256 of the token: all that is kept */
#define WEB_MAX_FRAME     1024         /* the longest frame a page may send */
#define WEB_MAX_CMD       200          /* the longest command in it */
#define WEB_MAX_SEATS     ADAPTER_MAX_SEATS   /* the adapter API's: the bot checks it is the engine's */
#define WEB_ANSWER_MAX    4096

/* ------------------------------------------------------------------ cap.c */
/* A new capability: its token as text (WEB_TOKEN_CHARS hex + NUL) and its
 * hash.  -1 if the system's random source failed. */
int  web_cap_new(char token[WEB_TOKEN_CHARS + 1], uint8_t hash[WEB_HASH_BYTES]);
/* The hash of a token as a page presents it; -1 if it is not one (length, characters). */
int  web_cap_hash(const char *token, size_t len, uint8_t hash[WEB_HASH_BYTES]);
/* Constant time: whether two hashes are the same. */
bool web_cap_equal(const uint8_t a[WEB_HASH_BYTES], const uint8_t b[WEB_HASH_BYTES]);
/* The n bytes at b as 2 * n lowercase hex digits, NUL-terminated, into out. */
void web_cap_hex(char *out, const uint8_t *b, size_t n);

/* ------------------------------------------------------------------ frame.c */
/* What a page may send: one JSON object, {"v":1,"type":"act","cmd":"meld 9 9 2"} or {"v":1,"type":"ping"}. */
enum web_frame_type { WEB_FRAME_ACT = 1, WEB_FRAME_PING };
struct web_frame {
	enum web_frame_type type;
	char cmd[WEB_MAX_CMD + 1]; /* ACT: a command the page offers, its arguments checked for shape */
};
/* Parses one frame (len bytes, not NUL-terminated): 0, or -1 with why. */
int  web_frame_parse(const char *buf, size_t len, struct web_frame *f, char *why, size_t whylen);

/* ------------------------------------------------------------------ blob.c */
/* An immutable message shared by every socket it goes to, LWS_PRE bytes before it. */
struct web_blob {
	unsigned refs;             /* changed under the web's lock only */
	size_t len;
	unsigned char *data;       /* LWS_PRE bytes, then len bytes, then a NUL */
	/* a view's: its story's round (-1: none) and lines [story_from, story_upto), and the
	 * same view with only the newest of those lines, for a socket sent the rest (tail.c) */
	int story_round;
	unsigned story_from, story_upto;
	struct web_blob *tail;
};
struct web_blob *web_blob_new(const char *s, size_t len);
struct web_blob *web_blob_ref(struct web_blob *b);
void web_blob_unref(struct web_blob *b);

/* ------------------------------------------------------------------ tail.c */
/* A view carries the round's whole story (up to 150 lines): sent so to a
 * thousand sockets each move, it was most of what they were sent.  A page
 * needs it whole once; after that, the lines it lacks. */
#define WEB_STORY_TAIL 16          /* the newest lines a view's tail carries */
/* The bot's view JSON as a blob, its story's window read and, when the
 * story is longer than WEB_STORY_TAIL lines, its tail built (a view with no
 * story it reads is sent whole, always). */
struct web_blob *web_view_blob(const char *json, size_t len);
/* Of view b, what goes to a socket already sent round's story up to line
 * upto (round -1: nothing yet): the tail if it leaves no line out, else b. */
const struct web_blob *web_view_for(const struct web_blob *b, int round, unsigned upto);

/* ------------------------------------------------------------------ tables.c */
/* A table as the web knows it: its links (hashes) and its last views. */
struct web_table {
	int64_t id;
	bool has_public;
	char public_token[WEB_TOKEN_CHARS + 1];     /* the table's link is public: it is in the room's line */
	uint8_t public_hash[WEB_HASH_BYTES];
	bool has_seat[WEB_MAX_SEATS];
	uint8_t seat_hash[WEB_MAX_SEATS][WEB_HASH_BYTES];
	struct web_blob *view[WEB_MAX_SEATS + 1];   /* [0] public, [1 + seat] */
	struct web_table *next;
};
struct web_tables {
	struct web_table *head;
	size_t n;
};
struct web_table *web_tables_get(struct web_tables *t, int64_t id, bool create);
void web_tables_del(struct web_tables *t, int64_t id);
void web_tables_free(struct web_tables *t);
/* The table and seat (-1: public) a link's hash opens; false if none (constant time per link). */
bool web_tables_find(const struct web_tables *t, const uint8_t hash[WEB_HASH_BYTES], int64_t *table, int *seat);

/* ------------------------------------------------------------------ links.c (the loop's thread only) */
#define WEB_LINKS_MAX     20000        /* tables whose links a start loads, at most */
#define WEB_LINKS_VALUE   (WEB_TOKEN_CHARS + WEB_MAX_SEATS * (WEB_HASH_BYTES * 2 + 1) + 1)
struct web;
/* A table's links as its stored row says them (a seat's as its hash, never its token); w->lock held. */
void web_links_value(const struct web_table *t, char *out, size_t len);
/* Keeps the row (value from web_links_value) of table; forgets it. */
void web_links_save(struct web *w, const char *value, int64_t table);
void web_links_forget(struct web *w, int64_t table);
/* At start: the links of the tables still in play, back from the store
 * (bad rows, and those of games gone meanwhile, dropped with a log line). */
void web_links_load(struct web *w);

/* ------------------------------------------------------------------ replays.c, rooms.c (kept on the loop's thread; found under w->lock) */
/* A finished game's public link, which now opens its replay: kept
 * replay_days after the game ended, then answered as gone for as long
 * again, then forgotten.  A room's link opens its page (its recent games). */
#define WEB_SEAT_REPLAY   (-2)         /* what a socket's seat is on a replay's link */
#define WEB_SEAT_ROOM     (-3)         /* ... and on a room's link (its table: the room's id, below 0) */
#define WEB_ROOM_GAMES    20           /* games a room's page lists */
struct web_replay {
	int64_t table;
	char token[WEB_TOKEN_CHARS + 1];   /* public, as the table's link was: a room's page lists it */
	uint8_t hash[WEB_HASH_BYTES];
	int64_t ended;                     /* Unix seconds */
	bool gone;                         /* past replay_days: answered as gone */
	struct web_replay *next;
};
struct web_room {
	int64_t id;                        /* below 0, never a table's */
	char adapter_id[96], room[128];
	char token[WEB_TOKEN_CHARS + 1];   /* public in its room, as a table's link: !watch gives it again */
	uint8_t hash[WEB_HASH_BYTES];
	struct web_room *next;
};
struct web_finished {
	struct web_replay *replays;
	size_t nreplays;
	struct web_room *rooms;
	size_t nrooms;
	long long timer;                   /* the hourly look for replays past their days */
};
struct web;
struct web_item;
/* The table t (its public link) was played to its end at ended: its link
 * opens the replay from now on (kept in the store).  w->lock not held. */
void web_replays_ended(struct web *w, int64_t table, const char *token, int64_t ended);
/* Under w->lock: what a hash opens among replays and rooms: 1 a replay or a
 * room (*table and *seat: WEB_SEAT_REPLAY with the game, WEB_SEAT_ROOM with
 * the room's id), 2 a replay past its days (gone), 0 nothing. */
int  web_finished_find(const struct web_finished *f, const uint8_t hash[WEB_HASH_BYTES], int64_t *table, int *seat);
/* The replay of table if kept and not gone (under w->lock): its token into token. */
bool web_replays_token(const struct web_finished *f, int64_t table, char token[WEB_TOKEN_CHARS + 1]);
/* Marks gone the replays past days at now, forgets those past twice that. */
void web_replays_expire(struct web *w, int64_t now);
/* At start: the replays and rooms kept in the store, then the hourly look. */
void web_replays_load(struct web *w);
void web_replays_stop(struct web *w);
void web_finished_free(struct web_finished *f);
/* rooms.c: the link of room on adapter_id's page (made once, kept): 0, or -1. */
int  web_rooms_link(struct adapter *a, const char *adapter_id, const char *room, char *url, size_t len);
/* Under w->lock: the room of id, or NULL. */
const struct web_room *web_rooms_get(const struct web_finished *f, int64_t id);
/* At start: a row of the store ("room ID" = "TOKEN ADAPTER ROOM"). */
void web_rooms_row(struct web *w, const char *key, const char *value);

/* ask.c (the loop's): what a replay's or a room's page asks for on its socket (it->table, it->seat)
 * answered to its connection: the frames of the game, or the room's games with their replays. */
void web_ask(struct web *w, const struct web_item *it);

/* ------------------------------------------------------------------ the adapter (web.c) and its thread (server.c) */
/* Items between the loop and the server thread. */
enum web_item_kind {
	WEB_IT_VIEW = 1,   /* loop -> thread: table/seat has a new view (blob) */
	WEB_IT_OVER,       /* loop -> thread: table is gone: last view (blob), then close (code 1: to its replay) */
	WEB_IT_REVOKE,     /* loop -> thread: the link hash died: close its sockets */
	WEB_IT_ANSWER,     /* loop -> thread: conn gets text (a blob) */
	WEB_IT_ACT,        /* thread -> loop: conn (table, seat) says text */
	WEB_IT_LOG,        /* thread -> loop: a line for the log (code: level) */
	WEB_IT_ASK         /* thread -> loop: conn, a replay's or a room's page (table, seat), wants its data */
};
struct web_item {
	struct fifo_link link;     /* first: the queues are fifos */
	enum web_item_kind kind;
	int64_t table;
	int seat;
	uint64_t conn;
	int code;
	uint8_t hash[WEB_HASH_BYTES];
	struct web_blob *blob;
	char *text;
};
void web_queue_push(struct fifo *q, struct web_item *it);
struct web_item *web_queue_take(struct fifo *q);
struct web_item *web_item_next(const struct web_item *it);
void web_item_free(struct web_item *it);

struct web_conf {
	char host[128];            /* listen address */
	int port;
	char base_url[256];        /* ends with '/' */
	char origin[256];          /* scheme://host[:port] of base_url: what a page's Origin must be */
	char cert[256], key[256];
	long max_conns, max_per_addr;
	long idle_s;               /* a socket that says nothing this long is dropped (the page pings) */
	long slow_s;               /* a socket that has not taken its update this long is dropped */
	long replay_days;          /* a finished game's replay is kept this long (0: none) */
};

struct web_server;

/* ------------------------------------------------------------------ bounds.c (the server thread's) */
struct lws;
/* Connections per address, and which address each connection counts under:
 * how many, how many of them are WebSockets, how many wait for their
 * headers (a request not yet whole holds one of the server's header buffers). */
struct web_bounds {
	struct web_bounds_addr { char addr[64]; int n, sockets, unfinished; } *addrs;
	size_t naddrs, addrs_cap;
	struct web_bounds_wsi {
		struct lws *wsi;
		int slot;
		bool socket;           /* upgraded to a WebSocket */
		uint64_t waiting;      /* its headers unfinished: when they began, in order (0: none waits) */
		int64_t since_ms;      /* and since when */
	} *counted;
	size_t ncounted, counted_cap;
	size_t total;              /* connections counted */
	int pending_slot;          /* the address a just-accepted socket counts under, -1 none */
	uint64_t next_wait;
};
#define WEB_HEADER_SHARE  8        /* connections one address may hold with headers unfinished... */
#define WEB_HEADER_GRACE  2000     /* ...and, past that, for this many ms (a proxy's burst) */
void web_bounds_init(struct web_bounds *b);
/* A socket was accepted on fd: whether it may stay (under max_conns in
 * all and max_per_addr from its address); web_bounds_count then counts the
 * connection it became (its headers unfinished since now_ms),
 * web_bounds_uncount forgets it when it closes. */
bool web_bounds_admit(struct web_bounds *b, int fd, long max_conns, long max_per_addr);
void web_bounds_count(struct web_bounds *b, struct lws *wsi, int64_t now_ms);
void web_bounds_uncount(struct web_bounds *b, struct lws *wsi);
/* The connection's request headers are whole (done), or it waits for the
 * next request's (a kept-alive connection, since now_ms). */
void web_bounds_headers(struct web_bounds *b, struct lws *wsi, bool done, int64_t now_ms);
/* The connection becomes a WebSocket: whether its address may have one
 * more (max_per_addr sockets; a socket is always a counted connection of
 * its own: one that is not, as a stream inside one, is refused). */
bool web_bounds_socket(struct web_bounds *b, struct lws *wsi, long max_per_addr);
/* Whether some address holds more than WEB_HEADER_SHARE connections with
 * their headers unfinished. */
bool web_bounds_over_share(const struct web_bounds *b);
/* The connections past their address's share (the newest first), unfinished
 * for WEB_HEADER_GRACE ms or more at now_ms: up to max of them into out,
 * no longer counted as waiting (the caller closes them); their number. */
size_t web_bounds_past_share(struct web_bounds *b, int64_t now_ms, struct lws **out, size_t max);
void web_bounds_free(struct web_bounds *b);

struct web {
	struct adapter *a;
	struct web_conf conf;
	int efd;                   /* thread -> loop */
	pthread_mutex_t lock;      /* guards tables, the queues, blob refs */
	struct web_tables tables;
	struct fifo to_thread, to_loop;
	struct web_server *srv;
	bool started;
	bool failed;               /* start failed: no link is made */
	struct web_finished fin;   /* replays and rooms' pages (w->lock) */
};

/* server.c: starts the server thread (listening): 0, or -1 with err. */
int  web_server_start(struct web *w, char *err, size_t errlen);
/* Wakes the thread to read to_thread. */
void web_server_wake(struct web *w);
void web_server_stop(struct web *w);
/* The port listened on (tests ask for port 0). */
int  web_server_port(const struct web *w);

/* routes.c: what a GET of path answers (the thread's; w->lock not held). */
struct web_reply {
	int status;
	const char *type;          /* Content-Type */
	const unsigned char *body; /* static, or owned (free_body) */
	size_t len;
	bool free_body;
	bool no_store;
	bool framable;             /* a table's public page: any site may show it in a frame
	                            * (a Matrix room widget); every other answer: none */
};
void web_route(struct web *w, const char *path, struct web_reply *r);
/* The Content-Security-Policy every answer carries; framable: without frame-ancestors. */
size_t web_csp(const struct web *w, char *buf, size_t len, bool framable);

/* answer.c: writing an answer on a connection (the thread's).  Each 0, or -1
 * if it could not be written.  rep's status and headers, with the policy
 * every answer carries: */
int  web_answer_head(const struct web *w, struct lws *wsi, const struct web_reply *rep);
/* The headers and the whole body at once (a body rep owns is freed): */
int  web_answer_whole(const struct web *w, struct lws *wsi, const struct web_reply *rep);
/* RFC 6455 4.4: a WebSocket version other than 13 refused, 426 naming 13: */
int  web_answer_version(struct lws *wsi);

/* assets (generated from adapters/web/page/ at build time) */
struct web_asset {
	const char *name;
	const unsigned char *data;
	size_t len;
};
extern const struct web_asset web_assets[];
extern const size_t web_nassets;
const struct web_asset *web_asset_find(const char *name);

#endif
