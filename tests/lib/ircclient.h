/* ircclient.h: a scripted, blocking IRC client for end-to-end tests (plain TCP). */
#ifndef HF_TEST_IRCCLIENT_H
#define HF_TEST_IRCCLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ircclient {
	int fd;
	char nick[64];
	char buf[65536];
	size_t len;
	/* every line received, for checks after the fact */
	char **lines;
	size_t nlines, cap;
	size_t seen;            /* lines already consumed by ircclient_wait */
	/* called while waiting (e.g. to run an in-process loop); may be NULL */
	void (*pump)(void *ctx);
	void *pump_ctx;
};

/* Connects without registering (the caller sends CAP, NICK, USER). -1 on failure. */
int  ircclient_open(struct ircclient *c, int port, const char *nick);
/* Connects and registers as nick (waits for 001). -1 on failure. */
int  ircclient_connect(struct ircclient *c, int port, const char *nick);
/* The same from another loopback address ("127.0.0.7"): to the server, another host. */
int  ircclient_open_from(struct ircclient *c, int port, const char *nick, const char *from);
int  ircclient_connect_from(struct ircclient *c, int port, const char *nick, const char *from);
void ircclient_close(struct ircclient *c);
int  ircclient_send(struct ircclient *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sends raw bytes as they are (for flood tests). */
int  ircclient_send_raw(struct ircclient *c, const char *data, size_t len);
/* Reads until a new line contains all of the given substrings (NULL-terminated
 * list, AND), answering PINGs; copies it into out. -1 on timeout or EOF. */
int  ircclient_wait(struct ircclient *c, int timeout_ms, char *out, size_t outlen, const char *s1, ...);
/* Whether any line received so far contains both a and b (b may be NULL). */
bool ircclient_saw(const struct ircclient *c, const char *a, const char *b);
/* Whether a NOTICE "Your ..." (a hand, a foot) to nick was among them. */
bool ircclient_saw_hand(const struct ircclient *c, const char *nick);
/* Reads what is there for up to ms milliseconds (answers PINGs). 0, or -1 on EOF. */
int  ircclient_drain(struct ircclient *c, int ms);
/* Joins a channel and waits for the end of NAMES. */
int  ircclient_join(struct ircclient *c, const char *chan);
int64_t ircclient_now_us(void);

#endif
