/* e2e-web-slow.c: a page's socket that stops reading while its table moves is dropped (slow_timeout), with no growth of the daemon's memory; a page at the same table keeps its updates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "world.h"
#include "ircserver.h"
#include "wsclient.h"

static struct world w;
static int port;
static char origin[64], pub[64], seat[64];

static int
setup(void **state)
{
	char web[320];

	*state = &w;
	if (world_init(&w, &world_none) < 0)
		return -1;
	port = ircserver_free_port();
	snprintf(origin, sizeof origin, "http://127.0.0.1:%d", port);
	/* the console's table of four: its own seat is played by the computer once its page says auto; an idle
	 * timeout far beyond the test, so that only slowness can drop a socket */
	snprintf(web, sizeof web,
	         "[console]\nprefix =\nstart = play 4 classic\n"
	         "[web test]\nlisten = 127.0.0.1:%d\nidle_timeout = 3600\nslow_timeout = 3\n",
	         port);
	world_run(&w, "web-slow", "prefix = !\nai_delay = 250\nturn_reminder = 0\n", web);
	if (e2e_daemon_wait_log(&w.d, "Watch: ", 20000) < 0 || e2e_daemon_wait_log(&w.d, "play from", 20000) < 0)
		return -1;
	if (e2e_log_link(w.d.log, "Watch: ", pub, sizeof pub) < 0 ||
	    e2e_log_link(w.d.log, "play from", seat, sizeof seat) < 0)
		return -1;
	return 0;
}

/* The daemon's resident memory, in KB (0 if unknown). */
static long
rss_kb(void)
{
	char path[64], *st, *p;
	long kb = 0;

	snprintf(path, sizeof path, "/proc/%d/status", (int)w.d.pid);
	if ((st = e2e_read_file(path)) == NULL)
		return 0;
	if ((p = strstr(st, "VmRSS:")) != NULL)
		kb = strtol(p + 6, NULL, 10);
	free(st);
	return kb;
}

static void
test_slow_reader_dropped(void **state)
{
	struct wsc slow, page;
	long before, after;
	size_t seen;
	int i, n;

	(void)state;
	/* a spectator that reads nothing after its upgrade, on a small window */
	assert_int_equal(wsc_open_buf(&slow, port, pub, origin, "handfoot-1", 2048), 0);
	assert_int_equal(wsc_open(&page, port, seat, origin, "handfoot-1"), 0);
	assert_non_null(wsc_wait(&page, "\"type\":\"view\"", 10000));
	before = rss_kb();
	/* the table moves on its own from now: every move is a view for both */
	wsc_send(&page, "{\"v\":1,\"type\":\"act\",\"cmd\":\"auto\"}");
	for (i = 0; i < 600 && !e2e_daemon_log_has(&w.d, "a slow reader dropped"); i++)
		while (wsc_read(&page, 200) > 0)
			;
	after = rss_kb();
	print_message("views read by the page: %zu; daemon RSS %ld KB before, %ld KB after the drop\n", page.nmsgs,
	              before, after);
	assert_true(e2e_daemon_log_has(&w.d, "a slow reader dropped"));
	assert_true(e2e_daemon_alive(&w.d));
	/* nothing was kept for it but the newest view: no growth worth a queue of views */
	assert_true(after - before < 32 * 1024);
	/* the page at the same table goes on getting the table's moves */
	assert_false(page.closed);
	for (n = 0; n < 3; n++) {
		seen = page.nmsgs;
		for (i = 0; i < 100 && page.nmsgs == seen && !page.closed; i++)
			wsc_read(&page, 200);
		assert_true(page.nmsgs > seen);
	}
	assert_false(page.closed);
	/* the slow socket was cut, with no goodbye: what the kernel held, then the end */
	for (i = 0; i < 200 && !slow.closed; i++)
		wsc_read(&slow, 100);
	assert_true(slow.closed);
	assert_int_equal(slow.close_code, 0);
	wsc_close(&slow);
	wsc_close(&page);
	world_daemon_stop(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_reader_dropped),
	};

	return cmocka_run_group_tests(tests, setup, world_end_state);
}
