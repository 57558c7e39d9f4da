#!/usr/bin/env python3
"""fake-matrix.py: a small fake Matrix homeserver (client-server API subset, from the spec) for handfoot's tests.

Usage: fake-matrix.py PORT [PORTFILE]   (PORT 0: a free loopback port, written to PORTFILE)

Client-server API: login (m.login.password, device_id reuse), whoami, user filters,
/sync with since/timeout long-poll (rooms.join state+timeline, rooms.invite
invite_state, rooms.leave, account_data), join, leave, invite, kick,
createRoom (is_direct, invite, initial_state), account data, room state,
PUT send with txnId idempotence (scoped per device), 429 M_LIMIT_EXCEEDED.

Test control (no auth): POST /_fake/user {"user","password"} -> token;
POST /_fake/fail {"method","path" (regex),"user","status","count","retry_after_ms","header_only","drop","after_commit"};
POST /_fake/replay {"room","count"}: re-delivers the last events, reversed (duplicates, out of order);
GET /_fake/events?room=R: the room's timeline with txn ids; GET /_fake/requests: counters.
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
LOCK = threading.Condition()


class World:
    def __init__(self):
        self.pos = 0
        self.stream = []          # (pos, kind, room_or_user, payload)
        self.users = {}           # user_id -> password
        self.tokens = {}          # token -> (user_id, device)
        self.filters = {}
        self.rooms = {}           # room_id -> {"state": {(type,key): ev}, "timeline": [ev]}
        self.txns = {}            # (user, device, txn) -> event_id
        self.account = {}         # (user, type) -> content
        self.faults = []
        self.nroom = 0
        self.nevent = 0
        self.ntoken = 0
        self.requests = {}

    def push(self, kind, key, payload):
        self.pos += 1
        self.stream.append((self.pos, kind, key, payload))
        LOCK.notify_all()

    def membership(self, room, user):
        ev = self.rooms[room]["state"].get(("m.room.member", user))
        return ev["content"].get("membership") if ev else None

    def event(self, room, sender, etype, content, state_key=None, txn=None):
        self.nevent += 1
        ev = {"type": etype, "sender": sender, "content": content,
              "event_id": "$e%d:%s" % (self.nevent, SERVER), "room_id": room,
              "origin_server_ts": int(time.time() * 1000)}
        r = self.rooms[room]
        if state_key is not None:
            ev["state_key"] = state_key
            prev = r["state"].get((etype, state_key))
            if prev is not None:
                ev["unsigned"] = {"prev_content": prev["content"]}
            r["state"][(etype, state_key)] = ev
        if txn is not None:
            ev.setdefault("unsigned", {})["transaction_id"] = txn
        r["timeline"].append(ev)
        self.push("event", room, ev)
        return ev

    def new_room(self, creator):
        self.nroom += 1
        room = "!r%d:%s" % (self.nroom, SERVER)
        self.rooms[room] = {"state": {}, "timeline": []}
        self.event(room, creator, "m.room.create", {"creator": creator}, "")
        self.event(room, creator, "m.room.member", {"membership": "join", "displayname": creator[1:].split(":")[0]}, creator)
        return room


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


def strip_internal(ev, user):
    ev = dict(ev)
    ev.pop("room_id", None)
    if "unsigned" in ev and ev["sender"] != user:
        u = dict(ev["unsigned"])
        u.pop("transaction_id", None)
        ev["unsigned"] = u
    return ev


def invite_state(room, user):
    evs = [strip_internal(ev, user) for (t, k), ev in W.rooms[room]["state"].items()
           if t in ("m.room.create", "m.room.name", "m.room.encryption") or (t == "m.room.member" and k == user)]
    return {"events": evs}


def build_sync(user, since):
    out = {"next_batch": "s%d" % W.pos, "rooms": {"join": {}, "invite": {}, "leave": {}},
           "account_data": {"events": []}}
    joined, invited = user_rooms(user)
    if since is None:
        for rid in joined:
            r = W.rooms[rid]
            out["rooms"]["join"][rid] = {
                "state": {"events": [strip_internal(e, user) for e in r["state"].values()]},
                "timeline": {"events": [strip_internal(e, user) for e in r["timeline"][-20:]], "limited": True}}
        for rid in invited:
            out["rooms"]["invite"][rid] = {"invite_state": invite_state(rid, user)}
        for (u, t), content in W.account.items():
            if u == user:
                out["account_data"]["events"].append({"type": t, "content": content})
        return out
    seen_acct = set()
    for pos, kind, key, payload in W.stream:
        if pos <= since:
            continue
        if kind == "account" and key[0] == user and key[1] not in seen_acct:
            seen_acct.add(key[1])
            out["account_data"]["events"].append({"type": key[1], "content": W.account[key]})
        if kind != "event":
            continue
        rid, ev = key, payload
        m = W.membership(rid, user)
        mine = ev.get("type") == "m.room.member" and ev.get("state_key") == user
        if mine and ev["content"]["membership"] == "invite" and m == "invite":
            out["rooms"]["invite"][rid] = {"invite_state": invite_state(rid, user)}
            continue
        if mine and ev["content"]["membership"] in ("leave", "ban") :
            out["rooms"]["join"].pop(rid, None)
            out["rooms"]["leave"][rid] = {"timeline": {"events": [strip_internal(ev, user)]}}
            continue
        if m != "join":
            continue
        j = out["rooms"]["join"].setdefault(rid, {"state": {"events": []}, "timeline": {"events": []}})
        if mine and ev["content"]["membership"] == "join" and not ev.get("unsigned", {}).get("prev_content", {}).get("membership") == "join":
            # just joined: hand over the room's state, as a real server does
            j["state"]["events"] = [strip_internal(e, user) for e in W.rooms[rid]["state"].values() if e is not ev]
        j["timeline"]["events"].append(strip_internal(ev, user))
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
        body = json.dumps(obj).encode()
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
        u = urllib.parse.urlsplit(self.path)
        path = u.path
        q = dict(urllib.parse.parse_qsl(u.query))
        body = self.body() if method != "GET" else {}
        if body is None:
            return self.err(400, "M_NOT_JSON", "bad JSON")
        if path.startswith("/_fake/"):
            with LOCK:
                return self.control(method, path, q, body)
        if not path.startswith("/_matrix/client/v3/"):
            return self.err(404, "M_UNRECOGNIZED", "unknown endpoint")
        parts = [urllib.parse.unquote(p) for p in path[len("/_matrix/client/v3/"):].split("/")]
        with LOCK:
            W.requests[parts[0]] = W.requests.get(parts[0], 0) + 1
            auth = self.headers.get("Authorization", "")
            tok = auth[7:] if auth.startswith("Bearer ") else q.get("access_token")
            user, device = W.tokens.get(tok, (None, None))
            f = self.fault(method, path, user)
            if f is not None and not f.get("after_commit"):
                return self.fail(f)
            if parts == ["login"] and method == "POST":
                return self.login(body)
            if user is None:
                return self.err(401, "M_UNKNOWN_TOKEN", "unknown token")
            if parts == ["sync"] and method == "GET":
                return self.sync(user, q)
            res = self.api(method, parts, body, user, device)
            if f is not None:
                # the request took effect, but its answer is lost
                return self.fail(f)
            status, obj = res
            return self.reply(status, obj)

    def login(self, body):
        ident = body.get("identifier") or {}
        name = ident.get("user") or body.get("user") or ""
        uid = name if name.startswith("@") else "@%s:%s" % (name, SERVER)
        if body.get("type") != "m.login.password" or W.users.get(uid) != body.get("password"):
            return self.err(403, "M_FORBIDDEN", "bad login")
        W.ntoken += 1
        device = body.get("device_id") or "DEV%d" % W.ntoken
        tok = "tok%d_%s" % (W.ntoken, uid[1:].split(":")[0])
        W.tokens[tok] = (uid, device)
        return self.reply(200, {"user_id": uid, "access_token": tok, "device_id": device})

    def sync(self, user, q):
        since = q.get("since")
        if since is not None:
            if not re.fullmatch(r"s\d+", since):
                return self.err(400, "M_INVALID_PARAM", "bad since")
            since = int(since[1:])
        timeout = min(int(q.get("timeout") or 0), 60000) / 1000.0
        if since is not None:
            end = time.time() + timeout
            while not has_news(user, since):
                left = end - time.time()
                if left <= 0:
                    break
                LOCK.wait(left)
        return self.reply(200, build_sync(user, since))

    def api(self, method, p, body, user, device):
        if p == ["account", "whoami"]:
            return 200, {"user_id": user, "device_id": device}
        if len(p) == 3 and p[0] == "user" and p[2] == "filter" and method == "POST":
            if p[1] != user:
                return 403, {"errcode": "M_FORBIDDEN", "error": "not you"}
            fid = str(len(W.filters) + 1)
            W.filters[fid] = body
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
            room = W.new_room(user)
            for ev in body.get("initial_state") or []:
                W.event(room, user, ev["type"], ev.get("content", {}), ev.get("state_key", ""))
            if body.get("name"):
                W.event(room, user, "m.room.name", {"name": body["name"]}, "")
            for inv in body.get("invite") or []:
                W.event(room, user, "m.room.member",
                        {"membership": "invite", "is_direct": bool(body.get("is_direct"))}, inv)
            return 200, {"room_id": room}
        if len(p) == 2 and p[0] == "join" and method == "POST":
            p = ["rooms", p[1], "join"]
        if len(p) >= 3 and p[0] == "rooms":
            room = p[1]
            if room not in W.rooms:
                return 404, {"errcode": "M_NOT_FOUND", "error": "no such room"}
            m = W.membership(room, user)
            if p[2] == "join" and method == "POST":
                if m not in ("invite", "join"):
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
                W.event(room, user, "m.room.member",
                        {"membership": "invite" if p[2] == "invite" else "leave"}, target)
                return 200, {}
            if m != "join":
                return 403, {"errcode": "M_FORBIDDEN", "error": "not in room"}
            if p[2] == "send" and len(p) == 5 and method == "PUT":
                key = (user, device, p[4])
                if key in W.txns:
                    return 200, {"event_id": W.txns[key]}
                ev = W.event(room, user, p[3], body, txn=p[4])
                W.txns[key] = ev["event_id"]
                return 200, {"event_id": ev["event_id"]}
            if p[2] == "state" and len(p) >= 4 and method == "PUT":
                ev = W.event(room, user, p[3], body, p[4] if len(p) > 4 else "")
                return 200, {"event_id": ev["event_id"]}
        return 404, {"errcode": "M_UNRECOGNIZED", "error": "unknown endpoint"}

    def control(self, method, path, q, body):
        if path == "/_fake/user":
            uid = "@%s:%s" % (body["user"], SERVER)
            W.users[uid] = body.get("password", "")
            W.ntoken += 1
            tok = "tok%d_%s" % (W.ntoken, body["user"])
            W.tokens[tok] = (uid, "TESTDEV%d" % W.ntoken)
            return self.reply(200, {"user_id": uid, "access_token": tok})
        if path == "/_fake/fail":
            body.setdefault("count", 1)
            W.faults.append(body)
            return self.reply(200, {})
        if path == "/_fake/clear":
            W.faults = []
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
        if path == "/_fake/requests":
            return self.reply(200, W.requests)
        return self.err(404, "M_UNRECOGNIZED", "unknown control")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # clients hanging up mid-answer are expected


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    srv = Server(("127.0.0.1", port), Handler)
    if len(sys.argv) > 2:
        with open(sys.argv[2] + ".tmp", "w") as f:
            f.write("%d\n" % srv.server_address[1])
        import os
        os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    srv.serve_forever()


if __name__ == "__main__":
    main()
