"""Wire types of sign-in."""

from pydantic import BaseModel, Field


class LoginIn(BaseModel):
    """Username and password."""

    username: str = Field(min_length=1, max_length=120)
    password: str = Field(min_length=1, max_length=1000)


class UserRead(BaseModel):
    """The signed-in user."""

    username: str
    is_admin: bool
