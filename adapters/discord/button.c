/* button.c: builds the buttons a turn line carries and reads their custom_id back; who a message may ping. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "button.h"
#include "slash.h"
#include "text.h"

static int
make_id(const char *action, const char *user, unsigned prompt, char *out, size_t outlen)
{
	int w;

	if (!discord_slash_name_ok(action) || (user != NULL && user[0] != '\0' && !discord_text_snowflake(user)))
		return -1;
	if (outlen > DISCORD_CUSTOM_ID_MAX + 1)
		outlen = DISCORD_CUSTOM_ID_MAX + 1;
	if (prompt != 0 && user != NULL && user[0] != '\0')
		w = snprintf(out, outlen, "hf:%s:%s:%u", action, user, prompt);
	else
		w = snprintf(out, outlen, "hf:%s:%s", action, user != NULL ? user : "");
	return w < 0 || (size_t)w >= outlen ? -1 : 0;
}

int
discord_button_custom_id(const char *action, const char *user, char *out, size_t outlen)
{
	return make_id(action, user, 0, out, outlen);
}

int
discord_button_parse(const char *custom_id, char *action, size_t alen, char *user, size_t ulen)
{
	return discord_button_parse_n(custom_id, action, alen, user, ulen, NULL);
}

int
discord_button_parse_n(const char *custom_id, char *action, size_t alen, char *user, size_t ulen, unsigned *prompt)
{
	const char *a, *c, *p;
	char who[32];
	size_t n;
	unsigned long num = 0;

	if (strncmp(custom_id, "hf:", 3) != 0 || strlen(custom_id) > DISCORD_CUSTOM_ID_MAX)
		return -1;
	a = custom_id + 3;
	if ((c = strchr(a, ':')) == NULL || (n = (size_t)(c - a)) == 0 || n >= alen)
		return -1;
	memcpy(action, a, n);
	action[n] = '\0';
	/* the user, then the prompt number if any */
	if ((p = strchr(c + 1, ':')) != NULL) {
		char *end;

		if (p[1] < '1' || p[1] > '9' || strlen(p + 1) > 10 || (num = strtoul(p + 1, &end, 10)) > 0xffffffffUL ||
		    *end != '\0')
			return -1;
		n = (size_t)(p - (c + 1));
	} else
		n = strlen(c + 1);
	if (n >= sizeof who)
		return -1;
	memcpy(who, c + 1, n);
	who[n] = '\0';
	if (!discord_slash_name_ok(action) || n >= ulen || (who[0] != '\0' && !discord_text_snowflake(who)) ||
	    (who[0] == '\0' && p != NULL))
		return -1;
	snprintf(user, ulen, "%s", who);
	if (prompt != NULL)
		*prompt = (unsigned)num;
	return 0;
}

/* What a button says. */
static void
label_of(const char *action, char *out, size_t outlen)
{
	static const struct { const char *action, *label; } labels[] = {
		{ "hand", "My hand" }, { "draw", "Draw" }, { "pickup", "Pick up" }, { "page", "My page (new link)" },
	};

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (strcmp(labels[i].action, action) == 0) {
			snprintf(out, outlen, "%s", labels[i].label);
			return;
		}
	snprintf(out, outlen, "%s", action);
	out[0] = (char)toupper((unsigned char)out[0]);
}

json_t *
discord_button_rows(const char *const *actions, size_t n, const char *user)
{
	return discord_button_rows_n(actions, n, user, 0);
}

json_t *
discord_button_rows_n(const char *const *actions, size_t n, const char *user, unsigned prompt)
{
	json_t *rows, *row = NULL;
	char id[DISCORD_CUSTOM_ID_MAX + 1], label[40];

	if (n == 0 || n > DISCORD_BUTTONS_PER_ROW * DISCORD_ROWS_MAX)
		return NULL;
	rows = json_array();
	for (size_t i = 0; i < n; i++) {
		/* "My hand" is for whoever presses it: each sees their own hand, so one
		 * button serves every player whose cards changed */
		bool anyone = strcmp(actions[i], DISCORD_BUTTON_HAND) == 0;

		if (make_id(actions[i], anyone ? NULL : user, anyone ? 0 : prompt, id, sizeof id) < 0) {
			json_decref(rows);
			return NULL;
		}
		if (i % DISCORD_BUTTONS_PER_ROW == 0) {
			row = json_pack("{s:i,s:[]}", "type", 1, "components");
			json_array_append_new(rows, row);
		}
		label_of(actions[i], label, sizeof label);
		/* styles: 1 primary for moves, 2 secondary for looking at one's hand */
		json_array_append_new(json_object_get(row, "components"),
		                      json_pack("{s:i,s:i,s:s,s:s}", "type", 2, "style",
		                                strcmp(actions[i], "hand") == 0 ? 2 : 1, "label", label, "custom_id", id));
	}
	return rows;
}

const char *
discord_button_command(const char *action)
{
	return strcmp(action, DISCORD_BUTTON_PAGE) == 0 ? "web new" : action;
}

int
discord_button_add_link(json_t **rows, const char *label, const char *url)
{
	json_t *row;
	size_t n;

	/* components/reference.mdx: a link button's url is at most 512 characters */
	if ((strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0) || strlen(url) > 512)
		return -1;
	if (*rows == NULL)
		*rows = json_array();
	n = json_array_size(*rows);
	row = n > 0 ? json_array_get(*rows, n - 1) : NULL;
	if (row == NULL || json_array_size(json_object_get(row, "components")) >= DISCORD_BUTTONS_PER_ROW) {
		if (n >= DISCORD_ROWS_MAX) {
			if (n == 0) {
				json_decref(*rows);
				*rows = NULL;
			}
			return -1;
		}
		row = json_pack("{s:i,s:[]}", "type", 1, "components");
		json_array_append_new(*rows, row);
	}
	json_array_append_new(json_object_get(row, "components"),
	                      json_pack("{s:i,s:i,s:s,s:s}", "type", 2, "style", 5, "label", label, "url", url));
	return 0;
}

json_t *
discord_button_mentions(const char *user)
{
	/* parse [] turns off every kind; users then lists the one allowed (message.mdx) */
	if (user != NULL && discord_text_snowflake(user))
		return json_pack("{s:[],s:[s],s:b}", "parse", "users", user, "replied_user", 0);
	return json_pack("{s:[],s:b}", "parse", "replied_user", 0);
}
