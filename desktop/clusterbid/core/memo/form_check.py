"""Verify the form lock (form_lock.py) and name every field change after each signature.

Three checks: the memo as approver 1 signed it carries no field or widget but the approvers'
signature fields (a field planted before signing is how shadow attacks show other content later);
approver 1's signature certifies (DocMDP) and each signature carries the FieldMDP lock the memo
gives its field; and, revision by revision, no field is added, removed or changed after a
signature except the next approver's own signature field in the revision that signs it. pyHanko's
difference analysis (its changed form fields, and the lock it enforces) is read as well.
"""

from __future__ import annotations

import hashlib

from pyhanko.pdf_utils import generic
from pyhanko.sign.diff_analysis import DEFAULT_DIFF_POLICY, DiffResult, SuspiciousModification

from clusterbid.core.memo.form_lock import certification_level, field_lock

KINDS = {
    "/Tx": "text field",
    "/Btn": "button field",
    "/Ch": "choice field",
    "/Sig": "signature field",
}
MAX_DEPTH = 8
MAX_PAGES = 10_000  # a page tree walk stops here (a memo has a dozen pages; a loop has no end)
SKIPPED_KEYS = {"/Parent", "/P", "/Kids", "/Data"}  # back-links (/Data: a signature's DocMDP
# reference to the catalogue) and children, which are compared on their own


def _snapshot(value, resolve, depth: int = 0):
    """A field's or widget's content with every reference followed in this revision's view, so an
    object rewritten in place compares unequal; streams by their bytes' SHA-256."""
    if isinstance(value, generic.IndirectObject):
        if depth > MAX_DEPTH:
            return ("ref", value.idnum)
        value = _resolve(resolve, value)
    if isinstance(value, generic.StreamObject):
        return (
            "stream",
            hashlib.sha256(value.encoded_data).hexdigest(),
            _snapshot(generic.DictionaryObject(value), resolve, depth + 1),
        )
    if isinstance(value, generic.DictionaryObject):
        return tuple(
            (str(k), _snapshot(value.raw_get(k), resolve, depth + 1))
            for k in sorted(value)
            if k not in SKIPPED_KEYS
        )
    if isinstance(value, generic.ArrayObject):
        return tuple(_snapshot(value.raw_get(i), resolve, depth + 1) for i in range(len(value)))
    return str(value)


def _resolve(resolver, value):
    """`value` as this revision has it: a reference is looked up in the revision's own view."""
    return resolver(value.reference) if isinstance(value, generic.IndirectObject) else value


def _fields(resolver) -> dict[str, tuple[str, object]]:
    """Every terminal field of the AcroForm in this revision: name -> (kind, snapshot)."""
    found: dict[str, tuple[str, object]] = {}
    root = _resolve(resolver, resolver.trailer_view.raw_get("/Root"))
    form = _resolve(resolver, root.raw_get("/AcroForm")) if "/AcroForm" in root else None
    if not isinstance(form, generic.DictionaryObject) or "/Fields" not in form:
        return found
    stack = [(kid, "", None) for kid in _resolve(resolver, form.raw_get("/Fields"))]
    while stack:
        node, prefix, inherited = stack.pop()
        node = _resolve(resolver, node)
        name = prefix + str(node.get("/T", "")) if "/T" in node else prefix.rstrip(".")
        kind = str(node.get("/FT", inherited or ""))
        kids = (
            [_resolve(resolver, kid) for kid in _resolve(resolver, node.raw_get("/Kids"))]
            if "/Kids" in node
            else []
        )
        if kids and any("/T" in kid for kid in kids):
            stack += [(kid, name + ".", kind) for kid in kids]
            continue
        found[name or "(unnamed)"] = (
            KINDS.get(kind, f"{kind or 'untyped'} field"),
            _snapshot(node, resolver, 0),
        )
    return found


def _annotations(resolver) -> list[tuple[int, str, str]]:
    """(page number, subtype, field name or '') of every annotation on every page."""
    out = []
    for number, page in enumerate(_pages(resolver), start=1):
        annots = _resolve(resolver, page.raw_get("/Annots")) if "/Annots" in page else ()
        for annot in annots:
            annot = _resolve(resolver, annot)
            out.append((number, str(annot.get("/Subtype", "")), str(annot.get("/T", ""))))
    return out


def _pages(resolver):
    root = _resolve(resolver, resolver.trailer_view.raw_get("/Root"))
    stack, seen = [root.raw_get("/Pages")], 0
    while stack and seen < MAX_PAGES:
        node, seen = _resolve(resolver, stack.pop(0)), seen + 1
        if "/Kids" in node:
            stack = list(_resolve(resolver, node.raw_get("/Kids"))) + stack
        else:
            yield node


def exported_form_problems(resolver, approver_fields: list[str], who: str) -> list[str]:
    """Anything in the memo as `who` signed it that is not an approver's signature field."""
    problems = []
    for name, (kind, _) in sorted(_fields(resolver).items()):
        if name not in approver_fields or kind != "signature field":
            problems.append(
                f"{kind} '{name}' is in the memo as {who} signed it: a memo carries only the "
                "approvers' signature fields (a field planted before signing can show other "
                "content once filled: a shadow attack)"
            )
    for page, subtype, name in _annotations(resolver):
        if subtype != "/Widget" or name not in approver_fields:
            problems.append(
                f"{subtype.lstrip('/') or 'untyped'} annotation{f' {name!r}' if name else ''} on "
                f"page {page} of the memo as {who} signed it: a memo carries none but the "
                "approvers' signature widgets"
            )
    return problems


def lock_problems(embedded: list, approver_fields: list[str]) -> list[str]:
    """Approver 1 certifies; each signature locks what form_lock.field_lock says for its field."""
    problems = []
    for position, sig in enumerate(embedded):
        field = str(sig.field_name)
        if field not in approver_fields:
            continue
        index = approver_fields.index(field)
        if index == 0:
            certifies = "/Perms" in sig.reader.root and "/DocMDP" in sig.reader.root["/Perms"]
            wanted = certification_level(len(approver_fields))
            if position != 0 or not certifies or sig.docmdp_level != wanted:
                problems.append(
                    f"{field}: not a certification signature allowing {wanted.name.lower()} "
                    "made first: the memo is not locked the way ClusterBid exports it"
                )
        wanted_lock = field_lock(approver_fields, index)
        lock = sig.fieldmdp
        if (
            lock is None
            or lock.action != wanted_lock.action
            or list(lock.fields or []) != list(wanted_lock.fields or [])
        ):
            problems.append(
                f"{field}: the signature locks {_lock_words(lock)}, not {_lock_words(wanted_lock)}"
            )
    return problems


def _lock_words(lock) -> str:
    if lock is None:
        return "no field"
    fields = ", ".join(lock.fields or []) or "none"
    return {
        "ALL": "every field",
        "EXCLUDE": f"every field but {fields}",
        "INCLUDE": f"only {fields}",
    }.get(lock.action.name, str(lock.action))


def change_problems(reader, embedded: list, sealed: dict[str, int] | None = None) -> list[str]:
    """Field changes after each signature, revision by revision, in words; then pyHanko's view.
    `sealed`: the seal's document timestamp fields and the revision each was added in
    (seal_fields.py), the one field change allowed after the last signature."""
    sealed = sealed or {}
    if not embedded:
        return []
    signed_in = {sig.signed_revision: str(sig.field_name) for sig in embedded}
    first = min(signed_in)
    before = _fields(reader.get_historical_resolver(first))
    problems, last_signer = [], signed_in[first]
    for revision in range(first + 1, reader.xrefs.total_revisions):
        now = _fields(reader.get_historical_resolver(revision))
        signing = signed_in.get(revision)
        for name in sorted(set(before) | set(now)):
            if before.get(name) == now.get(name) or name == signing or sealed.get(name) == revision:
                continue
            kind = (now.get(name) or before[name])[0]
            verb = (
                "added"
                if name not in before
                else "removed"
                if name not in now
                else "filled or changed"
            )
            problems.append(
                f"{kind} '{name}' {verb} after {last_signer} signed (revision {revision + 1})"
            )
        problems += _annotation_changes(reader, revision, last_signer, sealed)
        before, last_signer = now, signing or last_signer
    for sig in embedded:
        problems += _pyhanko_view(sig)
    return problems


def _annotation_changes(
    reader, revision: int, last_signer: str, sealed: dict[str, int]
) -> list[str]:
    old = _annotations(reader.get_historical_resolver(revision - 1))
    new = _annotations(reader.get_historical_resolver(revision))
    gone = [a for a in old if a not in new]
    # the seal's timestamp widget, in the revision that adds its timestamp, is no change to refuse
    added = [
        a for a in new if a not in old and not (a[1] == "/Widget" and sealed.get(a[2]) == revision)
    ]
    return [
        f"{subtype.lstrip('/')} annotation{f' {name!r}' if name else ''} on page {page} {verb} "
        "after "
        f"{last_signer} signed (revision {revision + 1})"
        for verb, items in (("added", added), ("removed", gone))
        for page, subtype, name in items
    ]


def _pyhanko_view(sig) -> list[str]:
    """pyHanko's difference analysis of what follows `sig` (already run by its validation)."""
    field = str(sig.field_name)
    result = sig.diff_result
    if result is None:
        try:
            result = sig.evaluate_modifications(DEFAULT_DIFF_POLICY)
        except Exception as exc:  # noqa: BLE001 (a damaged revision: the signature check says so)
            return [
                f"{field}: the changes after this signature cannot be analysed "
                f"({type(exc).__name__})"
            ]
    if isinstance(result, SuspiciousModification):
        return [f"{field}: pyHanko refuses what was written after this signature: {result}"]
    if isinstance(result, DiffResult):
        lock = sig.fieldmdp
        locked = sorted(
            name for name in result.changed_form_fields if lock is None or lock.is_locked(name)
        )
        if locked:
            return [
                f"{field}: form fields changed after this signature that it locks: "
                f"{', '.join(locked)}"
            ]
    return []
