"""The compiled fixture content, shared with the engine tests."""

from tests.engine.conftest import compiled  # noqa: F401  (a fixture)
