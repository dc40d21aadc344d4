#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The playground's files over HTTP: GET / and each /static/ asset answer
200 with their Content-Type, the bytes of web/ (a binary built from older
files fails), the security and caching headers; HEAD, If-None-Match (304),
405 for other methods, 404 for unknown files; the page loads nothing that is
not served, and has no inline script, style or event handler (the
Content-Security-Policy would block them). Every response is also held to
openapi.yaml by the harness. Usage: test_playground.py path/to/grundyd.
Prints TAP. (The page itself is tested in a browser by
scripts/browser-test.sh.)"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import REPO_ROOT, Client, Daemon, Tap, run_main  # noqa: E402

TAP = Tap()
WATCHDOG_SECONDS = 55
WEB = os.path.join(REPO_ROOT, "web")

TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
         "css": "text/css; charset=utf-8", "svg": "image/svg+xml"}


def web_files():
    """The playground's files as src/server/mhd/meson.build lists them (the one list)."""
    with open(os.path.join(REPO_ROOT, "src", "server", "mhd", "meson.build"), encoding="utf-8") as f:
        m = re.search(r"^web_files = \[(.*?)\]", f.read(), re.S | re.M)
    return re.findall(r"'([^']+)'", m.group(1))


# The request path of each file: (its name in web/, its Content-Type).
ASSETS = {("/" if n == "index.html" else "/static/" + n): (n, TYPES[n.rsplit(".", 1)[1]]) for n in web_files()}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def read_web(name):
    with open(os.path.join(WEB, name), "rb") as f:
        return f.read()


def t_assets(port):
    c = Client(port)
    p = []
    tags = set()
    for path, (name, ctype) in ASSETS.items():
        r = c.request("GET", path)
        if r.status != 200:
            p.append("GET %s: %r" % (path, r))
            continue
        if r.header("Content-Type") != ctype:
            p.append("GET %s: Content-Type %r, want %r" % (path, r.header("Content-Type"), ctype))
        if r.raw != read_web(name):
            p.append("GET %s: %d bytes, not those of web/%s (%d bytes; a binary built from older files?)"
                     % (path, len(r.raw), name, len(read_web(name))))
        for h, want in (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                        ("Cache-Control", "no-cache"), ("Referrer-Policy", "no-referrer")):
            if r.header(h) != want:
                p.append("GET %s: %s %r, want %r" % (path, h, r.header(h), want))
        tag = r.header("ETag") or ""
        if not re.fullmatch(r'"[0-9a-f]{16}"', tag):
            p.append("GET %s: ETag %r" % (path, tag))
        tags.add(tag)
    if len(tags) != len(ASSETS):
        p.append("the files share entity tags: %r" % sorted(tags))
    c.close()
    return p


def t_head_and_revalidate(port):
    c = Client(port)
    p = []
    for path, (name, ctype) in ASSETS.items():
        h = c.request("HEAD", path)
        if h.status != 200 or h.raw or h.header("Content-Type") != ctype:
            p.append("HEAD %s: %r, Content-Type %r" % (path, h, h.header("Content-Type")))
        if h.header("Content-Length") != str(len(read_web(name))):
            p.append("HEAD %s: Content-Length %r, want %d" % (path, h.header("Content-Length"), len(read_web(name))))
        tag = c.request("GET", path).header("ETag")
        for inm in (tag, "W/" + str(tag), '"0000000000000000", ' + str(tag), "*"):
            r = c.request("GET", path, headers={"If-None-Match": inm})
            if r.status != 304 or r.raw or r.header("ETag") != tag:
                p.append("GET %s with If-None-Match %s: %r, ETag %r" % (path, inm, r, r.header("ETag")))
        r = c.request("GET", path, headers={"If-None-Match": '"0000000000000000"'})
        if r.status != 200 or r.raw != read_web(name):
            p.append("GET %s with another tag: %r, want the file" % (path, r))
    c.close()
    return p


def t_unknown_and_methods(port):
    c = Client(port)
    p = []
    for path in ("/static/nope.js", "/static/", "/static", "/index.html", "/app.js", "/static/app.js/x",
                 "/static/../openapi.yaml", "/STATIC/app.js"):
        r = c.request("GET", path)
        code = ((r.json or {}).get("error") or {}).get("code")
        if r.status != 404 or code != "not_found" or r.header("Content-Type") != "application/json":
            p.append("GET %s: %r, want the 404 not_found" % (path, r))
    for method, path in (("POST", "/"), ("PUT", "/static/app.js"), ("DELETE", "/static/style.css")):
        r = c.request(method, path, "{}" if method != "DELETE" else None)
        if r.status != 405 or r.header("Allow") != "GET, OPTIONS, HEAD":
            p.append("%s %s: %r, Allow %r; want 405 with GET, OPTIONS, HEAD" % (method, path, r, r.header("Allow")))
    r = c.request("OPTIONS", "/")
    if r.status != 204 or r.header("Allow") != "GET, OPTIONS, HEAD":
        p.append("OPTIONS /: %r, Allow %r" % (r, r.header("Allow")))
    c.close()
    return p


def t_page_references(port):
    """Every file the page names is served; no inline script, style or handler."""
    html = read_web("index.html").decode("utf-8")
    p = []
    refs = re.findall(r'\b(?:src|href)="(/[^"]*)"', html)
    # What the page loads: its links, and the modules app.js imports, in turn.
    local = {u for u in refs if u.startswith("/static/")}
    todo = [u for u in local if u.endswith(".js")]
    while todo:
        for name in re.findall(r'^import\b[^;]*?\bfrom "\./([^"]+)";', read_web(todo.pop()[len("/static/"):]).decode(), re.M):
            if "/static/" + name not in local:
                local.add("/static/" + name)
                todo.append("/static/" + name)
    if sorted(local) != sorted(k for k in ASSETS if k != "/"):
        p.append("the page loads %r, the daemon serves %r" % (sorted(local), sorted(ASSETS)))
    refs += sorted(local)
    c = Client(port)
    for u in refs:
        r = c.request("GET", u)
        if r.status != 200:
            p.append("the page links %s, which answers %d" % (u, r.status))
    c.close()
    for m in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S):
        if "src=" not in m.group(1) or m.group(2).strip():
            p.append("inline script: %r" % m.group(0)[:120])
    if re.search(r"<style\b", html):
        p.append("an inline <style> element")
    for attr in re.findall(r"\s(style|on[a-z]+)=", html):
        p.append("an inline %s= attribute" % attr)
    for name in (n for n, _ in ASSETS.values() if n.endswith(".js")):
        js = read_web(name).decode("utf-8")
        for bad in ("eval(", "new Function", "innerHTML", "setAttribute(\"style\"", "style: "):
            if bad in js:
                p.append("%s uses %s (blocked by the CSP, or unsafe)" % (name, bad))
    return p


def t_openapi_lists_the_files(port):
    """openapi.yaml's /static/{asset} enum names exactly the files served."""
    with open(os.path.join(REPO_ROOT, "openapi.yaml"), encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"^  /static/\{asset\}:\n.*?enum:\n((?:\s+- \S+\n)+)", text, re.S | re.M)
    listed = sorted(re.findall(r"- (\S+)", block.group(1))) if block else []
    served = sorted(n for n, _ in ASSETS.values() if n != "index.html")
    return [] if listed == served else ["openapi.yaml lists %r under /static/{asset}, the daemon serves %r" % (listed, served)]


def t_metrics(port):
    c = Client(port)
    c.request("GET", "/")
    text = c.request("GET", "/metrics").raw.decode()
    c.close()
    if not re.search(r'grundyd_requests_total\{route="/",status="200",code=""\} [1-9]', text):
        return ["GET / is not counted under route=\"/\" in /metrics"]
    return []


def main():
    if len(sys.argv) != 2:
        print("usage: test_playground.py path/to/grundyd", file=sys.stderr)
        return 2
    binary = sys.argv[1]

    def body():
        d = Daemon(binary)
        TAP.run("GET / and /static/*: 200, Content-Type, the bytes of web/, security and cache headers",
                t_assets, d.port)
        TAP.run("HEAD, and If-None-Match answered 304 (strong, weak, listed, *)", t_head_and_revalidate, d.port)
        TAP.run("unknown files 404 not_found; other methods 405; OPTIONS 204", t_unknown_and_methods, d.port)
        TAP.run("the page loads only files that are served, with no inline script or style",
                t_page_references, d.port)
        TAP.run("playground requests are counted under route=\"/\"", t_metrics, d.port)
        TAP.run("openapi.yaml's /static/{asset} lists the files src/server/mhd/meson.build serves",
                t_openapi_lists_the_files, d.port)
        d.stop()

    return run_main(TAP, "test_playground.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
