"""Input checks at the edge: strings PostgreSQL can store, integers its columns can hold."""

from __future__ import annotations

import math
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import AfterValidator, Field, StringConstraints

INT4_MAX = 2**31 - 1


def check_text(value: str) -> str:
    """Refuse NUL characters and lone surrogates (PostgreSQL text cannot hold them)."""
    if "\x00" in value:
        raise ValueError("must not contain NUL (\\u0000) characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode (no lone surrogates)") from None
    return value


# Free-form JSON (environment, configuration, a manifest's driver) nests at most this deep:
# what the API stores it must be able to serve back (serialisers stop near 255 levels).
MAX_JSON_DEPTH = 16


def check_json(value: Any, where: str = "") -> Any:
    """`check_text` on every key and string inside a JSON value; non-finite numbers and values
    nested deeper than MAX_JSON_DEPTH refused. Walks iteratively, so any depth is safe."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, float) and not math.isfinite(item):
            raise ValueError(f"{path or 'value'}: NaN and infinities are not JSON")
        elif isinstance(item, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise ValueError(
                    f"{path or 'value'}: nested deeper than {MAX_JSON_DEPTH} levels; "
                    "flatten it (keys may hold dots)"
                )
            if isinstance(item, dict):
                for k, v in item.items():
                    check_text(str(k))
                    stack.append((v, f"{path}.{k}" if path else str(k), depth + 1))
            else:
                stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(item))
    return value


# The pattern states the NUL rule in the OpenAPI document; check_text also refuses surrogates.
SafeStr = Annotated[str, StringConstraints(pattern=r"^[^\x00]*$"), AfterValidator(check_text)]
SafeJson = Annotated[dict[str, Any], AfterValidator(check_json)]
Int4 = Annotated[int, Field(ge=-INT4_MAX - 1, le=INT4_MAX)]

# Path and query parameters, validated before anything else runs.
RunIdPath = Annotated[int, Path(ge=1, le=INT4_MAX, description="A run id.")]
AlertIdPath = Annotated[int, Path(ge=1, le=INT4_MAX, description="An alert id.")]
ChangeIdPath = Annotated[int, Path(ge=1, le=INT4_MAX, description="An accepted change's id.")]
RunIdQuery = Annotated[int, Query(ge=1, le=INT4_MAX, description="A run id.")]
SlugPath = Annotated[
    str, Path(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$", description="A system slug.")
]
NamePath = Annotated[
    str, Path(min_length=1, max_length=200, description="A name."), AfterValidator(check_text)
]


def _check_optional(value: str | None) -> str | None:
    return None if value is None else check_text(value)


# The URL guard refuses NUL anywhere in a URL (422) before routing; the pattern says so in the
# OpenAPI document for every text query parameter.
NO_NUL = r"^[^\x00]*$"
TextQuery = Annotated[
    str | None, Query(max_length=300, pattern=NO_NUL), AfterValidator(_check_optional)
]

# `\s` means different things in the engines that read a pattern: Python's `re` counts \x1c-\x1f,
# pydantic's Rust engine \x85, ECMAScript (the OpenAPI document's readers) \ufeff and not \x85.
# A URL's characters are therefore spelled out: no control, no space of any kind.
_NOT_IN_URL = r"\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
URL_CHAR = rf"[^{_NOT_IN_URL}]"
URL_HOST_CHAR = rf"[^{_NOT_IN_URL}/?#]"
HTTP_URL = rf"^https?://{URL_HOST_CHAR}+{URL_CHAR}*$"
"""An http(s) URL with a host: what the manifest, the settings and webhooks accept."""
