/* ask.c: what a replay's or a room's page asks for on its socket, from the bot (adapter_replay, adapter_room_games), written here as the page's message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "adapter.h"
#include "rbuf.h"
#include "web.h"
#include "xmalloc.h"

static void
ask_send(struct web *w, uint64_t conn, const char *s, size_t len)
{
	struct web_item *it = xcalloc(1, sizeof *it);

	it->kind = WEB_IT_ANSWER;
	it->conn = conn;
	it->blob = web_blob_new(s, len);
	pthread_mutex_lock(&w->lock);
	web_queue_push(&w->to_thread, it);
	pthread_mutex_unlock(&w->lock);
	web_server_wake(w);
}

/* {"v":1,"type":"replay","days":30,"ended":S,"room_url":URL,"replay":{...}}: built now, from the store. */
static void
ask_replay(struct web *w, const struct web_item *it)
{
	struct rbuf frames = { 0 }, out = { 0 };
	char ad[96], room[128], url[512] = "";
	const struct web_replay *r;
	int64_t ended = 0;

	if (adapter_replay(w->a, it->table, &frames, ad, sizeof ad, room, sizeof room) < 0) {
		/* pruned from the store (game_retention) before its days here */
		rbuf_printf(&out, "{\"v\":1,\"type\":\"gone\",\"days\":%ld}", w->conf.replay_days);
		ask_send(w, it->conn, out.s, out.len);
		rbuf_free(&out);
		return;
	}
	web_rooms_link(w->a, ad, room, url, sizeof url);
	pthread_mutex_lock(&w->lock);
	for (r = w->fin.replays; r != NULL; r = r->next)
		if (r->table == it->table)
			ended = r->ended;
	pthread_mutex_unlock(&w->lock);
	/* base_url has no quote, backslash nor space (web.c): the link is a JSON string as it is */
	rbuf_printf(&out, "{\"v\":1,\"type\":\"replay\",\"days\":%ld,\"ended\":%lld,\"room_url\":\"%s\",\"replay\":",
	            w->conf.replay_days, (long long)ended, url);
	rbuf_addn(&out, frames.s, frames.len);
	rbuf_add(&out, "}");
	ask_send(w, it->conn, out.s, out.len);
	rbuf_free(&frames);
	rbuf_free(&out);
}

struct ask_room {
	struct web *w;
	json_t *games;
};

static void
ask_game(void *ctx, const struct adapter_game *g)
{
	struct ask_room *a = ctx;
	json_t *o = json_object(), *players = json_array(), *scores = json_array();
	char token[WEB_TOKEN_CHARS + 1], url[512];
	bool replay;
	int i;

	for (i = 0; i < g->nseats && i < ADAPTER_MAX_SEATS; i++)
		json_array_append_new(players, json_pack("{s:s, s:i, s:b}", "name", g->names[i] ? g->names[i] : "",
		                                         "side", g->side[i], "computer", g->computer[i]));
	for (i = 0; g->scored && i < g->nsides && i < ADAPTER_MAX_SEATS; i++)
		json_array_append_new(scores, json_integer(g->scores[i]));
	pthread_mutex_lock(&a->w->lock);
	replay = web_replays_token(&a->w->fin, g->table, token);
	pthread_mutex_unlock(&a->w->lock);
	if (replay)
		snprintf(url, sizeof url, "%st/%s", a->w->conf.base_url, token);
	json_object_set_new(o, "table", json_integer(g->table));
	json_object_set_new(o, "created", json_integer(g->created));
	json_object_set_new(o, "ended", json_integer(g->ended));
	json_object_set_new(o, "rules", json_string(g->rules));
	json_object_set_new(o, "players", players);
	json_object_set_new(o, "scores", g->scored ? scores : json_null());
	if (!g->scored)
		json_decref(scores);
	json_object_set_new(o, "winner", json_integer(g->winner));
	json_object_set_new(o, "replay", replay ? json_string(url) : json_null());
	json_array_append_new(a->games, o);
	explicit_bzero(token, sizeof token);
}

/* {"v":1,"type":"room","room":ROOM,"days":30,"games":[...]}: the room's recent finished games. */
static void
ask_room(struct web *w, const struct web_item *it)
{
	struct ask_room a = { .w = w, .games = json_array() };
	const struct web_room *m;
	char ad[96] = "", room[128] = "", *s;
	json_t *o;

	pthread_mutex_lock(&w->lock);
	if ((m = web_rooms_get(&w->fin, it->table)) != NULL) {
		snprintf(ad, sizeof ad, "%s", m->adapter_id);
		snprintf(room, sizeof room, "%s", m->room);
	}
	pthread_mutex_unlock(&w->lock);
	if (room[0] != '\0')
		adapter_room_games(w->a, ad, room, WEB_ROOM_GAMES, ask_game, &a);
	o = json_pack("{s:i, s:s, s:s, s:i, s:o}", "v", 1, "type", "room", "room", room, "days",
	              (int)w->conf.replay_days, "games", a.games);
	s = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (s != NULL)
		ask_send(w, it->conn, s, strlen(s));
	free(s);
}

void
web_ask(struct web *w, const struct web_item *it)
{
	if (it->seat == WEB_SEAT_REPLAY)
		ask_replay(w, it);
	else if (it->seat == WEB_SEAT_ROOM)
		ask_room(w, it);
}
