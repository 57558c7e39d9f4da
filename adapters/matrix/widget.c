/* widget.c: the web table's public page as the game room's widget (im.vector.modular.widgets), set at the deal and removed at the end, where our power level lets us. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

static void
on_widget(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *err = json_string_value(json_object_get(body, "errcode"));

	(void)r;
	/* a refusal costs nothing but the widget: the link is in the lines */
	if (status < 200 || status >= 300)
		matrix_client_log(c, LOG_LVL_INFO, "the room widget was not set: HTTP %ld%s%s", status,
		                  err != NULL ? " " : "", err != NULL ? err : "");
}

static void
widget_put(struct matrix_client *c, const char *room, const char *url)
{
	char path[1024], enc[3 * MATRIX_MAX_ID + 1];
	json_t *content;
	char *text;

	if (matrix_text_urlenc(room, enc, sizeof enc) < 0)
		return;
	/* empty content removes a widget (what Element writes when one is removed) */
	content = url == NULL ? json_object() :
	          json_pack("{s:s,s:s,s:s,s:s,s:{s:s}}", "type", "m.custom", "id", MATRIX_WIDGET_KEY, "name",
	                    "Hand and Foot table", "url", url, "data", "title", "The table, live");
	text = content != NULL ? json_dumps(content, JSON_COMPACT) : NULL;
	json_decref(content);
	snprintf(path, sizeof path, MATRIX_API "/rooms/%s/state/" MATRIX_WIDGET_TYPE "/" MATRIX_WIDGET_KEY, enc);
	if (text != NULL)
		matrix_req_start(c, "PUT", path, text, on_widget, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY);
	free(text);
}

void
matrix_widget_room(struct matrix_client *c, const char *room, const char *watch_url)
{
	bool may;
	char **shown;

	matrix_power_widget(c, room, &may, &shown);
	if (shown == NULL)
		return;
	if (watch_url != NULL && strncmp(watch_url, "https://", 8) != 0 && strncmp(watch_url, "http://", 7) != 0)
		watch_url = NULL;
	if (watch_url != NULL && may && (*shown == NULL || strcmp(*shown, watch_url) != 0)) {
		free(*shown);
		*shown = xstrdup(watch_url);
		widget_put(c, room, watch_url);
	} else if (watch_url == NULL && *shown != NULL) {
		/* the game is over (or the bot may set it no longer: removing ours is still tried) */
		free(*shown);
		*shown = NULL;
		widget_put(c, room, NULL);
	}
}
