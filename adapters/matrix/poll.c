/* poll.c: the /sync long-poll: each batch handled in full (no event twice, even across a restart) before next_batch moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

#define SEEN_KEPT 64   /* event ids also kept in the state store, for a restart mid-batch */

#define STR(x)  #x
#define XSTR(x) STR(x)

/* What says whether a room may hold a hand (private.c). */
#define PRIVACY_TYPES "\"m.room.join_rules\",\"m.room.history_visibility\",\"m.room.third_party_invite\",\"" \
	MATRIX_MADE_TYPE "\",\"m.room.tombstone\",\"m.room.create\""

/* Only what the bot acts on, members lazy-loaded so that big rooms stay
 * cheap, and a short timeline: a room's part of the answer stays under
 * MATRIX_SYNC_TIMELINE events of at most 64 KiB each. */
const char matrix_poll_filter[] =
    "{\"presence\":{\"types\":[]},"
    "\"account_data\":{\"types\":[\"m.direct\"]},"
    "\"room\":{"
    "\"timeline\":{\"types\":[\"m.room.message\",\"m.room.member\",\"m.room.encryption\",\"m.room.power_levels\","
    PRIVACY_TYPES "],\"limit\":" XSTR(MATRIX_SYNC_TIMELINE) "},"
    "\"state\":{\"types\":[\"m.room.member\",\"m.room.encryption\",\"m.room.power_levels\"," PRIVACY_TYPES "],"
    "\"lazy_load_members\":true},"
    "\"ephemeral\":{\"types\":[]},"
    "\"account_data\":{\"types\":[\"m.tag\"]}},"
    "\"event_fields\":[\"type\",\"content\",\"sender\",\"state_key\",\"event_id\",\"origin_server_ts\",\"unsigned\"]}";

/* Still, many busy rooms, or invites with big stripped state, can make an
 * answer go over MATRIX_SYNC_MAX_BYTES. It is then asked for again (same
 * since) one level down, until one fits; the token moves on and the next
 * batch is asked for at level 0 again, so no answer can hold the account
 * back for good. What a lower level leaves out of that one batch is lost. */
static const struct {
	const char *filter, *what;
} levels[] = {
	{ matrix_poll_filter, "every new event" },
	{ "{\"presence\":{\"types\":[]},\"account_data\":{\"types\":[\"m.direct\"]},"
	  "\"room\":{\"timeline\":{\"types\":[\"m.room.message\",\"m.room.member\",\"m.room.encryption\",\"m.room.power_levels\","
	  PRIVACY_TYPES "],\"limit\":1},"
	  "\"state\":{\"types\":[\"m.room.member\",\"m.room.encryption\",\"m.room.power_levels\"," PRIVACY_TYPES "],"
	  "\"lazy_load_members\":true},"
	  "\"ephemeral\":{\"types\":[]},\"account_data\":{\"types\":[]}}}",
	  "the newest event of each room only" },
	{ "{\"presence\":{\"types\":[]},\"account_data\":{\"types\":[\"m.direct\"]},"
	  "\"room\":{\"timeline\":{\"not_types\":[\"*\"],\"limit\":1},\"state\":{\"not_types\":[\"*\"]},"
	  "\"ephemeral\":{\"types\":[]},\"account_data\":{\"types\":[]}}}",
	  "no room events, only invites and rooms left" },
	/* "rooms": [] includes no room at all: a few bytes, whatever is pending */
	{ "{\"presence\":{\"types\":[]},\"account_data\":{\"types\":[]},\"room\":{\"rooms\":[]}}",
	  "no room at all (this batch's events and invites are skipped)" },
};

#define NLEVELS (sizeof levels / sizeof *levels)

static bool
seen_has(struct matrix_client *c, const char *id)
{
	for (size_t i = 0; i < MATRIX_SEEN_MEM; i++)
		if (c->seen[i] != NULL && strcmp(c->seen[i], id) == 0)
			return true;
	return false;
}

static void
seen_remember(struct matrix_client *c, const char *id)
{
	size_t i = c->seen_at % MATRIX_SEEN_MEM;

	free(c->seen[i]);
	c->seen[i] = xstrdup(id);
	c->seen_at++;
}

/* Persists the newest ids, so that a batch re-delivered after a crash
 * (next_batch is stored only once the batch is handled) is not replayed. */
static void
seen_persist(struct matrix_client *c)
{
	char buf[SEEN_KEPT * (MATRIX_MAX_ID + 1) + 1];
	size_t o = 0, n = c->seen_at < SEEN_KEPT ? c->seen_at : SEEN_KEPT;

	buf[0] = '\0';
	for (size_t k = c->seen_at - n; k < c->seen_at; k++) {
		const char *id = c->seen[k % MATRIX_SEEN_MEM];
		size_t l = id != NULL ? strlen(id) : 0;

		if (l == 0)
			continue;
		memcpy(buf + o, id, l);
		o += l;
		buf[o++] = ' ';
	}
	buf[o] = '\0';
	matrix_client_set(c, "seen", buf);
}

void
matrix_poll_restore(struct matrix_client *c)
{
	char buf[SEEN_KEPT * (MATRIX_MAX_ID + 1) + 1], *tok, *save = NULL;

	if (matrix_client_get(c, "next_batch", buf, sizeof buf) >= 0 && buf[0] != '\0')
		c->since = xstrdup(buf);
	if (matrix_client_get(c, "seen", buf, sizeof buf) < 0)
		return;
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		if (matrix_text_id_ok(tok, '$'))
			seen_remember(c, tok);
}

void
matrix_poll_free(struct matrix_client *c)
{
	for (size_t i = 0; i < sizeof c->refs / sizeof *c->refs; i++) {
		free(c->refs[i].room);
		free(c->refs[i].thread);
		free(c->refs[i].event_id);
		c->refs[i] = (struct matrix_ref){ 0 };
	}
	for (size_t i = 0; i < MATRIX_SEEN_MEM; i++) {
		free(c->seen[i]);
		c->seen[i] = NULL;
	}
	free(c->since);
	c->since = NULL;
}

/* Tells room, once per batch, that what was said there in a gap was not
 * applied (the rooms told this batch are in c->stale_rooms). */
static void
stale_told(struct matrix_client *c, const char *room)
{
	if (matrix_strlist_has(c->stale_rooms, c->nstale_rooms, room))
		return;
	matrix_strlist_add(&c->stale_rooms, &c->nstale_rooms, room);
	matrix_client_log(c, LOG_LVL_NOTICE, "%s: the server skipped older messages: its newest commands are "
	                  "not applied", room);
	matrix_outbox_add(c->out, room, NULL, NULL,
	                  "I missed part of what was said here while I was away, so I did not act on the commands "
	                  "said meanwhile: please say again what you still want.", NULL, NULL, 0);
}

/* A command said in a thread gets a handle (bot_event.ref): the core's
 * answers to it carry it back (adapter_msg.reply_to), and go to that thread. */
static uint64_t
ref_keep(struct matrix_client *c, const struct matrix_item *it)
{
	struct matrix_ref *r = &c->refs[c->next_ref % (sizeof c->refs / sizeof *c->refs)];

	free(r->room);
	free(r->thread);
	free(r->event_id);
	r->ref = ++c->next_ref;
	r->room = xstrdup(it->room);
	r->thread = xstrdup(it->thread);
	r->event_id = xstrdup(it->event_id);
	return r->ref;
}

static void
emit_item(struct matrix_client *c, const struct matrix_item *it)
{
	struct bot_event ev = { .room = it->room, .user_id = it->user, .ts_ms = it->ts };
	char nb[MATRIX_MAX_NAME + 1];
	bool direct = it->room != NULL && matrix_direct_user(c, it->room) != NULL;

	if (it->event_id != NULL) {
		if (seen_has(c, it->event_id))
			return;
		seen_remember(c, it->event_id);
	}
	if (it->room != NULL && matrix_rooms_is_encrypted(c, it->room))
		return;
	/* the server notices room holds no game: what it says is for the operator */
	if (matrix_notices_take(c, it))
		return;
	if (it->kind == MX_IT_MESSAGE && it->stale) {
		/* the server skipped what came before it: a command applied now
		 * would be out of its context (a move meant for a turn long gone) */
		stale_told(c, it->room);
		return;
	}
	switch (it->kind) {
	case MX_IT_MESSAGE:
		ev.type = BOT_EV_MESSAGE;
		ev.text = it->text;
		ev.notice = it->notice;
		ev.direct = direct;
		if (it->thread != NULL && it->event_id != NULL)
			ev.ref = ref_keep(c, it);
		break;
	case MX_IT_JOIN:
		ev.type = BOT_EV_JOIN;
		break;
	case MX_IT_LEAVE:
		ev.type = BOT_EV_LEAVE;
		break;
	case MX_IT_RENAME:
		/* the name as it is to be shown: the localpart for a removed one,
		 * told apart from another member's same name */
		matrix_names_set(c, it->room, it->user, it->text);
		ev.type = BOT_EV_RENAME;
		ev.text = matrix_names_of(c, it->room, it->user, nb, sizeof nb);
		break;
	default:
		return;
	}
	/* joins and leaves of a direct room are not the game's business (who
	 * may be in it is private.c's, told before any event is emitted) */
	if (direct && ev.type != BOT_EV_MESSAGE)
		return;
	ev.user_name = ev.type == BOT_EV_RENAME ? ev.text : matrix_names_of(c, it->room, it->user, nb, sizeof nb);
	/* recorded before the bot acts: a crash in between loses a command
	 * rather than replaying it */
	if (it->event_id != NULL)
		seen_persist(c);
	/* a table opened from a direct message is the adapter's to set up */
	if (ev.type == BOT_EV_MESSAGE && !it->notice && matrix_tableroom_said(c, it))
		return;
	c->host.emit(c->host.ctx, &ev);
	if (ev.type == BOT_EV_JOIN)
		matrix_tableroom_joined(c, it->room, it->user);
}

/* An m.direct entry names a room, but says nothing of who is in it: a
 * room we are in is checked before it holds a hand, never taken as it is. */
static void
direct_entry(struct matrix_client *c, const struct matrix_item *it)
{
	if (matrix_direct_room(c, it->user) != NULL || matrix_private_denied(c, it->room) ||
	    !matrix_strlist_has(c->joined, c->njoined, it->room))
		return;
	matrix_private_check(c, it->room, it->user, false);
}

/* Whether a later item of the batch sets the same rule of the same room:
 * a room made with a shared history and then a hidden one (a preset, then
 * its initial state) is judged by what it is now. */
static bool
rule_superseded(const struct matrix_sync *s, size_t i)
{
	const struct matrix_item *it = &s->items[i];

	if (it->kind != MX_IT_JOIN_RULE && it->kind != MX_IT_HISTORY)
		return false;
	for (size_t k = i + 1; k < s->nitems; k++)
		if (s->items[k].kind == it->kind && strcmp(s->items[k].room, it->room) == 0)
			return true;
	return false;
}

static void
handle_sync(struct matrix_client *c, const struct matrix_sync *s)
{
	/* first who is in each direct room and what it lets later members
	 * read: an invite in this batch drops the room before any command of
	 * the batch can send a hand there */
	for (size_t i = 0; i < s->nitems && c->phase == MX_PH_SYNC; i++)
		if (matrix_private_kind(s->items[i].kind) && !rule_superseded(s, i))
			matrix_private_item(c, &s->items[i]);
	for (size_t i = 0; i < s->nitems && c->phase == MX_PH_SYNC; i++) {
		const struct matrix_item *it = &s->items[i];

		switch (it->kind) {
		case MX_IT_NAME:
			matrix_names_set(c, it->room, it->user, it->name);
			break;
		case MX_IT_DIRECT:
			direct_entry(c, it);
			break;
		case MX_IT_MADE:
			matrix_direct_made(c, it);
			break;
		case MX_IT_TOMBSTONE:
			matrix_rooms_tombstone(c, it);
			break;
		case MX_IT_CREATE:
			matrix_power_creators(c, it);
			break;
		case MX_IT_MEMBER:
		case MX_IT_JOIN_RULE:
		case MX_IT_HISTORY:
			break;
		case MX_IT_INVITE:
			matrix_rooms_invited(c, it);
			break;
		case MX_IT_REMOVED:
			matrix_rooms_removed(c, it);
			break;
		case MX_IT_ENCRYPTED:
			if (!matrix_private_denied(c, it->room))
				matrix_rooms_encrypted(c, it);
			break;
		case MX_IT_JOINED:
			matrix_rooms_joined(c, it->room);
			break;
		case MX_IT_POWER:
			matrix_power_set(c, it);
			break;
		case MX_IT_NOTICE_ROOM:
			matrix_notices_room(c, it);
			break;
		default:
			emit_item(c, it);
			break;
		}
	}
}

/* A sync handled whole: the token moves on, the level back to normal, and
 * the adapter is up. */
static void
sync_done(struct matrix_client *c, struct matrix_sync *sp)
{
	/* every event of the batch has been handled (and its game actions
	 * committed): only now may the token move on */
	matrix_client_set(c, "next_batch", sp->next_batch);
	free(c->since);
	c->since = sp->next_batch;
	sp->next_batch = NULL;
	matrix_sync_free(sp);
	c->fails = 0;
	if (c->sync_level > 0) {
		matrix_client_log(c, LOG_LVL_NOTICE, "caught up with %s; the next sync asks for %s again",
		                  levels[c->sync_level].what, levels[0].what);
		/* rooms left in the skipped batch are learnt from the server's list */
		if ((size_t)c->sync_level + 1 == NLEVELS)
			matrix_rooms_list(c, false);
		c->sync_level = 0;
	}
	if (!c->up || c->said_down) {
		struct bot_event ev = { .type = BOT_EV_UP };

		/* a room made just before a crash may be missing from m.direct */
		if (!c->up)
			matrix_direct_publish(c);
		c->up = true;
		c->said_down = false;
		c->host.emit(c->host.ctx, &ev);
	}
}

static void
on_sync(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	struct matrix_sync s;
	const char *why = NULL;
	bool initial = c->since == NULL;

	c->sync_req = NULL;
	if (r->in.too_big && (size_t)c->sync_level + 1 < NLEVELS) {
		c->sync_level++;
		matrix_client_log(c, LOG_LVL_WARNING, "the /sync answer is over the %u MiB limit: asking again for %s",
		                  MATRIX_SYNC_MAX_BYTES >> 20, levels[c->sync_level].what);
		matrix_poll_start(c);
		return;
	}
	if (r->in.too_big) {
		/* nothing left to leave out: only time can help */
		matrix_login_failed(c, "sync", 0, "over the size limit even without any room", -1);
		return;
	}
	if (status == 401) {
		matrix_login_refused(c, "sync", r->errcode, json_is_true(json_object_get(body, "soft_logout")));
		return;
	}
	if (status >= 400 && status < 500 && status != 429 && status != 408 && c->since != NULL) {
		/* our token is refused (a server restored from a backup, a purge):
		 * asking again with it would fail for ever.  Started afresh: the
		 * history in between is skipped, as on a first start */
		matrix_client_log(c, LOG_LVL_WARNING, "the server refused the sync token (HTTP %ld%s%s): starting "
		                  "afresh, what was said meanwhile is skipped", status, r->errcode != NULL ? ", " : "",
		                  r->errcode != NULL ? r->errcode : "");
		free(c->since);
		c->since = NULL;
		matrix_client_del(c, "next_batch");
		matrix_poll_start(c);
		return;
	}
	if (status != 200) {
		matrix_login_failed(c, "sync", status, r->errcode, r->retry_ms);
		return;
	}
	if (matrix_sync_parse(r->in.s != NULL ? r->in.s : "", r->in.len, c->self, initial, &s, &why) < 0) {
		matrix_login_failed(c, why, status, NULL, -1);
		return;
	}
	if (s.limited > 0 && !initial && c->sync_level == 0)
		matrix_client_log(c, LOG_LVL_INFO, "%zu rooms had more new events than a sync holds: their older ones "
		                  "were skipped (their state gap is in the answer)", s.limited);
	handle_sync(c, &s);
	matrix_strlist_free(c->stale_rooms, c->nstale_rooms);
	c->stale_rooms = NULL;
	c->nstale_rooms = 0;
	if (c->phase != MX_PH_SYNC) {
		matrix_sync_free(&s);
		return;
	}
	sync_done(c, &s);
	matrix_send_kick(c);
	if (c->phase == MX_PH_SYNC)
		matrix_poll_start(c);
}

void
matrix_poll_start(struct matrix_client *c)
{
	char path[8192], enc[3 * 1024 + 1], fenc[3 * 1024 + 1];
	size_t o;
	long timeout = c->since != NULL ? c->cfg.sync_timeout_ms : 0;
	/* the uploaded copy of the normal filter if there is one; else inline */
	const char *filter = c->sync_level == 0 && c->filter[0] != '\0' ? c->filter : levels[c->sync_level].filter;

	c->phase = MX_PH_SYNC;
	/* a lower level is asked for at once, whatever the server has new */
	if (c->sync_level > 0)
		timeout = 0;
	o = (size_t)snprintf(path, sizeof path, MATRIX_API "/sync?timeout=%ld", timeout);
	if (matrix_text_urlenc(filter, fenc, sizeof fenc) == 0)
		o += (size_t)snprintf(path + o, sizeof path - o, "&filter=%s", fenc);
	if (c->since != NULL && matrix_text_urlenc(c->since, enc, sizeof enc) == 0 && o < sizeof path)
		snprintf(path + o, sizeof path - o, "&since=%s", enc);
	c->sync_req = matrix_req_start_now(c, "GET", path, NULL, on_sync, timeout + 30000, MATRIX_SYNC_MAX_BYTES);
	if (c->sync_req == NULL)
		matrix_login_failed(c, "sync", 0, NULL, -1);
}
