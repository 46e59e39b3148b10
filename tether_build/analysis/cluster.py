"""`tether balance --cluster ADDR`: the scheduler's address checked, then asked who it is
within a time limit, before any game is sent (issue 43).

Only `tcp://host:port` is taken (the scheme Dask's default set-up speaks; `host:port` means
the same): `tls://` needs certificates this command has no options for, `ucx://` a library it
does not install, `inproc://` is a scheduler inside this very process. A scheduler that does
not accept the connection, or accepts it and never answers, or has no worker to play the
games, is reported in one line (exit 1) within CONNECT_WAIT + ANSWER_WAIT seconds: Dask's own
client waits without end for a peer that accepts and stays silent.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re

CONNECT_WAIT = 10.0   # seconds for the connection (and Dask's handshake)
ANSWER_WAIT = 10.0    # seconds for the scheduler's answer to "who are you?"
_HOST = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


def check_address(address: str) -> str:
    """`address` as `tcp://host:port`, or ValueError saying what is wrong in one line."""
    text = (address or "").strip()
    if not text:
        raise ValueError("--cluster needs a scheduler address such as tcp://10.0.0.5:8786 "
                         "(leave the option out to play on this machine)")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme.lower() != "tcp":
        raise ValueError(f"--cluster {text[:80]!r}: only tcp://host:port scheduler addresses "
                         f"are supported, not {scheme[:20]}://")
    host, colon, port = rest.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            host = ""
    elif not _HOST.match(host or ""):
        host = ""
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--cluster {text[:80]!r}: expected tcp://host:port (a host name or "
                         "address, and a port from 1 to 65535)")
    return f"tcp://{'[' + host + ']' if ':' in host else host}:{int(port)}"


async def _identity(address: str) -> dict:
    from distributed.comm import connect

    comm = await asyncio.wait_for(connect(address, timeout=CONNECT_WAIT), CONNECT_WAIT + 1)
    try:
        await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), ANSWER_WAIT)
        return await asyncio.wait_for(comm.read(), ANSWER_WAIT)
    finally:
        comm.abort()


def probe(address: str) -> dict:
    """The scheduler's identity; ValueError in one line when it cannot be had in time, or
    when the scheduler has no worker to give the games to."""
    try:
        info = asyncio.run(_identity(address))
    except TimeoutError:
        raise ValueError(f"the scheduler at {address} did not answer within "
                         f"{CONNECT_WAIT + ANSWER_WAIT:.0f} s (is it a Dask scheduler, "
                         "and running?)") from None
    except OSError as exc:
        raise ValueError(f"cannot reach the scheduler at {address}: "
                         f"{str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__}"
                         ) from None
    except Exception as exc:  # noqa: BLE001  (Dask's CommClosedError and the like)
        raise ValueError(f"cannot talk to the scheduler at {address}: {type(exc).__name__}"
                         f"{': ' + str(exc).splitlines()[0][:200] if str(exc) else ''}"
                         ) from None
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        raise ValueError(f"{address} answered, but not as a Dask scheduler")
    if not info.get("n_workers"):
        raise ValueError(f"the scheduler at {address} has no workers: the games would wait "
                         "for one without end (start `dask worker " + address + "`)")
    return info
