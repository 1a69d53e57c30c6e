"""A focused validator of the SARIF 2.1.0 parts `ascgen check --format sarif` emits.

The official schema (OASIS SARIF 2.1.0, JSON Schema draft 4) is not shipped by any package the project
depends on, and tests never download; so this checks, for the objects ascgen writes, the constraints
that schema puts on them: required properties, types, enumerations, minimums, unique related-location
ids, and the `uri` / `uri-reference` formats of RFC 3986 (where an unencoded space or `%` is invalid).
It was cross-checked once against the official schema with jsonschema's format checker (see
docs/check.md): both reject the unencoded file names and accept the encoded output.
"""
from __future__ import annotations

import re

LEVELS = ("none", "note", "warning", "error")

# RFC 3986, section 3 and appendix A: the characters of each part of a URI reference.
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@]|%[0-9A-Fa-f]{{2}})"
_SEGMENT_NC = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}@]|%[0-9A-Fa-f]{{2}})"     # no colon: first relative segment
_AUTHORITY = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@\[\]]|%[0-9A-Fa-f]{{2}})*"
_QUERY = rf"(?:{_PCHAR}|[/?])*"
_SCHEME = r"[A-Za-z][A-Za-z0-9+.\-]*"
_HIER = rf"(?://{_AUTHORITY}(?:/{_PCHAR}*)*|/?(?:{_PCHAR}+(?:/{_PCHAR}*)*)?)"
_RELATIVE = rf"(?://{_AUTHORITY}(?:/{_PCHAR}*)*|/(?:{_PCHAR}+(?:/{_PCHAR}*)*)?|{_SEGMENT_NC}+(?:/{_PCHAR}*)*|)"
URI = re.compile(rf"{_SCHEME}:{_HIER}(?:\?{_QUERY})?(?:#{_QUERY})?")
URI_REFERENCE = re.compile(rf"(?:{_SCHEME}:{_HIER}|{_RELATIVE})(?:\?{_QUERY})?(?:#{_QUERY})?")


def problems(doc: dict) -> list[str]:
    """Every violation found, as `path: what` lines; [] for a valid log."""
    out: list[str] = []
    _expect(out, "$", doc, dict)
    _format(out, "$.$schema", doc.get("$schema"), URI, optional=True)
    if doc.get("version") != "2.1.0":
        out.append(f"$.version: {doc.get('version')!r} is not '2.1.0'")
    for i, run in enumerate(_array(out, "$.runs", doc.get("runs"))):
        _run(out, f"$.runs[{i}]", run)
    return out


def _run(out, at, run):
    driver = _expect(out, f"{at}.tool.driver", (run.get("tool") or {}).get("driver"), dict) or {}
    _expect(out, f"{at}.tool.driver.name", driver.get("name"), str)
    rules = _array(out, f"{at}.tool.driver.rules", driver.get("rules", []))
    for j, rule in enumerate(rules):
        _expect(out, f"{at}.tool.driver.rules[{j}].id", rule.get("id"), str)
        _message(out, f"{at}.tool.driver.rules[{j}].shortDescription", rule.get("shortDescription"), True)
        level = (rule.get("defaultConfiguration") or {}).get("level", "warning")
        _enum(out, f"{at}.tool.driver.rules[{j}].defaultConfiguration.level", level)
    for name, base in (run.get("originalUriBaseIds") or {}).items():
        uri = base.get("uri")
        _format(out, f"{at}.originalUriBaseIds.{name}.uri", uri, URI)
        if isinstance(uri, str) and not uri.endswith("/"):
            out.append(f"{at}.originalUriBaseIds.{name}.uri: {uri!r} does not end with '/'")
    for j, inv in enumerate(_array(out, f"{at}.invocations", run.get("invocations", []))):
        _expect(out, f"{at}.invocations[{j}].executionSuccessful", inv.get("executionSuccessful"), bool)
        for k, note in enumerate(_array(out, f"{at}.invocations[{j}].toolExecutionNotifications",
                                        inv.get("toolExecutionNotifications", []))):
            where = f"{at}.invocations[{j}].toolExecutionNotifications[{k}]"
            _enum(out, f"{where}.level", note.get("level", "warning"))
            _message(out, f"{where}.message", note.get("message"))
            for m, loc in enumerate(note.get("locations", [])):
                _location(out, f"{where}.locations[{m}]", loc)
    for j, result in enumerate(_array(out, f"{at}.results", run.get("results"))):
        where = f"{at}.results[{j}]"
        _message(out, f"{where}.message", result.get("message"))
        _enum(out, f"{where}.level", result.get("level", "warning"))
        _expect(out, f"{where}.ruleId", result.get("ruleId"), str)
        if "ruleIndex" in result:
            index = result["ruleIndex"]
            if not isinstance(index, int) or index < -1 or index >= len(rules) or \
                    rules[index].get("id") != result.get("ruleId"):
                out.append(f"{where}.ruleIndex: {index!r} does not index the rule {result.get('ruleId')!r}")
        for m, loc in enumerate(_array(out, f"{where}.locations", result.get("locations", []))):
            _location(out, f"{where}.locations[{m}]", loc)
        ids = []
        for m, loc in enumerate(_array(out, f"{where}.relatedLocations", result.get("relatedLocations", []))):
            _location(out, f"{where}.relatedLocations[{m}]", loc)
            if not isinstance(loc.get("id"), int) or loc["id"] < -1:
                out.append(f"{where}.relatedLocations[{m}].id: {loc.get('id')!r} is not an integer >= -1")
            ids.append(loc.get("id"))
        if len(ids) != len(set(map(repr, ids))):
            out.append(f"{where}.relatedLocations: the ids are not unique")


def _location(out, at, loc):
    if "message" in loc:
        _message(out, f"{at}.message", loc["message"])
    physical = _expect(out, f"{at}.physicalLocation", loc.get("physicalLocation"), dict) or {}
    artifact = _expect(out, f"{at}.physicalLocation.artifactLocation", physical.get("artifactLocation"), dict) or {}
    _format(out, f"{at}.physicalLocation.artifactLocation.uri", artifact.get("uri"), URI_REFERENCE)
    if "uriBaseId" in artifact:
        _expect(out, f"{at}.physicalLocation.artifactLocation.uriBaseId", artifact["uriBaseId"], str)
    region = physical.get("region", {})
    for key in ("startLine", "startColumn"):
        if key in region and (not isinstance(region[key], int) or region[key] < 1):
            out.append(f"{at}.physicalLocation.region.{key}: {region[key]!r} is not an integer >= 1")


def _message(out, at, message, optional=False):
    if message is None and optional:
        return
    if not isinstance(message, dict) or not isinstance(message.get("text", message.get("id")), str):
        out.append(f"{at}: a message needs a text (or id) string")


def _enum(out, at, value):
    if value not in LEVELS:
        out.append(f"{at}: {value!r} is not one of {LEVELS}")


def _format(out, at, value, pattern, optional=False):
    if value is None and optional:
        return
    if not isinstance(value, str) or not pattern.fullmatch(value):
        out.append(f"{at}: {value!r} is not a valid {'URI' if pattern is URI else 'URI reference'} (RFC 3986)")


def _expect(out, at, value, kind):
    if not isinstance(value, kind):
        out.append(f"{at}: expected {kind.__name__}, got {type(value).__name__}")
        return None
    return value


def _array(out, at, value):
    if not isinstance(value, list):
        out.append(f"{at}: expected an array, got {type(value).__name__}")
        return []
    bad = [i for i, item in enumerate(value) if not isinstance(item, dict)]
    if bad:
        out.append(f"{at}[{bad[0]}]: expected an object")
    return [item for item in value if isinstance(item, dict)]
