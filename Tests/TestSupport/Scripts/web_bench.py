"""The web benchmark's browser side (make bench BENCH=web, WebBenchmarkTests): one music
server's page — Aubade's own, or Iris on Mopidy — measured in headless Chromium as a phone sees
it (390×844 CSS pixels, device pixel ratio 3, touch), driven by Selenium through Debian's
chromedriver. Run by /usr/bin/python3:

    web_bench.py run --kind aubade|iris --base http://127.0.0.1:PORT --pid PID --player NAME
                     --library MANIFEST.json --runs N --idle-seconds S --work DIR --out OUT.json

The server is already running (started and stopped by the caller, by PID); this script waits
until its library is served whole, puts the library's long track alone in its queue, and then:

1. idle without a page: the server's CPU (utime + stime of it and its children, /proc) over S
   seconds and its VmRSS, VmHWM — nothing has asked it for a page yet;
2. page loads, N times, each in a new browser profile: first a set-up visit (Iris: its welcome
   form saved with usage reporting off; Aubade: its page opened), then the browser's caches
   (HTTP cache, service workers and their Cache Storage) deleted, keeping its storage (Iris's
   settings in IndexedDB); then, in a new browser with a net log, the album grid opened
   ("empty cache"); then again in another new browser on the same profile ("cached"). For each
   load, on the page's own clock (navigation start = 0) in the first animation frame where it
   holds: the first album card on screen, the first cover loaded on screen, and every card on
   screen whose album has a cover showing it (the first screen of covers); the bytes the
   server sent (every socket to its port in Chromium's net log: the page, its scripts,
   covers, API answers, WebSocket and event-stream frames, headers included), from navigation
   until the first screen is complete and the page has fetched nothing for a second; and the
   Resource Timing sum (transferSize, which a service worker's answers leave at 0);
3. search, N times on a freshly loaded search view: the library's search word typed one key
   every 100 ms (Iris searches on Enter, pressed 100 ms after the last letter), timed from the
   last key (keydown) to the first frame showing result rows that contain the word;
4. a change made outside the page: `playerctl -p NAME play-pause`, 2N times (playing, paused…),
   timed from just before playerctl starts (wall clock) to the page applying it (Aubade:
   `window.aubadeLastChange`, set when a `state` event is applied; Iris: a MutationObserver on
   its play button's icon), on the page's clock turned into wall-clock time (timeOrigin + now);
5. idle with the page open (the album grid, paused): as 1.

Writes OUT.json (samples and medians); progress goes to stderr. Stops only what it started: the
browsers (through chromedriver) and playerctl.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT, RATIO = 390, 844, 3.0
KEY_INTERVAL = 0.1


def log(*parts):
    print("web_bench:", *parts, file=sys.stderr, flush=True)


# ---------- the server: HTTP, /proc ----------

def http_json(url, body=None, timeout=30):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.loads(answer.read() or b"null")


def mopidy_rpc(base, method, **params):
    answer = http_json(base + "/mopidy/rpc", {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    if "error" in answer:
        raise RuntimeError(f"{method}: {answer['error']}")
    return answer["result"]


def wait_ready(kind, base, albums, timeout=600):
    """Until the server serves all `albums` albums."""
    deadline = time.monotonic() + timeout
    seen = None
    while time.monotonic() < deadline:
        try:
            if kind == "aubade":
                seen = http_json(base + "/api/albums?offset=0&limit=1").get("total")
            else:
                seen = len(mopidy_rpc(base, "core.library.browse", uri="local:directory?type=album"))
            if seen == albums:
                return
        except Exception as error:  # not listening yet, or still scanning
            seen = repr(error)
        time.sleep(0.25)
    raise SystemExit(f"web_bench: {kind} did not serve {albums} albums within {timeout} s (last: {seen})")


def queue_long_track(kind, base, uri):
    """The long track alone in the queue, stopped."""
    if kind == "aubade":
        http_json(base + "/api/player", {"action": "stop"})
        http_json(base + "/api/queue", {"action": "clear"})
        http_json(base + "/api/queue", {"action": "add", "uris": [uri], "at": "end"})
    else:
        mopidy_rpc(base, "core.playback.stop")
        mopidy_rpc(base, "core.tracklist.clear")
        local = "local:track:" + urllib.parse.quote(uri)
        added = mopidy_rpc(base, "core.tracklist.add", uris=[local])
        if not added:
            raise SystemExit(f"web_bench: Mopidy did not queue {local}")


def tree(pid):
    """pid and its descendants (the FFmpeg helper is Aubade's child)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def cpu_ticks(pid):
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime
    except OSError:
        return 0


def status_kb(pid, field):
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def idle(pid, seconds, settle=5):
    """CPU over `seconds` (after `settle`) and memory at the end, of pid and its children."""
    time.sleep(settle)
    start_pids = tree(pid)
    before = sum(cpu_ticks(p) for p in start_pids)
    started = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    pids = tree(pid)
    after = sum(cpu_ticks(p) for p in pids)
    ticks = os.sysconf("SC_CLK_TCK")
    return {"seconds": round(elapsed, 1),
            "cpuSeconds": round((after - before) / ticks, 3),
            "cpuPercent": round(100 * (after - before) / ticks / elapsed, 3),
            "rssKB": status_kb(pid, "VmRSS"), "hwmKB": status_kb(pid, "VmHWM"),
            "treeRssKB": sum(status_kb(p, "VmRSS") for p in pids), "processes": len(pids)}


# ---------- the browser ----------

def browser(profile, netlog=None):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", f"--window-size={WIDTH},{HEIGHT}", f"--user-data-dir={profile}",
                     "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
                     "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    if netlog:
        options.add_argument(f"--log-net-log={netlog}")
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
        "width": WIDTH, "height": HEIGHT, "pixelRatio": RATIO, "touch": True, "mobile": True}})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(120)
    driver.set_script_timeout(120)
    return driver


def add_probe(driver, script):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})


def wait_for(driver, expression, timeout, what, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script("return " + expression)
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"{what}: not within {timeout} s")


# The grid's cards as each page draws them: the album's name and its cover (an <img> on
# Aubade's page, a background image on Iris's).
CARDS = {
    "aubade": """[...document.querySelectorAll('[data-test=album-card]')].slice(0, 60).map((el) => {
        const img = el.querySelector('img');
        return { el, name: el.dataset.album, loaded: !!(img && img.complete && img.naturalWidth > 0) }; })""",
    "iris": """[...document.querySelectorAll('.grid__item--album')].slice(0, 60).map((el) => {
        const span = el.querySelector('.grid__item__name span'), image = el.querySelector('.thumbnail__image');
        const m = /url\\("?(.*?)"?\\)$/.exec(image ? image.style.backgroundImage : '');
        let loaded = false;
        if (m && m[1] && m[1] !== 'null') {
          const url = new URL(m[1], document.baseURI).href;
          loaded = performance.getEntriesByName(url).some((e) => e.responseEnd > 0);
        }
        return { el, name: span ? span.title : null, loaded }; })""",
}


def grid_probe(kind, covered):
    """Marks, on the page's clock, the first animation frame with a card on screen, with a
    cover loaded on screen, and with every on-screen card whose album has a cover loaded."""
    return """(() => {
  const covered = new Set(%s);
  const cards = () => %s;
  const onScreen = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth; };
  const b = window.__bench = { firstCard: null, firstCover: null, screen: null, screenCovers: 0, lastResource: 0 };
  const tick = () => {
    const visible = cards().filter((c) => onScreen(c.el));
    const now = performance.now();
    if (visible.length && b.firstCard == null) b.firstCard = now;
    if (b.firstCover == null && visible.some((c) => c.loaded)) b.firstCover = now;
    const wanted = visible.filter((c) => covered.has(c.name));
    if (b.screen == null && wanted.length && wanted.every((c) => c.loaded)) { b.screen = now; b.screenCovers = wanted.length; }
    if (b.screen == null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();""" % (json.dumps(covered), CARDS[kind])


def netlog_bytes(path, port):
    """Bytes received from and sent to 127.0.0.1:port on every socket in a Chromium net log."""
    with open(path) as handle:
        text = handle.read()
    try:
        log_data = json.loads(text)
    except json.JSONDecodeError:  # a log cut short: close it
        log_data = json.loads(text.rstrip().rstrip(",") + "]}")
    types = log_data["constants"]["logEventTypes"]
    connect = types["TCP_CONNECT"]
    received, sent = types["SOCKET_BYTES_RECEIVED"], types["SOCKET_BYTES_SENT"]
    ours = set()
    totals = {"received": 0, "sent": 0}
    suffix = f":{port}"
    for event in log_data["events"]:
        kind = event["type"]
        params = event.get("params") or {}
        if kind == connect:
            address = params.get("address") or params.get("remote_address") or ""
            if address.endswith(suffix):
                ours.add(event["source"]["id"])
        elif kind in (received, sent) and event["source"]["id"] in ours:
            totals["received" if kind == received else "sent"] += params.get("byte_count", 0)
    return totals


def clear_caches(profile):
    """The HTTP cache, compiled code, service workers and their Cache Storage; not IndexedDB
    nor localStorage (Iris keeps its settings there)."""
    for name in ["Cache", "Code Cache", "GPUCache", "Service Worker"]:
        shutil.rmtree(os.path.join(profile, "Default", name), ignore_errors=True)


class Page:
    def __init__(self, kind, base):
        self.kind = kind
        self.base = base
        self.port = urllib.parse.urlsplit(base).port
        self.grid_url = base + ("/#/albums" if kind == "aubade" else "/iris/library/albums")
        self.search_url = base + ("/#/search" if kind == "aubade" else "/iris/search")

    def set_up(self, driver):
        if self.kind == "aubade":
            driver.get(self.base + "/")
            wait_for(driver, "document.body.dataset.stateVersion", 60, "Aubade's page: its first state")
            time.sleep(1)
            return
        driver.get(self.base + "/iris/")
        checkbox = wait_for(driver, "document.querySelector('input[name=allow_reporting]')", 60, "Iris's welcome form")
        if checkbox.is_selected():
            driver.execute_script("arguments[0].click()", checkbox)
        driver.find_element(By.CSS_SELECTOR, ".button--primary").click()
        wait_for(driver, "!location.pathname.includes('initial-setup')", 30, "Iris's welcome form saved")
        time.sleep(2)  # its settings written to IndexedDB

    def connected(self, driver):
        if self.kind == "aubade":
            wait_for(driver, "document.body.dataset.stateVersion", 60, "Aubade's page: its first state")
        else:
            wait_for(driver, "document.querySelector('.playback-controls .control.play')", 60, "Iris's play button")
            time.sleep(1)


def load(page, profile, covered, netlog, timeout=60):
    """One load's figures; when the first screen of covers is not complete within `timeout`,
    `screen` is None and `missing` says which cards on screen still lack their cover and what
    the server answers for it now (the run goes on: a benchmark reports, it does not hang)."""
    driver = browser(profile, netlog)
    try:
        add_probe(driver, grid_probe(page.kind, covered))
        driver.get(page.grid_url)
        try:
            wait_for(driver, "window.__bench && window.__bench.screen != null", timeout, f"{page.kind}: the first screen of covers")
        except TimeoutError:
            missing = driver.execute_script("""
                const covered = new Set(arguments[0]);
                return (%s).filter((c) => { const r = c.el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight && covered.has(c.name) && !c.loaded; })
                  .map((c) => { const img = c.el.querySelector('img'), bg = c.el.querySelector('.thumbnail__image');
                    return { name: c.name, src: img ? img.src : (bg ? bg.style.backgroundImage : null),
                             complete: img ? img.complete : null, hidden: img ? img.hidden : null }; });""" % CARDS[page.kind], covered)
            for card in missing:
                source = card.get("src") or ""
                if source.startswith("http"):
                    try:
                        with urllib.request.urlopen(source, timeout=30) as answer:
                            card["now"] = f"{answer.status}, {len(answer.read())} bytes"
                    except Exception as error:
                        card["now"] = repr(error)
            log(page.kind, f"the first screen of covers not complete within {timeout} s; missing: {json.dumps(missing)}")
            result = driver.execute_script("return window.__bench")
            result.update({"screen": None, "missing": missing, "requests": 0, "timingBytes": 0})
            return result
        # Until nothing new was fetched for a second (what the first screen still asks for).
        quiet_since, count = time.monotonic(), -1
        deadline = time.monotonic() + 10
        while time.monotonic() - quiet_since < 1 and time.monotonic() < deadline:
            now = driver.execute_script("return performance.getEntriesByType('resource').length")
            if now != count:
                count, quiet_since = now, time.monotonic()
            time.sleep(0.1)
        result = driver.execute_script("""
            const nav = performance.getEntriesByType('navigation')[0];
            const resources = performance.getEntriesByType('resource');
            return { ...window.__bench, requests: resources.length + 1,
                     timingBytes: (nav ? nav.transferSize : 0) + resources.reduce((s, e) => s + (e.transferSize || 0), 0) };""")
    finally:
        driver.quit()
    result.update(netlog_bytes(netlog, page.port))
    return result


def search_once(driver, page, word):
    driver.get("about:blank")
    driver.get(page.search_url)
    selector = "[data-test=search-input]" if page.kind == "aubade" else ".search-form input"
    field = wait_for(driver, f"document.querySelector('{selector}')", 60, f"{page.kind}: the search field")
    rows = "[data-test=track-row]" if page.kind == "aubade" else ".list__item--track"
    driver.execute_script("""
        const b = window.__search = { lastKey: null, shown: null, rows: 0 };
        document.addEventListener('keydown', () => { b.lastKey = performance.now(); b.shown = null; }, true);
        const word = arguments[0].toLowerCase(), selector = arguments[1];
        const tick = () => {
          if (b.lastKey != null && b.shown == null) {
            const found = [...document.querySelectorAll(selector)].filter((r) => r.textContent.toLowerCase().includes(word));
            if (found.length) { b.shown = performance.now(); b.rows = found.length; }
          }
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);""", word, rows)
    field.click()
    for letter in word:
        field.send_keys(letter)
        time.sleep(KEY_INTERVAL)
    if page.kind == "iris":
        field.send_keys(Keys.ENTER)
    result = wait_for(driver, "window.__search.shown != null && window.__search", 60, f"{page.kind}: search results")
    return result["shown"] - result["lastKey"], result["rows"]


def change_once(driver, page, player):
    """playerctl play-pause → the page showing it; milliseconds."""
    before = driver.execute_script("return window.__change.count")
    started = time.time() * 1000
    subprocess.run(["playerctl", "-p", player, "play-pause"], check=True, timeout=30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = driver.execute_script("return window.__change")
        if state["count"] > before:
            return state["at"] - started
        time.sleep(0.005)
    raise TimeoutError(f"{page.kind}: playerctl play-pause not shown within 30 s")


CHANGE_PROBE = {
    # The page sets aubadeLastChange (performance.now()) whenever it applies a state event.
    "aubade": """
        const c = window.__change = { count: 0, at: null };
        let last = window.aubadeLastChange;
        const poll = () => {
          if (window.aubadeLastChange !== last) { last = window.aubadeLastChange; c.count++; c.at = performance.timeOrigin + last; }
          requestAnimationFrame(poll);
        };
        requestAnimationFrame(poll);
        setInterval(poll, 2);""",
    # Iris swaps its play button's icon (play_circle_filled / pause_circle_filled).
    "iris": """
        const c = window.__change = { count: 0, at: null };
        const box = document.querySelector('.playback-controls .playback');
        const icon = () => { const b = box.querySelector('.control.play'); return b ? b.textContent : ''; };
        let last = icon();
        new MutationObserver(() => {
          const now = icon();
          if (now !== last) { last = now; c.count++; c.at = performance.timeOrigin + performance.now(); }
        }).observe(box, { subtree: true, childList: true, characterData: true });""",
}


def median(values):
    return round(statistics.median(values), 1) if values else None


def run(args):
    with open(args.library) as handle:
        library = json.load(handle)
    covered = library["coveredAlbums"]
    page = Page(args.kind, args.base)
    out = {"kind": args.kind, "base": args.base, "runs": args.runs}

    log(args.kind, "waiting for the library to be served")
    started = time.monotonic()
    wait_ready(args.kind, args.base, library["albums"])
    out["readySeconds"] = round(time.monotonic() - started, 1)
    queue_long_track(args.kind, args.base, library["longTrack"]["uri"])

    log(args.kind, f"idle without a page, {args.idle_seconds} s")
    out["idleNoPage"] = idle(args.pid, args.idle_seconds)

    loads = {"empty": [], "cached": []}
    for number in range(args.runs):
        profile = os.path.join(args.work, f"{args.kind}-profile-{number}")
        shutil.rmtree(profile, ignore_errors=True)
        driver = browser(profile)
        try:
            page.set_up(driver)
        finally:
            driver.quit()
        clear_caches(profile)
        for which in ["empty", "cached"]:
            netlog = os.path.join(args.work, f"{args.kind}-{number}-{which}.netlog.json")
            result = load(page, profile, covered, netlog)
            loads[which].append(result)
            if result["screen"] is None:
                continue
            log(args.kind, f"load {number + 1}/{args.runs} ({which} cache): first cover {result['firstCover']:.0f} ms, "
                f"first screen {result['screen']:.0f} ms ({result['screenCovers']} covers), {result['received']} bytes received, "
                f"{result['requests']} requests")
    out["loads"] = loads

    profile = os.path.join(args.work, f"{args.kind}-profile-0")
    driver = browser(profile)
    try:
        searches = []
        for number in range(args.runs):
            milliseconds, rows = search_once(driver, page, library["searchWord"].lower())
            searches.append({"ms": round(milliseconds, 1), "rows": rows})
            log(args.kind, f"search {number + 1}/{args.runs}: {milliseconds:.0f} ms, {rows} rows")
        out["search"] = searches

        driver.get("about:blank")
        driver.get(page.grid_url)
        page.connected(driver)
        driver.execute_script(CHANGE_PROBE[args.kind])
        changes = []
        for number in range(2 * args.runs):
            milliseconds = change_once(driver, page, args.player)
            changes.append(round(milliseconds, 1))
            log(args.kind, f"play-pause {number + 1}/{2 * args.runs}: {milliseconds:.0f} ms")
            time.sleep(1)
        out["change"] = changes

        log(args.kind, f"idle with the page open, {args.idle_seconds} s")
        out["idlePage"] = idle(args.pid, args.idle_seconds)
    finally:
        driver.quit()

    def figures(which, key):
        return [r[key] for r in loads[which] if r.get("screen") is not None and r.get(key) is not None]
    out["incompleteLoads"] = {which: sum(1 for r in loads[which] if r.get("screen") is None) for which in loads}
    out["medians"] = {
        "firstCoverEmpty": median(figures("empty", "firstCover")),
        "screenEmpty": median(figures("empty", "screen")),
        "bytesEmpty": median(figures("empty", "received")),
        "firstCoverCached": median(figures("cached", "firstCover")),
        "screenCached": median(figures("cached", "screen")),
        "bytesCached": median(figures("cached", "received")),
        "search": median([s["ms"] for s in out["search"]]),
        "change": median(out["change"]),
    }
    with open(args.out + ".tmp", "w") as handle:
        json.dump(out, handle, indent=1, sort_keys=True)
    os.rename(args.out + ".tmp", args.out)
    log(args.kind, "medians", json.dumps(out["medians"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    runner = sub.add_parser("run")
    runner.add_argument("--kind", choices=["aubade", "iris"], required=True)
    runner.add_argument("--base", required=True)
    runner.add_argument("--pid", type=int, required=True)
    runner.add_argument("--player", required=True)
    runner.add_argument("--library", required=True)
    runner.add_argument("--runs", type=int, default=5)
    runner.add_argument("--idle-seconds", type=float, default=30)
    runner.add_argument("--work", required=True)
    runner.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    run(args)


if __name__ == "__main__":
    main()
