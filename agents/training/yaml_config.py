"""Typed dataclass configs read from a YAML file plus ``key=value`` overrides.

A config is a dataclass whose fields carry ``metadata=meta(allowed, check)``: ``allowed`` says in
words what the key takes, ``check`` (optional) tells a possible value from an impossible one.
:func:`build_config` coerces every value to its field's type and checks it; :class:`ConfigError`
names the key, the value and what is allowed. The trainer's :class:`~agents.training.config.TrainConfig`
and :mod:`agents.distill`'s config are both read this way.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..extras import missing_extra

try:
    import yaml
except ModuleNotFoundError as exc:  # PyYAML comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer's configs)") from None

Config = typing.TypeVar("Config")


class ConfigError(ValueError):
    """A config (``train.py``'s or ``agents.distill``'s) with an unknown key, a value of the wrong type
    or an impossible value."""


def meta(allowed: str, check: Callable[[Any], bool] | None = None) -> dict[str, Any]:
    """A field's metadata: what it allows, in words, and the check of a value (None: any value of
    the field's type)."""
    return {"allowed": allowed, "check": check}


def positive(v: float) -> bool:
    return v > 0


def non_negative(v: float) -> bool:
    return v >= 0


def unit_interval(v: float) -> bool:
    return 0.0 <= v <= 1.0


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", str(tp)).replace("typing.", "")


def _coerce(key: str, value: Any, tp: Any) -> Any:
    """``value`` as type ``tp`` (int, float, bool, str, list[int], list[str], dict[str, float],
    X | None); raises ConfigError naming the key. Numeric strings such as ``3e-4`` (which YAML
    reads as text) are accepted for numbers."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _coerce(key, value, inner)

    def bad(what: str) -> ConfigError:
        return ConfigError(f"config key {key!r}: {what}")

    if tp is bool:
        if isinstance(value, bool):
            return value
        raise bad(f"expected true or false, got {value!r} ({type(value).__name__})")
    if tp is int:
        if isinstance(value, str):
            try:
                value = float(value.replace("_", ""))
            except ValueError:
                raise bad(f"expected an integer, got {value!r}") from None
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise bad(f"expected an integer, got {value!r} ({type(value).__name__})")
    if tp is float:
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise bad(f"expected a number, got {value!r}") from None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise bad(f"expected a finite number, got {value!r}")
            return float(value)
        raise bad(f"expected a number, got {value!r} ({type(value).__name__})")
    if tp is str:
        if isinstance(value, str):
            return value
        raise bad(f"expected a string, got {value!r} ({type(value).__name__})")
    if origin is list:
        (inner,) = typing.get_args(tp)
        if not isinstance(value, (list, tuple)):
            raise bad(f"expected a list of {_type_name(inner)}, got {value!r} ({type(value).__name__})")
        return [_coerce(f"{key}[{i}]", v, inner) for i, v in enumerate(value)]
    if origin is dict:
        _, vt = typing.get_args(tp)
        if not isinstance(value, Mapping):
            raise bad(f"expected a mapping, got {value!r} ({type(value).__name__})")
        return {str(k): _coerce(f"{key}.{k}", v, vt) for k, v in value.items()}
    raise TypeError(f"unsupported config type {tp!r}")  # pragma: no cover - a bug in a config class


def build_config(cls: type[Config], values: Mapping[str, Any]) -> Config:
    """An instance of the config dataclass ``cls`` from a mapping of (some) of its keys: every value
    coerced to its field's type and checked by the field's ``check``; ConfigError names the key,
    the value and what is allowed."""
    if not isinstance(values, Mapping):
        raise ConfigError(f"a config must be a mapping of keys to values, got {type(values).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = [k for k in values if k not in fields]
    if unknown:
        raise ConfigError(f"unknown config key {unknown[0]!r} (value {values[unknown[0]]!r}); "
                          f"allowed keys: {', '.join(fields)}")
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for key, raw in values.items():
        value = _coerce(key, raw, hints[key])
        field_meta = fields[key].metadata
        check = field_meta.get("check")
        if value is not None and check is not None and not check(value):
            raise ConfigError(f"config key {key!r}: impossible value {value!r}; allowed: "
                              f"{field_meta['allowed']}")
        kwargs[key] = value
    return cls(**kwargs)


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, except that a key given twice in one mapping is an error (plain
    ``yaml.safe_load`` silently keeps the last value)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":      # "<<: *anchor" may be overridden
                continue
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in seen
            except TypeError:                                  # unhashable: the base loader says so
                continue
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice (keep one)", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _load_yaml(text: str) -> Any:
    """``text`` as YAML (safe types only; a duplicate key raises ``yaml.YAMLError``)."""
    return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a subclass of SafeLoader


def parse_override(text: str) -> tuple[str, Any]:
    """``key=value`` from the command line; the value is read as YAML (``hidden=[64,64]``)."""
    if "=" not in text:
        raise ConfigError(f"override {text!r} is not of the form key=value")
    key, raw = text.split("=", 1)
    key = key.strip()
    try:
        value = _load_yaml(raw) if raw.strip() else None
    except yaml.YAMLError as e:
        raise ConfigError(f"override {text!r}: the value is not valid YAML ({e})") from None
    return key, value


def _read_yaml_mapping(p: Path) -> dict[str, Any]:
    """The mapping a YAML config file holds (an empty file: none); ConfigError for a missing,
    unreadable or non-mapping file."""
    if not p.exists():
        raise ConfigError(f"config file {str(p)!r} does not exist")
    if not p.is_file():
        raise ConfigError(f"config file {str(p)!r} is not a file; give a YAML file such as "
                          "configs/quickstart.yaml")
    try:
        loaded = _load_yaml(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigError(f"config file {str(p)!r} is not a text file (not UTF-8: {e.reason} at byte "
                          f"{e.start}); give a YAML file such as configs/quickstart.yaml") from None
    except yaml.YAMLError as e:
        raise ConfigError(f"config file {str(p)!r} is not valid YAML: {e}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"config file {str(p)!r} must hold a mapping of keys to values, "
                          f"got {type(loaded).__name__}")
    return loaded


def read_config_values(path: str | Path | None, overrides: Sequence[str] = ()) -> dict[str, Any]:
    """The key-value mapping of a YAML config file (None: none) with ``key=value`` overrides
    applied, not yet validated; ConfigError for a missing, unreadable or non-mapping file."""
    values: dict[str, Any] = {} if path is None else dict(_read_yaml_mapping(Path(path)))
    for text in overrides:
        k, v = parse_override(text)
        values[k] = v
    return values


def config_yaml(cfg: Any) -> str:
    """A config dataclass as YAML, its keys in the order of its fields."""
    return yaml.safe_dump(dataclasses.asdict(cfg), sort_keys=False)
