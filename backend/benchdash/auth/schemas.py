"""Wire types of sign-in."""

from pydantic import BaseModel, Field

from benchdash.kit.validation import SafeStr


class LoginIn(BaseModel):
    """Username and password."""

    username: SafeStr = Field(min_length=1, max_length=120)
    password: SafeStr = Field(min_length=1, max_length=1000)


class UserRead(BaseModel):
    """The signed-in user."""

    username: str
    is_admin: bool
