#!/usr/bin/env python3
"""A real browser for the page's tests: Debian's chromium, headless, driven through Debian's
chromedriver (named explicitly, never looked up) by python3-selenium. One request a line on
stdin, one answer a line on stdout, both JSON, until stdin ends or {"op": "quit"}:

    web_browser.py WIDTH HEIGHT PIXEL_RATIO

    {"op": "get", "url": U}                       opens U
    {"op": "script", "js": JS, "args": [...]}     runs JS (a function body: `return …`), its value
    {"op": "click", "css": C, "wait": S}          WebDriver's click on the first match (it must be
                                                  shown and not covered, as a finger needs it),
                                                  waiting up to S seconds (10) for one
    {"op": "type", "css": C, "text": T, "wait": S}  clears the field, then types T as keys
    {"op": "drag", "css": C, "dy": N, "wait": S}  presses on C, moves N CSS pixels down in steps
                                                  (up when negative), lets go: a pointer drag
    {"op": "screenshot", "path": P}               the viewport as a PNG
    {"op": "alert"}                               the text of an open alert(), or null
    {"op": "quit"}
    -> {"ok": true, "value": …} or {"ok": false, "error": "…"}

The window is a phone's (chromedriver's mobileEmulation: WIDTH×HEIGHT CSS pixels at
PIXEL_RATIO, touch and a mobile viewport): headless Chrome's own window cannot be narrower than
about 500 pixels. Chromium's profile and its temporary files are in a folder of its own under
TMPDIR, removed at the end.

By hand: printf '{"op":"get","url":"http://127.0.0.1:6680/"}\\n{"op":"script","js":"return document.title"}\\n' \\
    | python3 web_browser.py 390 844 3
"""
import json
import os
import shutil
import signal
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def start(width, height, ratio, work):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                     "--disable-background-networking", "--disable-sync", "--disable-component-update",
                     "--mute-audio", "--password-store=basic", "--use-mock-keychain",
                     "--user-data-dir=" + os.path.join(work, "profile"), "--window-size=800,1000"):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": ratio, "touch": True, "mobile": True},
    })
    service = Service(executable_path=CHROMEDRIVER, log_path=os.path.join(work, "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
    return driver


def find(driver, request, clickable=False):
    """The first element matching request["css"], waiting up to request["wait"] seconds for one
    (shown and enabled, when it is to be clicked): the page draws what it fetched a moment later."""
    locator = (By.CSS_SELECTOR, request["css"])
    condition = (expected_conditions.element_to_be_clickable if clickable
                 else expected_conditions.presence_of_element_located)(locator)
    try:
        return WebDriverWait(driver, float(request.get("wait", 10)), poll_frequency=0.02).until(condition)
    except TimeoutException:
        present = driver.find_elements(*locator)
        state = "present but hidden, covered or disabled" if present else "not in the page"
        raise TimeoutException("%s: %s after %s s" % (request["css"], state, request.get("wait", 10)))


def handle(driver, request):
    op = request.get("op")
    if op == "get":
        driver.get(request["url"])
        return None
    if op == "script":
        return driver.execute_script(request["js"], *request.get("args", []))
    if op == "click":
        element = find(driver, request, clickable=True)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return None
    if op == "type":
        element = find(driver, request)
        element.clear()
        element.send_keys(request["text"])
        return None
    if op == "drag":
        element = find(driver, request)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        steps, dy = 8, int(request["dy"])
        chain = ActionChains(driver, duration=20).click_and_hold(element)
        moved = 0
        for step in range(1, steps + 1):
            target = dy * step // steps
            chain.move_by_offset(0, target - moved)
            moved = target
        chain.release().perform()
        return None
    if op == "screenshot":
        return driver.save_screenshot(request["path"])
    if op == "alert":
        try:
            return driver.switch_to.alert.text
        except NoAlertPresentException:
            return None
    raise ValueError("unknown op %r" % op)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    width, height, ratio = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    # Stopped by PID (SIGTERM): quit Chromium and remove the folder all the same.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="aubade-browser-")
    # Chromium's own temporary files (shared memory with --disable-dev-shm-usage, crash dumps)
    # go to TMPDIR: this folder, removed at the end.
    os.environ["TMPDIR"] = work
    driver = None
    try:
        driver = start(width, height, ratio, work)
        print(json.dumps({"ok": True, "value": driver.capabilities.get("browserVersion")}), flush=True)
        for line in sys.stdin:
            if not line.strip():
                continue
            request = json.loads(line)
            if request.get("op") == "quit":
                break
            try:
                answer = {"ok": True, "value": handle(driver, request)}
            except Exception as error:  # every failure is an answer: the test says what it means
                answer = {"ok": False, "error": "%s: %s" % (type(error).__name__, str(error).strip()[:2000])}
            print(json.dumps(answer), flush=True)
    except Exception as error:
        print(json.dumps({"ok": False, "error": "%s: %s" % (type(error).__name__, error)}), flush=True)
        log = os.path.join(work, "chromedriver.log")
        if os.path.exists(log):
            with open(log, errors="replace") as handle_:
                sys.stderr.write(handle_.read()[-4000:])
        sys.exit(1)
    finally:
        if driver is not None:
            try:
                driver.quit()
            except Exception:
                pass
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
