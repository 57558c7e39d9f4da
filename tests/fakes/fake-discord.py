#!/usr/bin/python3
"""fake-discord.py: a strict fake of Discord's Gateway and REST API (the parts handfoot uses), for its tests.

Usage: fake-discord.py PORTFILE [CERT KEY]
  Listens on three free loopback ports and writes "HTTP GATEWAY RESUME" to PORTFILE
  (with CERT and KEY, all three speak TLS: https:// and wss://):
  HTTP is the REST API under /api/v10 plus the test controls under /_fake;
  GATEWAY is the WebSocket that GET /api/v10/gateway/bot names; RESUME is the
  resume_gateway_url that READY names (a second port, so a Resume sent to the
  wrong URL is seen).

Written from discord/discord-api-docs (developers/events/gateway.mdx,
gateway-events.mdx, topics/opcodes-and-status-codes.mdx, topics/rate-limits.mdx,
interactions/receiving-and-responding.mdx, interactions/application-commands.mdx,
components/reference.mdx, resources/message.mdx, resources/user.mdx, reference.mdx).
It refuses what Discord refuses, with Discord's codes: a bad token (close 4004,
HTTP 401), invalid or disallowed intents (4013, 4014), payloads over 4096
bytes (4002), more than 120 payloads a minute (4008), an Identify twice (4005),
a bad Resume seq (4007), content over 2000 characters, malformed components or
allowed_mentions (50035), an interaction answered after 3 s (10062) or twice
(40060), a follow-up to an unknown token (10015), rate limits (429). What
Discord only asks for (heartbeat on time, no request before retry_after has
passed, Resume on resume_gateway_url, no reconnect after a fatal close code,
a close code other than 1000/1001 for a zombie link...) is recorded as a
violation for the tests to assert on.

Test controls (no auth), JSON in and out:
  POST /_fake/config   {token, app_id, heartbeat_interval, session_timeout_ms, identify_window_ms,
                        interaction_deadline_ms, privileged: [bits], hb_tolerance_ms, reconnect_grace_ms,
                        grace_ms (how late after a 429 a request may still arrive unknowing: 50),
                        route_limits (false: no per-route buckets)}
  POST /_fake/guild    {id, name, channels: [{id, name}], members: [{id, username, global_name, nick,
                        permissions (the member's in the channel, a decimal string; default: what a new
                        server's @everyone may do, no MANAGE_MESSAGES)}]}
  POST /_fake/user     {id, username, global_name, dm_open}
  POST /_fake/interaction {kind: "command"|"component", user_id, guild_id (absent: a DM), channel_id,
                        name, options: {name: value}, custom_id, message_id, repeat (N at once: 1)}
                        -> {id, token} (the last's)
  POST /_fake/message  {channel_id, user_id, content} -> {id}
  POST /_fake/gateway  {action: "reconnect" | "invalid_session" (resumable) | "close" (code) | "drop"
                        | "ack" (on) | "heartbeat" | "flood" (size, count: big dispatches at once)}
  POST /_fake/ratelimit {route: regex on "METHOD /path", count, retry_after, global, scope}: a 429 storm
  POST /_fake/clear    forgets the violations
  GET  /_fake/state    everything recorded (connections, messages, interactions, commands, requests, violations)
"""
import asyncio
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import websockets

LOCK = threading.RLock()
# permissions.mdx: VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY,
# ADD_REACTIONS, USE_APPLICATION_COMMANDS: a member with no role but @everyone (MANAGE_MESSAGES,
# 1 << 13, is a moderator's)
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31)
# The bot's own permissions in a guild (its role and @everyone), unless a test says otherwise: what the
# invite asks for, VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS = 274877910016
VIEW_CHANNEL, SEND_MESSAGES, ADMINISTRATOR = 1 << 10, 1 << 11, 1 << 3
SEND_MESSAGES_IN_THREADS = 1 << 38
BOT_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS
THREAD_TYPES = {10, 11, 12}
ALL_PERMISSIONS = (1 << 51) - 1
LOOP = None
T0 = time.monotonic()
API = "/api/v10"

# Intents (gateway.mdx "List of Intents"); privileged ones need enabling in the Developer Portal.
INTENT_BITS = set(range(0, 17)) | {20, 21, 24, 25}
PRIVILEGED = {1, 8, 15}
GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 12, 1 << 15
FATAL_CLOSE = {4004, 4010, 4011, 4012, 4013, 4014}
SESSION_ENDING_CLOSE = {4003, 4007, 4009}
NAME_RE = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)
SNOWFLAKE_RE = re.compile(r"^[0-9]{1,20}$")

# Example per-route limits (Discord says not to hard-code them: the client must read the headers).
# (route regex, bucket hash, limit, window seconds, major parameter group or None, global-limited)
ROUTES = [
    (r"^GET /gateway/bot$", "gw", 2, 5.0, None, True),
    (r"^PUT /applications/(\d+)/commands$", "cmds", 2, 10.0, 1, True),
    (r"^PUT /applications/\d+/guilds/(\d+)/commands$", "gcmds", 2, 10.0, 1, True),
    (r"^POST /channels/(\d+)/messages$", "msgs", 5, 5.0, 1, True),
    (r"^POST /users/@me/channels$", "dms", 5, 5.0, None, True),
    (r"^POST /webhooks/(\d+/[^/]+)$", "hook", 5, 2.0, 1, False),
    (r"^PATCH /webhooks/(\d+/[^/]+)/messages/[^/]+$", "hookedit", 5, 2.0, 1, False),
    (r"^POST /interactions/(\d+)/[^/]+/callback$", None, 0, 0.0, 1, False),
]


def now():
    return time.monotonic() - T0


def dlen(s):
    """Length as Discord counts it: UTF-16 code units (never less than code points: the stricter reading)."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


class World:
    def __init__(self):
        self.token = "fake-bot-token"
        self.app_id = "900000000000000001"
        self.bot = {"id": "900000000000000002", "username": "handfoot", "global_name": None,
                    "discriminator": "0", "bot": True}
        self.heartbeat_interval = 41250
        self.hb_tolerance_ms = 2000
        self.session_timeout_ms = 120000
        self.identify_window_ms = 5000
        self.interaction_deadline_ms = 3000
        self.reconnect_grace_ms = 5000
        self.privileged = set()
        self.ports = {}
        self.scheme = ("http", "ws")
        self.guilds = {}          # id -> {id, name, channels: {id: {...}}, members: {uid: nick}}
        self.users = {}           # id -> {id, username, global_name, dm_open}
        self.perms = {}           # (guild id, user id) -> the member's permissions, a decimal string
        self.dms = {}             # user id -> channel id
        self.dm_users = {}        # channel id -> user id
        self.sessions = {}
        self.conns = []           # every connection, for the state
        self.live = []            # open Conn objects
        self.identifies = []      # times of accepted identifies
        self.fatal_at = None      # when a fatal close code was sent
        self.interactions = {}
        self.by_token = {}
        self.messages = []
        self.msg_by_id = {}
        self.commands = {"global": None}
        self.command_puts = []
        self.requests = []
        self.violations = []
        self.storms = []
        self.buckets = {}         # (hash, major) -> {"count", "start", "limit", "window"}
        self.blocked = {}         # (hash, major) -> (until, since): a 429 said to wait until
        self.global_window = []
        self.global_blocked = (0.0, 0.0)
        self.grace_ms = 50
        self.route_limits = True  # per-route buckets on (a test of something else may turn them off)
        self.next_id = 1000
        self.nonces = {}          # (author, nonce) -> {id, t}: enforce_nonce, per author in every channel
        self.nonce_repeats = 0
        # gateway.mdx, Session Start Limit: 1000 Identifys a day; past it Discord ends
        # every session and resets the token. max_concurrency Identifys per 5 s per
        # rate_limit_key (shard_id % max_concurrency); over it, op 9 false.
        self.start_total = 1000
        self.start_remaining = 1000
        self.start_reset_after_ms = 86400000
        self.start_reset_at = None  # when the budget is full again (set from start_reset_after_ms)
        self.max_concurrency = 1
        self.outage = False       # Identifys accepted (and counted), heartbeats ACKed, READY withheld
        self.identify_log = []    # every Identify with a valid token: {t, shard, outcome}
        self.token_resets = 0
        self.guild_count = None   # the guilds the bot is in, if more than the modelled ones (sharding)
        self.sharding_refused = False
        self.recommend_shards_once = None  # the next GET /gateway/bot recommends this (the bot grew since)
        self.invalid_requests = []  # rate-limits.mdx: 401, 403 and 429 (not "shared") count toward the ban

    def budget(self):
        """session_start_limit now: the budget is full again once reset_after has passed."""
        t = now()
        if self.start_reset_at is None:
            self.start_reset_at = t + self.start_reset_after_ms / 1000.0
        if t >= self.start_reset_at:
            self.start_remaining = self.start_total
            self.start_reset_at = t + 86400.0
        return {"total": self.start_total, "remaining": max(0, self.start_remaining),
                "reset_after": int((self.start_reset_at - t) * 1000), "max_concurrency": self.max_concurrency}

    def shards_required(self):
        """gateway.mdx, Sharding: a shard holds at most 2500 guilds; over that, close 4011."""
        n = self.guild_count if self.guild_count is not None else len(self.guilds)
        return (n + 2499) // 2500 if n > 2500 else 1

    def take_recommendation(self):
        n, self.recommend_shards_once = self.recommend_shards_once, None
        return n if n is not None else self.shards_recommended()

    def shards_recommended(self):
        n = self.guild_count if self.guild_count is not None else len(self.guilds)
        return max(1, (n + 999) // 1000)

    def snowflake(self, age_ms=0):
        """reference.mdx, Snowflakes: ms since 2015 (the Discord epoch) << 22, then an increment;
        age_ms: one made that long ago (an interaction replayed late carries its original id)."""
        self.next_id += 1
        ms = int(time.time() * 1000) - 1420070400000 - int(age_ms)
        return str((ms << 22) | (self.next_id & 0x3FFFFF))

    def violate(self, what):
        self.violations.append({"t": round(now(), 3), "what": what})
        if os.environ.get("FAKE_DISCORD_VERBOSE"):
            print("fake-discord violation:", what, file=sys.stderr)


W = World()


# ------------------------------------------------------------------ gateway

class Session:
    def __init__(self, sid, intents):
        self.id = sid
        self.intents = intents
        self.seq = 0
        self.events = []          # (seq, payload text)
        self.conn = None
        self.invalid = False
        self.left_at = None
        self.shard = [0, 1]

    def serves(self, gid):
        """Whether this session gets the events of guild gid (None: a DM, shard 0's)."""
        return guild_shard(gid or "0", self.shard[1]) == self.shard[0]

    def dispatch(self, t, d):
        """Sends (or keeps for a Resume) one dispatch; call with LOCK held."""
        self.seq += 1
        text = json.dumps({"op": 0, "t": t, "s": self.seq, "d": d})
        self.events.append((self.seq, text))
        if self.conn is not None:
            self.conn.push(text)

    def alive(self):
        if self.invalid:
            return False
        if self.conn is None and self.left_at is not None and \
                (now() - self.left_at) * 1000 > W.session_timeout_ms:
            return False
        return True


class Conn:
    def __init__(self, ws, port, query):
        self.ws = ws
        self.port = port
        self.query = query
        self.queue = asyncio.Queue()
        self.session = None
        self.state = "hello"      # hello -> authenticated
        self.sent = []            # times of payloads from the client (rate limit)
        self.hb_due = None
        self.ack = True
        self.server_close = None  # a close code we sent
        self.asked_reconnect = None
        self.shard = [0, 1]
        self.pending = None       # outage: the intents of an Identify not yet given a session
        self.rec = {"port": port, "query": query, "opened": round(now(), 3), "identify": None,
                    "resume": None, "heartbeats": [], "closed_by_client": None, "closed_by_server": None,
                    "ops": []}
        W.conns.append(self.rec)

    def push(self, item):
        LOOP.call_soon_threadsafe(self.queue.put_nowait, item)

    def send_op(self, op, d):
        self.push(json.dumps({"op": op, "d": d, "s": None, "t": None}))

    def close(self, code, why):
        if self.server_close is None:
            self.server_close = code
            self.rec["closed_by_server"] = code
            if code in FATAL_CLOSE and code != 4011:
                # 4011 asks for more shards: a reconnect with them is what Discord wants
                W.fatal_at = now()
            if self.session is not None and code in SESSION_ENDING_CLOSE:
                self.session.invalid = True
            self.push(("close", code, why))


def guild_create(g):
    chans = [{"id": c["id"], "type": c.get("type", 0), "name": c["name"], "guild_id": g["id"], "position": i,
              "permission_overwrites": c.get("permission_overwrites", [])}
             for i, c in enumerate(g["channels"].values()) if c.get("type", 0) not in THREAD_TYPES]
    threads = [{"id": c["id"], "type": c["type"], "name": c["name"], "guild_id": g["id"], "parent_id": c["parent_id"]}
               for c in g["channels"].values() if c.get("type", 0) in THREAD_TYPES]
    return {"id": g["id"], "name": g["name"], "unavailable": False, "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False, "member_count": len(g["members"]) + 1, "channels": chans, "threads": threads,
            "voice_states": [], "presences": [], "roles": [], "emojis": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
            "members": [{"user": W.bot, "nick": None, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
                         "deaf": False, "mute": False, "flags": 0}]}


def on_identify(c, d):
    if not isinstance(d, dict) or not isinstance(d.get("token"), str):
        return c.close(4001, "Invalid identify")
    c.rec["identify"] = {k: v for k, v in d.items() if k != "token"}
    if getattr(c, "after_fatal", False):
        if d["token"] != W.token:
            W.violate("reconnected after a fatal close code, with the refused token")
        else:
            W.fatal_at = None   # a new token: the client may start again
    if d["token"] != W.token:
        return c.close(4004, "Authentication failed.")
    props = d.get("properties")
    if not isinstance(props, dict) or not all(isinstance(props.get(k), str) for k in ("os", "browser", "device")):
        return c.close(4001, "Invalid identify properties")
    if d.get("compress"):
        return c.close(4001, "fake: payload compression is not modelled")
    lt = d.get("large_threshold", 50)
    if not isinstance(lt, int) or not 50 <= lt <= 250:
        return c.close(4001, "Invalid large_threshold")
    intents = d.get("intents")
    if not isinstance(intents, int) or isinstance(intents, bool) or intents < 0:
        return c.close(4013, "Invalid intent(s).")
    bits = {b for b in range(64) if intents >> b & 1}
    if not bits <= INTENT_BITS:
        return c.close(4013, "Invalid intent(s).")
    if (bits & PRIVILEGED) - W.privileged:
        return c.close(4014, "Disallowed intent(s).")
    shard = d.get("shard", [0, 1])
    if not isinstance(shard, list) or len(shard) != 2 or not all(isinstance(x, int) for x in shard) or \
            not 0 <= shard[0] < shard[1]:
        return c.close(4010, "Invalid shard.")
    if shard[1] < W.shards_required():
        if W.sharding_refused:
            W.violate("identified again with too few shards (%d) after 4011" % shard[1])
        W.sharding_refused = True
        return c.close(4011, "Sharding required.")
    t = now()
    key = shard[0] % max(1, W.max_concurrency)
    W.identifies = [x for x in W.identifies if (t - x[0]) * 1000 < W.identify_window_ms]
    if any(k == key for _, k in W.identifies):
        # max_concurrency per 5 s per rate_limit_key: over it, Discord answers op 9 false
        W.identify_log.append({"t": round(t, 3), "shard": shard, "outcome": "concurrency"})
        return c.send_op(9, False)
    if W.budget()["remaining"] <= 0:
        W.identify_log.append({"t": round(t, 3), "shard": shard, "outcome": "past the budget"})
        W.violate("Identify past session_start_limit: Discord resets the token")
        token_reset(W.token + "-reset")
        return
    W.start_remaining -= 1
    W.identifies.append((t, key))
    c.shard = shard
    if W.outage:
        W.identify_log.append({"t": round(t, 3), "shard": shard, "outcome": "outage"})
        c.state = "waiting"
        c.pending = intents
        return
    W.identify_log.append({"t": round(t, 3), "shard": shard, "outcome": "ready"})
    start_session(c, intents)


def start_session(c, intents):
    s = Session("sess%d" % (len(W.sessions) + 1), intents)
    s.shard = c.shard
    W.sessions[s.id] = s
    c.session = s
    c.state = "authenticated"
    s.conn = c
    s.dispatch("READY", {
        "v": 10, "user": W.bot, "session_id": s.id,
        "resume_gateway_url": "%s://127.0.0.1:%d" % (W.scheme[1], W.ports["resume"]),
        "guilds": [{"id": g, "unavailable": True} for g in W.guilds
                   if guild_shard(g, c.shard[1]) == c.shard[0]],
        "shard": c.shard,
        "application": {"id": W.app_id, "flags": 0}})
    if intents & GUILDS:
        for g in W.guilds.values():
            if guild_shard(g["id"], c.shard[1]) == c.shard[0]:
                s.dispatch("GUILD_CREATE", guild_create(g))


def guild_shard(gid, count):
    """gateway.mdx, Sharding: shard_id = (guild_id >> 22) % num_shards."""
    return (int(gid) >> 22) % count


def token_reset(new):
    """What Discord does when the Identify budget is spent (or the owner resets the token):
    every session ends (close 4004 here: the old token is refused) and the token changes."""
    W.token = new
    W.token_resets += 1
    for c in list(W.live):
        if c.session is not None:
            c.session.invalid = True
        c.close(4004, "Authentication failed.")


def on_resume(c, d):
    if getattr(c, "after_fatal", False):
        W.violate("resumed after a fatal close code")
    if not isinstance(d, dict) or not isinstance(d.get("token"), str) or \
            not isinstance(d.get("session_id"), str) or not isinstance(d.get("seq"), int):
        return c.close(4001, "Invalid resume")
    c.rec["resume"] = {"session_id": d["session_id"], "seq": d["seq"]}
    if d["token"] != W.token:
        return c.close(4004, "Authentication failed.")
    if c.port != W.ports["resume"]:
        W.violate("Resume sent to the gateway URL, not resume_gateway_url")
    s = W.sessions.get(d["session_id"])
    if s is None or not s.alive():
        return c.send_op(9, False)
    if d["seq"] > s.seq or d["seq"] < 0:
        return c.close(4007, "Invalid seq.")
    if s.conn is not None and s.conn is not c:
        s.conn.close(4000, "Session resumed elsewhere")
    c.session = s
    c.state = "authenticated"
    for seq, text in s.events:
        if seq > d["seq"]:
            c.push(text)
    s.conn = c
    s.left_at = None
    s.dispatch("RESUMED", None)


def on_payload(c, raw):
    t = now()
    c.sent = [x for x in c.sent if t - x < 60.0]
    c.sent.append(t)
    if len(c.sent) > 120:
        return c.close(4008, "Rate limited.")
    if isinstance(raw, bytes):
        return c.close(4002, "Decode error: binary frame")
    if len(raw.encode()) > 4096:
        return c.close(4002, "Decode error: payload over 4096 bytes")
    try:
        p = json.loads(raw)
    except ValueError:
        return c.close(4002, "Decode error.")
    if not isinstance(p, dict) or not isinstance(p.get("op"), int) or isinstance(p.get("op"), bool):
        return c.close(4002, "Decode error.")
    op, d = p["op"], p.get("d")
    c.rec["ops"].append(op)
    if op == 1:
        if d is not None and (not isinstance(d, int) or isinstance(d, bool)):
            return c.close(4001, "Invalid heartbeat")
        if c.session is not None and d is not None and d > c.session.seq:
            W.violate("heartbeat with seq %d, past the last sent %d" % (d, c.session.seq))
        c.rec["heartbeats"].append({"t": round(t, 3), "d": d})
        c.hb_due = t + (W.heartbeat_interval + W.hb_tolerance_ms) / 1000.0
        if c.ack:
            c.send_op(11, None)
        return
    if op == 2:
        if c.state != "hello":
            return c.close(4005, "Already authenticated.")
        return on_identify(c, d)
    if op == 6:
        if c.state != "hello":
            return c.close(4005, "Already authenticated.")
        return on_resume(c, d)
    if op in (3, 4, 8, 31, 43):
        if c.state != "authenticated":
            return c.close(4003, "Not authenticated.")
        return  # presence, voice, members: not used by handfoot, accepted
    return c.close(4001, "Unknown opcode.")


async def writer(c):
    while True:
        item = await c.queue.get()
        if isinstance(item, tuple) and item[0] == "close":
            try:
                await c.ws.close(code=item[1], reason=item[2])
            except Exception:
                pass
            return
        if isinstance(item, tuple) and item[0] == "drop":
            c.ws.transport.abort()
            return
        try:
            await c.ws.send(item)
        except websockets.ConnectionClosed:
            return


async def watchdog(c):
    """Closes a connection whose heartbeats stopped, and notes a client that ignored op 7 / op 9."""
    while True:
        await asyncio.sleep(0.05)
        with LOCK:
            if c.server_close is not None or c.ws.closed:
                return
            t = now()
            if c.hb_due is not None and t > c.hb_due:
                W.violate("no heartbeat within heartbeat_interval")
                c.close(4000, "Heartbeat missed")
            if c.asked_reconnect is not None and (t - c.asked_reconnect) * 1000 > W.reconnect_grace_ms:
                W.violate("the client kept the connection after op 7 / op 9")
                c.asked_reconnect = None
                c.close(4000, "Reconnect requested")


async def gateway(ws, path, port):
    q = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
    query = {k: v[0] for k, v in q.items()}
    with LOCK:
        c = Conn(ws, port, query)
        W.live.append(c)
        # after a fatal close only an Identify with a new, valid token is
        # fair (the operator put it in token_file and reloaded): judged there
        c.after_fatal = W.fatal_at is not None
        c.send_op(10, {"heartbeat_interval": W.heartbeat_interval})
        # the first heartbeat is due within one interval (the jitter is at most 1)
        c.hb_due = now() + (W.heartbeat_interval + W.hb_tolerance_ms) / 1000.0
        if query.get("v") != "10":
            c.close(4012, "Invalid API version")
        elif query.get("encoding") != "json":
            c.close(4002, "fake: only encoding=json is modelled")
        elif "compress" in query:
            c.close(4002, "fake: transport compression is not modelled")
    wt = asyncio.ensure_future(writer(c))
    dog = asyncio.ensure_future(watchdog(c))
    try:
        async for raw in ws:
            with LOCK:
                if c.server_close is None:
                    on_payload(c, raw)
    except websockets.ConnectionClosed:
        pass
    with LOCK:
        code = ws.close_code
        if c.server_close is None:
            c.rec["closed_by_client"] = code if code is not None else 1006
        c.rec["closed"] = round(now(), 3)
        W.live.remove(c)
        s = c.session
        if s is not None and s.conn is c:
            s.conn = None
            s.left_at = now()
            if c.server_close is None and code in (1000, 1001):
                s.invalid = True   # gateway.mdx: 1000/1001 invalidates the session
    dog.cancel()
    if not wt.done():
        c.queue.put_nowait(("close", 1000, ""))
        try:
            await asyncio.wait_for(wt, 1)
        except Exception:
            wt.cancel()


def gateway_action(body):
    act = body.get("action")
    conns = [c for c in W.live if c.session is not None and c.server_close is None]
    if not conns:
        return 409, {"message": "no authenticated gateway connection"}
    c = conns[-1]
    if act == "reconnect":
        c.send_op(7, None)
        c.asked_reconnect = now()
    elif act == "invalid_session":
        resumable = bool(body.get("resumable"))
        if not resumable:
            c.session.invalid = True
        c.send_op(9, resumable)
        c.asked_reconnect = now()
    elif act == "close":
        c.close(int(body["code"]), body.get("reason", "closed by the test"))
    elif act == "drop":
        c.server_close = 1006
        c.rec["closed_by_server"] = "drop"
        c.push(("drop",))
    elif act == "ack":
        c.ack = bool(body.get("on"))
    elif act == "flood":
        # a hostile gateway: count dispatches of size bytes each, at once, outside the
        # session's sequence (never replayed); one string sent count times
        size, count = int(body.get("size", 1 << 20)), int(body.get("count", 1))
        if not 0 < size <= 64 << 20 or not 0 < count <= 1000:
            return 400, {"message": "size 1 to 64 MiB, count 1 to 1000"}
        text = json.dumps({"op": 0, "t": "TYPING_START", "s": None, "d": {"pad": "x" * size}})
        for _ in range(count):
            c.push(text)
    elif act == "heartbeat":
        c.send_op(1, None)
    else:
        return 400, {"message": "unknown action"}
    return 200, {"session": c.session.id}


# ------------------------------------------------------------------ REST helpers

def err(status, code, message, errors=None):
    body = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return status, body


def form_error(message):
    return err(400, 50035, "Invalid Form Body", {"_errors": [{"code": "FAKE_INVALID", "message": message}]})


def check_allowed_mentions(am):
    if am is None:
        return None
    if not isinstance(am, dict):
        return "allowed_mentions must be an object"
    parse = am.get("parse", [])
    if not isinstance(parse, list) or any(p not in ("users", "roles", "everyone") for p in parse) \
            or len(set(parse)) != len(parse):
        return "allowed_mentions.parse holds an unknown or repeated type"
    for key in ("users", "roles"):
        ids = am.get(key)
        if ids is None:
            continue
        if not isinstance(ids, list) or len(ids) > 100 or \
                any(not isinstance(i, str) or not SNOWFLAKE_RE.match(i) for i in ids):
            return "allowed_mentions.%s must be at most 100 snowflakes" % key
        if ids and key in parse:
            return "allowed_mentions: parse:[\"%s\"] and %s are mutually exclusive" % (key, key)
    if "replied_user" in am and not isinstance(am["replied_user"], bool):
        return "allowed_mentions.replied_user must be a boolean"
    return None


def pings(content, am, default_all):
    """Who the message notifies, per message.mdx's allowed_mentions rules."""
    users = re.findall(r"<@!?(\d+)>", content)
    roles = re.findall(r"<@&(\d+)>", content)
    everyone = bool(re.search(r"@(everyone|here)", content))
    if am is None:
        parse = ["users", "roles", "everyone"] if default_all else ["users"]
        am = {"parse": parse}
    parse = am.get("parse", [])
    ok_users = set(am.get("users") or [])
    ok_roles = set(am.get("roles") or [])
    return {"users": sorted({u for u in users if "users" in parse or u in ok_users}),
            "roles": sorted({r for r in roles if "roles" in parse or r in ok_roles}),
            "everyone": everyone and "everyone" in parse}


def check_components(comps):
    """Legacy message components (no IS_COMPONENTS_V2): up to 5 action rows of up to 5 buttons."""
    if comps is None:
        return None
    if not isinstance(comps, list) or len(comps) > 5:
        return "components: at most 5 action rows"
    ids = set()
    for row in comps:
        if not isinstance(row, dict) or row.get("type") != 1:
            return "components: a top-level component must be an action row (type 1)"
        kids = row.get("components")
        if not isinstance(kids, list) or not 1 <= len(kids) <= 5:
            return "components: an action row holds 1 to 5 buttons"
        for b in kids:
            if not isinstance(b, dict) or b.get("type") != 2:
                return "components: fake: only buttons (type 2) are modelled"
            style = b.get("style")
            if style not in (1, 2, 3, 4, 5):
                return "components: button style must be 1-5"
            label = b.get("label")
            if label is not None and (not isinstance(label, str) or dlen(label) > 80):
                return "components: a button label is at most 80 characters"
            if label is None and b.get("emoji") is None:
                return "components: a button needs a label or an emoji"
            cid = b.get("custom_id")
            if style == 5:
                if cid is not None or not isinstance(b.get("url"), str) or len(b["url"]) > 512:
                    return "components: a link button has a url and no custom_id"
                # Discord takes http(s) (and its own discord://) links only, with a host
                u = b["url"]
                if not re.match(r"^(https?://[^/\s?#]+|discord://)\S*$", u):
                    return "components: a link button's url must be http(s)"
            else:
                if not isinstance(cid, str) or not 1 <= dlen(cid) <= 100 or "url" in b:
                    return "components: a button needs a custom_id of 1-100 characters and no url"
                if cid in ids:
                    return "components: custom_id %r is used twice" % cid
                ids.add(cid)
            if "disabled" in b and not isinstance(b["disabled"], bool):
                return "components: disabled must be a boolean"
    return None


def check_message(body, allowed_flags, need_body=True):
    if not isinstance(body, dict):
        return "the body must be a JSON object"
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        return "content must be a string"
    if content is not None and dlen(content) > 2000:
        return "content: Must be 2000 or fewer in length."
    if need_body and not content and not body.get("components") and not body.get("embeds"):
        return "Cannot send an empty message"
    flags = body.get("flags", 0)
    if not isinstance(flags, int) or flags & ~allowed_flags:
        return "flags: only %d may be set here" % allowed_flags
    e = check_allowed_mentions(body.get("allowed_mentions"))
    if e is not None:
        return e
    e = check_components(body.get("components"))
    if e is not None:
        return e
    nonce = body.get("nonce")
    if nonce is not None and (not isinstance(nonce, (str, int)) or len(str(nonce)) > 25):
        return "nonce: at most 25 characters"
    return None


def user_obj(uid):
    u = W.users[uid]
    return {"id": uid, "username": u["username"], "global_name": u.get("global_name"),
            "discriminator": "0", "avatar": None}


def bot_permissions(g, cid):
    """The bot's permissions in channel cid of guild g (permissions.mdx, Permission Overwrites):
    base, then @everyone's overwrite (id = the guild's), then the bot member's; a thread
    has its parent's; no VIEW_CHANNEL in the channel means no permission there at all."""
    base = g.get("bot_permissions", BOT_PERMISSIONS)
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    ch = g["channels"].get(cid)
    if ch is None:
        return 0
    if ch.get("type", 0) in THREAD_TYPES and ch.get("parent_id") in g["channels"]:
        ch = g["channels"][ch["parent_id"]]
    p = base
    ows = ch.get("permission_overwrites") or []
    for o in ows:
        if o.get("id") == g["id"]:
            p = (p & ~int(o.get("deny", "0"))) | int(o.get("allow", "0"))
    for o in ows:
        if o.get("type") == 1 and o.get("id") == W.bot["id"]:
            p = (p & ~int(o.get("deny", "0"))) | int(o.get("allow", "0"))
    return p if p & VIEW_CHANNEL else 0


def post_refused(g, cid):
    """The 403 Discord gives a bot posting where it may not (opcodes-and-status-codes.mdx), or None."""
    p = bot_permissions(g, cid)
    if not p & VIEW_CHANNEL:
        return err(403, 50001, "Missing Access")
    need = SEND_MESSAGES_IN_THREADS if g["channels"][cid].get("type", 0) in THREAD_TYPES else SEND_MESSAGES
    if not p & need:
        return err(403, 50013, "Missing Permissions")
    return None


def channel_of(cid):
    """(guild, channel) for a guild channel, (None, user) for a DM, or None."""
    for g in W.guilds.values():
        if cid in g["channels"]:
            return g, g["channels"][cid]
    if cid in W.dm_users:
        return None, W.dm_users[cid]
    return None


def record_message(channel_id, body, via, ephemeral, interaction=None, default_all=False):
    m = {"id": W.snowflake(), "channel_id": channel_id, "content": body.get("content") or "",
         "components": body.get("components") or [], "flags": body.get("flags", 0),
         "allowed_mentions": body.get("allowed_mentions"), "ephemeral": ephemeral, "via": via,
         "interaction": interaction, "t": round(now(), 3), "edits": 0,
         "pings": pings(body.get("content") or "", body.get("allowed_mentions"), default_all)}
    where = channel_of(channel_id)
    m["dm"] = where is not None and where[0] is None
    W.messages.append(m)
    W.msg_by_id[m["id"]] = m
    return m


def message_obj(m):
    return {"id": m["id"], "channel_id": m["channel_id"], "content": m["content"], "author": W.bot,
            "components": m["components"], "flags": m["flags"] | (64 if m["ephemeral"] else 0),
            "timestamp": "2024-01-01T00:00:00+00:00", "type": 0, "mentions": [], "tts": False}


def edit_message(m, body):
    if "content" in body:
        m["content"] = body.get("content") or ""
    if "components" in body:
        m["components"] = body.get("components") or []
    if "allowed_mentions" in body:
        m["allowed_mentions"] = body["allowed_mentions"]
    m["pings"] = pings(m["content"], m["allowed_mentions"], False)
    m["edits"] += 1
    m["loading"] = False


def gateway_dispatch_message(m, author, guild, content):
    """MESSAGE_CREATE to the live session, as the intents allow (gateway.mdx, Message Content Intent)."""
    for s in W.sessions.values():
        if not s.alive() or not s.serves(guild["id"] if guild is not None else None):
            continue
        if guild is not None and not s.intents & GUILD_MESSAGES:
            continue
        if guild is None and not s.intents & DIRECT_MESSAGES:
            continue
        visible = content
        mentioned = "<@%s>" % W.bot["id"] in content or "<@!%s>" % W.bot["id"] in content
        if not s.intents & MESSAGE_CONTENT and guild is not None and not mentioned and author["id"] != W.bot["id"]:
            visible = ""
        d = {"id": m, "channel_id": None, "author": author, "content": visible, "timestamp": "2024-01-01T00:00:00+00:00",
             "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
             "embeds": [], "pinned": False, "type": 0}
        yield s, d


# ------------------------------------------------------------------ REST routes

def route_of(method, path):
    key = "%s %s" % (method, path)
    for rx, h, limit, window, major, glob in ROUTES:
        mt = re.match(rx, key)
        if mt:
            return key, h, limit, window, (mt.group(major) if major else ""), glob
    return key, None, 0, 0.0, "", True


def rate_check(method, path):
    """Applies storms, per-route buckets and the global limit. Returns (429 reply or None, headers)."""
    key, h, limit, window, major, glob = route_of(method, path)
    t = now()
    bkey = (h or key, major)
    # While a 429's retry_after runs, Discord keeps answering 429. A request
    # that arrives later than the grace after that 429 was sent after the
    # client had it: a violation. (Within the grace it was already on its
    # way: requests sent together cannot know of each other's 429.)
    for until, since, scope in ((W.blocked.get(bkey, (0, 0))[0], W.blocked.get(bkey, (0, 0))[1], "route"),
                                (W.global_blocked[0], W.global_blocked[1], "global") if glob else (0, 0, "")):
        if t < until:
            if (t - since) * 1000 > W.grace_ms:
                W.violate("%s sent %.3fs before the %s retry_after had passed" % (key, until - t, scope))
            ra = round(until - t, 3)
            hdr = {"Retry-After": str(max(1, int(ra + 0.999))), "X-RateLimit-Scope": "user"}
            if scope == "global":
                hdr.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
            return (429, {"message": "You are being rate limited.", "retry_after": ra,
                          "global": scope == "global"}), hdr
    for s in W.storms:
        if s["count"] > 0 and re.search(s["route"], key):
            s["count"] -= 1
            ra = float(s.get("retry_after", 1.0))
            is_global = bool(s.get("global"))
            if is_global:
                W.global_blocked = (t + ra, t)
            else:
                W.blocked[bkey] = (t + ra, t)
            hdr = {"Retry-After": str(max(1, int(ra + 0.999))), "X-RateLimit-Scope": s.get("scope", "user")}
            if is_global:
                hdr["X-RateLimit-Global"] = "true"
                hdr["X-RateLimit-Scope"] = "global"
            elif h is not None:
                # the bucket's own count: only retry_after says to wait (as in rate-limits.mdx's
                # "shared" example, where Remaining is 9)
                b = W.buckets.get(bkey)
                left = limit if b is None or t - b["start"] >= window else limit - b["count"]
                hdr.update({"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(left),
                            "X-RateLimit-Reset": "%.3f" % (time.time() + ra),
                            "X-RateLimit-Reset-After": "%.3f" % ra, "X-RateLimit-Bucket": h})
            return (429, {"message": "You are being rate limited.", "retry_after": ra, "global": is_global}), hdr
    if glob:
        W.global_window = [x for x in W.global_window if t - x < 1.0]
        if len(W.global_window) >= 50:
            W.violate("more than 50 requests in a second (global limit)")
            W.global_blocked = (W.global_window[0] + 1.0, t)
            ra = round(W.global_blocked[0] - t, 3)
            return (429, {"message": "You are being rate limited.", "retry_after": ra, "global": True}), \
                {"Retry-After": str(max(1, int(ra + 0.999))), "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        W.global_window.append(t)
    if h is None or not W.route_limits:
        return None, {}
    b = W.buckets.get(bkey)
    if b is None or t - b["start"] >= window:
        b = W.buckets[bkey] = {"count": 0, "start": t}
    reset_after = window - (t - b["start"])
    if b["count"] >= limit:
        W.violate("%s sent on an exhausted bucket (Remaining was 0)" % key)
        W.blocked[bkey] = (b["start"] + window, t)
        hdr = {"Retry-After": str(max(1, int(reset_after + 0.999))), "X-RateLimit-Scope": "user",
               "X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": "0",
               "X-RateLimit-Reset": "%.3f" % (time.time() + reset_after),
               "X-RateLimit-Reset-After": "%.3f" % reset_after, "X-RateLimit-Bucket": h}
        return (429, {"message": "You are being rate limited.", "retry_after": round(reset_after, 3),
                      "global": False}), hdr
    b["count"] += 1
    return None, {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(limit - b["count"]),
                  "X-RateLimit-Reset": "%.3f" % (time.time() + reset_after),
                  "X-RateLimit-Reset-After": "%.3f" % reset_after, "X-RateLimit-Bucket": h}


def check_commands(cmds, scope="global"):
    if not isinstance(cmds, list) or len(cmds) > 100:
        return "a list of at most 100 commands"
    names = set()
    for c in cmds:
        if not isinstance(c, dict):
            return "a command must be an object"
        name, desc = c.get("name"), c.get("description")
        if c.get("type", 1) != 1:
            return "fake: only CHAT_INPUT commands are modelled"
        if not isinstance(name, str) or not NAME_RE.match(name) or name != name.lower():
            return "command name %r does not match the naming rule" % name
        if name in names:
            return "command name %r is used twice" % name
        names.add(name)
        if not isinstance(desc, str) or not 1 <= dlen(desc) <= 100:
            return "command %s: description must be 1-100 characters" % name
        total = dlen(name) + dlen(desc)
        opts = c.get("options", [])
        if not isinstance(opts, list) or len(opts) > 25:
            return "command %s: at most 25 options" % name
        seen_optional, onames = False, set()
        for o in opts:
            if not isinstance(o, dict) or o.get("type") not in range(1, 12):
                return "command %s: bad option type" % name
            on, od = o.get("name"), o.get("description")
            if not isinstance(on, str) or not NAME_RE.match(on) or on != on.lower() or on in onames:
                return "command %s: option name %r is invalid or repeated" % (name, on)
            onames.add(on)
            if not isinstance(od, str) or not 1 <= dlen(od) <= 100:
                return "command %s: option %s: description must be 1-100 characters" % (name, on)
            req = o.get("required", False)
            if not isinstance(req, bool):
                return "command %s: option %s: required must be a boolean" % (name, on)
            if req and seen_optional:
                return "command %s: required options must be listed before optional options" % name
            seen_optional = seen_optional or not req
            for k in ("min_length", "max_length"):
                if k in o and (not isinstance(o[k], int) or not 0 <= o[k] <= 6000 or o.get("type") != 3):
                    return "command %s: option %s: bad %s" % (name, on, k)
            total += dlen(on) + dlen(od)
        if total > 8000:
            return "command %s exceeds maximum size (8000)" % name
        for k in ("contexts", "integration_types"):
            if k in c and c[k] is not None and (not isinstance(c[k], list) or any(x not in (0, 1, 2) for x in c[k])):
                return "command %s: bad %s" % (name, k)
    return None


def put_commands(scope, cmds):
    e = check_commands(cmds, scope)
    if e is not None:
        return form_error(e)
    for c in cmds:
        if scope == "global" and c.get("integration_types") is None:
            # application-commands.mdx: left out, the app's default install settings decide
            # (a user install would offer the commands where the bot is not)
            W.violate("global command %s without integration_types" % c["name"])
    out = []
    for c in cmds:
        c = dict(c)
        c.setdefault("type", 1)
        c["id"] = W.snowflake()
        c["application_id"] = W.app_id
        c["version"] = c["id"]
        if scope != "global":
            c["guild_id"] = scope
        out.append(c)
    W.commands[scope] = out
    W.command_puts.append({"scope": scope, "t": round(now(), 3), "count": len(out)})
    return 200, out


def interaction_of(iid, token):
    it = W.interactions.get(iid)
    if it is None or it["token"] != token:
        return None
    return it


def callback(iid, token, body):
    it = interaction_of(iid, token)
    if it is None:
        return err(404, 10062, "Unknown interaction")
    age_ms = (now() - it["created"]) * 1000
    if it["ack"] is not None:
        it["violations"].append("answered twice")
        W.violate("interaction %s answered twice" % iid)
        return err(400, 40060, "Interaction has already been acknowledged.")
    if age_ms > W.interaction_deadline_ms:
        W.violate("interaction %s answered after %d ms (the limit is %d)" % (iid, age_ms, W.interaction_deadline_ms))
        it["late"] = True
        return err(404, 10062, "Unknown interaction")
    if not isinstance(body, dict) or not isinstance(body.get("type"), int):
        return form_error("type is required")
    typ, data = body["type"], body.get("data")
    valid = (4, 5, 6, 7) if it["kind"] == "component" else (4, 5)
    if typ not in valid:
        return form_error("interaction callback type %d is not valid for this interaction" % typ)
    if typ == 4:
        e = check_message(data, 4 | 64 | 4096)
    elif typ == 5:
        e = None if data is None else check_message(data, 64, need_body=False)
    elif typ == 6:
        e = None
    else:
        e = check_message(data, 4 | 4096, need_body=False)
    if e is not None:
        return form_error(e)
    it["ack"] = {"type": typ, "ms": round(age_ms, 1), "t": round(now(), 3)}
    if typ == 4:
        eph = bool(data.get("flags", 0) & 64)
        it["original"] = record_message(it["channel_id"], data, "callback", eph, it["id"])["id"]
    elif typ == 5:
        eph = bool((data or {}).get("flags", 0) & 64)
        m = record_message(it["channel_id"], {"content": ""}, "deferred", eph, it["id"])
        m["loading"] = True
        it["original"] = m["id"]
    elif typ == 7:
        edit_message(W.msg_by_id[it["message_id"]], data)
        it["original"] = it["message_id"]
    else:
        it["original"] = it["message_id"]
    return 204, None


def followup(app, token, body):
    it = W.by_token.get(token)
    if app != W.app_id or it is None or it["ack"] is None or now() - it["created"] > 15 * 60:
        return err(404, 10015, "Unknown Webhook")
    e = check_message(body, 4 | 64 | 4096)
    if e is not None:
        return form_error(e)
    orig = W.msg_by_id.get(it["original"]) if it["original"] else None
    if it["ack"]["type"] == 5 and orig is not None and orig.get("loading"):
        # receiving-and-responding.mdx: right after a deferred response this edits the
        # loading message; its ephemeral state stays what the defer said, flags are ignored
        edit_message(orig, body)
        orig["via"] = "followup-edited-defer"
        return 200, message_obj(orig)
    m = record_message(it["channel_id"], body, "followup", bool(body.get("flags", 0) & 64), it["id"])
    it["followups"].append(m["id"])
    return 200, message_obj(m)


def edit_webhook_message(app, token, mid, body):
    it = W.by_token.get(token)
    if app != W.app_id or it is None or it["ack"] is None or now() - it["created"] > 15 * 60:
        return err(404, 10015, "Unknown Webhook")
    if mid == "@original":
        mid = it["original"]
    m = W.msg_by_id.get(mid)
    if m is None or (m["interaction"] != it["id"] and mid != it.get("message_id")):
        return err(404, 10008, "Unknown Message")
    e = check_message(body, 4 | 4096, need_body=False)
    if e is not None:
        return form_error(e)
    edit_message(m, body)
    return 200, message_obj(m)


def delete_webhook_message(app, token, mid):
    it = W.by_token.get(token)
    if app != W.app_id or it is None or it["ack"] is None or now() - it["created"] > 15 * 60:
        return err(404, 10015, "Unknown Webhook")
    if mid == "@original":
        mid = it["original"]
    m = W.msg_by_id.get(mid)
    if m is None or m["interaction"] != it["id"] or m.get("deleted"):
        return err(404, 10008, "Unknown Message")
    m["deleted"] = True
    m["loading"] = False
    return 204, None


def create_message(cid, body):
    where = channel_of(cid)
    if where is None:
        return err(404, 10003, "Unknown Channel")
    e = check_message(body, 4 | 4096)
    if e is not None:
        return form_error(e)
    guild, other = where
    if guild is None and not W.users[other].get("dm_open", True):
        return err(403, 50007, "Cannot send messages to this user")
    if guild is not None and post_refused(guild, cid) is not None:
        return post_refused(guild, cid)
    nonce = body.get("nonce")
    if body.get("enforce_nonce") and nonce is not None:
        # message.mdx: with enforce_nonce, a nonce the same author used in the last
        # few minutes returns the message already created instead of a second one,
        # whatever its channel (so two processes of one bot must not share nonces)
        old = W.nonces.get((W.bot["id"], str(nonce)))
        if old is not None and now() - old["t"] < 300:
            old_m = W.msg_by_id[old["id"]]
            W.nonce_repeats += 1
            return 200, message_obj(old_m)
    m = record_message(cid, body, "channel", False, default_all=True)
    if body.get("enforce_nonce") and nonce is not None:
        W.nonces[(W.bot["id"], str(nonce))] = {"id": m["id"], "t": now()}
    for s, d in gateway_dispatch_message(m["id"], W.bot, guild, m["content"]):
        d["channel_id"] = cid
        if guild is not None:
            d["guild_id"] = guild["id"]
        s.dispatch("MESSAGE_CREATE", d)
    return 200, message_obj(m)


def create_dm(body):
    uid = body.get("recipient_id") if isinstance(body, dict) else None
    if not isinstance(uid, str) or uid not in W.users:
        return form_error("recipient_id: unknown user")
    if not any(uid in g["members"] for g in W.guilds.values()):
        return err(400, 50278, "Cannot send messages to this user due to having no mutual guilds")
    cid = W.dms.get(uid)
    if cid is None:
        cid = W.dms[uid] = W.snowflake()
        W.dm_users[cid] = uid
    return 200, {"id": cid, "type": 1, "last_message_id": None, "flags": 0, "recipients": [user_obj(uid)]}


# ------------------------------------------------------------------ test controls

def ctl_interaction(b):
    # "repeat": N: N of the same at once (a member's flood), the last returned
    n = b.get("repeat", 1)
    if not isinstance(n, int) or not 1 <= n <= 10000:
        return 400, {"message": "repeat: 1 to 10000"}
    for _ in range(n):
        st, out = ctl_interaction_one(b)
        if st != 200:
            break
    return st, out


def ctl_interaction_one(b):
    uid = b.get("user_id")
    if uid not in W.users:
        return 400, {"message": "unknown user"}
    gid, cid = b.get("guild_id"), b.get("channel_id")
    if gid is not None:
        g = W.guilds.get(gid)
        if g is None or cid not in g["channels"] or uid not in g["members"]:
            return 400, {"message": "unknown guild, channel or member"}
    else:
        cid = W.dms.get(uid) or cid
        if cid is None:
            cid = W.dms[uid] = W.snowflake()
            W.dm_users[cid] = uid
    kind = b.get("kind", "command")
    # age_ms: an interaction created that long ago and only delivered now (a Resume's replay)
    age = float(b.get("age_ms", 0))
    iid, token = W.snowflake(age), "itok_%s_%s" % (W.snowflake(), "x" * 40)
    it = {"id": iid, "token": token, "kind": kind, "created": now() - age / 1000.0, "ack": None, "original": None,
          "followups": [], "channel_id": cid, "guild_id": gid, "user_id": uid, "violations": [],
          "late": False, "message_id": None}
    d = {"id": iid, "application_id": W.app_id, "token": token, "version": 1, "channel_id": cid,
         "channel": {"id": cid, "type": W.guilds[gid]["channels"][cid].get("type", 0) if gid else 1},
         "locale": "en-US", "entitlements": [],
         # receiving-and-responding.mdx: the app's permissions in the channel, overwrites included
         "app_permissions": str(bot_permissions(W.guilds[gid], cid) if gid else
                                VIEW_CHANNEL | SEND_MESSAGES | (1 << 14) | (1 << 15) | (1 << 16)), "attachment_size_limit": 10485760,
         "authorizing_integration_owners": {"0": gid or "0"}, "context": 0 if gid else 1}
    if gid is not None:
        d["guild_id"] = gid
        d["guild_locale"] = "en-US"
        d["member"] = {"user": user_obj(uid), "nick": W.guilds[gid]["members"][uid], "roles": [],
                       "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                       "flags": 0, "permissions": W.perms.get((gid, uid), str(EVERYONE_PERMISSIONS))}
    else:
        d["user"] = user_obj(uid)
    if kind == "command":
        name = b.get("name")
        cmds = (W.commands.get(gid) or []) + (W.commands.get("global") or [])
        cmd = next((c for c in cmds if c["name"] == name), None)
        if cmd is None:
            return 400, {"message": "no command %r is registered where this is used" % name}
        opts = []
        known = {o["name"]: o for o in cmd.get("options", [])}
        for k, v in (b.get("options") or {}).items():
            if k not in known or known[k]["type"] != 3 or not isinstance(v, str):
                return 400, {"message": "option %r is not a registered string option" % k}
            opts.append({"name": k, "type": 3, "value": v})
        for o in cmd.get("options", []):
            if o.get("required") and o["name"] not in (b.get("options") or {}):
                return 400, {"message": "option %r is required" % o["name"]}
        d["type"] = 2
        d["data"] = {"id": cmd["id"], "name": name, "type": 1}
        if opts:
            d["data"]["options"] = opts
        if gid is not None and cmd.get("guild_id"):
            d["data"]["guild_id"] = gid
    else:
        m = W.msg_by_id.get(b.get("message_id"))
        cid_ = b.get("custom_id")
        if m is None or m["channel_id"] != cid:
            return 400, {"message": "no such message in that channel"}
        if not any(btn.get("custom_id") == cid_ for row in m["components"] for btn in row["components"]):
            return 400, {"message": "that message has no button %r" % cid_}
        d["type"] = 3
        d["data"] = {"custom_id": cid_, "component_type": 2}
        d["message"] = message_obj(m)
        it["message_id"] = m["id"]
    W.interactions[iid] = it
    W.by_token[token] = it
    it["payload"] = d
    sent = False
    for s in W.sessions.values():
        if s.alive() and s.serves(gid):
            s.dispatch("INTERACTION_CREATE", d)
            sent = True
    return 200, {"id": iid, "token": token, "delivered": sent}


def ctl_message(b):
    cid, uid, content = b.get("channel_id"), b.get("user_id"), b.get("content", "")
    where = channel_of(cid) if cid else None
    if uid not in W.users:
        return 400, {"message": "unknown user"}
    if cid is None and uid in W.users:
        cid = W.dms.get(uid)
        if cid is None:
            cid = W.dms[uid] = W.snowflake()
            W.dm_users[cid] = uid
        where = (None, uid)
    if where is None:
        return 400, {"message": "unknown channel"}
    guild = where[0]
    mid = W.snowflake()
    author = user_obj(uid)
    for s, d in gateway_dispatch_message(mid, author, guild, content):
        d["channel_id"] = cid
        if guild is not None:
            d["guild_id"] = guild["id"]
            d["member"] = {"nick": guild["members"].get(uid), "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
                           "deaf": False, "mute": False, "flags": 0}
        s.dispatch("MESSAGE_CREATE", d)
    return 200, {"id": mid, "channel_id": cid}


def state():
    return {
        "violations": W.violations,
        "connections": W.conns,
        "sessions": {k: {"seq": s.seq, "invalid": s.invalid, "intents": s.intents, "live": s.conn is not None}
                     for k, s in W.sessions.items()},
        "messages": W.messages,
        "interactions": {k: {x: v for x, v in it.items() if x != "payload"} for k, it in W.interactions.items()},
        "commands": W.commands,
        "command_puts": W.command_puts,
        "requests": W.requests,
        "dms": W.dms,
        "nonce_repeats": W.nonce_repeats,
        "identify_log": W.identify_log,
        "start_remaining": W.start_remaining,
        "token": W.token,
        "token_resets": W.token_resets,
        "invalid_requests": W.invalid_requests,
    }


def control(method, path, body):
    if path == "/_fake/state" and method == "GET":
        return 200, state()
    if method != "POST" or not isinstance(body, dict):
        return 400, {"message": "POST a JSON object"}
    if path == "/_fake/config":
        for k in ("token", "app_id", "heartbeat_interval", "session_timeout_ms", "identify_window_ms",
                  "interaction_deadline_ms", "hb_tolerance_ms", "reconnect_grace_ms", "grace_ms",
                  "route_limits", "start_total", "start_remaining", "start_reset_after_ms",
                  "max_concurrency", "guild_count", "recommend_shards_once"):
            if k in body:
                setattr(W, k, body[k])
        if "start_reset_after_ms" in body:
            W.start_reset_at = now() + body["start_reset_after_ms"] / 1000.0
        if "outage" in body:
            W.outage = bool(body["outage"])
            if not W.outage:
                # gateway.mdx: "The Gateway will eventually respond and issue a session"
                for c in list(W.live):
                    if c.state == "waiting" and c.server_close is None:
                        c.state = "authenticated"
                        W.identify_log.append({"t": round(now(), 3), "shard": c.shard, "outcome": "late ready"})
                        start_session(c, c.pending)
        if "privileged" in body:
            W.privileged = set(body["privileged"])
        return 200, {}
    if path == "/_fake/guild":
        g = W.guilds.setdefault(body["id"], {"id": body["id"], "name": body.get("name", "guild"),
                                             "channels": {}, "members": {}})
        if "bot_permissions" in body:
            g["bot_permissions"] = int(body["bot_permissions"])
        for c in body.get("channels", []):
            g["channels"][c["id"]] = {"id": c["id"], "name": c.get("name", "chan"), "type": c.get("type", 0),
                                      "parent_id": c.get("parent_id"),
                                      "permission_overwrites": c.get("permission_overwrites", [])}
        for m in body.get("members", []):
            W.users[m["id"]] = {"id": m["id"], "username": m.get("username", "user" + m["id"][-4:]),
                                "global_name": m.get("global_name"), "dm_open": m.get("dm_open", True)}
            g["members"][m["id"]] = m.get("nick")
            W.perms[(body["id"], m["id"])] = str(m.get("permissions", EVERYONE_PERMISSIONS))
        return 200, {}
    if path == "/_fake/user":
        u = W.users.setdefault(body["id"], {"id": body["id"], "username": body.get("username", "u")})
        u.update({k: body[k] for k in ("username", "global_name", "dm_open") if k in body})
        return 200, {}
    if path == "/_fake/interaction":
        return ctl_interaction(body)
    if path == "/_fake/message":
        return ctl_message(body)
    if path == "/_fake/gateway":
        return gateway_action(body)
    if path == "/_fake/ratelimit":
        body.setdefault("count", 1)
        W.storms.append(body)
        return 200, {}
    if path == "/_fake/token_reset":
        token_reset(body.get("token", W.token + "-reset"))
        return 200, {}
    if path == "/_fake/clear":
        W.violations = []
        return 200, {}
    return 404, {"message": "unknown control"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, obj, headers=None):
        body = b"" if status == 204 else json.dumps(obj).encode()
        self.send_response(status)
        if status != 204:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def do_PATCH(self):
        self.route("PATCH")

    def do_DELETE(self):
        self.route("DELETE")

    def route(self, method):
        u = urllib.parse.urlsplit(self.path)
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        with LOCK:
            if u.path.startswith("/_fake/"):
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    return self.reply(400, {"message": "bad JSON"})
                status, obj = control(method, u.path, body)
                return self.reply(status, obj)
            status, obj, hdr = self.api(method, u.path, raw)
            W.requests.append({"t": round(now(), 3), "method": method, "path": u.path, "status": status})
            if status in (401, 403) or (status == 429 and hdr.get("X-RateLimit-Scope") != "shared"):
                # rate-limits.mdx, Invalid Request Limit: 10,000 in 10 minutes bans the IP
                W.invalid_requests.append({"t": round(now(), 3), "method": method, "path": u.path,
                                           "status": status, "code": (obj or {}).get("code")})
            return self.reply(status, obj, hdr)

    def api(self, method, path, raw):
        if not path.startswith(API + "/"):
            return 404, {"message": "404: Not Found", "code": 0}, {}
        p = path[len(API):]
        ua = self.headers.get("User-Agent", "")
        # reference.mdx, User Agent: "DiscordBot ($url, $versionNumber)", the URL required
        if not re.match(r"^DiscordBot \((https?://[^\s,()]+), ([^\s,()]+)\)", ua):
            W.violate("request without a 'DiscordBot (url, version)' User-Agent: %r" % ua)
            return 400, {"message": "fake: User-Agent must be 'DiscordBot ($url, $versionNumber)'", "code": 0}, {}
        body = None
        if method in ("POST", "PUT", "PATCH") and raw:
            if not (self.headers.get("Content-Type") or "").startswith("application/json"):
                return 400, {"code": 50035, "message": "Invalid Form Body: Content-Type"}, {}
            try:
                body = json.loads(raw)
            except ValueError:
                return 400, {"code": 50109, "message": "The request body contains invalid JSON."}, {}
        webhookish = p.startswith("/webhooks/") or p.startswith("/interactions/")
        if not webhookish and self.headers.get("Authorization") != "Bot " + W.token:
            return 401, {"message": "401: Unauthorized", "code": 0}, {}
        limited, hdr = rate_check(method, p)
        if limited is not None:
            return limited[0], limited[1], hdr
        parts = p.strip("/").split("/")
        status, obj = self.dispatch(method, parts, body)
        return status, obj, hdr

    def dispatch(self, method, parts, body):
        if method == "GET" and parts == ["gateway", "bot"]:
            return 200, {"url": "%s://127.0.0.1:%d" % (W.scheme[1], W.ports["gateway"]),
                         "shards": W.take_recommendation(),
                         "session_start_limit": W.budget()}
        if method == "PUT" and len(parts) == 3 and parts[0] == "applications" and parts[2] == "commands":
            if parts[1] != W.app_id:
                return err(403, 50001, "Missing Access")
            return put_commands("global", body)
        if method == "PUT" and len(parts) == 5 and parts[0] == "applications" and parts[2] == "guilds" \
                and parts[4] == "commands":
            if parts[1] != W.app_id or parts[3] not in W.guilds:
                return err(403, 50001, "Missing Access")
            return put_commands(parts[3], body)
        if method == "POST" and len(parts) == 4 and parts[0] == "interactions" and parts[3] == "callback":
            return callback(parts[1], parts[2], body)
        if method == "POST" and len(parts) == 3 and parts[0] == "webhooks":
            return followup(parts[1], parts[2], body)
        if method == "PATCH" and len(parts) == 5 and parts[0] == "webhooks" and parts[3] == "messages":
            return edit_webhook_message(parts[1], parts[2], parts[4], body)
        if method == "DELETE" and len(parts) == 5 and parts[0] == "webhooks" and parts[3] == "messages":
            return delete_webhook_message(parts[1], parts[2], parts[4])
        if method == "POST" and len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
            return create_message(parts[1], body)
        if method == "POST" and parts == ["users", "@me", "channels"]:
            return create_dm(body)
        return 404, {"message": "404: Not Found", "code": 0}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if os.environ.get("FAKE_DISCORD_VERBOSE"):
            import traceback
            traceback.print_exc()


async def main_async(portfile, cert, key):
    global LOOP
    LOOP = asyncio.get_running_loop()
    ctx = None
    if cert is not None:
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        W.scheme = ("https", "wss")
    gw = await websockets.serve(lambda ws, path: gateway(ws, path, W.ports["gateway"]), "127.0.0.1", 0,
                                ping_interval=None, max_size=1 << 20, compression=None, ssl=ctx)
    rs = await websockets.serve(lambda ws, path: gateway(ws, path, W.ports["resume"]), "127.0.0.1", 0,
                                ping_interval=None, max_size=1 << 20, compression=None, ssl=ctx)
    W.ports["gateway"] = gw.sockets[0].getsockname()[1]
    W.ports["resume"] = rs.sockets[0].getsockname()[1]
    srv = Server(("127.0.0.1", 0), Handler)
    if ctx is not None:
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    W.ports["http"] = srv.server_address[1]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    with open(portfile + ".tmp", "w") as f:
        f.write("%d %d %d\n" % (W.ports["http"], W.ports["gateway"], W.ports["resume"]))
    os.rename(portfile + ".tmp", portfile)
    await asyncio.Future()


def main():
    if len(sys.argv) not in (2, 4):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        asyncio.run(main_async(sys.argv[1], sys.argv[2] if len(sys.argv) == 4 else None,
                               sys.argv[3] if len(sys.argv) == 4 else None))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
