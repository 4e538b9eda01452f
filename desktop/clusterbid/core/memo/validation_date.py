"""`clusterbid verify --at DATE`: would the memo's signatures validate at another date, past or
future, from what the file itself holds?

The long-term view (long_term.py) is validated at that moment with nothing but the file's own
validation data (the DSS the seal wrote and its document timestamps; no network). Asked about a
date, its indication joins the verdict: TOTAL-FAILED is a finding proven wrong, INDETERMINATE
one not proven. Without --at the verdict is as before: today's checks decide it and the long-term
lines inform (an offline signature is sound today though the file cannot yet prove it in ten
years). A date before a signature was made is refused: nothing can be validated before it exists.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.memo.field_name import fields_in_words

if TYPE_CHECKING:
    from clusterbid.core.memo.verification import MemoVerification

# The signer's clock and a timestamp authority's differ by seconds to minutes; an --at within
# that of the signing is not "before it existed".
_CLOCK_SLACK = timedelta(minutes=5)
FORMS = (
    "YYYY-MM-DD (the end of that day, UTC) or YYYY-MM-DDTHH:MM[:SS] with an offset such as "
    "+02:00 (UTC when none is given)"
)


def parse_validation_date(text: str) -> datetime:
    """The moment `--at TEXT` names, timezone-aware; InputError naming the option and the forms."""
    given = text.strip()
    try:
        if len(given) == 10:  # a day alone: the whole day has passed, so its end
            return datetime.combine(date.fromisoformat(given), time(23, 59, 59), UTC)
        moment = datetime.fromisoformat(given.replace("Z", "+00:00"))
    except ValueError:
        raise InputError(f"--at {text!r}: not a date or time; give {FORMS}") from None
    if "T" not in given and " " not in given:
        raise InputError(f"--at {text!r}: not a date or time; give {FORMS}")
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def refuse_before_signing(result: MemoVerification, moment: datetime) -> None:
    """InputError when `moment` is before a signature was made (its proof of existence when a
    timestamp gives one, else the signer's clock): say the earliest date that can be asked."""
    made = {sig.field: sig.signing_time for sig in result.signatures}
    for report in result.long_term:
        when = report.proven_at or made.get(report.field)
        if when is not None and moment < when - _CLOCK_SLACK:
            raise InputError(
                fields_in_words(
                    f"--at {moment:%Y-%m-%d %H:%M:%S} UTC is before {report.field} was signed "
                    f"({when:%Y-%m-%d %H:%M:%S} UTC): a signature cannot be validated before it "
                    f"existed; give a date on or after {when:%Y-%m-%d}"
                )
            )


def with_long_term_verdict(result: MemoVerification, moment: datetime) -> MemoVerification:
    """`result` (validated at `moment`) with each signature's long-term indication in the verdict."""
    problems, unproven = list(result.problems), list(result.unproven)
    at = f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    for report in result.long_term:
        sub = (
            f" ({report.sub_indication.replace('_', ' ').lower()})" if report.sub_indication else ""
        )
        if report.indication == "TOTAL-FAILED":
            problems.append(
                f"{report.field}: at {at} its signature fails validation from the "
                f"file's own data{sub}"
            )
        elif report.indication != "TOTAL-PASSED":
            unproven.append(
                f"{report.field}: at {at} the file alone does not prove its signature"
                f"{sub}; level {report.level}. Seal the memo (clusterbid seal) while "
                "the certificates' services answer, and again before the timestamp "
                "authority's certificate expires"
            )
    return dataclasses.replace(result, problems=tuple(problems), unproven=tuple(unproven))
