"""Pictures of a scene (``core.scene``): the table drawn with Pillow as an RGB array.

Usage::

    env = cardenvs.make("esel-v0", render_mode="rgb_array", render_seat="current")
    env.reset(seed=0)
    frame = env.render()                 # uint8, shape SHAPE = (640, 960, 3)
    frame = env.unwrapped.picture(seat=1)
    from cardenvs.core.picture import image
    image(env.unwrapped.scene()).save("table.png")

``draw(scene)`` returns the array, ``image(scene)`` the Pillow image. The picture has a fixed
size (``SIZE``, width by height). The left part is the table: the seats around it, the viewer's
seat (seat 0 in the open view) at the bottom and the others clockwise from it in seat order
(the next seat on the left, as play passes); each seat has a name plate (name, role, score; gold
for the seat to act), its short facts and its hand (face-down cards for what the viewer cannot
see); a greyed plate marks a seat out of the deal. The cards on the table now (the trick, the
Banque bank) lie in a row in the middle in the order they were played, each named by its
player. The panel on the right holds the title, the phase, whose view it is, the game's info
lines, the last trick and the piles (talon, stock, discards: face-up cards fanned, face-down ones
stacked, with their counts). Once the game is over a banner in the middle says who won.

Method: cards are drawn by this module (rounded white cards with the rank and a suit shape in
red or black, court cards framed, jokers with a star; the back a blue lattice), each size once at
four times the size and scaled down (smooth edges), then kept; suits are drawn as shapes, so any
font will do. Text uses DejaVu Sans where the system has it, else Pillow's own scalable font
(Pillow 10.1 or later), else its bitmap font. Nothing is downloaded.

Pillow is imported by the first picture drawn, not with this module, so that the front ends
(``core.vector``, ``core.aec``) and whatever reads this module's sizes and colours (the record
viewer, ``cardenvs.ui.view``) never load it for nothing. ``python -m cardenvs.ui.picture`` draws
the table of a game from the command line.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

SIZE = (960, 640)  # width, height
SHAPE = (SIZE[1], SIZE[0], 3)  # of the array ``draw`` returns
TABLE_W = 680  # the table's width; the panel takes the rest
SUPER = 4  # card sprites are drawn this many times larger, then scaled down

FELT = (22, 94, 58)
FELT_DARK = (14, 66, 40)
PANEL = (28, 34, 40)
PANEL_LINE = (70, 80, 90)
TEXT = (236, 240, 236)
MUTED = (170, 186, 176)
GOLD = (244, 197, 66)
PLATE = (10, 48, 30)
PLATE_OUT = (72, 80, 76)
RED = (200, 28, 40)
BLACK = (22, 22, 26)
JOKER = (118, 52, 170)
BACK = (36, 70, 150)
BACK_LINE = (94, 130, 206)

CARD_L = (60, 86)
CARD_M = (50, 72)
CARD_S = (38, 55)
SUIT_NAMES = "SHDC"


# --- fonts -------------------------------------------------------------------------------------
@functools.cache
def font(size: int, bold: bool = False):
    """DejaVu Sans (bold) at ``size`` pixels if the system has it, else Pillow's own font."""
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        pass
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: the bitmap font only
        return ImageFont.load_default()


def _fit(d: ImageDraw.ImageDraw, text: str, f, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if d.textlength(text, font=f) <= width:
        return text
    while text and d.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def _wrap(d: ImageDraw.ImageDraw, words: list[str], f, width: float, sep: str = "  ·  "):
    """``words`` joined by ``sep`` into lines of at most ``width`` pixels."""
    lines, cur = [], ""
    for w in words:
        cand = w if not cur else cur + sep + w
        if cur and d.textlength(cand, font=f) > width:
            lines.append(cur)
            cur = w
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines


# --- suits and cards ---------------------------------------------------------------------------
def _suit(d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float, fill) -> None:
    """A suit shape of height about ``s`` centred on (``cx``, ``cy``)."""
    if suit == "D":
        d.polygon(
            [(cx, cy - s / 2), (cx + s * 0.38, cy), (cx, cy + s / 2), (cx - s * 0.38, cy)], fill
        )
        return
    r = s * 0.26
    if suit == "H":
        for dx in (-1, 1):
            x, y = cx + dx * s * 0.235, cy - s * 0.2
            d.ellipse([x - r, y - r, x + r, y + r], fill)
        d.polygon(
            [(cx - s * 0.49, cy - s * 0.13), (cx + s * 0.49, cy - s * 0.13), (cx, cy + s * 0.48)],
            fill,
        )
        return
    if suit == "S":
        for dx in (-1, 1):
            x, y = cx + dx * s * 0.235, cy + s * 0.1
            d.ellipse([x - r, y - r, x + r, y + r], fill)
        d.polygon(
            [(cx - s * 0.49, cy + s * 0.03), (cx + s * 0.49, cy + s * 0.03), (cx, cy - s * 0.5)],
            fill,
        )
    else:  # clubs
        r = s * 0.215
        for x, y in (
            (cx, cy - s * 0.24),
            (cx - s * 0.25, cy + s * 0.06),
            (cx + s * 0.25, cy + s * 0.06),
        ):
            d.ellipse([x - r, y - r, x + r, y + r], fill)
        d.ellipse([cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7], fill)
    d.polygon(
        [(cx, cy - s * 0.05), (cx - s * 0.17, cy + s * 0.5), (cx + s * 0.17, cy + s * 0.5)], fill
    )


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill) -> None:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.42
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill)


@functools.cache
def card_image(card: str | None, w: int, h: int) -> Image.Image:
    """The RGBA sprite of ``card`` (a card string; None: the back) at ``w`` x ``h`` pixels."""
    from PIL import Image, ImageDraw

    k = SUPER
    W, H = w * k, h * k
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    rad = max(3, int(w * 0.11)) * k
    if card is None:
        d.rounded_rectangle(
            [0, 0, W - 1, H - 1], rad, fill=(250, 250, 250), outline=(90, 90, 90), width=k
        )
        m = 3 * k
        inner = Image.new("RGBA", (W - 2 * m, H - 2 * m), BACK + (255,))
        di = ImageDraw.Draw(inner)
        step = 7 * k
        for x in range(-H, W + H, step):
            di.line([(x, 0), (x + H, H)], fill=BACK_LINE, width=k)
            di.line([(x, H), (x + H, 0)], fill=BACK_LINE, width=k)
        mask = Image.new("L", inner.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            [0, 0, inner.size[0] - 1, inner.size[1] - 1], max(k, rad - m), fill=255
        )
        im.paste(inner, (m, m), mask)
        return im.resize((w, h), Image.LANCZOS)
    d.rounded_rectangle(
        [0, 0, W - 1, H - 1], rad, fill=(252, 252, 250), outline=(110, 110, 110), width=k
    )
    if card.startswith("JK"):
        colour = JOKER
        rank, suit = "JK", None
    else:
        rank, suit = card[:-1], card[-1]
        colour = RED if suit in "HD" else BLACK
    f = font(int(w * (0.30 if len(rank) < 2 else 0.27)) * k, True)
    x0, y0 = int(w * 0.07) * k, int(h * 0.04) * k
    d.text((x0, y0), rank, font=f, fill=colour)
    bottom = y0 + f.getbbox(rank)[3]
    small = w * 0.2 * k
    cx_idx = x0 + d.textlength(rank, font=f) / 2
    if suit is not None:
        _suit(d, suit, cx_idx, bottom + small * 0.75, small, colour)
    big = h * 0.36 * k
    cx, cy = W / 2 + w * 0.06 * k, H * 0.58
    if suit is None:
        _star(d, cx, cy, big * 0.55, colour)
    elif rank in ("J", "Q", "K"):
        fw, fh = w * 0.46 * k, h * 0.5 * k
        box = [cx - fw / 2, cy - fh / 2, cx + fw / 2, cy + fh / 2]
        d.rounded_rectangle(box, 2 * k, fill=(250, 242, 214), outline=colour, width=k)
        fb = font(int(h * 0.22) * k, True)
        d.text((cx, cy - fh * 0.12), rank, font=fb, fill=colour, anchor="mm")
        _suit(d, suit, cx, cy + fh * 0.27, fh * 0.28, colour)
    else:
        _suit(d, suit, cx, cy, big, colour)
    return im.resize((w, h), Image.LANCZOS)


def _paste(im: Image.Image, card, x: float, y: float, size) -> None:
    sprite = card_image(card, *size)
    im.paste(sprite, (int(x), int(y)), sprite)


# --- layout ------------------------------------------------------------------------------------
# seat boxes (x, y, w, h) by relative place, clockwise from the bottom, per number of seats
_BOTTOM = (20, 452, 640, 182)
_BOXES = {
    1: [_BOTTOM],
    2: [_BOTTOM, (20, 8, 640, 156)],
    3: [_BOTTOM, (10, 8, 322, 160), (348, 8, 322, 160)],
    4: [_BOTTOM, (8, 176, 178, 268), (170, 8, 340, 156), (494, 176, 178, 268)],
    5: [
        _BOTTOM,
        (8, 198, 172, 246),
        (10, 8, 322, 156),
        (348, 8, 322, 156),
        (500, 198, 172, 246),
    ],
}
# the middle of the table (x, y, w, h), where the trick lies
_MIDDLE = {
    1: (20, 170, 640, 276),
    2: (20, 170, 640, 276),
    3: (20, 176, 640, 270),
    4: (190, 170, 300, 276),
    5: (184, 170, 312, 276),
}


def _background() -> Image.Image:
    return _background_cached().copy()


@functools.lru_cache(maxsize=1)
def _background_cached() -> Image.Image:
    from PIL import Image, ImageDraw

    w, h = SIZE
    k = 2
    im = Image.new("RGB", (w * k, h * k), FELT_DARK)
    d = ImageDraw.Draw(im)
    # the felt: lighter towards the middle
    cx, cy = TABLE_W * k / 2, h * k / 2
    for i in range(24, 0, -1):
        t = i / 24
        c = tuple(int(a + (b - a) * (1 - t)) for a, b in zip(FELT_DARK, FELT, strict=True))
        rx, ry = TABLE_W * k * 0.75 * t, h * k * 0.8 * t
        d.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=c)
    d.rectangle([TABLE_W * k, 0, w * k, h * k], fill=PANEL)
    d.line([(TABLE_W * k, 0), (TABLE_W * k, h * k)], fill=PANEL_LINE, width=2 * k)
    return im.resize((w, h), Image.LANCZOS)


def _hand_layout(n: int, aw: float, ah: float, sizes, face_up: bool):
    """(card size, cards per row, step across, step down) fitting ``n`` cards in ``aw`` x ``ah``."""
    min_step = 21 if face_up else 9
    for cw, ch in sizes:
        for rows in (1, 2, 3):
            per = max(1, math.ceil(n / rows))
            step = cw + 4 if per == 1 else min(cw + 4, (aw - cw) / (per - 1))
            down = ch * 0.62
            if step >= min_step and ch + (rows - 1) * down <= ah:
                return (cw, ch), per, step, down
    cw, ch = sizes[-1]
    rows = max(1, int((ah - ch) // (ch * 0.62)) + 1)
    per = max(1, math.ceil(n / rows))
    step = cw if per == 1 else (aw - cw) / (per - 1)
    return (cw, ch), per, step, ch * 0.62


def _cards_block(im, cards, x, y, aw, ah, sizes, centre: bool = True) -> float:
    """Draw ``cards`` (strings, None face down) in rows inside the box; returns the width used."""
    if not cards:
        return 0.0
    face_up = any(c is not None for c in cards)
    (cw, ch), per, step, down = _hand_layout(len(cards), aw, ah, sizes, face_up)
    rows = [cards[i : i + per] for i in range(0, len(cards), per)]
    width = cw + step * (min(per, len(cards)) - 1)
    left = x + (aw - width) / 2 if centre else x
    for r, row in enumerate(rows):
        for i, c in enumerate(row):
            _paste(im, c, left + i * step, y + r * down, (cw, ch))
    return width


def _plate(d, x, y, w, seat: dict, to_act: bool, viewer: bool) -> str:
    """The seat's name plate; returns the role text that did not fit on it ("" if it did)."""
    fill = GOLD if to_act else (PLATE if seat["active"] else PLATE_OUT)
    ink = BLACK if to_act else TEXT
    d.rounded_rectangle([x, y, x + w, y + 24], 7, fill=fill, outline=GOLD if viewer else None)
    fb, fr = font(14, True), font(12)
    score = seat["score"]
    sw = d.textlength(score, font=fb) if score else 0
    name = seat["name"] + (" ▸" if to_act else "")
    d.text((x + 8, y + 4), name, font=fb, fill=ink)
    nx = x + 8 + d.textlength(name, font=fb) + 7
    parts = [seat["role"], "" if seat["active"] else "out", "view" if viewer else ""]
    role = " · ".join(p for p in parts if p)
    if score:
        d.text((x + w - 8 - sw, y + 4), score, font=fb, fill=ink)
    if role and d.textlength(role, font=fr) > x + w - nx - sw - 14:
        return role  # too long for the plate: the caller shows it under it
    if role:
        d.text((nx, y + 6), role, font=fr, fill=ink)
    return ""


def _seat(im, d, box, seat: dict, to_act: bool, viewer: bool, bottom: bool) -> None:
    x, y, w, h = box
    role = _plate(d, x, y, w, seat, to_act, viewer)
    f = font(12)
    lines = _wrap(d, ([role] if role else []) + seat["lines"], f, w - 8)[:2]
    ty = y + 28
    for line in lines:
        d.text((x + 4, ty), line, font=f, fill=MUTED)
        ty += 15
    top = y + 28 + 15 * max(1, len(lines)) + 2
    sizes = (CARD_L, CARD_M, CARD_S) if bottom else (CARD_M, CARD_S)
    hand, exposed = seat["hand"], seat["exposed"]
    avail_h = y + h - top
    if exposed:
        _hand_and_exposed(im, d, hand, exposed, (x, top, w, avail_h), sizes)
    elif hand:
        _cards_block(im, hand, x, top, w, avail_h, sizes)
    else:
        d.text((x + w / 2, top + 10), "no cards", font=f, fill=MUTED, anchor="mt")


def _hand_and_exposed(im, d, hand, exposed, box, sizes) -> None:
    """A Four Aces seat: the hidden hand and the exposed hand, each named under it; side by side
    where the box is wide, else one above the other."""
    x, y, w, h = box
    fs = font(11)
    groups = [(g, name) for g, name in ((hand, "hand"), (exposed, "exposed")) if g]
    gap = 26
    if w >= 300:  # side by side, one step for both
        n = sum(len(g) for g, _ in groups)
        for cw, ch in sizes:
            room = w - gap * (len(groups) - 1) - cw * len(groups)
            step = min(cw + 5, room / max(1, n - len(groups)))
            if (step >= 21 and ch + 14 <= h) or (cw, ch) == sizes[-1]:
                break
        widths = [cw + step * (len(g) - 1) for g, _ in groups]
        left = x + (w - sum(widths) - gap * (len(groups) - 1)) / 2
        for (g, name), gw in zip(groups, widths, strict=True):
            for i, c in enumerate(g):
                _paste(im, c, left + i * step, y, (cw, ch))
            d.text((left + gw / 2, y + ch + 2), name, font=fs, fill=MUTED, anchor="mt")
            left += gw + gap
        return
    row_h = (h - 14 * len(groups)) / len(groups)
    for k, (g, name) in enumerate(groups):
        top = y + k * (row_h + 14)
        fitting = [s for s in sizes if s[1] <= row_h] or [sizes[-1]]
        _cards_block(im, g, x, top, w, row_h, fitting)
        ch = _hand_layout(len(g), w, row_h, fitting, any(c is not None for c in g))[0][1]
        d.text((x + w / 2, top + ch + 1), name, font=fs, fill=MUTED, anchor="mt")


def _row_of_plays(im, d, plays, box, size, label_size: int = 12, names=None) -> None:
    """Cards in a row centred in ``box``, each with its player's name under it."""
    x, y, w, h = box
    n = len(plays)
    if n == 0:
        return
    cw, ch = size
    step = min(cw + 12, (w - cw) / max(1, n - 1))
    width = cw + step * (n - 1)
    left = x + (w - width) / 2
    top = y + (h - ch - label_size - 4) / 2
    f = font(label_size)
    for i, p in enumerate(plays):
        _paste(im, p["card"], left + i * step, top, size)
    for i, p in enumerate(plays):
        who = "no owner" if p["seat"] is None else f"player_{p['seat']}"
        who = (names or {}).get(p["seat"], who)
        if step < cw:
            who = "·" if p["seat"] is None else f"p{p['seat']}"
            cx = left + i * step + min(step, cw) / 2
        else:
            cx = left + i * step + cw / 2
        text = _fit(d, who, f, max(step, 12) + (cw - step if i == n - 1 and step < cw else 0))
        d.text((cx, top + ch + 3), text, font=f, fill=TEXT, anchor="mt")


def _pile(im, d, p: dict, x, y, w) -> float:
    """A pile in the panel at (x, y), ``w`` wide; returns its height."""
    f = font(12)
    label = f"{p['name']} · {p['count']}"
    d.text((x, y), _fit(d, label, f, w), font=f, fill=MUTED)
    cards = p["cards"]
    top = y + 17
    cw, ch = CARD_S
    if not cards:
        d.rounded_rectangle([x, top, x + cw, top + ch], 5, outline=PANEL_LINE, width=1)
        return ch + 22
    if all(c is None for c in cards):
        shown = min(len(cards), 10)
        for i in range(shown):
            _paste(im, None, x + 2 * i, top - 0.0 * i, (cw, ch))
        return ch + 22
    fit = max(1, int((w - cw) // 17) + 1)
    more = len(cards) - fit
    if more > 0:
        d.text((x, top + ch / 2), f"+{more}", font=font(12, True), fill=MUTED, anchor="lm")
        x0, cards = x + 26, cards[-fit + 1 :] if fit > 1 else cards[-1:]
    else:
        x0 = x
    step = min(cw + 3, (x + w - x0 - cw) / max(1, len(cards) - 1))
    for i, c in enumerate(cards):
        _paste(im, c, x0 + i * step, top, (cw, ch))
    return ch + 22


def _panel(im, d, scene: dict) -> None:
    x, w = TABLE_W + 14, SIZE[0] - TABLE_W - 26
    y = 12
    for line in _wrap(d, scene["title"].split(" "), font(17, True), w, " ")[:2]:
        d.text((x, y), line, font=font(17, True), fill=TEXT)
        y += 22
    f = font(13)
    to_act = scene["to_act"]
    status = [f"phase: {scene['phase']}"]
    if to_act is not None:
        status.append(f"to act: player_{to_act}")
    # on two lines where one is too narrow ("phase: reduce exposed  ·  to act: player_3")
    for line in _wrap(d, status, f, w):
        d.text((x, y + 2), _fit(d, line, f, w), font=f, fill=GOLD)
        y += 17
    y += 3
    view = "open (every card)" if scene["viewer"] is None else f"player_{scene['viewer']}"
    d.text((x, y), f"view: {view}", font=f, fill=MUTED)
    y += 24
    d.line([(x, y), (x + w, y)], fill=PANEL_LINE, width=1)
    y += 8
    for line in scene["info"]:
        for part in _wrap(d, line.split(" "), f, w, " "):
            d.text((x, y), part, font=f, fill=TEXT)
            y += 17
    if scene["info"]:
        y += 6
        d.line([(x, y), (x + w, y)], fill=PANEL_LINE, width=1)
        y += 8
    last = scene["last_trick"]
    if last is not None:
        who = "" if last["winner"] is None else f" · won by player_{last['winner']}"
        d.text((x, y), _fit(d, "last trick" + who, font(12), w), font=font(12), fill=MUTED)
        short = {s["seat"]: f"p{s['seat']}" for s in scene["seats"]}
        _row_of_plays(
            im, d, last["cards"], (x - 4, y + 16, w + 8, CARD_S[1] + 18), CARD_S, 11, short
        )
        y += CARD_S[1] + 40
    for p in scene["piles"]:
        if y + CARD_S[1] + 20 > SIZE[1]:
            break
        y += _pile(im, d, p, x, y, w) + 4


def _banner(d, scene: dict) -> None:
    text = scene["result"] or "game over"
    fb = font(20, True)
    tw = d.textlength(text, font=fb)
    x, y, w, h = _MIDDLE[min(len(scene["seats"]), 5)]
    bw = max(tw, d.textlength("GAME OVER", font=font(13, True))) + 40
    cx, cy = x + w / 2, y + h / 2
    d.rounded_rectangle(
        [cx - bw / 2, cy - 34, cx + bw / 2, cy + 34], 12, fill=PLATE, outline=GOLD, width=2
    )
    d.text((cx, cy - 12), "GAME OVER", font=font(13, True), fill=GOLD, anchor="mm")
    d.text((cx, cy + 11), text, font=fb, fill=TEXT, anchor="mm")


def image(scene: dict) -> Image.Image:
    """``scene`` (``core.scene``) drawn as a Pillow RGB image of ``SIZE``."""
    from PIL import ImageDraw

    im = _background()
    d = ImageDraw.Draw(im)
    seats = scene["seats"]
    p = len(seats)
    if not 1 <= p <= 5:
        raise ValueError(f"a picture has room for 1 to 5 seats, the scene has {p}")
    base = scene["viewer"] if scene["viewer"] is not None else 0
    for seat in seats:
        r = (seat["seat"] - base) % p
        _seat(
            im,
            d,
            _BOXES[p][r],
            seat,
            seat["seat"] == scene["to_act"],
            seat["seat"] == scene["viewer"],
            r == 0,
        )
    mx, my, mw, mh = _MIDDLE[p]
    trick = scene["trick"]
    if trick:
        size = CARD_L if p <= 3 and len(trick) <= 6 else CARD_M
        _row_of_plays(im, d, trick, (mx, my, mw, mh), size)
    if scene["over"]:
        _banner(d, scene)
    _panel(im, d, scene)
    return im


def draw(scene: dict) -> np.ndarray:
    """``scene`` drawn as a ``uint8`` RGB array of shape ``SHAPE``."""
    return np.asarray(image(scene), dtype=np.uint8)


def save(scene: dict, path, small: bool = False) -> None:
    """Write ``scene``'s picture to ``path`` (PNG); ``small``: in 256 colours (a third of the
    size, for pictures kept in the repository)."""
    from PIL import Image

    im = image(scene)
    if small:
        im = im.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    im.save(path, optimize=True)
