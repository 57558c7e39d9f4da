/* cdp.c: Debian's chromium, headless, driven over its DevTools protocol (a WebSocket), for end-to-end tests of the web table. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cdp.h"
#include "e2e.h"
#include "ircserver.h"

#define CDP_CHROMIUM "/usr/bin/chromium"

bool
cdp_available(void)
{
	return access(CDP_CHROMIUM, X_OK) == 0;
}

/* The first page target's DevTools socket path, from /json/list. */
static int
cdp_page_path(int port, char *path, size_t len)
{
	char *body = malloc(65536);
	json_t *list, *t;
	const char *url, *p;
	size_t i;
	int r = -1;

	if (body == NULL || wsc_http_get(port, "/json/list", NULL, body, 65536) != 200) {
		free(body);
		return -1;
	}
	list = json_loads(body, 0, NULL);
	free(body);
	for (i = 0; i < json_array_size(list); i++) {
		t = json_array_get(list, i);
		url = json_string_value(json_object_get(t, "webSocketDebuggerUrl"));
		if (url == NULL || !json_is_string(json_object_get(t, "type")) ||
		    strcmp(json_string_value(json_object_get(t, "type")), "page") != 0)
			continue;
		if ((p = strstr(url, "/devtools/")) != NULL) {
			snprintf(path, len, "%s", p);
			r = 0;
			break;
		}
	}
	json_decref(list);
	return r;
}

int
cdp_start(struct cdp *b)
{
	char port_arg[64], dir_arg[300], path[256];
	int i;

	memset(b, 0, sizeof *b);
	b->ws.fd = -1;
	if (e2e_tmpdir(b->dir, sizeof b->dir, "chromium") < 0)
		return -1;
	b->port = ircserver_free_port();
	snprintf(port_arg, sizeof port_arg, "--remote-debugging-port=%d", b->port);
	snprintf(dir_arg, sizeof dir_arg, "--user-data-dir=%s", b->dir);
	if ((b->pid = fork()) < 0)
		return -1;
	if (b->pid == 0) {
		int null = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		execl(CDP_CHROMIUM, CDP_CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		      "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
		      "--disable-background-networking", "--disable-sync", "--window-size=1280,800", port_arg, dir_arg,
		      "about:blank", (char *)NULL);
		_exit(127);
	}
	setpgid(b->pid, b->pid);
	for (i = 0; i < 150; i++) {
		if (cdp_page_path(b->port, path, sizeof path) == 0 &&
		    wsc_open(&b->ws, b->port, path, NULL, NULL) == 0)
			return 0;
		e2e_sleep_ms(200);
	}
	return -1;
}

void
cdp_stop(struct cdp *b)
{
	char out[64];

	wsc_close(&b->ws);
	if (b->pid > 0) {
		kill(-b->pid, SIGTERM);
		for (int i = 0; i < 50 && waitpid(b->pid, NULL, WNOHANG) == 0; i++)
			e2e_sleep_ms(100);
		kill(-b->pid, SIGKILL);
		waitpid(b->pid, NULL, WNOHANG);
		b->pid = 0;
	}
	if (b->dir[0] != '\0')
		e2e_sh(out, sizeof out, "rm -rf '%s'", b->dir);
}

json_t *
cdp_call(struct cdp *b, const char *method, json_t *params)
{
	json_t *msg = json_object(), *r = NULL;
	int id = ++b->next_id;
	char *text;
	const char *m;

	json_object_set_new(msg, "id", json_integer(id));
	json_object_set_new(msg, "method", json_string(method));
	json_object_set_new(msg, "params", params != NULL ? params : json_object());
	text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (text == NULL || wsc_send(&b->ws, text) < 0) {
		free(text);
		return NULL;
	}
	free(text);
	/* events come between: the answer is the one with our id */
	while ((m = wsc_next(&b->ws, 30000)) != NULL) {
		json_t *o = json_loads(m, 0, NULL);

		if (o != NULL && json_integer_value(json_object_get(o, "id")) == id) {
			r = json_incref(json_object_get(o, "result"));
			json_decref(o);
			break;
		}
		if (o != NULL && b->on_event != NULL && json_object_get(o, "method") != NULL)
			b->on_event(b->event_arg, o);
		json_decref(o);
	}
	return r;
}

json_t *
cdp_eval(struct cdp *b, const char *expr)
{
	json_t *r = cdp_call(b, "Runtime.evaluate",
	                     json_pack("{s:s, s:b, s:b}", "expression", expr, "returnByValue", 1, "awaitPromise", 1));
	json_t *v = r != NULL ? json_incref(json_object_get(json_object_get(r, "result"), "value")) : NULL;

	json_decref(r);
	return v;
}

int
cdp_until(struct cdp *b, const char *expr, int ms)
{
	int i;

	for (i = 0; i < ms / 100; i++) {
		json_t *v = cdp_eval(b, expr);
		bool ok = json_is_true(v);

		json_decref(v);
		if (ok)
			return 0;
		e2e_sleep_ms(100);
	}
	return -1;
}

int
cdp_goto(struct cdp *b, const char *url)
{
	json_decref(cdp_call(b, "Page.navigate", json_pack("{s:s}", "url", url)));
	return cdp_until(b, "document.readyState === 'complete' && location.href !== 'about:blank'", 15000);
}

int
cdp_size(struct cdp *b, int width, int height, bool mobile)
{
	json_t *r = cdp_call(b, "Emulation.setDeviceMetricsOverride",
	                     json_pack("{s:i, s:i, s:i, s:b}", "width", width, "height", height, "deviceScaleFactor", 1,
	                               "mobile", mobile));
	json_decref(cdp_call(b, "Emulation.setTouchEmulationEnabled", json_pack("{s:b}", "enabled", mobile)));
	json_decref(r);
	return r != NULL ? 0 : -1;
}

int
cdp_click(struct cdp *b, const char *selector)
{
	char expr[1024];
	json_t *v;
	double x, y;
	const char *kinds[2] = { "mousePressed", "mouseReleased" };
	int i;

	snprintf(expr, sizeof expr,
	         "(() => { const e = document.querySelector(%s); if (!e) return null;"
	         " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
	         " return [r.x + r.width / 2, r.y + r.height / 2]; })()", selector);
	v = cdp_eval(b, expr);
	if (!json_is_array(v)) {
		json_decref(v);
		return -1;
	}
	x = json_number_value(json_array_get(v, 0));
	y = json_number_value(json_array_get(v, 1));
	json_decref(v);
	for (i = 0; i < 2; i++)
		json_decref(cdp_call(b, "Input.dispatchMouseEvent",
		                     json_pack("{s:s, s:f, s:f, s:s, s:i}", "type", kinds[i], "x", x, "y", y, "button", "left",
		                               "clickCount", 1)));
	return 0;
}

int
cdp_key(struct cdp *b, const char *key)
{
	const char *kinds[2] = { "keyDown", "keyUp" };
	/* the key code too: without it chromium moves no focus on Tab */
	int code = strcmp(key, "Tab") == 0 ? 9 : strcmp(key, "Enter") == 0 ? 13 : strcmp(key, " ") == 0 ? 32 : 0;
	int i;

	for (i = 0; i < 2; i++)
		json_decref(cdp_call(b, "Input.dispatchKeyEvent",
		                     json_pack("{s:s, s:s, s:s, s:s, s:i}", "type", kinds[i], "key", key, "code",
		                               strcmp(key, " ") == 0 ? "Space" : key, "text",
		                               strcmp(key, "Enter") == 0 ? "\r" : strcmp(key, " ") == 0 ? " " : "",
		                               "windowsVirtualKeyCode", code)));
	return 0;
}

/* Decodes base64 in place; the length. */
static size_t
unbase64(char *s)
{
	static const char alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = 0, i;
	unsigned acc = 0;
	int bits = 0;

	for (i = 0; s[i] != '\0' && s[i] != '='; i++) {
		const char *p = strchr(alpha, s[i]);

		if (p == NULL)
			continue;
		acc = acc << 6 | (unsigned)(p - alpha);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			s[n++] = (char)(acc >> bits & 0xff);
		}
	}
	return n;
}

int
cdp_screenshot(struct cdp *b, const char *path, bool full)
{
	json_t *r = cdp_call(b, "Page.captureScreenshot",
	                     json_pack("{s:s, s:b}", "format", "png", "captureBeyondViewport", full));
	const char *data = json_string_value(json_object_get(r, "data"));
	char *copy;
	size_t n;
	FILE *f;
	int ok = -1;

	if (data != NULL && (copy = strdup(data)) != NULL) {
		n = unbase64(copy);
		if ((f = fopen(path, "wb")) != NULL) {
			ok = fwrite(copy, 1, n, f) == n ? 0 : -1;
			fclose(f);
		}
		free(copy);
	}
	json_decref(r);
	return ok;
}
