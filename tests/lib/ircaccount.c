/* ircaccount.c: services accounts for end-to-end tests: register with NickServ, log scripted clients in (SASL PLAIN, IDENTIFY), certificate fingerprints. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ircaccount.h"

/* Standard base64, for the SASL PLAIN payload. */
static void
b64(char *dst, const unsigned char *src, size_t len)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < len; i += 3) {
		unsigned v = (unsigned)src[i] << 16 | (unsigned)src[i + 1] << 8 | src[i + 2];

		dst[o++] = tab[v >> 18 & 63];
		dst[o++] = tab[v >> 12 & 63];
		dst[o++] = tab[v >> 6 & 63];
		dst[o++] = tab[v & 63];
	}
	if (i < len) {
		unsigned v = (unsigned)src[i] << 16 | (i + 1 < len ? (unsigned)src[i + 1] << 8 : 0);

		dst[o++] = tab[v >> 18 & 63];
		dst[o++] = tab[v >> 12 & 63];
		dst[o++] = i + 1 < len ? tab[v >> 6 & 63] : '=';
		dst[o++] = '=';
	}
	dst[o] = '\0';
}

int
ircaccount_register(int port, const char *nick, const char *password, const char *certfp)
{
	struct ircclient c;
	int rc = -1;

	c.pump = NULL;
	if (ircclient_connect(&c, port, nick) != 0) {
		ircclient_close(&c);
		return -1;
	}
	/* services link a moment after the server starts: until then NickServ is "no such nick" */
	for (int i = 0; i < 40 && rc != 0; i++) {
		ircclient_send(&c, "PRIVMSG NickServ :REGISTER %s %s@example.test", password, nick);
		if (ircclient_wait(&c, 500, NULL, 0, ":NickServ!", "registered", NULL) == 0)
			rc = 0;
	}
	if (rc == 0 && certfp != NULL) {
		ircclient_send(&c, "PRIVMSG NickServ :CERT ADD %s", certfp);
		rc = ircclient_wait(&c, 5000, NULL, 0, ":NickServ!", "Added fingerprint", NULL);
	}
	ircclient_close(&c);
	return rc;
}

int
ircaccount_connect_sasl(struct ircclient *c, int port, const char *nick, const char *account,
                        const char *password)
{
	unsigned char raw[300];
	char enc[420];
	size_t al = strlen(account), pl = strlen(password);

	if (2 * al + pl + 2 > sizeof raw || ircclient_open(c, port, nick) != 0)
		return -1;
	ircclient_send(c, "CAP LS 302");
	ircclient_send(c, "NICK %s", nick);
	ircclient_send(c, "USER %s 0 * :test client", nick);
	ircclient_send(c, "CAP REQ :sasl");
	if (ircclient_wait(c, 10000, NULL, 0, "CAP", "ACK", "sasl", NULL) != 0)
		return -1;
	ircclient_send(c, "AUTHENTICATE PLAIN");
	if (ircclient_wait(c, 10000, NULL, 0, "AUTHENTICATE ", "+", NULL) != 0)
		return -1;
	/* authzid NUL authcid NUL password */
	memcpy(raw, account, al);
	raw[al] = '\0';
	memcpy(raw + al + 1, account, al);
	raw[2 * al + 1] = '\0';
	memcpy(raw + 2 * al + 2, password, pl);
	b64(enc, raw, 2 * al + 2 + pl);
	ircclient_send(c, "AUTHENTICATE %s", enc);
	if (ircclient_wait(c, 10000, NULL, 0, " 903 ", NULL) != 0)
		return -1;
	ircclient_send(c, "CAP END");
	return ircclient_wait(c, 10000, NULL, 0, " 001 ", NULL);
}

int
ircaccount_identify(struct ircclient *c, const char *account, const char *password)
{
	ircclient_send(c, "PRIVMSG NickServ :IDENTIFY %s %s", account, password);
	return ircclient_wait(c, 10000, NULL, 0, " 900 ", NULL);
}

int
ircaccount_make_cert(const char *cert, const char *key, char *fp, size_t fplen)
{
	char cmd[1400], line[256];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd,
	         "openssl req -x509 -newkey rsa:2048 -nodes -keyout '%s' -out '%s' -days 2 -subj /CN=handfoot-test "
	         ">/dev/null 2>&1 && openssl x509 -in '%s' -noout -fingerprint -sha256",
	         key, cert, cert);
	if ((p = popen(cmd, "r")) == NULL)
		return -1;
	if (fgets(line, sizeof line, p) == NULL) {
		pclose(p);
		return -1;
	}
	if (pclose(p) != 0 || strchr(line, '=') == NULL)
		return -1;
	/* "sha256 Fingerprint=AB:CD:..." -> "abcd..." */
	for (const char *s = strchr(line, '=') + 1; *s != '\0' && *s != '\n' && n + 1 < fplen; s++)
		if (*s != ':')
			fp[n++] = (char)tolower((unsigned char)*s);
	fp[n] = '\0';
	return n == 64 ? 0 : -1;
}
