"""A path convertor for integer ids that sit beside literal segments.

`/subscriptions/{subscription_id:id}` matches `-3` and `42` (the endpoint validates the value
and answers 404 or 422 as documented) but not `mine`, so a wrong method on the literal route
`/subscriptions/mine` is a 405 naming its methods, not a 422 from the id route.
"""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor


class SignedIntId(Convertor[int]):
    """An integer, sign included; anything else is no match."""

    regex = "-?[0-9]+"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", SignedIntId())
