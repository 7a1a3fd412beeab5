"""ISO/IEC 14443-A frame checks: CRC_A and the UID check byte (BCC)."""

from __future__ import annotations

from collections.abc import Iterable


def crc_a(data: Iterable[int]) -> list[int]:
    """CRC_A of ``data`` as the two bytes sent after it (low byte first).

    >>> [hex(b) for b in crc_a([0x50, 0x00])]
    ['0x57', '0xcd']
    """
    crc = 0x6363
    for byte in data:
        b = (byte ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return [crc & 0xFF, crc >> 8]


def bcc(data: Iterable[int]) -> int:
    """The XOR check byte that follows four UID bytes in an anticollision answer."""
    out = 0
    for byte in data:
        out ^= byte
    return out
