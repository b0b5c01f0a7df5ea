"""Class codes and lecturer keys (docs/class-session.md, "Roles and trust").

A code is 6 characters from an alphabet without the pairs a back row confuses (no 0/O, no 1/I/L):
31⁶ ≈ 8.9·10⁸ codes, drawn with :mod:`secrets`; with at most a few hundred live sessions and 20
failed joins per address per minute (the hub's limit), guessing one takes years. A lecturer key is
``secrets.token_urlsafe(32)`` (256 bits); the store keeps only its SHA-256 and compares digests in
constant time.

>>> normalise(" ab c23 4 "), normalise("abc-234"), normalise("ABC0ZZ"), normalise(7)
('ABC234', 'ABC234', None, None)
>>> len(new_code()), set(new_code()) <= set(ALPHABET)
(6, True)
>>> k = new_key(); key_matches(digest(k), k), key_matches(digest(k), k + "x"), key_matches(digest(k), None)
(True, False, False)
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets

#: 31 characters: the digits 2-9 and the capitals without I, L, O (and no 0, 1).
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
#: what a person may type around a code: spaces and dashes ("ABC-234", "abc 234")
_SEPARATORS = re.compile(r"[\s\-]+")
#: a typed code longer than this is not looked at further
_MAX_TYPED = 32
#: a lecturer key as new_key() makes them (43 url-safe characters); anything else never matches
_KEY = re.compile(r"[A-Za-z0-9_-]{20,128}")


def new_code() -> str:
    """A fresh random code (the store checks it is not in use)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise(typed) -> str | None:
    """The code a person typed or a link carried, upper-cased without spaces or dashes; None if malformed."""
    if not isinstance(typed, str) or len(typed) > _MAX_TYPED:
        return None
    code = _SEPARATORS.sub("", typed).upper()
    return code if _CODE.fullmatch(code) else None


def new_key() -> str:
    """A fresh lecturer key: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def digest(key: str) -> str:
    """The SHA-256 (hex) the store keeps instead of the key."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(stored_digest: str | None, key) -> bool:
    """Whether ``key`` is the key whose digest was stored (constant-time compare of the digests)."""
    if not stored_digest or not isinstance(key, str) or not _KEY.fullmatch(key):
        return False
    return hmac.compare_digest(stored_digest, digest(key))
