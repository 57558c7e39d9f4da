/* frame.c: what a page may send, bounded and checked before anything acts on it. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "utf8.h"
#include "web.h"

/* The commands a page offers; anything else is refused here, before the core. */
static const char *const frame_cmds[] = {
	"draw", "pickup", "meld", "discard", "out", "yes", "no", "hint", "auto", "hand"
};

static int
frame_fail(char *why, size_t whylen, const char *msg)
{
	snprintf(why, whylen, "%s", msg);
	return -1;
}

/* A command: a known name, then cards and commas: letters, digits, spaces, ':' and ','. */
static int
frame_cmd(const char *s, size_t len, struct web_frame *f, char *why, size_t whylen)
{
	size_t i, n, k;

	if (len == 0 || len > WEB_MAX_CMD)
		return frame_fail(why, whylen, "cmd: 1 to 200 characters");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' ||
		      c == ',' || c == ':' || c == '*'))
			return frame_fail(why, whylen, "cmd: only card names, spaces, ',' and ':'");
	}
	for (n = 0; n < len && s[n] != ' '; n++)
		;
	for (k = 0; k < sizeof frame_cmds / sizeof frame_cmds[0]; k++)
		if (strlen(frame_cmds[k]) == n && strncmp(frame_cmds[k], s, n) == 0)
			break;
	if (k == sizeof frame_cmds / sizeof frame_cmds[0])
		return frame_fail(why, whylen, "cmd: not a command a page may send");
	memcpy(f->cmd, s, len);
	f->cmd[len] = '\0';
	return 0;
}

int
web_frame_parse(const char *buf, size_t len, struct web_frame *f, char *why, size_t whylen)
{
	json_t *o, *v, *t, *c;
	json_error_t e;
	const char *type;
	int r = -1;

	memset(f, 0, sizeof *f);
	if (len == 0 || len > WEB_MAX_FRAME)
		return frame_fail(why, whylen, "a frame is 1 to 1024 bytes");
	if (!utf8_valid(buf, len))
		return frame_fail(why, whylen, "not UTF-8");
	o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
	if (o == NULL || !json_is_object(o)) {
		json_decref(o);
		return frame_fail(why, whylen, "not a JSON object");
	}
	v = json_object_get(o, "v");
	t = json_object_get(o, "type");
	if (!json_is_integer(v) || json_integer_value(v) != 1) {
		frame_fail(why, whylen, "v: 1 is the only version");
		goto out;
	}
	if (!json_is_string(t)) {
		frame_fail(why, whylen, "type: a string");
		goto out;
	}
	type = json_string_value(t);
	if (strcmp(type, "ping") == 0 && json_object_size(o) == 2) {
		f->type = WEB_FRAME_PING;
		r = 0;
	} else if (strcmp(type, "act") == 0 && json_object_size(o) == 3) {
		c = json_object_get(o, "cmd");
		if (!json_is_string(c))
			frame_fail(why, whylen, "cmd: a string");
		else if ((r = frame_cmd(json_string_value(c), json_string_length(c), f, why, whylen)) == 0)
			f->type = WEB_FRAME_ACT;
	} else
		frame_fail(why, whylen, "type: act or ping, with nothing else");
out:
	json_decref(o);
	return r;
}
