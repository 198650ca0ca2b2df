"""Reading image files safely: the size is checked from the header before anything is decoded.

A JPEG header may claim 30000 x 30000 pixels (2.7 GB decoded) and a 1 x 1 image holds no card;
both are refused with one line before OpenCV allocates anything. Every command that reads an
image file goes through :func:`read_image` (``vision identify``, ``vision enroll``, the
``file:`` camera, the taught-face store).

>>> image_size(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x80")
(256, 128)
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from companion.errors import UserError

#: A photo smaller than this on its short side cannot show a card well enough to read it.
MIN_SIDE = 32
#: Phone cameras reach 50 megapixels; beyond this the file is broken or hostile.
MAX_PIXELS = 60_000_000
MAX_SIDE = 20_000
#: Bytes read to find the size: a JPEG's frame header may follow large EXIF blocks.
_HEADER_BYTES = 1 << 20

#: ISO base media "ftyp" brands of HEIF stills (HEIC from iPhones, AVIF).
_HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1", b"avif", b"avis"}

_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return None
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            position += 2
            continue
        (length,) = struct.unpack(">H", data[position + 2 : position + 4])
        if marker in _JPEG_FRAMES and position + 9 <= len(data):
            height, width = struct.unpack(">HH", data[position + 5 : position + 9])
            return width, height
        position += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    fields: list[bytes] = []
    for line in data[2:4096].split(b"\n"):
        fields += line.split(b"#")[0].split()
        if len(fields) >= 2:
            break
    if len(fields) >= 2 and fields[0].isdigit() and fields[1].isdigit():
        return int(fields[0]), int(fields[1])
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    (offset,) = struct.unpack(order + "I", data[4:8])
    if offset + 2 > len(data):
        return None
    (count,) = struct.unpack(order + "H", data[offset : offset + 2])
    found: dict[int, int] = {}
    for index in range(count):
        entry = data[offset + 2 + 12 * index : offset + 14 + 12 * index]
        if len(entry) < 12:
            return None
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):
            short = kind == 3
            found[tag] = struct.unpack(order + ("H" if short else "I"), entry[8 : 10 if short else 12])[0]
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None


def image_size(header: bytes) -> tuple[int, int] | None:
    """(width, height) claimed by the header of a JPEG, PNG, BMP, WebP, TIFF or PNM file; None if the
    format is not one of those or the header is cut short."""
    if header[:8] == b"\x89PNG\r\n\x1a\n" and len(header) >= 24:
        width, height = struct.unpack(">II", header[16:24])
        return width, height
    if header[:2] == b"\xff\xd8":
        return _jpeg_size(header)
    if header[:2] == b"BM" and len(header) >= 26:
        width, height = struct.unpack("<ii", header[18:26])
        return abs(width), abs(height)
    if header[:4] == b"RIFF" and header[8:12] == b"WEBP":
        return _webp_size(header)
    if header[:4] in (b"II*\x00", b"MM\x00*") and len(header) >= 8:
        return _tiff_size(header)
    if header[:1] == b"P" and header[1:2] in b"123456" and len(header) > 2:
        return _pnm_size(header)
    return None


def _shown(path: Path) -> str:
    """The path as a line can print it (a name that is not UTF-8 shows its odd bytes escaped)."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def check_image_file(path: Path | str) -> tuple[int, int]:
    """The image's (width, height) from its header; UserError (one line) for anything absurd."""
    path = Path(path)
    shown = _shown(path)
    if path.is_dir():
        raise UserError(f"{shown} is a folder: give the image files in it, e.g. {shown}/*.jpg")
    if not path.is_file():
        raise UserError(f"no such image: {shown}")
    with path.open("rb") as file:
        header = file.read(_HEADER_BYTES)
    size = image_size(header)
    if size is None and header[4:8] == b"ftyp" and header[8:12] in _HEIF_BRANDS:
        # What an iPhone saves by default (and some Android phones): OpenCV's wheels decode none.
        raise UserError(
            f"{shown} is a HEIC/HEIF photo, which cannot be read here: send it as a JPEG (on an "
            "iPhone, Settings > Camera > Formats > Most Compatible takes JPEGs from then on)"
        )
    if size is None:
        raise UserError(f"{shown} is not a JPEG, PNG, BMP, WebP, TIFF or PNM image (or it is cut short)")
    width, height = size
    if min(width, height) < MIN_SIDE:
        raise UserError(
            f"{shown} is only {width}x{height} pixels: use a photo at least {MIN_SIDE} px on each side"
        )
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        raise UserError(
            f"{shown} claims {width}x{height} pixels, too large to be a photo: use one under "
            f"{MAX_PIXELS // 1_000_000} megapixels"
        )
    return width, height


def read_image(path: Path | str, colour: bool = True) -> np.ndarray:
    """A checked image file decoded as BGR (or grey with ``colour=False``)."""
    import cv2

    check_image_file(path)
    shown = _shown(Path(path))
    # Decode from the bytes Python read: OpenCV's imread crashes the process on a file name that
    # is not UTF-8 (a photo copied from an old camera card), and this reads any name.
    data = np.frombuffer(Path(path).read_bytes(), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise UserError(f"cannot read {shown} as an image (corrupt or not an image?)")
    return image
