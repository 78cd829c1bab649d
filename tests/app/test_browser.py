"""End to end in a real browser: Debian's Chromium, driven by Playwright, against the app started the
way `make run` starts it (streamlit run app.py on 127.0.0.1, a free port, a fresh data dir so the index
is built on the way). Screenshots go to test-artifacts/browser/ for a person to look at."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from codeassist.procs import stop

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-artifacts" / "browser"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOAD_TIMEOUT_MS = 300_000  # first start builds the index in the fresh data dir (slow on a busy 2-core box)

if not CHROMIUM.exists():
    pytest.skip("Debian chromium is not installed at /usr/bin/chromium "
                "(apt-get install -y chromium chromium-driver)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
expect = sync_api.expect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    data_dir = os.environ.get("CODEASSIST_TEST_APP_DATA_DIR") or str(tmp_path_factory.mktemp("app-data"))
    env = {**os.environ, "CODEASSIST_DATA_DIR": data_dir, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "ANONYMIZED_TELEMETRY": "False"}
    SHOTS.mkdir(parents=True, exist_ok=True)
    log = open(SHOTS / "server.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit did not become healthy; see {SHOTS / 'server.log'}")
            time.sleep(0.3)
        yield base
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


def shot(page, name: str) -> None:
    page.wait_for_timeout(500)  # let Streamlit finish painting
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def wait_idle(page) -> None:
    """Until the current script run has finished (call it after waiting for something the run shows)."""
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=LOAD_TIMEOUT_MS)


def test_resident_asks_reads_the_source_and_uses_a_calculator(server, page):
    # 1. A resident asks a question on the chat page.
    page.goto(server + "/")
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_enabled(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    shot(page, "01-chat-ready")
    box.fill("Do I need a permit to replace a light switch in my house in Tuckahoe?")
    box.press("Enter")
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(2, timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    answer = messages.nth(1)
    expect(answer).to_contain_text("permit")
    expect(answer).to_contain_text("Tuckahoe Code \u00a7 7-5")
    shot(page, "02-answer")

    # 2. The citation expands to the provision with the quoted words highlighted and a link to its page.
    citation = answer.get_by_test_id("stExpander").filter(has_text="[1] Tuckahoe Code")
    citation.locator("summary").first.click()
    body = citation.get_by_test_id("stExpanderDetails")
    expect(body).to_be_visible()
    expect(body).to_contain_text("Open Tuckahoe Code")
    highlighted = body.locator("span[class*='st-emotion'], span[style*='background']").first
    expect(highlighted).to_be_visible()
    citation.scroll_into_view_if_needed()
    shot(page, "03-citation-expanded")
    with page.context.expect_page() as opened:
        body.get_by_role("link", name="Open Tuckahoe Code").click()
    tab = opened.value
    expect(tab.get_by_role("heading", name="Browse the ordinances")).to_be_visible(timeout=60_000)
    tab.close()

    # 3. A deep link opens the provision in Browse.
    page.goto(server + "/?cite=tuckahoe:7B-5(c)")
    # a fresh page runs the app script again: on a busy machine that takes longer than expect's 5 s default
    expect(page.get_by_role("heading", name="Tuckahoe Code \u00a7 7B-5(c)")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Routine maintenance activities that disturb fewer than five acres").first).to_be_visible()
    assert "cite=" in page.url
    wait_idle(page)
    shot(page, "04-deep-link")

    # 4. A calculator form: does the stormwater law apply to 2 acres in Hempstead?
    page.goto(server + "/calculators")
    form = page.get_by_test_id("stForm")
    expect(form).to_be_visible()
    form.get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="Hempstead").click()
    acres = form.get_by_role("spinbutton", name="Disturbed acres (optional)")
    acres.fill("2")
    acres.press("Tab")
    form.get_by_role("button", name="Calculate").click()
    expect(page.get_by_role("heading", name="Result")).to_be_visible()
    expect(page.get_by_text("SWPPP required:")).to_be_visible()
    wait_idle(page)
    steps = page.get_by_test_id("stExpander").filter(has_text="How this was worked out")
    steps.locator("summary").first.click()
    expect(steps.get_by_role("link", name="Hempstead BZO").first).to_be_visible()  # each step cites its provision
    page.get_by_test_id("stDownloadButton").last.scroll_into_view_if_needed()
    shot(page, "05-calculator-result")


def test_deep_link_on_a_phone(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server + "/?cite=hempstead:391(B)(1)")
        expect(page.get_by_role("heading", name="Hempstead BZO \u00a7 391(B)(1)")).to_be_visible(timeout=60_000)
        wait_idle(page)
        shot(page, "06-phone-deep-link")
    finally:
        context.close()


def test_chat_shows_the_plain_answer_first_and_the_law_on_request(server, page):
    """What a reader meets first in an answer is the plain answer, then the "Summary" label; the verbatim
    law sits in an expander titled with its citation and opens on a click."""
    page.goto(server + "/")
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_enabled(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    messages = page.get_by_test_id("stChatMessage")
    asked = [("Who may prepare and sign a SWPPP in Hempstead?", "07-answer-swppp"),
             ("Can the Town of Hempstead shut down my construction site?", "08-answer-shut-down"),
             ("Compare stop-work orders in Hempstead and Tuckahoe.", "09-answer-compare")]
    for i, (question, name) in enumerate(asked):
        box.fill(question)
        box.press("Enter")
        expect(messages).to_have_count(2 * i + 2, timeout=LOAD_TIMEOUT_MS)
        wait_idle(page)
        answer = messages.nth(2 * i + 1)
        content = answer.get_by_test_id("stChatMessageContent")
        first_line = content.inner_text().strip().splitlines()[0]
        assert not first_line.startswith(("What the law says", "Summary", "Sources", "[1]")), first_line
        expect(answer.get_by_text("Summary \u2014 our plain-language reading", exact=False).first).to_be_visible()
        law = answer.get_by_test_id("stExpander").filter(has_text="What the law says").first
        expect(law).to_contain_text("Hempstead BZO")
        answer.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        answer.screenshot(path=str(SHOTS / f"{name}.png"))
        if i == 0:
            assert "licensed" in first_line  # the key fact is in the first line
            law.locator("summary").first.click()
            expect(law.get_by_test_id("stExpanderDetails")).to_contain_text("Plan certification.")
            page.wait_for_timeout(500)
            answer.screenshot(path=str(SHOTS / f"{name}-law-open.png"))
    shot(page, "10-chat-answers")
