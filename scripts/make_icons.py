"""Draw the app's home-screen icons (PNG, no image library needed):
a playing card with a heart on the felt green of the table.

    .venv/bin/python scripts/make_icons.py   # writes frontend/static/frontend/icons/

icon-192.png and icon-512.png ("any": rounded corners, transparent beyond),
icon-maskable-512.png (full bleed; the card within the central 80% circle
that every mask keeps)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "frontend" / "static" / "frontend" / "icons"
FELT = (0x1F, 0x5F, 0x3F)
CARD = (0xFF, 0xFF, 0xFF)
RED = (0xC0, 0x1B, 0x2C)
SAMPLES = 3  # per axis, for smooth edges


def _png(size: int, pixels: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\x00" + row for row in pixels)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _in_rounded(x: float, y: float, left, top, right, bottom, radius) -> bool:
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def _in_heart(x: float, y: float, cx: float, cy: float, scale: float) -> bool:
    u, v = (x - cx) / scale, -(y - cy) / scale
    return (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0


def _colour(x: float, y: float, *, maskable: bool) -> tuple[int, int, int, int]:
    """The colour at (x, y) in a unit square."""
    if not maskable and not _in_rounded(x, y, 0, 0, 1, 1, 0.18):
        return (0, 0, 0, 0)
    card_h = 0.56 if maskable else 0.70  # maskable: inside the safe circle
    card_w = card_h * 5 / 7
    left, top = 0.5 - card_w / 2, 0.5 - card_h / 2
    if _in_rounded(x, y, left, top, left + card_w, top + card_h, card_w * 0.1):
        if _in_heart(x, y, 0.5, 0.5, card_w * 0.3):
            return (*RED, 255)
        return (*CARD, 255)
    return (*FELT, 255)


def draw(size: int, *, maskable: bool) -> bytes:
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = _colour((px + (sx + 0.5) / SAMPLES) / size,
                                (py + (sy + 0.5) / SAMPLES) / size, maskable=maskable)
                    for i in range(4):
                        total[i] += c[i] * c[3] if i < 3 else c[3]
            alpha = total[3]
            n = SAMPLES * SAMPLES
            row += bytes([round(total[i] / alpha) if alpha else 0 for i in range(3)]
                         + [round(alpha / n)])
        rows.append(bytes(row))
    return _png(size, rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon-192.png").write_bytes(draw(192, maskable=False))
    (OUT / "icon-512.png").write_bytes(draw(512, maskable=False))
    (OUT / "icon-maskable-512.png").write_bytes(draw(512, maskable=True))


if __name__ == "__main__":
    main()
