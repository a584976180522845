"""Command line: ``python -m bpe_core train|merges|encode|decode|export|import``.

$ python -m bpe_core train corpus.txt --merges 100 --end-of-word "</w>" -o model.json
$ python -m bpe_core encode model.json "the lowest"
{"ids": [...], "tokens": [...]}

Every failure is one line on standard error and exit status 1 (2 for bad arguments).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .config import Config
from .formats import load_any, to_gpt2_files, to_hf_json
from .tokenizer import Tokenizer
from .train import train


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text (byte {error.start}: {error.reason})") from None


def _write(path: str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8")


def _load_model(path: str) -> Tokenizer:
    return load_any({Path(path).name: _read_text(path)})


def _cmd_train(args: argparse.Namespace) -> None:
    config = Config(
        split=args.split,
        units=args.units,
        end_of_word=args.end_of_word,
        glue_marker=args.glue_marker,
        space_marker=args.space_marker,
        special_tokens=tuple(args.special),
        unknown=args.unknown,
        tie_break=args.tie_break,
        min_frequency=args.min_frequency,
    )
    tok = train(_read_text(args.corpus), config, merges=args.merges, vocab_size=args.vocab_size, top_k=args.top_k)
    tok.save(args.output)
    print(f"{len(tok.merges)} merges, vocabulary {len(tok.vocab)}: {tok.stop_message}", file=sys.stderr)


def _cmd_merges(args: argparse.Namespace) -> None:
    for pair in _load_model(args.model).merges:
        print(json.dumps(list(pair), ensure_ascii=False))


def _cmd_encode(args: argparse.Namespace) -> None:
    tok = _load_model(args.model)
    text = args.text if args.text is not None else sys.stdin.read()
    ids = tok.encode(text)
    print(json.dumps({"ids": ids, "tokens": [tok.token(i) for i in ids]}, ensure_ascii=False))


def _cmd_decode(args: argparse.Namespace) -> None:
    tok = _load_model(args.model)
    ids = []
    for item in args.ids:
        try:
            ids.append(int(item))
        except ValueError:
            raise ValueError(f"{item!r} is not a token id (ids are whole numbers)") from None
    sys.stdout.write(tok.decode(ids) + "\n")


def _cmd_export(args: argparse.Namespace) -> None:
    tok = _load_model(args.model)
    if args.format == "hf":
        _write(args.output, json.dumps(to_hf_json(tok), ensure_ascii=False, indent=1))
        return
    vocab, merges = to_gpt2_files(tok)
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    _write(str(folder / "vocab.json"), vocab)
    _write(str(folder / "merges.txt"), merges)


def _cmd_import(args: argparse.Namespace) -> None:
    tok = load_any({Path(path).name: _read_text(path) for path in args.paths})
    tok.save(args.output)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bpe_core", description="Train and use BPE tokenizers.")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("train", help="learn merges from a UTF-8 text file ('-' for standard input)")
    p.add_argument("corpus")
    p.add_argument("-o", "--output", required=True, help="where to write the model JSON")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--merges", type=int, help="number of merges to learn")
    size.add_argument("--vocab-size", type=int, help="final vocabulary size (base + special + merges)")
    p.add_argument("--split", choices=["none", "whitespace", "gpt2", "gpt4"], default="whitespace")
    p.add_argument("--units", choices=["chars", "bytes"], default="chars")
    p.add_argument("--end-of-word", metavar="MARKER", help="marker appended to each word, e.g. '</w>' or '_'")
    p.add_argument("--glue-marker", action="store_true", help="glue the marker to the last character")
    p.add_argument("--space-marker", action="store_true", help="chars mode: show a space as Ġ")
    p.add_argument("--min-frequency", type=int, default=1)
    p.add_argument("--special", action="append", default=[], metavar="TOKEN", help="a special token (repeatable)")
    p.add_argument("--unknown", choices=["unk", "byte_fallback"], default="unk")
    p.add_argument("--tie-break", choices=["first", "hf"], default="first")
    p.add_argument("--top-k", type=int, default=20, help="pairs recorded per step in the trace")
    p.set_defaults(run=_cmd_train)

    p = commands.add_parser("merges", help="print the merges, one JSON array per line")
    p.add_argument("model")
    p.set_defaults(run=_cmd_merges)

    p = commands.add_parser("encode", help="print {ids, tokens} for TEXT (or standard input)")
    p.add_argument("model")
    p.add_argument("text", nargs="?")
    p.set_defaults(run=_cmd_encode)

    p = commands.add_parser("decode", help="print the text for the ids")
    p.add_argument("model")
    p.add_argument("ids", nargs="+")
    p.set_defaults(run=_cmd_decode)

    p = commands.add_parser("export", help="write an HF tokenizer.json (hf) or vocab.json + merges.txt (gpt2)")
    p.add_argument("model")
    p.add_argument("--format", choices=["hf", "gpt2"], required=True)
    p.add_argument("-o", "--output", required=True, help="a file for hf, a folder for gpt2")
    p.set_defaults(run=_cmd_export)

    p = commands.add_parser("import", help="read a tokenizer.json or vocab.json + merges.txt into our format")
    p.add_argument("paths", nargs="+")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(run=_cmd_import)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except (ValueError, KeyError, OSError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        where = f" ({error.filename})" if isinstance(error, OSError) and error.filename else ""
        print(f"error: {message}{where}", file=sys.stderr)
        return 1
    return 0
