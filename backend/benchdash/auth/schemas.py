"""Wire types of sign-in."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StrictBool

from benchdash.kit.validation import SafeStr


class LoginIn(BaseModel):
    """Username and password."""

    username: SafeStr = Field(min_length=1, max_length=120)
    password: SafeStr = Field(min_length=1, max_length=1000)


class SignInWarning(BaseModel):
    """An account that saw the throttle's ceiling of sign-in attempts within its window."""

    at: datetime
    username: str
    attempts: int
    window_s: float
    last_address: str | None = Field(description="The address of the attempt that reached it")


class UserRead(BaseModel):
    """The signed-in user."""

    username: str
    is_admin: bool


class TokenRead(BaseModel):
    """An API token as an admin sees it: its prefix, never its secret."""

    id: int
    name: str
    prefix: str = Field(description="The token's public part: bd_<prefix>_…")
    scopes: list[str]
    systems: list[str] = Field(description="The systems it may act on; empty: every system.")
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class TokenCreate(BaseModel):
    """A token to create."""

    name: SafeStr = Field(min_length=1, max_length=120)
    scopes: list[Literal["upload", "agent", "trigger", "admin"]] = Field(min_length=1, max_length=4)
    systems: list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")]] = Field(
        default_factory=list, max_length=100, description="Empty: every system."
    )


class TokenCreated(TokenRead):
    """A new token: `token` is its full text, shown this once and never again."""

    token: str


class UserAdminRead(BaseModel):
    """A user as an admin sees it."""

    id: int
    username: str
    is_admin: bool
    created_at: datetime
    disabled_at: datetime | None


class UserCreate(BaseModel):
    """A user to create."""

    username: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,119}$")
    password: SafeStr = Field(min_length=12, max_length=1000)
    is_admin: StrictBool = False  # JSON true/false only: 0 or "yes" is refused


class UserState(BaseModel):
    """Whether a user is disabled."""

    disabled: StrictBool
