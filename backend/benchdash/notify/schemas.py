"""Wire types of notifications: subscriptions and their delivery log."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, model_validator

from benchdash.kit.validation import HTTP_URL, SafeStr, check_text
from benchdash.notify.states import (
    SUBSCRIBABLE,
    Channel,
    DeliveryStatus,
    Event,
    SubscribableEvent,
)

EMAIL = re.compile(r"^[^@ \t\n\r\f\v<>,;\x00]+@[^@ \t\n\r\f\v<>,;\x00]+\.[^@ \t\n\r\f\v<>,;\x00]+$")
URL = re.compile(HTTP_URL)


def _subscribable(events: list[SubscribableEvent]) -> list[SubscribableEvent]:
    return sorted(set(events), key=list(Event).index)


def _every_event() -> list[SubscribableEvent]:
    return list(SUBSCRIBABLE)  # type: ignore[arg-type]  # the Literal's members, in order


class SubscriptionBase(BaseModel):
    """What every subscription says."""

    system: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")]
    branch: Annotated[SafeStr, Field(min_length=1, max_length=200)] | None = Field(
        None, description="Only this branch (default: every branch)"
    )
    channel: Channel
    name: Annotated[SafeStr, Field(min_length=1, max_length=120)]
    events: Annotated[
        list[SubscribableEvent],
        Field(min_length=1, max_length=len(SUBSCRIBABLE)),
        AfterValidator(_subscribable),
    ] = Field(default_factory=_every_event)


class SubscriptionCreate(SubscriptionBase):
    """A new subscription; `target` is the webhook or Slack URL, or the e-mail address."""

    target: Annotated[SafeStr, Field(min_length=3, max_length=2000)]

    @model_validator(mode="after")
    def _target_fits_channel(self) -> SubscriptionCreate:
        if self.channel == Channel.EMAIL:
            if len(self.target) > 320 or not EMAIL.match(self.target):
                raise ValueError("target: an e-mail channel needs an address like ann@example.com")
        elif not URL.match(self.target):
            raise ValueError(f"target: a {self.channel} channel needs an http(s) URL")
        return self


class MySubscriptionCreate(BaseModel):
    """A signed-in user subscribing themselves: e-mail to their own address."""

    system: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")]
    branch: Annotated[SafeStr, Field(min_length=1, max_length=200)] | None = Field(
        None, description="Only this branch (default: every branch)"
    )
    # The e-mail pattern is the documented one (a second pattern, SafeStr's, would replace it in
    # the schema); check_text still refuses NUL and lone surrogates.
    address: Annotated[
        str, Field(min_length=3, max_length=320, pattern=EMAIL.pattern), AfterValidator(check_text)
    ] = Field(description="Your e-mail address")
    events: Annotated[
        list[SubscribableEvent],
        Field(min_length=1, max_length=len(SUBSCRIBABLE)),
        AfterValidator(_subscribable),
    ] = Field(default_factory=_every_event)


class SubscriptionRead(SubscriptionBase):
    """A subscription as listed: a Slack URL masked, a webhook's secret never shown."""

    id: int
    target: str
    owner: str | None = Field(
        None, description="Whose personal subscription this is (null: a team's, made by an admin)"
    )
    created_by: str
    created_at: datetime
    consecutive_failures: int = Field(
        0, description="Deliveries that ended failed since the last one delivered"
    )
    paused_at: datetime | None = Field(
        None, description="When it was paused for failing (null: deliveries are queued)"
    )
    paused_reason: str | None = Field(
        None,
        description="Why, in words: 'paused after 5 failed deliveries; last: HTTP 410 from "
        "hooks.example.com' (resume it once the receiver is fixed)",
    )


class SubscriptionCreated(SubscriptionRead):
    """The answer to creating one: a webhook's signing secret, shown this once."""

    secret: str | None = Field(
        None, description="The webhook's HMAC-SHA256 signing secret; not shown again"
    )


class DeliveryRead(BaseModel):
    """One line of a subscription's delivery log."""

    id: str = Field(description="The delivery id receivers see (Benchdash-Delivery)")
    event: Event
    status: DeliveryStatus
    attempts: int
    last_error: str | None
    title: str | None
    created_at: datetime
    last_attempt_at: datetime | None
    delivered_at: datetime | None
