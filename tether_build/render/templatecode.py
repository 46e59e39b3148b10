"""Compiled Jinja templates kept in the render cache, so a build does not compile them again.

Compiling the card and rulebook templates costs a build about 0.25 s of CPU (29 templates),
every build, typed or watched. Jinja can keep each template's compiled code (a `marshal`led
code object, like Python's own `__pycache__`) in a bytecode cache; this one is an entry kind
("jinja") of the build's render cache. Jinja checks each entry's source checksum and Python
magic before using it, and the key names both, so an edited template is compiled afresh and
an entry of another Python version is never read.
"""

from __future__ import annotations

import hashlib

import jinja2


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
        return hashlib.sha256(f"{bucket.key}|{bucket.checksum}|{settings!r}".encode()
                              + jinja2.bccache.bc_magic).hexdigest()

    def load_bytecode(self, bucket) -> None:
        data = self.cache.get("jinja", self._key(bucket))
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)   # checks the magic and the checksum
        except Exception:  # noqa: BLE001  (an unreadable entry: compile the template again)
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        self.cache.put("jinja", self._key(bucket), bucket.bytecode_to_string())


def bytecode_cache(cache) -> TemplateCode | None:
    """The bytecode cache of a render cache, or None when it stores nothing."""
    return TemplateCode(cache) if cache is not None and cache.root is not None else None
