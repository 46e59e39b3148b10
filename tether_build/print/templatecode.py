"""Compiled Jinja templates kept in the render cache, so a build does not compile them again.

Compiling the card and rulebook templates costs a build about 0.25 s of CPU (29 templates),
every build, typed or watched. Jinja can keep each template's compiled code (a `marshal`led
code object, like Python's own `__pycache__`) in a bytecode cache; this one is an entry kind
("jinja") of the build's render cache. Jinja checks each entry's source checksum and Python
magic before using it, and the key names both, so an edited template is compiled afresh and
an entry of another Python version is never read.

Compiled code is keyed on the template's source alone, so it must never hold content. Jinja's
optimizer folds a filter over a constant into the compiled code (`{{ "[force:pl]" | tok }}`
would be stored as "Cohorts", and a glossary rename would print the old word from the cache).
So a filter whose result depends on content is registered with `data_filter`, which Jinja
cannot fold, and a filter that is a pure function of its arguments is marked `pure_filter`.
An environment with any other filter of its own is never cached: its templates are compiled
afresh in every build (slower, never stale).
"""

from __future__ import annotations

import functools
import hashlib
import hmac

import jinja2

FORMAT = 3  # 2: content filters are no longer folded (entries of format 1 may hold words)
#            3: entries are signed (an unsigned one is never loaded)


def data_filter(func):
    """A filter whose result depends on content (the glossary): applied at render time,
    never folded into compiled code (Jinja folds no filter that takes the context)."""

    @jinja2.pass_context
    def at_render(_context, value, *args, **kwargs):
        return func(value, *args, **kwargs)

    at_render.tether_data = True
    return at_render


def pure_filter(func):
    """A filter that depends on its arguments alone (a unit's formatting): safe to fold."""
    func.tether_pure = True
    return func


def foldable_content(env: jinja2.Environment) -> list[str]:
    """The environment's own filters and tests that Jinja may fold into compiled code but
    that are marked neither pure nor content (data_filter)."""
    from jinja2.defaults import DEFAULT_FILTERS, DEFAULT_TESTS

    found = []
    for table, defaults in ((env.filters, DEFAULT_FILTERS), (env.tests, DEFAULT_TESTS)):
        for name, func in table.items():
            if defaults.get(name) is func or getattr(func, "tether_pure", False) \
                    or getattr(func, "tether_data", False):
                continue
            found.append(name)
    return sorted(found)


class TemplateCode(jinja2.BytecodeCache):
    """A jinja2 bytecode cache stored in a render.cache.Cache (kind "jinja")."""

    def __init__(self, cache):
        self.cache = cache

    @staticmethod
    def _key(bucket) -> str:
        """The template (name and file), its source's checksum, Python's and Jinja's
        bytecode version, and the environment's settings that change the compiled code
        (the card and rulebook templates are compiled with different whitespace rules)."""
        env = bucket.environment
        escape = env.autoescape if isinstance(env.autoescape, bool) else \
            getattr(env.autoescape, "__qualname__", "?")
        settings = (env.block_start_string, env.block_end_string, env.variable_start_string,
                    env.variable_end_string, env.comment_start_string,
                    env.comment_end_string, env.line_statement_prefix,
                    env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks,
                    env.newline_sequence, env.keep_trailing_newline, env.optimized, escape,
                    sorted(env.extensions))
        return hashlib.sha256(f"{FORMAT}|{bucket.key}|{bucket.checksum}|{settings!r}".encode()
                              + jinja2.bccache.bc_magic).hexdigest()

    def load_bytecode(self, bucket) -> None:
        if foldable_content(bucket.environment):
            return  # it might hold content: compiled afresh, never cached
        data = _opened(self.cache.get("jinja", self._key(bucket)))
        if data is None:
            return   # none, or not signed here: compiled afresh, never run
        try:
            bucket.bytecode_from_string(data)   # checks the magic and the checksum
        except Exception:  # noqa: BLE001  (an unreadable entry: compile the template again)
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        if foldable_content(bucket.environment):
            return
        self.cache.put("jinja", self._key(bucket), _signed(bucket.bytecode_to_string()))


# Compiled code runs when loaded, and the render cache lies in the build folder, which a
# restored CI cache or an unpacked archive may fill (issue 43): each entry is signed with a key
# of this machine, user and installation, and one whose signature does not match is compiled
# afresh, never loaded. The key is never written anywhere.
_MAC = hashlib.sha256


@functools.cache
def _key_of_this_machine() -> bytes:
    import os
    import sys

    parts = [str(os.getuid() if hasattr(os, "getuid") else 0), sys.executable, __file__]
    for name in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            with open(name, "rb") as fh:
                parts.append(fh.read(64).hex())
            break
        except OSError:
            continue
    else:   # no stable id of this machine: a key of this process (entries of others refused)
        parts.append(os.urandom(32).hex())
    return hashlib.sha256("\0".join(parts).encode()).digest()


def _signed(code: bytes) -> bytes:
    return hmac.new(_key_of_this_machine(), code, _MAC).digest() + code


def _opened(entry: bytes | None) -> bytes | None:
    """The code of a signed entry, or None (no entry, or one not signed on this machine)."""
    if entry is None or len(entry) < 32:
        return None
    mac, code = entry[:32], entry[32:]
    return code if hmac.compare_digest(mac, hmac.new(_key_of_this_machine(), code, _MAC)
                                       .digest()) else None


def bytecode_cache(cache) -> TemplateCode | None:
    """The bytecode cache of a render cache, or None when it stores nothing."""
    return TemplateCode(cache) if cache is not None and cache.root is not None else None
