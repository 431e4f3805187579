"""Helpers shared by the format adapters: the error type, JSON loading, unit conventions."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

Result = dict[str, Any]

HIGHER = "higher_is_better"
LOWER = "lower_is_better"

# Time units and their size in nanoseconds (wrk, Google Benchmark and others spell them so).
NS_PER = {"ns": 1.0, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}
_RATE = re.compile(r"(/s|/sec|/second|per[_ ]?s(ec(ond)?)?|\bops|[qrt]ps|hz)$", re.IGNORECASE)


class AdapterError(ValueError):
    """Input that an adapter cannot read; the message names the file and, if known, the line."""

    def __init__(self, path: Path | str, message: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")
        self.path = Path(path)
        self.line = line
        self.reason = message


def read_text(path: Path) -> str:
    """Read a text file or raise AdapterError naming it."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise AdapterError(path, "no such file") from None
    except IsADirectoryError:
        raise AdapterError(path, "is a directory, expected a file") from None
    except UnicodeDecodeError as e:
        raise AdapterError(path, f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise AdapterError(path, f"cannot read: {e.strerror}") from None


def load_json(path: Path) -> Any:
    """Parse a JSON file; a syntax error is reported with its line number."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise AdapterError(path, f"invalid JSON: {e.msg} (column {e.colno})", e.lineno) from None


def number(path: Path, value: Any, what: str, line: int | None = None) -> float:
    """Return `value` as a finite float or raise AdapterError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise AdapterError(path, f"{what} must be a number, got {value!r}", line)
    if not math.isfinite(value):
        raise AdapterError(path, f"{what} is not finite ({value!r})", line)
    return float(value)


def text_number(path: Path, lineno: int, text: str) -> float:
    """Read a number printed in a text report (`1,234.5` too) or raise naming file and line."""
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        raise AdapterError(path, f"{text!r} is not a number", lineno) from None
    if not math.isfinite(value):
        raise AdapterError(path, f"{text!r} is not finite", lineno)
    return value


def direction_for_unit(unit: str) -> str:
    """Guess a direction for a custom unit: rates (x/s, ops/sec, Hz) are higher-is-better."""
    return HIGHER if _RATE.search(unit.strip()) else LOWER


def metric_name_for_unit(unit: str) -> str:
    """Turn a free-form unit like `items/s` into a snake_case metric name `items_per_s`."""
    name = unit.strip().lower().replace("/", "_per_").replace("%", "pct")
    name = re.sub(r"[^a-z0-9]+", "_", name).strip("_")
    return name or "value"


def scalar(text: str) -> int | float | str:
    """Turn a parameter written as text into an int or float when it is one."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        f = float(text)
    except ValueError:
        return text
    return f if math.isfinite(f) else text
