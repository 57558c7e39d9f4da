/* ircserver.c: starts and stops real IRC servers (ngircd, InspIRCd + Atheme) on loopback ports for tests. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ircserver.h"

int
ircserver_free_port(void)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* port 0: the kernel picks; never 6667, which a system ircd may hold */
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
		port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

bool
ircserver_port_open(int port)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok;

	if (fd < 0)
		return false;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
	close(fd);
	return ok;
}

void
ircserver_path(const struct ircserver *s, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", s->dir, name);
}

bool
ircserver_available(const char *kind)
{
	if (strcmp(kind, "ngircd") == 0)
		return access("/usr/sbin/ngircd", X_OK) == 0;
	if (strcmp(kind, "inspircd") == 0)
		return access("/usr/sbin/inspircd", X_OK) == 0 && access("/usr/bin/openssl", X_OK) == 0;
	if (strcmp(kind, "atheme") == 0)
		return access("/usr/bin/atheme-services", X_OK) == 0;
	return false;
}

int
ircserver_init(struct ircserver *s, const char *kind)
{
	char tmpl[] = "/tmp/hf-ircd-XXXXXX";

	memset(s, 0, sizeof *s);
	snprintf(s->kind, sizeof s->kind, "%s", kind);
	if (mkdtemp(tmpl) == NULL)
		return -1;
	chmod(tmpl, 0755);
	snprintf(s->dir, sizeof s->dir, "%s", tmpl);
	s->port = ircserver_free_port();
	s->tls_port = ircserver_free_port();
	s->link_port = ircserver_free_port();
	while (s->tls_port == s->port)
		s->tls_port = ircserver_free_port();
	while (s->link_port == s->port || s->link_port == s->tls_port)
		s->link_port = ircserver_free_port();
	return s->port > 0 && s->tls_port > 0 && s->link_port > 0 ? 0 : -1;
}

static int
write_file(const struct ircserver *s, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	ircserver_path(s, name, path, sizeof path);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static pid_t
spawn(const struct ircserver *s, const char *logname, const char *const argv[])
{
	char log[512];
	pid_t pid;

	ircserver_path(s, logname, log, sizeof log);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		/* its own process group: a test killed midway does not leave it to us */
		setpgid(0, 0);
		if (chdir(s->dir) != 0)
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static int
wait_port(pid_t pid, int port)
{
	for (int i = 0; i < 200; i++) {
		int st;

		if (ircserver_port_open(port))
			return 0;
		if (waitpid(pid, &st, WNOHANG) == pid)
			return -1;
		usleep(50 * 1000);
	}
	return -1;
}

static int
start_ngircd(struct ircserver *s)
{
	char conf[2048], path[512];
	const char *argv[] = { "/usr/sbin/ngircd", "-n", "-f", path, NULL };

	snprintf(conf, sizeof conf,
	         "[Global]\nName = irc.test\nInfo = handfoot test server\nListen = 127.0.0.1\n"
	         "Ports = %d\nMotdPhrase = handfoot test\n"
	         "[Limits]\nMaxNickLength = 30\nMaxConnectionsIP = 0\nMaxJoins = 0\n"
	         "PingTimeout = 120\nPongTimeout = 60\n%s"
	         "[Options]\nDNS = no\nIdent = no\nPAM = no\n",
	         s->port, s->penalties ? "" : "MaxPenaltyTime = 0\n");
	if (write_file(s, "ngircd.conf", conf) != 0)
		return -1;
	ircserver_path(s, "ngircd.conf", path, sizeof path);
	if ((s->pid = spawn(s, "ngircd.log", argv)) < 0)
		return -1;
	return wait_port(s->pid, s->port);
}

static int
make_cert(struct ircserver *s)
{
	char cmd[2048], cert[512];

	ircserver_path(s, "cert.pem", cert, sizeof cert);
	if (access(cert, R_OK) == 0)
		return 0;
	/* a self-signed certificate for "localhost": it is its own CA (ca.pem) */
	snprintf(cmd, sizeof cmd,
	         "cd '%s' && openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem "
	         "-days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 "
	         ">openssl.log 2>&1 && cp cert.pem ca.pem && chmod 644 key.pem",
	         s->dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int
start_inspircd(struct ircserver *s)
{
	char conf[8192], path[512];
	const char *argv[] = { "/usr/sbin/inspircd", "--nofork", "--nopid", path,
	                 geteuid() == 0 ? "--runasroot" : NULL, NULL };
	char config_arg[600];
	int n;

	if (make_cert(s) != 0)
		return -1;
	n = snprintf(conf, sizeof conf,
	    "<server name=\"irc.test\" description=\"handfoot test\" network=\"HFTest\" id=\"001\">\n"
	    "<admin name=\"test\" nick=\"test\" email=\"test@localhost\">\n"
	    "<path configdir=\"%s\" datadir=\"%s\" logdir=\"%s\" moduledir=\"/usr/lib/inspircd/modules\">\n"
	    "<bind address=\"127.0.0.1\" port=\"%d\" type=\"clients\">\n"
	    "<bind address=\"127.0.0.1\" port=\"%d\" type=\"clients\" sslprofile=\"Clients\">\n"
	    "<module name=\"ssl_gnutls\">\n"
	    "<sslprofile name=\"Clients\" provider=\"gnutls\" certfile=\"%s/cert.pem\" keyfile=\"%s/key.pem\" "
	    "dhfile=\"\" requestclientcert=\"yes\" hash=\"sha256\">\n"
	    "<connect allow=\"*\" timeout=\"60\" threshold=\"10\" commandrate=\"1000\" pingfreq=\"120\" "
	    "hardsendq=\"1048576\" softsendq=\"8192\" recvq=\"8192\" localmax=\"100\" globalmax=\"100\" "
	    "useident=\"no\" %s>\n"
	    "<dns server=\"127.0.0.1\" timeout=\"1\">\n"
	    "<options prefixquit=\"Quit: \" hostintopic=\"yes\">\n"
	    "<security hideserver=\"\" userstats=\"Pu\">\n"
	    "<performance quietbursts=\"yes\">\n"
	    "<log method=\"file\" type=\"* -USERINPUT -USEROUTPUT\" level=\"default\" target=\"%s/inspircd.log\">\n"
	    "<module name=\"cap\">\n<module name=\"ircv3\">\n<module name=\"ircv3_servertime\">\n"
	    "<module name=\"ircv3_batch\">\n<module name=\"ircv3_capnotify\">\n<module name=\"ircv3_ctctags\">\n"
	    "<module name=\"ircv3_accounttag\">\n<module name=\"ircv3_msgid\">\n<module name=\"botmode\">\n"
	    "<module name=\"services_account\">\n<module name=\"sasl\">\n<sasl target=\"services.test\">\n"
	    "<module name=\"sslinfo\">\n"
	    "<module name=\"hidechans\">\n"
	    /* +c refuses colours (404); MONITOR tells a nick's holder left */
	    "<module name=\"blockcolor\">\n<module name=\"monitor\">\n%s",
	    s->dir, s->dir, s->dir, s->port, s->tls_port, s->dir, s->dir, s->connect_extra != NULL ? s->connect_extra : "",
	    s->dir, s->conf_extra != NULL ? s->conf_extra : "");
	if (s->services)
		n += snprintf(conf + n, sizeof conf - (size_t)n,
		    "<module name=\"spanningtree\">\n"
		    "<bind address=\"127.0.0.1\" port=\"%d\" type=\"servers\">\n"
		    "<link name=\"services.test\" ipaddr=\"127.0.0.1\" port=\"%d\" allowmask=\"127.0.0.0/8\" "
		    "sendpass=\"linkpass\" recvpass=\"linkpass\">\n"
		    "<uline server=\"services.test\" silent=\"yes\">\n",
		    s->link_port, s->link_port);
	if (n < 0 || (size_t)n >= sizeof conf || write_file(s, "inspircd.conf", conf) != 0)
		return -1;
	ircserver_path(s, "inspircd.conf", path, sizeof path);
	snprintf(config_arg, sizeof config_arg, "--config=%s", path);
	argv[3] = config_arg;
	if ((s->pid = spawn(s, "inspircd.out", argv)) < 0)
		return -1;
	if (wait_port(s->pid, s->port) != 0)
		return -1;
	return 0;
}

static int
start_atheme(struct ircserver *s)
{
	char conf[6144], path[512], db[512], log[512], pid[512];
	const char *argv[] = { "/usr/bin/atheme-services", "-n", "-c", path, "-D", s->dir, "-l", log, "-p", pid, NULL };

	snprintf(conf, sizeof conf,
	    "loadmodule \"modules/protocol/inspircd\";\n"
	    "loadmodule \"modules/backend/opensex\";\n"
	    "loadmodule \"modules/crypto/pbkdf2v2\";\n"
	    "loadmodule \"modules/nickserv/main\";\nloadmodule \"modules/nickserv/register\";\nloadmodule \"modules/nickserv/identify\";\n"
	    "loadmodule \"modules/nickserv/info\";\nloadmodule \"modules/nickserv/cert\";\n"
	    "loadmodule \"modules/nickserv/enforce\";\n"
	    "loadmodule \"modules/saslserv/main\";\nloadmodule \"modules/saslserv/plain\";\nloadmodule \"modules/saslserv/external\";\n"
	    "serverinfo {\n name = \"services.test\";\n desc = \"test services\";\n numeric = \"00A\";\n"
	    " recontime = 2;\n netname = \"HFTest\";\n hidehostsuffix = \"users.test\";\n adminname = \"test\";\n"
	    " adminemail = \"test@localhost\";\n registeremail = \"test@localhost\";\n auth = none;\n"
	    " mta = \"/bin/true\";\n loglevel = { all; };\n maxlogins = 5;\n maxusers = 5;\n mdlimit = 30;\n"
	    " casemapping = rfc1459;\n};\n"
	    "uplink \"irc.test\" {\n host = \"127.0.0.1\";\n port = %d;\n send_password = \"linkpass\";\n"
	    " receive_password = \"linkpass\";\n};\n"
	    "nickserv {\n nick = \"NickServ\";\n user = \"NickServ\";\n host = \"services.test\";\n"
	    " real = \"Nickname Services\";\n};\n"
	    "saslserv {\n nick = \"SaslServ\";\n user = \"SaslServ\";\n host = \"services.test\";\n"
	    " real = \"SASL Authentication Agent\";\n};\n"
	    "general {\n helpchan = \"#help\";\n flood_msgs = 0;\n flood_time = 10;\n kline_time = 0;\n"
	    " commit_interval = 1;\n maxchans = 5;\n};\n"
	    "database { };\n",
	    s->link_port);
	snprintf(db, sizeof db, "%s/services.db", s->dir);
	ircserver_path(s, "atheme.log", log, sizeof log);
	ircserver_path(s, "atheme.pid", pid, sizeof pid);
	if (write_file(s, "atheme.conf", conf) != 0)
		return -1;
	ircserver_path(s, "atheme.conf", path, sizeof path);
	if ((s->services_pid = spawn(s, "atheme.out", argv)) < 0)
		return -1;
	return 0;
}

int
ircserver_start(struct ircserver *s)
{
	int rc;

	if (strcmp(s->kind, "ngircd") == 0)
		return start_ngircd(s);
	if ((rc = start_inspircd(s)) != 0 || !s->services)
		return rc;
	return start_atheme(s);
}

static void
kill_wait(pid_t *pid, int sig)
{
	int st;

	if (*pid <= 0)
		return;
	kill(*pid, sig);
	for (int i = 0; i < 100; i++) {
		if (waitpid(*pid, &st, WNOHANG) == *pid) {
			*pid = 0;
			return;
		}
		usleep(20 * 1000);
	}
	kill(*pid, SIGKILL);
	waitpid(*pid, &st, 0);
	*pid = 0;
}

void
ircserver_stop(struct ircserver *s, bool kill_hard)
{
	kill_wait(&s->services_pid, kill_hard ? SIGKILL : SIGTERM);
	kill_wait(&s->pid, kill_hard ? SIGKILL : SIGTERM);
}

void
ircserver_free(struct ircserver *s)
{
	char cmd[600];

	ircserver_stop(s, false);
	if (s->dir[0] != '\0' && getenv("HF_KEEP_TMP") == NULL) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", s->dir);
	}
}
