"""Four eyes: a memo is approved by different people, not by one person twice.

At export the approvers listed must be different people: the same name (case and spaces aside) or
the same e-mail twice is refused, naming both entries. At verify, two approver fields signed by
the same subject (name or e-mail) or the same public key are refused even when the certificates
differ: one person with two certificates, or one key certified twice, is still one person.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from clusterbid.core.errors import InputError

if TYPE_CHECKING:
    from clusterbid.core.memo.approver_binding import SignerIdentity


class Person(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def email(self) -> str: ...


def _normalised(text: str) -> str:
    return " ".join(text.split()).casefold()


def _entry(index: int, person: Person) -> str:
    email = f" <{person.email}>" if person.email else ""
    return f"approver {index} ({person.name}, {person.role}{email})"


def refuse_same_person_twice(people: Sequence[Person]) -> None:
    """InputError naming both entries when two approvers are one person (same name or e-mail)."""
    for later, person in enumerate(people, start=1):
        for earlier, other in enumerate(people[: later - 1], start=1):
            same = (
                "the same name"
                if _normalised(person.name) == _normalised(other.name)
                else "the same e-mail"
                if person.email and _normalised(person.email) == _normalised(other.email)
                else ""
            )
            if same:
                raise InputError(
                    f"{_entry(later, person)} and {_entry(earlier, other)} have {same}: a memo "
                    "needs different people to approve it (four eyes); name another approver for "
                    "one of these roles"
                )


def same_person_signed_twice(signed: Sequence[SignerIdentity]) -> list[str]:
    """Problems in words for approver fields signed by one subject or one key; a certificate used
    twice is already reported by the approver binding, so it is not repeated here."""
    problems = []
    for later, who in enumerate(signed):
        for other in signed[:later]:
            if not who.fingerprint or who.fingerprint == other.fingerprint:
                continue
            shared_email = {_normalised(e) for e in who.emails} & {
                _normalised(e) for e in other.emails
            }
            if who.public_key_sha256 and who.public_key_sha256 == other.public_key_sha256:
                problems.append(
                    f"{who.field} and {other.field} were signed with the same key (public key "
                    f"SHA-256 {who.public_key_sha256[:16]}...) in two different certificates "
                    f"({other.common_name!r} and {who.common_name!r}): one key is one person, four "
                    "eyes need two"
                )
            elif who.common_name and _normalised(who.common_name) == _normalised(other.common_name):
                problems.append(
                    f"{who.field} and {other.field} were both signed by {who.common_name} (two "
                    "certificates issued to the same name): four eyes need two different people"
                )
            elif shared_email:
                problems.append(
                    f"{who.field} and {other.field} were signed by certificates with the same "
                    f"e-mail ({', '.join(sorted(shared_email))}): four eyes need two different "
                    "people"
                )
    return problems
