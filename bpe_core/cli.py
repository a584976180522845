"""Command line: ``python -m bpe_core train|count|merges|encode|decode|truncate|chat|premium|export|import``.

$ python -m bpe_core train corpus.txt --merges 100 --end-of-word "</w>" -o model.json
$ python -m bpe_core encode model.json "the lowest"
{"ids": [...], "tokens": [...]}
$ python -m bpe_core encode cl100k_base "the lowest"      # GPT-4's tokenizer (also gpt2, o200k_base)
$ python -m bpe_core encode llama3 "the lowest"           # an open model's (llama2, qwen3, gemma3, ...)
$ python -m bpe_core decode gemma3 2 9259 --keep-special  # HF's decode, special tokens kept
$ python -m bpe_core truncate cl100k_base 100 < long.txt  # its first 100 tokens' worth, whole characters
$ python -m bpe_core chat llama3 conversation.json        # the ids Llama 3 receives, ready for the reply
$ python -m bpe_core chat qwen3 conversation.json --count  # its counts: messages, tools, format; the window left
$ python -m bpe_core premium cl100k_base llama3 --format json   # each language's tokens / English's
$ python -m bpe_core count big/*.txt --split gpt2 --lines -o counts.tsv   # in blocks, on Dask workers
$ python -m bpe_core train --counts counts.tsv --split gpt2 --vocab-size 32000 -o model.json

Every failure is one line on standard error and exit status 1 (2 for bad arguments, and for any input ``premium``
refuses).  Outputs
are written atomically: a failed run leaves an existing file as it was.  A text input may be at
most ``MAX_INPUT_BYTES`` (256 MiB); a byte-order mark at its start is dropped (and said).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from itertools import islice
from pathlib import Path
from typing import Any

from .blocks import count_files
from .cli_arguments import build_parser
from .config import Config
from .formats import load_any, save_model, to_gpt2_files, to_hf_json, write_text_atomically
from .formats.counts_tsv import CountsHeader, counts_from_tsv, counts_to_tsv
from .formats.files import unpack_xz
from .languages import bundled_texts
from .premium import check_texts, premium_rows
from .pretokenize import lines
from .pretrained import PRETRAINED, load_pretrained
from .rank_tokenizer import AnyTokenizer
from .settings_table import CONFIG_SETTINGS
from .train import check_top_k, train, train_from_counts
from .truncate import check_budget, fit_prefix

MAX_INPUT_BYTES = 256 * 1024 * 1024  # what one Python process trains or encodes in a reasonable time
# Commands whose refusals exit 2, as argparse's bad arguments do (the premium's issue asks it); the older commands
# keep 1, which scripts may rely on.
REFUSED_INPUT_STATUS = {"premium": 2}
PREMIUM_COLUMNS = ("tokenizer", "language", "tokens", "premium", "bytes_per_token", "characters_per_token")


def _read_text(path: str) -> str:
    """A UTF-8 text file (``-``: standard input), at most MAX_INPUT_BYTES, without a leading BOM."""
    return _decoded(*_read_bytes(path))


def _read_model_file(path: str) -> tuple[str, str]:
    """A tokenizer file as (its name, its text): ``NAME.xz`` unpacked as the pages unpack an upload."""
    name, data = _read_bytes(path)
    inner, data = unpack_xz(name, data)  # within the pages' cap: a small file may unpack to gigabytes
    return Path(inner).name, _decoded(name, data)


def _read_bytes(path: str) -> tuple[str, bytes]:
    name = "standard input" if path == "-" else path
    if path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    else:
        with open(path, "rb") as stream:  # read in a bounded way: the file may be endless (/dev/zero)
            data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise ValueError(f"{name} is larger than the limit of {MAX_INPUT_BYTES // 2**20} MiB")
    return name, data


def _read_json(path: str) -> tuple[str, Any]:
    """A JSON file's name and value (``-``: standard input); a file that is not JSON is a ValueError naming it."""
    name, data = _read_bytes(path)
    try:
        return name, json.loads(_decoded(name, data))
    except json.JSONDecodeError as error:
        raise ValueError(f"{name} is not JSON ({error.msg} at line {error.lineno}, column {error.colno})") from None
    except RecursionError:
        raise ValueError(f"{name} is nested too deeply") from None


def _decoded(name: str, data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{name} is not UTF-8 text (byte {error.start}: {error.reason})") from None
    if text.startswith("\ufeff"):
        print(f"note: dropped the byte-order mark at the start of {name}", file=sys.stderr)
        text = text[1:]
    return text


def _check_output(output: str, inputs: list[str]) -> None:
    """Refuse to write over an input: a failed run would lose it, a successful one too."""
    target = Path(output).resolve()
    for path in inputs:
        if path != "-" and Path(path).resolve() == target:
            raise ValueError(f"the output {output} is also an input; choose another file")


def _load_model(path: str) -> AnyTokenizer:
    """A model file, or a published tokenizer by name (one of ``PRETRAINED``)."""
    if not Path(path).exists():
        if path in PRETRAINED:
            return load_pretrained(path)
        raise ValueError(f"{path} is neither a model file nor a published tokenizer ({', '.join(PRETRAINED)})")
    return load_any(dict([_read_model_file(path)]))


def _cmd_train(args: argparse.Namespace) -> None:
    if (args.corpus is None) == (args.counts is None):
        raise ValueError("give a corpus file or --counts TABLE (from python -m bpe_core count), not both")
    if args.counts and args.lines:
        raise ValueError("--lines is for reading text; a counts table already says how its text was read")
    _check_output(args.output, [args.corpus or args.counts])
    config = Config(**{row.name: getattr(args, row.name) for row in CONFIG_SETTINGS})
    # The race is only worth recording when it is written (--trace); without it training is faster.
    check_top_k(args.top_k)
    size = {
        "merges": args.merges,
        "vocab_size": args.vocab_size,
        "top_k": args.top_k if args.trace else 0,
        "max_vocab_chars": args.max_vocab_chars,
    }
    if args.counts:
        table, header = counts_from_tsv(_read_text(args.counts))
        if (header.split, header.special_tokens) != (config.split, config.special_tokens):
            flags = "".join(f" --special {token}" for token in header.special_tokens)
            raise ValueError(f"{args.counts} was counted with --split {header.split}{flags}; train with the same")
        tok = train_from_counts(table, config, specials_seen=header.specials_seen, **size)
    else:
        text = _read_text(args.corpus)
        if not text.strip():
            raise ValueError(f"{args.corpus} holds no text to learn from")
        tok = train(lines(text) if args.lines else text, config, **size)
    if args.vocab_size is not None and args.vocab_size < tok.base_size:
        raise ValueError(
            f"vocabulary size {args.vocab_size} is smaller than the base vocabulary of this corpus "
            f"({tok.base_size} symbols and special tokens); ask for at least {tok.base_size}"
        )
    save_model(tok, args.output, race=args.trace)
    for warning in tok.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"{len(tok.merges)} merges, vocabulary {len(tok.vocab)}: {tok.stop_message}", file=sys.stderr)


def _cmd_count(args: argparse.Namespace) -> None:
    _check_output(args.output, args.corpus)
    config = Config(split=args.split, special_tokens=tuple(args.special_tokens))
    if args.workers == 0:
        counts, seen = count_files(args.corpus, config, lines=args.lines, block_bytes=args.block_size)
    else:
        try:  # Dask serves this command only and takes a second to import: not loaded for the others
            from .dask_count import count_on_dask
        except ImportError:
            raise ValueError(
                "counting on workers needs Dask: pip install 'dask[distributed]' "
                "(or --workers 0 counts in this process)"
            ) from None
        counts, seen = count_on_dask(
            args.corpus,
            config,
            lines=args.lines,
            block_bytes=args.block_size,
            workers=args.workers,
            scheduler=args.scheduler,
        )
    if not counts:
        raise ValueError("the corpus holds no text to count")
    write_text_atomically(
        args.output, counts_to_tsv(counts, CountsHeader(args.split, config.special_tokens, args.lines, seen))
    )
    print(f"{len(counts):,} distinct pieces, {sum(counts.values()):,} in all", file=sys.stderr)


def _cmd_merges(args: argparse.Namespace) -> None:
    for pair in _load_model(args.model).merges:
        print(json.dumps(list(pair), ensure_ascii=False))


def _cmd_encode(args: argparse.Namespace) -> None:
    tok = _load_model(args.model)
    special = not args.no_special
    if args.ids_only and not args.add_special:
        _stream_ids(tok, args, special)
        return
    if args.input is not None:
        text = _read_text(args.input)
    else:
        text = args.text if args.text is not None else _read_text("-")
    ids = tok.encode(text, special=special)
    if args.add_special:
        ids = tok.with_model_specials(ids)
    if args.ids_only:
        print(" ".join(map(str, ids)))
        return
    print(json.dumps({"ids": ids, "tokens": [tok.token(i) for i in ids]}, ensure_ascii=False))


def _stream_ids(tok: AnyTokenizer, args: argparse.Namespace, special: bool) -> None:
    """Ids separated by spaces, written as they are known: memory stays flat for a file of any size."""
    if args.text is not None:
        chunks = iter([args.text])
    elif args.input in (None, "-"):
        chunks = _dropping_bom(iter(sys.stdin))
    else:
        # newline="" keeps \r\n as it is; the file is read a line at a time.
        stream = open(args.input, encoding="utf-8", newline="")
        chunks = _dropping_bom(iter(stream))
        if sys.stderr.isatty():
            chunks = _with_progress(chunks, os.path.getsize(args.input))
    separator = ""
    try:
        for batch in _batches(tok.encode_iterable(chunks, special=special)):
            sys.stdout.write(separator + " ".join(map(str, batch)))
            separator = " "
    except UnicodeDecodeError as error:
        raise ValueError(f"{args.input or 'standard input'} is not UTF-8 text ({error.reason})") from None
    sys.stdout.write("\n")


def _dropping_bom(lines):
    first = next(lines, "")
    if first.startswith("\ufeff"):
        print("note: dropped the byte-order mark at the start of the input", file=sys.stderr)
        first = first[1:]
    yield first
    yield from lines


def _with_progress(lines, total_bytes: int):
    """The lines, with how far they have got printed on standard error (a terminal) every 4 MiB or so."""
    read = reported = 0
    for line in lines:
        read += len(line)  # characters: close enough to bytes for a progress line
        if read - reported >= 4 * 2**20:
            reported = read
            print(
                f"\r{min(read / max(total_bytes, 1), 1):.0%} of {total_bytes / 2**20:.0f} MiB", end="", file=sys.stderr
            )
        yield line
    print(f"\r100% of {total_bytes / 2**20:.0f} MiB", file=sys.stderr)


def _batches(ids, size: int = 65536):
    ids = iter(ids)
    while batch := list(islice(ids, size)):
        yield batch


def _cmd_decode(args: argparse.Namespace) -> None:
    tok = _load_model(args.model)
    ids = []
    for item in args.ids:
        try:
            ids.append(int(item))
        except ValueError:
            raise ValueError(f"{item!r} is not a token id (ids are whole numbers)") from None
    # HF's decode drops special tokens unless asked not to; tiktoken's (and ours) keeps them
    skip = tok.runs_pipeline if args.skip_special is None else args.skip_special
    sys.stdout.write(tok.decode(ids, skip_special=skip) + "\n")


def _cmd_truncate(args: argparse.Namespace) -> None:
    """Standard input's longest beginning within the budget, written as it is (no newline added); what was cut is
    said on standard error."""
    check_budget(args.limit)
    tok = _load_model(args.model)
    text = _read_text("-")
    kept = fit_prefix(tok, text, args.limit, special=not args.no_special, add_special=args.add_special)
    if len(kept) < len(text):
        print(f"note: kept {len(kept):,} of {len(text):,} characters", file=sys.stderr)
    sys.stdout.write(kept)


def _cmd_chat(args: argparse.Namespace) -> None:
    from .chat import chat_format, render_conversation  # jinja2 is imported by this command only

    chat = chat_format(args.name)
    if chat.estimated and not args.count:
        raise ValueError(
            f"{chat.title}'s chat format is not published; OpenAI documents an estimate of its count only (add --count)"
        )
    messages, tools = _read_conversation(args.file)
    prompt = render_conversation(args.name, messages, ready_for_reply=not args.as_it_stands, tools=tools)
    if not args.count:
        print(json.dumps(prompt.ids))
        return
    counts = {"total": prompt.total, "messages": list(prompt.message_counts), "tools": prompt.tools_count}
    window = {"context_window": prompt.context_window, "remaining": prompt.remaining}
    note = {"tools_note": prompt.tools_note} if prompt.tools_note else {}
    print(json.dumps({**counts, "format": prompt.format_count, "estimated": chat.estimated, **window, **note}))


def _read_conversation(path: str) -> tuple[list, object]:
    """The messages and the tools (None: none) of a JSON file ``{"messages": [...], "tools": [...]}``."""
    name, conversation = _read_json(path)
    keys = set(conversation) if isinstance(conversation, dict) else set()
    if "messages" not in keys or keys - {"messages", "tools"}:
        raise ValueError(f'{name} is not {{"messages": [{{"role": ..., "content": ...}}, ...], "tools": [...]}}')
    return conversation["messages"], conversation.get("tools")


def _cmd_premium(args: argparse.Namespace) -> None:
    texts = bundled_texts() if args.texts is None else _read_texts(args.texts)
    check_texts(texts, args.reference)  # before any tokenizer is loaded: a refusal comes at once
    rows = [
        {"tokenizer": name, **asdict(row)}
        for name in args.names
        for row in premium_rows(_load_model(name), texts, args.reference)
    ]
    if args.format == "json":
        print(json.dumps({"reference": args.reference, "rows": rows}, ensure_ascii=False))
        return
    print("\t".join(PREMIUM_COLUMNS))
    for row in rows:
        print("\t".join(_tsv_field(row[column]) for column in PREMIUM_COLUMNS))


def _read_texts(path: str) -> dict[str, str]:
    """A JSON file's object from a language code to its text."""
    name, texts = _read_json(path)
    if not isinstance(texts, dict) or not all(isinstance(text, str) for text in texts.values()):
        raise ValueError(f'{name} is not a JSON object from a language code to its text ({{"eng": "...", ...}})')
    return texts


def _tsv_field(value: object) -> str:
    """A value as a TSV field: a number to 4 decimals, a text's tabs and line breaks written as escapes."""
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _cmd_export(args: argparse.Namespace) -> None:
    tok = _load_model(args.model)
    if args.format == "hf":
        write_text_atomically(args.output, json.dumps(to_hf_json(tok), ensure_ascii=False, indent=1))
        return
    vocab, merges = to_gpt2_files(tok)
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    write_text_atomically(str(folder / "vocab.json"), vocab)
    write_text_atomically(str(folder / "merges.txt"), merges)


def _cmd_import(args: argparse.Namespace) -> None:
    _check_output(args.output, args.paths)
    tok = load_any(dict(map(_read_model_file, args.paths)))
    save_model(tok, args.output)


# what each command of ``bpe_core.cli_arguments.COMMANDS`` runs
RUNS = {
    "train": _cmd_train,
    "count": _cmd_count,
    "merges": _cmd_merges,
    "encode": _cmd_encode,
    "decode": _cmd_decode,
    "truncate": _cmd_truncate,
    "chat": _cmd_chat,
    "premium": _cmd_premium,
    "export": _cmd_export,
    "import": _cmd_import,
}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        RUNS[args.command](args)
    except BrokenPipeError:
        # The reader stopped early (``| head``): not an error.  Point stdout at nothing so that
        # Python's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, KeyError, OSError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        where = f" ({error.filename})" if isinstance(error, OSError) and error.filename else ""
        print(f"error: {message}{where}", file=sys.stderr)
        return REFUSED_INPUT_STATUS.get(args.command, 1)
    return 0
