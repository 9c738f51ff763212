"""A tiny Markdown-to-HTML converter for the rules pages.

It knows what the rules pages use: headings, paragraphs, bullet lists, tables,
``**bold**``, ``*italic*``, ```code``` and links (kept only between rules pages).
Every piece of text is HTML-escaped first.
"""

from __future__ import annotations

import html
import re

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([a-z0-9-]+)\.md\)")
_HEADING = re.compile(r"(#{1,6})\s+(.*)")


def inline(text: str) -> str:
    """Escape ``text`` and apply the inline marks."""
    out = html.escape(text, quote=True)
    codes: list[str] = []

    def keep(match: re.Match[str]) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    out = _CODE.sub(keep, out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    out = _LINK.sub(r'<a href="#rules/\2">\1</a>', out)
    return re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m.group(1))], out)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def to_html(markdown: str, top: int = 1) -> str:
    """The HTML of a Markdown text, its ``#`` headings at level ``top`` (``<h2>`` for 2: under
    the page's own ``<h1>``), the others below it (at most ``<h6>``)."""
    lines = markdown.splitlines()
    out: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    k = 0
    while k < len(lines):
        line = lines[k].rstrip()
        stripped = line.strip()
        heading = _HEADING.fullmatch(stripped)
        if not stripped:
            flush()
        elif heading:
            flush()
            level = min(6, len(heading.group(1)) + top - 1)
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif stripped.startswith("|") and k + 1 < len(lines) and re.fullmatch(
                r"\|?[\s:|-]+\|?", lines[k + 1].strip() or "x"):
            flush()
            head = _cells(stripped)
            rows = []
            k += 2
            while k < len(lines) and lines[k].strip().startswith("|"):
                rows.append(_cells(lines[k]))
                k += 1
            table = ["<table><thead><tr>", *(f"<th>{inline(c)}</th>" for c in head), "</tr></thead><tbody>"]
            for row in rows:
                table += ["<tr>", *(f"<td>{inline(c)}</td>" for c in row), "</tr>"]
            out.append("".join(table + ["</tbody></table>"]))
            continue
        elif stripped.startswith(("- ", "* ")):
            if paragraph:
                flush()
            items.append(stripped[2:])
        elif items and line.startswith((" ", "\t")):
            items[-1] += " " + stripped
        else:
            if items:
                flush()
            paragraph.append(stripped)
        k += 1
    flush()
    return "\n".join(out)
