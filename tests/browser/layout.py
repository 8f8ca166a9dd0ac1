"""Measuring a table page's layout for the layout tests: which of the things a player needs (the
result, the hand, the countdown, the action buttons, every banner) are off the first screen, cut
off by a box they scroll in, or covered by another box (a seat, a banner, the sound switch, a
message), at the sizes players use."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import settled

SIZES = {"portrait": (375, 667), "landscape": (667, 375), "desktop": (1280, 800), "wide": (1366, 768)}
PHONES = ("portrait", "landscape")

#: What may cover another box: the seats, the banners of special events, the sound switch, the
#: messages (toasts).
COVERS = [".felt .seat", "[data-testid=highlight]", "[data-testid=sound-toggle]", "[data-testid=toast]"]

#: The longest display names (40 characters, the most a name may have), one per seat.
LONG_NAMES = [f"{'W' * 37}_{i:02d}" for i in range(6)]
WIDE_NAMES = [("庄" * 39) + str(i) for i in range(6)]

_PROBLEMS = """([keep, covers]) => {
  const shown = (e) => {
    if (!e.getClientRects().length) return false;
    for (let a = e; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.visibility === "hidden" || s.opacity === "0" || s.display === "none") return false;
    }
    return true;
  };
  const name = (e) => e.tagName.toLowerCase() + (e.dataset.testid ? "[" + e.dataset.testid + "]" : "")
    + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\\s+/).join(".") : "");
  const W = innerWidth, H = innerHeight, problems = [];
  const coverEls = covers.flatMap((s) => [...document.querySelectorAll(s)]).filter(shown);
  for (const [sel, least] of keep) {
    const els = [...document.querySelectorAll(sel)].filter(shown);
    if (els.length < least) problems.push(`${sel}: ${els.length} shown, ${least} expected`);
    for (const e of els) {
      const r = e.getBoundingClientRect(), box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
      if (r.width <= 0 || r.height <= 0) { problems.push(`${sel} has no size`); continue; }
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
        problems.push(`${sel} at ${box} is off the ${W}×${H} screen`); continue;
      }
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === "visible" && s.overflowY === "visible") continue;
        const q = a.getBoundingClientRect();
        if (r.left < q.left - 1 || r.top < q.top - 1 || r.right > q.right + 1 || r.bottom > q.bottom + 1) {
          problems.push(`${sel} at ${box} is cut off by ${name(a)}`); break;
        }
      }
      for (const c of coverEls) {
        if (c.contains(e) || e.contains(c)) continue;
        const q = c.getBoundingClientRect();
        const x = Math.min(r.right, q.right) - Math.max(r.left, q.left), y = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
        if (x > 1 && y > 1) problems.push(`${sel} at ${box} is covered by ${name(c)} (${x.toFixed(0)}×${y.toFixed(0)} px)`);
      }
      const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      if (hit && !e.contains(hit) && !hit.contains(e)) problems.push(`${sel} at ${box} is under ${name(hit)}`);
    }
  }
  if (document.documentElement.scrollWidth > W) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${W})`);
  return problems;
}"""

_WORST = """([names, highlights]) => {
  const data = Alpine.$data(document.querySelector(".table-page"));
  const frame = data.frame;
  if (frame.hand) frame.hand.players.forEach((p, i) => { p.name = names[i % names.length]; });
  frame.seats.forEach((s) => { s.name = names[s.index % names.length]; });
  if (highlights !== null && frame.hand && frame.hand.view) frame.hand.view.highlights = highlights;
}"""


def worst_case(page: Any, names: list[str], highlights: list[dict[str, Any]] | None = None) -> None:
    """Every seat named by a longest name and, given ``highlights``, the banners the largest
    hand could bring (the page's own frame, edited in place: nothing is sent)."""
    page.evaluate(_WORST, [names, highlights])


def problems(page: Any, name: str, keep: dict[str, int], covers: list[str] | None = None) -> list[str]:
    """What of ``keep`` (selector -> how many at least) is off the first screen or covered, the
    page scrolled to the top; saves a screenshot to ``artifacts/layout-<name>.png``."""
    page.evaluate("() => window.scrollTo(0, 0)")
    settled(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"layout-{name}.png"))
    found = page.evaluate(_PROBLEMS, [list(keep.items()), COVERS if covers is None else covers])
    return [f"{name}: {p}" for p in found]


def at_every_size(page: Any, name: str, keep: Any, sizes: Any = SIZES) -> list[str]:
    """:func:`problems` at each size (``keep`` a mapping, or a function of the size's name)."""
    found: list[str] = []
    for size in sizes:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        found += problems(page, f"{name}-{size}", keep(size) if callable(keep) else keep)
    return found
