from hardware.crc import bcc, crc_a


def test_crc_of_hlta_matches_the_standard_frame() -> None:
    assert crc_a([0x50, 0x00]) == [0x57, 0xCD]


def test_crc_of_reqa_select_frame_changes_with_one_bit() -> None:
    frame = [0x93, 0x70, 0x88, 0x04, 0xA1, 0xB2, 0x9F]
    flipped = [*frame[:-1], frame[-1] ^ 0x01]
    assert crc_a(frame) != crc_a(flipped)


def test_bcc_is_xor_of_uid_bytes() -> None:
    assert bcc([0x88, 0x04, 0xA1, 0xB2]) == 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2
