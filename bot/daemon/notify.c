/* notify.c: sd_notify messages to the service manager, and the watchdog pinged from a loop timer. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HF_WITH_SYSTEMD
#include <systemd/sd-daemon.h>
#else
/* Built without libsystemd (WITH_SYSTEMD=no): the notify protocol itself,
 * which is small and stable (sd_notify(3)): one datagram of "KEY=value"
 * lines to the AF_UNIX socket in $NOTIFY_SOCKET ("@" for the abstract
 * namespace), and the watchdog period from $WATCHDOG_USEC when
 * $WATCHDOG_PID is unset or ours. */
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int
sd_notify(int unset_environment, const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n;
	int fd, rc;

	(void)unset_environment;
	if (path == NULL || (path[0] != '/' && path[0] != '@') || (n = strlen(path)) >= sizeof sa.sun_path)
		return 0;
	memcpy(sa.sun_path, path, n);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	rc = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa,
	            (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)) < 0 ? -1 : 1;
	close(fd);
	return rc;
}

static int
sd_watchdog_enabled(int unset_environment, uint64_t *usec)
{
	const char *u = getenv("WATCHDOG_USEC"), *p = getenv("WATCHDOG_PID");
	char *end;
	unsigned long long v;

	(void)unset_environment;
	*usec = 0;
	if (u == NULL || (p != NULL && strtol(p, NULL, 10) != (long)getpid()))
		return 0;
	v = strtoull(u, &end, 10);
	if (end == u || *end != '\0' || v == 0)
		return 0;
	*usec = v;
	return 1;
}
#endif

#include "loop.h"
#include "notify.h"
#include "xmalloc.h"

struct notify {
	struct loop *loop;
	bool enabled;
	uint64_t watchdog_usec;
	long long timer;
	char status[256];
};

/* sd_notify never fails loudly: a service manager that went away must not stop the game. */
static void
send_state(const char *state)
{
	(void)sd_notify(0, state);
}

static int64_t
watchdog_ping(struct loop *l, long long id, void *data)
{
	struct notify *n = data;

	(void)l;
	(void)id;
	send_state("WATCHDOG=1");
	/* Half the period: one late turn of the loop is not yet a restart. */
	return (int64_t)(n->watchdog_usec / 2000);
}

struct notify *
notify_new(struct loop *l)
{
	struct notify *n = xcalloc(1, sizeof *n);
	const char *sock = getenv("NOTIFY_SOCKET");
	uint64_t usec = 0;

	n->loop = l;
	n->timer = -1;
	n->enabled = sock != NULL && sock[0] != '\0';
	/* sd_watchdog_enabled checks WATCHDOG_PID against our pid, so a child
	 * that inherited the variables does not ping on our behalf. */
	if (n->enabled && sd_watchdog_enabled(0, &usec) > 0 && usec >= 2000) {
		n->watchdog_usec = usec;
		n->timer = loop_timer_add(l, (int64_t)(usec / 2000), watchdog_ping, n);
	}
	return n;
}

void
notify_free(struct notify *n)
{
	if (n == NULL)
		return;
	if (n->timer >= 0)
		loop_timer_del(n->loop, n->timer);
	free(n);
}

/* Sends "STATE\nSTATUS=status" as one datagram, so systemd sees both at once. */
static void
send_with_status(struct notify *n, const char *state, const char *status)
{
	char msg[400];

	if (!n->enabled)
		return;
	if (status == NULL) {
		send_state(state);
		return;
	}
	snprintf(n->status, sizeof n->status, "%s", status);
	snprintf(msg, sizeof msg, "%s\nSTATUS=%s", state, n->status);
	send_state(msg);
}

void
notify_ready(struct notify *n, const char *status)
{
	if (n != NULL)
		send_with_status(n, "READY=1", status);
}

void
notify_status(struct notify *n, const char *fmt, ...)
{
	char line[sizeof n->status], msg[sizeof line + 8];
	va_list ap;

	if (n == NULL || !n->enabled)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* A status line is one line. */
	line[strcspn(line, "\r\n")] = '\0';
	if (strcmp(line, n->status) == 0)
		return;
	memcpy(n->status, line, sizeof line);
	snprintf(msg, sizeof msg, "STATUS=%s", n->status);
	send_state(msg);
}

void
notify_reloading(struct notify *n, const char *status)
{
	struct timespec ts;
	char state[64];

	if (n == NULL)
		return;
	/* MONOTONIC_USEC is what Type=notify-reload (systemd 253+) expects with
	 * RELOADING=1; older managers ignore it. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(state, sizeof state, "RELOADING=1\nMONOTONIC_USEC=%llu",
	         (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL);
	send_with_status(n, state, status);
}

void
notify_stopping(struct notify *n, const char *status)
{
	if (n != NULL)
		send_with_status(n, "STOPPING=1", status);
}

uint64_t
notify_watchdog_usec(const struct notify *n)
{
	return n != NULL ? n->watchdog_usec : 0;
}

bool
notify_enabled(const struct notify *n)
{
	return n != NULL && n->enabled;
}
