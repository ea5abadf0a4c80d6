"""The review as one self-contained HTML file, opened from disk with no server::

    python -m agents.web review FILE [-o runs/review.html] [--agent SPEC] [--threshold 0.2]
                                [--record N] [--format auto|records|jasskit] [--rules PRESET]

FILE is a records file (JSON Lines, docs/records.md) or a jass-kit game log (format ``auto``
tells them apart). The output is the app's page (``static/index.html``) in review mode with its
style sheet and scripts inlined in the order the page lists them, and the review in a
``<script type="application/json" id="embedded-review">``: every record (or only ``--record N``,
the record's index as the review lists it, 0 = the first), seen from every seat with the hands
closed and open, and with ``--agent`` the agent's analysis of every decision
(:func:`agents.web.review.analyse`, ``--threshold`` for "only where it differed"). The file makes
no request to anything: no other file, no network (the page's Content-Security-Policy says so too).

Lines that cannot be reviewed are listed on standard error with their line and why; the others
are in the page. Exit status 0 when every line was reviewed, 1 when some were not (the file is
written all the same), 2 on a usage error, an unreadable FILE, a file with no reviewable record,
a bad agent, or an OUT that cannot be written (then nothing is written).
"""

from __future__ import annotations

import argparse
import base64
import json
import mimetypes
import os
import re
import sys
from pathlib import Path
from typing import Any

from jass_env.games import PRESETS
from jass_env.records.format import write_text_atomically

from .review import DEFAULT_THRESHOLD, FORMATS, Review, ReviewError, analyse, check_threshold, read_review

STATIC_DIR = Path(__file__).resolve().parent / "static"
PAGE = "index.html"
EMBED_ID = "embedded-review"
DEFAULT_OUTPUT = Path("runs") / "review.html"

#: what the page's text is read as, in order: a comment (dropped: it may mention tags), a script
#: or style element with its text (group 1 the tag, 2 its attributes), a link tag
_TOKENS = re.compile(r"<!--.*?-->|<(script|style)\b([^>]*)>.*?</\1\s*>|<link\b[^>]*>",
                     re.IGNORECASE | re.DOTALL)
_ATTR = re.compile(r"""\s([a-zA-Z-]+)\s*=\s*(["'])(.*?)\2""", re.DOTALL)
#: an attribute that makes the browser fetch something (what is left of them after inlining must
#: point nowhere: a fragment, or data inside the page)
_FETCHING_ATTR = re.compile(r"""\s(src|href|srcset|poster|data|action)\s*=\s*(["']?)([^"'\s>]*)""",
                            re.IGNORECASE)


def embedded_review(review: Review, agent: str | None = None, threshold: float = DEFAULT_THRESHOLD,
                    record: int | None = None, seed: int = 0) -> dict[str, Any]:
    """The review data the page reads from ``#embedded-review``: the review's records (or record
    ``record`` only), each seen from every seat with the hands closed and open, and ``agent``'s
    analysis of each when given (docs: the design's embedded format)."""
    threshold = check_threshold(threshold)
    records = review.records if record is None else [review.record(record)]
    reviews = {str(r.index): {str(seat): {"open": r.review(seat, True), "closed": r.review(seat, False)}
                              for seat in range(r.rules.spec.players)} for r in records}
    analysis = {str(r.index): analyse(r, agent, threshold, seed) for r in records} if agent else {}
    return {"name": review.name, "format": review.format, "problems": review.problems,
            "records": [r.summary() for r in records], "reviews": reviews, "agent": agent,
            "threshold": threshold, "analysis": analysis}


def script_json(data: Any) -> str:
    """JSON text safe inside a ``<script>`` element: every ``<`` written as ``\\u003c`` (the same
    string to a JSON reader), so no ``</script>`` or ``<!--`` in the data can end or change it."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def self_contained_page(data: Any, static_dir: Path | None = None) -> str:
    """The page ``static_dir/index.html`` (default :data:`STATIC_DIR`, the app's) with its local
    style sheets and scripts inlined (in the order it lists them) and ``data`` in ``<script
    type="application/json" id="embedded-review">`` before its first script. ReviewError when the
    page refers to a file that is not there, or to anything (a URL, a file) that cannot be inlined."""
    static_dir = STATIC_DIR if static_dir is None else static_dir
    embedded = f'<script type="application/json" id="{EMBED_ID}">{script_json(data)}</script>\n'
    scripts = 0

    def inline(m: re.Match[str]) -> str:
        nonlocal scripts
        whole, tag = m.group(0), (m.group(1) or "").lower()
        if whole.startswith("<!--"):
            return ""
        if not tag:
            return _inline_link(whole, static_dir)
        if tag == "style":
            return whole
        scripts += 1
        before = embedded if scripts == 1 else ""
        src = _attrs(m.group(2)).get("src")
        if src is None:
            return before + whole
        code = _read(static_dir, _local_name(src))
        attrs = _ATTR.sub(lambda a: "" if a.group(1).lower() == "src" else a.group(0), m.group(2))
        return f"{before}<script{attrs}>{_escape_end_tag(code, 'script')}</script>"

    html = _TOKENS.sub(inline, _read(static_dir, PAGE))
    if scripts == 0:
        raise ReviewError(f"{PAGE} has no script: it cannot show a review")
    left = [m.group(0).strip() for m in _FETCHING_ATTR.finditer(_without_embedded(html))
            if not _points_nowhere(m.group(3))]
    if left:
        raise ReviewError(f"{PAGE} refers to {', '.join(left[:5])}, which the export cannot inline; "
                          f"the page must be one file")
    return html


def _attrs(text: str) -> dict[str, str]:
    """The quoted attributes of a tag's attribute text, by lower-case name."""
    return {k.lower(): v for k, _, v in _ATTR.findall(text)}


def _inline_link(tag: str, static_dir: Path) -> str:
    """A link tag with its file inlined: a style sheet as a ``<style>`` element, another file (an
    icon) as a data URI; a link that points nowhere (a fragment, data) as it is."""
    attrs = _attrs(tag)
    href = attrs.get("href")
    if href is None or _points_nowhere(href):
        return tag
    name = _local_name(href)
    if "stylesheet" in attrs.get("rel", "").lower().split():
        return f"<style>{_escape_end_tag(_read(static_dir, name), 'style')}</style>"
    return tag.replace(href, _data_uri(static_dir, name), 1)


def _without_embedded(html: str) -> str:
    """The page without the text of its style and script elements (data, not attributes)."""
    return re.sub(r"<(script|style)\b[^>]*>.*?</\1\s*>", "", html, flags=re.IGNORECASE | re.DOTALL)


def _points_nowhere(target: str) -> bool:
    """Whether an attribute's target makes no request: empty, a fragment, or data in the page."""
    return target == "" or target.startswith(("#", "data:"))


def _local_name(ref: str) -> str:
    """The file a page's relative reference names (``static/app.js``, ``./app.js``) in the static
    folder; ReviewError for a URL or a path out of it."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", ref):
        raise ReviewError(f"{PAGE} refers to {ref!r}, a URL: the exported page may make no request")
    name = ref.split("?", 1)[0].split("#", 1)[0].lstrip("/").removeprefix("./").removeprefix("static/")
    if not name or "/" in name or name.startswith("."):
        raise ReviewError(f"{PAGE} refers to {ref!r}, which is no file of the page's folder")
    return name


def _read(static_dir: Path, name: str) -> str:
    return _read_bytes(static_dir, name).decode("utf-8")


def _read_bytes(static_dir: Path, name: str) -> bytes:
    try:
        return (static_dir / name).read_bytes()
    except OSError as exc:
        raise ReviewError(f"cannot read the page's file {name} in {static_dir}: "
                          f"{exc.strerror or exc}") from None


def _data_uri(static_dir: Path, name: str) -> str:
    raw = _read_bytes(static_dir, name)
    kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return f"data:{kind};base64,{base64.b64encode(raw).decode('ascii')}"


def _escape_end_tag(text: str, tag: str) -> str:
    """Script or style text inlined so that nothing in it ends its element early: ``</script``
    becomes ``<\\/script`` (the same text to JavaScript and CSS, whose ``\\/`` is ``/``)."""
    return re.sub(rf"</({tag})", r"<\\/\1", text, flags=re.IGNORECASE)


# command line
def add_review_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``review`` subcommand of ``python -m agents.web``."""
    p = sub.add_parser("review", help="write a review of a records file or jass-kit log as one HTML file",
                       description="Write FILE's records (or a jass-kit log's games) as one self-contained "
                                   "HTML page that opens from disk with no server: step through every "
                                   "decision from any seat, hands closed or open, and with --agent see "
                                   "what the agent thinks of each. Exit status 0 when every line was "
                                   "reviewed, 1 when some could not be (listed), 2 on an error.")
    p.add_argument("file", metavar="FILE", help="records file (JSON Lines) or jass-kit log")
    p.add_argument("-o", "--output", default=str(DEFAULT_OUTPUT), metavar="OUT",
                   help=f"the HTML file to write (default {DEFAULT_OUTPUT}; replaced if it exists)")
    p.add_argument("--agent", metavar="SPEC",
                   help="an agent spec (policy, random, heuristic, pimc:worlds=10, a .pt or .onnx file) "
                        "whose opinion of each decision to show")
    p.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD, metavar="P",
                   help=f"a decision differs from the agent when p(agent's best) - p(chosen) > P "
                        f"(0..1, default {DEFAULT_THRESHOLD})")
    p.add_argument("--record", type=int, metavar="N", help="only the record with index N (0 = the first)")
    p.add_argument("--format", choices=FORMATS, default="auto", help="FILE's format (default: auto)")
    p.add_argument("--rules", dest="record_rules", choices=list(PRESETS), metavar="PRESET",
                   help="rules preset replacing each record's 'rules' field")
    p.add_argument("--seed", type=int, default=0, help="the agent's seed (default 0)")
    return p


def run_review(args: argparse.Namespace) -> int:
    """Run ``review`` (arguments of :func:`add_review_parser`); returns the exit status."""
    out = Path(args.output)
    source = Path(args.file)
    if out.exists() and source.exists() and os.path.samefile(out, source):
        return _fail(f"-o {args.output} is FILE itself; give the page another name")
    try:
        raw = source.read_bytes()
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror or exc}")
    try:
        review = read_review(raw, name=source.name, format=args.format, rules=args.record_rules)
        for problem in review.problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        if not review.records:
            return _fail(f"{args.file} has no record that can be reviewed"
                         + (f" ({len(review.problems)} lines listed above)" if review.problems else
                            " (it is empty)"))
        if args.seed < 0:
            raise ReviewError(f"--seed must be a non-negative integer, got {args.seed}")
        data = embedded_review(review, args.agent, args.threshold, args.record, args.seed)
        page = self_contained_page(data)
    except ReviewError as exc:
        return _fail(str(exc))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(out, [page])
    except OSError as exc:
        return _fail(f"cannot write {args.output}: {exc.strerror or exc}; nothing was written")
    shown = review.records if args.record is None else [review.record(args.record)]
    decisions = sum(r.outline[0] for r in shown)
    agent = f", analysed by {args.agent}" if args.agent else ""
    size = len(page.encode("utf-8")) / 2**20
    print(f"wrote {out} ({size:.1f} MiB): {len(shown)} records, {decisions} decisions{agent}; "
          f"{len(review.problems)} lines could not be reviewed; open it in a browser"
          + ("" if args.record is not None or len(shown) == 1 else " (--record N writes one record only)"),
          file=sys.stderr)
    return 1 if review.problems else 0


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


__all__ = ["embedded_review", "self_contained_page", "script_json", "add_review_parser", "run_review",
           "STATIC_DIR", "EMBED_ID"]
