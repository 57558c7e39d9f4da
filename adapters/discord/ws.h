/* ws.h: one WebSocket client connection (libwebsockets) serviced in a thread of its own, talking to the loop through queues. */
#ifndef HF_DISCORD_WS_H
#define HF_DISCORD_WS_H

#include <stdbool.h>
#include <stddef.h>

struct loop;

/* Debian 12's libwebsockets 4.1.6 cannot join an external poll loop, so its
 * service loop runs in a thread; commands go to it through a locked queue and
 * lws_cancel_service(), events come back through a locked queue and an
 * eventfd watched by the loop. Everything here is called on the loop's thread,
 * and the callback runs there too. */

enum discord_ws_ev {
	DISCORD_WS_OPEN = 1,   /* the handshake is done */
	DISCORD_WS_TEXT,       /* one whole text message: text, len */
	DISCORD_WS_CLOSED,     /* closed or could not open: code (0: no close frame), text: why, for the log */
	DISCORD_WS_LOG         /* code: a LOG_LVL_*, text: a line from the thread */
};

/* text is only valid during the call. Events of a connection replaced by
 * discord_ws_connect never arrive. */
typedef void discord_ws_fn(void *ctx, enum discord_ws_ev ev, int code, const char *text, size_t len);

#define DISCORD_WS_MAX_MSG (16u << 20)   /* longest message kept (a big guild's GUILD_CREATE fits) */
#define DISCORD_WS_MAX_QUEUE (32u << 20) /* bytes waiting between the thread and the loop, each way:
                                          * past it the link is closed (or a send refused) */
#define DISCORD_WS_LINGER_MS 1000        /* free waits at most this for a close just asked to be sent */

struct discord_ws;

/* ca_file: a CA bundle for wss:// (NULL or "": the system's). NULL with err on failure. */
struct discord_ws *discord_ws_new(struct loop *l, const char *ca_file, discord_ws_fn *fn, void *ctx,
                                  char *err, size_t errlen);
/* Opens url (ws:// or wss://), dropping any connection there is (silently). -1 if url is unusable. */
int  discord_ws_connect(struct discord_ws *w, const char *url);
/* Queues one text message for the current connection (dropped if it closes first). */
int  discord_ws_send(struct discord_ws *w, const char *text, size_t len);
/* Closes the current connection with code; CLOSED follows. */
void discord_ws_close(struct discord_ws *w, int code);
/* Stops the thread and frees everything; no event follows (from inside the callback too).
 * Right after discord_ws_close it first waits (DISCORD_WS_LINGER_MS at most)
 * for the close to be done, so that the close frame goes out. */
void discord_ws_free(struct discord_ws *w);

/* Splits a ws:// or wss:// URL; -1 if it is not one. path gets the leading '/'. */
int  discord_ws_parse_url(const char *url, bool *tls, char *host, size_t hostlen, int *port,
                          char *path, size_t pathlen);

#endif
