"""Where a webhook or Slack notification may go: never into the server's own network.

A subscription's URL is checked when it is made (422) and again at each delivery after
resolving its host (`socket.getaddrinfo`), and the request then goes to the very address that
was checked (so a name that resolves elsewhere the second time, DNS rebinding, gains nothing).
Refused: loopback, link-local (the cloud metadata service at 169.254.169.254 among them),
private, shared (carrier-grade NAT), unspecified, multicast and reserved addresses, and any
other address that is not globally routable — per Python's `ipaddress` properties, with IPv6
forms of IPv4 addresses judged as the IPv4 address. `BENCHDASH_NOTIFY_ALLOW_PRIVATE=1` lifts
the rule (a receiver on the same network, the tests' local receivers).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
_KINDS = (
    ("is_loopback", "a loopback address"),
    ("is_link_local", "a link-local address (cloud metadata lives there)"),
    ("is_private", "a private address"),
    ("is_unspecified", "an unspecified address"),
    ("is_multicast", "a multicast address"),
    ("is_reserved", "a reserved address"),
)


class TargetRefused(Exception):
    """The target's host is, or resolves to, an address notifications may not reach."""


@dataclass(frozen=True, kw_only=True)
class Pinned:
    """A URL rewritten to the checked address, with the Host header and TLS name it needs."""

    url: str
    host_header: str
    server_name: str


def refusal(ip: Address) -> str | None:
    """Why notifications may not go to `ip`, or None when it is a public address."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is not None:
            return refusal(inner)
    for prop, words in _KINDS:
        if getattr(ip, prop):
            return words
    return None if ip.is_global else "an address that is not globally routable"


def resolve(host: str, port: int) -> list[Address]:
    """Every address `host` resolves to (TCP), or TargetRefused when it does not resolve."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise TargetRefused(f"host {host!r} does not resolve: {e}") from None
    found: list[Address] = []
    for *_, sockaddr in infos:
        ip = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if ip not in found:
            found.append(ip)
    return found


def check(url: str, *, allow_private: bool) -> Pinned | None:
    """The URL pinned to its checked address, or None when private targets are allowed (sent
    as they are); TargetRefused when the host is, or resolves to, a refused address."""
    if allow_private:
        return None
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as e:  # a port that is no number or out of range, a bad IPv6 literal
        raise TargetRefused(f"the URL cannot be read: {e}") from None
    if not host:
        raise TargetRefused("the URL names no host")
    addresses = resolve(host, port)
    for ip in addresses:
        why = refusal(ip)
        if why is not None:
            raise TargetRefused(
                f"{host} is {why} ({ip}): notifications go to public addresses only "
                "(BENCHDASH_NOTIFY_ALLOW_PRIVATE=1 allows others)"
            )
    ip = addresses[0]
    userinfo, _, hostport = parts.netloc.rpartition("@")
    shown = f"[{ip}]" if ip.version == 6 else str(ip)
    netloc = (f"{userinfo}@" if userinfo else "") + shown + (f":{parts.port}" if parts.port else "")
    return Pinned(
        url=urlunsplit(parts._replace(netloc=netloc)), host_header=hostport, server_name=host
    )
