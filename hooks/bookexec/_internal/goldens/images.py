"""Images in an output: stored as files beside the golden, compared by their pixels.

A block that prints an image as a data URI (`<img src="data:image/png;base64,...">`, as a
markdown-exec book's `html="1"` blocks do) would otherwise put the whole image in its golden
as one base64 line, and a changed plot would be one unreadable line of diff. Instead the
golden's text holds a reference, `data:image/png;golden,<block>.<n>.png`, and the image is a
file of its own beside the golden (`<block>.<n>.png`), which git and any viewer show as an
image. The page still shows the image the block printed.

A raster image (PNG, JPEG, GIF, WebP) holds when it has the same width and height and at
most `SHARE` of its pixels moved by more than `LEVELS` of 255 on any channel (red, green,
blue or alpha): antialiasing noise passes, a changed plot does not. It needs Pillow (the
`images` extra); without it the bytes must be the same. An SVG is text: it holds only
when it is the same, after the author's masks (`goldens.masks`).
"""

from __future__ import annotations

import base64
import binascii
import importlib.util
import io
import re
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import reduce
from pathlib import Path

from bookexec._internal.files import read_regular

LEVELS = 16  # a channel moved by this much or less is antialiasing, not a change
SHARE = 0.001  # the share of pixels that may move by more before the image changed
EXTENSIONS = {"png": "png", "jpeg": "jpg", "gif": "gif", "webp": "webp", "svg+xml": "svg"}
MIME = {extension: kind for kind, extension in EXTENSIONS.items()}  # a file's image type
# An image as a data URI, base64 as `base64.b64encode` writes it (no line breaks).
_DATA_URI = re.compile(r"data:image/(png|jpeg|gif|webp|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})")
# What stands for it in a golden: the file's name, beside the golden.
_REFERENCE = re.compile(r"data:image/(png|jpeg|gif|webp|svg\+xml);golden,([\w.-]+)")
_SAME, _NEW, _GONE, _HELD, _CHANGED = "same", "new", "gone", "held", "changed"


@dataclass(frozen=True)
class Image:
    """One image of an output: the file it is stored as, and its bytes."""

    name: str  # <block>.<n>.<extension>, beside the golden
    data: bytes


def extract(text: str, block_id: str, mask: Callable[[str], str] = str) -> tuple[str, list[Image]]:
    """The output with each data-URI image replaced by its reference, and the images, in
    order; an SVG's text goes through `mask` (the author's masks), as the output did. A data
    URI that is not valid base64, or whose bytes are not an image of its kind, stays as
    printed."""
    found: list[Image] = []

    def refer(match: re.Match[str]) -> str:
        try:
            data = base64.b64decode(match[2], validate=True)
        except (binascii.Error, ValueError):
            return match[0]
        if not _is_image(match[1], data):
            return match[0]
        if match[1] == "svg+xml":
            data = mask(data.decode("utf-8", errors="surrogateescape")).encode(
                "utf-8", errors="surrogateescape"
            )
        name = f"{block_id}.{len(found) + 1}.{EXTENSIONS[match[1]]}"
        found.append(Image(name, data))
        return f"data:image/{match[1]};golden,{name}"

    return _DATA_URI.sub(refer, text), found


# How each kind of image file begins: a data URI whose bytes do not is left as printed.
_MAGIC = {
    "png": (b"\x89PNG\r\n\x1a\n",),
    "jpeg": (b"\xff\xd8\xff",),
    "gif": (b"GIF87a", b"GIF89a"),
    "webp": (b"RIFF",),
}


def _is_image(kind: str, data: bytes) -> bool:
    if kind == "svg+xml":
        return b"<svg" in data[:4096]
    return data.startswith(_MAGIC[kind]) and (kind != "webp" or data[8:12] == b"WEBP")


def restore(text: str, folder: Path) -> str:
    """A golden's output as the block printed it: each reference replaced by its file beside
    the golden, as a data URI again (a page shown from its goldens shows the image)."""

    def inline(match: re.Match[str]) -> str:
        data = read_regular(folder / match[2])
        if data is None:
            return match[0]
        return f"data:image/{match[1]};base64,{base64.b64encode(data).decode('ascii')}"

    return _REFERENCE.sub(inline, text)


def references(text: str | None) -> list[str]:
    """The image files a golden's text names, in order."""
    return [match[2] for match in _REFERENCE.finditer(text or "")]


@dataclass
class ImageCheck:
    """One image of a block: the golden's file and this build's, and what changed."""

    name: str
    old: bytes | None  # the file beside the golden; None when there is none
    new: bytes | None  # this build's; None when the output no longer has it
    verdict: str = _SAME  # same, held (within the tolerance), changed, new or gone
    words: str = ""  # what changed, for the report

    @property
    def changed(self) -> bool:
        """Whether the golden must be rewritten for this image."""
        return self.verdict in (_CHANGED, _NEW, _GONE)


def check(golden: Path, old_text: str | None, images: Iterable[Image]) -> list[ImageCheck]:
    """Each image of this build against the file beside `golden` of the same name, and each
    file the golden's text named that this build no longer has."""
    new = {image.name: image.data for image in images}
    named = references(old_text)
    checks = []
    for name in dict.fromkeys([*new, *named]):
        old = read_regular(golden.parent / name) if old_text is not None else None
        checks.append(judge(name, old, new.get(name), missing=name in named and old is None))
    return checks


def judge(name: str, old: bytes | None, new: bytes | None, missing: bool = False) -> ImageCheck:
    """One image's verdict and its words: the sizes and, for a raster, the pixels. `missing`:
    the golden names the image, but its file is not beside it."""
    if old is None:
        what = f"{name} is not beside the golden" if missing else name
        this = f"; this build's is {size(new)}" if new is not None else ""
        return ImageCheck(
            name, old, new, _NEW, f"image {'missing' if missing else 'new'}: {what}{this}"
        )
    if new is None:
        return ImageCheck(name, old, new, _GONE, f"image gone: {name} ({size(old)})")
    if old == new:
        return ImageCheck(name, old, new)
    if name.endswith(".svg") or not pillow():
        how = "its SVG text differs" if name.endswith(".svg") else _BYTES
        words = f"image changed: {name}: {size(old)} -> {size(new)}; {how}"
        return ImageCheck(name, old, new, _CHANGED, words)
    moved, most, total = pixels(old, new)
    held = moved is not None and moved <= SHARE * total
    verdict = _HELD if held else _CHANGED
    head = f"image {'held' if held else 'changed'}: {name}: {size(old)} -> {size(new)}"
    if moved is None:
        return ImageCheck(name, old, new, verdict, f"{head}; the sizes differ")
    share = 100 * moved / total if total else 0.0
    words = (
        f"{head}; {moved} of {total} pixels differ by more than {LEVELS} levels "
        f"({share:.2f}%, at most {SHARE:.1%} may), max difference {most} levels of 255"
    )
    return ImageCheck(name, old, new, verdict, words)


_BYTES = "its bytes differ (install Pillow, the engine's `images` extra, to compare pixels)"


def pillow() -> bool:
    """Whether Pillow is installed: pixel comparison needs it."""
    return importlib.util.find_spec("PIL") is not None


def pixels(old: bytes, new: bytes) -> tuple[int | None, int, int]:
    """How many pixels moved by more than `LEVELS` on some channel, the largest move of any
    channel, and the pixel count; (None, 0, 0) when the sizes differ."""
    from PIL import Image as PILImage
    from PIL import ImageChops

    before = PILImage.open(io.BytesIO(old)).convert("RGBA")
    after = PILImage.open(io.BytesIO(new)).convert("RGBA")
    if before.size != after.size:
        return None, 0, 0
    bands = ImageChops.difference(before, after).split()
    largest = reduce(ImageChops.lighter, bands)  # each pixel's largest channel move
    counts = largest.histogram()
    most = max((level for level, count in enumerate(counts) if count), default=0)
    return sum(counts[LEVELS + 1 :]), most, before.width * before.height


def size(data: bytes) -> str:
    """An image's size in words: width x height for a PNG (read from its header, so no
    library is needed), and its bytes."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return f"{width}x{height} px, {len(data)} bytes"
    return f"{len(data)} bytes"


def pair(name: str, old: bytes | None, new: bytes | None) -> str:
    """HTML showing a golden's image beside this build's, each captioned, side by side."""
    figures = "".join(
        _figure(caption, name, data) for caption, data in (("golden", old), ("this build", new))
    )
    return f'<div class="executed-book-images" style="display:flex;gap:1em">{figures}</div>'


def _figure(caption: str, name: str, data: bytes | None) -> str:
    style = 'style="flex:1;margin:0"'
    if data is None:
        return f"<figure {style}><figcaption>{caption}: none</figcaption></figure>"
    kind = MIME.get(name.rpartition(".")[2], "png")
    uri = f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}"
    return (
        f"<figure {style}><figcaption>{caption}</figcaption>"
        f'<img src="{uri}" alt="{caption}" style="max-width:100%"></figure>'
    )
