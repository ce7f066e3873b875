#!/usr/bin/env python3
"""Clicks through Den in a real headless Chromium, as a person would (README, "Browser front-end").

Usage: walkthrough.py BASE_URL SCREENSHOT_DIR
Run by Tests/EndToEndTests/BrowserEndToEndTests.swift against `den serve --port 0`. Exits 0 when
every step saw what it expected; otherwise prints the failed step, the page's URL and text, and
exits 1. Screenshots of each step are saved at desktop (1280 px) and phone (360 px) widths.
The walk uses the app bar to move between modules: its links at 1280 px, its "Menu" at 360 px.
Uses Debian's chromium and chromium-driver (never a downloaded browser) and PyPI selenium.
"""
import os
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import (ElementNotInteractableException, NoSuchElementException,
                                        StaleElementReferenceException, TimeoutException, WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE, SHOTS = sys.argv[1].rstrip("/"), sys.argv[2]
os.makedirs(SHOTS, exist_ok=True)


def browser(width):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},900"):
        options.add_argument(flag)
    if width < 500:
        # A headless window is never narrower than 500 px: emulate the phone's viewport instead.
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": 800, "pixelRatio": 1}})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Step:
    def __init__(self, driver, width):
        self.driver, self.width, self.count = driver, width, 0

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def expect(self, what, description):
        """Waits up to 30 s for `what` (a string in the page text) and saves a screenshot. A ceiling,
        not a goal: on a loaded machine (the whole test suite in parallel) a page can take seconds."""
        def shows(driver):
            # The page may be replaced while it is read (a redirect, a live swap): read it again.
            try:
                return what in driver.find_element(By.TAG_NAME, "body").text
            except WebDriverException:
                return False
        try:
            WebDriverWait(self.driver, 30).until(shows)
        except TimeoutException:
            print(f"FAILED at {description}: expected {what!r} on {self.driver.current_url}\n--- page text ---\n{self.text()}")
            self.shot(f"FAILED-{description}")
            sys.exit(1)
        self.shot(description)

    def shot(self, description):
        self.count += 1
        name = f"{self.width}px-{self.count:02d}-{description}.png".replace(" ", "-").replace("/", "-")
        self.driver.save_screenshot(os.path.join(SHOTS, name))

    def open(self, route):
        self.driver.get(f"{BASE}/{route}")

    def fill(self, field, value):
        # A live field's change swaps the page's <main> (den.js), which can replace the element
        # between finding and typing (stale, or not interactable while it is swapped): find it
        # again until the value is in. Generous on purpose: a loaded machine is slow.
        for _ in range(20):
            try:
                element = self.driver.find_element(By.NAME, f"f.{field}")
                if element.tag_name == "select":
                    Select(element).select_by_value(value)
                elif element.get_attribute("type") == "date":
                    # A date picker takes keys in the browser's locale order; set the ISO value
                    # and tell den.js it changed, as picking a day does.
                    self.driver.execute_script(
                        "arguments[0].value = arguments[1];"
                        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));"
                        "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", element, value)
                elif element.get_attribute("value") != value:
                    element.clear()
                    element.send_keys(value)
                if self.driver.find_element(By.NAME, f"f.{field}").get_attribute("value") == value:
                    return
            except (StaleElementReferenceException, ElementNotInteractableException):
                pass
            time.sleep(0.3)
        print(f"FAILED: could not type {value!r} into {field} on {self.driver.current_url}")
        sys.exit(1)

    def press(self, label):
        # Let a live field's pending change land first, so the click hits the current page.
        time.sleep(0.4)
        self.click(f"//button[normalize-space()='{label}']")

    def follow(self, label):
        self.click(f"//a[normalize-space()='{label}']")

    def back(self):
        self.click("//form[@action='/_back']//button")

    def menu(self):
        """At phone widths the app bar's entries are behind its Menu toggle: open it (CSS only)."""
        toggle = self.driver.find_element(By.ID, "den-menu-toggle")
        label = self.driver.find_element(By.XPATH, "//label[@for='den-menu-toggle']")
        if self.width < 500:
            if not label.is_displayed():
                print(f"FAILED: no Menu button at {self.width} px on {self.driver.current_url}")
                sys.exit(1)
            if not toggle.is_selected():
                label.click()
        elif label.is_displayed():
            print(f"FAILED: a Menu button at {self.width} px, where the entries should show in a row")
            sys.exit(1)

    def nav(self, title):
        """Follows the app bar's entry whose text starts with `title` (Jogs may say "(log in)")."""
        self.menu()
        self.click(f"//nav[@id='den-nav']//a[starts-with(normalize-space(), '{title}')]")

    def log_out(self):
        self.menu()
        self.click("//nav[@id='den-nav']//form[@action='/_logout']//button")

    def bar(self):
        return self.driver.find_element(By.ID, "den-nav")

    def click(self, xpath):
        # The element may be mid-swap (den.js) or the page still loading: find it again.
        for _ in range(20):
            try:
                self.driver.find_element(By.XPATH, xpath).click()
                return
            except (StaleElementReferenceException, ElementNotInteractableException, NoSuchElementException):
                time.sleep(0.3)
        print(f"FAILED: could not click {xpath} on {self.driver.current_url}\n--- page text ---\n{self.text()}")
        sys.exit(1)


def walkthrough(width, user):
    driver = browser(width)
    try:
        s = Step(driver, width)
        # About, then Main: 100 USD in EUR on the bundled ECB rates, then Info and Back.
        s.open("about")
        s.expect("Installed modules", "about")
        # The app bar: the modules' entries in their order, the current one marked.
        s.menu()
        titles = [a.text for a in s.bar().find_elements(By.XPATH, ".//ul//a")]
        if titles != ["Converter", "Jogs (log in)", "About"]:
            print(f"FAILED: app bar entries {titles!r} at {width} px")
            sys.exit(1)
        if s.bar().find_element(By.XPATH, ".//a[@aria-current='page']").text != "About":
            print("FAILED: About is not marked as the current page")
            sys.exit(1)
        s.shot("app bar")
        s.nav("Converter")
        s.expect("Convert", "main")
        s.fill("from", "USD")
        s.fill("to", "EUR")
        s.fill("amount", "100")
        s.press("Convert")
        s.expect("89.08", "converted")
        # The amount converts as it is typed (den.js posts the change; no button pressed).
        s.fill("amount", "250")
        s.expect("250 USD =", "converted while typing")
        s.press("Info")
        s.expect("Installed modules", "info")
        s.back()
        s.expect("250 USD =", "back on main")
        # A deep link with a bad currency is the module's own message with a 400, never a 500.
        try:
            urllib.request.urlopen(f"{BASE}/convert/1/USD/XXX")
            print("FAILED: /convert/1/USD/XXX was answered 2xx")
            sys.exit(1)
        except urllib.error.HTTPError as error:
            body = error.read().decode()
            if error.code != 400 or "unknown currency" not in body:
                print(f"FAILED: /convert/1/USD/XXX answered {error.code}: {body[:300]}")
                sys.exit(1)
        # Jogs from the app bar while logged out leads to login; create an account there and come back.
        s.nav("Jogs")
        s.expect("Log in to go on to jogs", "jogs needs login")
        # Back names the screen below by its title, not by a route.
        s.expect("to Currency converter", "back named by title")
        s.press("Create account")
        s.expect("Repeat password", "register")
        s.fill("username", user)
        s.fill("password", "Sesame-Opens-42")
        s.fill("repeat", "Sesame-Opens-42")
        s.press("Create account")
        s.expect(f"Jogs of {user}", "jogs list")
        s.follow("New jog")
        s.expect("Distance", "new jog")
        s.fill("date", "2026-11-20")
        s.fill("distance", "5")
        s.fill("duration", "30:00")
        s.press("Save")
        s.expect("Pace 6:00 min/km", "saved jog")
        # A second jog, deleted again: the list says which one went.
        s.follow("All jogs")
        s.expect("1 jog · 5 km · 30:00 · average pace 6:00 min/km", "list with the jog")
        s.follow("New jog")
        s.expect("Distance", "second jog")
        s.fill("date", "2026-11-21")
        s.fill("distance", "3")
        s.fill("duration", "20:00")
        s.press("Save")
        s.expect("Pace 6:40 min/km", "second jog saved")
        s.press("Delete")
        s.press("Delete")
        s.expect("Deleted the jog of 2026-11-21 (3 km).", "list after a delete")
        s.expect("1 jog · 5 km · 30:00 · average pace 6:00 min/km", "only the first jog left")
        # The account in the app bar: the user's name, Change password, Log out.
        s.menu()
        if user not in s.bar().text or "Change password" not in s.bar().text:
            print(f"FAILED: the app bar does not show the account: {s.bar().text!r}")
            sys.exit(1)
        s.shot("account in the app bar")
        s.driver.refresh()
        # Log out from the app bar; jogs leads to the login screen again.
        s.log_out()
        s.expect("logged out", "logged out")
        s.nav("Jogs")
        s.expect("Log in to go on to jogs", "jogs needs login again")
        if "Sesame-Opens-42" in driver.page_source:
            print("FAILED: the password is in the page source")
            sys.exit(1)
    finally:
        driver.quit()


walkthrough(1280, "desk" + str(int(time.time()) % 100000))
walkthrough(360, "phone" + str(int(time.time()) % 100000))
print("browser walkthrough: all steps passed")
