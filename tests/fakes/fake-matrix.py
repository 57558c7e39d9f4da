#!/usr/bin/env python3
"""fake-matrix.py: a small fake Matrix homeserver (client-server API subset, from the spec) for handfoot's tests.

Usage: fake-matrix.py PORT [PORTFILE]   (PORT 0: a free loopback port, written to PORTFILE)

Client-server API: login (m.login.password, device_id reuse), whoami, user filters
(validated; uploaded or inline), /sync with since/timeout long-poll and the filter
applied as Synapse does (timeline limit, default 10, with limited/prev_batch and the
gap's state in "state"; types/not_types/senders with '*'; rooms/not_rooms; lazy-loaded
members), rooms.join state+timeline, rooms.invite invite_state (stripped state, then
the invite event itself last, as Synapse and Dendrite send it), rooms.leave,
account_data; join, leave, invite, kick, joined_rooms, members, createRoom (is_direct,
invite, initial_state, name, topic, preset; m.room.power_levels as Synapse writes it: the
creator at 100, kick/ban/redact/state 50, trusted_private_chat's invitees at 100), account
data, room state (a member event only for oneself; m.room.power_levels only from a user
at its level, changing no one at or above the sender's level nor granting more), PUT send with txnId idempotence (scoped per device), events over
65536 bytes refused (413 M_TOO_LARGE), 429 M_LIMIT_EXCEEDED; optionally (POST /_fake/ratelimit)
Synapse's message rate limit per user (rc_message: synapse/api/ratelimiting.py's algorithm) on
every event sent (PUT send and PUT state), and ("rooms": true) its rc_room_creation on every
createRoom, a limiter of its own; both answered 429 M_LIMIT_EXCEEDED with retry_after_ms.

Who may see what, as the spec says: createRoom's presets (private_chat, the default, and
trusted_private_chat: join rule invite, history shared; public_chat: public), then
power_level_content_override, then initial_state; invites need the invite power level (spec
authorization rules), a join needs an invite or a public room, a knock (POST /knock/{room}) a
knock join rule; every event records the history visibility and the memberships of the moment it
was sent, and the sync and GET /rooms/{room}/messages show a user only the events the room's
history visibility lets them read (joined: those sent while they were in; invited: also while
invited; shared: all, once joined). GET /rooms/{room}/state.

Logins: GET /login lists the flows (m.login.password unless /_fake/config says login_flows, e.g.
["m.login.sso"] for a server behind OAuth); POST /login refuses a bad password (403 M_FORBIDDEN),
a deactivated account (403 M_USER_DEACTIVATED) and a type not offered; a new login as a device ends
that device's older tokens; refresh tokens if asked for ("refresh_token": true, POST /refresh, or
/_fake/user {"refresh": true} as an OAuth provider gives them; the old refresh token is revoked
once the new access or refresh token is used, as the spec says); an
expired token (POST /_fake/expire {"user"}) gets 401 M_UNKNOWN_TOKEN with soft_logout; the token is
read from the Authorization header only.

Test control (no auth): POST /_fake/user {"user","password","server"} -> token (server:
a user "of another homeserver", for allow-list tests);
POST /_fake/fail {"method","path" (regex),"user","status","count","retry_after_ms","header_only","drop",
"after_commit","delay_ms" (answer normally, but late),"late_ms" (the request takes effect at once, its
answer is written that late: a join the sync shows before its answer comes),"bare" (a 429 with no wait in it at all),
"skip_invite" (with after_commit on createRoom: the room is made, its invites fail)};
POST /_fake/invite_state {"room","user","events"}: stripped state a hostile remote server adds to
an invite (placed before the invite event, as a server passes on invite_room_state);
POST /_fake/server_notice {"user","text","type","msgtype"}: a notice as Synapse's server notices send
it (the user's notices room made and tagged m.server_notice on first use, the user invited; msgtype
m.server_notice unless given, server_notice_type "type"); rooms' m.tag goes with a room's first sync;
POST /_fake/replay {"room","count"}: re-delivers the last events, reversed (duplicates, out of order);
POST /_fake/ratelimit {"per_second","burst","user","rooms"}: limit every user's event sends (or, with
"rooms", room creations) as Synapse does (0 turns it off, the default), or only user's if given;
POST /_fake/config {"encrypt_new_rooms": "invite"|"all"|""}: Synapse's
encryption_enabled_by_default_for_room_type (rooms made with a private preset, or all, come encrypted);
{"versions": [...]}: what GET /_matrix/client/versions lists (Synapse's v1.1 to v1.12 by default; an old
server lists r0.x only); {"well_known": {...} | null | "self"}: the body of GET /.well-known/matrix/client
(null: 404, as a server without one; "self", the default: m.homeserver.base_url is this fake, with a
trailing slash as many servers write it); {"hold_sync": [users]}: those users' /sync answers wait
(even past their timeout, 25 s at most) until the list no longer names them, so that what happens
meanwhile comes in one batch; {"rooms_reversed": true}: a sync lists its joined rooms in the reverse
order (JSON objects have none: a client must not depend on it). Given a certificate and key (argv 3, 4), the fake serves TLS.
GET /_fake/events?room=R: the room's timeline with txn ids (and "_members": the memberships when each was sent;
"_notify": for each other member then joined, what the default push rules did: highlight, notify or none); GET /_fake/requests: counters
(and "in_flight": each user's requests being answered now; "in_flight_max": the most requests
of one user handled at once; "ratelimit": per user,
"sends" events sent, "limited" 429s given, "early" sends that came before the retry_after_ms
of an earlier 429 had passed; "room_ratelimit": the same for createRoom).
Only what handfoot uses is implemented; it is not a homeserver.
"""
import json
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SERVER = "hs"
SCHEME = ["http"]   # https when started with a certificate
NOTICES = "@notices:" + SERVER   # Synapse's server notices user
LOCK = threading.Condition()
MAX_PDU = 65536        # the spec's limit on a whole event, in the federation format
PDU_OVERHEAD = 512     # what the federation format adds to a client event (hashes, signatures, auth...)
DEFAULT_LIMIT = 10     # Synapse's timeline limit when a filter gives none
# what Synapse passes on as an invite's stripped state (room_prejoin_state's defaults)
STRIPPED_TYPES = ("m.room.create", "m.room.join_rules", "m.room.canonical_alias", "m.room.avatar",
                  "m.room.encryption", "m.room.name", "m.room.topic")


class TooLarge(Exception):
    pass


class World:
    def __init__(self):
        self.pos = 0
        self.stream = []          # (pos, kind, room_or_user, payload); stream[i] has pos i + 1
        self.users = {}           # user_id -> password
        self.tokens = {}          # token -> (user_id, device)
        self.filters = {}         # filter id -> (user, filter)
        self.rooms = {}           # room_id -> {"state": {(type,key): ev}, "timeline": [ev]}
        self.txns = {}            # (user, device, txn) -> event_id
        self.account = {}         # (user, type) -> content
        self.invite_extra = {}    # (room, user) -> stripped events a hostile remote server adds
        self.faults = []
        self.nroom = 0
        self.nevent = 0
        self.ntoken = 0
        self.requests = {}
        self.in_flight = {}       # user -> requests being handled now
        self.in_flight_max = {}
        self.limit = Limiter()
        self.room_limit = Limiter()   # rc_room_creation
        self.skip_invite = False
        self.flows = ["m.login.password"]   # GET /login's flows (set with /_fake/config)
        self.versions = ["v1.%d" % i for i in range(1, 13)]   # GET /versions (Synapse 1.1xx)
        self.well_known = "self"  # GET /.well-known/matrix/client: None is a 404
        self.tags = {}            # (user, room) -> m.tag's tags
        self.notice_rooms = {}    # user -> their server notices room
        self.deactivated = set()
        self.expired = set()                # access tokens past their time: 401 soft_logout
        self.refresh = {}                   # refresh token -> (user, device)
        self.spent = {}                     # new access or refresh token -> the refresh token it replaced
        self.logins = 0                     # POST /login, whatever the answer
        self.agents = set()                 # the User-Agent headers seen
        self.hold_sync = set()    # users whose /sync answers wait (/_fake/config hold_sync)
        self.rooms_reversed = False   # joined rooms listed newest first
        self.encrypt_new = ""     # Synapse's encryption_enabled_by_default_for_room_type ("", invite, all)

    def push(self, kind, key, payload):
        self.pos += 1
        self.stream.append((self.pos, kind, key, payload))
        LOCK.notify_all()

    def membership(self, room, user):
        ev = self.rooms[room]["state"].get(("m.room.member", user))
        return ev["content"].get("membership") if ev else None

    def event(self, room, sender, etype, content, state_key=None, txn=None):
        ev = {"type": etype, "sender": sender, "content": content,
              "event_id": "$e%d:%s" % (self.nevent + 1, SERVER), "room_id": room,
              "origin_server_ts": int(time.time() * 1000)}
        if state_key is not None:
            ev["state_key"] = state_key
        size = len(json.dumps(ev, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
        if size + PDU_OVERHEAD > MAX_PDU:
            raise TooLarge()
        self.nevent += 1
        r = self.rooms[room]
        # what the room was when the event was sent: history visibility (the
        # spec's rules use the state before the event) and who was in it
        hv = r["state"].get(("m.room.history_visibility", ""))
        ev["_hv"] = hv["content"].get("history_visibility", "shared") if hv else "shared"
        ev["_members"] = {k: e["content"].get("membership") for (t, k), e in r["state"].items()
                          if t == "m.room.member"}
        if state_key is not None:
            prev = r["state"].get((etype, state_key))
            if prev is not None:
                ev["unsigned"] = {"prev_content": prev["content"]}
            r["state"][(etype, state_key)] = ev
        if txn is not None:
            ev.setdefault("unsigned", {})["transaction_id"] = txn
        if state_key is None:
            ev["_notify"] = {u: push_action(ev, u, ev["_members"]) for u, ms in ev["_members"].items()
                             if ms == "join" and u != sender}
        r["timeline"].append(ev)
        self.push("event", room, ev)
        return ev

    def new_room(self, creator, peers=(), override=None, version="10", more_creators=()):
        self.nroom += 1
        room = "!r%d:%s" % (self.nroom, SERVER)
        self.rooms[room] = {"state": {}, "timeline": []}
        v12 = version.isdigit() and int(version) >= 12
        if v12:
            # room version 12: the sender is the creator (no "creator" key), with
            # additional_creators; creators have infinite power and are in no users
            create = {"room_version": version}
            if more_creators:
                create["additional_creators"] = list(more_creators)
        else:
            create = {"creator": creator, "room_version": version}
        self.event(room, creator, "m.room.create", create, "")
        self.event(room, creator, "m.room.member", {"membership": "join", "displayname": creator[1:].split(":")[0]}, creator)
        # Synapse's default power levels (room creation); peers: trusted_private_chat's invitees
        users = {} if v12 else {creator: 100}
        users.update({p: 100 for p in peers})
        pl = {"users": users, "users_default": 0, "events_default": 0, "state_default": 50,
              "ban": 50, "kick": 50, "redact": 50, "invite": 0,
              "events": {"m.room.name": 50, "m.room.power_levels": 100, "m.room.history_visibility": 100,
                         "m.room.canonical_alias": 50, "m.room.avatar": 50, "m.room.tombstone": 100,
                         "m.room.server_acl": 100, "m.room.encryption": 100}}
        # power_level_content_override: its keys replace the defaults' (Synapse)
        pl.update(override or {})
        self.event(room, creator, "m.room.power_levels", pl, "")
        return room

    def upgrade(self, room, user, body):
        """POST /rooms/{room}/upgrade as Synapse does it: the upgrader needs the level of
        m.room.tombstone; a new room with the old one's name, join rules, history visibility and
        power levels (users copied); the tombstone in the old room, whose power levels then
        keep everyone below 50 from speaking and inviting. Nobody is invited to the new room."""
        mine, pl = self.power(room, user)
        if mine < int(pl.get("events", {}).get("m.room.tombstone", pl.get("state_default", 50))):
            return 403, {"errcode": "M_FORBIDDEN", "error": "insufficient power level to upgrade"}
        if not isinstance(body.get("new_version"), str):
            return 400, {"errcode": "M_BAD_JSON", "error": "new_version"}
        new = self.new_room(user, (), {k: v for k, v in pl.items()})
        for t in ("m.room.join_rules", "m.room.history_visibility", "m.room.name"):
            if (t, "") in self.rooms[room]["state"]:
                self.event(new, user, t, self.state_of(room, t), "")
        self.event(room, user, "m.room.tombstone",
                   {"body": "This room has been replaced", "replacement_room": new}, "")
        old = dict(pl)
        restrict = max(50, int(old.get("users_default", 0)) + 1)
        old["events_default"] = max(int(old.get("events_default", 0)), restrict)
        old["invite"] = max(int(old.get("invite", 0)), restrict)
        self.event(room, user, "m.room.power_levels", old, "")
        return 200, {"replacement_room": new}

    def issue(self, uid, device, refresh):
        """A new access token for (uid, device), and a refresh token if asked for."""
        self.ntoken += 1
        tok = "tok%d_%s" % (self.ntoken, uid[1:].split(":")[0])
        self.tokens[tok] = (uid, device)
        out = {"user_id": uid, "access_token": tok, "device_id": device}
        if refresh:
            rt = "ref%d" % self.ntoken
            self.refresh[rt] = (uid, device)
            out.update(refresh_token=rt, expires_in_ms=300000)
        return out

    def state_of(self, room, etype, key=""):
        ev = self.rooms[room]["state"].get((etype, key))
        return ev["content"] if ev else {}

    def power(self, room, user):
        """user's power level in room, and the level needed to send a state event of each type."""
        ev = self.rooms[room]["state"].get(("m.room.power_levels", ""))
        c = ev["content"] if ev else {}
        cr = self.rooms[room]["state"].get(("m.room.create", ""))
        v = cr["content"].get("room_version", "1") if cr else "1"
        if cr and v.isdigit() and int(v) >= 12 and \
                (user == cr["sender"] or user in cr["content"].get("additional_creators", [])):
            return 1 << 62, c      # infinite
        return int(c.get("users", {}).get(user, c.get("users_default", 0))), c

    def power_change_ok(self, room, user, new):
        """As the spec's authorization rules for m.room.power_levels, in short: no one at or
        above the sender's level changed (but the sender), no level granted above it."""
        mine, old = self.power(room, user)
        if not old:
            return True
        if mine < int(old.get("events", {}).get("m.room.power_levels", old.get("state_default", 50))):
            return False
        if not isinstance(new.get("users", {}), dict):
            return False
        ou, nu = old.get("users", {}), new.get("users", {})
        for u in set(ou) | set(nu):
            o, n = ou.get(u), nu.get(u)
            if o == n:
                continue
            if u != user and o is not None and int(o) >= mine:
                return False
            if n is not None and int(n) > mine:
                return False
        return True


class Limiter:
    """Synapse's per-user message rate limit (Ratelimiter.can_do_action in
    synapse/api/ratelimiting.py): a leaky bucket of burst actions draining at
    per_second; a denied action is not counted, and its 429 says when the
    next one will be allowed. Off (per_second 0) unless a test turns it on."""

    def __init__(self):
        self.rate, self.burst = 0.0, 0
        self.only = None          # if set, the one user limited (the others' sends are counted only)
        self.actions = {}         # user -> (action_count, time_start)
        self.retry_at = {}        # user -> the latest time a 429 told them to wait until
        self.sends, self.limited, self.early = {}, {}, {}

    def check(self, user):
        """None if user may send an event now, else the retry_after_ms of a 429."""
        now = time.time()
        self.sends[user] = self.sends.get(user, 0) + 1
        if now < self.retry_at.get(user, 0.0):
            self.early[user] = self.early.get(user, 0) + 1
        if self.rate <= 0 or (self.only is not None and user != self.only):
            return None
        count, start = self.actions.get(user, (0.0, now))
        performed = count - (now - start) * self.rate
        if performed < 0:
            performed, count, start = 0.0, 0.0, now
        allowed = not performed > self.burst - 1
        if allowed:
            count += 1
        self.actions[user] = (count, start)
        if allowed:
            return None
        at = max(now, start + (count - self.burst + 1) / self.rate)
        ms = int(1000 * (at - now))
        self.limited[user] = self.limited.get(user, 0) + 1
        self.retry_at[user] = max(self.retry_at.get(user, 0.0), now + ms / 1000.0)
        return ms


W = World()


def user_rooms(user):
    joined, invited = [], []
    for rid in W.rooms:
        m = W.membership(rid, user)
        if m == "join":
            joined.append(rid)
        elif m == "invite":
            invited.append(rid)
    return joined, invited


def push_action(ev, user, members):
    """What the spec's default push rules (client-server API, "Predefined rules") do for
    user with a message event, taken in their order (override, content, underride), the
    first that matches deciding: "highlight" (notify and highlight), "notify" or "none".
    .m.rule.suppress_notices comes before .m.rule.is_user_mention: a pinged m.notice
    notifies nobody. The legacy display-name and user-name rules do not apply to an
    event with m.mentions (spec v1.7)."""
    c = ev.get("content")
    if not isinstance(c, dict):
        return "none"
    mentions = c.get("m.mentions")
    body = c.get("body") if isinstance(c.get("body"), str) else ""
    joined = sum(1 for m in members.values() if m == "join")
    if c.get("msgtype") == "m.notice":                                     # .m.rule.suppress_notices
        return "none"
    if isinstance(mentions, dict) and user in (mentions.get("user_ids") or []):   # .m.rule.is_user_mention
        return "highlight"
    if mentions is None:
        name = user[1:].split(":")[0]
        if name and re.search(r"(^|\W)%s($|\W)" % re.escape(name), body, re.I):   # contains_display_name
            return "highlight"
    if isinstance(mentions, dict) and mentions.get("room") is True:       # .m.rule.is_room_mention
        return "highlight"
    rel = c.get("m.relates_to")
    if isinstance(rel, dict) and rel.get("rel_type") == "m.replace":      # .m.rule.suppress_edits
        return "none"
    if joined == 2:                                                        # .m.rule.room_one_to_one
        return "notify"
    return "notify"                                                        # .m.rule.message


def visible(ev, user):
    """The spec's history visibility (client-server API, "Room history visibility"),
    as Synapse applies it: an event is shown to user if world_readable; if shared
    and user is joined now; if invited and user was invited or joined when it was
    sent; if joined and user was joined when it was sent. The state events that
    change user's own membership are always shown."""
    if ev.get("type") == "m.room.member" and ev.get("state_key") == user:
        return True
    hv, was = ev.get("_hv", "shared"), ev.get("_members", {}).get(user)
    if hv == "world_readable" or was == "join":
        return True
    if hv == "invited":
        return was == "invite"
    if hv == "shared":
        return W.membership(ev["room_id"], user) == "join"
    return False


def strip_internal(ev, user):
    ev = {k: v for k, v in ev.items() if not k.startswith("_")}
    ev.pop("room_id", None)
    if "unsigned" in ev and ev["sender"] != user:
        u = dict(ev["unsigned"])
        u.pop("transaction_id", None)
        ev["unsigned"] = u
    return ev


def stripped(ev):
    return {k: ev[k] for k in ("type", "state_key", "sender", "content") if k in ev}


def invite_state(room, user):
    """Stripped state (the room's look, the inviter's membership, whatever a remote
    server added), then the invite event itself, last and whole, as Synapse and
    Dendrite send it."""
    st = W.rooms[room]["state"]
    inv = st.get(("m.room.member", user))
    evs = [stripped(ev) for (t, k), ev in st.items() if t in STRIPPED_TYPES and k == ""]
    if inv is not None and ("m.room.member", inv["sender"]) in st:
        evs.append(stripped(st[("m.room.member", inv["sender"])]))
    evs += W.invite_extra.get((room, user), [])
    if inv is not None:
        evs.append(strip_internal(inv, user))
    return {"events": evs}


# ---------------------------------------------------------------- filters (spec: Filter, RoomFilter, RoomEventFilter)

def str_list(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def event_filter_ok(f, room_event):
    if not isinstance(f, dict):
        return False
    # "must be an integer greater than 0"
    if "limit" in f and (type(f["limit"]) is not int or f["limit"] < 1):
        return False
    keys = ("types", "not_types", "senders", "not_senders") + (("rooms", "not_rooms") if room_event else ())
    if any(k in f and not str_list(f[k]) for k in keys):
        return False
    flags = ("lazy_load_members", "include_redundant_members", "contains_url", "unread_thread_notifications")
    return not room_event or not any(k in f and not isinstance(f[k], bool) for k in flags)


def filter_ok(f):
    if not isinstance(f, dict):
        return False
    if "event_fields" in f and not str_list(f["event_fields"]):
        return False
    if "event_format" in f and f["event_format"] not in ("client", "federation"):
        return False
    if any(k in f and not event_filter_ok(f[k], False) for k in ("presence", "account_data")):
        return False
    r = f.get("room", {})
    if not isinstance(r, dict):
        return False
    for k in ("rooms", "not_rooms"):
        if k in r and not (str_list(r[k]) and all(x.startswith("!") for x in r[k])):
            return False
    if "include_leave" in r and not isinstance(r["include_leave"], bool):
        return False
    return not any(k in r and not event_filter_ok(r[k], True) for k in ("ephemeral", "state", "timeline", "account_data"))


def glob(pat, s):
    return re.fullmatch(".*".join(re.escape(p) for p in pat.split("*")), s) is not None


def passes(f, ev):
    t, snd = ev.get("type", ""), ev.get("sender", "")
    if any(glob(p, t) for p in f.get("not_types", [])):
        return False
    if "types" in f and not any(glob(p, t) for p in f["types"]):
        return False
    if snd in f.get("not_senders", []) or ("senders" in f and snd not in f["senders"]):
        return False
    return True


def room_passes(rf, rid):
    return rid not in rf.get("not_rooms", []) and ("rooms" not in rf or rid in rf["rooms"])


def room_entry(fil, events, before, full_state, user):
    """A joined room's sync entry: events (in order) become the timeline, cut to
    the filter's limit; the state is the room's whole state (full_state) or the
    state events before the timeline (before, and those cut from events)."""
    rf = fil.get("room", {})
    tf, sf = rf.get("timeline", {}), rf.get("state", {})
    limit = tf.get("limit", DEFAULT_LIMIT)
    tl = [e for e in events if passes(tf, e) and visible(e, user)]
    limited = len(tl) > limit
    if limited:
        tl = tl[-limit:]
    shown = set(e["event_id"] for e in tl)
    first = events.index(tl[0]) if tl else len(events)
    if full_state:
        state = [e for e in before if e["event_id"] not in shown]
    else:
        latest = {}
        for e in list(before) + events[:first]:
            if "state_key" in e:
                latest[(e["type"], e["state_key"])] = e
        state = [e for e in latest.values() if e["event_id"] not in shown]
    state = [e for e in state if passes(sf, e)]
    if sf.get("lazy_load_members"):
        # only the timeline's senders, each sent again every time (the spec allows redundancy)
        senders = set(e["sender"] for e in tl)
        have = set(e["state_key"] for e in state if e["type"] == "m.room.member" and e["state_key"] in senders)
        now = W.rooms[tl[0]["room_id"]]["state"] if tl else {}
        state = [e for e in state if e["type"] != "m.room.member" or e["state_key"] in senders]
        state += [now[("m.room.member", u)] for u in senders - have
                  if ("m.room.member", u) in now and now[("m.room.member", u)]["event_id"] not in shown]
    return {"state": {"events": [strip_internal(e, user) for e in state]},
            "timeline": {"events": [strip_internal(e, user) for e in tl], "limited": limited,
                         "prev_batch": "t%d" % first}}


def with_tags(entry, fil, user, rid):
    """A room's tags go with a room the first time it is synced as joined (Synapse: an
    initial sync, or a room newly joined), if the filter lets m.tag through."""
    tags = W.tags.get((user, rid))
    if tags is not None and passes(fil.get("room", {}).get("account_data", {}), {"type": "m.tag"}):
        entry["account_data"] = {"events": [{"type": "m.tag", "content": {"tags": tags}}]}
    return entry


def build_sync(user, since, fil):
    rf = fil.get("room", {})
    af = fil.get("account_data", {})
    out = {"next_batch": "s%d" % W.pos, "rooms": {"join": {}, "invite": {}, "leave": {}},
           "account_data": {"events": []}}
    joined, invited = user_rooms(user)
    if since is None:
        for rid in joined:
            r = W.rooms[rid]
            if room_passes(rf, rid):
                out["rooms"]["join"][rid] = with_tags(room_entry(fil, r["timeline"], list(r["state"].values()), True,
                                                                 user), fil, user, rid)
        for rid in invited:
            if room_passes(rf, rid):
                out["rooms"]["invite"][rid] = {"invite_state": invite_state(rid, user)}
        for (u, t), content in W.account.items():
            if u == user and passes(af, {"type": t}):
                out["account_data"]["events"].append({"type": t, "content": content})
        return out
    seen_acct = set()
    news = {}        # room -> [events since], in order
    full = set()     # rooms joined since: their whole state goes with them
    for pos, kind, key, payload in W.stream[since:]:
        if kind == "account" and key[0] == user and key[1] not in seen_acct:
            seen_acct.add(key[1])
            if passes(af, {"type": key[1]}):
                out["account_data"]["events"].append({"type": key[1], "content": W.account[key]})
        if kind != "event":
            continue
        rid, ev = key, payload
        if not room_passes(rf, rid):
            continue
        m = W.membership(rid, user)
        mine = ev.get("type") == "m.room.member" and ev.get("state_key") == user
        if mine and ev["content"]["membership"] == "invite" and m == "invite":
            out["rooms"]["invite"][rid] = {"invite_state": invite_state(rid, user)}
            continue
        if mine and ev["content"]["membership"] in ("leave", "ban"):
            news.pop(rid, None)
            full.discard(rid)
            tl = [strip_internal(ev, user)] if passes(rf.get("timeline", {}), ev) else []
            out["rooms"]["leave"][rid] = {"timeline": {"events": tl}}
            continue
        if m != "join":
            continue
        if mine and ev["content"]["membership"] == "join" and \
                ev.get("unsigned", {}).get("prev_content", {}).get("membership") != "join":
            full.add(rid)
        news.setdefault(rid, []).append(ev)
    for rid, evs in (reversed(list(news.items())) if W.rooms_reversed else news.items()):
        before = list(W.rooms[rid]["state"].values()) if rid in full else []
        out["rooms"]["join"][rid] = room_entry(fil, evs, before, rid in full, user)
        if rid in full:
            with_tags(out["rooms"]["join"][rid], fil, user, rid)
    return out


def has_news(user, since):
    for pos, kind, key, payload in reversed(W.stream):
        if pos <= since:
            return False
        if kind == "account" and key[0] == user:
            return True
        if kind == "event":
            m = W.membership(key, user)
            if m in ("join", "invite") or payload.get("state_key") == user:
                return True
    return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, obj, headers=None):
        # answers are built under LOCK but written after it is released
        # (flush): a slow reader of a big answer must not stop the world
        self.held = (status, json.dumps(obj).encode(), headers)

    def flush(self):
        held, self.held = getattr(self, "held", None), None
        if held is None:
            return
        status, body, headers = held
        late, self.late_ms = getattr(self, "late_ms", 0), 0
        if late:
            time.sleep(late / 1000.0)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (a stopped long-poll)

    def err(self, status, code, msg):
        self.reply(status, {"errcode": code, "error": msg})

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return None

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def fault(self, method, path, user):
        """The first matching injected fault (by method, path regex, and user if given), or None."""
        for f in W.faults:
            if f["count"] > 0 and f.get("method", method) == method and re.search(f["path"], path) \
                    and f.get("user", user) == user:
                f["count"] -= 1
                return f
        return None

    def fail(self, f):
        if f.get("drop"):
            self.close_connection = True
            return
        if f["status"] == 429 and f.get("bare"):
            # a proxy's limit page: neither Retry-After nor retry_after_ms
            return self.reply(429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests"})
        if f["status"] == 429:
            ms = f.get("retry_after_ms")
            hdr = {"Retry-After": str(max(1, (ms or 1000) // 1000))}
            obj = {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests"}
            if ms is not None and not f.get("header_only"):
                obj["retry_after_ms"] = ms
            self.reply(429, obj, hdr)
        else:
            self.err(f["status"], "M_UNKNOWN", "injected failure")

    def route(self, method):
        try:
            self.route_locked(method)
        finally:
            self.flush()

    def route_locked(self, method):
        u = urllib.parse.urlsplit(self.path)
        path = u.path
        q = dict(urllib.parse.parse_qsl(u.query))
        body = self.body() if method != "GET" else {}
        if body is None:
            return self.err(400, "M_NOT_JSON", "bad JSON")
        if path.startswith("/_fake/"):
            with LOCK:
                return self.control(method, path, q, body)
        if method == "GET" and path in ("/.well-known/matrix/client", "/_matrix/client/versions"):
            return self.unversioned(path)
        if not path.startswith("/_matrix/client/v3/"):
            return self.err(404, "M_UNRECOGNIZED", "unknown endpoint")
        parts = [urllib.parse.unquote(p) for p in path[len("/_matrix/client/v3/"):].split("/")]
        with LOCK:
            W.requests[parts[0]] = W.requests.get(parts[0], 0) + 1
            W.agents.add(self.headers.get("User-Agent", ""))
            auth = self.headers.get("Authorization", "")
            # the header only: the access_token query parameter is deprecated (spec v1.11)
            tok = auth[7:] if auth.startswith("Bearer ") else None
            user, device = W.tokens.get(tok, (None, None))
            expired = tok in W.expired
            # spec (Refreshing access tokens): the old refresh token is
            # revoked once the new access token is used
            W.refresh.pop(W.spent.pop(tok, None), None)
            f = self.fault(method, path, user)
            who = str(user)
            W.in_flight[who] = W.in_flight.get(who, 0) + 1
            W.in_flight_max[who] = max(W.in_flight_max.get(who, 0), W.in_flight[who])
        try:
            if f is not None and f.get("late_ms"):
                # done now, answered late (flush sleeps, outside the lock)
                self.late_ms, f = f["late_ms"], None
            if f is not None and f.get("delay_ms"):
                # a slow answer, otherwise as usual
                time.sleep(f["delay_ms"] / 1000.0)
                f = None
            with LOCK:
                if expired and parts not in (["login"], ["refresh"]):
                    # an expired access token (refresh tokens, or an admin's
                    # logout of the session): soft_logout, the device kept
                    return self.reply(401, {"errcode": "M_UNKNOWN_TOKEN", "error": "expired",
                                            "soft_logout": True})
                return self.answer(method, parts, q, body, user, device, f)
        finally:
            with LOCK:
                W.in_flight[who] -= 1

    def unversioned(self, path):
        """Server discovery and the spec versions: no token needed (spec: server discovery, /versions)."""
        with LOCK:
            what = "well-known" if path.startswith("/.well-known/") else "versions"
            W.requests[what] = W.requests.get(what, 0) + 1
            W.agents.add(self.headers.get("User-Agent", ""))
            f = self.fault("GET", path, None)
            wk, versions = W.well_known, list(W.versions)
        if f is not None:
            return self.fail(f)
        if what == "versions":
            return self.reply(200, {"versions": versions, "unstable_features": {}})
        if wk is None:
            return self.err(404, "M_NOT_FOUND", "no .well-known here")
        if wk == "self":
            wk = {"m.homeserver": {"base_url": "%s://%s/" % (SCHEME[0], self.headers.get("Host", ""))}}
        return self.reply(200, wk)

    def answer(self, method, parts, q, body, user, device, f):
        if f is not None and not f.get("after_commit"):
            return self.fail(f)
        if parts == ["login"] and method == "GET":
            return self.reply(200, {"flows": [{"type": t} for t in W.flows]})
        if parts == ["login"] and method == "POST":
            return self.login(body)
        if parts == ["refresh"] and method == "POST":
            rt = body.get("refresh_token")
            if rt not in W.refresh:
                return self.err(401, "M_UNKNOWN_TOKEN", "unknown refresh token")
            uid, device = W.refresh[rt]
            # spec: the old refresh token stays valid (a client that lost the
            # answer may repeat the refresh) until the new access token or
            # refresh token is used; the old access token goes at once
            W.refresh.pop(W.spent.pop(rt, None), None)
            for t in [t for t, v in W.tokens.items() if v == (uid, device)]:
                W.tokens.pop(t)
                W.expired.discard(t)
            out = W.issue(uid, device, True)
            W.spent[out["access_token"]] = W.spent[out["refresh_token"]] = rt
            return self.reply(200, out)
        if user is None:
            return self.err(401, "M_UNKNOWN_TOKEN", "unknown token")
        if parts == ["sync"] and method == "GET":
            return self.sync(user, q)
        # createRoom has a limiter of its own (Synapse's rc_room_creation,
        # 1.159 on: by default a room a minute); events draw on rc_message
        if method == "POST" and parts == ["createRoom"]:
            ms = W.room_limit.check(user)
            if ms is not None:
                return self.reply(429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too Many Requests",
                                        "retry_after_ms": ms}, {"Retry-After": str(max(1, (ms + 999) // 1000))})
        if method == "PUT" and len(parts) >= 4 and parts[0] == "rooms" and parts[2] in ("send", "state"):
            ms = W.limit.check(user)
            if ms is not None:
                return self.reply(429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too Many Requests",
                                        "retry_after_ms": ms}, {"Retry-After": str(max(1, (ms + 999) // 1000))})
        # a createRoom whose invite fails (the invitee's server is down):
        # Synapse has made the room, and answers an error
        W.skip_invite = f is not None and bool(f.get("skip_invite"))
        try:
            res = self.api(method, parts, q, body, user, device)
        except TooLarge:
            return self.err(413, "M_TOO_LARGE", "event too large")
        if f is not None:
            # the request took effect, but its answer is lost
            return self.fail(f)
        status, obj = res
        return self.reply(status, obj)

    def login(self, body):
        ident = body.get("identifier") or {}
        name = ident.get("user") or body.get("user") or ""
        uid = name if name.startswith("@") else "@%s:%s" % (name, SERVER)
        W.logins += 1
        if body.get("type") not in W.flows:
            return self.err(400, "M_UNKNOWN", "unknown login type")
        if body.get("type") != "m.login.password" or W.users.get(uid) != body.get("password"):
            return self.err(403, "M_FORBIDDEN", "Invalid username or password")
        if uid in W.deactivated:
            return self.err(403, "M_USER_DEACTIVATED", "This account has been deactivated")
        W.ntoken += 1
        device = body.get("device_id") or "DEV%d" % W.ntoken
        # Synapse: logging in again as a device ends that device's older tokens
        for t in [t for t, v in W.tokens.items() if v == (uid, device)]:
            W.tokens.pop(t)
        return self.reply(200, W.issue(uid, device, bool(body.get("refresh_token"))))

    def sync_filter(self, user, q):
        """The filter of a /sync: inline JSON or an uploaded filter's id; None if refused."""
        fq = q.get("filter")
        if fq is None:
            return {}
        if fq.startswith("{"):
            try:
                f = json.loads(fq)
            except ValueError:
                f = None
            if not filter_ok(f):
                self.err(400, "M_BAD_JSON", "invalid filter")
                return None
            return f
        owner, f = W.filters.get(fq, (None, None))
        if owner != user:
            self.err(400, "M_INVALID_PARAM", "no such filter")
            return None
        return f

    def sync(self, user, q):
        since = q.get("since")
        if since is not None:
            if not re.fullmatch(r"s\d+", since) or int(since[1:]) > W.pos:
                return self.err(400, "M_INVALID_PARAM", "bad since")
            since = int(since[1:])
        fil = self.sync_filter(user, q)
        if fil is None:
            return
        timeout = min(int(q.get("timeout") or 0), 60000) / 1000.0
        if since is not None:
            end = time.time() + timeout
            held_until = time.time() + 25
            while not has_news(user, since) or user in W.hold_sync:
                left = (end if user not in W.hold_sync else held_until) - time.time()
                if left <= 0:
                    break
                LOCK.wait(left)
        return self.reply(200, build_sync(user, since, fil))

    def api(self, method, p, q, body, user, device):
        if p == ["account", "whoami"]:
            return 200, {"user_id": user, "device_id": device}
        if p == ["joined_rooms"] and method == "GET":
            return 200, {"joined_rooms": user_rooms(user)[0]}
        if len(p) == 3 and p[0] == "user" and p[2] == "filter" and method == "POST":
            if p[1] != user:
                return 403, {"errcode": "M_FORBIDDEN", "error": "not you"}
            if not filter_ok(body):
                return 400, {"errcode": "M_BAD_JSON", "error": "invalid filter"}
            fid = str(len(W.filters) + 1)
            W.filters[fid] = (user, body)
            return 200, {"filter_id": fid}
        if len(p) == 4 and p[0] == "user" and p[2] == "account_data":
            if p[1] != user:
                return 403, {"errcode": "M_FORBIDDEN", "error": "not you"}
            if method == "PUT":
                W.account[(user, p[3])] = body
                W.push("account", (user, p[3]), body)
                return 200, {}
            if (user, p[3]) not in W.account:
                return 404, {"errcode": "M_NOT_FOUND", "error": "none"}
            return 200, W.account[(user, p[3])]
        if p == ["createRoom"] and method == "POST":
            # the spec's presets; none given: private_chat unless visibility is public
            preset = body.get("preset") or ("public_chat" if body.get("visibility") == "public" else "private_chat")
            if preset not in ("private_chat", "trusted_private_chat", "public_chat") or \
                    not isinstance(body.get("initial_state", []), list) or \
                    not isinstance(body.get("power_level_content_override", {}), dict):
                return 400, {"errcode": "M_BAD_JSON", "error": "bad createRoom body"}
            version = body.get("room_version", "10")
            if not isinstance(version, str) or not version.isdigit() or not 1 <= int(version) <= 12:
                return 400, {"errcode": "M_UNSUPPORTED_ROOM_VERSION", "error": "unsupported room version"}
            more = (body.get("creation_content") or {}).get("additional_creators") or []
            room = W.new_room(user, (body.get("invite") or []) if preset == "trusted_private_chat" else [],
                              body.get("power_level_content_override"), version, more)
            W.event(room, user, "m.room.join_rules", {"join_rule": "public" if preset == "public_chat" else "invite"}, "")
            W.event(room, user, "m.room.history_visibility", {"history_visibility": "shared"}, "")
            # Synapse's encryption_enabled_by_default_for_room_type: invite (private presets) or all
            if W.encrypt_new == "all" or (W.encrypt_new == "invite" and preset != "public_chat"):
                W.event(room, user, "m.room.encryption", {"algorithm": "m.megolm.v1.aes-sha2"}, "")
            for ev in body.get("initial_state") or []:
                W.event(room, user, ev["type"], ev.get("content", {}), ev.get("state_key", ""))
            if body.get("name"):
                W.event(room, user, "m.room.name", {"name": body["name"]}, "")
            if body.get("topic"):
                W.event(room, user, "m.room.topic", {"topic": body["topic"]}, "")
            for inv in [] if W.skip_invite else body.get("invite") or []:
                W.event(room, user, "m.room.member",
                        {"membership": "invite", "is_direct": bool(body.get("is_direct"))}, inv)
            return 200, {"room_id": room}
        if len(p) == 2 and p[0] == "join" and method == "POST":
            p = ["rooms", p[1], "join"]
        if len(p) == 2 and p[0] == "knock" and method == "POST":
            room = p[1]
            if room not in W.rooms:
                return 404, {"errcode": "M_NOT_FOUND", "error": "no such room"}
            # only a room whose join rule says knock may be knocked on
            if W.state_of(room, "m.room.join_rules").get("join_rule") not in ("knock", "knock_restricted") or \
                    W.membership(room, user) in ("join", "ban", "invite"):
                return 403, {"errcode": "M_FORBIDDEN", "error": "you cannot knock on this room"}
            W.event(room, user, "m.room.member", {"membership": "knock"}, user)
            return 200, {"room_id": room}
        if len(p) >= 3 and p[0] == "rooms":
            room = p[1]
            if room not in W.rooms:
                return 404, {"errcode": "M_NOT_FOUND", "error": "no such room"}
            m = W.membership(room, user)
            if p[2] == "join" and method == "POST":
                if m not in ("invite", "join") and W.state_of(room, "m.room.join_rules").get("join_rule") != "public":
                    return 403, {"errcode": "M_FORBIDDEN", "error": "not invited"}
                if m != "join":
                    W.event(room, user, "m.room.member", {"membership": "join", "displayname": user[1:].split(":")[0]}, user)
                return 200, {"room_id": room}
            if p[2] == "leave" and method == "POST":
                if m in ("invite", "join"):
                    W.event(room, user, "m.room.member", {"membership": "leave"}, user)
                return 200, {}
            if p[2] in ("invite", "kick") and method == "POST":
                if m != "join":
                    return 403, {"errcode": "M_FORBIDDEN", "error": "not in room"}
                target = body.get("user_id", "")
                # the spec's authorization rules: the sender's level reaches invite (or kick)
                mine, pl = W.power(room, user)
                if mine < int(pl.get(p[2], 0 if p[2] == "invite" else 50)):
                    return 403, {"errcode": "M_FORBIDDEN", "error": "insufficient power level to " + p[2]}
                if p[2] == "invite" and W.membership(room, target) in ("join", "ban"):
                    return 403, {"errcode": "M_FORBIDDEN", "error": "already in the room or banned"}
                W.event(room, user, "m.room.member",
                        {"membership": "invite" if p[2] == "invite" else "leave"}, target)
                return 200, {}
            if m != "join":
                return 403, {"errcode": "M_FORBIDDEN", "error": "not in room"}
            if p[2:] == ["state"] and method == "GET":
                return 200, [strip_internal(e, user) for e in W.rooms[room]["state"].values()]
            if p[2] == "messages" and len(p) == 3 and method == "GET":
                # dir=b from the newest; only what history visibility lets user see
                evs = [strip_internal(e, user) for e in reversed(W.rooms[room]["timeline"]) if visible(e, user)]
                return 200, {"chunk": evs[:int(q.get("limit") or 10)], "start": "t0"}
            if p[2] == "members" and len(p) == 3 and method == "GET":
                want, unwanted = q.get("membership"), q.get("not_membership")
                return 200, {"chunk": [strip_internal(e, user) for (t, k), e in W.rooms[room]["state"].items()
                                       if t == "m.room.member" and
                                       (want is None or e["content"].get("membership") == want) and
                                       (unwanted is None or e["content"].get("membership") != unwanted)]}
            if p[2] == "upgrade" and method == "POST":
                return W.upgrade(room, user, body)
            if p[2] == "send" and len(p) == 5 and method == "PUT":
                key = (user, device, p[4])
                if key in W.txns:
                    return 200, {"event_id": W.txns[key]}
                # the spec's authorization rules: the sender's level reaches the event's
                mine, pl = W.power(room, user)
                if mine < int(pl.get("events", {}).get(p[3], pl.get("events_default", 0))):
                    return 403, {"errcode": "M_FORBIDDEN", "error": "insufficient power level to send " + p[3]}
                ev = W.event(room, user, p[3], body, txn=p[4])
                W.txns[key] = ev["event_id"]
                return 200, {"event_id": ev["event_id"]}
            if p[2] == "state" and len(p) >= 4 and method == "PUT":
                if p[3] == "m.room.member" and (len(p) < 5 or p[4] != user):
                    # others' membership goes through invite, kick and ban
                    return 403, {"errcode": "M_FORBIDDEN", "error": "not your membership"}
                if p[3] == "m.room.power_levels" and not W.power_change_ok(room, user, body):
                    return 403, {"errcode": "M_FORBIDDEN", "error": "insufficient power level"}
                mine, pl = W.power(room, user)
                if p[3] != "m.room.member" and pl and \
                        mine < int(pl.get("events", {}).get(p[3], pl.get("state_default", 50))):
                    return 403, {"errcode": "M_FORBIDDEN", "error": "insufficient power level to set " + p[3]}
                ev = W.event(room, user, p[3], body, p[4] if len(p) > 4 else "")
                return 200, {"event_id": ev["event_id"]}
        return 404, {"errcode": "M_UNRECOGNIZED", "error": "unknown endpoint"}

    def control(self, method, path, q, body):
        if path == "/_fake/user":
            uid = "@%s:%s" % (body["user"], body.get("server", SERVER))
            W.users[uid] = body.get("password", "")
            W.ntoken += 1
            tok = "tok%d_%s" % (W.ntoken, body["user"])
            W.tokens[tok] = (uid, "TESTDEV%d" % W.ntoken)
            out = {"user_id": uid, "access_token": tok}
            if body.get("refresh"):
                # as an OAuth provider gives them: a token that expires, and
                # the refresh token that renews it (used once)
                rt = "ref%d" % W.ntoken
                W.refresh[rt] = W.tokens[tok]
                out["refresh_token"] = rt
            return self.reply(200, out)
        if path == "/_fake/fail":
            body.setdefault("count", 1)
            W.faults.append(body)
            return self.reply(200, {})
        if path == "/_fake/clear":
            W.faults = []
            return self.reply(200, {})
        if path == "/_fake/invite_state":
            W.invite_extra[(body["room"], body["user"])] = body["events"]
            return self.reply(200, {})
        if path == "/_fake/replay":
            evs = W.rooms[body["room"]]["timeline"][-int(body.get("count", 1)):]
            for ev in reversed(evs):
                W.push("event", body["room"], ev)
            return self.reply(200, {})
        if path == "/_fake/events":
            r = W.rooms.get(q.get("room"))
            if r is None:
                return self.err(404, "M_NOT_FOUND", "no such room")
            return self.reply(200, {"events": r["timeline"]})
        if path == "/_fake/rooms":
            return self.reply(200, {"rooms": {rid: {"members": {k: e["content"]["membership"]
                                                                 for (t, k), e in r["state"].items() if t == "m.room.member"},
                                                     "direct": any(e["content"].get("is_direct") for (t, k), e in r["state"].items()
                                                                   if t == "m.room.member")}
                                              for rid, r in W.rooms.items()},
                                    "account": {"%s %s" % k: v for k, v in W.account.items()}})
        if path == "/_fake/config":
            W.encrypt_new = body.get("encrypt_new_rooms", W.encrypt_new)
            W.flows = body.get("login_flows", W.flows)
            W.deactivated |= set(body.get("deactivate", []))
            W.versions = body.get("versions", W.versions)
            W.well_known = body.get("well_known", W.well_known)
            W.hold_sync = set(body.get("hold_sync", W.hold_sync))
            W.rooms_reversed = bool(body.get("rooms_reversed", W.rooms_reversed))
            LOCK.notify_all()
            return self.reply(200, {})
        if path == "/_fake/server_notice":
            # Synapse's server notices: one room per user, made by the notices user, the
            # user invited (not joined), the room tagged m.server_notice in their account
            uid = body["user"]
            rid = W.notice_rooms.get(uid)
            if rid is None:
                rid = W.new_room(NOTICES)
                W.event(rid, NOTICES, "m.room.join_rules", {"join_rule": "invite"}, "")
                W.event(rid, NOTICES, "m.room.member", {"membership": "invite"}, uid)
                W.notice_rooms[uid] = rid
                W.tags[(uid, rid)] = {"m.server_notice": {"order": 0.5}}
            if body.get("text"):
                content = {"msgtype": body.get("msgtype", "m.server_notice"), "body": body["text"]}
                if body.get("type"):
                    content["server_notice_type"] = body["type"]
                    content["limit_type"] = "monthly_active_user"
                W.event(rid, NOTICES, "m.room.message", content)
            return self.reply(200, {"room_id": rid})
        if path == "/_fake/expire":
            # every access token of user expires (soft logout)
            W.expired |= set(t for t, v in W.tokens.items() if v[0] == body["user"])
            return self.reply(200, {})
        if path == "/_fake/ratelimit":
            lim = W.room_limit if body.get("rooms") else W.limit
            lim.rate = float(body.get("per_second", 0))
            lim.burst = int(body.get("burst", 0))
            lim.only = body.get("user")
            return self.reply(200, {})
        if path == "/_fake/requests":
            lim = W.limit
            rl = W.room_limit
            return self.reply(200, dict(W.requests, in_flight_max=W.in_flight_max, in_flight=dict(W.in_flight),
                                        logins=W.logins,
                                        user_agents=sorted(W.agents),
                                        ratelimit={"sends": lim.sends, "limited": lim.limited, "early": lim.early},
                                        room_ratelimit={"sends": rl.sends, "limited": rl.limited, "early": rl.early}))
        return self.err(404, "M_UNRECOGNIZED", "unknown control")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # a storm of parallel requests is not refused at accept

    def handle_error(self, request, client_address):
        pass  # clients hanging up mid-answer are expected


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    srv = Server(("127.0.0.1", port), Handler)
    if len(sys.argv) > 4:
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(sys.argv[3], sys.argv[4])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
        SCHEME[0] = "https"
    if len(sys.argv) > 2:
        with open(sys.argv[2] + ".tmp", "w") as f:
            f.write("%d\n" % srv.server_address[1])
        import os
        os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    srv.serve_forever()


if __name__ == "__main__":
    main()
