"""Decoded bytes: gzip decompressed in bounded pieces, and the text streamed or scanned again.

:class:`_Decoded` hands the parser the decoded text of a plain or gzip file without holding
it whole (decompression stops past ``ROC_DASH_MAX_DECOMPRESSED_MB``, see
:mod:`roc_dash.io.size_limits`); the scans find, in 256 KiB pieces, what an error message
needs: the first invalid UTF-8 byte, the rows with the wrong number of fields, the line
number of each record.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from .errors import InputError
from .size_limits import _mb, _too_much_data, limits

GZIP_MAGIC = b"\x1f\x8b"


_GZIP_IN_CHUNK = 1 << 16
_GZIP_OUT_CHUNK = 1 << 20
_ZERO_PADDING = re.compile(rb"\x00*")
#: Pieces handed to the line scanners (bounded arrays per piece, even for blank lines).
_SCAN_CHUNK = 1 << 18


def _gunzip_pieces(data: bytes, filename: str) -> Iterator[bytes]:
    """Decompressed pieces (at most 1 MiB each) of all gzip members of ``data`` (like
    :func:`gzip.decompress`, zero padding between and after members allowed): input is fed
    64 KiB at a time and decompression stops as soon as the output passes
    ``ROC_DASH_MAX_DECOMPRESSED_MB``, so nothing is held but the piece being read."""
    limit = limits().decompressed_bytes
    total = 0
    view = memoryview(data)
    n = len(data)
    pos = 0
    try:
        while True:  # one gzip member
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip header and trailer
            tail = b""
            while not inflater.eof:
                if tail:
                    piece: bytes | memoryview = tail
                elif pos < n:
                    piece = view[pos : pos + _GZIP_IN_CHUNK]
                    pos += len(piece)
                else:
                    piece = b""  # input used up: take what zlib still holds, if anything
                chunk = inflater.decompress(piece, min(_GZIP_OUT_CHUNK, limit - total + 1))
                tail = inflater.unconsumed_tail
                if chunk:
                    total += len(chunk)
                    if total > limit:
                        raise _too_much_data(
                            filename,
                            f"decompresses to more than {_mb(limit)}, the most data accepted "
                            "per file",
                        )
                    yield chunk
                elif not piece:
                    raise EOFError("compressed data ended before the end-of-stream marker")
            # everything fed after the member's end (zlib may repeat it in unconsumed_tail)
            member_end = pos - len(inflater.unused_data)
            pos = _ZERO_PADDING.match(data, member_end).end()
            if pos >= n:
                break
            if data[pos : pos + 2] != GZIP_MAGIC:
                raise zlib.error("data after the end of the gzip stream")
    except (OSError, EOFError, zlib.error):
        raise InputError(
            f"{filename}: is gzip-compressed but cannot be decompressed; the file is probably "
            "truncated or damaged. Compress it again (or upload it uncompressed).",
            file=filename,
        ) from None


def _gunzip(data: bytes, filename: str) -> bytes:
    """All of ``data`` decompressed (for gzip-compressed Parquet, which is read as a whole);
    never more than about ``ROC_DASH_MAX_DECOMPRESSED_MB`` is held."""
    out = io.BytesIO()
    for piece in _gunzip_pieces(data, filename):
        out.write(piece)
    return out.getvalue()


class _Decoded:
    """The decoded bytes of one text file (after any BOM; gzip decompressed on the fly),
    read from the start as often as needed, never held as a whole."""

    def __init__(self, data: bytes, filename: str) -> None:
        self.data = data
        self.filename = filename
        self.gzip = data[:2] == GZIP_MAGIC
        self.offset = 0  # bytes skipped at the start (a byte order mark)

    def chunks(self, start: int = 0) -> Iterator[bytes | memoryview]:
        """The decoded bytes from ``start`` in pieces (memoryviews of plain text: no copy)."""
        skip = self.offset + start
        if not self.gzip:
            view = memoryview(self.data)
            for i in range(skip, len(view), _GZIP_OUT_CHUNK):
                yield view[i : i + _GZIP_OUT_CHUNK]
            return
        for piece in _gunzip_pieces(self.data, self.filename):
            if skip:
                if len(piece) <= skip:
                    skip -= len(piece)
                    continue
                piece = piece[skip:]
                skip = 0
            yield piece

    def take(self, n: int, start: int = 0) -> bytes:
        """The first ``n`` decoded bytes from ``start`` (fewer at the end of the file)."""
        out = bytearray()
        for piece in self.chunks(start):
            out += piece[: n - len(out)]
            if len(out) >= n:
                break
        return bytes(out)

    def stream(self, start: int = 0):
        """A file object Arrow reads from ``start``: the buffer itself for plain text."""
        if not self.gzip:
            return pa.BufferReader(pa.py_buffer(self.data)[self.offset + start :])
        return _ChunkStream(self.chunks(start))

    def plain_view(self) -> bytes | None:
        """The bytes themselves when the text is not compressed (cheap counts), else None."""
        return None if self.gzip else self.data


class _ChunkStream(io.RawIOBase):
    """A readable file over an iterator of byte pieces (errors raised by the iterator, e.g.
    a decompression limit, reach whoever reads)."""

    def __init__(self, chunks: Iterator[bytes | memoryview]) -> None:
        self._chunks = iter(chunks)
        self._buf = memoryview(b"")

    def readable(self) -> bool:
        return True

    def _refilled(self) -> bool:
        """Whether bytes are left: the next non-empty piece is taken once the current one
        is used up."""
        while not len(self._buf):
            try:
                self._buf = memoryview(next(self._chunks)).cast("B")
            except StopIteration:
                return False
        return True

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all that is left for -1), joined from the pieces without
        an intermediate buffer."""
        parts = []
        wanted = size if size is not None and size >= 0 else None
        got = 0
        while (wanted is None or got < wanted) and self._refilled():
            n = len(self._buf) if wanted is None else min(wanted - got, len(self._buf))
            parts.append(self._buf[:n])
            self._buf = self._buf[n:]
            got += n
        return b"".join(parts)

    def readinto(self, b) -> int:
        out = memoryview(b).cast("B")
        filled = 0
        while filled < len(out) and self._refilled():
            n = min(len(out) - filled, len(self._buf))
            out[filled : filled + n] = self._buf[:n]
            self._buf = self._buf[n:]
            filled += n
        return filled


def _first_invalid_utf8(decoded: _Decoded) -> tuple[int, int]:
    """(line, byte) of the first byte that is not UTF-8, found in one streaming pass."""
    line = 1
    pending = b""
    for piece in decoded.chunks():
        data = pending + bytes(piece)
        cut = len(data)
        for k in range(1, min(4, len(data)) + 1):  # keep a character cut in two for later
            byte = data[-k]
            if byte & 0xC0 != 0x80:
                if byte >= 0xC0:
                    cut = len(data) - k
                break
        head, pending = data[:cut], data[cut:]
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            return line + head.count(b"\n", 0, exc.start), head[exc.start]
        line += head.count(b"\n")
    try:
        pending.decode("utf-8")
    except UnicodeDecodeError as exc:
        return line + pending.count(b"\n", 0, exc.start), pending[exc.start]
    return line, 0


def _scan_pieces(decoded: _Decoded) -> Iterator[bytes | memoryview]:
    """The decoded text in pieces of at most 256 KiB that never split a '\\r\\n' pair."""
    held = b""
    for chunk in decoded.chunks():
        for i in range(0, len(chunk), _SCAN_CHUNK):
            piece = chunk[i : i + _SCAN_CHUNK]
            if held:
                piece = held + bytes(piece)
                held = b""
            if piece[-1:] == b"\r":
                held = b"\r"
                piece = piece[:-1]
            if len(piece):
                yield piece
    if held:
        yield held


def _scan_lines(decoded: _Decoded, delimiter: str | None = None
                ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
    """Lines of the text (split at \\n, \\r\\n or a lone \\r), in one streaming pass, as
    arrays per piece: their 1-based numbers, content lengths (without the line break) and,
    with ``delimiter``, numbers of fields (delimiters outside double quotes, plus one). The
    last line is yielded even when empty. Memory: a few arrays the size of one piece."""
    line = 1
    carry_len = carry_fields = 0
    parity = 0
    code = ord(delimiter) if delimiter else None
    for piece in _scan_pieces(decoded):
        arr = np.frombuffer(piece, dtype=np.uint8)
        is_nl = arr == 10
        is_cr = arr == 13
        has_cr = bool(is_cr.any())
        if has_cr:
            lone = is_cr.copy()
            lone[:-1] &= ~is_nl[1:]
            breaks = np.flatnonzero(is_nl | lone)
        else:
            breaks = np.flatnonzero(is_nl)
        n = len(breaks)
        starts = np.empty(n, dtype=np.int64)
        if n:
            starts[0] = 0
            starts[1:] = breaks[:-1] + 1
        lengths = breaks - starts
        if has_cr and n:
            crlf = is_nl[breaks] & (lengths > 0) & is_cr[np.maximum(breaks - 1, 0)]
            lengths -= crlf
        fields = None
        tail_fields = 0
        if code is not None:
            positions = np.flatnonzero(arr == code)
            quotes = arr == 34
            n_quotes = int(quotes.sum())
            if parity or n_quotes:
                # quote parity before each byte; uint8 wraps at 256, which keeps the parity
                inside = (np.cumsum(quotes, dtype=np.uint8) + np.uint8(parity)) & 1
                positions = positions[inside[positions] == 0]
                parity = (parity + n_quotes) & 1
            counts = np.bincount(np.searchsorted(breaks, positions), minlength=n + 1)
            fields = counts[:n] + 1
            tail_fields = int(counts[n])
        tail_len = len(arr) - (int(breaks[-1]) + 1 if n else 0)
        if n:
            lengths[0] += carry_len
            if fields is not None:
                fields[0] += carry_fields
            yield np.arange(line, line + n, dtype=np.int64), lengths, fields
            line += n
            carry_len, carry_fields = tail_len, tail_fields
        else:
            carry_len += tail_len
            carry_fields += tail_fields
    last_fields = np.array([carry_fields + 1]) if code is not None else None
    yield np.array([line], dtype=np.int64), np.array([carry_len]), last_fields


def _rows_with_wrong_field_count(
    decoded: _Decoded, delimiter: str, n_columns: int
) -> tuple[list[tuple[int, int]], int]:
    """(line number, number of fields) of the first five non-blank lines after the header
    whose field count differs from the header's, and how many there are in all: delimiters
    are counted per line, vectorised, ignoring those inside double quotes, in one streaming
    pass. Only used to explain an error."""
    first: list[tuple[int, int]] = []
    count = 0
    header_seen = False
    for lines, lengths, fields in _scan_lines(decoded, delimiter):
        non_blank = np.flatnonzero(lengths > 0)
        if not header_seen and len(non_blank):
            non_blank = non_blank[1:]  # the first non-blank line is the header
            header_seen = True
        bad = non_blank[fields[non_blank] != n_columns]
        count += len(bad)
        for i in bad[: 5 - len(first)]:
            first.append((int(lines[i]), int(fields[i])))
    return first, count


_BLANK_LINE = (b"\n\n", b"\r\r", b"\n\r\n")


def _record_line_numbers(decoded: _Decoded) -> np.ndarray | None:
    """Line number of each data record, or ``None`` when record i is simply on line i + 2
    (no blank lines before the last record). Streaming: a first pass looks for blank lines,
    a second (only if there are) numbers the non-blank lines."""
    plain = decoded.plain_view()
    if plain is not None:  # the bytes at hand: one search each, no copy
        start = decoded.offset
        if not plain.startswith((b"\n", b"\r"), start) and all(
                plain.find(p, start) < 0 for p in _BLANK_LINE):
            return None
    else:
        tail = None
        for piece in decoded.chunks():
            piece = bytes(piece)
            if tail is None and piece[:1] in (b"\n", b"\r"):
                break
            window = (tail or b"") + piece
            if any(p in window for p in _BLANK_LINE):
                break
            tail = window[-2:]
        else:
            return None
    numbers = [lines[lengths > 0] for lines, lengths, _ in _scan_lines(decoded)]
    non_blank = np.concatenate(numbers) if numbers else np.zeros(0, dtype=np.int64)
    return non_blank[1:]  # the first non-blank line is the header
