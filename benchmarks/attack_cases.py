"""Issue 43's attack cases, tried again as an attacker would: each case runs the real command
line on a copy of the fixture content, beside a folder "outside" the project that holds a
secret and a picture, and is judged by its exit code, its error lines, a traceback, its time,
and for the cases whose right answer is a result (not an error) by that result.

    python3 benchmarks/attack_cases.py [--only SUBSTRING] [--markdown]

Prints one row per case: name, verdict (ok / FAIL), exit code, seconds (wall, and the CPU
seconds of the commands it ran: on a loaded machine the wall time says little), the first
error line.
An error case is ok when it ends with exit 1, one error line on stderr (from "Error:" on;
progress lines before it are not counted), no traceback, within 60 s, and never prints the
secret. docs/security.md holds the last run's table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "content"
SECRET = "s3cret-line-that-must-never-print"
LIMIT = 60.0
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "TETHER_LOCK_WAIT": "5"}
# the `tether` command as installed, with this checkout first on the path (PYTHONPATH)
TETHER = [shutil.which("tether") or "tether"]
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{}</svg>'
PLAIN = "    effect:\n      - {step: gain_gold, amount: 2}\n    examples:"


class Row:
    def __init__(self, name, ok, rc, secs, line):
        self.name, self.ok, self.rc, self.secs, self.line = name, ok, rc, secs, line


def cpu() -> float:
    """CPU seconds of the waited-for child processes so far (their children included)."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def tether(*args, cwd=None, timeout=120, stdin=None):
    """(exit code, stdout, stderr, seconds) of `tether ARGS` (exit None: killed at timeout)."""
    start = time.monotonic()
    try:
        run = subprocess.run([*TETHER, *map(str, args)],
                             cwd=cwd or ROOT, env=ENV, capture_output=True, text=True,
                             timeout=timeout, stdin=stdin or subprocess.DEVNULL,
                             check=False)
        return run.returncode, run.stdout, run.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as exc:
        return None, str(exc.stdout or ""), str(exc.stderr or ""), time.monotonic() - start


def error_row(name, rc, out, err, secs, must=""):
    """An error case: exit 1, one line, no traceback, < 60 s, no secret, `must` in it."""
    lines = err.splitlines()   # progress lines before the error are not part of it
    first = next((i for i, x in enumerate(lines) if x.startswith("Error:")), 0)
    lines = [x for x in lines[first:] if x.strip() and not x.startswith("warning:")]
    text = out + err
    ok = (rc == 1 and len(lines) == 1 and "Traceback" not in text and secs < LIMIT
          and SECRET not in text and must in err)
    return Row(name, ok, rc, secs, lines[0] if lines else (err or out).strip()[:200])


class Project:
    """A fresh copy of the fixture content (with schemas/), and a folder outside it."""

    def __init__(self, base: Path, name: str):
        self.root = base / name
        self.content = self.root / "content"
        shutil.copytree(FIXTURE, self.content)
        shutil.copytree(ROOT / "schemas", self.root / "schemas")
        self.outside = base / f"{name}-outside"
        self.outside.mkdir()
        (self.outside / "secret.txt").write_text(f"x: {SECRET}\n")
        from PIL import Image

        Image.new("RGB", (8, 8), (220, 20, 30)).save(self.outside / "red.png")

    def edit(self, rel: str, old: str, new: str) -> None:
        path = self.content / rel
        text = path.read_text()
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1))

    def art(self, name: str, data: bytes | str) -> None:
        (self.root / "art").mkdir(exist_ok=True)
        path = self.root / "art" / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        self.edit("cards/starter.yaml", "    name: Supply Cache\n",
                  f"    name: Supply Cache\n    art: art/{name}\n")


# ---- the cases ----------------------------------------------------------------------------
def case_tampered_build_folder(p: Project):
    out = p.root / "o"
    (out / ".tether-staging" / "sp").mkdir(parents=True)
    (p.outside / "sp").mkdir()
    (p.outside / "victim.txt").write_text("keep me")
    (out / "lnk").symlink_to(p.outside)
    (out / "sp").symlink_to(p.outside / "sp")
    (out / ".tether-staging" / "sp" / "zz-evil.pth").write_text("import os\n")
    (out / ".tether-staging" / "COMMIT.json").write_text(json.dumps(
        {"moves": ["sp/zz-evil.pth"], "removals": ["lnk/victim.txt"]}))
    rc, o, e, s = tether("build", "--only", "validate", "--content", p.content, "--out", out)
    intact = (p.outside / "victim.txt").exists() and not (p.outside / "sp" /
                                                            "zz-evil.pth").exists()
    ok = rc == 0 and intact and "Traceback" not in o + e and s < LIMIT
    return Row("tampered build folder (COMMIT.json through links)", ok, rc, s,
               f"outside untouched: {intact}; " + next(
                   (x for x in e.splitlines() if "warning" in x.lower()), e.strip()[-150:]))


HIDDEN = {"<div>": "<div>\n![a map](../../{o}/red.png)\n</div>",
          "<!-- -->": "<!-- ![a map](../../{o}/red.png) -->",
          "<pre>": "<pre>![a map](../../{o}/red.png)</pre>",
          "<script>": "<script>\n![a map](../../{o}/red.png)\n</script>",
          "custom tag": "<my-tag>![a map](../../{o}/red.png)</my-tag>"}


def case_hidden_image(kind):
    def run(p: Project):
        (p.content / "rules" / "99-x.md").write_text(
            "---\ntitle: X\nid: x\n---\n\n" + HIDDEN[kind].format(o=p.outside.name) + "\n")
        rc, o, e, s = tether("rulebook", "--content", p.content, "--out", p.root / "o",
                             "--paper", "a4")
        return error_row(f"rules image wrapped in {kind}", rc, o, e, s, "99-x.md")
    return run


def case_svg_outside(p: Project):
    p.art("zap.svg", SVG.format(f'<image href="file://{p.outside}/red.png"/>'))
    return error_row("SVG card art with href=file:///outside", *tether(
        "validate", "--content", p.content), "zap.svg")


def case_rules_svg_outside(p: Project):
    (p.content / "rules" / "img").mkdir()
    (p.content / "rules" / "img" / "map.svg").write_text(
        SVG.format(f'<image href="file://{p.outside}/red.png"/>'))
    (p.content / "rules" / "99-x.md").write_text(
        "---\ntitle: X\nid: x\n---\n\n![a map](rules/img/map.svg)\n")
    return error_row("SVG rules image with href=file:///outside", *tether(
        "rulebook", "--content", p.content, "--out", p.root / "o", "--paper", "a4"),
        "map.svg")


def case_special_file(kind):
    def run(p: Project):
        target = p.content / "tiles.yaml"
        target.unlink()
        if kind == "FIFO":
            os.mkfifo(target)
        else:
            target.symlink_to(kind)
        return error_row(f"content file: {'link to ' if kind != 'FIFO' else ''}{kind}",
                         *tether("validate", "--content", p.content), "tiles.yaml")
    return run


NESTED = "\n".join(" " * (6 + 4 * i) + f"- step: repeat\n{' ' * (8 + 4 * i)}times: 100\n"
                   f"{' ' * (8 + 4 * i)}steps:" for i in range(5)) + "\n" + " " * 26 + \
    "- {step: gain_gold, amount: 2}"


def case_nested_repeats(command):
    def run(p: Project):
        p.edit("cards/starter.yaml", PLAIN, f"    effect:\n{NESTED}\n    examples:")
        args = [command, "--content", p.content]
        if command == "build":
            args += ["--out", p.root / "o"]
        return error_row(f"five nested repeat: {{times: 100}}: tether {command}",
                         *tether(*args, timeout=180), "nested repeats multiply")
    return run


def case_serve_recovers(p: Project):
    """The serve cards page: shows the error, then recovers once the content is fixed."""
    p.edit("cards/starter.yaml", PLAIN, f"    effect:\n{NESTED}\n    examples:")
    code = ("import sys;from pathlib import Path;from tether_build.serve.app import Site,"
            "default_pages;c=Path(sys.argv[1]);s=Site(c,{'/cards':default_pages()['/cards']})"
            ";a=s.render('/cards')[1];t=(c/'cards'/'starter.yaml');t.write_text(sys.argv[2]);"
            "b=s.render('/cards')[1];print('multiply' in a, 'tether-error' not in b)")
    fixed = (FIXTURE / "cards" / "starter.yaml").read_text()
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-c", code, str(p.content), fixed], cwd=ROOT,
                         env=ENV, capture_output=True, text=True, timeout=180, check=False)
    s = time.monotonic() - start
    ok = run.stdout.split() == ["True", "True"] and s < LIMIT
    return Row("serve cards page, nested repeats then fixed", ok, run.returncode, s,
               f"error shown, then recovered: {run.stdout.strip()}")


RUNAWAY = """    effect:
      - {step: gain_gold, amount: 100}
      - {step: gain_gold, amount: {of: last_count, times: 100}}
      - {step: gain_gold, amount: {of: last_count, times: 100}}
      - step: repeat
        times: {of: last_count}
        steps:
          - {step: gain_gold, amount: 1}
    examples:"""


def case_runaway(command, engine="native"):
    def run(p: Project):
        p.edit("cards/starter.yaml", PLAIN, RUNAWAY)
        args = [command, "--content", p.content]
        if command == "simulate":
            args += ["--games", "4", "--quiet", "--players", "2"]
        global ENV
        saved = ENV
        if engine == "python":
            ENV = {**ENV, "TETHER_ENGINE": "python"}
        try:
            got = tether(*args, timeout=300)
        finally:
            ENV = saved
        if command == "check":   # the check reports it against the card, exit 1
            rc, o, e, s = got
            ok = rc == 1 and "Traceback" not in o + e and s < LIMIT and \
                "supply_cache" in o + e and "step budget" in o + e
            line = next((x for x in (o + e).splitlines() if "step budget" in x), "")
            return Row(f"runaway effect (passes the static bound): tether check ({engine})",
                       ok, rc, s, line.strip()[:200])
        return error_row(f"runaway effect (passes the static bound): tether {command} "
                         f"({engine})", *got, "card supply_cache")
    return run


def _silent_server():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    held = []

    def serve():
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            held.append(conn)   # accepted, never answered
    threading.Thread(target=serve, daemon=True).start()
    return sock


def case_cluster(address):
    def run(p: Project):
        sock = None
        addr = address
        if address == "silent":
            sock = _silent_server()
            addr = f"tcp://127.0.0.1:{sock.getsockname()[1]}"
        try:
            got = tether("balance", "--content", p.content, "--cluster", addr, "--games", "10",
                         "--quiet", "--out", p.root / "bal", timeout=180)
        finally:
            if sock is not None:
                sock.close()
        shown = "tcp://127.0.0.1:PORT (accepts, never answers)" if sock else repr(addr)
        return error_row(f"balance --cluster {shown}", *got)
    return run


def _log(p: Project) -> Path:
    logs = p.root / "logs"
    rc, _o, e, _s = tether("simulate", "--content", p.content, "--games", "1", "--players", "2",
                           "--quiet", "--log-dir", logs)
    assert rc == 0, e
    return next(logs.glob("*.jsonl"))


def case_replay(kind):
    def run(p: Project):
        if kind == "/dev/urandom":
            path = "/dev/urandom"
        elif kind == "3 GB file":
            path = p.root / "big.jsonl"
            with open(path, "wb") as f:
                f.truncate(3 * 1024**3)
        elif kind == "FIFO":
            path = p.root / "fifo.jsonl"
            os.mkfifo(path)
        else:   # a log whose end line claims another winner
            path = _log(p)
            lines = path.read_text().splitlines()
            end = json.loads(lines[-1])
            end["winners"] = [1 - end["winners"][0]] if end["winners"] else [0]
            lines[-1] = json.dumps(end)
            path.write_text("\n".join(lines) + "\n")
        return error_row(f"replay {kind}", *tether("replay", "--content", p.content, path))
    return run


def _png_corrupt() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 64), (1, 2, 3)).save(buf, format="PNG")
    data = bytearray(buf.getvalue())
    at = data.index(b"IDAT") + 4
    data[at + 2:at + 12] = b"\xff" * 10
    return bytes(data)


ART = {"malformed SVG": ("zap.svg", '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>'),
       "SVG with a DOCTYPE entity": (
           "zap.svg", '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x "boom">]>\n'
           + SVG.format("<text>&x;</text>")),
       "10^8-pixel SVG": ("zap.svg", ('<svg xmlns="http://www.w3.org/2000/svg" width="10000" '
                                      'height="10000"/>')),
       "PNG with corrupt data": ("zap.png", None)}


def case_art(kind):
    def run(p: Project):
        name, data = ART[kind]
        p.art(name, data if data is not None else _png_corrupt())
        return error_row(f"card art: {kind}", *tether("validate", "--content", p.content),
                         name)
    return run


def case_concurrent_builds(p: Project):
    out = p.root / "o"
    cmd = [*TETHER, "build", "--content", str(p.content),
           "--out", str(out), "--only", "cards"]
    env = {**ENV, "TETHER_LOCK_WAIT": "600"}
    start = time.monotonic()
    a = subprocess.Popen([*cmd, "--paper", "a4"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    while a.poll() is None and not (out / ".tether-lock").exists() and \
            time.monotonic() - start < 120:   # the first holds the lock: the second starts
        time.sleep(0.05)
    b = subprocess.Popen([*cmd, "--paper", "letter"], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ea, eb = "".join(a.communicate(timeout=900)), "".join(b.communicate(timeout=900))
    s = time.monotonic() - start
    sheets = sorted(x.name for x in out.rglob("*.pdf") if "card" in x.name)
    waited = "waiting for" in eb
    ok = a.returncode == 0 and b.returncode == 0 and bool(sheets) and "Traceback" not in ea + eb
    return Row("two builds at once (--paper a4, --paper letter; --only cards)", ok,
               (a.returncode, b.returncode), s,
               f"second waited: {waited}; card-sheet PDFs after: {', '.join(sheets) or 'none'}")


def case_rulebook_killed(p: Project):
    out = p.root / "o"
    rc, _o, e, _s = tether("rulebook", "--content", p.content, "--out", out, "--paper", "a4",
                           timeout=600)
    assert rc == 0, e
    before = {x.name: x.stat().st_mtime_ns for x in out.rglob("*") if x.is_file()}
    start = time.monotonic()
    proc = subprocess.Popen([*TETHER, "rulebook", "--content",
                             str(p.content), "--out", str(out), "--paper", "a4"], cwd=ROOT,
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # kill while it writes: as soon as a staging folder or a temp file appears (or at 60 s)
    while proc.poll() is None and time.monotonic() - start < 60:
        if (out / ".tether-staging").exists() or any(out.rglob("*.tmp")):
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    rc, o, e, _s2 = tether("rulebook", "--content", p.content, "--out", out, "--paper", "a4",
                           timeout=600)
    s = time.monotonic() - start
    stray = [x.name for x in out.rglob("*") if x.name.endswith(".tmp") or "staging" in x.name]
    after = {x.name for x in out.rglob("*") if x.is_file()}
    ok = rc == 0 and not stray and set(before) <= after and "Traceback" not in o + e
    return Row("rulebook killed while writing, then run again", ok, rc, s,
               f"stray temp/staging files after the next run: {stray or 'none'}")


def case_out_inside_content(watch):
    def run(p: Project):
        args = ["build", "--content", p.content, "--out", p.content / "o"]
        if watch:
            args.append("--watch")
        return error_row(f"build{' --watch' if watch else ''} --out content/o",
                         *tether(*args, timeout=60))
    return run


def _git(p: Project, *args):
    subprocess.run(["git", *args], cwd=p.root, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b",
                        "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"})


def case_symlink_committed(command):
    def run(p: Project):
        _git(p, "init", "-q")
        (p.content / "link.yaml").symlink_to(p.outside / "secret.txt")
        _git(p, "add", "-A")
        _git(p, "commit", "-qm", "one")
        _git(p, "tag", "v1")
        p.edit("cards/starter.yaml", "Gain +2 {gold}.", "Gain +2 {gold} now.")
        _git(p, "commit", "-qam", "two")
        _git(p, "tag", "v2")
        args = ([command, "v1", "--content", p.content, "--out", p.root / "o"]
                if command == "diff" else
                [command, "--content", p.content, "--out", p.root / "CHANGELOG.md"])
        rc, o, e, s = tether(*args, timeout=180)
        ok = rc == 0 and "Traceback" not in o + e and SECRET not in o + e and s < LIMIT
        line = next((x for x in e.splitlines() if "link.yaml" in x), e.strip()[:150])
        return Row(f"a symlink committed in content/: tether {command}", ok, rc, s, line)
    return run


def case_serve_long_segment(p: Project):
    start = time.monotonic()
    proc = subprocess.Popen([*TETHER, "serve", "--content",
                             str(p.content), "--port", "0"], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        while port is None and time.monotonic() - start < 120:
            line = proc.stdout.readline()
            if "127.0.0.1:" in line:
                port = int(line.split("127.0.0.1:")[1].split("/")[0].split()[0])
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/" + "a" * 300)
        status = conn.getresponse().status
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/cards")
        alive = conn.getresponse().status == 200
    finally:
        proc.terminate()
        proc.wait()
    s = time.monotonic() - start
    return Row("serve: a path segment of 300 bytes", status == 400 and alive, status, s,
               f"answer {status}; the server still answers: {alive}")


def case_duplicate_term(p: Project):
    p.edit("terms.yaml", '    singular: "Mana"', '    singular: "Gold"')
    return error_row("two glossary terms with the same name",
                     *tether("validate", "--content", p.content), "terms.yaml")


CASES = [
    ("tampered", case_tampered_build_folder),
    *((f"hidden {k}", case_hidden_image(k)) for k in HIDDEN),
    ("svg art outside", case_svg_outside),
    ("svg rules outside", case_rules_svg_outside),
    *((f"special {k}", case_special_file(k)) for k in ("/etc/passwd", "/dev/zero", "FIFO")),
    ("nested check", case_nested_repeats("check")),
    ("nested build", case_nested_repeats("build")),
    ("nested serve", case_serve_recovers),
    ("runaway simulate", case_runaway("simulate")),
    ("runaway simulate python", case_runaway("simulate", "python")),
    ("runaway check", case_runaway("check")),
    *((f"cluster {a}", case_cluster(a)) for a in ("silent", "", "ucx://127.0.0.1:1",
                                                  "tls://127.0.0.1:1", "inproc://x")),
    *((f"replay {k}", case_replay(k)) for k in ("/dev/urandom", "3 GB file", "FIFO",
                                                "forged end line")),
    *((f"art {k}", case_art(k)) for k in ART),
    ("concurrent", case_concurrent_builds),
    ("rulebook killed", case_rulebook_killed),
    ("out inside watch", case_out_inside_content(True)),
    ("out inside", case_out_inside_content(False)),
    ("symlink diff", case_symlink_committed("diff")),
    ("symlink changelog", case_symlink_committed("changelog")),
    ("serve long", case_serve_long_segment),
    ("duplicate term", case_duplicate_term),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="run the cases whose key holds this")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="tether-attack-") as tmp:
        for i, (key, fn) in enumerate(CASES):
            if args.only not in key:
                continue
            project = Project(Path(tmp), f"p{i}")
            before = cpu()
            try:
                row = fn(project)
            except Exception as exc:  # noqa: BLE001  (the harness's own failure: shown)
                row = Row(key, False, "-", 0.0, f"harness: {type(exc).__name__}: {exc}")
            row.cpu = cpu() - before
            rows.append(row)
            print(f"{'ok  ' if row.ok else 'FAIL'} {row.name} | exit {row.rc} | "
                  f"{row.secs:.1f} s ({row.cpu:.1f} s CPU) | {row.line}", flush=True)
    if args.markdown:
        print("\n| case | result now | exit | time (CPU) |\n|---|---|---|---|")
        for r in rows:
            line = re.sub(r"/tmp/tether-attack-\w+/", "/tmp/…/", r.line.splitlines()[-1]
                          if r.line.startswith("outside") else r.line)
            line = line.replace("|", "\\|").replace(str(ROOT), ".")
            line = line if len(line) <= 150 else line[:149] + "…"
            print(f"| {r.name} | {'ok' if r.ok else '**FAIL**'}: `{line}` | {r.rc} | "
                  f"{r.secs:.1f} s ({r.cpu:.1f} s) |")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
