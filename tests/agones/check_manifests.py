#!/usr/bin/env python3
"""tests/agones/check_manifests.py: the Agones manifests in packaging/agones/ are valid YAML with the fields Agones
requires (a small schema per kind, below), agree with each other (fleet name, counter keys) and with the server
(its flags pass mazerace-server --check-config, the counter capacities are its --max-rooms / --max-clients, the
protocol label is its wire version, the health period outlasts its ping interval, the UDP ports named "game" and
"spectate" are the server's game port and its spectator port, which the args set explicitly), run under the
restricted Pod Security Standard (numeric non-root user, the image's own, read-only root file system, no
capabilities, no privilege escalation, a seccomp profile), keep their records in PostgreSQL named by a Secret with
the spool on a volume, and have a puzzle-memory budget (the server's own default under the container's memory
limit, read with a stand-in cgroup) at most half that limit.

Usage: check_manifests.py MANIFEST_DIR [MAZERACE_SERVER]
Not a full Kubernetes validation (no cluster here): the fields and values listed are the ones Agones rejects
or that would break the deployment described in docs/scaling.md.
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

errors = []


def err(path, msg):
    errors.append("%s: %s" % (path, msg))


def get(doc, dotted, path, want=None):
    """The value at a dotted path (list indexes as numbers); records an error if missing or of the wrong type."""
    cur = doc
    for part in dotted.split("."):
        if isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            err(path, "missing %s" % dotted)
            return None
    if want is not None and not isinstance(cur, want) or isinstance(cur, bool) and want is int:
        err(path, "%s should be %s, not %r" % (dotted, getattr(want, "__name__", want), cur))
        return None
    return cur


def one_of(path, dotted, v, allowed):
    if v is not None and v not in allowed:
        err(path, "%s is %r, not one of %s" % (dotted, v, ", ".join(map(str, allowed))))


def int_in(path, dotted, v, lo, hi=None):
    if v is not None and (v < lo or (hi is not None and v > hi)):
        err(path, "%s = %d is out of range %d..%s" % (dotted, v, lo, hi if hi is not None else ""))


def header(doc, path, api, kind):
    if not isinstance(doc, dict):
        err(path, "not a YAML mapping")
        return False
    one_of(path, "apiVersion", doc.get("apiVersion"), [api])
    one_of(path, "kind", doc.get("kind"), [kind])
    return True


def check_counters(path, dotted, counters):
    if not isinstance(counters, dict) or not counters:
        err(path, "%s should map counter names to {count, capacity}" % dotted)
        return {}
    for name, c in counters.items():
        if not re.match(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", str(name)):
            err(path, "%s: bad counter name %r" % (dotted, name))
        count = get(c, "count", path, int)
        cap = get(c, "capacity", path, int)
        if count is not None and cap is not None and not 0 <= count <= cap:
            err(path, "%s.%s: count %d not within 0..capacity %d" % (dotted, name, count, cap))
    return counters


def check_fleet(doc, path):
    if not header(doc, path, "agones.dev/v1", "Fleet"):
        return None
    name = get(doc, "metadata.name", path, str)
    int_in(path, "spec.replicas", get(doc, "spec.replicas", path, int), 0)
    one_of(path, "spec.scheduling", doc.get("spec", {}).get("scheduling", "Packed"), ["Packed", "Distributed"])
    gs = get(doc, "spec.template.spec", path, dict) or {}
    ports = get(gs, "ports", path, list) or []
    if not ports:
        err(path, "spec.template.spec.ports is empty")
    for i, p in enumerate(ports):
        one_of(path, "ports[%d].portPolicy" % i, p.get("portPolicy", "Dynamic"),
               ["Dynamic", "Static", "Passthrough", "None"])
        one_of(path, "ports[%d].protocol" % i, p.get("protocol", "UDP"), ["UDP", "TCP", "TCPUDP"])
        int_in(path, "ports[%d].containerPort" % i, get(p, "containerPort", path, int), 1, 65535)
        if p.get("portPolicy") == "Static":
            get(p, "hostPort", path, int)
    by_name = {}
    for p in ports:
        if p.get("name") in by_name:
            err(path, "two ports named %r" % p.get("name"))
        by_name[p.get("name")] = p
    # The server reads the host ports from status.ports by these names (docs/scaling.md).
    for pname in ("game", "spectate"):
        if pname not in by_name:
            err(path, "no port named %r in spec.template.spec.ports (the server looks it up by name)" % pname)
        elif by_name[pname].get("protocol", "UDP") != "UDP":
            err(path, "the %s port is UDP (ENet)" % pname)
    health = gs.get("health", {})
    for k in ("initialDelaySeconds", "periodSeconds", "failureThreshold"):
        if k in health:
            int_in(path, "health." + k, get(health, k, path, int), 1 if k != "initialDelaySeconds" else 0)
    counters = check_counters(path, "spec.template.spec.counters", get(gs, "counters", path))
    for needed in ("rooms", "players"):
        if needed not in counters:
            err(path, "the server reports a %r counter: declare it (else its updates get 404)" % needed)
    pod = get(gs, "template.spec", path, dict) or {}
    containers = get(pod, "containers", path, list) or []
    names = [c.get("name") for c in containers]
    for i, c in enumerate(containers):
        get(c, "name", path, str)
        get(c, "image", path, str)
    if len(containers) > 1 or "container" in gs:
        one_of(path, "spec.template.spec.container", gs.get("container"), names)
    server = next((c for c in containers if c.get("name") == gs.get("container", names[0] if names else None)),
                  None)
    return {"name": name, "counters": counters, "health": health, "server": server, "path": path,
            "ports": by_name, "pod": pod}


def check_autoscaler(doc, path, fleet):
    if not header(doc, path, "autoscaling.agones.dev/v1", "FleetAutoscaler"):
        return
    get(doc, "metadata.name", path, str)
    fname = get(doc, "spec.fleetName", path, str)
    if fleet and fname != fleet["name"]:
        err(path, "spec.fleetName %r is not the Fleet %r" % (fname, fleet["name"]))
    ptype = get(doc, "spec.policy.type", path, str)
    one_of(path, "spec.policy.type", ptype, ["Buffer", "Webhook", "Counter", "List", "Schedule", "Chain"])
    if ptype == "Counter":
        key = get(doc, "spec.policy.counter.key", path, str)
        if fleet and key not in fleet["counters"]:
            err(path, "counter key %r is not a counter of the Fleet" % key)
        buf = get(doc, "spec.policy.counter.bufferSize", path)
        lo = get(doc, "spec.policy.counter.minCapacity", path, int)
        hi = get(doc, "spec.policy.counter.maxCapacity", path, int)
        if isinstance(buf, int) and not isinstance(buf, bool):
            int_in(path, "bufferSize", buf, 1)
            if lo is not None and lo < buf:
                err(path, "minCapacity %d is below bufferSize %d (Agones refuses it)" % (lo, buf))
        elif not (isinstance(buf, str) and re.match(r"^([1-9][0-9]?)%$", buf)):
            err(path, "bufferSize should be a count or a percentage 1%..99%, not %r" % buf)
        if lo is not None and hi is not None and not 0 <= lo <= hi:
            err(path, "minCapacity %d..maxCapacity %d is not a range" % (lo, hi))
        if hi is not None and fleet and "rooms" in fleet["counters"] and hi % fleet["counters"]["rooms"]["capacity"]:
            err(path, "maxCapacity %d is not a whole number of servers' rooms" % hi)
    sync = doc.get("spec", {}).get("sync")
    if sync is not None:
        one_of(path, "spec.sync.type", get(sync, "type", path, str), ["FixedInterval"])
        int_in(path, "spec.sync.fixedInterval.seconds", get(sync, "fixedInterval.seconds", path, int), 1)


def check_allocation(doc, path, fleet, protocol):
    if not header(doc, path, "allocation.agones.dev/v1", "GameServerAllocation"):
        return
    spec = get(doc, "spec", path, dict) or {}
    one_of(path, "spec.scheduling", spec.get("scheduling", "Packed"), ["Packed", "Distributed"])
    sels = get(spec, "selectors", path, list) or []
    if not sels:
        err(path, "spec.selectors is empty")
    for i, s in enumerate(sels):
        labels = s.get("matchLabels", {})
        if fleet and labels.get("agones.dev/fleet") != fleet["name"]:
            err(path, "selectors[%d] does not pick the Fleet %r" % (i, fleet["name"]))
        if protocol is not None and isinstance(labels.get("agones.dev/sdk-protocol"), str) and \
                labels["agones.dev/sdk-protocol"] != str(protocol):
            err(path, "selectors[%d] wants protocol %r, the server speaks %d" % (i, labels["agones.dev/sdk-protocol"],
                                                                              protocol))
        for k, v in labels.items():
            if not isinstance(v, str):
                err(path, "selectors[%d].matchLabels.%s should be a string (quote it)" % (i, k))
        one_of(path, "selectors[%d].gameServerState" % i, s.get("gameServerState", "Ready"), ["Ready", "Allocated"])
        for key, c in (s.get("counters") or {}).items():
            if fleet and key not in fleet["counters"]:
                err(path, "selectors[%d] counter %r is not a counter of the Fleet" % (i, key))
            for bound in ("minCount", "maxCount", "minAvailable", "maxAvailable"):
                if bound in c:
                    int_in(path, "selectors[%d].counters.%s.%s" % (i, key, bound), get(c, bound, path, int), 0)
    for i, p in enumerate(spec.get("priorities") or []):
        one_of(path, "priorities[%d].type" % i, p.get("type"), ["Counter", "List"])
        one_of(path, "priorities[%d].order" % i, p.get("order", "Ascending"), ["Ascending", "Descending"])
        if fleet and p.get("type") == "Counter" and p.get("key") not in fleet["counters"]:
            err(path, "priorities[%d] key %r is not a counter of the Fleet" % (i, p.get("key")))
    for key, v in ((spec.get("metadata") or {}).get("annotations") or {}).items():
        if not key.startswith("mazerace.io/room-"):
            continue
        if not re.fullmatch(r"[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{5}", key[len("mazerace.io/room-"):]):
            err(path, "metadata.annotations.%s: the key must end in a room code" % key)
        if not isinstance(v, str) or not re.fullmatch(r"(sum|maze|ice|pipes):\d+x\d+:(easy|medium|hard)(#\d+)?", v):
            err(path, "metadata.annotations.%s: %r is not kind:WxH:difficulty[#seed]" % (key, v))
    for key, c in (spec.get("counters") or {}).items():
        if fleet and key not in fleet["counters"]:
            err(path, "counters.%s is not a counter of the Fleet" % key)
        one_of(path, "counters.%s.action" % key, c.get("action"), ["Increment", "Decrement"])
        int_in(path, "counters.%s.amount" % key, get(c, "amount", path, int), 1)


def flag_value(args, flag):
    for a, b in zip(args, args[1:]):
        if a == flag:
            return b
    return None


SECRET_STANDIN = "postgresql://mazerace@db.invalid/mazerace"  # what $(VAR) of a Secret stands for here


def env_of(c):
    return {e.get("name"): e for e in c.get("env") or [] if isinstance(e, dict)}


def expand(args, c):
    """The args as Kubernetes passes them: $(VAR) of the container's env replaced (a Secret's by a stand-in)."""
    env = env_of(c)

    def one(m):
        e = env.get(m.group(1))
        if e is None:
            return m.group(0)
        return str(e["value"]) if "value" in e else SECRET_STANDIN
    return [re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", one, a) for a in args]


def mem_bytes(q):
    """A Kubernetes memory quantity (128Mi, 1G, 268435456) in bytes, or None."""
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?", str(q))
    if not m:
        return None
    mult = {None: 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "k": 10 ** 3, "M": 10 ** 6,
            "G": 10 ** 9, "T": 10 ** 12}
    return int(m.group(1)) * mult[m.group(2)]


def dockerfile_user(d):
    """USER of the Dockerfile's last stage (the image the Fleet runs), or None when there is no Dockerfile."""
    p = os.path.join(d, "..", "..", "Dockerfile")
    if not os.path.exists(p):
        return None
    user = None
    for line in open(p):
        if line.startswith("FROM "):
            user = ""
        elif line.startswith("USER "):
            user = line.split()[1]
    return user


def check_security(fleet, image_user):
    """The restricted Pod Security Standard for the server's container (the SDK sidecar is Agones' own)."""
    path, c, pod = fleet["path"], fleet["server"], fleet["pod"]
    csc = c.get("securityContext") or {}
    psc = pod.get("securityContext") or {}

    def eff(k):
        return csc.get(k, psc.get(k))
    if eff("runAsNonRoot") is not True:
        err(path, "securityContext.runAsNonRoot should be true (restricted Pod Security Standard)")
    uid, gid = eff("runAsUser"), eff("runAsGroup")
    for what, v in (("runAsUser", uid), ("runAsGroup", gid)):
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            err(path, "securityContext.%s should be a numeric non-root id, not %r" % (what, v))
    if csc.get("readOnlyRootFilesystem") is not True:
        err(path, "the server container's securityContext.readOnlyRootFilesystem should be true")
    if csc.get("allowPrivilegeEscalation") is not False:
        err(path, "the server container's securityContext.allowPrivilegeEscalation should be false")
    caps = csc.get("capabilities") or {}
    if "ALL" not in (caps.get("drop") or []):
        err(path, "the server container should drop ALL capabilities (securityContext.capabilities.drop)")
    if caps.get("add"):
        err(path, "the server container adds capabilities %s: it needs none (every port is above 1024)" % caps["add"])
    sc = (csc.get("seccompProfile") or psc.get("seccompProfile") or {}).get("type")
    one_of(path, "securityContext.seccompProfile.type", sc, ["RuntimeDefault", "Localhost"])
    if image_user is not None:
        if not re.fullmatch(r"\d+:\d+", image_user or ""):
            err(path, "the Dockerfile's USER %r is not numeric UID:GID (runAsNonRoot cannot check a name)" % image_user)
        elif image_user != "%s:%s" % (uid, gid):
            err(path, "runAsUser:runAsGroup %s:%s is not the image's USER %s" % (uid, gid, image_user))


def check_records(fleet, args):
    """Records outlive the pod: --db from a Secret (PostgreSQL), the spool on a writable volume."""
    path, c, pod = fleet["path"], fleet["server"], fleet["pod"]
    db = flag_value(args, "--db")
    m = re.fullmatch(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", db or "")
    e = env_of(c).get(m.group(1)) if m else None
    ref = ((e or {}).get("valueFrom") or {}).get("secretKeyRef") or {}
    if not db:
        err(path, "the server args should set --db: without it records live in the container and die with the pod")
    elif not m or not ref.get("name") or not ref.get("key"):
        err(path, "--db %s should come from a Secret ($(VAR) with VAR's valueFrom.secretKeyRef): a database URL "
                  "carries its password" % db)
    spool = flag_value(args, "--db-spool")
    vols = {v.get("name"): v for v in pod.get("volumes") or [] if isinstance(v, dict)}
    mounts = [mt for mt in c.get("volumeMounts") or [] if isinstance(mt, dict)]
    on = [mt for mt in mounts if spool and spool.startswith(str(mt.get("mountPath", "")).rstrip("/") + "/")]
    if not spool:
        err(path, "the server args should set --db-spool on a volume (the root file system is read-only)")
    elif not on or on[0].get("readOnly") or on[0].get("name") not in vols:
        err(path, "--db-spool %s is not on a writable volume of the pod" % spool)


def check_memory(fleet, server_bin, args):
    """The puzzle-memory budget the server takes in this container (its default follows memory.max) fits."""
    path, c = fleet["path"], fleet["server"]
    limit = mem_bytes(((c.get("resources") or {}).get("limits") or {}).get("memory"))
    if not limit:
        err(path, "the server container has no memory limit (resources.limits.memory)")
        return
    with tempfile.TemporaryDirectory() as cg:
        with open(os.path.join(cg, "memory.max"), "w") as f:
            f.write("%d\n" % limit)
        env = dict(os.environ, MAZERACE_CGROUP_ROOT=cg)
        r = subprocess.run([server_bin, "--config", "/dev/null"] + args + ["--print-config"], capture_output=True,
                           text=True, timeout=30, env=env)
    m = re.search(r"^puzzle_mem = (\d+)$", r.stdout, re.M)
    if not m:
        err(path, "no puzzle_mem in the server's --print-config")
    elif int(m.group(1)) << 20 > limit // 2:
        err(path, "puzzle_mem %s MiB is more than half the memory limit (%d MiB): the puzzles alone could get the "
                  "container killed" % (m.group(1), limit >> 20))


def check_server(fleet, server_bin):
    """The Fleet's server arguments against the real server."""
    path = fleet["path"]
    c = fleet["server"]
    if not c:
        err(path, "no container is the game server")
        return None
    raw = [str(a) for a in c.get("args", [])]
    args = expand(raw, c)
    check_records(fleet, raw)
    check_memory(fleet, server_bin, args)
    r = subprocess.run([server_bin, "--config", "/dev/null"] + args + ["--check-config"], capture_output=True,
                       text=True, timeout=30)
    if r.returncode != 0:
        err(path, "the server refuses its args %s: %s" % (args, r.stderr.strip()))
    for counter, flag in (("rooms", "--max-rooms"), ("players", "--max-clients")):
        v = flag_value(args, flag)
        cap = fleet["counters"].get(counter, {}).get("capacity")
        if v is None:
            err(path, "the server args should set %s (the %s capacity)" % (flag, counter))
        elif cap is not None and int(v) != cap:
            err(path, "counter %s capacity %d but the server runs with %s %s" % (counter, cap, flag, v))
    # The game and spectator ports the server binds with these args, against the GameServer's ports.
    r = subprocess.run([server_bin, "--config", "/dev/null"] + args + ["--print-config"], capture_output=True,
                       text=True, timeout=30)
    eff = dict(re.findall(r"^(\w+) = (.*)$", r.stdout, re.M))
    sp = flag_value(args, "--spectator-port")
    if sp is None or not sp.isdigit() or not 0 < int(sp) < 65536:
        err(path, "the server args should set --spectator-port to a port number (not auto, off or 0): "
                  "the \"spectate\" containerPort must not depend on the game port")
    for name, key in (("game", "port"), ("spectate", "spectator_port")):
        cp = fleet["ports"].get(name, {}).get("containerPort")
        if cp is not None and eff.get(key) != str(cp):
            err(path, "the %r containerPort is %s but the server's %s is %s" % (name, cp, key, eff.get(key)))
    ports = [p.get("containerPort") for p in c.get("ports", [])]
    mv = flag_value(args, "--metrics")
    if mv and int(mv.rsplit(":", 1)[-1]) not in ports:
        err(path, "--metrics %s: its port is not among the container's ports %s" % (mv, ports))
    period = fleet["health"].get("periodSeconds", 5)
    if period * 1000 <= 2000:
        err(path, "health.periodSeconds %d is not longer than the server's 2 s ping interval" % period)
    v = subprocess.run([server_bin, "--version"], capture_output=True, text=True, timeout=30).stdout
    m = re.search(r"protocol (\d+)", v)
    return int(m.group(1)) if m else None


# --self-test: each of these edits to a copy of the manifests must be caught, with this in the message.
MUTATIONS = [
    ("fleet.yaml", "protocol: UDP", "protocol: SCTP", "ports[0].protocol"),
    ("fleet.yaml", "protocol: UDP\n      health", "protocol: TCP\n      health", "the spectate port is UDP"),
    ("fleet.yaml", "capacity: 500", "capacity: 400", "capacity 400 but the server runs with --max-rooms 500"),
    ("fleet.yaml", "        players:\n          count: 0\n          capacity: 1000\n", "",
     "the server reports a 'players' counter"),
    ("fleet.yaml", '- "500"', '- "0"', "the server refuses its args"),
    ("fleet.yaml", "periodSeconds: 5", "periodSeconds: 2", "not longer than the server's 2 s ping"),
    ("fleet.yaml", "apiVersion: agones.dev/v1", "apiVersion: agones.dev/v2", "apiVersion"),
    ("fleet.yaml", "image: ", "imagename: ", "missing image"),
    ("fleetautoscaler.yaml", "key: rooms", "key: seats", "not a counter of the Fleet"),
    ("fleetautoscaler.yaml", "minCapacity: 500", "minCapacity: 50", "below bufferSize"),
    ("fleetautoscaler.yaml", "fleetName: mazerace", "fleetName: other", "is not the Fleet"),
    ("gameserverallocation.yaml", 'sdk-protocol: "', 'sdk-protocol: "9', "the server speaks"),
    ("gameserverallocation.yaml", "gameServerState: Allocated", "gameServerState: Busy", "gameServerState"),
    ("gameserverallocation.yaml", "action: Increment", "action: Add", "action"),
    ("gameserverallocation.yaml", "room-Q7KM4:", "room-Q7KM0:", "must end in a room code"),
    ("gameserverallocation.yaml", '"maze:15x11:easy"', '"maze:15x11"', "is not kind:WxH:difficulty"),
    ("gameserverallocation.yaml", "  selectors:", "  selectors: []\n  x:", "selectors is empty"),
    ("fleetautoscaler.yaml", "spec:", "spec: [", "not valid YAML"),
    ("fleet.yaml", "- name: spectate", "- name: spectators", "no port named 'spectate'"),
    ("fleet.yaml", "containerPort: 27912", "containerPort: 27913", "'spectate' containerPort is 27913"),
    ("fleet.yaml", "containerPort: 27910", "containerPort: 27900", "'game' containerPort is 27900"),
    ("fleet.yaml", '- --spectator-port\n                - "27912"\n', "", "should set --spectator-port"),
    ("fleet.yaml", '- --spectator-port\n                - "27912"', '- --spectator-port\n                - auto',
     "should set --spectator-port"),
    ("fleet.yaml", "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "readOnlyRootFilesystem"),
    ("fleet.yaml", "allowPrivilegeEscalation: false", "allowPrivilegeEscalation: true", "allowPrivilegeEscalation"),
    ("fleet.yaml", "                    - ALL\n", "                    - NET_RAW\n", "drop ALL capabilities"),
    ("fleet.yaml", "runAsUser: 10001\n                runAsGroup", "runAsUser: 0\n                runAsGroup",
     "runAsUser should be a numeric non-root id"),
    ("fleet.yaml", "runAsNonRoot: true\n                runAsUser", "runAsNonRoot: false\n                runAsUser",
     "runAsNonRoot should be true"),
    ("fleet.yaml", "type: RuntimeDefault\n              # Records", "type: Unconfined\n              # Records",
     "seccompProfile.type"),
    ("fleet.yaml", "- $(MAZERACE_DB)", "- postgresql://mazerace:pw@db/mazerace", "should come from a Secret"),
    ("fleet.yaml", "secretKeyRef:", "configMapKeyRef:", "should come from a Secret"),
    ("fleet.yaml", "mountPath: /var/spool/mazerace", "mountPath: /var/spool/other", "not on a writable volume"),
    ("fleet.yaml", "- --agones-idle-ready", '- --puzzle-mem\n                - "1024"\n                - --agones-idle-ready',
     "more than half the memory limit"),
    ("fleet.yaml", "                  memory: 256Mi\n", "", "has no memory limit"),
]


def self_test(d, server_bin):
    import shutil
    import tempfile
    global errors
    missed = []
    for fname, old, new, want in MUTATIONS:
        with tempfile.TemporaryDirectory() as tmp:
            for n in os.listdir(d):
                shutil.copy(os.path.join(d, n), tmp)
            p = os.path.join(tmp, fname)
            with open(p) as f:
                text = f.read()
            if old not in text:
                missed.append("%s: %r not found (update MUTATIONS)" % (fname, old))
                continue
            with open(p, "w") as f:
                f.write(text.replace(old, new, 1))
            errors = []
            check_dir(tmp, server_bin)
            if not any(want in e for e in errors):
                missed.append("%s: %r -> %r not caught (wanted %r; got %s)" % (fname, old, new, want, errors))
    errors = []
    for m in missed:
        print("FAIL self-test " + m)
    print("check_manifests self-test: %d mutations, %d caught" % (len(MUTATIONS), len(MUTATIONS) - len(missed)))
    return 1 if missed else 0


def main():
    args = [a for a in sys.argv[1:] if a != "--self-test"]
    if not args:
        sys.exit("usage: check_manifests.py [--self-test] MANIFEST_DIR [MAZERACE_SERVER]")
    d = args[0]
    server_bin = args[1] if len(args) > 1 else None
    if "--self-test" in sys.argv:
        return self_test(d, server_bin)
    n = check_dir(d, server_bin)
    for e in errors:
        print("FAIL " + e)
    print("check_manifests: %d manifests, %d problems%s" % (n, len(errors),
                                                            "" if server_bin else " (no server given: its args unchecked)"))
    return 1 if errors else 0


def check_dir(d, server_bin):
    """Checks every manifest in d; problems go to errors. Returns the number of documents."""
    docs = {}
    for name in sorted(os.listdir(d)):
        if not name.endswith((".yaml", ".yml")):
            continue
        p = os.path.join(d, name)
        try:
            with open(p) as f:
                items = [x for x in yaml.safe_load_all(f) if x is not None]
        except yaml.YAMLError as e:
            err(p, "not valid YAML: %s" % e)
            continue
        for x in items:
            docs.setdefault(x.get("kind") if isinstance(x, dict) else None, []).append((x, p))
    for kind in ("Fleet", "FleetAutoscaler", "GameServerAllocation"):
        if kind not in docs:
            err(d, "no %s manifest" % kind)
    fleet = None
    for doc, p in docs.get("Fleet", []):
        fleet = check_fleet(doc, p) or fleet
    if fleet and fleet["server"]:
        check_security(fleet, dockerfile_user(d))
    protocol = check_server(fleet, server_bin) if fleet and server_bin else None
    for doc, p in docs.get("FleetAutoscaler", []):
        check_autoscaler(doc, p, fleet)
    for doc, p in docs.get("GameServerAllocation", []):
        check_allocation(doc, p, fleet, protocol)
    return sum(len(v) for v in docs.values())


if __name__ == "__main__":
    sys.exit(main())
