/* cdp.h: Debian's chromium, headless, driven over its DevTools protocol (a WebSocket), for end-to-end tests of the web table. */
#ifndef HF_TEST_CDP_H
#define HF_TEST_CDP_H

#include <stdbool.h>
#include <sys/types.h>

#include <jansson.h>

#include "wsclient.h"

struct cdp {
	pid_t pid;              /* chromium's, the leader of its process group */
	int port;               /* its DevTools port */
	char dir[256];          /* its profile */
	struct wsc ws;          /* the page's DevTools socket */
	int next_id;
	/* told every event (a message without our id) that comes while a call waits; NULL: dropped */
	void (*on_event)(void *arg, json_t *msg);
	void *event_arg;
};

/* Whether chromium is installed (tests skip if not). */
bool cdp_available(void);
/* Starts chromium headless with a blank page and connects to it: 0 or -1. */
int  cdp_start(struct cdp *b);
/* Kills chromium (its whole process group) and removes its profile. */
void cdp_stop(struct cdp *b);
/* Calls method with params (stolen; NULL for none): its "result" (the caller's), or NULL on error or timeout. */
json_t *cdp_call(struct cdp *b, const char *method, json_t *params);
/* Evaluates a JavaScript expression in the page: its value (the caller's), or NULL. */
json_t *cdp_eval(struct cdp *b, const char *expr);
/* Evaluates expr until it is true, up to ms: 0, or -1. */
int  cdp_until(struct cdp *b, const char *expr, int ms);
/* Loads url and waits for its document to be complete: 0 or -1. */
int  cdp_goto(struct cdp *b, const char *url);
/* Sets the window as a phone (mobile, touch) or a desktop. */
int  cdp_size(struct cdp *b, int width, int height, bool mobile);
/* Clicks (a real mouse press and release) the middle of the first element matching selector: 0, or -1 if none. */
int  cdp_click(struct cdp *b, const char *selector);
/* Presses a key (its DOM key name: "Enter", "Tab", " ") with the focus where it is. */
int  cdp_key(struct cdp *b, const char *key);
/* A PNG of the page as it is shown, written to path: 0 or -1. */
int  cdp_screenshot(struct cdp *b, const char *path, bool full);

#endif
