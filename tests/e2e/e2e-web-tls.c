/* e2e-web-tls.c: the web table serving HTTPS itself (tls_cert_file, tls_key_file): the page and its socket over TLS, the Origin checked against an https base_url. */
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

static struct world w;
static int port;

/* A client in Debian's python3-websockets: GET the page, open its socket with origin, print what came. */
static const char client[] =
	"import asyncio, ssl, sys, urllib.request, websockets\n"
	"url, origin = sys.argv[1], sys.argv[2]\n"
	"ctx = ssl.create_default_context(cafile=sys.argv[3])\n"
	"ctx.check_hostname = False\n"
	"print('page', urllib.request.urlopen(url, context=ctx).status)\n"
	"async def main():\n"
	"    try:\n"
	"        async with websockets.connect('wss' + url[5:], origin=origin, subprotocols=['handfoot-1'],\n"
	"                                      ssl=ctx) as ws:\n"
	"            print('socket', (await asyncio.wait_for(ws.recv(), 10))[:40])\n"
	"    except Exception as e:\n"
	"        print('refused', type(e).__name__)\n"
	"asyncio.run(main())\n";

static int
setup(void **state)
{
	char conf[512], text[1024], out[4096];

	*state = &w;
	if (access("/usr/bin/python3", X_OK) != 0 || world_init(&w, &world_none) < 0)
		return -1;
	port = ircserver_free_port();
	if (e2e_sh(out, sizeof out, "cd '%s' && openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem "
	           "-days 2 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 2>&1", w.dir) != 0)
		return -1;
	snprintf(conf, sizeof conf, "%s/client.py", w.dir);
	if (e2e_write_file(conf, client) < 0)
		return -1;
	snprintf(text, sizeof text,
	         "[console]\nprefix =\nstart = play 4 classic\n"
	         "[web tls]\nlisten = 127.0.0.1:%d\nbase_url = https://127.0.0.1:%d/\n"
	         "tls_cert_file = %s/cert.pem\ntls_key_file = %s/key.pem\n",
	         port, port, w.dir, w.dir);
	world_run(&w, "web-tls", "ai_delay = 60000\nturn_reminder = 0\n", text);
	return e2e_daemon_wait_log(&w.d, "Watch: ", 20000);
}

static void
test_page_and_socket_over_tls(void **state)
{
	char *log = e2e_read_file(w.d.log), *p, url[128], out[4096];

	(void)state;
	assert_non_null(log);
	p = strstr(log, "Watch: https://");
	assert_non_null(p);
	snprintf(url, sizeof url, "%.*s", (int)strcspn(p + 7, " \n"), p + 7);
	free(log);
	assert_int_equal(e2e_sh(out, sizeof out, "/usr/bin/python3 '%s/client.py' '%s' 'https://127.0.0.1:%d' '%s/cert.pem' 2>&1",
	                        w.dir, url, port, w.dir), 0);
	print_message("%s", out);
	assert_non_null(strstr(out, "page 200"));
	assert_non_null(strstr(out, "socket {\"v\":1,\"type\":\"view\""));
	/* the origin of an http page is not the https base_url's */
	assert_int_equal(e2e_sh(out, sizeof out, "/usr/bin/python3 '%s/client.py' '%s' 'http://127.0.0.1:%d' '%s/cert.pem' 2>&1",
	                        w.dir, url, port, w.dir), 0);
	assert_non_null(strstr(out, "refused"));
	assert_true(e2e_daemon_alive(&w.d));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_and_socket_over_tls),
	};

	return cmocka_run_group_tests(tests, setup, world_end_state);
}
