#!/usr/bin/env python3
"""A page refreshes itself after a hot swap, in a real headless Chromium (docs/HOT_SWAP.md).

Usage: hotswap.py BASE_URL SCREENSHOT_DIR PLUGIN_FILE V2_LIBRARY BROKEN_LIBRARY
Run by Tests/EndToEndTests/HotSwapBrowserTests.swift against `den serve --watch` serving the swap
fixture from PLUGIN_FILE's folder. The script presses Add twice, then installs V2_LIBRARY over
PLUGIN_FILE (as a build would: a new file renamed into place) and, without touching the page,
waits for it to show v2 with the count kept; then installs BROKEN_LIBRARY and waits for the
error banner while v2 stays on the page. Exits 0 when every step saw what it expected.
"""
import os
import shutil
import sys

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE, SHOTS, PLUGIN, V2, BROKEN = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
os.makedirs(SHOTS, exist_ok=True)


def install(library):
    partial = os.path.join(os.path.dirname(PLUGIN), ".swap-install.tmp")
    shutil.copyfile(library, partial)
    os.rename(partial, PLUGIN)


def main():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    step = 0

    def expect(what, description, seconds=60):
        nonlocal step
        def shows(d):
            try:
                return what in d.find_element(By.TAG_NAME, "body").text
            except WebDriverException:
                return False
        try:
            WebDriverWait(driver, seconds).until(shows)
        except TimeoutException:
            print(f"FAILED at {description}: expected {what!r}\n--- page text ---\n{driver.find_element(By.TAG_NAME, 'body').text}")
            sys.exit(1)
        step += 1
        driver.save_screenshot(os.path.join(SHOTS, f"hotswap-{step:02d}-{description}.png".replace(" ", "-")))

    def listening(description, seconds=60):
        """Waits until den-dev.js listens to the server's events: a swap before that reloads nothing."""
        try:
            WebDriverWait(driver, seconds).until(
                lambda d: d.execute_script("return document.documentElement.getAttribute('data-den-dev');") == "connected")
        except TimeoutException:
            print(f"FAILED at {description}: the page never connected to /_dev/events")
            sys.exit(1)

    try:
        driver.get(f"{BASE}/swap/5")
        expect("swap v1", "v1 open")
        for count in (6, 7):
            driver.find_element(By.XPATH, "//button[normalize-space()='Add']").click()
            expect(f"count {count}", f"pressed to {count}")
        marker = driver.execute_script("window.denBeforeSwap = true; return window.denBeforeSwap;")
        assert marker
        listening("v1 page listens")
        install(V2)
        expect("swap v2", "reloaded by itself with v2")
        expect("count 7", "count kept")
        if driver.execute_script("return window.denBeforeSwap === true;"):
            print("FAILED: the page did not reload (the marker set before the swap is still there)")
            sys.exit(1)
        listening("v2 page listens")
        install(BROKEN)
        expect("ABI version 99", "error banner")
        expect("swap v2", "v2 still shown")
        print("hot swap browser test: all steps passed")
    finally:
        driver.quit()


main()
