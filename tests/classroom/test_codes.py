"""Class codes and lecturer keys (olc_ui/classroom/codes.py)."""
from __future__ import annotations

from olc_ui.classroom import codes


def test_the_alphabet_has_no_confusable_characters():
    assert len(codes.ALPHABET) == len(set(codes.ALPHABET)) == 31
    assert not set("0O1IL") & set(codes.ALPHABET)
    assert set(codes.ALPHABET) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def test_new_codes_are_random_and_well_formed():
    made = {codes.new_code() for _ in range(2000)}
    assert len(made) > 1990                                     # 31^6 codes: collisions are rare
    assert all(len(c) == 6 and codes.normalise(c) == c for c in made)
    assert set("".join(made)) == set(codes.ALPHABET)            # every character is used


def test_typed_codes_are_normalised_or_rejected():
    assert codes.normalise("abc234") == codes.normalise(" ABC-234 ") == codes.normalise("abc 234") == "ABC234"
    for bad in ("ABC23", "ABC2345", "ABC0Z2", "ABCI22", "ABCL22", "ABCO22", "AB<23>", "", None, 123, ["ABC234"],
                "A" * 1000, "ÄBC234", "ABC234\x00"):
        assert codes.normalise(bad) is None, bad


def test_keys_are_long_random_and_checked_by_digest():
    k1, k2 = codes.new_key(), codes.new_key()
    assert k1 != k2 and len(k1) >= 43
    d = codes.digest(k1)
    assert len(d) == 64 and k1 not in d
    assert codes.key_matches(d, k1)
    for bad in (k2, k1[:-1], k1 + "A", "", None, 42, d):
        assert not codes.key_matches(d, bad)
    assert not codes.key_matches(None, k1) and not codes.key_matches("", k1)
